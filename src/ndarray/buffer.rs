//! Owned array memory: 64-byte-aligned buffers, with a small process-wide cache of freed large ones.
//!
//! Rationale: a batch of padded ids is tens of MB; allocating it fresh every batch
//! costs a page fault per 4 KiB (the kernel zeroes each page on first touch). A
//! pipeline makes batches of the same size again and again, so a buffer that was
//! dropped is kept and handed to the next batch of that size. The cache is shared by all
//! threads, not kept per thread: batches are collated on pool workers and usually dropped
//! by another thread (the one writing them out), so a per-thread cache never gave a worker
//! back what it made; one lock per megabyte-sized allocation costs nothing measurable.

use parking_lot::Mutex;
use std::alloc::{Layout, alloc_zeroed, dealloc};
use std::ptr::NonNull;

/// Alignment of owned buffers: a cache line, enough for any SIMD load.
pub const ALIGNMENT: usize = 64;
/// Buffers smaller than this are not cached (the allocator serves them well).
const MIN_CACHED_BYTES: usize = 1 << 20;
/// At most this many bytes of freed buffers are kept.
const MAX_CACHED_BYTES: usize = 256 << 20;
/// At most this many freed buffers are kept: a window of batches in flight (`anyproc run` runs
/// two per thread) makes up to three tensors each.
const MAX_CACHED_BUFFERS: usize = 16;

/// Raw parts of an allocation made by `Buffer`; plain data, so moving it never frees anything.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Block {
    ptr: NonNull<u8>,
    layout: Layout,
}

// SAFETY: a block is plain memory with no thread affinity; whoever holds it owns it.
unsafe impl Send for Block {}

impl Block {
    /// # Safety
    /// The block must come from `Buffer::zeroed` and not be used afterwards.
    unsafe fn free(self) {
        // SAFETY: allocated with exactly this layout (caller's contract).
        unsafe { dealloc(self.ptr.as_ptr(), self.layout) }
    }
}

/// Freed large blocks, reused by size.
struct Cache {
    blocks: Vec<Block>,
    bytes: usize,
}

static CACHE: Mutex<Cache> = Mutex::new(Cache { blocks: Vec::new(), bytes: 0 });

fn take_cached(layout: Layout) -> Option<Block> {
    let mut c = CACHE.lock();
    // The most recently freed block of the size: it is the one most likely still in
    // the cache. Taking any other made repeated batches cycle through every cached
    // block (tens of MB each), so that every write missed the cache: twice the time.
    let i = c.blocks.iter().rposition(|b| b.layout == layout)?;
    c.bytes -= layout.size();
    Some(c.blocks.remove(i))
}

/// Files `block` in the cache; false if it does not fit.
fn put_cached(block: Block) -> bool {
    let mut c = CACHE.lock();
    let size = block.layout.size();
    if c.blocks.len() < MAX_CACHED_BUFFERS && c.bytes + size <= MAX_CACHED_BYTES {
        c.bytes += size;
        c.blocks.push(block);
        true
    } else {
        false
    }
}

/// A heap buffer of at least one byte, 64-byte aligned, always initialised.
pub(crate) struct Buffer(Block);

// SAFETY: a Buffer is plain owned memory.
unsafe impl Send for Buffer {}
// SAFETY: shared access only hands out the pointer.
unsafe impl Sync for Buffer {}

impl Buffer {
    fn layout_for(bytes: usize) -> Option<Layout> {
        // At least one byte: a zero-size allocation is not allowed, and empty arrays still need a pointer.
        Layout::from_size_align(bytes.max(1), ALIGNMENT).ok()
    }

    /// A fresh zero-filled buffer of `bytes` bytes; `None` if the size cannot be laid out or
    /// the allocator refuses it (the caller reports that, rather than the process aborting).
    pub(crate) fn zeroed(bytes: usize) -> Option<Buffer> {
        let layout = Self::layout_for(bytes)?;
        // SAFETY: the layout has non-zero size.
        let ptr = NonNull::new(unsafe { alloc_zeroed(layout) })?;
        Some(Buffer(Block { ptr, layout }))
    }

    /// A buffer of `bytes` bytes whose contents are initialised but unspecified: zeros, or
    /// what an earlier array of the same size held. For callers that overwrite every byte.
    pub(crate) fn scratch(bytes: usize) -> Option<Buffer> {
        let layout = Self::layout_for(bytes)?;
        if layout.size() >= MIN_CACHED_BYTES {
            if let Some(block) = take_cached(layout) {
                return Some(Buffer(block));
            }
        }
        Self::zeroed(bytes)
    }

    /// Start of the buffer.
    pub(crate) fn ptr(&self) -> NonNull<u8> {
        self.0.ptr
    }
}

impl Drop for Buffer {
    fn drop(&mut self) {
        if self.0.layout.size() >= MIN_CACHED_BYTES && put_cached(self.0) {
            return;
        }
        // SAFETY: allocated by `zeroed`, and not handed to the cache.
        unsafe { self.0.free() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_most_recently_freed_buffer_of_a_size_is_reused_first() {
        // A size no other test uses, since the cache is shared by the test threads.
        let bytes = 2 * MIN_CACHED_BYTES + 3 * ALIGNMENT;
        let (a, b) = (Buffer::scratch(bytes).unwrap(), Buffer::scratch(bytes).unwrap());
        let (pa, pb) = (a.ptr(), b.ptr());
        assert_ne!(pa, pb);
        drop(a);
        drop(b);
        // LIFO: `b` was freed last, so it comes back first, then `a`.
        let first = Buffer::scratch(bytes).unwrap();
        let second = Buffer::scratch(bytes).unwrap();
        assert_eq!((first.ptr(), second.ptr()), (pb, pa));
        // A size nobody freed is a fresh allocation, not a cached block of another size.
        let other = Buffer::scratch(bytes + ALIGNMENT).unwrap();
        assert!(other.ptr() != pa && other.ptr() != pb);
    }

    #[test]
    fn a_buffer_freed_on_another_thread_is_reused() {
        // Collated on a worker, dropped by the thread that writes the batch out.
        let bytes = 2 * MIN_CACHED_BYTES + 5 * ALIGNMENT;
        let made = Buffer::scratch(bytes).unwrap();
        let p = made.ptr();
        std::thread::spawn(move || drop(made)).join().unwrap();
        assert_eq!(Buffer::scratch(bytes).unwrap().ptr(), p);
    }
}
