//! Printing values the way Python does: `Display` is `str()`, `Debug` is `repr()`.

use super::pad::AnyPad;
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
        Value::Float(x) => write_float(x, f),
        Value::Str(s) => write_quoted(s.chars(), f),
        Value::UStr(u) => write_quoted(u.iter().copied(), f),
        Value::Bytes(b) => write_bytes(b, f),
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

fn write_float(x: f64, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    if x.is_nan() {
        f.write_str("nan")
    } else if x.is_infinite() {
        f.write_str(if x > 0.0 { "inf" } else { "-inf" })
    } else {
        // `{:?}` keeps the ".0" of integral floats, as Python's repr does.
        write!(f, "{x:?}")
    }
}

fn write_quoted(chars: impl Iterator<Item = char> + Clone, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    // Python picks double quotes only when the text has a single quote and no double quote.
    let (has_single, has_double) = chars.clone().fold((false, false), |(s, d), c| (s || c == '\'', d || c == '"'));
    let quote = if has_single && !has_double { '"' } else { '\'' };
    f.write_char(quote)?;
    for c in chars {
        match c {
            '\\' => f.write_str("\\\\")?,
            '\n' => f.write_str("\\n")?,
            '\r' => f.write_str("\\r")?,
            '\t' => f.write_str("\\t")?,
            c if c == quote => write!(f, "\\{c}")?,
            c if (c as u32) < 0x20 || c as u32 == 0x7f => write!(f, "\\x{:02x}", c as u32)?,
            c => f.write_char(c)?,
        }
    }
    f.write_char(quote)
}

fn write_bytes(b: &[u8], f: &mut fmt::Formatter<'_>) -> fmt::Result {
    f.write_str("b'")?;
    for &byte in b {
        match byte {
            b'\\' => f.write_str("\\\\")?,
            b'\'' => f.write_str("\\'")?,
            b'\n' => f.write_str("\\n")?,
            b'\r' => f.write_str("\\r")?,
            b'\t' => f.write_str("\\t")?,
            0x20..=0x7e => f.write_char(byte as char)?,
            _ => write!(f, "\\x{byte:02x}")?,
        }
    }
    f.write_char('\'')
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
