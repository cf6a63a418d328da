//! Python's format-spec mini-language,
//! `[[fill]align][sign][z][#][0][width][grouping][.precision][type]`, read as CPython 3.11
//! reads it (`Python/formatter_unicode.c`), errors worded alike.

use super::with_chars;
use crate::Result;
use crate::pipeline::methods::decimal_value;
use crate::pipeline::value_ops::{Text, value_error};

/// Where padding goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Align {
    /// `<`: padding after the value.
    Left,
    /// `>`: padding before the value.
    Right,
    /// `^`: padding split around the value, the odd one after.
    Center,
    /// `=`: padding between the sign (and prefix) and the digits.
    AfterSign,
}

impl Align {
    fn of(c: char) -> Option<Align> {
        match c {
            '<' => Some(Align::Left),
            '>' => Some(Align::Right),
            '^' => Some(Align::Center),
            '=' => Some(Align::AfterSign),
            _ => None,
        }
    }
}

/// A parsed format spec; fields hold what was written, defaults filled in per type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FormatSpec {
    /// The padding character (a space unless given).
    pub fill: char,
    /// The alignment, the type's default when none was written.
    pub align: Align,
    /// `+`, `-` or ` `, when written.
    pub sign: Option<char>,
    /// `z`: negative zero (after rounding) printed as zero.
    pub no_neg_zero: bool,
    /// `#`: the alternate form.
    pub alternate: bool,
    /// The minimum width in characters.
    pub width: Option<usize>,
    /// `,` or `_` between digit groups.
    pub grouping: Option<char>,
    /// Digits after the point (floats) or characters kept (str).
    pub precision: Option<usize>,
    /// The presentation type, the type's default when none was written.
    pub kind: Option<char>,
}

/// The per-type defaults CPython passes to its parser.
#[derive(Clone, Copy)]
pub(crate) struct Defaults {
    /// Python's name of the value's type, for error messages.
    pub type_name: &'static str,
    /// The presentation type when none is written (`s` for str, `d` for int, none for float).
    pub kind: Option<char>,
    /// `<` for str, `>` for numbers.
    pub align: Align,
}

/// Reads a decimal number at `pos` (any Unicode decimal digits, as CPython's `get_integer`):
/// `None` when there is none.
pub(crate) fn integer(spec: &[char], pos: &mut usize) -> Result<Option<usize>> {
    let mut acc: Option<usize> = None;
    while let Some(d) = spec.get(*pos).and_then(|&c| decimal_value(c)) {
        let d = d as usize;
        let n = acc.unwrap_or(0);
        // CPython's limit is PY_SSIZE_T_MAX.
        if n > (isize::MAX as usize - d) / 10 {
            return Err(value_error("Too many decimal digits in format string"));
        }
        acc = Some(n * 10 + d);
        *pos += 1;
    }
    Ok(acc)
}

impl FormatSpec {
    /// Parses `spec` for a value whose type has `defaults`.
    pub(crate) fn parse(spec: &str, defaults: Defaults) -> Result<FormatSpec> {
        with_chars(Text::Utf8(spec), |s| Self::parse_chars(spec, s, defaults))
    }

    fn parse_chars(spec: &str, s: &[char], defaults: Defaults) -> Result<FormatSpec> {
        let mut pos = 0;
        let mut fill = None;
        let mut align = None;
        if let Some(a) = s.get(1).and_then(|&c| Align::of(c)) {
            fill = Some(s[0]);
            align = Some(a);
            pos = 2;
        } else if let Some(a) = s.first().and_then(|&c| Align::of(c)) {
            align = Some(a);
            pos = 1;
        }
        let mut take = |want: &[char]| match s.get(pos) {
            Some(&c) if want.contains(&c) => {
                pos += 1;
                Some(c)
            }
            _ => None,
        };
        let sign = take(&['+', '-', ' ']);
        let no_neg_zero = take(&['z']).is_some();
        let alternate = take(&['#']).is_some();
        // A `0` before the width means zero padding after the sign, unless a fill was given.
        if fill.is_none() && take(&['0']).is_some() {
            fill = Some('0');
            if align.is_none() && defaults.align == Align::Right {
                align = Some(Align::AfterSign);
            }
        }
        let width = integer(s, &mut pos)?;
        let mut grouping = None;
        if s.get(pos) == Some(&',') {
            grouping = Some(',');
            pos += 1;
        }
        if s.get(pos) == Some(&'_') {
            if grouping.is_some() {
                return Err(both_separators());
            }
            grouping = Some('_');
            pos += 1;
        }
        if s.get(pos) == Some(&',') && grouping == Some('_') {
            return Err(both_separators());
        }
        let mut precision = None;
        if s.get(pos) == Some(&'.') {
            pos += 1;
            precision = integer(s, &mut pos)?;
            if precision.is_none() {
                return Err(value_error("Format specifier missing precision"));
            }
        }
        if s.len() - pos > 1 {
            return Err(value_error(format!(
                "Invalid format specifier '{spec}' for object of type '{}'",
                defaults.type_name
            )));
        }
        let kind = s.get(pos).copied().or(defaults.kind);
        if let Some(sep) = grouping {
            match kind {
                None | Some('d' | 'e' | 'f' | 'g' | 'E' | 'G' | '%' | 'F') => {}
                // PEP 515: `_` groups binary, octal and hex digits by four.
                Some('b' | 'o' | 'x' | 'X') if sep == '_' => {}
                Some(k) => return Err(value_error(format!("Cannot specify '{sep}' with {}.", quoted_code(k)))),
            }
        }
        Ok(FormatSpec {
            fill: fill.unwrap_or(' '),
            align: align.unwrap_or(defaults.align),
            sign,
            no_neg_zero,
            alternate,
            width,
            grouping,
            precision,
            kind,
        })
    }
}

fn both_separators() -> crate::Error {
    value_error("Cannot specify both ',' and '_'.")
}

/// A presentation type in an error message: `'x'`, or `'\x1'` for one that does not print.
pub(crate) fn quoted_code(c: char) -> String {
    if (c as u32) > 32 && (c as u32) < 128 { format!("'{c}'") } else { format!("'\\x{:x}'", c as u32) }
}

/// CPython's error for a presentation type the value's type does not have.
pub(crate) fn unknown_code(c: char, type_name: &str) -> crate::Error {
    value_error(format!("Unknown format code {} for object of type '{type_name}'", quoted_code(c)))
}

#[cfg(test)]
mod tests {
    use super::*;

    const INT: Defaults = Defaults { type_name: "int", kind: Some('d'), align: Align::Right };
    const STR: Defaults = Defaults { type_name: "str", kind: Some('s'), align: Align::Left };

    fn err(spec: &str, d: Defaults) -> String {
        FormatSpec::parse(spec, d).unwrap_err().message().to_string()
    }

    #[test]
    fn every_field_is_read_in_order() {
        let s = FormatSpec::parse("*^+z#012,.3f", INT).unwrap();
        assert_eq!((s.fill, s.align, s.sign, s.no_neg_zero, s.alternate), ('*', Align::Center, Some('+'), true, true));
        // A fill was given, so the `0` is the width's first digit.
        assert_eq!((s.width, s.grouping, s.precision, s.kind), (Some(12), Some(','), Some(3), Some('f')));
    }

    #[test]
    fn a_leading_zero_pads_after_the_sign_for_numbers_only() {
        let n = FormatSpec::parse("05", INT).unwrap();
        assert_eq!((n.fill, n.align, n.width), ('0', Align::AfterSign, Some(5)));
        let s = FormatSpec::parse("05", STR).unwrap();
        assert_eq!((s.fill, s.align), ('0', Align::Left));
    }

    #[test]
    fn errors_are_cpythons() {
        assert_eq!(err(",_", INT), "Cannot specify both ',' and '_'.");
        assert_eq!(err("_,", INT), "Cannot specify both ',' and '_'.");
        assert_eq!(err(".", INT), "Format specifier missing precision");
        assert_eq!(err("xx", INT), "Invalid format specifier 'xx' for object of type 'int'");
        assert_eq!(err(",", STR), "Cannot specify ',' with 's'.");
        assert_eq!(err(",x", INT), "Cannot specify ',' with 'x'.");
        assert_eq!(err("_c", INT), "Cannot specify '_' with 'c'.");
        assert_eq!(err("99999999999999999999", INT), "Too many decimal digits in format string");
    }
}
