//! `Value<'a>`: any value decoded into a borrowed Rust enum, whatever its representation.
//!
//! Inline, borrowed and heap strings all decode to the same variant, and boxed
//! scalars decode to plain ones; that is what makes equality "by value".

use super::heap_kinds::{Boxed, BytesKind, Ucs4Kind, Utf8Kind};
use super::type_index::*;
use crate::object::{ObjPtr, tail_slice};
use anyproc_abi::RawAny;
use std::ptr::NonNull;

/// A decoded, borrowed value.
#[derive(Clone, Copy, Debug)]
pub enum Value<'a> {
    /// `None`.
    None,
    /// An int (inline or boxed).
    Int(i64),
    /// A bool (inline or boxed).
    Bool(bool),
    /// A float (inline or boxed).
    Float(f64),
    /// A UTF-8 string (inline, borrowed or heap).
    Str(&'a str),
    /// A UCS4 string (inline, borrowed or heap).
    UStr(&'a [char]),
    /// A byte string (inline, borrowed or heap).
    Bytes(&'a [u8]),
    /// An inline plain-data value (pointer, dtype, device): its type index and bits.
    Pod(i32, u64),
    /// Any other heap object.
    Object(ObjPtr<'a>),
}

/// Decodes a raw value.
///
/// # Safety
/// `inline` must point to the value's inline area (payload first), valid for
/// `small_len` units of its kind; borrowed and object pointers must be live for `'a`;
/// inline and borrowed UTF-8 must be valid; UCS4 units must be valid `char`s.
#[inline]
pub(crate) unsafe fn decode<'a>(raw: &'a RawAny, inline: *const u8) -> Value<'a> {
    let len = raw.small_len as usize;
    // SAFETY: every branch relies on the invariants stated in the function contract.
    unsafe {
        match raw.type_index {
            NONE => Value::None,
            INT => Value::Int(raw.payload.v_int64),
            BOOL => Value::Bool(raw.payload.v_int64 != 0),
            FLOAT => Value::Float(raw.payload.v_float64),
            SMALL_STR => Value::Str(std::str::from_utf8_unchecked(std::slice::from_raw_parts(inline, len))),
            SMALL_USTR => Value::UStr(std::slice::from_raw_parts(inline.cast::<char>(), len)),
            SMALL_BYTES => Value::Bytes(std::slice::from_raw_parts(inline, len)),
            RAW_STR => Value::Str(std::str::from_utf8_unchecked(std::slice::from_raw_parts(
                raw.payload.v_ptr.cast::<u8>(),
                len,
            ))),
            RAW_USTR => Value::UStr(std::slice::from_raw_parts(raw.payload.v_ptr.cast::<char>(), len)),
            RAW_BYTES => Value::Bytes(std::slice::from_raw_parts(raw.payload.v_ptr.cast::<u8>(), len)),
            t if t >= OBJECT_BEGIN => {
                let obj = NonNull::new_unchecked(raw.payload.v_ptr.cast());
                match t {
                    STR => Value::Str(std::str::from_utf8_unchecked(tail_slice::<Utf8Kind>(obj))),
                    USTR => Value::UStr(tail_slice::<Ucs4Kind>(obj)),
                    BYTES => Value::Bytes(tail_slice::<BytesKind>(obj)),
                    BOXED_INT => Value::Int(obj.cast::<Boxed<i64>>().as_ref().value),
                    BOXED_FLOAT => Value::Float(obj.cast::<Boxed<f64>>().as_ref().value),
                    BOXED_BOOL => Value::Bool(obj.cast::<Boxed<bool>>().as_ref().value),
                    _ => Value::Object(ObjPtr::new(obj)),
                }
            }
            t => Value::Pod(t, raw.payload.v_int64 as u64),
        }
    }
}

impl<'a> Value<'a> {
    /// The value as an int, if it is an int or a bool (Python's `bool` is an `int`).
    pub fn as_int(self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(i),
            Value::Bool(b) => Some(b as i64),
            _ => None,
        }
    }

    /// The value as a float, if it is a number.
    pub fn as_float(self) -> Option<f64> {
        match self {
            Value::Float(f) => Some(f),
            Value::Int(i) => Some(i as f64),
            Value::Bool(b) => Some(b as i64 as f64),
            _ => None,
        }
    }

    /// The text, if the value is a UTF-8 string.
    pub fn as_str(self) -> Option<&'a str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// Whether the value is text in either encoding.
    pub fn is_text(self) -> bool {
        matches!(self, Value::Str(_) | Value::UStr(_))
    }

    /// The object, if the value is a non-string, non-scalar object.
    pub fn as_obj(self) -> Option<ObjPtr<'a>> {
        match self {
            Value::Object(o) => Some(o),
            _ => None,
        }
    }
}
