//! Python semantics for the interpreter's operators on any-values: truthiness, arithmetic,
//! comparison, `in`, indexing, slicing, `len`, `str()` and `repr()`.
//!
//! Behaviour follows CPython 3.11. Where an i64 cannot hold Python's result (there are no
//! big ints) the operation fails with an `OverflowError` ("integer overflow in +") instead of
//! wrapping. Python's exception classes map onto [`ErrorKind`] (ZeroDivisionError and
//! OverflowError have kinds of their own, and so has AttributeError). Tuples share lists'
//! code for reading (`seq_obj`); what changes a list takes only a list (`list_obj`).

use crate::any::type_index as ti;
use crate::container::DictKind;
use crate::{AnyView, Error, ErrorKind, FromAny, PackedFunc, Result, Value};
use std::borrow::Cow;

mod accessors;
mod arithmetic;
mod comparison;
mod indexing;
mod repr;
mod sequences;
mod sorting;

pub(crate) use accessors::{
    Text, c_int_arg, check_hashable, check_key_hashable, dict_in_view, dict_obj, dict_of, dict_update_from, index_arg,
    is_iterable, is_tuple, iter_items, iter_items_until_error, list_of, seq_obj, text_item, text_slot, tuple_obj,
};
pub(crate) use arithmetic::{Num, in_place_error, num};
pub use arithmetic::{binary, truthy, unary};
pub use comparison::{compare, contains};
pub(crate) use comparison::{items_order, num_cmp, py_eq, py_gt, py_lt, rich_order};
pub(crate) use indexing::{SliceSpan, byte_of, norm_index, slice_arg};
pub use indexing::{del_item, get_item, len, set_item, slice};
pub use repr::to_str;
pub(crate) use repr::{repr_value, try_repr_value};
pub(crate) use sequences::MAX_RESULT_BYTES;
pub(crate) use sorting::{sort_by_python_lt, sort_values};

// ---------------------------------------------------------------- errors and type names

/// A `TypeError`.
pub(crate) fn type_error(msg: impl Into<String>) -> Error {
    Error::new(ErrorKind::Type, msg)
}

/// CPython's `TypeError` for piece `i` of a str join that is no str (`str.join`, and the
/// joins `re.sub` and `m.expand` make of their pieces); `found` is its type's name.
#[cold]
pub(crate) fn join_item_error(i: usize, found: &str) -> Error {
    type_error(format!("sequence item {i}: expected str instance, {found} found"))
}

/// CPython's `TypeError` for decoding `v`, which is not bytes, to str (`str(x, encoding)`, and
/// `re`'s template parser given a value that is neither str nor bytes).
#[cold]
pub(crate) fn not_bytes_like(v: Value<'_>) -> Error {
    type_error(format!("decoding to str: need a bytes-like object, {} found", vname(v)))
}

/// CPython's `AttributeError` for reading attribute (or method) `attr` of `v`, which has none.
#[cold]
pub(crate) fn no_attribute(v: Value<'_>, attr: &str) -> Error {
    // A named tuple's class names it here (elsewhere CPython's messages say "tuple").
    let kind = match super::named_tuple_ops::class_of(v) {
        Some(class) => class.name.clone().into(),
        None => vname(v),
    };
    Error::new(ErrorKind::Attribute, format!("'{kind}' object has no attribute '{attr}'"))
}

/// `v` as a function, or CPython's TypeError for calling what is not one.
pub(crate) fn callable(v: Value<'_>) -> Result<PackedFunc> {
    PackedFunc::from_value(v).ok_or_else(|| not_callable(v))
}

/// CPython's TypeError for calling `v`, which is not a function.
#[cold]
pub(crate) fn not_callable(v: Value<'_>) -> Error {
    type_error(format!("'{}' object is not callable", vname(v)))
}

/// A `ValueError`.
pub(crate) fn value_error(msg: impl Into<String>) -> Error {
    Error::new(ErrorKind::Value, msg)
}

/// An `IndexError`.
pub(crate) fn index_error(msg: impl Into<String>) -> Error {
    Error::new(ErrorKind::Index, msg)
}

/// A `KeyError` whose message is the key's repr, as Python prints it.
pub(crate) fn key_error(key: AnyView<'_>) -> Error {
    // The exception carries the key itself, which `e.args` and a Python caller see.
    super::exception_value::Exception::key_error(key).into_error()
}

/// The error for an i64 result that Python would have grown into a big int: an `OverflowError`.
pub(crate) fn overflow(op: &str) -> Error {
    Error::new(ErrorKind::Overflow, format!("integer overflow in {op}"))
}

/// `"s"` unless `n` is 1, for CPython's counts in messages ("1 argument", "2 arguments").
pub(crate) fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// How CPython names the type of a bad argument (`_PyArg_BadArgument`: "must be str, not None"):
/// as [`vname`] does, but None by itself.
pub(crate) fn arg_vname(v: Value<'_>) -> Cow<'static, str> {
    if let Value::None = v { "None".into() } else { vname(v) }
}

/// Python's name for the type of a decoded value (`int`, `str`, `NoneType`, ...).
pub(crate) fn vname(v: Value<'_>) -> Cow<'static, str> {
    match v {
        Value::None => "NoneType".into(),
        Value::Int(_) => "int".into(),
        Value::Bool(_) => "bool".into(),
        Value::Float(_) => "float".into(),
        Value::Str(_) | Value::UStr(_) => "str".into(),
        Value::Bytes(_) => "bytes".into(),
        Value::Pod(t, _) => index_name(t),
        // Python's subclasses of dict name themselves.
        Value::Object(_) if let Some(d) = dict_obj(v) => match d.kind() {
            DictKind::Plain => "dict".into(),
            DictKind::Counter => "Counter".into(),
            DictKind::Default(_) => "collections.defaultdict".into(),
            DictKind::Ordered => "collections.OrderedDict".into(),
        },
        Value::Object(_) if let Some(g) = super::generator::generator_of(v) => g.type_name().to_string().into(),
        Value::Object(_) if let Some(shown) = super::dict_view_ops::view_of(v) => shown.type_name().into(),
        Value::Object(_) if super::set_ops::is_frozenset(v) => "frozenset".into(),
        Value::Object(_) if let Some(e) = super::exception_value::exception_of(v) => e.class_name().into(),
        Value::Object(o) => index_name(o.type_index()),
    }
}

fn index_name(t: i32) -> Cow<'static, str> {
    Cow::Borrowed(match t {
        ti::LIST => "list",
        ti::TUPLE => "tuple",
        ti::DICT => "dict",
        ti::SET => "set",
        ti::FUNC => "function",
        ti::NDARRAY => "NDArray",
        ti::MODULE => "module",
        // `re.Pattern` and `re.Match` are named `Pattern` and `Match` in Python.
        _ => {
            let key = crate::object::type_name(t);
            return Cow::Owned(key.strip_prefix("re.").map_or_else(|| key.clone(), str::to_string));
        }
    })
}

/// Python's name for the type of `v` (`type(v).__name__`).
pub fn type_name(v: AnyView<'_>) -> String {
    vname(v.value()).into_owned()
}

#[cfg(test)]
mod tests;
