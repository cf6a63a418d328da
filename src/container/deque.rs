//! `Deque`: Python's `collections.deque`, a shared double-ended queue of any-values with an
//! optional maximum length (appending to a full one drops an item from the other end).
//!
//! Rationale: a ring buffer (`VecDeque`), so that `append`/`appendleft`/`pop`/`popleft` cost
//! O(1) as CPython's block list does; a list would make `popleft` O(n), and a token buffer
//! drained from the left quadratic.

use crate::any::{AnyValue, values_equal};
use crate::object::{ObjPtr, ObjRef, Object, TypeHooks};
use parking_lot::RwLock;
use std::collections::VecDeque;

/// The heap object behind a `Deque`.
#[repr(C)]
pub struct DequeObj {
    header: Object,
    items: RwLock<VecDeque<AnyValue>>,
    /// `maxlen`: `None` for a deque that grows without bound.
    maxlen: Option<usize>,
}

crate::declare_object_type!(DequeObj, "collections.deque", parent = Object, child_slots = 0, hooks = Some(&HOOKS));

static HOOKS: TypeHooks = TypeHooks {
    eq: |a, b, depth| {
        let (Some(x), Some(y)) = (a.downcast_ref::<DequeObj>(), b.downcast_ref::<DequeObj>()) else { return false };
        // Snapshots first: an item may be the deque itself, whose lock its comparison takes.
        let (xs, ys) = (x.to_vec(), y.to_vec());
        xs.len() == ys.len() && xs.iter().zip(&ys).all(|(p, q)| values_equal(p.value(), q.value(), depth))
    },
    // Unhashable to Python (`check_hashable` refuses it first); by identity where a hash is
    // needed anyway.
    hash: |p, state, _| state.write_usize(p.as_raw().as_ptr() as usize),
    repr: |p, f, _| write!(f, "<collections.deque object at {:#x}>", p.as_raw().as_ptr() as usize),
};

impl DequeObj {
    /// The number of items.
    pub fn len(&self) -> usize {
        self.items.read_recursive().len()
    }

    /// Whether there are no items.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The maximum length, if any.
    pub fn maxlen(&self) -> Option<usize> {
        self.maxlen
    }

    /// The item at position `i`, if there is one.
    pub fn get(&self, i: usize) -> Option<AnyValue> {
        self.items.read_recursive().get(i).cloned()
    }

    /// A copy of the items, front to back, taken under the lock and compared after it.
    pub fn to_vec(&self) -> Vec<AnyValue> {
        self.items.read_recursive().iter().cloned().collect()
    }

    /// Runs `f` on the items under the write lock. `f` must not compare items (an item may be
    /// the deque itself): take [`to_vec`](Self::to_vec) for that.
    pub fn with_items_mut<R>(&self, f: impl FnOnce(&mut VecDeque<AnyValue>) -> R) -> R {
        f(&mut self.items.write())
    }

    /// Adds `item` at the back (`append`), dropping the front one when the deque is full.
    pub fn push_back(&self, item: AnyValue) {
        let dropped = self.with_items_mut(|items| {
            items.push_back(item);
            self.trim(items, true)
        });
        drop(dropped);
    }

    /// Adds `item` at the front (`appendleft`), dropping the back one when the deque is full.
    pub fn push_front(&self, item: AnyValue) {
        let dropped = self.with_items_mut(|items| {
            items.push_front(item);
            self.trim(items, false)
        });
        drop(dropped);
    }

    /// Past `maxlen`, removes an item from the front (after a push at the back) or the back;
    /// the item is returned so that it is dropped after the lock is released.
    fn trim(&self, items: &mut VecDeque<AnyValue>, from_front: bool) -> Option<AnyValue> {
        let max = self.maxlen?;
        if items.len() <= max {
            return None;
        }
        if from_front { items.pop_front() } else { items.pop_back() }
    }
}

/// A shared handle to a deque.
#[derive(Clone)]
pub struct Deque(ObjRef<DequeObj>);

impl Deque {
    /// A deque of `items` (the last `maxlen` of them when they are more).
    pub fn new(items: Vec<AnyValue>, maxlen: Option<usize>) -> Self {
        let mut items: VecDeque<AnyValue> = items.into();
        if let Some(max) = maxlen {
            let excess = items.len().saturating_sub(max);
            items.drain(..excess);
        }
        Deque(ObjRef::new(DequeObj { header: Object::blank(), items: RwLock::new(items), maxlen }))
    }

    /// The deque as a value.
    pub fn into_any(self) -> AnyValue {
        AnyValue::from_object(self.0)
    }
}

/// The deque behind `o`, if it is one.
pub fn deque_obj<'a>(o: ObjPtr<'a>) -> Option<&'a DequeObj> {
    o.downcast_ref::<DequeObj>()
}
