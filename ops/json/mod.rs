//! `json.loads` and `json.dumps` with CPython 3.11's results, text and errors: the records of a
//! `.jsonl` file parsed inside a script, and results written back as JSON. `anyproc.script`
//! maps Python's `json.loads`/`json.dumps` to these ops; their keyword arguments are bound by
//! [`crate::ops::params`] and arrive here by position.

mod decode;
mod encode;

use crate::error::{Error, ErrorKind, Result};
use crate::func::Registry;
use crate::pipeline::str_codecs::decode as decode_bytes;
use crate::pipeline::value_ops::{Text, truthy, type_error, vname};
use crate::{AnyValue, AnyView, FromAny, PackedFunc, Value};
use decode::Hooks;
use encode::Options;

/// Registers `json.loads` and `json.dumps`.
pub fn register(reg: &Registry) -> Result<()> {
    reg.register(
        "json.loads",
        "(s, cls=None, object_hook=None, parse_float=None, parse_int=None, parse_constant=None, object_pairs_hook=None) -> value",
        "The value of JSON document s (str or bytes), as Python's json.loads.",
        PackedFunc::new(loads),
        false,
    )?;
    reg.register(
        "json.dumps",
        "(obj, skipkeys=False, ensure_ascii=True, check_circular=True, allow_nan=True, cls=None, indent=None, separators=None, default=None, sort_keys=False) -> str",
        "obj as JSON text, as Python's json.dumps.",
        PackedFunc::new(dumps),
        false,
    )
}

/// Argument `i`, unless it is missing or None.
fn given<'a>(args: &'a [AnyView<'a>], i: usize) -> Option<&'a AnyView<'a>> {
    args.get(i).filter(|v| !v.is_none())
}

/// A hook argument: a function, or CPython's error when it is called.
fn hook(args: &[AnyView<'_>], i: usize) -> Result<Option<PackedFunc>> {
    let Some(v) = given(args, i) else { return Ok(None) };
    match PackedFunc::from_value(v.value()) {
        Some(f) => Ok(Some(f)),
        None => Err(type_error(format!("'{}' object is not callable", vname(v.value())))),
    }
}

/// `cls=`: only the standard encoder or decoder is available.
fn no_cls(op: &str, args: &[AnyView<'_>], i: usize) -> Result<()> {
    match given(args, i) {
        None => Ok(()),
        Some(_) => Err(type_error(format!("{op}(cls=...) is not supported: anyproc has only the standard class"))),
    }
}

/// `json.loads(s, *, cls, object_hook, parse_float, parse_int, parse_constant, object_pairs_hook)`.
fn loads(args: &[AnyView<'_>]) -> Result<AnyValue> {
    let Some(s) = args.first() else {
        return Err(type_error("loads() missing 1 required positional argument: 's'"));
    };
    if args.len() > 7 {
        return Err(type_error(format!("loads() takes at most 7 arguments ({} given)", args.len())));
    }
    no_cls("json.loads", args, 1)?;
    let hooks = Hooks {
        object: hook(args, 2)?,
        float: hook(args, 3)?,
        int: hook(args, 4)?,
        constant: hook(args, 5)?,
        object_pairs: hook(args, 6)?,
    };
    if let Some(text) = Text::of(s.value()) {
        return decode::loads(&text.as_str(), &hooks);
    }
    match s.value() {
        Value::Bytes(b) => {
            let text = bytes_text(b)?;
            decode::loads(&text, &hooks)
        }
        other => Err(type_error(format!("the JSON object must be str, bytes or bytearray, not {}", vname(other)))),
    }
}

/// Bytes decoded as CPython's `json.detect_encoding` finds them encoded: UTF-8 (a BOM
/// dropped), or UTF-16/32 by BOM or by where the zero bytes of an ASCII start fall.
fn bytes_text(b: &[u8]) -> Result<String> {
    let utf8 = |b: &[u8]| -> Result<String> {
        let decoded = decode_bytes(b, &[])?;
        Ok(decoded.view().value().as_str().unwrap_or_default().to_string())
    };
    let (encoding, body): (&str, &[u8]) = match b {
        [0, 0, 0xFE, 0xFF, rest @ ..] => ("utf-32-be", rest),
        [0xFF, 0xFE, 0, 0, rest @ ..] => ("utf-32-le", rest),
        [0xFE, 0xFF, rest @ ..] => ("utf-16-be", rest),
        [0xFF, 0xFE, rest @ ..] => ("utf-16-le", rest),
        [0xEF, 0xBB, 0xBF, rest @ ..] => return utf8(rest),
        [0, b1, _, _, ..] => (if *b1 != 0 { "utf-16-be" } else { "utf-32-be" }, b),
        [_, 0, b2, b3, ..] => (if *b2 != 0 || *b3 != 0 { "utf-16-le" } else { "utf-32-le" }, b),
        [0, _] => ("utf-16-be", b),
        [_, 0] => ("utf-16-le", b),
        _ => return utf8(b),
    };
    // CPython's message: one byte, or the range of bytes, at position `at`.
    let bad = |at: usize, n: usize, why: &str| {
        let place = match n {
            1 => format!("byte 0x{:02x} in position {at}", body[at]),
            _ => format!("bytes in position {at}-{}", at + n - 1),
        };
        Error::value(format!("'{encoding}' codec can't decode {place}: {why}"))
    };
    let big_endian = encoding.ends_with("be");
    if encoding.starts_with("utf-32") {
        if body.len() % 4 != 0 {
            return Err(bad(body.len() - body.len() % 4, body.len() % 4, "truncated data"));
        }
        let mut out = String::with_capacity(body.len() / 4);
        for (i, unit) in body.chunks_exact(4).enumerate() {
            let bytes = [unit[0], unit[1], unit[2], unit[3]];
            let code = if big_endian { u32::from_be_bytes(bytes) } else { u32::from_le_bytes(bytes) };
            out.push(char::from_u32(code).ok_or_else(|| bad(i * 4, 4, "code point not in range(0x110000)"))?);
        }
        return Ok(out);
    }
    if body.len() % 2 != 0 {
        return Err(bad(body.len() - 1, 1, "truncated data"));
    }
    let units = body
        .chunks_exact(2)
        .map(|u| if big_endian { u16::from_be_bytes([u[0], u[1]]) } else { u16::from_le_bytes([u[0], u[1]]) });
    char::decode_utf16(units)
        .enumerate()
        .map(|(i, c)| c.map_err(|_| bad(i * 2, 2, "a lone surrogate, which str cannot hold here")))
        .collect()
}

/// `json.dumps(obj, *, skipkeys, ensure_ascii, check_circular, allow_nan, cls, indent,
/// separators, default, sort_keys)`.
fn dumps(args: &[AnyView<'_>]) -> Result<AnyValue> {
    let Some(&obj) = args.first() else {
        return Err(type_error("dumps() missing 1 required positional argument: 'obj'"));
    };
    if args.len() > 10 {
        return Err(type_error(format!("dumps() takes at most 10 arguments ({} given)", args.len())));
    }
    let flag = |i: usize, default: bool| args.get(i).map_or(default, |v| truthy(*v));
    no_cls("json.dumps", args, 5)?;
    let indent = match given(args, 6).map(|v| v.value()) {
        None => None,
        Some(Value::Int(n)) => Some(spaces(n)?),
        Some(Value::Bool(b)) => Some(spaces(i64::from(b))?),
        Some(v) => match Text::of(v) {
            Some(t) => Some(t.as_str().into_owned()),
            None => return Err(type_error(format!("can't multiply sequence by non-int of type '{}'", vname(v)))),
        },
    };
    let separators = match given(args, 7) {
        Some(v) => separators(v.value())?,
        None if indent.is_some() => (",".to_string(), ": ".to_string()),
        None => (", ".to_string(), ": ".to_string()),
    };
    let options = Options {
        skipkeys: flag(1, false),
        ensure_ascii: flag(2, true),
        check_circular: flag(3, true),
        allow_nan: flag(4, true),
        indent,
        separators,
        default: given(args, 8).map(|v| v.to_owned()),
        sort_keys: flag(9, false),
    };
    Ok(AnyValue::from(encode::dumps(obj, &options)?.as_str()))
}

/// `' ' * n`: empty for n <= 0; more than memory holds is a MemoryError.
fn spaces(n: i64) -> Result<String> {
    let n = usize::try_from(n.max(0)).unwrap_or(usize::MAX);
    let mut text = String::new();
    text.try_reserve(n).map_err(|_| Error::out_of_memory("json.dumps indent", n))?;
    text.extend(std::iter::repeat_n(' ', n));
    Ok(text)
}

/// `separators=(item_separator, key_separator)`, unpacked as Python unpacks it.
fn separators(v: Value<'_>) -> Result<(String, String)> {
    let items = crate::pipeline::value_ops::iter_items(v)?;
    let [item, key] = items.as_slice() else {
        let msg = match items.len() {
            n if n < 2 => format!("not enough values to unpack (expected 2, got {n})"),
            _ => "too many values to unpack (expected 2)".to_string(),
        };
        return Err(Error::new(ErrorKind::Value, msg));
    };
    let text = |v: &AnyValue| match Text::of(v.value()) {
        Some(t) => Ok(t.as_str().into_owned()),
        None => Err(type_error(format!("separators must be str, not {}", vname(v.value())))),
    };
    Ok((text(item)?, text(key)?))
}
