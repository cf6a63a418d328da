//! Per-thread recycling of hot object types (seed 001, F3).
//!
//! The deleter of a recyclable object resets it and files it in a thread-local
//! bin instead of freeing it; the next creation on that thread takes it back,
//! buffers included. A list per word then costs no allocation in steady state.

use super::header::Object;
use super::obj_ref::ObjRef;
use super::object_type::ObjectType;
use std::cell::UnsafeCell;
use std::ptr::NonNull;
use std::thread::LocalKey;

/// An object type whose dropped instances are kept for reuse.
pub trait Recycle: ObjectType {
    /// Clears the object for reuse; returns false to free it instead (say, an oversized buffer).
    fn reset(&mut self) -> bool;
    /// This type's bin: a `thread_local!` holding a `RecycleBin<Self>`.
    fn bin() -> &'static LocalKey<RecycleBin<Self>>;
}

/// A bounded per-thread stack of reset objects.
pub struct RecycleBin<T> {
    // Rationale: an `UnsafeCell`, not a `RefCell`: `take` and `put` never call out while they
    // hold the vector, so no second borrow can exist, and the borrow-flag checks were a
    // measurable part of making a list per word.
    items: UnsafeCell<Vec<Box<T>>>,
    capacity: usize,
}

impl<T> RecycleBin<T> {
    /// An empty bin that keeps at most `capacity` objects.
    pub const fn new(capacity: usize) -> Self {
        RecycleBin { items: UnsafeCell::new(Vec::new()), capacity }
    }

    #[inline]
    fn take(&self) -> Option<Box<T>> {
        // SAFETY: the bin is thread-local (so `&self` is this thread's only access path) and
        // nothing below calls out of this function while the reference lives, so no other
        // reference to the vector exists.
        unsafe { &mut *self.items.get() }.pop()
    }

    /// Files `obj`, or hands it back when the bin is full.
    #[inline]
    fn put(&self, obj: Box<T>) -> Option<Box<T>> {
        // SAFETY: as in `take`; a full bin hands the box back for the caller to drop after
        // the reference is gone, so no deleter runs while it lives.
        let items = unsafe { &mut *self.items.get() };
        if items.len() < self.capacity {
            items.push(obj);
            None
        } else {
            Some(obj)
        }
    }
}

unsafe extern "C" fn recycle<T: Recycle>(obj: *mut Object) {
    // SAFETY: installed only by `ObjRef::new_recycled`, which made `obj` from a `Box<T>`.
    let mut boxed = unsafe { Box::from_raw(obj.cast::<T>()) };
    if !boxed.reset() {
        return;
    }
    // After thread-local destruction `try_with` fails and the box is simply freed.
    if let Ok(Some(rejected)) = T::bin().try_with(|bin| bin.put(boxed)) {
        drop(rejected);
    }
}

impl<T: Recycle> ObjRef<T> {
    /// A new object, reusing one this thread dropped before (after `prepare`); `fresh` makes one
    /// when the bin is empty.
    // Rationale: always inlined, with the allocation out of line: called once per word, the
    // call itself (saving and restoring registers) cost 20 of the 367 instructions of the
    // seed's function called from Rust (callgrind).
    #[inline(always)]
    pub fn new_recycled(fresh: impl FnOnce() -> T, prepare: impl FnOnce(&mut T)) -> Self {
        match T::bin().try_with(RecycleBin::take).ok().flatten() {
            Some(mut reused) => {
                prepare(&mut reused);
                // SAFETY: an object of this type made by `adopt` below and filed by `recycle::<T>`
                // when its count reached zero: its header still names its type and deleter (and
                // its hooks are installed), so only the count starts again.
                unsafe { Self::revive(NonNull::from(Box::leak(reused))) }
            }
            None => Self::new_recyclable(fresh),
        }
    }

    /// A new heap object that its deleter will file in this thread's bin.
    #[cold]
    #[inline(never)]
    fn new_recyclable(fresh: impl FnOnce() -> T) -> Self {
        // SAFETY: a unique Box allocation of T; `recycle::<T>` frees or files it as a Box<T>.
        unsafe { Self::adopt(NonNull::from(Box::leak(Box::new(fresh()))), recycle::<T>) }
    }
}
