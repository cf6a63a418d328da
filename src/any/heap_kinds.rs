//! The heap forms of strings and of boxed scalars.

use super::type_index::{BOXED_BOOL, BOXED_FLOAT, BOXED_INT, BYTES, STR, USTR};
use crate::object::{Object, ObjectType, TailArray, TailKind};

/// Heap UTF-8 strings: the elements are bytes, always valid UTF-8.
pub enum Utf8Kind {}
// SAFETY: STR is the static index of heap UTF-8 strings and used by no other type.
unsafe impl TailKind for Utf8Kind {
    type Elem = u8;
    const TYPE_INDEX: i32 = STR;
    const TYPE_KEY: &'static str = "object.Str";
}

/// Heap UCS4 strings: one `char` per code point, so indexing is O(1).
pub enum Ucs4Kind {}
// SAFETY: USTR is the static index of heap UCS4 strings and used by no other type.
unsafe impl TailKind for Ucs4Kind {
    type Elem = char;
    const TYPE_INDEX: i32 = USTR;
    const TYPE_KEY: &'static str = "object.UStr";
}

/// Heap byte strings.
pub enum BytesKind {}
// SAFETY: BYTES is the static index of heap byte strings and used by no other type.
unsafe impl TailKind for BytesKind {
    type Elem = u8;
    const TYPE_INDEX: i32 = BYTES;
    const TYPE_KEY: &'static str = "object.Bytes";
}

/// A heap UTF-8 string object.
pub type StrObj = TailArray<Utf8Kind>;
/// A heap UCS4 string object.
pub type UStrObj = TailArray<Ucs4Kind>;
/// A heap byte string object.
pub type BytesObj = TailArray<BytesKind>;

/// A scalar boxed as an object, so that object-only code can hold it (seed 000, R0).
#[repr(C)]
pub struct Boxed<T: BoxedScalar> {
    header: Object,
    /// The boxed value.
    pub value: T,
}

/// Scalars that have a boxed object form.
pub trait BoxedScalar: Copy + Send + Sync + 'static {
    /// The boxed type's static index.
    const TYPE_INDEX: i32;
    /// The boxed type's key.
    const TYPE_KEY: &'static str;
}
impl BoxedScalar for i64 {
    const TYPE_INDEX: i32 = BOXED_INT;
    const TYPE_KEY: &'static str = "object.BoxedInt";
}
impl BoxedScalar for f64 {
    const TYPE_INDEX: i32 = BOXED_FLOAT;
    const TYPE_KEY: &'static str = "object.BoxedFloat";
}
impl BoxedScalar for bool {
    const TYPE_INDEX: i32 = BOXED_BOOL;
    const TYPE_KEY: &'static str = "object.BoxedBool";
}

// SAFETY: repr(C) with the header first.
unsafe impl<T: BoxedScalar> ObjectType for Boxed<T> {
    const TYPE_KEY: &'static str = T::TYPE_KEY;
    fn type_index() -> i32 {
        T::TYPE_INDEX
    }
}

impl<T: BoxedScalar> Boxed<T> {
    /// Boxes `value` into a new object.
    pub fn new(value: T) -> crate::object::ObjRef<Self> {
        crate::object::ObjRef::new(Boxed { header: Object::blank(), value })
    }
}
