//! `re.Pattern`: a compiled pattern as a value, made by `re.compile` and kept in a cache for
//! the pattern strings the module functions receive, as CPython's `re` caches them.

use super::anchored::AnchoredPrograms;
use super::error::pattern_error;
use super::matches::Spans;
use super::syntax::{self, Translated};
use crate::error::{Error, ErrorKind, Result};
use crate::object::{ObjPtr, ObjRef, Object, TypeHooks};
use crate::{AnyValue, Value};
use parking_lot::Mutex;
use std::collections::HashMap;
use std::sync::{Arc, LazyLock, OnceLock};

/// The heap object behind a compiled pattern.
#[repr(C)]
pub struct PatternObj {
    header: Object,
    /// What the pattern is made of, shared with the matches it makes.
    pub(super) compiled: Arc<Compiled>,
}

crate::declare_object_type!(PatternObj, "re.Pattern", parent = Object, child_slots = 0, hooks = Some(&PATTERN_HOOKS));

/// A pattern: its Python source and flags, and the fancy-regex programs that run it.
pub struct Compiled {
    /// The pattern as the script wrote it.
    pub source: String,
    /// Its flags (`re.UNICODE` included, as CPython reports them).
    pub flags: i64,
    /// The number of capturing groups.
    pub groups: usize,
    /// Group names and numbers.
    pub names: Vec<(String, usize)>,
    /// Which groups are nested in which ([`syntax::Translated::last_nested`]).
    pub last_nested: Vec<usize>,
    /// The translation, for the anchored forms made on first use.
    translated: String,
    /// Whether the pattern may rank an empty match above a longer one at the same place.
    pub(super) may_prefer_empty: bool,
    /// Finds the leftmost match.
    pub(super) search: fancy_regex::Regex,
    /// `re.match`: a match at the start.
    anchored: OnceLock<std::result::Result<fancy_regex::Regex, String>>,
    /// `re.fullmatch`: a match of the whole text.
    whole: OnceLock<std::result::Result<fancy_regex::Regex, String>>,
    /// A non-empty match at the search position, which CPython looks for after an empty match.
    longer: OnceLock<std::result::Result<fancy_regex::Regex, String>>,
    /// A match at the search position (`pattern.match(text, pos)`).
    anchored_at: OnceLock<std::result::Result<fancy_regex::Regex, String>>,
    /// A match from the search position to the end (`pattern.fullmatch(text, pos)`).
    whole_at: OnceLock<std::result::Result<fancy_regex::Regex, String>>,
    /// The regex crate's programs for the anchored kinds, where the pattern needs no backtracking.
    anchored_programs: AnchoredPrograms,
}

/// How far a pattern may backtrack before the match is abandoned with an error (CPython has
/// no limit and runs on; here a pathological pattern reports instead of hanging a batch).
const BACKTRACK_LIMIT: usize = 10_000_000;

fn build(pattern: &str) -> std::result::Result<fancy_regex::Regex, String> {
    fancy_regex::RegexBuilder::new(pattern)
        .backtrack_limit(BACKTRACK_LIMIT)
        .delegate_size_limit(1 << 26)
        .build()
        .map_err(|e| e.to_string())
}

impl Compiled {
    pub(super) fn new(source: &str, flags: i64) -> Result<Compiled> {
        let Translated { pattern, groups, names, last_nested, flags } =
            syntax::translate(source, flags).map_err(|e| pattern_error(e, source))?;
        if i32::try_from(flags).is_err() {
            // Where CPython's `_sre.compile` takes the flags as a C int.
            return Err(Error::new(ErrorKind::Overflow, "Python int too large to convert to C int"));
        }
        let search = build(&pattern).map_err(|e| unsupported(source, &e))?;
        Ok(Compiled {
            source: source.to_string(),
            flags,
            groups,
            names,
            last_nested,
            translated: pattern,
            may_prefer_empty: may_prefer_empty(source),
            search,
            anchored: OnceLock::new(),
            whole: OnceLock::new(),
            longer: OnceLock::new(),
            anchored_at: OnceLock::new(),
            whole_at: OnceLock::new(),
            anchored_programs: AnchoredPrograms::default(),
        })
    }

    /// The program for `kind` of search.
    pub(super) fn program(&self, kind: Anchor) -> Result<&fancy_regex::Regex> {
        let (cell, wrap) = match kind {
            Anchor::Search => return Ok(&self.search),
            Anchor::Start => (&self.anchored, "\\A(?:{})"),
            Anchor::Whole => (&self.whole, "\\A(?:{})\\z"),
            // `pattern.match(text, pos)` and `fullmatch`: at the search position (`\G`), the
            // pattern then an empty group that marks a match, or else nothing, so that a search
            // that fails there ends there instead of trying every later position.
            Anchor::StartAt => (&self.anchored_at, "\\G(?:(?:{})()|)"),
            Anchor::WholeAt => (&self.whole_at, "\\G(?:(?:{})\\z()|)"),
            // `\G` is the search position: a match there that ends anywhere else.
            Anchor::NonEmptyAt => (&self.longer, "\\G(?:{})(?!\\G)"),
        };
        cell.get_or_init(|| build(&wrap.replace("{}", &self.translated)))
            .as_ref()
            .map_err(|e| unsupported(&self.source, e))
    }

    /// The match of `kind` (an anchored kind) at byte `pos` of `text` by the regex crate's
    /// engines; `None` where the kind is not anchored or the pattern needs fancy-regex.
    pub(super) fn anchored_match(&self, kind: Anchor, text: &str, pos: usize) -> Option<Option<Spans>> {
        let to_end = match kind {
            Anchor::Start | Anchor::StartAt => false,
            Anchor::Whole | Anchor::WholeAt => true,
            Anchor::Search | Anchor::NonEmptyAt => return None,
        };
        self.anchored_programs.find(&self.translated, self.groups, to_end, text, pos)
    }

    /// The number of the group `name`.
    pub(super) fn group_number(&self, name: &str) -> Option<usize> {
        self.names.iter().find(|(n, _)| n == name).map(|&(_, i)| i)
    }
}

/// Whether a backtracking search could rank an empty match above a non-empty one at the same
/// place: only an alternation, a lazy quantifier or a conditional gives it the choice (a greedy
/// quantifier takes the longer path first). A pattern without them skips the scan's extra
/// search after each empty match, which costs the rest of the text each time.
fn may_prefer_empty(source: &str) -> bool {
    let mut prev = ' ';
    for c in source.chars() {
        if c == '|' || (c == '?' && matches!(prev, '*' | '+' | '?' | '}')) {
            return true;
        }
        prev = c;
    }
    source.contains("(?(")
}

/// Where a search may match.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Anchor {
    /// Anywhere (`re.search`).
    Search,
    /// At the start (`re.match`).
    Start,
    /// The whole text (`re.fullmatch`).
    Whole,
    /// A non-empty match at the search position.
    NonEmptyAt,
    /// At the search position (`pattern.match(text, pos)`).
    StartAt,
    /// From the search position to the end (`pattern.fullmatch(text, pos)`).
    WholeAt,
}

/// A pattern the translation accepts but fancy-regex cannot run (a variable-length lookbehind,
/// say, which CPython refuses too, or a size beyond its limits).
fn unsupported(source: &str, e: &str) -> Error {
    Error::value(format!("cannot compile the pattern {source:?}: {e}"))
}

/// A compiled pattern, as a value.
#[derive(Clone)]
pub struct Pattern(ObjRef<PatternObj>);

impl Pattern {
    /// `re.compile(source, flags)`; patterns are cached by source and flags.
    pub fn compile(source: &str, flags: i64) -> Result<Pattern> {
        static CACHE: LazyLock<Mutex<HashMap<(String, i64), Pattern>>> = LazyLock::new(Default::default);
        /// CPython's `re._MAXCACHE`.
        const MAX_CACHED: usize = 512;
        // A str pattern is Unicode unless it is ASCII, so `0` and `re.U` find the same
        // pattern; `re.A | re.U`, which fails, does not find `re.A`'s.
        let key_flags = if flags & syntax::ASCII == 0 { flags | syntax::UNICODE } else { flags };
        let key = (source.to_string(), key_flags);
        if let Some(p) = CACHE.lock().get(&key) {
            return Ok(p.clone());
        }
        let made = Pattern(ObjRef::new(PatternObj {
            header: Object::blank(),
            compiled: Arc::new(Compiled::new(source, flags)?),
        }));
        let mut cache = CACHE.lock();
        if cache.len() >= MAX_CACHED {
            cache.clear();
        }
        // Also by its flags with the inline ones added, which a match's `m.re` asks for: the
        // pattern the match came from.
        cache.insert((source.to_string(), made.0.compiled.flags), made.clone());
        cache.insert(key, made.clone());
        Ok(made)
    }

    /// The pattern behind `v`, if it is one.
    pub fn of(v: Value<'_>) -> Option<&Compiled> {
        v.as_obj().and_then(ObjPtr::downcast_ref::<PatternObj>).map(|p| &*p.compiled)
    }

    /// The compiled pattern behind `v`, shared.
    pub fn shared(v: Value<'_>) -> Option<Arc<Compiled>> {
        v.as_obj().and_then(ObjPtr::downcast_ref::<PatternObj>).map(|p| p.compiled.clone())
    }

    /// The shared compiled form.
    pub(super) fn compiled(&self) -> &Arc<Compiled> {
        &self.0.compiled
    }

    /// The pattern as a value.
    pub fn into_any(self) -> AnyValue {
        AnyValue::from_object(self.0)
    }
}

/// Patterns compare and hash by source and flags, as CPython's do, and print as
/// `re.compile('a+', re.IGNORECASE)`.
static PATTERN_HOOKS: TypeHooks = TypeHooks {
    eq: |a, b, _| match (a.downcast_ref::<PatternObj>(), b.downcast_ref::<PatternObj>()) {
        (Some(a), Some(b)) => a.compiled.source == b.compiled.source && a.compiled.flags == b.compiled.flags,
        _ => false,
    },
    hash: |p, state, _| {
        if let Some(p) = p.downcast_ref::<PatternObj>() {
            state.write(p.compiled.source.as_bytes());
            state.write_i64(p.compiled.flags);
        }
    },
    repr: |p, f, _| {
        let Some(p) = p.downcast_ref::<PatternObj>() else { return Ok(()) };
        let source = crate::pipeline::value_ops::repr_value(Value::Str(&p.compiled.source));
        match flag_names(p.compiled.flags) {
            Some(names) => write!(f, "re.compile({source}, {names})"),
            None => write!(f, "re.compile({source})"),
        }
    },
};

/// The flags as CPython's repr writes them (`re.IGNORECASE|re.MULTILINE`), `re.UNICODE` left out.
fn flag_names(flags: i64) -> Option<String> {
    use syntax::*;
    let names = [
        (1, "re.TEMPLATE"),
        (IGNORECASE, "re.IGNORECASE"),
        (LOCALE, "re.LOCALE"),
        (MULTILINE, "re.MULTILINE"),
        (DOTALL, "re.DOTALL"),
        (VERBOSE, "re.VERBOSE"),
        (DEBUG, "re.DEBUG"),
        (ASCII, "re.ASCII"),
    ];
    let mut shown: Vec<String> = names.iter().filter(|(bit, _)| flags & bit != 0).map(|&(_, n)| n.into()).collect();
    // Bits no flag names, as CPython writes a C int's (`0x1000`).
    let unnamed = (flags & !names.iter().fold(syntax::UNICODE, |all, (bit, _)| all | bit)) as u32;
    if unnamed != 0 {
        shown.push(format!("{unnamed:#x}"));
    }
    (!shown.is_empty()).then(|| shown.join("|"))
}
