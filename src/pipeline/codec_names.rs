//! The codecs anyscript's `str.encode` and `bytes.decode` know, and the names that reach them:
//! CPython's normalisation of an encoding name and the aliases of its `encodings` package.
//!
//! Rationale: which name reaches a codec decides more than the codec. CPython encodes and
//! decodes UTF-8, UTF-16, UTF-32, ASCII and Latin-1 in C when the name is one of their plain
//! spellings, and through the `encodings` package otherwise, which words some errors
//! differently ("decoding with 'u8' codec failed (LookupError: ...)"); [`Named::fast`] says
//! which path CPython takes.

use crate::error::{Error, ErrorKind, Result};

/// A byte order of UTF-16 or UTF-32.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Order {
    /// `utf-16`/`utf-32`: a byte order mark, then little-endian (this machine's order, as
    /// CPython's); a decoded mark chooses the order.
    Marked,
    /// `-le`.
    Little,
    /// `-be`.
    Big,
}

/// A codec.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Codec {
    Utf8,
    Ascii,
    Latin1,
    /// Windows-1252, with CPython's five undefined bytes.
    Cp1252,
    Utf16(Order),
    Utf32(Order),
}

/// A codec as a name reached it.
pub(crate) struct Named {
    pub codec: Codec,
    /// The name as given, which the errors of CPython's `encodings` package quote.
    pub given: String,
    /// Whether CPython runs the codec in C without its registry (see the module's rationale).
    pub fast: bool,
}

/// `encodings.normalize_encoding` of a lower-cased name: each run of characters other than
/// letters, digits and `.` becomes one `_`, none at either end.
fn normalized(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut punct = false;
    for c in name.chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() || c == '.' {
            if punct && !out.is_empty() {
                out.push('_');
            }
            if c.is_ascii() {
                out.push(c);
            }
            punct = false;
        } else {
            punct = true;
        }
    }
    out
}

/// The codec an encoding name means, or CPython's `LookupError` for a name it does not know.
pub(crate) fn codec_named(given: &str) -> Result<Named> {
    let norm = normalized(given);
    let codec = match norm.as_str() {
        "utf_8" | "utf8" | "u8" | "utf" | "utf8_ucs2" | "utf8_ucs4" | "cp65001" => Codec::Utf8,
        "ascii" | "646" | "ansi_x3.4_1968" | "ansi_x3_4_1968" | "ansi_x3.4_1986" | "cp367" | "csascii" | "ibm367"
        | "iso646_us" | "iso_646.irv_1991" | "iso_ir_6" | "us" | "us_ascii" => Codec::Ascii,
        "latin_1" | "latin1" | "8859" | "cp819" | "csisolatin1" | "ibm819" | "iso8859" | "iso8859_1" | "iso_8859_1"
        | "iso_8859_1_1987" | "iso_ir_100" | "l1" | "latin" => Codec::Latin1,
        "cp1252" | "windows_1252" | "1252" => Codec::Cp1252,
        "utf_16" | "utf16" | "u16" => Codec::Utf16(Order::Marked),
        "utf_16_le" | "utf_16le" | "unicodelittleunmarked" => Codec::Utf16(Order::Little),
        "utf_16_be" | "utf_16be" | "unicodebigunmarked" => Codec::Utf16(Order::Big),
        "utf_32" | "utf32" | "u32" => Codec::Utf32(Order::Marked),
        "utf_32_le" | "utf_32le" => Codec::Utf32(Order::Little),
        "utf_32_be" | "utf_32be" => Codec::Utf32(Order::Big),
        _ => return Err(Error::new(ErrorKind::Lookup, format!("unknown encoding: {given}"))),
    };
    let fast = matches!(
        norm.as_str(),
        "utf_8"
            | "utf8"
            | "utf_16"
            | "utf16"
            | "utf_32"
            | "utf32"
            | "ascii"
            | "us_ascii"
            | "latin1"
            | "latin_1"
            | "iso_8859_1"
            | "iso8859_1"
    );
    Ok(Named { codec, given: given.to_string(), fast })
}

impl Codec {
    /// The name CPython's codec errors give it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Codec::Utf8 => "utf-8",
            Codec::Ascii => "ascii",
            Codec::Latin1 => "latin-1",
            Codec::Cp1252 => "charmap",
            Codec::Utf16(Order::Big) => "utf-16-be",
            Codec::Utf16(_) => "utf-16-le",
            Codec::Utf32(Order::Big) => "utf-32-be",
            Codec::Utf32(_) => "utf-32-le",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_reach_codecs_as_in_cpython() {
        // Which names CPython 3.11 accepts, and which take its C fast path (an unknown error
        // handler's message is plain there, wrapped otherwise).
        let cases = [
            ("UTF-8", Codec::Utf8, true),
            ("utf--8", Codec::Utf8, true),
            (" utf 8 ", Codec::Utf8, true),
            ("u8", Codec::Utf8, false),
            ("US_ASCII", Codec::Ascii, true),
            ("l1", Codec::Latin1, false),
            ("Windows-1252", Codec::Cp1252, false),
            ("utf 16", Codec::Utf16(Order::Marked), true),
            ("utf-16-le", Codec::Utf16(Order::Little), false),
            ("UTF_32BE", Codec::Utf32(Order::Big), false),
        ];
        for (name, codec, fast) in cases {
            let named = codec_named(name).unwrap();
            assert_eq!((named.codec, named.fast), (codec, fast), "{name}");
        }
        assert_eq!(codec_named("utf-7").err().unwrap().message(), "unknown encoding: utf-7");
    }
}
