//! Running deleters without unbounded recursion.
//!
//! Freeing a list frees its items, and an item that is a list frees its own
//! items from inside the first deleter: a list nested a million levels deep
//! (`for i in range(n): x = [x]` in a script) would recurse a million frames and
//! overflow the stack. Deleters that start while [`MAX_NESTED_DELETERS`] are
//! already running on the thread are queued instead, and the outermost one runs
//! the queue in a loop, so the stack stays bounded however deep the nesting.

use super::header::Object;
use std::cell::{Cell, UnsafeCell};
use std::ptr::NonNull;

/// How many deleters may run nested on one thread before further ones are queued.
///
/// Rationale: a nested free costs a few hundred bytes of stack per level (the
/// deleter, the item loop, `dec_ref`), so 64 levels stay far below the smallest
/// thread stack, while the ordinary case (a list of lists of strings) never queues.
pub const MAX_NESTED_DELETERS: u32 = 64;

thread_local! {
    /// Deleters running on this thread right now.
    static RUNNING: Cell<u32> = const { Cell::new(0) };
    /// Whether `QUEUED` may hold objects: a plain flag, so that the common free (nothing
    /// queued) never touches the queue, whose thread-local needs a lazily registered destructor.
    static ANY_QUEUED: Cell<bool> = const { Cell::new(false) };
    /// Objects whose count reached zero while `RUNNING` was at the limit, waiting for their deleter.
    static QUEUED: UnsafeCell<Vec<NonNull<Object>>> = const { UnsafeCell::new(Vec::new()) };
}

/// Runs the deleter of `obj`, now or, when deleters are already nested too deep, from the
/// outermost one's loop.
///
/// # Safety
/// `obj`'s count must have reached zero, and the caller must give up its last handle to it.
#[inline]
pub(crate) unsafe fn run_deleter(obj: NonNull<Object>) {
    let running = RUNNING.get();
    if running >= MAX_NESTED_DELETERS && queue(obj) {
        return;
    }
    RUNNING.set(running + 1);
    // SAFETY: the caller passes the last handle of a dead object.
    unsafe { call_deleter(obj) };
    if running == 0 && ANY_QUEUED.get() {
        drain_queue();
    }
    RUNNING.set(running);
}

/// Calls the header's deleter, if any.
///
/// # Safety
/// As [`run_deleter`].
#[inline(always)]
unsafe fn call_deleter(obj: NonNull<Object>) {
    // SAFETY: the object is alive until its deleter runs (the caller's contract).
    if let Some(deleter) = unsafe { obj.as_ref() }.deleter {
        // SAFETY: the count reached zero, so this is the last owner.
        unsafe { deleter(obj.as_ptr()) }
    }
}

/// Files `obj` for the outermost deleter; false when the thread's queue is gone (thread exit),
/// in which case the caller runs the deleter itself.
#[cold]
fn queue(obj: NonNull<Object>) -> bool {
    // SAFETY: the queue is thread-local and no reference to it outlives this call.
    let queued = QUEUED.try_with(|q| unsafe { &mut *q.get() }.push(obj)).is_ok();
    ANY_QUEUED.set(ANY_QUEUED.get() || queued);
    queued
}

/// Runs queued deleters until none are left (a deleter may queue more).
#[cold]
#[inline(never)]
fn drain_queue() {
    loop {
        // SAFETY: thread-local, and the reference ends before the deleter runs (which may push).
        let next = QUEUED.try_with(|q| unsafe { &mut *q.get() }.pop()).ok().flatten();
        let Some(obj) = next else { break };
        // SAFETY: only objects whose count reached zero are queued, each once, by `run_deleter`.
        unsafe { call_deleter(obj) };
    }
    ANY_QUEUED.set(false);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// A chain of objects, each owning the next, freed by a deleter that records the
    /// deepest nesting it saw and frees the next link.
    #[repr(C)]
    struct Link {
        header: Object,
        next: Option<NonNull<Object>>,
    }

    static FREED: AtomicUsize = AtomicUsize::new(0);
    static DEEPEST: AtomicUsize = AtomicUsize::new(0);

    unsafe extern "C" fn free_link(obj: *mut Object) {
        // SAFETY: every `Link` below is made by `Box::into_raw` and freed once here.
        let link = unsafe { Box::from_raw(obj.cast::<Link>()) };
        FREED.fetch_add(1, Ordering::Relaxed);
        DEEPEST.fetch_max(RUNNING.get() as usize, Ordering::Relaxed);
        if let Some(next) = link.next {
            // SAFETY: each link owns the only handle to the next one.
            unsafe { run_deleter(next) };
        }
    }

    #[test]
    fn a_million_nested_deleters_stay_within_the_nesting_limit() {
        let mut next = None;
        for _ in 0..1_000_000 {
            let mut header = Object::blank();
            header.deleter = Some(free_link);
            let link = Box::into_raw(Box::new(Link { header, next }));
            next = NonNull::new(link.cast::<Object>());
        }
        // SAFETY: the head link's only handle is given up here.
        unsafe { run_deleter(next.expect("a chain")) };
        assert_eq!(FREED.load(Ordering::Relaxed), 1_000_000);
        assert_eq!(DEEPEST.load(Ordering::Relaxed), MAX_NESTED_DELETERS as usize);
        assert_eq!(RUNNING.get(), 0);
    }
}
