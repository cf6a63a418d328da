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
use crate::{AnyValue, AnyView, PackedFunc, Value};
use decode::Options as DecodeOptions;
use encode::Options;
use std::borrow::Cow;

/// The parts of a `json.JSONDecodeError`'s message as the scanner words it (`Expecting value:
/// line 1 column 5 (char 4)`): its `msg`, `lineno`, `colno` and `pos`, which `except ... as e`
/// in a script and the exception Python sees both read.
pub fn decode_error_parts(message: &str) -> Option<(&str, i64, i64, i64)> {
    let (msg, place) = message.rsplit_once(": line ")?;
    let numbers: Vec<i64> = place.split(|c: char| !c.is_ascii_digit()).filter_map(|n| n.parse().ok()).collect();
    let [lineno, colno, pos] = numbers[..] else { return None };
    Some((msg, lineno, colno, pos))
}

/// Registers `json.loads` and `json.dumps`.
pub fn register(reg: &Registry) -> Result<()> {
    reg.register(
        "json.loads",
        "(s, cls=None, object_hook=None, parse_float=None, parse_int=None, parse_constant=None, object_pairs_hook=None, strict=True) -> value",
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

/// `cls=`: only the standard encoder or decoder is available.
fn no_cls(op: &str, args: &[AnyView<'_>], i: usize) -> Result<()> {
    match given(args, i) {
        None => Ok(()),
        Some(_) => Err(type_error(format!("{op}(cls=...) is not supported: anyproc has only the standard class"))),
    }
}

/// `json.loads(s, *, cls, object_hook, parse_float, parse_int, parse_constant,
/// object_pairs_hook, strict)`, checked in CPython's order: the type of `s` and a BOM first,
/// then `cls`; a hook only when it is called.
fn loads(args: &[AnyView<'_>]) -> Result<AnyValue> {
    let Some(s) = args.first() else {
        return Err(type_error("loads() missing 1 required positional argument: 's'"));
    };
    if args.len() > 8 {
        return Err(type_error(format!("loads() takes at most 8 arguments ({} given)", args.len())));
    }
    let text = match (Text::of(s.value()), s.value()) {
        (Some(text), _) => {
            let text = text.as_str();
            if text.starts_with('\u{feff}') {
                return Err(decode::bom_error(&text));
            }
            text
        }
        (None, Value::Bytes(b)) => Cow::Owned(bytes_text(b)?),
        (None, other) if let Some(b) = crate::pipeline::bytearray_ops::bytes_like(other) => Cow::Owned(bytes_text(&b)?),
        (None, other) => {
            return Err(type_error(format!("the JSON object must be str, bytes or bytearray, not {}", vname(other))));
        }
    };
    no_cls("json.loads", args, 1)?;
    // `parse_float or float`: a false one is the default, as the decoder takes it.
    let hook = |i: usize| given(args, i).map(|v| v.to_owned());
    let parser = |i: usize| given(args, i).filter(|v| truthy(**v)).map(|v| v.to_owned());
    let options = DecodeOptions {
        object_hook: hook(2),
        parse_float: parser(3),
        parse_int: parser(4),
        parse_constant: parser(5),
        object_pairs_hook: hook(6),
        strict: args.get(7).is_none_or(|v| truthy(*v)),
    };
    decode::loads(&text, &options)
}

/// Bytes decoded as CPython's `json.detect_encoding` finds them encoded: UTF-8 (a BOM
/// Why a UTF-16 or UTF-32 document cannot be read here.
const LONE_SURROGATE: &str = "a lone surrogate, which str cannot hold here";

/// A lone surrogate's error: CPython decodes one (`surrogatepass`) and its parser then fails, a
/// `ValueError`, not a codec's error; the message keeps the codec's words of `e`.
fn lone_surrogate(e: Error) -> Error {
    Error::value(e.message().to_string())
}

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
    // CPython's error: `n` bytes at position `at` counted from the start of the bytes (a BOM
    // included), the whole bytes its object.
    let offset = b.len() - body.len();
    let bad = |at: usize, n: usize, why: &str| {
        crate::pipeline::unicode_errors::decode_error(encoding, b, (offset + at, offset + at + n), why)
    };
    let big_endian = encoding.ends_with("be");
    let mut out = String::with_capacity(body.len() / 2);
    if encoding.starts_with("utf-32") {
        // Whole units in order, then a truncated tail, as the decoder meets them.
        for (i, unit) in body.chunks_exact(4).enumerate() {
            let bytes = [unit[0], unit[1], unit[2], unit[3]];
            let code = if big_endian { u32::from_be_bytes(bytes) } else { u32::from_le_bytes(bytes) };
            match char::from_u32(code) {
                Some(c) => out.push(c),
                None if code < 0x11_0000 => return Err(lone_surrogate(bad(i * 4, 4, LONE_SURROGATE))),
                None => return Err(bad(i * 4, 4, "code point not in range(0x110000)")),
            }
        }
        let tail = body.len() % 4;
        return if tail == 0 { Ok(out) } else { Err(bad(body.len() - tail, tail, "truncated data")) };
    }
    let units: Vec<u16> = body
        .chunks_exact(2)
        .map(|u| if big_endian { u16::from_be_bytes([u[0], u[1]]) } else { u16::from_le_bytes([u[0], u[1]]) })
        .collect();
    let mut at = 0;
    for c in char::decode_utf16(units.iter().copied()) {
        match c {
            Ok(c) => {
                out.push(c);
                at += c.len_utf16();
            }
            Err(_) => return Err(lone_surrogate(bad(at * 2, 2, LONE_SURROGATE))),
        }
    }
    if body.len() % 2 != 0 {
        return Err(bad(body.len() - 1, 1, "truncated data"));
    }
    Ok(out)
}

/// `json.dumps(obj, *, skipkeys, ensure_ascii, check_circular, allow_nan, cls, indent,
/// separators, default, sort_keys)`, checked in CPython's order: `cls`, then the separators
/// unpacked, then a str written at once, then `indent` and the separators' types.
fn dumps(args: &[AnyView<'_>]) -> Result<AnyValue> {
    let Some(&obj) = args.first() else {
        return Err(type_error("dumps() missing 1 required positional argument: 'obj'"));
    };
    if args.len() > 10 {
        return Err(type_error(format!("dumps() takes at most 10 arguments ({} given)", args.len())));
    }
    let flag = |i: usize, default: bool| args.get(i).map_or(default, |v| truthy(*v));
    no_cls("json.dumps", args, 5)?;
    let unpacked = given(args, 7).map(|v| unpack_separators(v.value())).transpose()?;
    let ensure_ascii = flag(2, true);
    if let Some(text) = Text::of(obj.value()) {
        // `JSONEncoder.encode` writes a str before it looks at the other options.
        return Ok(AnyValue::from(encode::string(&text.as_str(), ensure_ascii)?.as_str()));
    }
    let indent = match given(args, 6).map(|v| v.value()) {
        None => None,
        Some(Value::Int(n)) => Some(spaces(n)?),
        Some(Value::Bool(b)) => Some(spaces(i64::from(b))?),
        Some(v) => match Text::of(v) {
            Some(t) => Some(t.as_str().into_owned()),
            None => return Err(type_error(format!("can't multiply sequence by non-int of type '{}'", vname(v)))),
        },
    };
    let separators = match unpacked {
        Some((item, key)) => separator_texts((item, key), indent.is_some())?,
        None if indent.is_some() => (",".to_string(), ": ".to_string()),
        None => (", ".to_string(), ": ".to_string()),
    };
    let options = Options {
        skipkeys: flag(1, false),
        ensure_ascii,
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

/// `item_separator, key_separator = separators`, with Python's errors for what does not
/// unpack into two.
fn unpack_separators(v: Value<'_>) -> Result<(AnyValue, AnyValue)> {
    let items = crate::pipeline::value_ops::iter_items(v)
        .map_err(|_| type_error(format!("cannot unpack non-iterable {} object", vname(v))))?;
    match <[AnyValue; 2]>::try_from(items) {
        Ok([item, key]) => Ok((item, key)),
        Err(items) if items.len() < 2 => {
            Err(Error::new(ErrorKind::Value, format!("not enough values to unpack (expected 2, got {})", items.len())))
        }
        Err(_) => Err(Error::new(ErrorKind::Value, "too many values to unpack (expected 2)")),
    }
}

/// The separators as text: the C encoder checks the key's, then the item's (its arguments 5
/// and 6); when indenting, the Python encoder first adds the item's to the newline.
fn separator_texts((item, key): (AnyValue, AnyValue), indenting: bool) -> Result<(String, String)> {
    let text = |v: &AnyValue| Text::of(v.value()).map(|t| t.as_str().into_owned());
    match (text(&item), text(&key)) {
        (Some(item), Some(key)) => Ok((item, key)),
        (None, _) if indenting => {
            Err(type_error(format!("unsupported operand type(s) for +: '{}' and 'str'", vname(item.value()))))
        }
        (_, None) => Err(type_error(format!("make_encoder() argument 5 must be str, not {}", vname(key.value())))),
        (None, _) => Err(type_error(format!("make_encoder() argument 6 must be str, not {}", vname(item.value())))),
    }
}
