//! The 16-byte header every heap object starts with (seed 001).

use std::sync::atomic::AtomicU32;

/// Frees an object once its reference count reaches zero.
///
/// Rationale: a per-object deleter lets an object made in one DLL be freed by the
/// allocator that made it, and lets a pool take objects back (seed 001, F2/F3).
pub type ObjectDeleter = unsafe extern "C" fn(*mut Object);

/// The header of every heap object: type index, atomic reference count, deleter.
#[repr(C)]
pub struct Object {
    pub(crate) type_index: u32,
    pub(crate) ref_count: AtomicU32,
    pub(crate) deleter: Option<ObjectDeleter>,
}

const _: () = {
    assert!(std::mem::size_of::<Object>() == 16);
    assert!(std::mem::offset_of!(Object, type_index) == 0);
    assert!(std::mem::offset_of!(Object, ref_count) == 4);
    assert!(std::mem::offset_of!(Object, deleter) == 8);
};

impl Object {
    /// A blank header; `ObjRef::new` fills in the type index, count and deleter.
    pub const fn blank() -> Self {
        Object { type_index: 0, ref_count: AtomicU32::new(0), deleter: None }
    }

    /// The object's type index.
    pub fn type_index(&self) -> i32 {
        self.type_index as i32
    }

    /// The current strong count; racy by nature, for diagnostics and tests.
    pub fn ref_count(&self) -> u32 {
        self.ref_count.load(std::sync::atomic::Ordering::Relaxed)
    }
}

impl Default for Object {
    fn default() -> Self {
        Self::blank()
    }
}

/// Cloning an object's payload gives a new, blank header; the copy gets its own count.
impl Clone for Object {
    fn clone(&self) -> Self {
        Self::blank()
    }
}

impl std::fmt::Debug for Object {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Object(type_index={}, ref_count={})", self.type_index, self.ref_count())
    }
}

// The C view of the header (`anyproc_abi::ObjectHeader`, `AnyProcObject` in C) must match this one.
const _: () = {
    use anyproc_abi::ObjectHeader;
    assert!(std::mem::size_of::<Object>() == std::mem::size_of::<ObjectHeader>());
    assert!(std::mem::offset_of!(Object, type_index) == std::mem::offset_of!(ObjectHeader, type_index));
    assert!(std::mem::offset_of!(Object, ref_count) == std::mem::offset_of!(ObjectHeader, ref_count));
    assert!(std::mem::offset_of!(Object, deleter) == std::mem::offset_of!(ObjectHeader, deleter));
};
