//! `format(value, spec)`: each type's `__format__` as CPython 3.11 has it.

use super::float::{Flags, Mode, float_digits};
use super::layout::{NumberParts, number, pad};
use super::spec::{Align, Defaults, FormatSpec, unknown_code};
use crate::pipeline::value_ops::{Text, to_str, type_error, value_error, vname};
use crate::{AnyView, Error, ErrorKind, Result, Value};

/// `format(v, spec)`: the value's text laid out by the format-spec mini-language.
pub(crate) fn format_value(v: AnyView<'_>, spec: &str) -> Result<String> {
    match v.value() {
        Value::Str(_) | Value::UStr(_) if spec.is_empty() => to_str(v),
        Value::Str(_) | Value::UStr(_) => format_text(Text::of(v.value()).expect("a str"), spec),
        // An empty spec is `str(v)`: `True`, not `1`.
        Value::Int(_) | Value::Bool(_) | Value::Float(_) if spec.is_empty() => to_str(v),
        Value::Int(i) => format_int(i, spec, "int"),
        Value::Bool(b) => format_int(b as i64, spec, "bool"),
        Value::Float(x) => format_float(x, spec, "float"),
        other if spec.is_empty() => to_str(v).map_err(|e| e.context(format!("format() of {}", vname(other)))),
        other => Err(type_error(format!("unsupported format string passed to {}.__format__", vname(other)))),
    }
}

fn format_text(t: Text<'_>, spec: &str) -> Result<String> {
    let s = FormatSpec::parse(spec, Defaults { type_name: "str", kind: Some('s'), align: Align::Left })?;
    match s.kind {
        Some('s') => {}
        Some(k) => return Err(unknown_code(k, "str")),
        None => unreachable!("str's default type is s"),
    }
    match s.sign {
        Some(' ') => return Err(value_error("Space not allowed in string format specifier")),
        Some(_) => return Err(value_error("Sign not allowed in string format specifier")),
        None => {}
    }
    if s.no_neg_zero {
        return Err(value_error("Negative zero coercion (z) not allowed in string format specifier"));
    }
    if s.alternate {
        return Err(value_error("Alternate form (#) not allowed in string format specifier"));
    }
    if s.align == Align::AfterSign {
        return Err(value_error("'=' alignment not allowed in string format specifier"));
    }
    let kept: String = match s.precision {
        Some(p) => t.chars().take(p).collect(),
        None => t.as_str().into_owned(),
    };
    pad(&kept, kept.chars().count(), &s)
}

fn format_int(i: i64, spec: &str, type_name: &'static str) -> Result<String> {
    let s = FormatSpec::parse(spec, Defaults { type_name, kind: Some('d'), align: Align::Right })?;
    let kind = s.kind.expect("int's default type is d");
    match kind {
        'b' | 'c' | 'd' | 'o' | 'x' | 'X' | 'n' => {}
        // int to float rounds to nearest, as CPython's conversion does.
        'e' | 'E' | 'f' | 'F' | 'g' | 'G' | '%' => return float_with(i as f64, &s),
        k => return Err(unknown_code(k, type_name)),
    }
    if s.precision.is_some() {
        return Err(value_error("Precision not allowed in integer format specifier"));
    }
    if s.no_neg_zero {
        return Err(value_error("Negative zero coercion (z) not allowed in integer format specifier"));
    }
    let magnitude = i.unsigned_abs();
    let digits = match kind {
        'c' => {
            if s.sign.is_some() {
                return Err(value_error("Sign not allowed with integer format specifier 'c'"));
            }
            if s.alternate {
                return Err(value_error("Alternate form (#) not allowed with integer format specifier 'c'"));
            }
            code_point(i)?.to_string()
        }
        _ => radix_digits(magnitude, kind),
    };
    let prefix = if s.alternate { alternate_prefix(kind) } else { "" };
    let grouping = s.grouping.map(|sep| (if matches!(kind, 'b' | 'o' | 'x' | 'X') { 4 } else { 3 }, sep));
    number(&NumberParts { negative: i < 0, prefix, digits: &digits, rest: "", grouping }, &s)
}

/// The character `c` formats (`format(n, "c")`, `"%c" % n`): an `OverflowError` outside
/// `range(0x110000)`.
pub(super) fn code_point(i: i64) -> Result<char> {
    let c = u32::try_from(i).ok().filter(|&c| c < 0x11_0000);
    let c = c.ok_or_else(|| Error::new(ErrorKind::Overflow, "%c arg not in range(0x110000)"))?;
    // CPython allows lone surrogates in str; Rust strings cannot hold them.
    char::from_u32(c).ok_or_else(|| value_error("%c arg is a surrogate, which str cannot hold here"))
}

/// The digits of `m` for an integer presentation type: binary, octal, hex, else decimal.
pub(super) fn radix_digits(m: u64, kind: char) -> String {
    match kind {
        'b' => format!("{m:b}"),
        'o' => format!("{m:o}"),
        'x' => format!("{m:x}"),
        'X' => format!("{m:X}"),
        _ => m.to_string(),
    }
}

/// The alternate form's prefix for an integer presentation type (`0x` for `x`), or `""`.
pub(super) fn alternate_prefix(kind: char) -> &'static str {
    match kind {
        'b' => "0b",
        'o' => "0o",
        'x' => "0x",
        'X' => "0X",
        _ => "",
    }
}

fn format_float(x: f64, spec: &str, type_name: &'static str) -> Result<String> {
    let s = FormatSpec::parse(spec, Defaults { type_name, kind: None, align: Align::Right })?;
    match s.kind {
        None | Some('e' | 'E' | 'f' | 'F' | 'g' | 'G' | 'n' | '%') => float_with(x, &s),
        Some(k) => Err(unknown_code(k, type_name)),
    }
}

/// A float (or an int given a float type) under a parsed spec: CPython's
/// `format_float_internal`.
fn float_with(x: f64, s: &FormatSpec) -> Result<String> {
    if s.precision.is_some_and(|p| p > i32::MAX as usize) {
        return Err(value_error("precision too big"));
    }
    let mut flags = Flags { alternate: s.alternate, no_neg_zero: s.no_neg_zero, ..Flags::default() };
    let (x, percent) = if s.kind == Some('%') { (x * 100.0, true) } else { (x, false) };
    let mode = match (s.kind, s.precision) {
        // No type: `repr()`, or `g` with `.0` kept after integers when a precision is given.
        (None, None) => {
            flags.add_dot_0 = true;
            Mode::Shortest
        }
        (None, Some(p)) => {
            flags.add_dot_0 = true;
            Mode::General(p)
        }
        (Some(k), p) => {
            flags.upper = k.is_ascii_uppercase();
            let p = p.unwrap_or(6);
            match k {
                'e' | 'E' => Mode::Exponent(p),
                'f' | 'F' | '%' => Mode::Fixed(p),
                _ => Mode::General(p),
            }
        }
    };
    let (negative, mut text) = float_digits(x, mode, flags)?;
    if percent {
        text.push('%');
    }
    // CPython's parse_number: the integer digits, then the rest (point, fraction, exponent).
    let split = text.bytes().position(|b| !b.is_ascii_digit()).unwrap_or(text.len());
    let (digits, rest) = text.split_at(split);
    let grouping = s.grouping.map(|sep| (3, sep));
    number(&NumberParts { negative, prefix: "", digits, rest, grouping }, s)
}

/// `ascii(v)`: `repr(v)` with every non-ASCII character escaped (`\xe9`, `\u20ac`, `\U0001f600`).
pub(crate) fn ascii_of(v: Value<'_>) -> Result<String> {
    let repr = crate::pipeline::value_ops::try_repr_value(v)?;
    if repr.is_ascii() {
        return Ok(repr);
    }
    let mut out = String::with_capacity(repr.len() + 16);
    for c in repr.chars() {
        use std::fmt::Write;
        let _ = match c as u32 {
            0..=0x7f => {
                out.push(c);
                Ok(())
            }
            n @ 0x80..=0xff => write!(out, "\\x{n:02x}"),
            n @ 0x100..=0xffff => write!(out, "\\u{n:04x}"),
            n => write!(out, "\\U{n:08x}"),
        };
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::test_values::*;

    fn fmt(v: crate::pipeline::Slot, spec: &str) -> String {
        format_value(v.view(), spec).unwrap_or_else(|e| format!("{}: {}", e.kind().name(), e.message()))
    }

    #[test]
    fn ints_as_cpython() {
        // Expected strings: CPython 3.11's format() of the same arguments.
        assert_eq!(fmt(i(1234), "08,"), "0,001,234");
        assert_eq!(fmt(i(-1234), "09,"), "-0,001,234");
        assert_eq!(fmt(i(1234567), "_x"), "12_d687");
        assert_eq!(fmt(i(255), "#010_x"), "0x000_00ff");
        assert_eq!(fmt(i(-5), "#x"), "-0x5");
        assert_eq!(fmt(i(-5), "<05"), "-5000");
        assert_eq!(fmt(i(65), "c"), "A");
        assert_eq!(fmt(i(233), "05c"), "0000é");
        assert_eq!(fmt(i(0x1F600), "=^7c"), "===😀===");
        assert_eq!(fmt(i(5), "=^5"), "==5==");
        assert_eq!(fmt(i(i64::MIN), "x"), "-8000000000000000");
        assert_eq!(fmt(b(true), ""), "True");
        assert_eq!(fmt(b(true), ">5"), "    1");
        assert_eq!(fmt(i(5), ".2f"), "5.00");
        assert_eq!(fmt(i(5), "%"), "500.000000%");
        assert_eq!(fmt(i(5), ".2"), "ValueError: Precision not allowed in integer format specifier");
        assert_eq!(fmt(i(-1), "c"), "OverflowError: %c arg not in range(0x110000)");
        assert_eq!(fmt(i(5), "s"), "ValueError: Unknown format code 's' for object of type 'int'");
        assert_eq!(fmt(b(true), "s"), "ValueError: Unknown format code 's' for object of type 'bool'");
    }

    #[test]
    fn floats_as_cpython() {
        assert_eq!(fmt(f(1234.5), "010,.1f"), "0,001,234.5");
        assert_eq!(fmt(f(-1234.5), "010,.1f"), "-001,234.5");
        assert_eq!(fmt(f(123456789.0), ",.2f"), "123,456,789.00");
        assert_eq!(fmt(f(1.5), "0>10.3"), "00000001.5");
        assert_eq!(fmt(f(f64::NAN), "05"), "00nan");
        assert_eq!(fmt(f(f64::NEG_INFINITY), "=+10"), "-      inf");
        assert_eq!(fmt(f(123.456), ".1%"), "12345.6%");
        assert_eq!(fmt(f(-0.0), "z"), "0.0");
        assert_eq!(fmt(f(-0.0), "z.1"), "0e+00");
        assert_eq!(fmt(f(1e16), ">10"), "     1e+16");
        assert_eq!(fmt(f(1.0), "d"), "ValueError: Unknown format code 'd' for object of type 'float'");
    }

    #[test]
    fn strs_and_others_as_cpython() {
        assert_eq!(fmt(s("abc"), ".2"), "ab");
        assert_eq!(fmt(s("é"), "^5"), "  é  ");
        assert_eq!(fmt(s("x"), "05"), "x0000");
        assert_eq!(fmt(s("ab"), "=5"), "ValueError: '=' alignment not allowed in string format specifier");
        assert_eq!(fmt(s("ab"), "x"), "ValueError: Unknown format code 'x' for object of type 'str'");
        assert_eq!(fmt(none(), ""), "None");
        assert_eq!(fmt(none(), ">5"), "TypeError: unsupported format string passed to NoneType.__format__");
    }

    #[test]
    fn widths_too_large_for_memory_are_memory_errors() {
        // The largest width CPython parses (PY_SSIZE_T_MAX), with a 4-byte fill.
        for (v, spec) in
            [(s("x"), "😀<9223372036854775807"), (i(5), "😀>9223372036854775807"), (i(5), "09223372036854775807,")]
        {
            assert!(fmt(v, spec).starts_with("MemoryError"), "{spec}");
        }
    }
}
