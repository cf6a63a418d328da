//! CPython's `repr()` of the scalar values: floats, strings and bytes, character for character.
//!
//! One implementation for both printers: `Display`/`Debug` of values (`repr.rs`) and the
//! interpreter's `repr()`/`str()` (`pipeline/value_ops.rs`), which the tests compare with CPython.

use std::fmt::{self, Write};

/// Python's `repr(int)` of `i`, written at the end of `buf` (20 bytes hold `i64::MIN`), with
/// no allocation.
pub fn int_text(i: i64, buf: &mut [u8; 20]) -> &str {
    let mut n = i.unsigned_abs();
    let mut k = buf.len();
    loop {
        k -= 1;
        buf[k] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    if i < 0 {
        k -= 1;
        buf[k] = b'-';
    }
    std::str::from_utf8(&buf[k..]).unwrap_or_default()
}

/// Python's `repr(float)`: the shortest round-tripping digits, fixed notation for exponents
/// -4..16 and `1e+16` / `1e-05` style beyond.
pub fn write_float_repr(out: &mut impl Write, f: f64) -> fmt::Result {
    if f.is_nan() {
        return out.write_str("nan");
    }
    if f.is_infinite() {
        return out.write_str(if f > 0.0 { "inf" } else { "-inf" });
    }
    let (digits, exp) = shortest_digits(f.abs());
    if f.is_sign_negative() {
        out.write_char('-')?;
    }
    // `decpt` is where the decimal point goes: the value is 0.DIGITS x 10^decpt.
    let decpt = exp + 1;
    let n = digits.len() as i32;
    if (-3..=16).contains(&decpt) {
        if decpt <= 0 {
            out.write_str("0.")?;
            (0..-decpt).try_for_each(|_| out.write_char('0'))?;
            out.write_str(&digits)
        } else if decpt >= n {
            out.write_str(&digits)?;
            (0..decpt - n).try_for_each(|_| out.write_char('0'))?;
            out.write_str(".0")
        } else {
            out.write_str(&digits[..decpt as usize])?;
            out.write_char('.')?;
            out.write_str(&digits[decpt as usize..])
        }
    } else {
        out.write_str(&digits[..1])?;
        if n > 1 {
            out.write_char('.')?;
            out.write_str(&digits[1..])?;
        }
        write!(out, "e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.unsigned_abs())
    }
}

/// The shortest round-tripping significant digits of `x >= 0` and the decimal exponent of the
/// first one, choosing as CPython does between two equally near candidates (half to even).
pub fn shortest_digits(x: f64) -> (String, i32) {
    let sci = format!("{x:e}");
    let (mant, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let digits: String = mant.chars().filter(|&c| c != '.').collect();
    let exp: i32 = exp.parse().unwrap_or(0);
    let d = digits.len();
    // Rust rounds an exact tie at the last shortest digit up, CPython to even. A tie needs the
    // exact value to end in a 5 just after the shortest digits, which one more digit shows cheaply.
    let longer = format!("{x:.d$e}");
    if !longer.split_once('e').is_some_and(|(m, _)| m.ends_with('5')) {
        return (digits, exp);
    }
    // 1100 digits hold any f64 exactly (the longest expansion has 767 significant digits).
    let exact = format!("{x:.1100e}");
    let (m, e) = exact.split_once('e').unwrap_or((&exact, "0"));
    let all: Vec<u8> = m.bytes().filter(|&b| b != b'.').collect();
    if e.parse::<i32>() != Ok(exp) || all[d] != b'5' || all[d + 1..].iter().any(|&b| b != b'0') {
        return (digits, exp);
    }
    let mut even = all[..d].to_vec();
    let mut even_exp = exp;
    if (even[d - 1] - b'0') % 2 == 1 {
        // Round the truncation up; a carry out of the first digit moves the exponent.
        let mut i = d;
        loop {
            if i == 0 {
                even.insert(0, b'1');
                even.pop();
                even_exp += 1;
                break;
            }
            i -= 1;
            if even[i] == b'9' {
                even[i] = b'0';
            } else {
                even[i] += 1;
                break;
            }
        }
    }
    while even.len() > 1 && even.last() == Some(&b'0') {
        even.pop();
    }
    let even = String::from_utf8(even).unwrap_or_default();
    let text = format!("{}.{}e{even_exp}", &even[..1], &even[1..]);
    if text.parse::<f64>() == Ok(x) { (even, even_exp) } else { (digits, exp) }
}

/// Python's `repr(str)`: quoted, with CPython's choice of quote and escapes.
pub fn write_str_repr(out: &mut impl Write, chars: impl Iterator<Item = char> + Clone) -> fmt::Result {
    // CPython picks double quotes only when the text has a single quote and no double quote.
    let (single, double) = chars.clone().fold((false, false), |(s, d), c| (s || c == '\'', d || c == '"'));
    let quote = if single && !double { '"' } else { '\'' };
    out.write_char(quote)?;
    for c in chars {
        match c {
            '\\' => out.write_str("\\\\")?,
            '\t' => out.write_str("\\t")?,
            '\n' => out.write_str("\\n")?,
            '\r' => out.write_str("\\r")?,
            c if c == quote => {
                out.write_char('\\')?;
                out.write_char(c)?;
            }
            c if c < ' ' || c == '\x7f' => write!(out, "\\x{:02x}", c as u32)?,
            c if c.is_ascii() || is_printable(c) => out.write_char(c)?,
            c if (c as u32) <= 0xff => write!(out, "\\x{:02x}", c as u32)?,
            c if (c as u32) <= 0xffff => write!(out, "\\u{:04x}", c as u32)?,
            c => write!(out, "\\U{:08x}", c as u32)?,
        }
    }
    out.write_char(quote)
}

/// [`write_str_repr`] of UTF-8 text, written in one piece when no character needs an escape.
///
/// Rationale: printable ASCII without a backslash, and without both kinds of quote, is its own
/// repr between quotes; copying it whole instead of a character at a time makes the repr of a
/// long string a copy.
pub fn write_utf8_str_repr(out: &mut impl Write, s: &str) -> fmt::Result {
    let plain = s.bytes().all(|b| (b' '..=b'~').contains(&b) && b != b'\\');
    let (single, double) = (s.contains('\''), s.contains('"'));
    if !plain || (single && double) {
        return write_str_repr(out, s.chars());
    }
    let quote = if single { '"' } else { '\'' };
    out.write_char(quote)?;
    out.write_str(s)?;
    out.write_char(quote)
}

/// CPython's `str.isprintable` for one character: not in categories C* or Z*, except space.
pub fn is_printable(c: char) -> bool {
    static NONPRINTABLE: std::sync::LazyLock<regex::Regex> =
        std::sync::LazyLock::new(|| regex::Regex::new(r"[\p{C}\p{Z}]").expect("valid class"));
    c == ' ' || !NONPRINTABLE.is_match(c.encode_utf8(&mut [0; 4]))
}

/// Python's `repr(bytes)`: `b'...'` with CPython's choice of quote and escapes.
pub fn write_bytes_repr(out: &mut impl Write, b: &[u8]) -> fmt::Result {
    let quote = if b.contains(&b'\'') && !b.contains(&b'"') { '"' } else { '\'' };
    out.write_char('b')?;
    out.write_char(quote)?;
    for &x in b {
        match x {
            b'\\' => out.write_str("\\\\")?,
            b'\t' => out.write_str("\\t")?,
            b'\n' => out.write_str("\\n")?,
            b'\r' => out.write_str("\\r")?,
            x if x as char == quote => {
                out.write_char('\\')?;
                out.write_char(quote)?;
            }
            0x20..=0x7e => out.write_char(x as char)?,
            _ => write!(out, "\\x{x:02x}")?,
        }
    }
    out.write_char(quote)
}

#[cfg(test)]
mod tests {
    use crate::{AnyValue, List};

    /// The whole-text path gives CPython 3.11's repr (written out by hand), and so does the
    /// character path it falls back to.
    #[test]
    fn utf8_str_repr_is_cpython_repr() {
        let cases = [
            ("plain text", r#"'plain text'"#),
            ("it's", r#""it's""#),
            (r#"say "hi""#, r#"'say "hi"'"#),
            (r#"it's "x""#, r#"'it\'s "x"'"#),
            (r"back\slash", r"'back\\slash'"),
            ("tab\t", r"'tab\t'"),
            ("é~", "'é~'"),
            ("", "''"),
        ];
        for (text, want) in cases {
            let mut whole = String::new();
            super::write_utf8_str_repr(&mut whole, text).expect("written");
            let mut by_char = String::new();
            super::write_str_repr(&mut by_char, text.chars()).expect("written");
            assert_eq!((whole.as_str(), by_char.as_str()), (want, want), "{text:?}");
        }
    }

    /// `repr()` as CPython 3.11 prints it, for values whose text is known by heart.
    #[test]
    fn debug_is_cpython_repr() {
        let floats: &[(f64, &str)] = &[
            (1e16, "1e+16"),
            (1e-5, "1e-05"),
            (2.5e-7, "2.5e-07"),
            (1.5e300, "1.5e+300"),
            (0.1, "0.1"),
            (-0.0, "-0.0"),
            (123456789.0, "123456789.0"),
            (9999999999999998.0, "9999999999999998.0"),
            (f64::NAN, "nan"),
            (f64::NEG_INFINITY, "-inf"),
        ];
        for &(x, want) in floats {
            assert_eq!(format!("{:?}", AnyValue::from(x)), want, "{x}");
        }
        let strings: &[(&str, &str)] = &[
            ("é", "'é'"),
            ("it's", "\"it's\""),
            ("a\u{200b}b", "'a\\u200bb'"),
            ("\u{85}", "'\\x85'"),
            ("\u{a0}", "'\\xa0'"),
            ("\u{1f600}", "'\u{1f600}'"),
            ("\u{e0001}", "'\\U000e0001'"),
            ("tab\there", "'tab\\there'"),
        ];
        for &(s, want) in strings {
            assert_eq!(format!("{:?}", AnyValue::from(s)), want, "{s:?}");
        }
        let mut list = List::new();
        list.push(1e16);
        list.push("x\u{7f}");
        list.push(AnyValue::from(crate::Bytes::new(b"\x00'")));
        assert_eq!(format!("{:?}", AnyValue::from(list)), "[1e+16, 'x\\x7f', b\"\\x00'\"]");
    }
}
