//! The object header as C sees it (seed 001).

/// Frees an object once its reference count reaches zero; called by whoever drops the last reference.
pub type ObjectHeaderDeleter = unsafe extern "C" fn(*mut ObjectHeader);

/// The 16-byte header every heap object starts with: type index, reference count, deleter.
///
/// Rationale: the runtime's own `Object` keeps the count in an `AtomicU32`; this
/// plain mirror is what crosses the boundary, and the runtime asserts at compile
/// time that the two agree on every size and offset. C code never touches the
/// count directly: it calls `object_inc_ref` / `object_dec_ref`.
#[repr(C)]
#[derive(Debug)]
pub struct ObjectHeader {
    /// The object's type index (see `type_index`).
    pub type_index: u32,
    /// The strong reference count (atomic; use the API to change it).
    pub ref_count: u32,
    /// Frees the object; set by the allocator that made it.
    pub deleter: Option<ObjectHeaderDeleter>,
}

const _: () = {
    assert!(std::mem::size_of::<ObjectHeader>() == 16);
    assert!(std::mem::offset_of!(ObjectHeader, type_index) == 0);
    assert!(std::mem::offset_of!(ObjectHeader, ref_count) == 4);
    assert!(std::mem::offset_of!(ObjectHeader, deleter) == 8);
};
