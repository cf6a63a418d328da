//! The character classes of `str.is...()` tests: identifiers, printable, space, digits, numerics and case, as
//! CPython 3.11's Unicode 14 tables have them.

use crate::pipeline::value_ops::Text;
use std::sync::LazyLock;

/// `str.isidentifier()`: a first character of XID_Start or `_`, then XID_Continue ones (no
/// keyword check, as in Python).
pub(crate) fn is_identifier(t: Text<'_>) -> bool {
    let mut chars = t.chars();
    let rest = |c: char| unicode_ident::is_xid_continue(c) && !XID_CONTINUE_SINCE_14.contains(&c);
    chars.next().is_some_and(|c| c == '_' || unicode_ident::is_xid_start(c)) && chars.all(rest)
}

/// Characters of Unicode 14.0 (CPython 3.11's tables) that Unicode 15.1 added to XID_Continue:
/// the zero-width joiners and the katakana middle dots.
const XID_CONTINUE_SINCE_14: [char; 4] = ['\u{200C}', '\u{200D}', '\u{30FB}', '\u{FF65}'];

/// CPython's `Py_UNICODE_ISPRINTABLE`: not a separator (but the space) nor an "Other" character.
pub(super) fn is_printable(c: char) -> bool {
    use unicode_general_category::GeneralCategory as G;
    c == ' '
        || !matches!(
            unicode_general_category::get_general_category(c),
            G::Control
                | G::Format
                | G::Surrogate
                | G::PrivateUse
                | G::Unassigned
                | G::LineSeparator
                | G::ParagraphSeparator
                | G::SpaceSeparator
        )
}

/// CPython's `Py_UNICODE_ISSPACE`: Rust's White_Space plus the separators U+001C..U+001F.
pub(crate) fn is_space(c: char) -> bool {
    c.is_whitespace() || ('\x1c'..='\x1f').contains(&c)
}

/// The zero of each run of ten decimal digits (category Nd), from CPython 3.11 (Unicode 14).
const DECIMAL_ZEROS: [u32; 66] = [
    0x30, 0x660, 0x6F0, 0x7C0, 0x966, 0x9E6, 0xA66, 0xAE6, 0xB66, 0xBE6, 0xC66, 0xCE6, 0xD66, 0xDE6, 0xE50, 0xED0,
    0xF20, 0x1040, 0x1090, 0x17E0, 0x1810, 0x1946, 0x19D0, 0x1A80, 0x1A90, 0x1B50, 0x1BB0, 0x1C40, 0x1C50, 0xA620,
    0xA8D0, 0xA900, 0xA9D0, 0xA9F0, 0xAA50, 0xABF0, 0xFF10, 0x104A0, 0x10D30, 0x11066, 0x110F0, 0x11136, 0x111D0,
    0x112F0, 0x11450, 0x114D0, 0x11650, 0x116C0, 0x11730, 0x118E0, 0x11950, 0x11C50, 0x11D50, 0x11DA0, 0x16A60,
    0x16AC0, 0x16B50, 0x1D7CE, 0x1D7D8, 0x1D7E2, 0x1D7EC, 0x1D7F6, 0x1E140, 0x1E2F0, 0x1E950, 0x1FBF0,
];

/// Digits that are not decimal (superscripts, circled digits...): `isdigit()` but not `isdecimal()`.
const DIGIT_EXTRA: [(u32, u32); 20] = [
    (0xB2, 0xB3),
    (0xB9, 0xB9),
    (0x1369, 0x1371),
    (0x19DA, 0x19DA),
    (0x2070, 0x2070),
    (0x2074, 0x2079),
    (0x2080, 0x2089),
    (0x2460, 0x2468),
    (0x2474, 0x247C),
    (0x2488, 0x2490),
    (0x24EA, 0x24EA),
    (0x24F5, 0x24FD),
    (0x24FF, 0x24FF),
    (0x2776, 0x277E),
    (0x2780, 0x2788),
    (0x278A, 0x2792),
    (0x10A40, 0x10A43),
    (0x10E60, 0x10E68),
    (0x11052, 0x1105A),
    (0x1F100, 0x1F10A),
];

/// Ideographs with a numeric value (category Lo): `isnumeric()` though not in category N.
const NUMERIC_IDEOGRAPHS: [u32; 81] = [
    0x3405, 0x3483, 0x382A, 0x3B4D, 0x4E00, 0x4E03, 0x4E07, 0x4E09, 0x4E5D, 0x4E8C, 0x4E94, 0x4E96, 0x4EBF, 0x4EC0,
    0x4EDF, 0x4EE8, 0x4F0D, 0x4F70, 0x5104, 0x5146, 0x5169, 0x516B, 0x516D, 0x5341, 0x5343, 0x5344, 0x5345, 0x534C,
    0x53C1, 0x53C2, 0x53C3, 0x53C4, 0x56DB, 0x58F1, 0x58F9, 0x5E7A, 0x5EFE, 0x5EFF, 0x5F0C, 0x5F0D, 0x5F0E, 0x5F10,
    0x62FE, 0x634C, 0x67D2, 0x6F06, 0x7396, 0x767E, 0x8086, 0x842C, 0x8CAE, 0x8CB3, 0x8D30, 0x9621, 0x9646, 0x964C,
    0x9678, 0x96F6, 0xF96B, 0xF973, 0xF978, 0xF9B2, 0xF9D1, 0xF9D3, 0xF9FD, 0x20001, 0x20064, 0x200E2, 0x20121,
    0x2092A, 0x20983, 0x2098C, 0x2099C, 0x20AEA, 0x20AFD, 0x20B19, 0x22390, 0x22998, 0x23B1B, 0x2626D, 0x2F890,
];

/// The value of a decimal digit in any script (`'٣'` → 3), as `str.isdecimal()` and `int()` see it.
pub(crate) fn decimal_value(c: char) -> Option<u32> {
    if c.is_ascii() {
        return c.to_digit(10);
    }
    let k = DECIMAL_ZEROS.partition_point(|&z| z <= c as u32);
    let d = (c as u32).wrapping_sub(DECIMAL_ZEROS[k.checked_sub(1)?]);
    (d < 10).then_some(d)
}

pub(super) fn is_digit(c: char) -> bool {
    decimal_value(c).is_some() || DIGIT_EXTRA.iter().any(|&(a, b)| (a..=b).contains(&(c as u32)))
}

pub(super) fn is_numeric(c: char) -> bool {
    // Rust's `is_numeric` is the general category N (Nd, Nl, No), which CPython counts as numeric.
    c.is_numeric() || NUMERIC_IDEOGRAPHS.binary_search(&(c as u32)).is_ok()
}

/// CPython's `isalpha`: the general category L (Rust's `is_alphabetic` also admits marks and Nl).
pub(super) fn is_alpha(c: char) -> bool {
    static LETTER: LazyLock<regex::Regex> = LazyLock::new(|| regex::Regex::new(r"\p{L}").expect("valid class"));
    if c.is_ascii() { c.is_ascii_alphabetic() } else { LETTER.is_match(c.encode_utf8(&mut [0; 4])) }
}

pub(super) fn all_chars(t: Text<'_>, pred: impl Fn(char) -> bool) -> bool {
    let mut chars = t.chars();
    chars.next().is_some_and(&pred) && chars.all(pred)
}

/// The titlecase letters (category Lt); Rust has no predicate for them.
pub(crate) fn is_titlecase(c: char) -> bool {
    matches!(c as u32, 0x1C5 | 0x1C8 | 0x1CB | 0x1F2 | 0x1F88..=0x1F8F | 0x1F98..=0x1F9F | 0x1FA8..=0x1FAF | 0x1FBC | 0x1FCC | 0x1FFC)
}

/// CPython's "cased": Lowercase, Uppercase or titlecase.
pub(super) fn is_cased(c: char) -> bool {
    c.is_lowercase() || c.is_uppercase() || is_titlecase(c)
}

/// `islower()` / `isupper()`: at least one cased character, and none of the other case or titlecase.
pub(super) fn cased_only(t: Text<'_>, this: fn(char) -> bool, other: fn(char) -> bool) -> bool {
    let mut cased = false;
    for c in t.chars() {
        if other(c) || is_titlecase(c) {
            return false;
        }
        cased |= this(c);
    }
    cased
}
