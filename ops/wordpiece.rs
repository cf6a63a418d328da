//! WordPiece: greedy longest-match-first subwords (BERT), and decoding ids back to text.
//!
//! Matches Hugging Face's `models::wordpiece::WordPiece::tokenize` exactly:
//! - a word of more than `max_input_chars_per_word` chars is one unk;
//! - from the start of the word, the longest vocab token that is a prefix is taken;
//!   later pieces are looked up with the continuing prefix (`##`) in front;
//! - if some position has no match at all, the whole word is one unk.
//!
//! HF formats `"##" + substring` and hashes it for every candidate end, shortest
//! last, so a word of n chars costs O(n²) allocations. Here the vocabulary is a
//! double-array trie over bytes: one walk from the piece start visits each byte
//! once and remembers the deepest token end, and continuation pieces start from
//! the trie node of `##`, so the prefix is never formatted. Because vocab tokens
//! are valid UTF-8, every token end found in the walk is a char boundary, so the
//! deepest one is exactly HF's longest-first answer.
//!
//! Registered: `tok.wordpiece.new(vocab_path, unk_token, max_chars)` returns a
//! `func(word | list of words) -> list of ids`, and `tok.wordpiece.decode.new(vocab_path)`
//! a `func(ids[, skip_special_tokens]) -> str` (HF's WordPiece decoder with `cleanup`).

use super::vocab::{Vocab, check_arity, with_text};
use crate::any::{AnyValue, AnyView};
use crate::container::List;
use crate::error::{Error, Result, ResultExt};
use crate::func::{PackedFunc, Registry};
use std::collections::BTreeSet;
use std::sync::Arc;

/// No token ends at this node.
const NO_VALUE: u32 = u32::MAX;
/// A slot no node owns.
const FREE: u32 = u32::MAX;
/// The root's `check`: no node has this index, so no walk ever lands on the root.
const ROOT_CHECK: u32 = u32::MAX - 1;

/// One slot of the double array: the child base, the owning parent and the token id ending here.
#[derive(Clone, Copy, Debug)]
struct Unit {
    base: u32,
    check: u32,
    value: u32,
}

/// A static byte trie as a double array: the child of node `s` by byte `b` is
/// `t = base[s] + b`, valid when `check[t] == s`.
///
/// Rationale: one add and one compare per byte, and `check`, `base` and `value` of a
/// node are adjacent in one 12-byte unit, so a walk is one memory access per byte.
#[derive(Clone, Debug)]
pub struct DoubleArray {
    units: Vec<Unit>,
}

impl DoubleArray {
    /// The root node.
    pub const ROOT: u32 = 0;

    /// Builds the trie of `keys` with a value for each (of equal keys, one is kept).
    pub fn build(keys: &[(&[u8], u32)]) -> DoubleArray {
        let mut sorted: Vec<(&[u8], u32)> = keys.to_vec();
        sorted.sort_unstable_by(|a, b| a.0.cmp(b.0));
        sorted.dedup_by(|a, b| a.0 == b.0);
        let mut b =
            Builder { units: vec![Unit { base: 0, check: ROOT_CHECK, value: NO_VALUE }], free: BTreeSet::new() };
        // Each pending node covers the sorted keys `lo..hi` that share its first `depth` bytes.
        let mut stack: Vec<(u32, usize, usize, usize)> = vec![(Self::ROOT, 0, sorted.len(), 0)];
        let mut labels: Vec<(u8, usize, usize)> = Vec::new();
        while let Some((node, mut lo, hi, depth)) = stack.pop() {
            // Sorted order puts the key that ends here (at most one: keys are distinct) first.
            if lo < hi && sorted[lo].0.len() == depth {
                b.units[node as usize].value = sorted[lo].1;
                lo += 1;
            }
            labels.clear();
            let mut i = lo;
            while i < hi {
                let byte = sorted[i].0[depth];
                let start = i;
                while i < hi && sorted[i].0[depth] == byte {
                    i += 1;
                }
                labels.push((byte, start, i));
            }
            if labels.is_empty() {
                continue;
            }
            let base = b.place(node, &labels);
            b.units[node as usize].base = base;
            for &(byte, s, e) in &labels {
                stack.push((base + u32::from(byte), s, e, depth + 1));
            }
        }
        DoubleArray { units: b.units }
    }

    /// The child of `node` by `byte`, if any.
    #[inline(always)]
    pub fn child(&self, node: u32, byte: u8) -> Option<u32> {
        let t = self.units.get(node as usize)?.base as usize + byte as usize;
        match self.units.get(t) {
            Some(u) if u.check == node => Some(t as u32),
            _ => None,
        }
    }

    /// The value of the key ending at `node`, if one does.
    #[inline(always)]
    pub fn value(&self, node: u32) -> Option<u32> {
        self.units.get(node as usize).map(|u| u.value).filter(|&v| v != NO_VALUE)
    }

    /// The node reached from `node` by all of `bytes`.
    pub fn walk(&self, node: u32, bytes: &[u8]) -> Option<u32> {
        bytes.iter().try_fold(node, |n, &b| self.child(n, b))
    }

    /// The value of exactly `bytes`.
    pub fn get(&self, bytes: &[u8]) -> Option<u32> {
        self.walk(Self::ROOT, bytes).and_then(|n| self.value(n))
    }

    /// The end and value of the longest key that is a prefix of `bytes`, starting at `node`;
    /// an empty match (a key ending at `node` itself) does not count.
    #[inline(always)]
    pub fn longest_prefix(&self, node: u32, bytes: &[u8]) -> Option<(usize, u32)> {
        let units = self.units.as_slice();
        let mut best = None;
        let mut n = node;
        let mut base = units.get(node as usize)?.base as usize;
        for (i, &b) in bytes.iter().enumerate() {
            // One load per byte: the child's unit holds its check, its base and its value.
            let t = base + b as usize;
            match units.get(t) {
                Some(u) if u.check == n => {
                    n = t as u32;
                    base = u.base as usize;
                    if u.value != NO_VALUE {
                        best = Some((i + 1, u.value));
                    }
                }
                _ => break,
            }
        }
        best
    }

    /// Number of slots (nodes and holes).
    pub fn slots(&self) -> usize {
        self.units.len()
    }
}

struct Builder {
    units: Vec<Unit>,
    /// The free slots, so that the search for a base skips the owned ones.
    free: BTreeSet<u32>,
}

/// Free slots tried for one node before giving up and placing it past the end.
///
/// Rationale: bounds the build at O(nodes × this) even when the front of the array is
/// fragmented, at the price of a few holes.
const MAX_TRIES: usize = 256;

impl Builder {
    fn grow(&mut self, len: usize) {
        for i in self.units.len()..len {
            self.free.insert(i as u32);
        }
        if self.units.len() < len {
            self.units.resize(len, Unit { base: 0, check: FREE, value: NO_VALUE });
        }
    }

    fn is_free(&self, t: usize) -> bool {
        t >= self.units.len() || self.units[t].check == FREE
    }

    /// Finds a base that puts every child label on a free slot (never on the root) and
    /// gives those slots to `parent`.
    fn place(&mut self, parent: u32, labels: &[(u8, usize, usize)]) -> u32 {
        let first = usize::from(labels[0].0);
        let fits = |b: &Builder, base: usize| labels[1..].iter().all(|&(l, _, _)| b.is_free(base + usize::from(l)));
        let base = self
            .free
            .range(first as u32 + 1..)
            .take(MAX_TRIES)
            .map(|&f| f as usize - first)
            .find(|&base| fits(self, base))
            .unwrap_or_else(|| self.units.len().saturating_sub(first).max(1));
        self.grow(base + usize::from(labels[labels.len() - 1].0) + 1);
        for &(l, _, _) in labels {
            let t = base + usize::from(l);
            self.units[t].check = parent;
            self.free.remove(&(t as u32));
        }
        base as u32
    }
}

/// The WordPiece model: a vocabulary, its trie, the unk token and the word length cap.
#[derive(Clone, Debug)]
pub struct WordPiece {
    vocab: Arc<Vocab>,
    trie: DoubleArray,
    /// The trie node of the continuing prefix; `None` if no token starts with it.
    continuation: Option<u32>,
    unk_id: u32,
    max_chars: usize,
}

impl WordPiece {
    /// BERT's defaults: unk `[UNK]`, prefix `##`, at most 100 chars per word.
    pub fn bert(vocab: Arc<Vocab>) -> Result<WordPiece> {
        Self::new(vocab, "[UNK]", "##", 100)
    }

    /// A model over `vocab`; `unk` must be in it.
    pub fn new(vocab: Arc<Vocab>, unk: &str, continuing_prefix: &str, max_chars: usize) -> Result<WordPiece> {
        let unk_id = vocab.require(unk, "unk token")?;
        let keys: Vec<(&[u8], u32)> = vocab.tokens().zip(0u32..).map(|(t, id)| (t.as_bytes(), id)).collect();
        let trie = DoubleArray::build(&keys);
        let continuation = trie.walk(DoubleArray::ROOT, continuing_prefix.as_bytes());
        Ok(WordPiece { vocab, trie, continuation, unk_id, max_chars })
    }

    /// The vocabulary.
    pub fn vocab(&self) -> &Arc<Vocab> {
        &self.vocab
    }

    /// The trie over the vocabulary's tokens.
    pub fn trie(&self) -> &DoubleArray {
        &self.trie
    }

    /// The unk token's id.
    pub fn unk_id(&self) -> u32 {
        self.unk_id
    }

    /// The id of a whole token (no prefix handling), as HF's `token_to_id`.
    pub fn token_to_id(&self, token: &str) -> Option<u32> {
        self.trie.get(token.as_bytes())
    }

    /// Appends the ids of `word`'s pieces to `out`.
    #[inline]
    pub fn tokenize_into(&self, word: &str, out: &mut Vec<u32>) {
        // Counting chars is only needed when the byte length could exceed the cap.
        let chars = if word.len() <= self.max_chars { word.len() } else { word.chars().count() };
        self.tokenize_counted(word, chars, out)
    }

    /// Like `tokenize_into`, with the word's char count (or any count that is over the cap
    /// exactly when the real one is) already known.
    #[inline]
    pub fn tokenize_counted(&self, word: &str, chars: usize, out: &mut Vec<u32>) {
        if word.is_empty() {
            return;
        }
        if chars > self.max_chars {
            out.push(self.unk_id);
            return;
        }
        let bytes = word.as_bytes();
        let mark = out.len();
        let mut start = 0;
        let mut node = DoubleArray::ROOT;
        while let Some((len, id)) = self.trie.longest_prefix(node, &bytes[start..]) {
            out.push(id);
            start += len;
            if start == bytes.len() {
                return;
            }
            match self.continuation {
                Some(c) => node = c,
                None => break,
            }
        }
        out.truncate(mark);
        out.push(self.unk_id);
    }

    /// The ids of `word`'s pieces.
    pub fn tokenize(&self, word: &str) -> Vec<u32> {
        let mut out = Vec::with_capacity(4);
        self.tokenize_into(word, &mut out);
        out
    }
}

/// HF's WordPiece decoder: pieces joined by spaces, continuation pieces glued on, then cleanup.
#[derive(Clone, Debug)]
pub struct WordPieceDecoder {
    vocab: Arc<Vocab>,
    prefix: String,
    cleanup: bool,
    /// Ids skipped when asked to skip special tokens.
    special: Vec<u32>,
}

/// BERT's special tokens, skipped by `skip_special_tokens` when the vocabulary has them.
pub const BERT_SPECIAL_TOKENS: [&str; 5] = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"];

impl WordPieceDecoder {
    /// A decoder with prefix `##`, cleanup on, and BERT's special tokens.
    pub fn bert(vocab: Arc<Vocab>) -> Self {
        let special = BERT_SPECIAL_TOKENS.iter().filter_map(|t| vocab.get(t)).collect();
        WordPieceDecoder { vocab, prefix: "##".into(), cleanup: true, special }
    }

    /// A decoder with the given prefix, cleanup flag and special-token ids.
    pub fn new(vocab: Arc<Vocab>, prefix: &str, cleanup: bool, special: Vec<u32>) -> Self {
        WordPieceDecoder { vocab, prefix: prefix.into(), cleanup, special }
    }

    /// The text of `ids`; an id outside the vocabulary is an error naming its position.
    ///
    /// HF's `Tokenizer::decode` silently drops unknown ids; an error is kept here, since a
    /// wrong vocabulary is the likely cause.
    pub fn decode(&self, ids: &[u32], skip_special_tokens: bool) -> Result<String> {
        let mut out = String::with_capacity(ids.len() * 6);
        let mut piece = String::new();
        let mut first = true;
        for (pos, &id) in ids.iter().enumerate() {
            if skip_special_tokens && self.special.contains(&id) {
                continue;
            }
            let token = self.vocab.token(id).ok_or_else(|| {
                Error::index_out_of_range(i64::from(id), self.vocab.len()).context(format!("list item {pos}"))
            })?;
            // HF strips the prefix from every token but the first, and puts a space before
            // the others; cleanup then runs on each token on its own, not on the joined text.
            piece.clear();
            match token.strip_prefix(self.prefix.as_str()) {
                Some(rest) if !first => piece.push_str(rest),
                _ if !first => {
                    piece.push(' ');
                    piece.push_str(token);
                }
                _ => piece.push_str(token),
            }
            first = false;
            if self.cleanup && piece.contains(' ') {
                out.push_str(&cleanup(&piece));
            } else {
                out.push_str(&piece);
            }
        }
        Ok(out)
    }
}

/// HF's `decoders::wordpiece::cleanup`: the same replacements, in the same order.
pub fn cleanup(dirty: &str) -> String {
    const RULES: [(&str, &str); 11] = [
        (" .", "."),
        (" ?", "?"),
        (" !", "!"),
        (" ,", ","),
        (" ' ", "'"),
        (" n't", "n't"),
        (" 'm", "'m"),
        (" do not", " don't"),
        (" 's", "'s"),
        (" 've", "'ve"),
        (" 're", "'re"),
    ];
    let mut s = dirty.to_string();
    for (from, to) in RULES {
        if s.contains(from) {
            s = s.replace(from, to);
        }
    }
    s
}

/// Reads a list of ids (ints in `0..2^32`); errors name the item.
pub(crate) fn ids_from_list(list: &List) -> Result<Vec<u32>> {
    list.with_items(|xs| {
        xs.iter()
            .enumerate()
            .map(|(i, x)| {
                let id = x.get::<i64>().with_context(|| format!("list item {i}"))?;
                u32::try_from(id).map_err(|_| Error::value(format!("list item {i}: id {id} is not a token id")))
            })
            .collect()
    })
}

/// Ids as a list of ints.
pub(crate) fn ids_to_list(ids: &[u32]) -> List {
    let mut out = List::with_capacity(ids.len());
    for &id in ids {
        out.push(AnyValue::from(id));
    }
    out
}

fn wordpiece_call(wp: &WordPiece, v: &AnyView<'_>) -> Result<AnyValue> {
    let mut ids = Vec::new();
    if let Some(list) = <List as crate::FromAny>::from_view(v) {
        list.with_items(|xs| {
            for (i, x) in xs.iter().enumerate() {
                with_text(&x.view(), |w| wp.tokenize_into(w, &mut ids)).with_context(|| format!("list item {i}"))?;
            }
            Ok::<_, Error>(())
        })?;
    } else {
        with_text(v, |w| wp.tokenize_into(w, &mut ids))?;
    }
    Ok(ids_to_list(&ids).into_any())
}

/// Registers `tok.wordpiece.new` and `tok.wordpiece.decode.new`.
pub fn register(reg: &Registry) -> Result<()> {
    reg.register_typed(
        "tok.wordpiece.new",
        "Loads vocab.txt; returns func(word | list of words) -> list of ids (WordPiece, ## prefix).",
        |path: String, unk: String, max_chars: usize| -> Result<PackedFunc> {
            let wp = WordPiece::new(Arc::new(Vocab::load(&path)?), &unk, "##", max_chars)?;
            Ok(PackedFunc::new(move |args| {
                check_arity(args, 1, 1)
                    .and_then(|()| wordpiece_call(&wp, &args[0]).with_context(|| "argument 0"))
                    .with_context(|| "tok.wordpiece")
            }))
        },
        false,
    )?;
    reg.register_typed(
        "tok.wordpiece.decode.new",
        "Loads vocab.txt; returns func(ids[, skip_special_tokens]) -> str (HF WordPiece decoder, cleanup on).",
        |path: String| -> Result<PackedFunc> {
            let dec = WordPieceDecoder::bert(Arc::new(Vocab::load(&path)?));
            Ok(PackedFunc::new(move |args| {
                let run = || -> Result<AnyValue> {
                    check_arity(args, 1, 2)?;
                    let ids = args[0].get::<List>().and_then(|l| ids_from_list(&l)).with_context(|| "argument 0")?;
                    let skip = match args.get(1) {
                        Some(v) => v.get::<bool>().with_context(|| "argument 1")?,
                        None => false,
                    };
                    Ok(AnyValue::from(dec.decode(&ids, skip).with_context(|| "argument 0")?))
                };
                run().with_context(|| "tok.wordpiece.decode")
            }))
        },
        false,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(tokens: &[&str]) -> WordPiece {
        WordPiece::new(Arc::new(Vocab::from_tokens(tokens.iter().copied()).unwrap()), "[UNK]", "##", 10).unwrap()
    }

    #[test]
    fn trie_finds_every_key_and_nothing_else() {
        let keys: Vec<(&[u8], u32)> =
            vec![(b"a", 0), (b"ab", 1), (b"abc", 2), (b"b", 3), (b"\xff\x00", 4), (b"zzzz", 5)];
        let t = DoubleArray::build(&keys);
        for &(k, v) in &keys {
            assert_eq!(t.get(k), Some(v), "{k:?}");
        }
        for k in [&b""[..], b"abcd", b"c", b"zz", b"\xff"] {
            assert_eq!(t.get(k), None, "{k:?}");
        }
        assert_eq!(t.longest_prefix(DoubleArray::ROOT, b"abx"), Some((2, 1)));
        assert_eq!(t.longest_prefix(DoubleArray::ROOT, b"x"), None);
    }

    #[test]
    fn greedy_longest_match_with_continuations() {
        // ids:            0        1     2       3     4       5
        let wp = model(&["[UNK]", "un", "##aff", "##able", "una", "##ffa"]);
        // "una" is longer than "un", so greedy takes it, then "##ffa", then "##ble" fails.
        assert_eq!(wp.tokenize("unaffable"), vec![0]);
        let wp = model(&["[UNK]", "un", "##aff", "##able"]);
        assert_eq!(wp.tokenize("unaffable"), vec![1, 2, 3]);
        assert_eq!(wp.tokenize("affable"), vec![0]);
        assert_eq!(wp.tokenize(""), Vec::<u32>::new());
        // 11 chars > max 10
        assert_eq!(wp.tokenize("unaffableun"), vec![0]);
    }

    #[test]
    fn cleanup_matches_hf_rules() {
        assert_eq!(cleanup(" ."), ".");
        assert_eq!(cleanup(" n't"), "n't");
        assert_eq!(cleanup(" do not"), " don't");
        assert_eq!(cleanup(" x"), " x");
    }
}
