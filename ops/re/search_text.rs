//! The text a search runs on: UTF-8 shared with the match objects it makes, how its code
//! points map to bytes, and the window `pos`/`endpos` give a pattern's methods.
//!
//! Rationale: a lexer calls `pattern.match(text, pos)` once per token of a long text. Copying
//! the text into each match, and counting code points from its start for each `pos` and each
//! `m.end()`, made that loop quadratic; so the last heap string a thread searched keeps its
//! shared UTF-8 (the string itself held, so that its address cannot be another string's), an
//! ASCII text maps code points to bytes directly, and another keeps its [`CharMarks`].

use crate::error::Result;
use crate::pipeline::char_marks::CharMarks;
use crate::pipeline::value_ops::index_arg;
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
    /// For a non-ASCII text, where its code points start (none for an ASCII one).
    marks: CharMarks,
}

thread_local! {
    /// The heap string this thread searched last, and its [`SearchText`].
    static LAST: RefCell<Option<(AnyValue, SearchText)>> = const { RefCell::new(None) };
}

impl SearchText {
    /// The text of the search argument `v` (CPython's message for anything else).
    pub fn of(v: &AnyView<'_>) -> Result<SearchText> {
        let t = super::text_of(v)?;
        let Some(obj) = v.as_obj() else { return Ok(SearchText::shared(Arc::from(t.as_str().as_ref()))) };
        let key = obj.as_raw();
        let cached = LAST.with_borrow(|last| {
            last.as_ref().filter(|(held, _)| held.as_obj().is_some_and(|o| o.as_raw() == key)).map(|(_, s)| s.clone())
        });
        if let Some(found) = cached {
            return Ok(found);
        }
        let made = SearchText::shared(Arc::from(t.as_str().as_ref()));
        LAST.with_borrow_mut(|last| *last = Some((v.to_owned(), made.clone())));
        Ok(made)
    }

    /// `text`, with what maps its code points to bytes.
    pub fn shared(text: Arc<str>) -> SearchText {
        let ascii = text.is_ascii();
        let marks = CharMarks::of(if ascii { "" } else { &text });
        SearchText { text, ascii, marks }
    }

    /// The number of code points.
    pub fn chars(&self) -> usize {
        if self.ascii { self.text.len() } else { self.marks.chars() }
    }

    /// The byte offset of code point `i` (the end for `i` past it).
    pub fn byte_of(&self, i: usize) -> usize {
        if self.ascii { i.min(self.text.len()) } else { self.marks.byte_of(&self.text, i) }
    }

    /// The code point at byte offset `b` (a character boundary).
    pub fn char_of(&self, b: usize) -> usize {
        if self.ascii { b } else { self.marks.char_of(&self.text, b) }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_points_and_bytes_map_both_ways() {
        for text in ["", "abc", "é", &"aé😀b".repeat(100), &"x".repeat(64)] {
            let t = SearchText::shared(Arc::from(text));
            let starts: Vec<usize> = text.char_indices().map(|(b, _)| b).chain([text.len()]).collect();
            assert_eq!(t.chars(), starts.len() - 1, "{text:?}");
            for (i, &b) in starts.iter().enumerate() {
                assert_eq!((t.byte_of(i), t.char_of(b)), (b, i), "{text:?} at {i}");
            }
            assert_eq!(t.byte_of(starts.len() + 5), text.len());
        }
    }
}
