//! Printing values the way Python does: `Display` is `str()`, `Debug` is `repr()`.

use super::pad::AnyPad;
use super::py_text::{write_bytes_repr, write_float_repr, write_str_repr};
use super::type_index::{DATA_TYPE, DEVICE, OPAQUE_PTR};
use super::value_ref::Value;
use super::view::AnyView;
use crate::object::{MAX_DEPTH, hooks_of};
use std::fmt::{self, Write};

/// Writes `v` as Python's `repr()` would; `depth` bounds recursion into containers.
pub fn write_repr(v: Value<'_>, f: &mut fmt::Formatter<'_>, depth: usize) -> fmt::Result {
    match v {
        Value::None => f.write_str("None"),
        Value::Bool(b) => f.write_str(if b { "True" } else { "False" }),
        Value::Int(i) => write!(f, "{i}"),
        Value::Float(x) => write_float_repr(f, x),
        Value::Str(s) => write_str_repr(f, s.chars()),
        Value::UStr(u) => write_str_repr(f, u.iter().copied()),
        Value::Bytes(b) => write_bytes_repr(f, b),
        Value::Pod(OPAQUE_PTR, bits) => write!(f, "<ptr {bits:#x}>"),
        Value::Pod(DATA_TYPE, bits) => write!(f, "<dtype {bits:#x}>"),
        Value::Pod(DEVICE, bits) => write!(f, "<device {bits:#x}>"),
        Value::Pod(t, bits) => write!(f, "<pod {t} {bits:#x}>"),
        Value::Object(o) => match hooks_of(o.type_index()) {
            Some(_) if depth >= MAX_DEPTH => f.write_str("..."),
            Some(h) => (h.repr)(o, f, depth + 1),
            None => write!(f, "<{} object at {:p}>", o.type_name(), o.as_raw()),
        },
    }
}

/// Writes `v` as Python's `str()` would: text unquoted, everything else as `repr`.
pub fn write_str(v: Value<'_>, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    match v {
        Value::Str(s) => f.write_str(s),
        Value::UStr(u) => u.iter().try_for_each(|&c| f.write_char(c)),
        _ => write_repr(v, f, 0),
    }
}

impl<const N: usize> fmt::Display for AnyPad<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_str(self.value(), f)
    }
}

impl<const N: usize> fmt::Debug for AnyPad<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_repr(self.value(), f, 0)
    }
}

impl fmt::Display for AnyView<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_str(self.value(), f)
    }
}

impl fmt::Debug for AnyView<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_repr(self.value(), f, 0)
    }
}
