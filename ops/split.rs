//! Text splitters: whitespace, UAX #29 words, graphemes and sentences, single
//! characters, HF-style regex splitting with delimiter behaviours, and digits.
//!
//! Each op has a plain Rust core that borrows slices of its input; the
//! registered wrappers collect those into a `List` of strings, where pieces of
//! up to 8 bytes are stored inline (no heap object per piece).

use super::normalize::{cached_regex, run_error};
use crate::any::AnyValue;
use crate::container::List;
use crate::error::{Error, Result};
use crate::func::{PackedFunc, Registry};
use crate::string::Str;
use fancy_regex::Regex;
use std::ops::Range;
use std::str::FromStr;
use std::sync::Arc;
use unicode_segmentation::UnicodeSegmentation;

/// Splits on runs of whitespace (`char::is_whitespace`), dropping empty pieces.
///
/// The same pieces as Rust's `str::split_whitespace` and HF's `WhitespaceSplit`;
/// Python's `str.split()` differs only in also splitting on U+001C..U+001F.
pub fn split_whitespace(s: &str) -> WhitespaceSplit<'_> {
    WhitespaceSplit { rest: s, ascii: s.is_ascii() }
}

/// Iterator returned by [`split_whitespace`].
#[derive(Clone, Debug)]
pub struct WhitespaceSplit<'a> {
    rest: &'a str,
    // Rationale: on ASCII text a byte test replaces UTF-8 decoding.
    ascii: bool,
}

/// The ASCII characters that `char::is_whitespace` accepts (note: `u8::is_ascii_whitespace` lacks \x0B).
fn is_ascii_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t'..=b'\r')
}

impl<'a> Iterator for WhitespaceSplit<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let (start, end) = if self.ascii {
            let b = self.rest.as_bytes();
            let start = b.iter().position(|&c| !is_ascii_space(c))?;
            (start, b[start..].iter().position(|&c| is_ascii_space(c)).map_or(b.len(), |n| start + n))
        } else {
            let start = self.rest.find(|c: char| !c.is_whitespace())?;
            (start, self.rest[start..].find(char::is_whitespace).map_or(self.rest.len(), |n| start + n))
        };
        let piece = &self.rest[start..end];
        self.rest = &self.rest[end..];
        Some(piece)
    }
}

/// Every UAX #29 word-boundary segment, spaces and punctuation included; they concatenate to `s`.
pub fn word_bounds(s: &str) -> impl Iterator<Item = &str> {
    s.split_word_bounds()
}

/// The UAX #29 words of `s`: word-boundary segments that contain a letter or a digit.
pub fn split_words(s: &str) -> impl Iterator<Item = &str> {
    s.unicode_words()
}

/// The extended grapheme clusters of `s` (UAX #29), the user-perceived characters.
pub fn split_graphemes(s: &str) -> impl Iterator<Item = &str> {
    s.graphemes(true)
}

/// The UAX #29 sentences of `s`, trailing spaces attached; they concatenate to `s`.
pub fn split_sentences(s: &str) -> Sentences<'_> {
    Sentences(s.split_sentence_bounds())
}

/// Iterator returned by [`split_sentences`].
///
/// Rationale: it hides the size hint of unicode-segmentation 1.13's sentence
/// iterator, which underflows on empty text (a panic in debug builds and, in
/// release, a lower bound of `usize::MAX` that makes `collect` abort on allocation).
#[derive(Clone, Debug)]
pub struct Sentences<'a>(unicode_segmentation::USentenceBounds<'a>);

impl<'a> Iterator for Sentences<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        self.0.next()
    }
}

/// Each character of `s` as its own one-character slice.
pub fn chars(s: &str) -> impl Iterator<Item = &str> {
    s.char_indices().map(|(i, c)| &s[i..i + c.len_utf8()])
}

/// How a split treats the delimiters it finds, as HF tokenizers' `SplitDelimiterBehavior`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SplitBehavior {
    /// Delimiters are dropped: `a-b` gives `a`, `b`.
    Removed,
    /// Each delimiter is its own piece: `a-b` gives `a`, `-`, `b`.
    Isolated,
    /// A delimiter joins the piece before it: `a-b` gives `a-`, `b`.
    MergedWithPrevious,
    /// A delimiter joins the piece after it: `a-b` gives `a`, `-b`.
    MergedWithNext,
    /// Adjacent delimiters form one piece: `a--b` gives `a`, `--`, `b`.
    Contiguous,
}

impl SplitBehavior {
    /// The accepted spellings, as HF's Python API writes them.
    pub const NAMES: [&'static str; 5] =
        ["removed", "isolated", "merged_with_previous", "merged_with_next", "contiguous"];
}

impl FromStr for SplitBehavior {
    type Err = Error;

    /// Parses HF's Python spelling (`merged_with_next`) or its tokenizer.json one (`MergedWithNext`).
    fn from_str(s: &str) -> Result<Self> {
        Ok(match s {
            "removed" | "Removed" => SplitBehavior::Removed,
            "isolated" | "Isolated" => SplitBehavior::Isolated,
            "merged_with_previous" | "MergedWithPrevious" => SplitBehavior::MergedWithPrevious,
            "merged_with_next" | "MergedWithNext" => SplitBehavior::MergedWithNext,
            "contiguous" | "Contiguous" => SplitBehavior::Contiguous,
            _ => {
                let valid = SplitBehavior::NAMES.join(", ");
                return Err(Error::value(format!("unknown split behavior {s:?}; expected one of: {valid}")));
            }
        })
    }
}

/// A stretch of the text and whether the pattern matched it.
type Segment = (Range<usize>, bool);

/// Cuts `s` into alternating unmatched and matched segments (empty matches kept, as HF does).
fn regex_segments(re: &Regex, s: &str) -> Result<Vec<Segment>> {
    let mut out = Vec::new();
    let mut prev = 0;
    for m in re.find_iter(s) {
        let m = m.map_err(|e| run_error(re, e))?;
        if prev < m.start() {
            out.push((prev..m.start(), false));
        }
        out.push((m.start()..m.end(), true));
        prev = m.end();
    }
    if prev < s.len() {
        out.push((prev..s.len(), false));
    }
    Ok(out)
}

/// Cuts `s` into segments where each character matching `pred` is a matched segment of its own.
fn char_segments(s: &str, pred: impl Fn(char) -> bool) -> Vec<Segment> {
    let mut out = Vec::new();
    let mut prev = 0;
    for (i, c) in s.char_indices().filter(|&(_, c)| pred(c)) {
        if prev < i {
            out.push((prev..i, false));
        }
        prev = i + c.len_utf8();
        out.push((i..prev, true));
    }
    if prev < s.len() {
        out.push((prev..s.len(), false));
    }
    out
}

/// Turns segments into the byte ranges of the output pieces, following HF's rules for `behavior`.
///
/// As in HF's `NormalizedString::split`, a merge looks at the flag of the
/// segment just before (or after) it, so in `a--b` with `MergedWithPrevious`
/// only the first `-` joins `a`. Empty pieces are dropped, as HF's pre-tokenizers drop them.
fn apply_behavior(segments: Vec<Segment>, behavior: SplitBehavior) -> Vec<Range<usize>> {
    use SplitBehavior::*;
    let mut out: Vec<Range<usize>> = Vec::with_capacity(segments.len());
    let mut prev_matched = false;
    match behavior {
        Removed => out.extend(segments.into_iter().filter(|(_, m)| !m).map(|(r, _)| r)),
        Isolated => out.extend(segments.into_iter().map(|(r, _)| r)),
        Contiguous => {
            for (r, m) in segments {
                match out.last_mut() {
                    Some(last) if m == prev_matched => last.end = r.end,
                    _ => out.push(r),
                }
                prev_matched = m;
            }
        }
        MergedWithPrevious => {
            for (r, m) in segments {
                match out.last_mut() {
                    Some(last) if m && !prev_matched => last.end = r.end,
                    _ => out.push(r),
                }
                prev_matched = m;
            }
        }
        MergedWithNext => {
            // The mirror image of MergedWithPrevious: walk backwards, then restore the order.
            for (r, m) in segments.into_iter().rev() {
                match out.last_mut() {
                    Some(last) if m && !prev_matched => last.start = r.start,
                    _ => out.push(r),
                }
                prev_matched = m;
            }
            out.reverse();
        }
    }
    out.retain(|r| !r.is_empty());
    out
}

/// A compiled HF-style regex split: pattern, delimiter behaviour and `invert`.
#[derive(Clone, Debug)]
pub struct RegexSplitter {
    regex: Arc<Regex>,
    behavior: SplitBehavior,
    invert: bool,
}

impl RegexSplitter {
    /// Compiles `pattern` (fancy-regex syntax, from the shared cache); a bad one is a ValueError naming it.
    ///
    /// With `invert`, the pattern matches the pieces to keep rather than the
    /// delimiters (HF's `invert=True`: `\w+|[^\w\s]+` with `removed` is HF's `Whitespace`).
    pub fn new(pattern: &str, behavior: SplitBehavior, invert: bool) -> Result<Self> {
        Ok(RegexSplitter { regex: cached_regex(pattern)?, behavior, invert })
    }

    /// The pieces of `s`, as HF's `Split` pre-tokenizer gives them (no empty pieces).
    pub fn split<'a>(&self, s: &'a str) -> Result<Vec<&'a str>> {
        let mut segments = regex_segments(&self.regex, s)?;
        if self.invert {
            segments.iter_mut().for_each(|(_, m)| *m = !*m);
        }
        Ok(apply_behavior(segments, self.behavior).into_iter().map(|r| &s[r]).collect())
    }
}

/// Splits `s` on the regex `pattern` with an HF delimiter behaviour (see [`RegexSplitter`]).
pub fn split<'a>(s: &'a str, pattern: &str, behavior: SplitBehavior, invert: bool) -> Result<Vec<&'a str>> {
    RegexSplitter::new(pattern, behavior, invert)?.split(s)
}

/// Separates numbers from other text, as HF's `Digits` pre-tokenizer.
///
/// A digit is any `char::is_numeric` character (categories Nd, Nl, No), as in
/// HF. With `individual`, each digit is its own piece; otherwise runs of digits stay together.
pub fn split_digits(s: &str, individual: bool) -> Vec<&str> {
    let behavior = if individual { SplitBehavior::Isolated } else { SplitBehavior::Contiguous };
    apply_behavior(char_segments(s, char::is_numeric), behavior).into_iter().map(|r| &s[r]).collect()
}

/// Collects string slices of `text` into a list (pieces of up to 8 bytes stay inline).
///
/// The preallocation trusts the iterator's size hint only up to the text's length
/// (no split yields more non-empty pieces than bytes), so a bogus hint cannot allocate wildly.
fn to_list<'a>(text: &str, pieces: impl IntoIterator<Item = &'a str>) -> List {
    let pieces = pieces.into_iter();
    let mut list = List::with_capacity(pieces.size_hint().0.min(text.len()));
    for p in pieces {
        list.push(p);
    }
    list
}

/// Each code point as an inline one-code-point UCS4 string.
fn chars_ucs4_list(s: &str) -> List {
    let mut list = List::with_capacity(s.chars().count());
    for c in s.chars() {
        list.push(AnyValue::from_char_ucs4(c));
    }
    list
}

/// Registers this family's ops (`text.split_whitespace`, `text.split`, `text.chars`, ...).
pub fn register(reg: &Registry) -> Result<()> {
    reg.register_typed(
        "text.split_whitespace",
        "Splits on runs of Unicode whitespace, dropping empty pieces (HF WhitespaceSplit).",
        |s: Str| to_list(&s, split_whitespace(&s)),
        false,
    )?;
    reg.register_typed(
        "text.word_bounds",
        "Every UAX #29 word-boundary segment, spaces and punctuation included.",
        |s: Str| to_list(&s, word_bounds(&s)),
        false,
    )?;
    reg.register_typed(
        "text.split_words",
        "The UAX #29 words: word-boundary segments holding a letter or digit.",
        |s: Str| to_list(&s, split_words(&s)),
        false,
    )?;
    reg.register_typed(
        "text.split_graphemes",
        "The extended grapheme clusters (user-perceived characters, UAX #29).",
        |s: Str| to_list(&s, split_graphemes(&s)),
        false,
    )?;
    reg.register_typed(
        "text.split_sentences",
        "The UAX #29 sentences, trailing spaces attached; they concatenate to the input.",
        |s: Str| to_list(&s, split_sentences(&s)),
        false,
    )?;
    reg.register_typed(
        "text.chars",
        "Each character as a one-character string.",
        |s: Str| List::from_chars(&s),
        false,
    )?;
    reg.register_typed(
        "text.chars_ucs4",
        "Each code point as a one-code-point UCS4 string.",
        |s: Str| chars_ucs4_list(&s),
        false,
    )?;
    reg.register_typed(
        "text.split_digits",
        "Separates numbers from other text as HF's Digits (individual: one piece per digit).",
        |s: Str, individual: bool| to_list(&s, split_digits(&s, individual)),
        false,
    )?;
    register_regex_split(reg)
}

/// Registers `text.split` and `text.split.new`.
fn register_regex_split(reg: &Registry) -> Result<()> {
    reg.register_typed(
        "text.split",
        "Splits on a regex as HF's Split pre-tokenizer (behavior: removed, isolated, ...; invert).",
        |s: Str, pattern: String, behavior: String, invert: bool| -> Result<List> {
            Ok(to_list(&s, split(&s, &pattern, behavior.parse()?, invert)?))
        },
        false,
    )?;
    reg.register_typed(
        "text.split.new",
        "Compiles an HF-style regex split once; returns a func(text) -> list.",
        |pattern: String, behavior: String, invert: bool| -> Result<PackedFunc> {
            let splitter = RegexSplitter::new(&pattern, behavior.parse()?, invert)?;
            let f = move |s: Str| -> Result<List> { Ok(to_list(&s, splitter.split(&s)?)) };
            Ok(PackedFunc::from_typed("text.split", f))
        },
        false,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces<'a>(s: &'a str, pattern: &str, behavior: SplitBehavior) -> Vec<&'a str> {
        split(s, pattern, behavior, false).unwrap()
    }

    #[test]
    fn empty_matches_cut_between_characters_and_vanish() {
        // An empty pattern matches at every boundary: the pieces are the characters, for every behaviour.
        for b in [SplitBehavior::Removed, SplitBehavior::Isolated, SplitBehavior::Contiguous] {
            assert_eq!(pieces("abc", "", b), ["a", "b", "c"], "{b:?}");
        }
        assert_eq!(pieces("", "-", SplitBehavior::Isolated), Vec::<&str>::new());
    }

    #[test]
    fn merges_at_the_edges() {
        // A leading delimiter has no previous piece to join, a trailing one no next piece.
        assert_eq!(pieces("-a-", "-", SplitBehavior::MergedWithPrevious), ["-", "a-"]);
        assert_eq!(pieces("-a-", "-", SplitBehavior::MergedWithNext), ["-a", "-"]);
        assert_eq!(pieces("--", "-", SplitBehavior::Contiguous), ["--"]);
        assert_eq!(pieces("--", "-", SplitBehavior::Removed), Vec::<&str>::new());
    }

    #[test]
    fn ascii_and_unicode_whitespace_paths_agree() {
        let s = " a\x0bb\x0c\r\nc\t";
        assert_eq!(split_whitespace(s).collect::<Vec<_>>(), s.split_whitespace().collect::<Vec<_>>());
        let u = "\u{85}a\u{2028}b\u{a0}é ";
        assert_eq!(split_whitespace(u).collect::<Vec<_>>(), ["a", "b", "é"]);
    }
}
