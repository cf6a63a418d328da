//! `re.error`: what a pattern or a replacement template that `re` refuses raises. Its text
//! is CPython's (`missing ), unterminated subpattern at position 0`), and a script that
//! catches it reads CPython's `msg`, `pattern`, `pos`, `lineno` and `colno`.

use super::syntax::{PatternError, Raised};
use crate::AnyValue;
use crate::error::{Error, ErrorKind};
use crate::pipeline::exception_value::Exception;

/// The error `re` raises for `e` in `pattern` (a pattern, or a replacement template): a
/// `re.error`, a `ValueError` for flags that cannot go together, an `OverflowError` for a
/// repetition count too large.
pub(super) fn pattern_error(e: PatternError, pattern: &str) -> Error {
    let pos = match e.raised {
        Raised::At(pos) => pos,
        Raised::FlagsValue => return Error::value(e.message),
        Raised::Overflow => return Error::new(ErrorKind::Overflow, e.message),
    };
    let text = e.text(pattern);
    let (line, column) = PatternError::line_col(pos, pattern);
    let number = |n: usize| AnyValue::from_int(n as i64);
    let attributes = vec![
        ("msg", AnyValue::from_text(&e.message)),
        ("pattern", AnyValue::from_text(pattern)),
        ("pos", number(pos)),
        ("lineno", number(line)),
        ("colno", number(column)),
    ];
    Exception::with_attributes(ErrorKind::Regex, text, attributes).into_error()
}

/// [`pattern_error`] for `message` at `pos` of the replacement template `template`.
pub(super) fn template_error(template: &str, message: impl Into<String>, pos: usize) -> Error {
    pattern_error(PatternError { message: message.into(), raised: Raised::At(pos) }, template)
}
