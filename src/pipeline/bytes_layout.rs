//! `bytes.center`, `ljust`, `rjust`, `zfill` and `expandtabs`, and the ASCII case changes
//! `title`, `capitalize` and `swapcase` with their test `istitle`, as CPython 3.11 has them.
//!
//! Rationale: bytes are ASCII to these methods: a byte past `\x7f` has no case, and to
//! `expandtabs` every byte but a tab, `\n` and `\r` is one column.

use super::Slot;
use super::bytes_methods::grow;
use super::methods::Method;
use super::value_ops::{arg_vname, c_int_arg, index_arg, type_error};
use crate::{AnyView, Result, Value};

/// The bytes `b` lacks to be `width` long, when it lacks any.
fn margin(width: i64, b: &[u8]) -> Option<usize> {
    usize::try_from(width).ok().and_then(|w| w.checked_sub(b.len())).filter(|&m| m > 0)
}

/// `b.center/ljust/rjust(width, fillchar=b" ")`.
pub(crate) fn justify(m: Method, b: &[u8], args: &[AnyView<'_>]) -> Result<Slot> {
    let width = index_arg(&args[0])?;
    let fill = match args.get(1).map(|a| a.value()) {
        None => b' ',
        Some(Value::Bytes(&[c])) => c,
        Some(x) => {
            let message = format!("{}() argument 2 must be a byte string of length 1, not {}", m.name(), arg_vname(x));
            return Err(type_error(message));
        }
    };
    let Some(margin) = margin(width, b) else { return Ok(Slot::from_bytes(b)) };
    let left = match m {
        Method::Ljust => 0,
        Method::Rjust => margin,
        // CPython: `marg / 2 + (marg & width & 1)`, as for str.
        _ => margin / 2 + (margin & width as usize & 1),
    };
    let mut out = Vec::new();
    grow(&mut out, b.len().saturating_add(margin))?;
    out.resize(left, fill);
    out.extend_from_slice(b);
    out.resize(b.len() + margin, fill);
    Ok(Slot::from_bytes(&out))
}

/// `b.zfill(width)`: zeros on the left, after a leading sign.
pub(crate) fn zfill(b: &[u8], width: &AnyView<'_>) -> Result<Slot> {
    let Some(zeros) = margin(index_arg(width)?, b) else { return Ok(Slot::from_bytes(b)) };
    let mut out = Vec::new();
    grow(&mut out, b.len().saturating_add(zeros))?;
    let (sign, rest) = match b.split_first() {
        Some((&c @ (b'+' | b'-'), rest)) => (Some(c), rest),
        _ => (None, b),
    };
    out.extend(sign);
    out.resize(out.len() + zeros, b'0');
    out.extend_from_slice(rest);
    Ok(Slot::from_bytes(&out))
}

/// `b.expandtabs(tabsize=8)`: each tab becomes the spaces up to the next multiple of `tabsize`
/// columns, counted from the last `\n` or `\r` (no tab stops when `tabsize <= 0`).
pub(crate) fn expandtabs(b: &[u8], tabsize: Option<&AnyView<'_>>) -> Result<Slot> {
    let tabsize = tabsize.map(c_int_arg).transpose()?.unwrap_or(8);
    if !b.contains(&b'\t') {
        return Ok(Slot::from_bytes(b));
    }
    let step = usize::try_from(tabsize).unwrap_or(0);
    let mut out = Vec::new();
    grow(&mut out, b.len())?;
    let mut column = 0usize;
    for &c in b {
        match c {
            b'\t' if step > 0 => {
                let spaces = step - column % step;
                grow(&mut out, spaces)?;
                out.resize(out.len() + spaces, b' ');
                column += spaces;
            }
            b'\t' => {}
            b'\n' | b'\r' => {
                out.push(c);
                column = 0;
            }
            _ => {
                out.push(c);
                column += 1;
            }
        }
    }
    Ok(Slot::from_bytes(&out))
}

/// `title()`, `capitalize()` and `swapcase()`: ASCII letters change case, other bytes stay.
pub(crate) fn change_case(m: Method, b: &[u8]) -> Slot {
    let mut out = b.to_vec();
    match m {
        Method::Title => {
            // A letter after a cased letter is lower case, any other letter upper case.
            let mut after_cased = false;
            for c in &mut out {
                let cased = c.is_ascii_alphabetic();
                if cased {
                    *c = if after_cased { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() };
                }
                after_cased = cased;
            }
        }
        Method::Capitalize => {
            out.make_ascii_lowercase();
            if let Some(first) = out.first_mut() {
                first.make_ascii_uppercase();
            }
        }
        _ => out.iter_mut().filter(|c| c.is_ascii_alphabetic()).for_each(|c| *c ^= 0x20),
    }
    Slot::from_bytes(&out)
}

/// `istitle()`: some letter, every upper case one after an uncased byte and every lower case
/// one after a cased letter.
pub(crate) fn is_title(b: &[u8]) -> bool {
    let (mut cased, mut after_cased) = (false, false);
    for c in b {
        if c.is_ascii_uppercase() && after_cased || c.is_ascii_lowercase() && !after_cased {
            return false;
        }
        after_cased = c.is_ascii_alphabetic();
        cased |= after_cased;
    }
    cased
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::test_values::outcome as show;

    // Expected: CPython 3.11's results for the same calls.
    #[test]
    fn results_are_cpythons() {
        let int = |i: i64| AnyView::from(i);
        assert_eq!(show(justify(Method::Center, b"abc", &[int(6)])), "b' abc  '");
        assert_eq!(show(justify(Method::Center, b"ab", &[int(5), AnyView::from_bytes(b"*")])), "b'**ab*'");
        assert_eq!(
            show(justify(Method::Rjust, b"ab", &[int(5), AnyView::from("*")])),
            "Type: rjust() argument 2 must be a byte string of length 1, not str"
        );
        assert_eq!(show(zfill(b"-12", &int(6))), "b'-00012'");
        assert_eq!(show(expandtabs(b"a\tb\ncd\te", None)), "b'a       b\\ncd      e'");
        assert_eq!(show(Ok(change_case(Method::Title, b"they're bill's \xe9a"))), "b\"They'Re Bill'S \\xe9A\"");
        assert_eq!(show(Ok(change_case(Method::Swapcase, b"hELLO w1"))), "b'Hello W1'");
        assert!(is_title(b"Hello World") && !is_title(b"HELLO") && !is_title(b"") && !is_title(b"1"));
    }
}
