//! CPython's `UnicodeEncodeError` and `UnicodeDecodeError`: what a codec raises for text or
//! bytes it cannot take. Each is made of the five arguments CPython makes it of (encoding,
//! object, start, end, reason), which `e.args`, `e.encoding`, `e.object`, `e.start`, `e.end`
//! and `e.reason` read, and its message is the one CPython's `__str__` makes of them.

use super::exception_value::{Exception, exception_of};
use super::str_codecs::escaped_bare;
use super::value_ops::{Text, arg_vname, index_arg, type_error, vname};
use crate::error::{Error, ErrorKind, Result};
use crate::{AnyValue, AnyView, Value};

/// The attributes of a codec error, in the order of its arguments.
const FIELDS: [&str; 5] = ["encoding", "object", "start", "end", "reason"];

/// The error a codec `encoding` raises for the characters `start..end` (code point indices)
/// of `text`, which it cannot encode for `reason`.
pub(crate) fn encode_error(encoding: &str, text: &str, (start, end): (usize, usize), reason: &str) -> Error {
    let object = AnyValue::from(text);
    codec_error(ErrorKind::UnicodeEncode, encoding, object, (start, end), reason)
}

/// The error a codec `encoding` raises for the bytes `start..end` of `data`, which it cannot
/// decode for `reason`.
pub(crate) fn decode_error(encoding: &str, data: &[u8], (start, end): (usize, usize), reason: &str) -> Error {
    let object = AnyValue::from_bytes(data);
    codec_error(ErrorKind::UnicodeDecode, encoding, object, (start, end), reason)
}

fn codec_error(kind: ErrorKind, encoding: &str, object: AnyValue, (start, end): (usize, usize), reason: &str) -> Error {
    let args = vec![
        AnyValue::from(encoding),
        object,
        AnyValue::from_int(start as i64),
        AnyValue::from_int(end as i64),
        AnyValue::from(reason),
    ];
    match made_of(kind, args) {
        Ok(e) => e.into_error(),
        Err(e) => e,
    }
}

/// `UnicodeEncodeError(encoding, object, start, end, reason)` (or the decode error) called in a
/// script, with CPython's checks of its arguments, in their order.
pub(crate) fn construct(kind: ErrorKind, args: &[AnyView<'_>]) -> Result<Exception> {
    if args.len() != 5 {
        return Err(type_error(format!("function takes exactly 5 arguments ({} given)", args.len())));
    }
    let must_be_str = |i: usize| -> Result<()> {
        let v = args[i].value();
        match Text::of(v) {
            Some(_) => Ok(()),
            None => Err(type_error(format!("argument {} must be str, not {}", i + 1, arg_vname(v)))),
        }
    };
    must_be_str(0)?;
    match (kind, args[1].value()) {
        (ErrorKind::UnicodeDecode, Value::Bytes(_)) => {}
        (ErrorKind::UnicodeDecode, v) => {
            return Err(type_error(format!("a bytes-like object is required, not '{}'", vname(v))));
        }
        _ => must_be_str(1)?,
    }
    index_arg(&args[2])?;
    index_arg(&args[3])?;
    must_be_str(4)?;
    made_of(kind, args.iter().map(|a| a.to_owned()).collect())
}

/// The exception of `kind` made of `args` (already checked), with CPython's message.
fn made_of(kind: ErrorKind, args: Vec<AnyValue>) -> Result<Exception> {
    let text = |i: usize| Text::of(args[i].value()).map(|t| t.as_str().into_owned()).unwrap_or_default();
    let int = |i: usize| args[i].value().as_int().unwrap_or(0);
    let (encoding, start, end, reason) = (text(0), int(2), int(3), text(4));
    let one = end == start.wrapping_add(1) && start >= 0;
    let message = match (kind, args[1].value()) {
        (ErrorKind::UnicodeDecode, Value::Bytes(b)) if one && (start as usize) < b.len() => {
            format!("'{encoding}' codec can't decode byte 0x{:02x} in position {start}: {reason}", b[start as usize])
        }
        (ErrorKind::UnicodeDecode, _) => {
            format!("'{encoding}' codec can't decode bytes in position {start}-{}: {reason}", end - 1)
        }
        (_, object) => match Text::of(object).and_then(|t| t.chars().nth(start as usize)).filter(|_| one) {
            Some(c) => {
                format!("'{encoding}' codec can't encode character '{}' in position {start}: {reason}", escaped_bare(c))
            }
            None => format!("'{encoding}' codec can't encode characters in position {start}-{}: {reason}", end - 1),
        },
    };
    Ok(Exception::with_args(kind, message, args))
}

/// `e.attr` of a codec error `x`, when `attr` is one of its five fields.
pub(crate) fn attribute(x: Value<'_>, attr: &str) -> Option<AnyValue> {
    let e = exception_of(x).filter(|e| matches!(e.kind(), ErrorKind::UnicodeEncode | ErrorKind::UnicodeDecode))?;
    let i = FIELDS.iter().position(|f| *f == attr)?;
    e.args().into_iter().nth(i)
}

#[cfg(test)]
mod tests {
    use super::*;

    // Expected: CPython 3.11's str() and repr() of the same exceptions.
    #[test]
    fn messages_and_reprs_are_cpythons() {
        let e = Exception::caught(&encode_error("latin-1", "aǅ", (1, 2), "ordinal not in range(256)"));
        assert_eq!(
            e.message(),
            "'latin-1' codec can't encode character '\\u01c5' in position 1: ordinal not in range(256)"
        );
        assert_eq!(e.repr(), "UnicodeEncodeError('latin-1', 'aǅ', 1, 2, 'ordinal not in range(256)')");
        let e = Exception::caught(&encode_error("ascii", "é😀x", (0, 2), "ordinal not in range(128)"));
        assert_eq!(e.message(), "'ascii' codec can't encode characters in position 0-1: ordinal not in range(128)");
        let e = Exception::caught(&decode_error("utf-8", b"a\xff", (1, 2), "invalid start byte"));
        assert_eq!(e.message(), "'utf-8' codec can't decode byte 0xff in position 1: invalid start byte");
        assert_eq!(e.repr(), "UnicodeDecodeError('utf-8', b'a\\xff', 1, 2, 'invalid start byte')");
        let e = Exception::caught(&decode_error("utf-8", b"\xe2\x82", (0, 2), "unexpected end of data"));
        assert_eq!(e.message(), "'utf-8' codec can't decode bytes in position 0-1: unexpected end of data");
        assert_eq!(
            attribute(e.clone().into_any().view().value(), "start").and_then(|v| v.view().value().as_int()),
            Some(0)
        );
    }

    #[test]
    fn construction_checks_its_arguments_as_cpython_does() {
        let s = |t: &'static str| AnyView::from(t);
        let i = AnyView::from;
        let err = |kind, args: &[AnyView<'_>]| construct(kind, args).err().map(|e| e.message().to_string());
        let decode = ErrorKind::UnicodeDecode;
        assert_eq!(err(decode, &[s("x")]).unwrap(), "function takes exactly 5 arguments (1 given)");
        assert_eq!(err(decode, &[i(1), s("a"), i(0), i(1), s("r")]).unwrap(), "argument 1 must be str, not int");
        assert_eq!(
            err(decode, &[s("u"), s("a"), i(0), i(1), s("r")]).unwrap(),
            "a bytes-like object is required, not 'str'"
        );
        let encode = ErrorKind::UnicodeEncode;
        let bytes = AnyView::from_bytes(b"a");
        assert_eq!(err(encode, &[s("u"), bytes, i(0), i(1), s("r")]).unwrap(), "argument 2 must be str, not bytes");
        assert_eq!(err(encode, &[s("u"), s("a"), i(0), i(1), i(5)]).unwrap(), "argument 5 must be str, not int");
        let made = construct(encode, &[s("u"), s("a"), i(5), i(9), s("r")]).unwrap();
        assert_eq!(made.message(), "'u' codec can't encode characters in position 5-8: r");
    }
}
