//! `str.encode(encoding, errors)` and `bytes.decode(encoding, errors)` for UTF-8, UTF-16,
//! UTF-32 (each byte order, with or without a mark), ASCII, Latin-1 and Windows-1252, with the
//! `strict`, `ignore`, `replace`, `backslashreplace` and `xmlcharrefreplace` handlers, with
//! CPython 3.11's results and messages. A codec error is CPython's `UnicodeEncodeError` or
//! `UnicodeDecodeError` (`unicode_errors.rs`); an unknown encoding or handler is a
//! `LookupError`. The codecs themselves are `codec_units.rs`; which name means which is
//! `codec_names.rs`.

use super::Slot;
use super::codec_names::{Named, codec_named};
use super::codec_units::{byte_of, decode_until_error, encode_whole, read_mark, unencodable_reason};
use super::unicode_errors::{decode_error, encode_error};
use super::value_ops::{Text, arg_vname, text_slot, type_error, vname};
use crate::error::{Error, ErrorKind, Result};
use crate::{AnyView, Value};

/// What to do at a character or byte the codec cannot take.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Handler {
    Strict,
    Ignore,
    Replace,
    BackslashReplace,
    XmlCharRefReplace,
    /// `\N{NAME}` for a character with a name, else `backslashreplace`'s escape (encoding only).
    NameReplace,
}

/// The handler named `name`; CPython looks it up only when it is needed, so an unknown name is
/// an error only then (`unknown` carries it).
fn handler(name: &str) -> std::result::Result<Handler, String> {
    match name {
        "strict" => Ok(Handler::Strict),
        "ignore" => Ok(Handler::Ignore),
        "replace" => Ok(Handler::Replace),
        "backslashreplace" => Ok(Handler::BackslashReplace),
        "xmlcharrefreplace" => Ok(Handler::XmlCharRefReplace),
        "namereplace" => Ok(Handler::NameReplace),
        other => Err(other.to_string()),
    }
}

/// An error of the handler's own: CPython's codecs in C raise it as it is; those of its
/// `encodings` package wrap it, naming the codec as the call named it.
fn handler_error(named: &Named, doing: &str, e: Error) -> Error {
    if named.fast {
        return e;
    }
    let class = if e.kind() == ErrorKind::Type { "TypeError" } else { "LookupError" };
    let message = format!("{doing} with '{}' codec failed ({class}: {})", named.given, e.message());
    Error::new(e.kind(), message)
}

fn unknown_handler(name: &str) -> Error {
    Error::new(ErrorKind::Lookup, format!("unknown error handler name '{name}'"))
}

/// The `encoding` and `errors` arguments, with CPython's argument errors.
fn codec_args(method: &str, args: &[AnyView<'_>]) -> Result<(Named, std::result::Result<Handler, String>)> {
    let text_arg = |i: usize, what: &str, default: &'static str| -> Result<String> {
        match args.get(i).map(|a| a.value()) {
            None => Ok(default.to_string()),
            Some(v) => Text::of(v)
                .map(|t| t.as_str().into_owned())
                .ok_or_else(|| type_error(format!("{method}() argument '{what}' must be str, not {}", arg_vname(v)))),
        }
    };
    let encoding = text_arg(0, "encoding", "utf-8")?;
    let errors = text_arg(1, "errors", "strict")?;
    Ok((codec_named(&encoding)?, handler(&errors)))
}

/// CPython's TypeError of type `func` (`str`, `bytes`) given an `encoding` or `errors` (`names`,
/// in that order) that is not a str, as its argument parser checks them before anything else.
fn check_codec_names(func: &str, names: &[AnyView<'_>]) -> Result<()> {
    for (a, what) in names.iter().zip(["encoding", "errors"]) {
        if Text::of(a.value()).is_none() {
            return Err(type_error(format!("{func}() argument '{what}' must be str, not {}", arg_vname(a.value()))));
        }
    }
    Ok(())
}

/// `str(object, encoding, errors)`: bytes decoded, with CPython's errors (the encoding's and the
/// handler's types are checked first, as its argument parser does).
pub(crate) fn str_decoding(args: &[AnyView<'_>]) -> Result<Slot> {
    check_codec_names("str", &args[1..])?;
    match args[0].value() {
        Value::Bytes(b) => decode(b, &args[1..]),
        x if let Some(b) = super::bytearray_ops::byte_array_of(x) => decode(&b.to_vec(), &args[1..]),
        x if Text::of(x).is_some() => Err(type_error("decoding str is not supported")),
        x => Err(super::value_ops::not_bytes_like(x)),
    }
}

/// `bytes()`, `bytes(n)`, `bytes(text, encoding[, errors])`, `bytes(iterable_of_ints)` and
/// `bytes(b)`, with CPython's errors (the encoding's type is checked first, as its argument
/// parser does).
pub(crate) fn bytes_builtin(args: &[AnyView<'_>]) -> Result<Slot> {
    bytes_made_by("bytes", args)
}

/// The bytes `maker(*args)` holds, `maker` being `bytes` or `bytearray` (which word two
/// messages otherwise), as a bytes value.
pub(crate) fn bytes_made_by(maker: &str, args: &[AnyView<'_>]) -> Result<Slot> {
    let Some(first) = args.first() else { return Ok(Slot::from_bytes(b"")) };
    let v = first.value();
    check_codec_names(maker, &args[1..])?;
    match (Text::of(v), args.len()) {
        (Some(_), 1) => return Err(type_error("string argument without an encoding")),
        (Some(t), _) => return encode_for(maker, t, &args[1..]),
        (None, 1) => {}
        (None, _) => return Err(type_error("encoding without a string argument")),
    }
    match v {
        Value::Bytes(_) => Ok(first.to_owned()),
        Value::Int(_) | Value::Bool(_) => {
            let n = v.as_int().unwrap_or(0);
            let n = usize::try_from(n).map_err(|_| Error::value("negative count"))?;
            let mut out = Vec::new();
            out.try_reserve_exact(n).map_err(|_| Error::out_of_memory(maker, n))?;
            out.resize(n, 0);
            Ok(Slot::from_bytes(&out))
        }
        _ if let Some(b) = super::bytearray_ops::byte_array_of(v) => Ok(Slot::from_bytes(&b.to_vec())),
        _ if super::value_ops::is_iterable(v) => {
            let items = super::value_ops::iter_items(v)?;
            let mut out = Vec::with_capacity(items.len());
            let range_error =
                if maker == "bytes" { "bytes must be in range(0, 256)" } else { "byte must be in range(0, 256)" };
            for x in &items {
                let n = super::value_ops::index_arg(&x.view())?;
                out.push(u8::try_from(n).map_err(|_| Error::value(range_error))?);
            }
            Ok(Slot::from_bytes(&out))
        }
        _ => Err(type_error(format!("cannot convert '{}' object to {maker}", vname(v)))),
    }
}

/// `text.encode(encoding='utf-8', errors='strict')`.
pub(crate) fn encode(t: Text<'_>, args: &[AnyView<'_>]) -> Result<Slot> {
    encode_for("encode", t, args)
}

/// [`encode`] for `method` (`encode` or `bytes`), which its messages name.
fn encode_for(method: &str, t: Text<'_>, args: &[AnyView<'_>]) -> Result<Slot> {
    let (named, handler) = codec_args(method, args)?;
    let codec = named.codec;
    if let Some(bytes) = encode_whole(codec, &t.as_str()) {
        return Ok(Slot::from_bytes(&bytes));
    }
    let chars: Vec<char> = t.chars().collect();
    let mut out = Vec::with_capacity(chars.len());
    let mut i = 0;
    while i < chars.len() {
        if let Some(b) = byte_of(codec, chars[i]) {
            out.push(b);
            i += 1;
            continue;
        }
        // A run of characters the codec cannot take is one error, as CPython reports it.
        let end = chars[i..].iter().position(|&c| byte_of(codec, c).is_some()).map_or(chars.len(), |k| i + k);
        let run = &chars[i..end];
        match handler {
            Ok(Handler::Ignore) => {}
            Ok(Handler::Replace) => out.extend(std::iter::repeat_n(b'?', run.len())),
            Ok(Handler::BackslashReplace) => run.iter().for_each(|&c| out.extend(escaped_bare(c).bytes())),
            Ok(Handler::XmlCharRefReplace) => run.iter().for_each(|&c| out.extend(format!("&#{};", c as u32).bytes())),
            Ok(Handler::NameReplace) => run.iter().for_each(|&c| {
                let named = crate::ops::unicodedata::char_name(c).map(|n| format!("\\N{{{n}}}"));
                out.extend(named.unwrap_or_else(|| escaped_bare(c)).bytes())
            }),
            Ok(Handler::Strict) => {
                return Err(encode_error(codec.name(), &t.as_str(), (i, end), unencodable_reason(codec)));
            }
            Err(ref name) => return Err(handler_error(&named, "encoding", unknown_handler(name))),
        }
        i = end;
    }
    Ok(Slot::from_bytes(&out))
}

/// `\xe9`, `\u20ac`, `\U0001f600`: the `backslashreplace` handler's text for a character,
/// and how a codec error's message shows one it could not encode.
pub(crate) fn escaped_bare(c: char) -> String {
    match c as u32 {
        n if n < 0x100 => format!("\\x{n:02x}"),
        n if n < 0x10000 => format!("\\u{n:04x}"),
        n => format!("\\U{n:08x}"),
    }
}

/// `data.decode(encoding='utf-8', errors='strict')`.
pub(crate) fn decode(data: &[u8], args: &[AnyView<'_>]) -> Result<Slot> {
    let checked = codec_args("decode", args);
    // CPython decodes empty bytes to "" before it looks the codec up.
    if data.is_empty() && !matches!(&checked, Err(e) if e.kind() == ErrorKind::Type) {
        return Ok(text_slot("", false));
    }
    let (named, handler) = checked?;
    let (codec, start) = read_mark(named.codec, data);
    let mut out = String::with_capacity(data.len());
    let mut pos = start;
    while let Some(bad) = decode_until_error(codec, data, pos, &mut out) {
        match handler {
            Ok(Handler::Ignore) => {}
            Ok(Handler::Replace) => out.push('\u{FFFD}'),
            Ok(Handler::BackslashReplace) => {
                data[bad.start..bad.end].iter().for_each(|&b| out.push_str(&escaped_bare(char::from(b))))
            }
            Ok(Handler::XmlCharRefReplace | Handler::NameReplace) => {
                let e = type_error("don't know how to handle UnicodeDecodeError in error callback");
                return Err(handler_error(&named, "decoding", e));
            }
            Ok(Handler::Strict) => {
                return Err(decode_error(codec.name(), data, (bad.start, bad.end), bad.reason));
            }
            Err(ref name) => return Err(handler_error(&named, "decoding", unknown_handler(name))),
        }
        pos = bad.end;
    }
    Ok(text_slot(&out, false))
}

/// The bytes of a value that has `decode`, for dispatch.
pub(crate) fn bytes_of(v: Value<'_>) -> Option<&[u8]> {
    match v {
        Value::Bytes(b) => Some(b),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::AnyValue;
    use crate::pipeline::value_ops::repr_value;

    fn enc(s: &str, args: &[&str]) -> std::result::Result<String, String> {
        let args: Vec<AnyValue> = args.iter().map(|a| AnyValue::from_text(a)).collect();
        let views: Vec<AnyView<'_>> = args.iter().map(AnyValue::view).collect();
        encode(Text::Utf8(s), &views).map(|v| repr_value(v.value())).map_err(|e| e.message().to_string())
    }

    /// `repr(bytes(*args))`, or the error's message.
    fn make(args: &[crate::pipeline::Slot]) -> String {
        let views: Vec<AnyView<'_>> = args.iter().map(|a| a.view()).collect();
        bytes_builtin(&views).map_or_else(|e| e.message().to_string(), |v| repr_value(v.value()))
    }

    #[test]
    fn the_bytes_builtin() {
        use crate::pipeline::test_values::*;
        // CPython 3.11's results for the same calls.
        assert_eq!(make(&[]), "b''");
        assert_eq!(make(&[i(2)]), "b'\\x00\\x00'");
        assert_eq!(make(&[s("hé"), s("utf-8")]), "b'h\\xc3\\xa9'");
        assert_eq!(make(&[list(vec![i(104), i(105)])]), "b'hi'");
        assert_eq!(make(&[s("hé")]), "string argument without an encoding");
        assert_eq!(make(&[i(1), s("utf-8")]), "encoding without a string argument");
        assert_eq!(make(&[s("a"), i(1)]), "bytes() argument 'encoding' must be str, not int");
        assert_eq!(make(&[i(-1)]), "negative count");
        assert_eq!(make(&[list(vec![i(256)])]), "bytes must be in range(0, 256)");
        assert_eq!(make(&[f(1.5)]), "cannot convert 'float' object to bytes");
    }

    fn dec(b: &[u8], args: &[&str]) -> std::result::Result<String, String> {
        let args: Vec<AnyValue> = args.iter().map(|a| AnyValue::from_text(a)).collect();
        let views: Vec<AnyView<'_>> = args.iter().map(AnyValue::view).collect();
        decode(b, &views).map(|v| repr_value(v.value())).map_err(|e| e.message().to_string())
    }

    // Expected values: CPython 3.11's for the same calls.
    #[test]
    fn encodes_as_cpython() {
        assert_eq!(enc("aé€", &["UTF_8"]).unwrap(), "b'a\\xc3\\xa9\\xe2\\x82\\xac'");
        assert_eq!(enc("aé€", &["ascii", "replace"]).unwrap(), "b'a??'");
        assert_eq!(enc("aé€", &["ascii", "ignore"]).unwrap(), "b'a'");
        assert_eq!(
            enc("aé€😀", &["ascii"]).unwrap_err(),
            "'ascii' codec can't encode characters in position 1-3: ordinal not in range(128)"
        );
        assert_eq!(
            enc("€", &["latin-1"]).unwrap_err(),
            "'latin-1' codec can't encode character '\\u20ac' in position 0: ordinal not in range(256)"
        );
        assert_eq!(enc("a", &["ascii", "bogus"]).unwrap(), "b'a'");
        assert_eq!(enc("é", &["ascii", "bogus"]).unwrap_err(), "unknown error handler name 'bogus'");
        assert_eq!(enc("a", &["foo"]).unwrap_err(), "unknown encoding: foo");
    }

    #[test]
    fn decodes_as_cpython() {
        assert_eq!(
            dec(b"\xff", &[]).unwrap_err(),
            "'utf-8' codec can't decode byte 0xff in position 0: invalid start byte"
        );
        assert_eq!(
            dec(b"a\xe2\x28\xa1", &[]).unwrap_err(),
            "'utf-8' codec can't decode byte 0xe2 in position 1: invalid continuation byte"
        );
        assert_eq!(
            dec(b"\xf0\x90\x28", &[]).unwrap_err(),
            "'utf-8' codec can't decode bytes in position 0-1: invalid continuation byte"
        );
        assert_eq!(
            dec(b"ab\xe2\x82", &[]).unwrap_err(),
            "'utf-8' codec can't decode bytes in position 2-3: unexpected end of data"
        );
        assert_eq!(
            dec(b"\xed\xa0\x80", &[]).unwrap_err(),
            "'utf-8' codec can't decode byte 0xed in position 0: invalid continuation byte"
        );
        assert_eq!(
            dec(b"\xe9", &["ascii"]).unwrap_err(),
            "'ascii' codec can't decode byte 0xe9 in position 0: ordinal not in range(128)"
        );
        assert_eq!(dec(b"a\xffb\xe2\x82", &["utf-8", "replace"]).unwrap(), "'a\u{fffd}b\u{fffd}'");
        assert_eq!(dec(b"a\xffb", &["utf-8", "ignore"]).unwrap(), "'ab'");
        assert_eq!(dec(b"\xe9t\xe9", &["latin1"]).unwrap(), "'été'");
    }

    // Expected values: CPython 3.11's for the same calls.
    #[test]
    fn wide_and_windows_codecs_and_handlers_as_cpython() {
        assert_eq!(enc("a😀", &["utf-16"]).unwrap(), r"b'\xff\xfea\x00=\xd8\x00\xde'");
        assert_eq!(enc("a😀", &["utf-16-be"]).unwrap(), r"b'\x00a\xd8=\xde\x00'");
        assert_eq!(enc("", &["utf-32"]).unwrap(), r"b'\xff\xfe\x00\x00'");
        assert_eq!(enc("é€😀", &["ascii", "backslashreplace"]).unwrap(), r"b'\\xe9\\u20ac\\U0001f600'");
        assert_eq!(
            enc("é€\u{378}", &["ascii", "namereplace"]).unwrap(),
            r"b'\\N{LATIN SMALL LETTER E WITH ACUTE}\\N{EURO SIGN}\\u0378'"
        );
        assert_eq!(enc("é€😀", &["ascii", "xmlcharrefreplace"]).unwrap(), "b'&#233;&#8364;&#128512;'");
        assert_eq!(
            enc("aĀĀb", &["cp1252"]).unwrap_err(),
            "'charmap' codec can't encode characters in position 1-2: character maps to <undefined>"
        );
        assert_eq!(
            enc("Ā", &["cp1252", "bogus"]).unwrap_err(),
            "encoding with 'cp1252' codec failed (LookupError: unknown error handler name 'bogus')"
        );
        assert_eq!(dec(b"\x00\xd8a", &["utf-16-le", "replace"]).unwrap(), "'\u{fffd}'");
        assert_eq!(dec(b"\x00\xd8a\x00b\x00", &["utf-16-le", "replace"]).unwrap(), "'\u{fffd}ab'");
        assert_eq!(
            dec(b"\x00\xdca\x00", &["utf-16-le"]).unwrap_err(),
            "'utf-16-le' codec can't decode bytes in position 0-1: illegal encoding"
        );
        assert_eq!(
            dec(b"a\x00\x00\xd8", &["utf-16-le"]).unwrap_err(),
            "'utf-16-le' codec can't decode bytes in position 2-3: unexpected end of data"
        );
        assert_eq!(dec(b"\xfe\xff\x00a", &["utf-16"]).unwrap(), "'a'");
        assert_eq!(
            dec(b"\x00\x00\x11\x00", &["utf-32-le"]).unwrap_err(),
            "'utf-32-le' codec can't decode bytes in position 0-3: code point not in range(0x110000)"
        );
        assert_eq!(
            dec(b"a", &["utf-32"]).unwrap_err(),
            "'utf-32-le' codec can't decode byte 0x61 in position 0: truncated data"
        );
        assert_eq!(
            dec(b"a\x81\x8db", &["cp1252"]).unwrap_err(),
            "'charmap' codec can't decode byte 0x81 in position 1: character maps to <undefined>"
        );
        assert_eq!(dec(b"a\xff\xfe", &["utf-8", "backslashreplace"]).unwrap(), r"'a\\xff\\xfe'");
        assert_eq!(
            dec(b"\x81", &["cp1252", "xmlcharrefreplace"]).unwrap_err(),
            "decoding with 'cp1252' codec failed (TypeError: don't know how to handle UnicodeDecodeError in error callback)"
        );
    }
}
