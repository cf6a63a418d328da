//! Each codec's own work: which byte a character is in the one-byte codecs (ASCII, Latin-1,
//! Windows-1252), the bytes of UTF-8, UTF-16 and UTF-32, and decoding up to the first span of
//! input that does not decode, found where CPython's decoders find it (its start, its end and
//! the reason its message gives), so that every error handler sees CPython's spans.

use super::codec_names::{Codec, Order};

/// Windows-1252's characters for the bytes 0x80-0x9F (the rest are Latin-1's); CPython's
/// `cp1252` leaves 0x81, 0x8D, 0x8F, 0x90 and 0x9D undefined.
const CP1252_HIGH: [Option<char>; 32] = [
    Some('\u{20ac}'),
    None,
    Some('\u{201a}'),
    Some('\u{0192}'),
    Some('\u{201e}'),
    Some('\u{2026}'),
    Some('\u{2020}'),
    Some('\u{2021}'),
    Some('\u{02c6}'),
    Some('\u{2030}'),
    Some('\u{0160}'),
    Some('\u{2039}'),
    Some('\u{0152}'),
    None,
    Some('\u{017d}'),
    None,
    None,
    Some('\u{2018}'),
    Some('\u{2019}'),
    Some('\u{201c}'),
    Some('\u{201d}'),
    Some('\u{2022}'),
    Some('\u{2013}'),
    Some('\u{2014}'),
    Some('\u{02dc}'),
    Some('\u{2122}'),
    Some('\u{0161}'),
    Some('\u{203a}'),
    Some('\u{0153}'),
    None,
    Some('\u{017e}'),
    Some('\u{0178}'),
];

/// The byte a one-byte codec encodes `c` as, if it has one.
pub(crate) fn byte_of(codec: Codec, c: char) -> Option<u8> {
    let n = c as u32;
    match codec {
        Codec::Ascii => (n < 0x80).then_some(n as u8),
        Codec::Latin1 => (n < 0x100).then_some(n as u8),
        Codec::Cp1252 if !(0x80..0xa0).contains(&n) && n < 0x100 => Some(n as u8),
        Codec::Cp1252 => CP1252_HIGH.iter().position(|&m| m == Some(c)).map(|i| 0x80 + i as u8),
        Codec::Utf8 | Codec::Utf16(_) | Codec::Utf32(_) => None,
    }
}

/// Why a one-byte codec cannot encode a character, as CPython's message ends.
pub(crate) fn unencodable_reason(codec: Codec) -> &'static str {
    match codec {
        Codec::Ascii => "ordinal not in range(128)",
        Codec::Latin1 => "ordinal not in range(256)",
        _ => "character maps to <undefined>",
    }
}

/// `text` in a codec that encodes every character (UTF-8, UTF-16, UTF-32), a byte order mark
/// first for `utf-16` and `utf-32`.
pub(crate) fn encode_whole(codec: Codec, text: &str) -> Option<Vec<u8>> {
    let big = |order: Order| order == Order::Big;
    Some(match codec {
        Codec::Utf8 => text.as_bytes().to_vec(),
        Codec::Utf16(order) => {
            let mut out = Vec::with_capacity(2 * text.len() + 2);
            if order == Order::Marked {
                out.extend([0xff, 0xfe]);
            }
            for unit in text.encode_utf16() {
                out.extend(if big(order) { unit.to_be_bytes() } else { unit.to_le_bytes() });
            }
            out
        }
        Codec::Utf32(order) => {
            let mut out = Vec::with_capacity(4 * text.len() + 4);
            if order == Order::Marked {
                out.extend([0xff, 0xfe, 0, 0]);
            }
            for c in text.chars() {
                out.extend(if big(order) { (c as u32).to_be_bytes() } else { (c as u32).to_le_bytes() });
            }
            out
        }
        Codec::Ascii | Codec::Latin1 | Codec::Cp1252 => return None,
    })
}

/// Input that does not decode: bytes `start..end`, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Undecodable {
    pub start: usize,
    pub end: usize,
    pub reason: &'static str,
}

/// `codec` with a byte order mark at the start of `data` read: the codec in the order the
/// mark says (little-endian without one), and where the text starts.
pub(crate) fn read_mark(codec: Codec, data: &[u8]) -> (Codec, usize) {
    match codec {
        Codec::Utf16(Order::Marked) => match data {
            [0xff, 0xfe, ..] => (Codec::Utf16(Order::Little), 2),
            [0xfe, 0xff, ..] => (Codec::Utf16(Order::Big), 2),
            _ => (Codec::Utf16(Order::Little), 0),
        },
        Codec::Utf32(Order::Marked) => match data {
            [0xff, 0xfe, 0, 0, ..] => (Codec::Utf32(Order::Little), 4),
            [0, 0, 0xfe, 0xff, ..] => (Codec::Utf32(Order::Big), 4),
            _ => (Codec::Utf32(Order::Little), 0),
        },
        _ => (codec, 0),
    }
}

/// Decodes `data[from..]` into `out` up to the first input that does not decode, which it
/// returns; `codec`'s byte order is known ([`read_mark`]).
pub(crate) fn decode_until_error(codec: Codec, data: &[u8], from: usize, out: &mut String) -> Option<Undecodable> {
    let rest = &data[from..];
    let at =
        |start: usize, len: usize, reason| Some(Undecodable { start: from + start, end: from + start + len, reason });
    match codec {
        Codec::Latin1 => {
            out.extend(rest.iter().map(|&b| b as char));
            None
        }
        Codec::Ascii | Codec::Cp1252 => {
            for (i, &b) in rest.iter().enumerate() {
                let c = match codec {
                    Codec::Ascii => (b < 0x80).then_some(b as char),
                    _ if (0x80..0xa0).contains(&b) => CP1252_HIGH[usize::from(b - 0x80)],
                    _ => Some(b as char),
                };
                match c {
                    Some(c) => out.push(c),
                    None if codec == Codec::Ascii => return at(i, 1, "ordinal not in range(128)"),
                    None => return at(i, 1, "character maps to <undefined>"),
                }
            }
            None
        }
        Codec::Utf8 => match std::str::from_utf8(rest) {
            Ok(s) => {
                out.push_str(s);
                None
            }
            Err(e) => {
                let good = e.valid_up_to();
                out.push_str(std::str::from_utf8(&rest[..good]).expect("checked valid"));
                match e.error_len() {
                    None => at(good, rest.len() - good, "unexpected end of data"),
                    Some(1) if !(0xC2..=0xF4).contains(&rest[good]) => at(good, 1, "invalid start byte"),
                    Some(n) => at(good, n, "invalid continuation byte"),
                }
            }
        },
        Codec::Utf16(order) => decode_utf16(order == Order::Big, rest, out).and_then(|(s, n, why)| at(s, n, why)),
        Codec::Utf32(order) => decode_utf32(order == Order::Big, rest, out).and_then(|(s, n, why)| at(s, n, why)),
    }
}

/// UTF-16 as CPython's `utf16_decode` reads it: a lone low surrogate is an "illegal
/// encoding", a high one followed by no low one an "illegal UTF-16 surrogate" (its two bytes
/// alone), a high one with under two bytes after it "unexpected end of data" to the end, and
/// an odd last byte "truncated data".
fn decode_utf16(big: bool, data: &[u8], out: &mut String) -> Option<(usize, usize, &'static str)> {
    let unit = |i: usize| {
        let pair = [data[i], data[i + 1]];
        if big { u16::from_be_bytes(pair) } else { u16::from_le_bytes(pair) }
    };
    let mut q = 0;
    while q + 1 < data.len() {
        let u = unit(q);
        match u {
            0xd800..=0xdbff => {
                if q + 3 >= data.len() {
                    return Some((q, data.len() - q, "unexpected end of data"));
                }
                let low = unit(q + 2);
                if !(0xdc00..=0xdfff).contains(&low) {
                    return Some((q, 2, "illegal UTF-16 surrogate"));
                }
                let c = 0x10000 + ((u32::from(u) - 0xd800) << 10) + (u32::from(low) - 0xdc00);
                out.push(char::from_u32(c).expect("a surrogate pair is a character"));
                q += 4;
            }
            0xdc00..=0xdfff => return Some((q, 2, "illegal encoding")),
            _ => {
                out.push(char::from_u32(u32::from(u)).expect("not a surrogate"));
                q += 2;
            }
        }
    }
    (q < data.len()).then_some((q, data.len() - q, "truncated data"))
}

/// UTF-32 as CPython's decoder reads it: a surrogate or a number past U+10FFFF is an error of
/// its four bytes, and fewer than four bytes left "truncated data" to the end.
fn decode_utf32(big: bool, data: &[u8], out: &mut String) -> Option<(usize, usize, &'static str)> {
    let mut q = 0;
    while q < data.len() {
        if data.len() - q < 4 {
            return Some((q, data.len() - q, "truncated data"));
        }
        let word = [data[q], data[q + 1], data[q + 2], data[q + 3]];
        let n = if big { u32::from_be_bytes(word) } else { u32::from_le_bytes(word) };
        match char::from_u32(n) {
            Some(c) => out.push(c),
            None if n >= 0x110000 => return Some((q, 4, "code point not in range(0x110000)")),
            None => return Some((q, 4, "code point in surrogate code point range(0xd800, 0xe000)")),
        }
        q += 4;
    }
    None
}
