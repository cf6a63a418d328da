//! The text a search runs on: UTF-8 shared with the match objects it makes, whether it is
//! ASCII, and the window `pos`/`endpos` give a pattern's methods.
//!
//! Rationale: a lexer calls `pattern.match(text, pos)` once per token of a long text. Copying
//! the text into each match, and counting code points from its start for each `pos` and each
//! `m.end()`, made that loop quadratic; so the last heap string a thread searched keeps its
//! shared UTF-8 (the string itself held, so that its address cannot be another string's), and
//! an ASCII text maps code points to bytes directly.

use crate::error::{Error, ErrorKind, Result};
use crate::pipeline::value_ops::{Text, index_arg, vname};
use crate::{AnyValue, AnyView};
use std::cell::RefCell;
use std::sync::Arc;

/// A text to search, shared.
#[derive(Clone)]
pub(super) struct SearchText {
    /// The text as UTF-8.
    pub text: Arc<str>,
    /// Whether every character is one byte, so that code points and bytes count alike.
    pub ascii: bool,
}

thread_local! {
    /// The heap string this thread searched last, and its [`SearchText`].
    static LAST: RefCell<Option<(AnyValue, SearchText)>> = const { RefCell::new(None) };
}

impl SearchText {
    /// The text of the search argument `v` (CPython's message for anything else).
    pub fn of(v: &AnyView<'_>) -> Result<SearchText> {
        let Some(t) = Text::of(v.value()) else {
            let got = vname(v.value());
            return Err(Error::new(ErrorKind::Type, format!("expected string or bytes-like object, got '{got}'")));
        };
        let Some(obj) = v.as_obj() else { return Ok(SearchText::convert(t)) };
        let key = obj.as_raw();
        let cached = LAST.with_borrow(|last| {
            last.as_ref().filter(|(held, _)| held.as_obj().is_some_and(|o| o.as_raw() == key)).map(|(_, s)| s.clone())
        });
        if let Some(found) = cached {
            return Ok(found);
        }
        let made = match v.char_count() {
            // A heap UTF-8 string knows its count of characters once counted.
            Some(n) => SearchText { text: Arc::from(t.as_str().as_ref()), ascii: n == v.as_str().map_or(0, str::len) },
            None => SearchText::convert(t),
        };
        LAST.with_borrow_mut(|last| *last = Some((v.to_owned(), made.clone())));
        Ok(made)
    }

    fn convert(t: Text<'_>) -> SearchText {
        let text: Arc<str> = Arc::from(t.as_str().as_ref());
        let ascii = text.is_ascii();
        SearchText { text, ascii }
    }

    /// The number of code points.
    pub fn chars(&self) -> usize {
        if self.ascii { self.text.len() } else { self.text.chars().count() }
    }

    /// The byte offset of code point `i` (the end for `i` past it).
    pub fn byte_of(&self, i: usize) -> usize {
        if self.ascii {
            i.min(self.text.len())
        } else {
            self.text.char_indices().nth(i).map_or(self.text.len(), |(b, _)| b)
        }
    }
}

/// The window `pos`/`endpos` arguments give a search, in code points, clamped to the text as
/// CPython clamps them; `None` where `pos` is past `endpos`, where nothing can match.
pub(super) fn window(
    text: &SearchText,
    pos: Option<&AnyView<'_>>,
    endpos: Option<&AnyView<'_>>,
) -> Result<Option<(usize, usize)>> {
    let n = text.chars();
    let clamp = |v: Option<&AnyView<'_>>, default: usize| -> Result<usize> {
        match v {
            None => Ok(default),
            Some(v) => Ok(index_arg(v)?.clamp(0, n as i64) as usize),
        }
    };
    let (pos, endpos) = (clamp(pos, 0)?, clamp(endpos, n)?);
    Ok((pos <= endpos).then_some((pos, endpos)))
}
