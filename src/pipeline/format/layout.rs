//! Laying a formatted value out in its field: padding, the sign, digit groups, as CPython's
//! `calc_number_widths` and `_PyUnicode_InsertThousandsGrouping` do.

use super::spec::{Align, FormatSpec};
use crate::pipeline::value_ops::MAX_RESULT_BYTES;
use crate::{Error, Result};
use std::borrow::Cow;

/// An empty string with room for `bytes`, or the `MemoryError` `what` would raise.
pub(crate) fn text_with_room(bytes: usize, what: &str) -> Result<String> {
    let mut s = String::new();
    reserve(&mut s, bytes, what)?;
    Ok(s)
}

/// Makes room for `additional` more bytes in `out`, or fails with the `MemoryError` `what`
/// would raise. A width of a billion would be granted by overcommit and then filled until the
/// process is killed, so results past `MAX_RESULT_BYTES` are refused without asking.
pub(crate) fn reserve(out: &mut String, additional: usize, what: &str) -> Result<()> {
    let total = out.len().saturating_add(additional);
    if total > MAX_RESULT_BYTES || out.try_reserve(additional).is_err() {
        return Err(Error::out_of_memory(what, total));
    }
    Ok(())
}

/// Pushes `n` copies of `c`, a block of copies at a time.
///
/// Rationale: a width can ask for gigabytes of fill (`f"{w:<2000000000}"`); pushed one
/// character at a time, such a fill ran past the script fuzz target's time limit.
fn push_n(out: &mut String, c: char, n: usize) {
    const BLOCK: usize = 256;
    if n < BLOCK {
        out.extend(std::iter::repeat_n(c, n));
        return;
    }
    let block: String = std::iter::repeat_n(c, BLOCK).collect();
    for _ in 0..n / BLOCK {
        out.push_str(&block);
    }
    out.extend(std::iter::repeat_n(c, n % BLOCK));
}

/// `text` (of `chars` code points) padded to the spec's width with its fill and alignment.
pub(crate) fn pad(text: &str, chars: usize, spec: &FormatSpec) -> Result<String> {
    let total = spec.width.unwrap_or(0).max(chars);
    let padding = total - chars;
    let mut out = text_with_room(text.len().saturating_add(padding.saturating_mul(spec.fill.len_utf8())), "format()")?;
    let (before, after) = match spec.align {
        Align::Left => (0, padding),
        Align::Center => (padding / 2, padding - padding / 2),
        Align::Right | Align::AfterSign => (padding, 0),
    };
    push_n(&mut out, spec.fill, before);
    out.push_str(text);
    push_n(&mut out, spec.fill, after);
    Ok(out)
}

/// A number split as CPython splits it before laying it out.
pub(crate) struct NumberParts<'a> {
    /// Whether a minus sign leads.
    pub negative: bool,
    /// `0x`, `0b`, `0o` (alternate form), or empty.
    pub prefix: &'a str,
    /// The integer digits (the character itself for `c`), grouped and zero-filled.
    pub digits: &'a str,
    /// Everything after the digits: the point, the fraction, the exponent, `%`, or `nan`/`inf`.
    pub rest: &'a str,
    /// Digits per group and the separator, when grouping.
    pub grouping: Option<(usize, char)>,
}

/// Lays out a number: sign, prefix, padding after the sign for `=`, digit groups (filled with
/// zeros up to the width when the fill is `0` and the alignment `=`), then the rest.
pub(crate) fn number(n: &NumberParts<'_>, spec: &FormatSpec) -> Result<String> {
    let sign = match (n.negative, spec.sign) {
        (true, _) => Some('-'),
        (false, Some('+')) => Some('+'),
        (false, Some(' ')) => Some(' '),
        _ => None,
    };
    let width = spec.width.unwrap_or(0) as i128;
    let rest_chars = n.rest.chars().count() as i128;
    let fixed = sign.is_some() as i128 + n.prefix.len() as i128 + rest_chars;
    let min_width = if spec.fill == '0' && spec.align == Align::AfterSign { width - fixed } else { 0 };
    let digit_count = n.digits.chars().count() as i128;
    let grouped: Cow<'_, str> = if n.digits.is_empty() || (n.grouping.is_none() && min_width <= digit_count) {
        // Nothing to group or fill: the digits as they are.
        Cow::Borrowed(n.digits)
    } else {
        Cow::Owned(group(n.digits, min_width, n.grouping)?)
    };
    let used = fixed + grouped.chars().count() as i128;
    let padding = (width - used).max(0) as usize;
    let (before, between, after) = match spec.align {
        Align::Left => (0, 0, padding),
        Align::Right => (padding, 0, 0),
        Align::Center => (padding / 2, 0, padding - padding / 2),
        Align::AfterSign => (0, padding, 0),
    };
    let fixed_bytes = grouped.len() + n.rest.len() + n.prefix.len() + 1;
    let bytes = fixed_bytes.saturating_add(padding.saturating_mul(spec.fill.len_utf8()));
    let mut out = text_with_room(bytes, "format()")?;
    push_n(&mut out, spec.fill, before);
    out.extend(sign);
    out.push_str(n.prefix);
    push_n(&mut out, spec.fill, between);
    out.push_str(&grouped);
    out.push_str(n.rest);
    push_n(&mut out, spec.fill, after);
    Ok(out)
}

/// The digits with separators every `size` digits from the right, led by zeros (and their
/// separators) until at least `min_width` characters: CPython's grouping walk, which may
/// overshoot the width by one rather than start with a separator.
fn group(digits: &str, min_width: i128, grouping: Option<(usize, char)>) -> Result<String> {
    let bytes = digits.len().max(min_width.max(0) as usize);
    let mut reversed = text_with_room(bytes.saturating_add(bytes / 3 + 1), "format()")?;
    let mut from_right = digits.chars().rev();
    // In characters: for `c` the digit is the character, which may take several bytes.
    let mut remaining = digits.chars().count() as i128;
    let mut min_width = min_width;
    let mut take = |out: &mut String, l: i128, remaining: &mut i128| {
        let chars = (*remaining).min(l).max(0);
        let zeros = (l - *remaining).max(0);
        out.extend(from_right.by_ref().take(chars as usize));
        push_n(out, '0', zeros as usize);
        *remaining -= chars;
    };
    match grouping {
        None => take(&mut reversed, remaining.max(min_width).max(1), &mut remaining),
        Some((size, sep)) => {
            let mut first = true;
            loop {
                let l = (size as i128).min(remaining.max(min_width).max(1));
                if !first {
                    reversed.push(sep);
                }
                first = false;
                take(&mut reversed, l, &mut remaining);
                min_width -= l;
                if remaining <= 0 && min_width <= 0 {
                    break;
                }
                min_width -= 1;
            }
        }
    }
    Ok(reversed.chars().rev().collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grouped(digits: &str, min_width: i128) -> String {
        group(digits, min_width, Some((3, ','))).unwrap()
    }

    #[test]
    fn grouping_fills_zeros_as_cpython() {
        // format(1234, "07,"), "08,", "010,": CPython gives 001,234 / 0,001,234 / 00,001,234.
        assert_eq!(grouped("1234", 7), "001,234");
        assert_eq!(grouped("1234", 8), "0,001,234");
        assert_eq!(grouped("1234", 10), "00,001,234");
        assert_eq!(grouped("1234567", 0), "1,234,567");
        assert_eq!(grouped("123", 0), "123");
        assert_eq!(group("12345", 0, Some((4, '_'))).unwrap(), "1_2345");
        assert_eq!(group("5", 4, None).unwrap(), "0005");
    }

    #[test]
    fn fill_is_n_copies_across_block_boundaries() {
        for c in ['*', 'é', '😀'] {
            for n in [0, 1, 255, 256, 257, 511, 512, 1000] {
                let mut out = String::from("x");
                push_n(&mut out, c, n);
                assert_eq!(out, format!("x{}", c.to_string().repeat(n)), "{c:?} x {n}");
            }
        }
    }
}
