//! An object pool: a custom deleter returns objects to a free list instead of freeing them (seed 001, F3).

use super::header::Object;
use super::obj_ref::ObjRef;
use super::object_type::ObjectType;
use parking_lot::Mutex;
use std::alloc::{Layout, alloc, dealloc, handle_alloc_error};
use std::ptr::NonNull;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// One pooled allocation: the object first (so its address is the object's), then its pool.
#[repr(C)]
struct Slot<T> {
    object: T,
    pool: Arc<PoolInner<T>>,
}

struct PoolInner<T> {
    /// Slots whose object was dropped; their memory is allocated but uninitialised.
    free: Mutex<Vec<NonNull<Slot<T>>>>,
    fresh_allocations: AtomicUsize,
    reuses: AtomicUsize,
}

// SAFETY: the free list holds only unowned memory, guarded by the mutex.
unsafe impl<T: Send> Send for PoolInner<T> {}
// SAFETY: as above.
unsafe impl<T: Send> Sync for PoolInner<T> {}

impl<T> Drop for PoolInner<T> {
    fn drop(&mut self) {
        for slot in self.free.get_mut().drain(..) {
            // SAFETY: free slots were allocated with this layout and hold no live value.
            unsafe { dealloc(slot.as_ptr().cast(), Layout::new::<Slot<T>>()) };
        }
    }
}

/// A pool of objects of type `T` that reuses their memory.
pub struct ObjectPool<T: ObjectType> {
    inner: Arc<PoolInner<T>>,
}

unsafe extern "C" fn return_to_pool<T: ObjectType>(obj: *mut Object) {
    let slot = obj.cast::<Slot<T>>();
    // SAFETY: installed only by `ObjectPool::make`, so `obj` is the start of a live Slot<T>;
    // we drop the object, move the pool handle out, and file the memory as free.
    unsafe {
        std::ptr::drop_in_place(&raw mut (*slot).object);
        let pool = std::ptr::read(&raw const (*slot).pool);
        pool.free.lock().push(NonNull::new_unchecked(slot));
        // Dropping `pool` here may free the pool (and this slot) if it was the last handle.
    }
}

impl<T: ObjectType> ObjectPool<T> {
    /// An empty pool.
    pub fn new() -> Self {
        ObjectPool {
            inner: Arc::new(PoolInner {
                free: Mutex::new(Vec::new()),
                fresh_allocations: AtomicUsize::new(0),
                reuses: AtomicUsize::new(0),
            }),
        }
    }

    /// Makes an object from `value`, reusing a returned slot when there is one.
    pub fn make(&self, value: T) -> ObjRef<T> {
        let reused = self.inner.free.lock().pop();
        let slot = match reused {
            Some(slot) => {
                self.inner.reuses.fetch_add(1, Ordering::Relaxed);
                slot
            }
            None => {
                self.inner.fresh_allocations.fetch_add(1, Ordering::Relaxed);
                let layout = Layout::new::<Slot<T>>();
                // SAFETY: Slot<T> has non-zero size (it holds at least the header).
                let p = unsafe { alloc(layout) }.cast::<Slot<T>>();
                NonNull::new(p).unwrap_or_else(|| handle_alloc_error(layout))
            }
        };
        // SAFETY: `slot` is allocated, uninitialised memory for a Slot<T>; we fill both fields,
        // then adopt the object whose deleter gives the slot back to this pool.
        unsafe {
            slot.as_ptr().write(Slot { object: value, pool: self.inner.clone() });
            ObjRef::adopt(slot.cast::<T>(), return_to_pool::<T>)
        }
    }

    /// How many slots were allocated fresh.
    pub fn fresh_allocations(&self) -> usize {
        self.inner.fresh_allocations.load(Ordering::Relaxed)
    }

    /// How many objects were made in a reused slot.
    pub fn reuses(&self) -> usize {
        self.inner.reuses.load(Ordering::Relaxed)
    }

    /// How many returned slots are waiting for reuse.
    pub fn free_slots(&self) -> usize {
        self.inner.free.lock().len()
    }
}

impl<T: ObjectType> Default for ObjectPool<T> {
    fn default() -> Self {
        Self::new()
    }
}
