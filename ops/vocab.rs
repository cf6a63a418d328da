//! `Vocab`: a WordPiece `vocab.txt` (one token per line, id = line index) and its lookups.
//!
//! Registered: `vocab.lookup.new(path, unk)` returns a `func(token | list) -> id | list`,
//! `vocab.id_to_token.new(path)` a `func(id | list) -> token | list`, and
//! `vocab.size(path)` the number of tokens.
//!
//! Loading follows Hugging Face's `WordPiece::read_file` (each line's trailing
//! whitespace, `\r` included, is trimmed; a final newline adds no token) but is
//! stricter where HF silently goes wrong: an empty line would become a token `""`,
//! a duplicate would leave a hole in the ids, and invalid UTF-8 would abort
//! without a line number. Each of these is an error naming the file and line.

use crate::any::{AnyValue, AnyView, Value};
use crate::container::List;
use crate::error::{Error, ErrorKind, Result, ResultExt};
use crate::func::{PackedFunc, Registry};
use ahash::AHashMap;
use std::path::Path;
use std::sync::Arc;

/// A token vocabulary: token to id by hash, id to token by index.
#[derive(Clone, Debug, Default)]
pub struct Vocab {
    ids: AHashMap<Box<str>, u32>,
    tokens: Vec<Box<str>>,
}

impl Vocab {
    /// Reads a `vocab.txt`; errors name the file and the 1-based line.
    pub fn load(path: impl AsRef<Path>) -> Result<Vocab> {
        let path = path.as_ref();
        let bytes = std::fs::read(path)
            .map_err(|e| Error::new(ErrorKind::Io, format!("cannot read vocab file {}: {e}", path.display())))?;
        Self::from_bytes(&bytes, &path.display().to_string())
    }

    /// Parses the bytes of a `vocab.txt`; `source` (a file name) prefixes errors as `source:line`.
    pub fn from_bytes(bytes: &[u8], source: &str) -> Result<Vocab> {
        let mut vocab = Vocab::default();
        if bytes.is_empty() {
            return Ok(vocab);
        }
        // A final newline ends the last line; it does not start an empty one (as `BufRead::lines`).
        let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
        let lines = body.split(|&b| b == b'\n');
        vocab.tokens.reserve(bytes.len() / 8);
        vocab.ids.reserve(bytes.len() / 8);
        for (index, raw) in lines.enumerate() {
            let line = index + 1;
            let text = std::str::from_utf8(raw).map_err(|e| {
                Error::new(
                    ErrorKind::Parse,
                    format!("{source}:{line}: invalid UTF-8 at byte {} of the line", e.valid_up_to()),
                )
            })?;
            vocab.push(text.trim_end()).with_context(|| format!("{source}:{line}"))?;
        }
        Ok(vocab)
    }

    /// Builds a vocabulary from tokens in id order; errors name the 0-based id.
    pub fn from_tokens<'a>(tokens: impl IntoIterator<Item = &'a str>) -> Result<Vocab> {
        let mut vocab = Vocab::default();
        for (id, token) in tokens.into_iter().enumerate() {
            vocab.push(token).with_context(|| format!("token id {id}"))?;
        }
        Ok(vocab)
    }

    /// Builds a vocabulary from `(token, id)` pairs (a `tokenizer.json` model vocab).
    ///
    /// The ids must be exactly `0..n`, each once: a gap would be an id with no token.
    pub fn from_pairs<'a>(pairs: impl IntoIterator<Item = (&'a str, u32)>) -> Result<Vocab> {
        let pairs: Vec<(&str, u32)> = pairs.into_iter().collect();
        // Checked before use, so that a huge id in a malformed file cannot size an allocation.
        let mut slots: Vec<Option<&str>> = vec![None; pairs.len()];
        for (token, id) in pairs {
            let Some(slot) = slots.get_mut(id as usize) else {
                return Err(Error::value(format!("id {id} of {token:?} is out of range for {} tokens", slots.len())));
            };
            if let Some(prev) = *slot {
                return Err(Error::value(format!("id {id} is given to both {prev:?} and {token:?}")));
            }
            *slot = Some(token);
        }
        Self::from_tokens(slots.into_iter().flatten())
    }

    fn push(&mut self, token: &str) -> Result<()> {
        if token.is_empty() {
            return Err(Error::new(ErrorKind::Parse, "empty token"));
        }
        let id = u32::try_from(self.tokens.len()).map_err(|_| Error::value("more than 2^32 tokens"))?;
        if let Some(&first) = self.ids.get(token) {
            return Err(Error::new(
                ErrorKind::Duplicate,
                format!("duplicate token {token:?} (first at line {}, id {first})", first + 1),
            ));
        }
        self.ids.insert(token.into(), id);
        self.tokens.push(token.into());
        Ok(())
    }

    /// The id of `token`.
    #[inline]
    pub fn get(&self, token: &str) -> Option<u32> {
        self.ids.get(token).copied()
    }

    /// The token with id `id`.
    #[inline]
    pub fn token(&self, id: u32) -> Option<&str> {
        self.tokens.get(id as usize).map(|t| &**t)
    }

    /// Number of tokens.
    pub fn len(&self) -> usize {
        self.tokens.len()
    }

    /// Whether there are no tokens.
    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }

    /// Every token, in id order.
    pub fn tokens(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        self.tokens.iter().map(|t| &**t)
    }

    /// The id of `token`, or an error naming it (for required tokens such as `[UNK]`).
    pub fn require(&self, token: &str, role: &str) -> Result<u32> {
        self.get(token).ok_or_else(|| {
            Error::new(ErrorKind::Key, format!("{role} {token:?} is not in the vocabulary ({} tokens)", self.len()))
        })
    }
}

/// Runs `f` on the text of a string value (UTF-8 borrowed, UCS4 converted), or a type error.
pub(crate) fn with_text<R>(v: &AnyView<'_>, f: impl FnOnce(&str) -> R) -> Result<R> {
    match v.value() {
        Value::Str(s) => Ok(f(s)),
        Value::UStr(u) => Ok(f(&u.iter().collect::<String>())),
        _ => Err(Error::type_mismatch("str", &v.type_name())),
    }
}

/// Checks that a packed function got between `min` and `max` arguments.
pub(crate) fn check_arity(args: &[AnyView<'_>], min: usize, max: usize) -> Result<()> {
    if (min..=max).contains(&args.len()) {
        return Ok(());
    }
    let want = if min == max { format!("{min}") } else { format!("{min} to {max}") };
    let s = if max == 1 { "" } else { "s" };
    Err(Error::new(ErrorKind::Arity, format!("expected {want} argument{s}, got {}", args.len())))
}

/// Maps a str (or each str of a list) to an id; `unk` stands in for unknown tokens, else None.
fn lookup(vocab: &Vocab, unk: Option<u32>, v: &AnyView<'_>) -> Result<AnyValue> {
    let one = |s: &str| vocab.get(s).or(unk).map_or_else(AnyValue::none, AnyValue::from);
    if let Some(list) = <List as crate::FromAny>::from_view(v) {
        return list.with_items(|xs| {
            let mut out = List::with_capacity(xs.len());
            for (i, x) in xs.iter().enumerate() {
                out.push(with_text(&x.view(), one).with_context(|| format!("list item {i}"))?);
            }
            Ok(out.into_any())
        });
    }
    with_text(v, one)
}

/// Maps an id (or each id of a list) to its token; an unknown id is an index error.
fn id_to_token(vocab: &Vocab, v: &AnyView<'_>) -> Result<AnyValue> {
    let one = |id: i64| -> Result<AnyValue> {
        u32::try_from(id)
            .ok()
            .and_then(|i| vocab.token(i))
            .map(AnyValue::from)
            .ok_or_else(|| Error::index_out_of_range(id, vocab.len()).context("id"))
    };
    if let Some(list) = <List as crate::FromAny>::from_view(v) {
        return list.with_items(|xs| {
            let mut out = List::with_capacity(xs.len());
            for (i, x) in xs.iter().enumerate() {
                let id = x.get::<i64>().with_context(|| format!("list item {i}"))?;
                out.push(one(id).with_context(|| format!("list item {i}"))?);
            }
            Ok(out.into_any())
        });
    }
    one(v.get::<i64>()?)
}

/// Registers `vocab.lookup.new`, `vocab.id_to_token.new` and `vocab.size`.
pub fn register(reg: &Registry) -> Result<()> {
    reg.register_typed(
        "vocab.lookup.new",
        "Loads vocab.txt; returns func(token | list of tokens) -> id | list (unk's id, or None without unk).",
        |path: String, unk: Option<String>| -> Result<PackedFunc> {
            let vocab = Arc::new(Vocab::load(&path)?);
            let unk = unk.map(|u| vocab.require(&u, "unk token")).transpose()?;
            Ok(PackedFunc::new(move |args| {
                check_arity(args, 1, 1)
                    .and_then(|()| lookup(&vocab, unk, &args[0]).with_context(|| "argument 0"))
                    .with_context(|| "vocab.lookup")
            }))
        },
        false,
    )?;
    reg.register_typed(
        "vocab.id_to_token.new",
        "Loads vocab.txt; returns func(id | list of ids) -> token | list.",
        |path: String| -> Result<PackedFunc> {
            let vocab = Arc::new(Vocab::load(&path)?);
            Ok(PackedFunc::new(move |args| {
                check_arity(args, 1, 1)
                    .and_then(|()| id_to_token(&vocab, &args[0]).with_context(|| "argument 0"))
                    .with_context(|| "vocab.id_to_token")
            }))
        },
        false,
    )?;
    reg.register_typed(
        "vocab.size",
        "Number of tokens in a vocab.txt.",
        |path: String| -> Result<i64> { Ok(Vocab::load(&path)?.len() as i64) },
        false,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_become_ids_and_trailing_whitespace_is_trimmed() {
        let v = Vocab::from_bytes(b"[PAD]\r\nhello \n##lo\n", "t.txt").unwrap();
        assert_eq!(v.len(), 3);
        assert_eq!(v.get("hello"), Some(1));
        assert_eq!(v.get("##lo"), Some(2));
        assert_eq!(v.token(0), Some("[PAD]"));
        assert_eq!(v.token(3), None);
    }

    #[test]
    fn errors_name_source_and_line() {
        let e = Vocab::from_bytes(b"a\n\nb\n", "v.txt").unwrap_err();
        assert_eq!(e.to_string(), "v.txt:2: empty token");
        let e = Vocab::from_bytes(b"a\nb\na\n", "v.txt").unwrap_err();
        assert_eq!(e.to_string(), "v.txt:3: duplicate token \"a\" (first at line 1, id 0)");
        let e = Vocab::from_bytes(b"a\nb\xffc\n", "v.txt").unwrap_err();
        assert_eq!(e.to_string(), "v.txt:2: invalid UTF-8 at byte 1 of the line");
    }

    #[test]
    fn pairs_must_cover_every_id_once() {
        assert_eq!(Vocab::from_pairs([("b", 1), ("a", 0)]).unwrap().token(1), Some("b"));
        assert!(
            Vocab::from_pairs([("b", 2), ("a", 0)]).unwrap_err().to_string().contains("id 2 of \"b\" is out of range")
        );
        assert!(Vocab::from_pairs([("b", 0), ("a", 0)]).is_err());
    }
}
