//! Objects that store a header, a length and their elements in one allocation.
//!
//! Heap strings use these: one allocation per string, and the data sits right
//! after the header, as in the DESIGN's string layout.

use super::header::Object;
use super::obj_ref::ObjRef;
use super::object_type::ObjectType;
use std::alloc::{Layout, alloc, dealloc, handle_alloc_error};
use std::marker::PhantomData;
use std::ptr::NonNull;

/// The element type and type index of one kind of tail array.
///
/// # Safety
/// `TYPE_INDEX` must be a static object index not used by any other Rust type.
pub unsafe trait TailKind: Send + Sync + 'static {
    /// The element type.
    type Elem: Copy + Send + Sync + 'static;
    /// The object type index.
    const TYPE_INDEX: i32;
    /// The type key.
    const TYPE_KEY: &'static str;
}

/// A heap object: header, length, then `len` elements in the same allocation.
#[repr(C)]
pub struct TailArray<K: TailKind> {
    header: Object,
    len: usize,
    _kind: PhantomData<K>,
    _elems: [K::Elem; 0],
}

// SAFETY: repr(C) with the header first.
unsafe impl<K: TailKind> ObjectType for TailArray<K> {
    const TYPE_KEY: &'static str = K::TYPE_KEY;
    fn type_index() -> i32 {
        K::TYPE_INDEX
    }
}

fn layout_for<K: TailKind>(len: usize) -> Layout {
    let (layout, _) = Layout::new::<TailArray<K>>()
        .extend(Layout::array::<K::Elem>(len).unwrap_or_else(|_| capacity_overflow()))
        .unwrap_or_else(|_| capacity_overflow());
    layout.pad_to_align()
}

#[cold]
fn capacity_overflow() -> ! {
    // Same policy as Vec: a length whose layout overflows isize cannot be allocated.
    std::alloc::handle_alloc_error(Layout::new::<u8>())
}

unsafe extern "C" fn free_tail_array<K: TailKind>(obj: *mut Object) {
    // SAFETY: installed only by `TailArray::from_slice` for a TailArray<K>; elements are Copy.
    unsafe {
        let len = (*obj.cast::<TailArray<K>>()).len;
        dealloc(obj.cast(), layout_for::<K>(len));
    }
}

impl<K: TailKind> TailArray<K> {
    /// A new object holding a copy of `elems`.
    pub fn from_slice(elems: &[K::Elem]) -> ObjRef<Self> {
        Self::from_iter_exact(elems.len(), elems.iter().copied())
    }

    /// A new object filled from an iterator that yields exactly `len` elements.
    ///
    /// If the iterator ends early, the result holds only what arrived.
    pub fn from_iter_exact(len: usize, elems: impl Iterator<Item = K::Elem>) -> ObjRef<Self> {
        Self::try_from_iter_exact(len, elems).unwrap_or_else(|| handle_alloc_error(layout_for::<K>(len)))
    }

    /// As [`from_iter_exact`](Self::from_iter_exact), but `None` when the allocator refuses the
    /// memory, for sizes that come from input (`"ab" * n`) and must fail without aborting.
    pub fn try_from_iter_exact(len: usize, elems: impl Iterator<Item = K::Elem>) -> Option<ObjRef<Self>> {
        let layout = layout_for::<K>(len);
        // SAFETY: the layout has non-zero size (it holds the header).
        let base = unsafe { alloc(layout) }.cast::<TailArray<K>>();
        let base = NonNull::new(base)?;
        // SAFETY: `base` is a fresh allocation sized for `len` elements after the header;
        // we write at most `len` elements and record how many we wrote, so the
        // deleter recomputes a layout no larger than the one allocated.
        unsafe {
            let data = base.as_ptr().add(1).cast::<K::Elem>();
            let mut written = 0;
            for e in elems.take(len) {
                data.add(written).write(e);
                written += 1;
            }
            base.as_ptr().write(TailArray { header: Object::blank(), len, _kind: PhantomData, _elems: [] });
            if written != len {
                // The iterator ended early (a caller bug, not an input error): keep what
                // arrived in an exactly sized copy, and free this allocation with its own layout.
                let copy = Self::from_slice(std::slice::from_raw_parts(data, written));
                dealloc(base.as_ptr().cast(), layout);
                return Some(copy);
            }
            Some(ObjRef::adopt(base, free_tail_array::<K>))
        }
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// The elements of a tail array.
///
/// Takes the raw pointer rather than `&self` so that the slice's provenance covers
/// the whole allocation, not only the fixed-size head.
///
/// # Safety
/// `ptr` must point to a live `TailArray<K>` that outlives `'a`.
pub unsafe fn tail_slice<'a, K: TailKind>(ptr: NonNull<Object>) -> &'a [K::Elem] {
    let head = ptr.cast::<TailArray<K>>();
    // SAFETY: the caller guarantees liveness; `len` elements were written right after the head.
    unsafe {
        let len = (*head.as_ptr()).len;
        std::slice::from_raw_parts(head.as_ptr().add(1).cast::<K::Elem>(), len)
    }
}
