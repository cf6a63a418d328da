//! String formatting as CPython 3.11 does it: `format(value, spec)` with the format-spec
//! mini-language, `str.format(*args)`, printf-style `str % args` and `ascii()`.
//!
//! f-strings lower to these: `f"{x:>8.3f}"` is `format(x, ">8.3f")`.

mod fields;
mod float;
mod layout;
mod percent;
mod spec;
mod value;

pub(crate) use fields::{FormatArgs, str_format, str_format_with};
pub(crate) use layout::{reserve, text_with_room};
pub(crate) use percent::percent_format;
pub(crate) use value::{ascii_of, format_value};

use crate::pipeline::value_ops::Text;

/// Calls `f` with the characters of `text`: on the stack when they are few (format strings
/// and specs usually are), so that formatting a value allocates no copy of its template.
pub(crate) fn with_chars<R>(text: Text<'_>, f: impl FnOnce(&[char]) -> R) -> R {
    const SMALL: usize = 64;
    match text {
        Text::Ucs4(chars) => f(chars),
        Text::Utf8(s) if s.len() <= SMALL => {
            let mut small = ['\0'; SMALL];
            let n = s.chars().zip(small.iter_mut()).map(|(c, slot)| *slot = c).count();
            f(&small[..n])
        }
        Text::Utf8(s) => f(&s.chars().collect::<Vec<char>>()),
    }
}
