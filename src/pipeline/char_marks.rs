//! Where the code points of a long non-ASCII UTF-8 text start, noted every [`MARK_EVERY`]th, so
//! that `text[i]`, `text[i:j]` and `text.find(sub, i)` reach code point `i` by walking at most
//! that many characters instead of all before it.
//!
//! Rationale: a text a script makes (`.lower()`, `" ".join(...)`) is UTF-8, and a loop that reads
//! such a text by index walked it from its start at each step: quadratic in its length. The last
//! heap string a thread indexed keeps its marks (the string itself held, so that its address
//! cannot be another string's while they are kept).

use crate::{AnyValue, AnyView};
use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// Every this many code points, the byte offset is noted.
pub(crate) const MARK_EVERY: usize = 64;

/// Texts shorter than this many bytes are walked: noting their marks would cost more.
const MARKED_FROM: usize = 512;

/// The byte offset of every [`MARK_EVERY`]th code point of a text, its count of code points,
/// and the last code point looked up.
#[derive(Clone, Debug)]
pub(crate) struct CharMarks(Arc<Marks>);

#[derive(Debug)]
struct Marks {
    offsets: Box<[usize]>,
    chars: usize,
    /// The last code point looked up and its byte offset, packed as `byte << 32 | char` (zero,
    /// code point 0 at byte 0, for a text of 4 GiB or more). A loop reads a text in order, so
    /// the next lookup is usually a few characters on: walked from here, not from the mark.
    /// Any pair stored is true of the text, so threads that race on it lose only the shortcut.
    near: AtomicU64,
}

thread_local! {
    /// The heap string this thread indexed last, and its marks.
    static LAST: RefCell<Option<(AnyValue, CharMarks)>> = const { RefCell::new(None) };
}

impl CharMarks {
    /// The marks of `text`.
    pub fn of(text: &str) -> CharMarks {
        let offsets: Vec<usize> = text.char_indices().step_by(MARK_EVERY).map(|(b, _)| b).collect();
        let chars = offsets.last().map_or(0, |&b| (offsets.len() - 1) * MARK_EVERY + text[b..].chars().count());
        CharMarks(Arc::new(Marks { offsets: offsets.into(), chars, near: AtomicU64::new(0) }))
    }

    /// The number of code points of the text these marks were made of.
    pub fn chars(&self) -> usize {
        self.0.chars
    }

    /// The last code point looked up and its byte offset.
    fn near(&self) -> (usize, usize) {
        let packed = self.0.near.load(Ordering::Relaxed);
        ((packed & 0xffff_ffff) as usize, (packed >> 32) as usize)
    }

    /// Notes code point `i` at byte `b` as the last looked up.
    fn note(&self, text: &str, i: usize, b: usize) {
        if text.len() <= u32::MAX as usize {
            self.0.near.store(((b as u64) << 32) | i as u64, Ordering::Relaxed);
        }
    }

    /// The byte offset of code point `i` of `text` (its length for `i` at or past the end).
    pub fn byte_of(&self, text: &str, i: usize) -> usize {
        if i >= self.0.chars {
            return text.len();
        }
        let (near_char, near_byte) = self.near();
        // From the last lookup when it lies between the mark and `i`, else from the mark.
        let (from_char, from) = match i.checked_sub(near_char) {
            Some(ahead) if ahead < i % MARK_EVERY => (near_char, near_byte),
            _ => (i - i % MARK_EVERY, self.0.offsets[i / MARK_EVERY]),
        };
        let b = from + nth_char_start(&text.as_bytes()[from..], i - from_char);
        self.note(text, i, b);
        b
    }

    /// The code point that starts at byte offset `b` of `text` (a character boundary).
    pub fn char_of(&self, text: &str, b: usize) -> usize {
        let (near_char, near_byte) = self.near();
        let i = match b.checked_sub(near_byte) {
            Some(ahead) if ahead <= 4 * MARK_EVERY => near_char + text[near_byte..b].chars().count(),
            _ => {
                let k = self.0.offsets.partition_point(|&m| m <= b).saturating_sub(1);
                let from = self.0.offsets.get(k).copied().unwrap_or(0);
                k * MARK_EVERY + text[from..b].chars().count()
            }
        };
        self.note(text, i, b);
        i
    }
}

/// The byte offset in `bytes` (UTF-8 that starts at a character) of its `n`th character, or
/// its length when it has no more. Counting lead bytes needs no decoding.
fn nth_char_start(bytes: &[u8], mut n: usize) -> usize {
    for (at, &byte) in bytes.iter().enumerate() {
        // Continuation bytes are 0b10xx_xxxx: -64..0 as i8 are lead bytes, below are not.
        if (byte as i8) >= -0x40 {
            if n == 0 {
                return at;
            }
            n -= 1;
        }
    }
    bytes.len()
}

/// The byte offset of code point `k` of `s`, the text of `obj`: through the marks of `obj` when
/// it is a long heap string (made once, kept for the next call on the same string), else by
/// walking `s`.
pub(crate) fn byte_offset(obj: &AnyView<'_>, s: &str, k: usize) -> usize {
    match marks_of(obj, s) {
        Some(marks) => marks.byte_of(s, k),
        None => super::value_ops::byte_of(s, k),
    }
}

/// The marks of `obj`, whose text is `s`, where it is a heap string long enough to keep them.
pub(crate) fn marks_of(obj: &AnyView<'_>, s: &str) -> Option<CharMarks> {
    if s.len() < MARKED_FROM {
        return None;
    }
    let key = obj.as_obj()?.as_raw();
    let held = LAST.with_borrow(|last| {
        last.as_ref().filter(|(held, _)| held.as_obj().is_some_and(|o| o.as_raw() == key)).map(|(_, m)| m.clone())
    });
    if held.is_some() {
        return held;
    }
    let made = CharMarks::of(s);
    LAST.with_borrow_mut(|last| *last = Some((obj.to_owned(), made.clone())));
    Some(made)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_points_and_bytes_map_both_ways() {
        for text in ["", "abc", "é", &"aé😀b".repeat(100), &"x".repeat(64)] {
            let marks = CharMarks::of(text);
            let starts: Vec<usize> = text.char_indices().map(|(b, _)| b).chain([text.len()]).collect();
            assert_eq!(marks.chars(), starts.len() - 1, "{text:?}");
            for (i, &b) in starts.iter().enumerate() {
                assert_eq!((marks.byte_of(text, i), marks.char_of(text, b)), (b, i), "{text:?} at {i}");
            }
            assert_eq!(marks.byte_of(text, starts.len() + 5), text.len());
        }
    }

    #[test]
    fn lookups_in_any_order_agree_with_char_indices() {
        // Forward, backward and jumping lookups, each starting from wherever the last left off.
        let text = "aé😀b ünï ".repeat(300);
        let starts: Vec<usize> = text.char_indices().map(|(b, _)| b).chain([text.len()]).collect();
        let marks = CharMarks::of(&text);
        let mut i = 0usize;
        for step in 0..20_000usize {
            i = (i * 7 + step * 13 + 5) % starts.len();
            let near = [i, i.saturating_sub(1), (i + 3).min(starts.len() - 1)];
            for k in near {
                assert_eq!(marks.byte_of(&text, k), starts[k], "byte_of({k})");
                assert_eq!(marks.char_of(&text, starts[k]), k, "char_of({})", starts[k]);
            }
        }
    }

    #[test]
    fn a_long_heap_string_keeps_its_marks() {
        let text = "ünïcödé ".repeat(200);
        let value = AnyValue::from(text.as_str());
        let view = value.view();
        let s = view.as_str().unwrap();
        let first = marks_of(&view, s).expect("a long heap string is marked");
        let again = marks_of(&view, s).unwrap();
        assert!(Arc::ptr_eq(&first.0, &again.0), "the second call reuses the marks");
        for k in [0, 1, 63, 64, 65, 1000, 1599, 1600] {
            assert_eq!(byte_offset(&view, s, k), s.char_indices().nth(k).map_or(s.len(), |(b, _)| b), "{k}");
        }
        let short = AnyValue::from("é".repeat(10).as_str());
        assert!(marks_of(&short.view(), short.view().as_str().unwrap()).is_none());
    }
}
