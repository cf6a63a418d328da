//! A float's digits as CPython's `PyOS_double_to_string` writes them for `format()` and `%`:
//! the `e`, `f`, `g` and `repr` modes with the alternate form, `.0` for integers and `z`.

use super::layout::text_with_room;
use crate::Result;
use crate::any::py_text::shortest_digits;
use std::fmt::Write;

/// How the digits are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// `e`: one digit, the point, this many digits, the exponent.
    Exponent(usize),
    /// `f`: this many digits after the point.
    Fixed(usize),
    /// `g`: this many significant digits, fixed or exponent by the size of the exponent.
    General(usize),
    /// `repr()`: the shortest digits that read back as the same float.
    Shortest,
}

/// Flags of `PyOS_double_to_string`.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Flags {
    /// `#`: keep the point (and, for `g`, trailing zeros).
    pub alternate: bool,
    /// Write `.0` after an integer in fixed notation; `g` then switches to the exponent one
    /// digit earlier (the format type left out, with a precision).
    pub add_dot_0: bool,
    /// `z`: a negative zero after rounding loses its sign.
    pub no_neg_zero: bool,
    /// `E`, `F`, `G`: upper-case `E`, `INF`, `NAN`.
    pub upper: bool,
}

/// The text of `x` without its sign, and whether a minus sign goes before it.
pub(crate) fn float_digits(x: f64, mode: Mode, flags: Flags) -> Result<(bool, String)> {
    let ax = x.abs();
    let mut text = match mode {
        _ if x.is_nan() => "nan".to_owned(),
        _ if x.is_infinite() => "inf".to_owned(),
        Mode::Fixed(p) => {
            // The integer part has at most 309 digits.
            let mut s = text_with_room(p.saturating_add(320), "format()")?;
            let exact = p.min(EXACT_DIGITS);
            let _ = write!(s, "{ax:.exact$}");
            s.extend(std::iter::repeat_n('0', p - exact));
            if flags.alternate && p == 0 {
                s.push('.');
            }
            s
        }
        Mode::Exponent(p) => {
            let s = exponent_form(ax, p)?;
            let (mantissa, exp) = split_exponent(&s);
            let mut out = text_with_room(p.saturating_add(16), "format()")?;
            out.push_str(mantissa);
            out.extend(std::iter::repeat_n('0', p - p.min(EXACT_DIGITS)));
            if flags.alternate && p == 0 {
                out.push('.');
            }
            push_exponent(&mut out, exp);
            out
        }
        Mode::General(p) => {
            let p = p.max(1);
            let s = exponent_form(ax, p - 1)?;
            let (mantissa, exp) = split_exponent(&s);
            let mut digits = text_with_room(p.saturating_add(1), "format()")?;
            digits.extend(mantissa.chars().filter(|&c| c != '.'));
            digits.extend(std::iter::repeat_n('0', p - digits.len()));
            let threshold = if flags.add_dot_0 { p as i64 - 1 } else { p as i64 };
            place(&digits, exp, exp < -4 || exp >= threshold, flags)
        }
        Mode::Shortest => {
            let (digits, exp) = shortest_digits(ax);
            place(&digits, exp as i64, !(-4..16).contains(&exp), flags)
        }
    };
    if flags.upper {
        text.make_ascii_uppercase();
    }
    // Only the mantissa decides: `0e+00` is a zero, `0.0` too. A NaN never shows a sign.
    let mantissa = text.split(['e', 'E']).next().unwrap_or("");
    let zero = mantissa.bytes().all(|b| b == b'0' || b == b'.');
    let negative = x.is_sign_negative() && !x.is_nan() && !(flags.no_neg_zero && zero);
    Ok((negative, text))
}

/// Digits past the point that Rust is asked for: every f64 is exact within 1,074 of them (and
/// within 767 significant ones), and Rust refuses precisions beyond `u16::MAX`; the digits
/// asked for beyond this are zeros, written by hand.
const EXACT_DIGITS: usize = 1100;

/// `ax` in Rust's exponent form with `p` digits after the point, the ones past
/// [`EXACT_DIGITS`] left out (they are zeros).
fn exponent_form(ax: f64, p: usize) -> Result<String> {
    let exact = p.min(EXACT_DIGITS);
    let mut s = text_with_room(exact + 16, "format()")?;
    let _ = write!(s, "{ax:.exact$e}");
    Ok(s)
}

/// `d.ddde-5` as Rust writes it, split into the mantissa and the exponent.
fn split_exponent(s: &str) -> (&str, i64) {
    let (m, e) = s.split_once('e').unwrap_or((s, "0"));
    (m, e.parse().unwrap_or(0))
}

/// `e+05`: a signed exponent of at least two digits.
fn push_exponent(out: &mut String, exp: i64) {
    let _ = write!(out, "e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.unsigned_abs());
}

/// Significant `digits` of a number whose first digit has decimal exponent `exp`, written
/// in exponent or fixed notation. Trailing zeros go unless the form is alternate, which
/// keeps the point too; `add_dot_0` writes `.0` after an integer in fixed notation.
fn place(digits: &str, exp: i64, use_exponent: bool, flags: Flags) -> String {
    let digits = if flags.alternate { digits } else { digits.trim_end_matches('0') };
    let digits = if digits.is_empty() { "0" } else { digits };
    let mut out = String::with_capacity(digits.len() + exp.unsigned_abs() as usize + 8);
    if use_exponent {
        out.push_str(&digits[..1]);
        if digits.len() > 1 || flags.alternate {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        push_exponent(&mut out, exp);
        return out;
    }
    if exp < 0 {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', (-exp - 1) as usize));
        out.push_str(digits);
        return out;
    }
    let int_len = exp as usize + 1;
    if digits.len() > int_len {
        out.push_str(&digits[..int_len]);
        out.push('.');
        out.push_str(&digits[int_len..]);
    } else {
        out.push_str(digits);
        out.extend(std::iter::repeat_n('0', int_len - digits.len()));
        // `.0` wins over the bare point of the alternate form (CPython's `add_dot_0_if_integer`
        // asks for a digit after the point, the alternate form only for the point).
        if flags.add_dot_0 {
            out.push_str(".0");
        } else if flags.alternate {
            out.push('.');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(x: f64, mode: Mode, flags: Flags) -> String {
        let (neg, s) = float_digits(x, mode, flags).unwrap();
        format!("{}{s}", if neg { "-" } else { "" })
    }
    const NONE: Flags = Flags { alternate: false, add_dot_0: false, no_neg_zero: false, upper: false };
    const ALT: Flags = Flags { alternate: true, ..NONE };
    const DOT0: Flags = Flags { add_dot_0: true, ..NONE };

    #[test]
    fn modes_match_cpython() {
        // Each expected string is CPython 3.11's format() of the same value.
        assert_eq!(f(1234567.0, Mode::General(6), NONE), "1.23457e+06");
        assert_eq!(f(123456.0, Mode::General(6), NONE), "123456");
        assert_eq!(f(1e-5, Mode::General(6), NONE), "1e-05");
        assert_eq!(f(1e-4, Mode::General(6), NONE), "0.0001");
        assert_eq!(f(1.0, Mode::General(6), ALT), "1.00000");
        assert_eq!(f(100.0, Mode::General(3), DOT0), "1e+02");
        assert_eq!(f(9.9999, Mode::General(3), DOT0), "10.0");
        assert_eq!(f(1.0, Mode::Exponent(0), ALT), "1.e+00");
        assert_eq!(f(1.0, Mode::Fixed(0), ALT), "1.");
        assert_eq!(f(2.5, Mode::Fixed(0), NONE), "2");
        assert_eq!(f(0.125, Mode::Fixed(2), NONE), "0.12");
        assert_eq!(f(1e16, Mode::Shortest, ALT), "1.e+16");
        assert_eq!(f(1e16, Mode::Shortest, DOT0), "1e+16");
        assert_eq!(f(1e15, Mode::Shortest, DOT0), "1000000000000000.0");
        assert_eq!(f(-0.04, Mode::Fixed(1), Flags { no_neg_zero: true, ..NONE }), "0.0");
        assert_eq!(f(-0.06, Mode::Fixed(1), Flags { no_neg_zero: true, ..NONE }), "-0.1");
        assert_eq!(f(-0.0, Mode::Exponent(2), NONE), "-0.00e+00");
        assert_eq!(f(f64::INFINITY, Mode::Fixed(2), Flags { upper: true, ..NONE }), "INF");
    }

    #[test]
    fn precisions_past_exact_digits_are_zeros() {
        // Rust panics on precisions above u16::MAX; CPython writes the zeros.
        let fixed = f(0.1, Mode::Fixed(100_000), NONE);
        assert_eq!(fixed.len(), 100_002);
        assert!(fixed.starts_with("0.1000000000000000055511151231257827"));
        assert!(fixed[1200..].bytes().all(|b| b == b'0'));
        let exp = f(0.1, Mode::Exponent(70_000), NONE);
        assert!(exp.starts_with("1.000000000000000055511151231257827") && exp.ends_with("0e-01"));
        assert_eq!(exp.len(), 70_006);
        let general = f(0.1, Mode::General(70_000), ALT);
        assert_eq!(general.len(), 70_002);
        assert_eq!(f(0.1, Mode::General(70_000), NONE), "0.1000000000000000055511151231257827021181583404541015625");
    }
}
