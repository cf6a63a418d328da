//! Text normalizers: case mapping and folding, the four Unicode normal forms,
//! accent stripping, regex and literal replacement, and whitespace stripping.
//!
//! Every op has a plain Rust core returning `Cow<str>`: `Borrowed` means "the
//! input, unchanged", which lets the registered wrapper hand back the caller's
//! own string object instead of allocating a copy. Most records in a corpus are
//! already normalized, so that fast path is the common case.

use crate::error::{Error, Result};
use crate::func::{PackedFunc, Registry};
use crate::string::Str;
use fancy_regex::Regex;
use parking_lot::Mutex;
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, LazyLock};
use unicode_categories::UnicodeCategories;
use unicode_normalization::{IsNormalized, UnicodeNormalization};

/// Unicode lowercase, as Python's `str.lower()` (full mappings, final sigma in context).
pub fn lower(s: &str) -> Cow<'_, str> {
    if s.is_ascii() {
        return if s.bytes().any(|b| b.is_ascii_uppercase()) { Cow::Owned(s.to_ascii_lowercase()) } else { s.into() };
    }
    unchanged_or(s, s.to_lowercase())
}

/// Unicode uppercase, as Python's `str.upper()` (`"ß"` becomes `"SS"`).
pub fn upper(s: &str) -> Cow<'_, str> {
    if s.is_ascii() {
        return if s.bytes().any(|b| b.is_ascii_lowercase()) { Cow::Owned(s.to_ascii_uppercase()) } else { s.into() };
    }
    unchanged_or(s, s.to_uppercase())
}

/// Full Unicode case folding (CaseFolding.txt statuses C and F), as Python's `str.casefold()`.
pub fn casefold(s: &str) -> Cow<'_, str> {
    if s.is_ascii() {
        // On ASCII, folding is lowercasing.
        return lower(s);
    }
    unchanged_or(s, caseless::default_case_fold_str(s))
}

/// Canonical composition (NFC).
pub fn nfc(s: &str) -> Cow<'_, str> {
    normal_form(s, |t| unicode_normalization::is_nfc_quick(t.chars()), |t| t.nfc().collect())
}

/// Canonical decomposition (NFD).
pub fn nfd(s: &str) -> Cow<'_, str> {
    normal_form(s, |t| unicode_normalization::is_nfd_quick(t.chars()), |t| t.nfd().collect())
}

/// Compatibility composition (NFKC).
pub fn nfkc(s: &str) -> Cow<'_, str> {
    normal_form(s, |t| unicode_normalization::is_nfkc_quick(t.chars()), |t| t.nfkc().collect())
}

/// Compatibility decomposition (NFKD).
pub fn nfkd(s: &str) -> Cow<'_, str> {
    normal_form(s, |t| unicode_normalization::is_nfkd_quick(t.chars()), |t| t.nfkd().collect())
}

/// Applies a normal form, skipping the work when the quick check says the text already is in it.
fn normal_form<'a>(s: &'a str, quick: impl Fn(&str) -> IsNormalized, full: impl Fn(&str) -> String) -> Cow<'a, str> {
    // ASCII is invariant under all four forms, and `is_ascii` is much cheaper than the quick check.
    if s.is_ascii() || quick(s) == IsNormalized::Yes {
        return s.into();
    }
    unchanged_or(s, full(s))
}

/// NFD, then drops nonspacing marks (general category Mn): BERT's accent stripping.
///
/// This is what HF's `BertNormalizer(strip_accents=True)` does, down to the
/// category table (the `unicode_categories` crate, as HF uses). Characters are
/// left decomposed: a Hangul syllable comes out as its jamo, as in HF.
/// (HF's standalone `StripAccents` normalizer differs: it does no NFD itself
/// and drops every combining mark, Mn, Mc and Me.)
pub fn strip_accents(s: &str) -> Cow<'_, str> {
    if s.is_ascii() {
        return s.into();
    }
    unchanged_or(s, s.nfd().filter(|c| !c.is_mark_nonspacing()).collect())
}

/// Whitespace as Python's `str.isspace()`: Unicode White_Space plus U+001C..U+001F.
///
/// Python counts the four information separators (bidi class B or S) as
/// whitespace; Rust's `char::is_whitespace` does not. They are the only difference.
pub fn is_python_whitespace(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Removes leading and trailing whitespace, as Python's `str.strip()`.
pub fn strip(s: &str) -> &str {
    s.trim_matches(is_python_whitespace)
}

/// Removes leading whitespace, as Python's `str.lstrip()`.
pub fn lstrip(s: &str) -> &str {
    s.trim_start_matches(is_python_whitespace)
}

/// Removes trailing whitespace, as Python's `str.rstrip()`.
pub fn rstrip(s: &str) -> &str {
    s.trim_end_matches(is_python_whitespace)
}

/// Replaces every occurrence of `old` with `new`, as Python's `str.replace(old, new)`.
///
/// An empty `old` matches between every two characters and at both ends, as in Python.
pub fn replace_literal<'a>(s: &'a str, old: &str, new: &str) -> Cow<'a, str> {
    if !old.is_empty() && memchr::memmem::find(s.as_bytes(), old.as_bytes()).is_none() {
        return s.into();
    }
    unchanged_or(s, s.replace(old, new))
}

/// A compiled regex replacement: every match of the pattern becomes the expanded replacement.
///
/// Patterns use fancy-regex syntax (the regex crate's, plus look-around and
/// backreferences, so HF/GPT-2 style patterns such as `\s+(?!\S)` work). The
/// replacement expands `$1`, `${name}` and `$$` (a literal `$`), as the regex
/// crate does; Python's `\1` is not special.
#[derive(Clone, Debug)]
pub struct RegexReplacer {
    regex: Arc<Regex>,
    replacement: String,
}

impl RegexReplacer {
    /// Compiles `pattern` (from the shared cache); a bad pattern is a ValueError naming it.
    pub fn new(pattern: &str, replacement: &str) -> Result<Self> {
        Ok(RegexReplacer { regex: cached_regex(pattern)?, replacement: replacement.to_owned() })
    }

    /// Replaces every match in `s`; a match that exhausts the backtracking limit is a RuntimeError.
    pub fn replace<'a>(&self, s: &'a str) -> Result<Cow<'a, str>> {
        let out = self.regex.try_replacen(s, 0, self.replacement.as_str()).map_err(|e| run_error(&self.regex, e))?;
        Ok(match out {
            Cow::Owned(o) => unchanged_or(s, o),
            borrowed => borrowed,
        })
    }
}

/// Replaces every match of the regex `pattern` in `s` (see [`RegexReplacer`] for the syntax).
pub fn replace<'a>(s: &'a str, pattern: &str, replacement: &str) -> Result<Cow<'a, str>> {
    RegexReplacer::new(pattern, replacement)?.replace(s)
}

/// Patterns kept compiled; pipelines use a handful, so this only bounds a flood of distinct ones.
const REGEX_CACHE_CAPACITY: usize = 64;

/// Compiled patterns with the tick of their last use, for least-recently-used eviction.
#[derive(Default)]
struct RegexCache {
    entries: HashMap<String, (Arc<Regex>, u64)>,
    tick: u64,
}

/// The process-wide cache behind [`cached_regex`].
static REGEX_CACHE: LazyLock<Mutex<RegexCache>> = LazyLock::new(Mutex::default);

/// The compiled form of `pattern`, shared through a small LRU cache.
///
/// Rationale: the per-call ops (`text.replace`, `text.split`) run once per
/// record, and compiling a regex costs far more than matching a short line.
/// Compilation happens outside the lock so that one slow pattern does not stall other threads.
pub fn cached_regex(pattern: &str) -> Result<Arc<Regex>> {
    if let Some(re) = REGEX_CACHE.lock().get(pattern) {
        return Ok(re);
    }
    let re = Arc::new(compile_regex(pattern)?);
    REGEX_CACHE.lock().insert(pattern, re.clone());
    Ok(re)
}

impl RegexCache {
    /// The compiled `pattern`, if cached, marking it as just used.
    fn get(&mut self, pattern: &str) -> Option<Arc<Regex>> {
        self.tick += 1;
        let tick = self.tick;
        self.entries.get_mut(pattern).map(|(re, used)| {
            *used = tick;
            re.clone()
        })
    }

    /// Caches `re` under `pattern`, evicting the least recently used entry when full.
    fn insert(&mut self, pattern: &str, re: Arc<Regex>) {
        if self.entries.len() >= REGEX_CACHE_CAPACITY && !self.entries.contains_key(pattern) {
            // A linear scan for the oldest entry: rare, and over at most 64 entries.
            let oldest = self.entries.iter().min_by_key(|(_, (_, used))| *used).map(|(k, _)| k.clone());
            if let Some(k) = oldest {
                self.entries.remove(&k);
            }
        }
        self.tick += 1;
        self.entries.insert(pattern.to_owned(), (re, self.tick));
    }
}

/// Compiles `pattern`; the error is a ValueError naming the pattern and the regex error.
pub fn compile_regex(pattern: &str) -> Result<Regex> {
    Regex::new(pattern).map_err(|e| Error::value(format!("invalid regex {pattern:?}: {e}")))
}

/// The error for a regex that failed while matching (backtracking limit), naming the pattern.
pub(crate) fn run_error(re: &Regex, e: fancy_regex::Error) -> Error {
    Error::runtime(format!("regex {:?} failed while matching: {e}", re.as_str()))
}

/// `Borrowed(s)` when `out` equals `s`, so callers can keep the original string object.
fn unchanged_or(s: &str, out: String) -> Cow<'_, str> {
    if out == s { s.into() } else { out.into() }
}

/// Applies a core function to a registry argument, returning the argument itself when unchanged.
fn map_str(input: Str, f: impl for<'a> FnOnce(&'a str) -> Cow<'a, str>) -> Str {
    let out = match f(input.as_str()) {
        // A borrowed result is a slice of the input; the same length means the whole input.
        Cow::Borrowed(b) if b.len() == input.len() => None,
        Cow::Borrowed(b) => Some(Str::new(b)),
        Cow::Owned(o) => Some(Str::from(o)),
    };
    out.unwrap_or(input)
}

/// Like [`map_str`], for core functions that can fail.
fn try_map_str(input: Str, f: impl for<'a> FnOnce(&'a str) -> Result<Cow<'a, str>>) -> Result<Str> {
    let out = match f(input.as_str())? {
        Cow::Borrowed(b) if b.len() == input.len() => None,
        Cow::Borrowed(b) => Some(Str::new(b)),
        Cow::Owned(o) => Some(Str::from(o)),
    };
    Ok(out.unwrap_or(input))
}

/// A core `str -> str` function: `Borrowed` output means "unchanged".
type MapFn = for<'a> fn(&'a str) -> Cow<'a, str>;

/// A core function returning a slice of its input.
type SliceFn = fn(&str) -> &str;

/// Registers one `str -> str` op whose core cannot fail.
fn register_map(reg: &Registry, name: &str, doc: &str, f: MapFn) -> Result<()> {
    reg.register_typed(name, doc, move |s: Str| map_str(s, f), false)
}

/// Registers this family's ops (`text.lower`, `text.nfkc`, `text.replace`, `text.strip`, ...).
pub fn register(reg: &Registry) -> Result<()> {
    let maps: [(&str, &str, MapFn); 8] = [
        ("text.lower", "Unicode lowercase, as Python's str.lower().", lower),
        ("text.upper", "Unicode uppercase, as Python's str.upper().", upper),
        ("text.casefold", "Full Unicode case folding, as Python's str.casefold().", casefold),
        ("text.nfc", "Unicode canonical composition (NFC).", nfc),
        ("text.nfd", "Unicode canonical decomposition (NFD).", nfd),
        ("text.nfkc", "Unicode compatibility composition (NFKC).", nfkc),
        ("text.nfkd", "Unicode compatibility decomposition (NFKD).", nfkd),
        ("text.strip_accents", "NFD, then drops nonspacing marks (Mn), as BERT's accent stripping.", strip_accents),
    ];
    for (name, doc, f) in maps {
        register_map(reg, name, doc, f)?;
    }
    register_strip(reg)?;
    register_replace(reg)
}

/// Registers `text.strip`, `text.lstrip` and `text.rstrip`.
fn register_strip(reg: &Registry) -> Result<()> {
    let strips: [(&str, &str, SliceFn); 3] = [
        ("text.strip", "Removes leading and trailing whitespace, as Python's str.strip().", strip),
        ("text.lstrip", "Removes leading whitespace, as Python's str.lstrip().", lstrip),
        ("text.rstrip", "Removes trailing whitespace, as Python's str.rstrip().", rstrip),
    ];
    for (name, doc, f) in strips {
        reg.register_typed(name, doc, move |s: Str| map_str(s, |t| Cow::Borrowed(f(t))), false)?;
    }
    Ok(())
}

/// Registers `text.replace`, `text.replace.new` and `text.replace_literal`.
fn register_replace(reg: &Registry) -> Result<()> {
    reg.register_typed(
        "text.replace",
        "Replaces every match of a regex (fancy-regex syntax; $1 in the replacement).",
        |s: Str, pattern: String, replacement: String| try_map_str(s, |t| replace(t, &pattern, &replacement)),
        false,
    )?;
    reg.register_typed(
        "text.replace.new",
        "Compiles a regex replacement once; returns a func(text) -> text.",
        |pattern: String, replacement: String| -> Result<PackedFunc> {
            let replacer = RegexReplacer::new(&pattern, &replacement)?;
            let f = move |s: Str| try_map_str(s, |t| replacer.replace(t));
            Ok(PackedFunc::from_typed("text.replace", f))
        },
        false,
    )?;
    reg.register_typed(
        "text.replace_literal",
        "Replaces every occurrence of a substring, as Python's str.replace(old, new).",
        |s: Str, old: String, new: String| map_str(s, |t| replace_literal(t, &old, &new)),
        false,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regex_cache_evicts_the_least_recently_used() {
        let mut cache = RegexCache::default();
        let re = |p: &str| Arc::new(compile_regex(p).unwrap());
        for i in 0..REGEX_CACHE_CAPACITY {
            cache.insert(&format!("p{i}"), re("x"));
        }
        // Touch the oldest, then overflow by one: the second oldest goes.
        assert!(cache.get("p0").is_some());
        cache.insert("new", re("y"));
        assert_eq!(cache.entries.len(), REGEX_CACHE_CAPACITY);
        assert!(cache.get("p0").is_some());
        assert!(cache.get("p1").is_none());
        assert!(cache.get("new").is_some());
    }

    #[test]
    fn catastrophic_backtracking_is_an_error() {
        // The look-ahead forces fancy-regex's backtracking engine; its step limit turns the
        // exponential search into a RuntimeError instead of a hang or a panic.
        let text = "a".repeat(64);
        let e = replace(&text, r"^(a|aa)+(?=b)", "").unwrap_err();
        assert_eq!(e.kind(), crate::ErrorKind::Runtime);
        assert!(e.message().starts_with("regex \"^(a|aa)+(?=b)\" failed while matching: "), "{e}");
    }

    #[test]
    fn unchanged_results_borrow_the_input() {
        for f in [lower, upper, casefold, nfc, nfd, nfkc, nfkd, strip_accents] {
            assert!(matches!(f(""), Cow::Borrowed("")));
        }
        assert!(matches!(lower("déjà vu"), Cow::Borrowed(_)));
        assert!(matches!(nfc("e\u{301}"), Cow::Owned(_)));
        assert!(matches!(replace_literal("abc", "x", "y"), Cow::Borrowed(_)));
    }
}
