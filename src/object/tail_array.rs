//! Objects that store a header, a length and their elements in one allocation.
//!
//! Heap strings use these: one allocation per string, and the data sits right
//! after the header, as in the DESIGN's string layout.

use super::header::Object;
use super::obj_ref::ObjRef;
use super::object_type::ObjectType;
use std::alloc::{Layout, alloc, dealloc, handle_alloc_error, realloc};
use std::marker::PhantomData;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicUsize, Ordering};

/// [`TailArray`]'s cached count before it is first computed.
const UNCOUNTED: usize = usize::MAX;

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
    /// The element count; `GROWN` is set once [`TailArray::append_unique`] has made room for
    /// more, and the allocation then holds [`grown_capacity`] elements.
    len: usize,
    /// A count the kind keeps of its elements (a UTF-8 string's characters), [`UNCOUNTED`]
    /// until first asked for ([`cached_count`]); an append resets it.
    counted: AtomicUsize,
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

/// The layout of an array with room for `len` elements, or `None` when its size overflows.
fn checked_layout<K: TailKind>(len: usize) -> Option<Layout> {
    let (layout, _) = Layout::new::<TailArray<K>>().extend(Layout::array::<K::Elem>(len).ok()?).ok()?;
    Some(layout.pad_to_align())
}

fn layout_for<K: TailKind>(len: usize) -> Layout {
    checked_layout::<K>(len).unwrap_or_else(|| capacity_overflow())
}

#[cold]
fn capacity_overflow() -> ! {
    // Same policy as Vec: a length whose layout overflows isize cannot be allocated.
    std::alloc::handle_alloc_error(Layout::new::<u8>())
}

/// Marks the length of a tail array whose allocation has spare room (lengths stay below
/// `isize::MAX`, so the top bit is free).
const GROWN: usize = 1 << (usize::BITS - 1);

/// Elements an array grown by `append_unique` has room for at length `len`: the next power of
/// two, at least 32, so that appending one element at a time reallocates O(log n) times.
fn grown_capacity(len: usize) -> usize {
    len.max(32).checked_next_power_of_two().unwrap_or(len)
}

/// The element count and the allocated room of an array whose length field reads `field`.
fn len_and_capacity(field: usize) -> (usize, usize) {
    let len = field & !GROWN;
    (len, if field & GROWN != 0 { grown_capacity(len) } else { len })
}

unsafe extern "C" fn free_tail_array<K: TailKind>(obj: *mut Object) {
    // SAFETY: installed only by this module for a TailArray<K> allocated with room for
    // `len_and_capacity(len).1` elements; elements are Copy.
    unsafe {
        let (_, capacity) = len_and_capacity((*obj.cast::<TailArray<K>>()).len);
        dealloc(obj.cast(), layout_for::<K>(capacity));
    }
}

impl<K: TailKind> TailArray<K> {
    /// The head of a new array of `len` elements, its count not yet taken.
    fn head(len: usize) -> Self {
        TailArray { header: Object::blank(), len, counted: AtomicUsize::new(UNCOUNTED), _kind: PhantomData, _elems: [] }
    }

    /// A new object holding a copy of `elems`.
    pub fn from_slice(elems: &[K::Elem]) -> ObjRef<Self> {
        let len = elems.len();
        let layout = layout_for::<K>(len);
        // SAFETY: the layout has non-zero size (it holds the header).
        let base = NonNull::new(unsafe { alloc(layout) }.cast::<TailArray<K>>());
        let base = base.unwrap_or_else(|| handle_alloc_error(layout));
        // SAFETY: `base` is a fresh allocation with room for the header and `len` elements, which
        // are copied in one go (the elements are `Copy`, and `elems` cannot overlap new memory).
        unsafe {
            base.as_ptr().add(1).cast::<K::Elem>().copy_from_nonoverlapping(elems.as_ptr(), len);
            base.as_ptr().write(Self::head(len));
            ObjRef::adopt(base, free_tail_array::<K>)
        }
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
            base.as_ptr().write(Self::head(len));
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

    /// A fresh array of `len` elements whose data `fill` writes, or `None` when the size
    /// overflows or the allocator refuses it.
    ///
    /// # Safety
    /// `fill` must initialise all `len` elements at the pointer it is given, and nothing else.
    unsafe fn try_new_filled(len: usize, fill: impl FnOnce(*mut K::Elem)) -> Option<ObjRef<Self>> {
        if len >= GROWN {
            return None;
        }
        let layout = checked_layout::<K>(len)?;
        // SAFETY: the layout has non-zero size (it holds the header).
        let base = NonNull::new(unsafe { alloc(layout) }.cast::<TailArray<K>>())?;
        // SAFETY: `base` is a fresh allocation with room for the header and `len` elements,
        // which `fill` initialises (the caller's contract) before the array is adopted.
        unsafe {
            fill(base.as_ptr().add(1).cast::<K::Elem>());
            base.as_ptr().write(Self::head(len));
            Some(ObjRef::adopt(base, free_tail_array::<K>))
        }
    }

    /// `parts` one after the other in one allocation, or `None` when the size overflows or the
    /// allocator refuses it (for concatenations whose size comes from input).
    pub fn try_concat(parts: &[&[K::Elem]]) -> Option<ObjRef<Self>> {
        let len = parts.iter().try_fold(0usize, |n, p| n.checked_add(p.len()))?;
        // SAFETY: the parts, copied one right after the other, fill exactly `len` elements; the
        // destination is new memory, so it cannot overlap them.
        unsafe {
            Self::try_new_filled(len, |mut at| {
                for part in parts {
                    at.copy_from_nonoverlapping(part.as_ptr(), part.len());
                    at = at.add(part.len());
                }
            })
        }
    }

    /// `pattern` repeated `n` times in one allocation, or `None` when the size overflows or the
    /// allocator refuses it. Copies by doubling what is already written, so a repeat of gigabytes
    /// (`'a' * n` in a script) takes a few dozen `memcpy`s, not one store per element.
    pub fn try_repeat(pattern: &[K::Elem], n: usize) -> Option<ObjRef<Self>> {
        let len = pattern.len().checked_mul(n)?;
        // SAFETY: the first copy fills `pattern.len()` elements (or none when `len` is 0); each
        // later copy reads the `filled` elements already written and writes right after them,
        // never past `len`, so source and destination are disjoint and in bounds, and all `len`
        // elements are written at the end.
        unsafe {
            Self::try_new_filled(len, |data| {
                if len > 0 {
                    data.copy_from_nonoverlapping(pattern.as_ptr(), pattern.len());
                }
                let mut filled = pattern.len().min(len);
                while filled < len {
                    let chunk = filled.min(len - filled);
                    data.add(filled).copy_from_nonoverlapping(data, chunk);
                    filled += chunk;
                }
            })
        }
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.len & !GROWN
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Appends `extra` to the array `this` holds the only reference to, in place when its
    /// allocation has room and else by growing it to the next power of two, so that a string
    /// built one piece at a time (`out += c`) costs amortized O(1) per element, as in CPython.
    /// Gives `this` back unchanged when it is shared or the allocator refuses.
    pub fn append_unique(this: ObjRef<Self>, extra: &[K::Elem]) -> Result<ObjRef<Self>, ObjRef<Self>> {
        if this.strong_count() != 1 {
            return Err(this);
        }
        let (len, capacity) = len_and_capacity(this.len);
        let Some(new_len) = len.checked_add(extra.len()).filter(|&n| n < GROWN) else { return Err(this) };
        let mut base = this.as_raw().cast::<TailArray<K>>();
        if new_len > capacity {
            let new_capacity = grown_capacity(new_len);
            let Some(grown) = checked_layout::<K>(new_capacity) else { return Err(this) };
            // SAFETY: the array was allocated by this module with `layout_for(capacity)`, and
            // `grown` has the same alignment. On success the old pointer is dead: `this` is
            // forgotten below and a handle is rebuilt from the new one.
            let moved = unsafe { realloc(base.as_ptr().cast(), layout_for::<K>(capacity), grown.size()) };
            let Some(moved) = NonNull::new(moved) else { return Err(this) };
            std::mem::forget(this);
            base = moved.cast();
        } else {
            std::mem::forget(this);
        }
        // SAFETY: `base` is the only handle's array (count 1, the handle forgotten above), with
        // room for `new_len` elements after the head; the new elements are written before the
        // length that makes them readable, and the handle is rebuilt from the count we owned.
        unsafe {
            let data = base.as_ptr().add(1).cast::<K::Elem>();
            std::ptr::copy_nonoverlapping(extra.as_ptr(), data.add(len), extra.len());
            let grown_flag = if new_len > capacity || (*base.as_ptr()).len & GROWN != 0 { GROWN } else { 0 };
            (*base.as_ptr()).len = new_len | grown_flag;
            (*base.as_ptr()).counted.store(UNCOUNTED, Ordering::Relaxed);
            Ok(ObjRef::from_raw(base.cast()))
        }
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
        let len = (*head.as_ptr()).len & !GROWN;
        std::slice::from_raw_parts(head.as_ptr().add(1).cast::<K::Elem>(), len)
    }
}

/// `count` of the elements of the tail array at `ptr`, computed the first time and kept in the
/// array: its elements do not change while it is shared, and an append resets the count.
/// Threads that count at once store the same number.
///
/// # Safety
/// `ptr` must point to a live `TailArray<K>`.
pub unsafe fn cached_count<K: TailKind>(ptr: NonNull<Object>, count: impl FnOnce(&[K::Elem]) -> usize) -> usize {
    let head = ptr.cast::<TailArray<K>>();
    // SAFETY: the caller guarantees liveness; the count is an atomic, read and written shared.
    let counted = unsafe { &(*head.as_ptr()).counted };
    match counted.load(Ordering::Relaxed) {
        UNCOUNTED => {
            // SAFETY: as above; the elements were written before the array was shared.
            let n = count(unsafe { tail_slice::<K>(ptr) });
            counted.store(n, Ordering::Relaxed);
            n
        }
        n => n,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::any::heap_kinds::BytesObj;

    fn bytes_of(obj: &ObjRef<BytesObj>) -> Vec<u8> {
        // SAFETY: `obj` keeps the array alive for the borrow.
        unsafe { tail_slice::<crate::any::heap_kinds::BytesKind>(obj.as_raw()) }.to_vec()
    }

    #[test]
    fn appending_one_byte_at_a_time_keeps_every_byte() {
        let mut obj = BytesObj::from_slice(b"start:");
        let mut want = b"start:".to_vec();
        for i in 0..100_000u32 {
            let b = b'a' + (i % 26) as u8;
            obj = BytesObj::append_unique(obj, &[b]).unwrap_or_else(|_| panic!("unique at {i}"));
            want.push(b);
        }
        assert_eq!(obj.len(), want.len());
        assert_eq!(bytes_of(&obj), want);
        // Appending nothing keeps it as it is.
        let obj = BytesObj::append_unique(obj, &[]).unwrap_or_else(|_| panic!("unique"));
        assert_eq!(bytes_of(&obj), want);
    }

    #[test]
    fn a_cached_count_is_counted_again_after_an_append() {
        let count = |obj: &ObjRef<BytesObj>| {
            // SAFETY: `obj` keeps the array alive for the call.
            unsafe {
                cached_count::<crate::any::heap_kinds::BytesKind>(obj.as_raw(), |b| {
                    b.iter().filter(|&&c| c == b'a').count()
                })
            }
        };
        let obj = BytesObj::from_slice(b"banana");
        assert_eq!(count(&obj), 3);
        // The cached count answers without calling the counter again.
        // SAFETY: as above.
        assert_eq!(unsafe { cached_count::<crate::any::heap_kinds::BytesKind>(obj.as_raw(), |_| 99) }, 3);
        let obj = BytesObj::append_unique(obj, b"aa").unwrap_or_else(|_| panic!("unique"));
        assert_eq!(count(&obj), 5);
    }

    #[test]
    fn concatenating_equals_concat() {
        let cases: [&[&[u8]]; 5] = [&[], &[b""], &[b"ab", b""], &[b"", b"xyz", b"0"], &[b"one", b" two", b" three"]];
        for parts in cases {
            let obj = BytesObj::try_concat(parts).expect("small");
            assert_eq!(bytes_of(&obj), parts.concat(), "{parts:?}");
        }
    }

    #[test]
    fn repeating_by_doubling_equals_repeat() {
        for pattern in [&b""[..], b"a", b"ab", b"xyz", b"0123456789abcdef!"] {
            for n in [0, 1, 2, 3, 5, 8, 13, 100, 1000] {
                let obj = BytesObj::try_repeat(pattern, n).expect("small");
                assert_eq!(bytes_of(&obj), pattern.repeat(n), "{pattern:?} * {n}");
            }
        }
        // A size past isize::MAX is refused, not wrapped.
        assert!(BytesObj::try_repeat(b"ab", usize::MAX / 2 + 1).is_none());
    }

    #[test]
    fn a_shared_array_is_not_appended_to() {
        let obj = BytesObj::from_slice(b"shared");
        let other = obj.clone();
        let back = BytesObj::append_unique(obj, b"!").err().expect("shared: refused");
        assert_eq!(bytes_of(&back), b"shared");
        assert_eq!(bytes_of(&other), b"shared");
    }
}
