//! The one table of type indices. Every other file names a type by these constants.
//!
//! Rationale: values stored inline come first so that "is this an object?" is one
//! comparison (`index >= OBJECT_BEGIN`); static object types follow at 64 and
//! dynamically registered ones start at 128 (seed 000, D0; seed 001).

/// The absence of a value (Python's `None`).
pub const NONE: i32 = 0;
/// A 64-bit signed integer, inline.
pub const INT: i32 = 1;
/// A boolean, inline.
pub const BOOL: i32 = 2;
/// A 64-bit float, inline.
pub const FLOAT: i32 = 3;
/// An opaque, unowned pointer, inline.
pub const OPAQUE_PTR: i32 = 4;
/// A DLPack data type (code, bits, lanes), inline.
pub const DATA_TYPE: i32 = 5;
/// A DLPack device (type, id), inline.
pub const DEVICE: i32 = 6;
/// A UTF-8 string stored inline; `small_len` is its byte length.
pub const SMALL_STR: i32 = 7;
/// A UCS4 string stored inline; `small_len` is its number of code points.
pub const SMALL_USTR: i32 = 8;
/// A byte string stored inline; `small_len` is its length.
pub const SMALL_BYTES: i32 = 9;
/// A borrowed UTF-8 string (views only): pointer in the payload, byte length in `small_len`.
pub const RAW_STR: i32 = 10;
/// A borrowed UCS4 string (views only): pointer in the payload, code points in `small_len`.
pub const RAW_USTR: i32 = 11;
/// A borrowed byte string (views only): pointer in the payload, length in `small_len`.
pub const RAW_BYTES: i32 = 12;

/// First index that denotes a heap object; every index at or above it is one.
pub const OBJECT_BEGIN: i32 = 64;
/// The root of the object hierarchy.
pub const OBJECT: i32 = 64;
/// A heap UTF-8 string.
pub const STR: i32 = 65;
/// A heap UCS4 string.
pub const USTR: i32 = 66;
/// A heap byte string.
pub const BYTES: i32 = 67;
/// A list of values.
pub const LIST: i32 = 68;
/// An insertion-ordered dict of values.
pub const DICT: i32 = 69;
/// A packed function.
pub const FUNC: i32 = 70;
/// An n-dimensional array.
pub const NDARRAY: i32 = 71;
/// An error carried as a value.
pub const ERROR: i32 = 72;
/// A loaded module (plugin).
pub const MODULE: i32 = 73;
/// An int boxed as an object, for object-only code (seed 000, R0).
pub const BOXED_INT: i32 = 74;
/// A float boxed as an object.
pub const BOXED_FLOAT: i32 = 75;
/// A bool boxed as an object.
pub const BOXED_BOOL: i32 = 76;
/// A set of hashable values, in CPython's order.
pub const SET: i32 = 77;
/// A tuple: a list's layout (and a subtype of it) that scripts cannot change.
pub const TUPLE: i32 = 78;
/// One past the last static object index.
pub const STATIC_END: i32 = 79;
/// First index handed out to dynamically registered object types.
pub const DYNAMIC_BEGIN: i32 = 128;

/// The name of a static type index, as used in error messages (`expected str, got int`).
pub fn static_type_name(index: i32) -> Option<&'static str> {
    Some(match index {
        NONE => "None",
        INT | BOXED_INT => "int",
        BOOL | BOXED_BOOL => "bool",
        FLOAT | BOXED_FLOAT => "float",
        OPAQUE_PTR => "ptr",
        DATA_TYPE => "dtype",
        DEVICE => "device",
        SMALL_STR | RAW_STR | STR => "str",
        SMALL_USTR | RAW_USTR | USTR => "ustr",
        SMALL_BYTES | RAW_BYTES | BYTES => "bytes",
        OBJECT => "object",
        LIST => "list",
        DICT => "dict",
        SET => "set",
        TUPLE => "tuple",
        FUNC => "func",
        NDARRAY => "ndarray",
        ERROR => "error",
        MODULE => "module",
        _ => return None,
    })
}

/// The type key under which a static object type is registered.
pub fn static_type_key(index: i32) -> Option<&'static str> {
    Some(match index {
        OBJECT => "object.Object",
        STR => "object.Str",
        USTR => "object.UStr",
        BYTES => "object.Bytes",
        LIST => "object.List",
        DICT => "object.Dict",
        SET => "object.Set",
        TUPLE => "object.Tuple",
        FUNC => "object.Func",
        NDARRAY => "object.NDArray",
        ERROR => "object.Error",
        MODULE => "object.Module",
        BOXED_INT => "object.BoxedInt",
        BOXED_FLOAT => "object.BoxedFloat",
        BOXED_BOOL => "object.BoxedBool",
        _ => return None,
    })
}
