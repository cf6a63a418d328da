//! [`StackSlots`]: a call's registers in a fixed array on the stack.
//!
//! Rationale: a small script function called once per word (the seed's `unicode_split_any`)
//! spent more on its frame than on its body: taking a pooled vector from a thread-local,
//! growing it, filling it and handing it back. An array on the stack costs a few stores to
//! fill, and one scan of its type indices to empty.

use super::pad::{AnyPad, any_object};
use super::view::AnyView;
use std::mem::MaybeUninit;
use std::ops::{Deref, DerefMut};

/// Up to `CAP` values on the stack, of which the first `len` are live.
pub struct StackSlots<const N: usize, const CAP: usize> {
    items: [MaybeUninit<AnyPad<N>>; CAP],
    len: usize,
}

impl<const N: usize, const CAP: usize> StackSlots<N, CAP> {
    /// No slots yet (nothing is written: the array stays uninitialised until [`Self::fill`]).
    #[inline(always)]
    pub fn new() -> Self {
        StackSlots { items: [const { MaybeUninit::uninit() }; CAP], len: 0 }
    }

    /// Makes the slots copies of `args` followed by `None`s, `len` in all; false (changing
    /// nothing) if `len` exceeds `CAP`, is less than the number of arguments, or slots are
    /// filled already.
    ///
    /// Filled in place rather than returned by a constructor: moving the array out of an
    /// `Option` cost a copy of all `CAP` slots per call.
    #[inline(always)]
    pub fn fill(&mut self, args: &[AnyView<'_>], len: usize) -> bool {
        if len > CAP || args.len() > len || self.len != 0 {
            return false;
        }
        for (item, arg) in self.items.iter_mut().zip(args) {
            item.write(arg.to_owned());
            // Counted as it is written, so that a panic in a later copy frees this one.
            self.len += 1;
        }
        for item in &mut self.items[args.len()..len] {
            item.write(AnyPad::none());
        }
        self.len = len;
        true
    }
}

impl<const N: usize, const CAP: usize> Default for StackSlots<N, CAP> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize, const CAP: usize> Deref for StackSlots<N, CAP> {
    type Target = [AnyPad<N>];

    #[inline(always)]
    fn deref(&self) -> &[AnyPad<N>] {
        // SAFETY: the first `len` items are initialised (`fill` writes them before counting them, and
        // nothing shrinks `len`).
        unsafe { std::slice::from_raw_parts(self.items.as_ptr().cast(), self.len) }
    }
}

impl<const N: usize, const CAP: usize> DerefMut for StackSlots<N, CAP> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [AnyPad<N>] {
        // SAFETY: as in `deref`; the slice borrows `self` mutably, so it is the only access.
        unsafe { std::slice::from_raw_parts_mut(self.items.as_mut_ptr().cast(), self.len) }
    }
}

impl<const N: usize, const CAP: usize> Drop for StackSlots<N, CAP> {
    #[inline]
    fn drop(&mut self) {
        // Registers mostly end holding inline values: one scan of their type indices, and a
        // drop per slot only when some slot holds an object.
        if any_object(self) {
            let live: *mut [AnyPad<N>] = &mut **self;
            // SAFETY: the first `len` items are initialised and dropped here exactly once.
            unsafe { std::ptr::drop_in_place(live) }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{AnyValue, List};

    #[test]
    fn arguments_then_none() {
        let mut slots = StackSlots::<1, 8>::new();
        assert!(slots.fill(&[AnyView::from(1i64), AnyView::from("héllo")], 4));
        assert!(!slots.fill(&[], 1), "filled twice");
        let got: Vec<String> = slots.iter().map(|s| s.to_string()).collect();
        assert_eq!(got, ["1", "héllo", "None", "None"]);
    }

    #[test]
    fn refuses_what_does_not_fit() {
        assert!(!StackSlots::<1, 2>::new().fill(&[], 3));
        let mut slots = StackSlots::<1, 4>::new();
        assert!(!slots.fill(&[AnyView::from(1i64), AnyView::from(2i64)], 1));
        assert!(slots.is_empty());
    }

    #[test]
    fn frees_the_objects_it_holds_once() {
        let list = AnyValue::from(List::from_iter([AnyValue::from(1i64)]));
        let long = AnyValue::from("a string longer than sixteen bytes");
        let count = |v: &AnyValue| v.as_obj().map(|o| o.header().ref_count());
        {
            let mut slots = StackSlots::<1, 4>::new();
            assert!(slots.fill(&[list.view(), long.view()], 3));
            slots[2] = AnyPad::from(list.clone());
            assert_eq!((count(&list), count(&long)), (Some(3), Some(2)));
        }
        assert_eq!((count(&list), count(&long)), (Some(1), Some(1)));
    }
}
