//! Byte-level BPE as tiktoken runs it (r50k_base, cl100k_base) and as GPT-2's files define it.
//!
//! A model maps byte strings to tokens. Encoding pre-tokenizes the text (see
//! [`super::bytelevel`]); a piece that is itself a token becomes that token, any other is
//! split into bytes that are merged pairwise, always the adjacent pair whose concatenation
//! has the lowest merge rank, leftmost on ties, until no adjacent pair is a token. That is
//! tiktoken's rule: merge priority is looked up by the concatenated bytes, not by the pair.
//!
//! Two merge loops give the same result. Short pieces (the common case) use tiktoken's
//! flat vector with a linear scan for the best pair: quadratic, but cache-friendly and
//! fastest for a few dozen bytes. Pieces of [`LARGE_PIECE`] bytes or more use a priority
//! queue of candidate pairs over a linked list of parts (a radix heap, see
//! [`super::merge_queue`]): on a 100 KB word without spaces the flat loop would scan ~10^10
//! pair slots (and move as many bytes).
//!
//! Sources: `.tiktoken` rank files (`base64-token rank` per line), or GPT-2's
//! `encoder.json` + `vocab.bpe`, where the merges' order is the priority and the JSON gives
//! the ids. Both must cover all 256 single bytes, so encoding can never fail.

use super::bytelevel::{Pattern, byte_to_char, char_to_byte};
use super::merge_queue::MergeQueue;
use crate::any::{AnyValue, AnyView, Value};
use crate::container::List;
use crate::error::{Error, ErrorKind, Result};
use crate::func::{PackedFunc, Registry};
use ahash::RandomState;
use base64::Engine as _;
use parking_lot::Mutex;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::path::Path;
use std::sync::{Arc, LazyLock, Weak};

/// Pieces at least this long use the heap merge; shorter ones tiktoken's flat loop
/// (tiktoken switches at the same length).
pub const LARGE_PIECE: usize = 100;

/// Rank marking "no merge" in the merge loops; no token may have it.
const NO_RANK: u32 = u32::MAX;

/// tiktoken's end-of-text special token.
pub const ENDOFTEXT: &str = "<|endoftext|>";

/// The key of an adjacent token pair in `Bpe::pairs`.
#[inline]
fn pair_key(left: u32, right: u32) -> u64 {
    (u64::from(left) << 32) | u64::from(right)
}

/// Tokens by their bytes, with the short ones (nearly all) keyed inline.
///
/// Rationale: the whole-piece lookup runs once per piece. Keyed by `Box<[u8]>`, it would
/// follow a pointer to the key and call memcmp on every hit; packing up to 15 bytes and
/// the length into a u128 keeps the key in the table slot.
struct TokenMap {
    short: HashMap<u128, Tok, RandomState>,
    long: HashMap<Box<[u8]>, Tok, RandomState>,
}

/// Longest token kept in `TokenMap::short`.
const SHORT_TOKEN: usize = 15;

impl TokenMap {
    fn new(all: HashMap<Box<[u8]>, Tok, RandomState>) -> TokenMap {
        let mut map = TokenMap { short: HashMap::default(), long: HashMap::default() };
        for (bytes, tok) in all {
            match Self::short_key(&bytes) {
                Some(key) => map.short.insert(key, tok),
                None => map.long.insert(bytes, tok),
            };
        }
        map
    }

    /// The inline key of a token of at most `SHORT_TOKEN` bytes: the bytes, then the length.
    #[inline]
    fn short_key(bytes: &[u8]) -> Option<u128> {
        let mut buf = [0u8; 16];
        buf.get_mut(..bytes.len()).filter(|_| bytes.len() <= SHORT_TOKEN)?.copy_from_slice(bytes);
        buf[15] = bytes.len() as u8;
        Some(u128::from_le_bytes(buf))
    }

    #[inline]
    fn get(&self, bytes: &[u8]) -> Option<Tok> {
        match Self::short_key(bytes) {
            Some(key) => self.short.get(&key).copied(),
            None => self.long.get(bytes).copied(),
        }
    }

    fn len(&self) -> usize {
        self.short.len() + self.long.len()
    }
}

/// A mergeable token: its merge priority and the id it encodes to (equal for tiktoken files).
#[derive(Clone, Copy, Debug)]
struct Tok {
    rank: u32,
    id: u32,
}

/// A byte-level BPE model with its pre-tokenization pattern and special tokens.
pub struct Bpe {
    /// Mergeable tokens by their bytes.
    tokens: TokenMap,
    /// Every merge: `pair_key(left id, right id)` → the token their bytes concatenate to.
    ///
    /// Rationale: tiktoken looks the concatenated bytes up in `tokens`, hashing and
    /// comparing a slice per candidate pair; parts are always tokens, so the same answer
    /// comes from their two ids, hashed as one u64. Built at load from every split of every
    /// token into two tokens, so it agrees with the byte lookup exactly.
    pairs: HashMap<u64, Tok, RandomState>,
    /// The merges of all 65,536 byte pairs (`NO_RANK` where none), indexed `left << 8 | right`:
    /// a piece's first round of lookups, one per byte, hits this small table instead.
    byte_pairs: Box<[Tok]>,
    /// The id of each single byte (all 256 are checked present at load).
    byte_ids: [u32; 256],
    /// Token bytes by id, for decoding.
    decoder: HashMap<u32, Box<[u8]>, RandomState>,
    /// Special tokens and their ids, sorted by text.
    specials: Vec<(String, u32)>,
    pattern: Pattern,
    /// Where the model came from, for messages.
    source: String,
}

/// The special tokens tiktoken defines for each pattern's encoding.
fn default_specials(pattern: Pattern) -> &'static [(&'static str, u32)] {
    match pattern {
        Pattern::R50k => &[(ENDOFTEXT, 50256)],
        Pattern::Cl100k => &[
            (ENDOFTEXT, 100257),
            ("<|fim_prefix|>", 100258),
            ("<|fim_middle|>", 100259),
            ("<|fim_suffix|>", 100260),
            ("<|endofprompt|>", 100276),
        ],
    }
}

/// A parse error at `source:line`.
fn parse_error(source: &str, line: usize, msg: impl std::fmt::Display) -> Error {
    Error::new(ErrorKind::Parse, format!("{source}:{line}: {msg}"))
}

/// A file's contents, with the path in the error.
fn read_file(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).map_err(|e| Error::new(ErrorKind::Io, format!("{}: {e}", path.display())))
}

/// The bytes shown readably in messages.
fn show(bytes: &[u8]) -> String {
    format!("{:?}", String::from_utf8_lossy(bytes))
}

impl Bpe {
    /// Loads a `.tiktoken` rank file; `pattern` picks the pre-tokenizer and tiktoken's
    /// special tokens for that encoding.
    pub fn from_tiktoken_file(path: impl AsRef<Path>, pattern: Pattern) -> Result<Bpe> {
        let path = path.as_ref();
        Self::from_tiktoken_bytes(&read_file(path)?, &path.display().to_string(), pattern)
    }

    /// Parses rank-file contents; `source` names them in errors (`source:line: ...`).
    pub fn from_tiktoken_bytes(contents: &[u8], source: &str, pattern: Pattern) -> Result<Bpe> {
        let mut tokens: HashMap<Box<[u8]>, Tok, RandomState> = HashMap::default();
        // Line of each token and rank, to name both lines of a duplicate.
        let mut token_line: HashMap<Box<[u8]>, usize, RandomState> = HashMap::default();
        let mut rank_line: HashMap<u32, usize, RandomState> = HashMap::default();
        for (index, raw) in contents.split(|&b| b == b'\n').enumerate() {
            let line = index + 1;
            let mut fields = raw.split(u8::is_ascii_whitespace).filter(|f| !f.is_empty());
            let Some(b64) = fields.next() else { continue };
            let Some(rank_text) = fields.next() else {
                return Err(parse_error(source, line, "missing rank (expected 'BASE64TOKEN RANK')"));
            };
            if fields.next().is_some() {
                return Err(parse_error(source, line, "extra fields (expected 'BASE64TOKEN RANK')"));
            }
            let token = base64::engine::general_purpose::STANDARD
                .decode(b64)
                .map_err(|e| parse_error(source, line, format!("bad base64 token {}: {e}", show(b64))))?;
            if token.is_empty() {
                return Err(parse_error(source, line, "empty token"));
            }
            let rank = std::str::from_utf8(rank_text)
                .ok()
                .and_then(|t| t.parse::<u32>().ok())
                .filter(|&r| r != NO_RANK)
                .ok_or_else(|| {
                    let msg = format!("rank {} is not an integer in 0..{NO_RANK}", show(rank_text));
                    parse_error(source, line, msg)
                })?;
            let token: Box<[u8]> = token.into();
            if let Some(first) = token_line.insert(token.clone(), line) {
                return Err(parse_error(
                    source,
                    line,
                    format!("duplicate token {} (first on line {first})", show(&token)),
                ));
            }
            if let Some(first) = rank_line.insert(rank, line) {
                return Err(parse_error(source, line, format!("duplicate rank {rank} (first on line {first})")));
            }
            tokens.insert(token, Tok { rank, id: rank });
        }
        let specials = default_specials(pattern)
            .iter()
            .filter(|(_, id)| !rank_line.contains_key(id))
            .map(|&(s, id)| (s.to_string(), id))
            .collect();
        Self::build(tokens, specials, pattern, source)
    }

    /// Loads GPT-2's `encoder.json` (token → id) and `vocab.bpe` (merges, highest priority first).
    pub fn from_gpt2_files(encoder_json: impl AsRef<Path>, vocab_bpe: impl AsRef<Path>) -> Result<Bpe> {
        let (enc, voc) = (encoder_json.as_ref(), vocab_bpe.as_ref());
        Self::from_gpt2_bytes(
            &read_file(enc)?,
            &enc.display().to_string(),
            &read_file(voc)?,
            &voc.display().to_string(),
        )
    }

    /// Parses GPT-2 files' contents; the sources name them in errors.
    ///
    /// Tokens are GPT-2's byte-level strings (`Ġthe` for ` the`). The 256 single bytes and
    /// every merge result are mergeable, merge `k` (0-based, after the `#version` line)
    /// having priority `256 + k` as in tiktoken's conversion of these files; any other
    /// entry of the JSON (`<|endoftext|>`) is a special token.
    pub fn from_gpt2_bytes(encoder_json: &[u8], enc_source: &str, vocab_bpe: &[u8], voc_source: &str) -> Result<Bpe> {
        let json: serde_json::Map<String, serde_json::Value> = serde_json::from_slice(encoder_json)
            .map_err(|e| Error::new(ErrorKind::Parse, format!("{enc_source}: invalid JSON object: {e}")))?;
        let mut ids: HashMap<Vec<u8>, u32, RandomState> = HashMap::default();
        let mut unmapped: Vec<(String, u32)> = Vec::new();
        let mut seen_ids: HashMap<u32, &str, RandomState> = HashMap::default();
        for (key, value) in &json {
            let id = value.as_u64().and_then(|v| u32::try_from(v).ok()).filter(|&v| v != NO_RANK).ok_or_else(|| {
                let msg = format!("{enc_source}: token {key:?} has id {value}, not an integer in 0..{NO_RANK}");
                Error::new(ErrorKind::Parse, msg)
            })?;
            if let Some(other) = seen_ids.insert(id, key) {
                let msg = format!("{enc_source}: tokens {other:?} and {key:?} share id {id}");
                return Err(Error::new(ErrorKind::Parse, msg));
            }
            match key.chars().map(char_to_byte).collect::<Option<Vec<u8>>>() {
                Some(bytes) if !bytes.is_empty() => {
                    ids.insert(bytes, id);
                }
                _ => unmapped.push((key.clone(), id)),
            }
        }

        let mut tokens: HashMap<Box<[u8]>, Tok, RandomState> = HashMap::default();
        for b in 0..=255u8 {
            let id = ids.get(&[b][..]).copied().ok_or_else(|| {
                let msg = format!("{enc_source}: no token for byte 0x{b:02X} ({:?})", byte_to_char(b));
                Error::new(ErrorKind::Parse, msg)
            })?;
            tokens.insert(Box::new([b]), Tok { rank: id, id });
        }
        let text = std::str::from_utf8(vocab_bpe).map_err(|e| {
            let line = vocab_bpe[..e.valid_up_to()].iter().filter(|&&b| b == b'\n').count() + 1;
            parse_error(voc_source, line, "not valid UTF-8")
        })?;
        let mut merge_line: HashMap<Box<[u8]>, usize, RandomState> = HashMap::default();
        for (index, raw) in text.split('\n').enumerate() {
            let line = index + 1;
            let raw = raw.strip_suffix('\r').unwrap_or(raw);
            if raw.is_empty() || (index == 0 && raw.starts_with("#version")) {
                continue;
            }
            let mut fields = raw.split(' ');
            let (Some(a), Some(b), None) = (fields.next(), fields.next(), fields.next()) else {
                return Err(parse_error(
                    voc_source,
                    line,
                    format!("expected two space-separated symbols, got {raw:?}"),
                ));
            };
            let to_bytes = |sym: &str| -> Result<Vec<u8>> {
                let bytes: Option<Vec<u8>> = sym.chars().map(char_to_byte).collect();
                bytes.filter(|b| !b.is_empty()).ok_or_else(|| {
                    parse_error(voc_source, line, format!("symbol {sym:?} is not in GPT-2's byte-level alphabet"))
                })
            };
            let mut merged = to_bytes(a)?;
            merged.extend(to_bytes(b)?);
            let Some(&id) = ids.get(&merged) else {
                let msg = format!("merge result {:?} is not in {enc_source}", format!("{a}{b}"));
                return Err(parse_error(voc_source, line, msg));
            };
            let merged: Box<[u8]> = merged.into();
            if let Some(first) = merge_line.insert(merged.clone(), line) {
                let msg = format!("merge result {:?} repeats line {first}", format!("{a}{b}"));
                return Err(parse_error(voc_source, line, msg));
            }
            // 256 single bytes are in `tokens` already, so its size is 256 + this merge's index.
            let rank = u32::try_from(tokens.len())
                .ok()
                .filter(|&r| r != NO_RANK)
                .ok_or_else(|| parse_error(voc_source, line, "too many merges"))?;
            tokens.insert(merged, Tok { rank, id });
        }

        // Whatever the merges cannot produce is special: `<|endoftext|>`, added tokens.
        let mut specials = unmapped;
        for (bytes, &id) in &ids {
            if !tokens.contains_key(bytes.as_slice()) {
                specials.push((String::from_utf8_lossy(bytes).into_owned(), id));
            }
        }
        Self::build(tokens, specials, Pattern::R50k, &format!("{enc_source} + {voc_source}"))
    }

    /// Checks byte coverage and builds the decoder.
    fn build(
        tokens: HashMap<Box<[u8]>, Tok, RandomState>,
        mut specials: Vec<(String, u32)>,
        pattern: Pattern,
        source: &str,
    ) -> Result<Bpe> {
        let mut byte_ids = [0u32; 256];
        for b in 0..=255u8 {
            byte_ids[b as usize] = tokens.get(&[b][..]).map(|t| t.id).ok_or_else(|| {
                let msg = format!("{source}: no token for byte 0x{b:02X} (a byte-level BPE needs all 256)");
                Error::new(ErrorKind::Parse, msg)
            })?;
        }
        let mut pairs: HashMap<u64, Tok, RandomState> = HashMap::default();
        for (bytes, &tok) in &tokens {
            for k in 1..bytes.len() {
                if let (Some(a), Some(b)) = (tokens.get(&bytes[..k]), tokens.get(&bytes[k..])) {
                    pairs.insert(pair_key(a.id, b.id), tok);
                }
            }
        }
        let byte_pairs = (0..=u16::MAX)
            .map(|k| tokens.get(&k.to_be_bytes()[..]).copied().unwrap_or(Tok { rank: NO_RANK, id: 0 }))
            .collect();
        let decoder = tokens.iter().map(|(bytes, t)| (t.id, bytes.clone())).collect();
        let tokens = TokenMap::new(tokens);
        specials.sort();
        Ok(Bpe { tokens, pairs, byte_pairs, byte_ids, decoder, specials, pattern, source: source.to_string() })
    }

    /// The pre-tokenization pattern.
    pub fn pattern(&self) -> Pattern {
        self.pattern
    }

    /// Where the model was loaded from.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Number of mergeable (ordinary) tokens.
    pub fn vocab_size(&self) -> usize {
        self.tokens.len()
    }

    /// The special tokens and their ids, sorted by text.
    pub fn special_tokens(&self) -> &[(String, u32)] {
        &self.specials
    }

    /// The id of the ordinary token with these bytes.
    pub fn token_id(&self, bytes: &[u8]) -> Option<u32> {
        self.tokens.get(bytes).map(|t| t.id)
    }

    /// Encodes `text` with no special-token handling (tiktoken's `encode_ordinary`).
    pub fn encode_ordinary(&self, text: &str) -> Vec<u32> {
        let mut out = Vec::with_capacity(text.len() / 3 + 1);
        self.encode_ordinary_into(text, &mut out);
        out
    }

    /// Appends the ordinary encoding of `text` to `out`.
    pub fn encode_ordinary_into(&self, text: &str, out: &mut Vec<u32>) {
        let mut parts = Vec::new();
        for piece in self.pattern.pieces(text) {
            self.encode_piece_with(piece.as_bytes(), out, &mut parts);
        }
    }

    /// Encodes `text`, turning the special tokens named in `allowed_special` into their ids
    /// (tiktoken's `encode(text, allowed_special)`); other special text is ordinary text.
    /// Naming a special token this model lacks is an error.
    pub fn encode(&self, text: &str, allowed_special: &[&str]) -> Result<Vec<u32>> {
        let mut allowed: Vec<(&str, u32)> = Vec::with_capacity(allowed_special.len());
        for name in allowed_special {
            match self.specials.iter().find(|(s, _)| s == name) {
                Some((s, id)) => allowed.push((s, *id)),
                None => return Err(Error::value(format!("{name:?} is not a special token of {}", self.source))),
            }
        }
        Ok(self.encode_allowed(text, &allowed))
    }

    /// Encodes `text` with every special token allowed.
    pub fn encode_with_special_tokens(&self, text: &str) -> Vec<u32> {
        let allowed: Vec<(&str, u32)> = self.specials.iter().map(|(s, id)| (s.as_str(), *id)).collect();
        self.encode_allowed(text, &allowed)
    }

    /// The special-token loop: ordinary encoding between the earliest allowed specials.
    fn encode_allowed(&self, text: &str, allowed: &[(&str, u32)]) -> Vec<u32> {
        let mut out = Vec::with_capacity(text.len() / 3 + 1);
        // Next occurrence of each special at or after `pos` (`usize::MAX`: no more), refreshed
        // only once `pos` passes it, so the search stays linear however many specials occur.
        let bytes = text.as_bytes();
        let finders: Vec<memchr::memmem::Finder<'_>> =
            allowed.iter().map(|(s, _)| memchr::memmem::Finder::new(s.as_bytes())).collect();
        let find_from = |k: usize, pos: usize| -> usize {
            match (allowed[k].0.is_empty(), bytes.get(pos..)) {
                (false, Some(rest)) => finders[k].find(rest).map_or(usize::MAX, |at| at + pos),
                _ => usize::MAX,
            }
        };
        let mut next: Vec<usize> = (0..allowed.len()).map(|k| find_from(k, 0)).collect();
        let mut pos = 0;
        loop {
            let mut best: Option<(usize, usize, u32)> = None; // (start, len, id)
            for (k, &(special, id)) in allowed.iter().enumerate() {
                if next[k] < pos {
                    next[k] = find_from(k, pos);
                }
                let at = next[k];
                // Earliest wins; at one position, the longest.
                if at != usize::MAX && best.is_none_or(|(b, len, _)| at < b || at == b && special.len() > len) {
                    best = Some((at, special.len(), id));
                }
            }
            let end = best.map_or(text.len(), |(at, _, _)| at);
            // Specials are whole strings found in `text`, so `end` is a char boundary.
            if let Some(segment) = text.get(pos..end) {
                self.encode_ordinary_into(segment, &mut out);
            }
            match best {
                Some((at, len, id)) => {
                    out.push(id);
                    pos = at + len;
                }
                None => break,
            }
        }
        out
    }

    /// Encodes one pre-tokenized piece (or any byte string) by BPE alone, appending to `out`.
    pub fn encode_piece(&self, piece: &[u8], out: &mut Vec<u32>) {
        self.encode_piece_with(piece, out, &mut Vec::new());
    }

    #[inline]
    fn encode_piece_with(&self, piece: &[u8], out: &mut Vec<u32>, parts: &mut Vec<Part>) {
        if let Some(t) = self.tokens.get(piece) {
            out.push(t.id);
        } else if piece.len() < LARGE_PIECE {
            self.merge_small(piece, out, parts);
        } else {
            self.merge_large(piece, out);
        }
    }

    /// The token that adjacent tokens `left` and `right` merge into, as `(rank, id)`, or
    /// `NO_RANK` if their concatenation is no token.
    #[inline]
    fn merge_of(&self, left: u32, right: u32) -> (u32, u32) {
        match self.pairs.get(&pair_key(left, right)) {
            Some(t) => (t.rank, t.id),
            None => (NO_RANK, 0),
        }
    }

    /// The merge of two adjacent single bytes, as [`Self::merge_of`] gives it.
    #[inline]
    fn byte_pair(&self, left: u8, right: u8) -> (u32, u32) {
        let t = self.byte_pairs[usize::from(left) << 8 | usize::from(right)];
        (t.rank, t.id)
    }

    /// tiktoken's flat merge loop over the parts' ids.
    fn merge_small(&self, piece: &[u8], out: &mut Vec<u32>, parts: &mut Vec<Part>) {
        parts.clear();
        parts.extend(piece.iter().map(|&b| Part { id: self.byte_ids[b as usize], rank: NO_RANK, pair_id: 0 }));
        for (k, w) in piece.windows(2).enumerate() {
            let (rank, pair_id) = self.byte_pair(w[0], w[1]);
            parts[k].rank = rank;
            parts[k].pair_id = pair_id;
        }
        loop {
            let mut best = (NO_RANK, 0);
            for (k, p) in parts.iter().enumerate() {
                if p.rank < best.0 {
                    best = (p.rank, k);
                }
            }
            let (rank, k) = best;
            if rank == NO_RANK {
                break;
            }
            parts[k].id = parts[k].pair_id;
            parts.remove(k + 1);
            self.refresh_small(parts, k);
            if k > 0 {
                self.refresh_small(parts, k - 1);
            }
        }
        out.extend(parts.iter().map(|p| p.id));
    }

    /// Recomputes the pair of part `k` and its right neighbour.
    #[inline]
    fn refresh_small(&self, parts: &mut [Part], k: usize) {
        let (rank, pair_id) = match (parts.get(k), parts.get(k + 1)) {
            (Some(a), Some(b)) => self.merge_of(a.id, b.id),
            _ => (NO_RANK, 0),
        };
        if let Some(p) = parts.get_mut(k) {
            p.rank = rank;
            p.pair_id = pair_id;
        }
    }

    /// The heap merge: parts form a linked list indexed by start byte; the heap holds
    /// candidate pairs `(rank, start)`, lowest rank then leftmost first, so it merges in
    /// exactly the flat loop's order. Entries go stale when a neighbour merges and are
    /// skipped when their rank no longer matches their part's.
    fn merge_large(&self, piece: &[u8], out: &mut Vec<u32>) {
        // 32-bit positions halve the working set (and so the cache misses of a long piece)
        // and fit the radix queue's keys; only a piece of 4 GiB or more needs the wide ones.
        if u32::try_from(piece.len()).is_ok() {
            self.merge_heap::<u32, MergeQueue>(piece, out)
        } else {
            self.merge_heap::<usize, BinaryHeap<Reverse<(u32, usize)>>>(piece, out)
        }
    }

    fn merge_heap<I: Pos, Q: PairQueue<I>>(&self, piece: &[u8], out: &mut Vec<u32>) {
        let n = piece.len();
        let mut nodes: Vec<Node<I>> = piece
            .iter()
            .enumerate()
            .map(|(i, &b)| Node {
                end: I::from_usize(i + 1),
                prev: I::from_usize(i.saturating_sub(1)),
                id: self.byte_ids[b as usize],
                rank: NO_RANK,
                pair_id: 0,
            })
            .collect();
        let mut initial = Vec::with_capacity(n);
        for (i, w) in piece.windows(2).enumerate() {
            let (rank, pair_id) = self.byte_pair(w[0], w[1]);
            nodes[i].rank = rank;
            nodes[i].pair_id = pair_id;
            if rank != NO_RANK {
                initial.push((rank, I::from_usize(i)));
            }
        }
        let mut heap = Q::from_pairs(initial);
        while let Some((rank, start)) = heap.pop_pair() {
            let s = start.to_usize();
            let Some(node) = nodes.get(s) else { continue };
            if node.rank != rank {
                continue;
            }
            let right = node.end.to_usize();
            let Some(right_end) = nodes.get(right).map(|r| r.end) else { continue };
            nodes[s].id = nodes[s].pair_id;
            nodes[s].end = right_end;
            nodes[right].rank = NO_RANK; // `right` is gone: drop its pending pair
            if let Some(after) = nodes.get_mut(right_end.to_usize()) {
                after.prev = start;
            }
            self.refresh_large(&mut nodes, &mut heap, s);
            if s > 0 {
                let prev = nodes[s].prev.to_usize();
                self.refresh_large(&mut nodes, &mut heap, prev);
            }
        }
        let mut i = 0;
        while let Some(node) = nodes.get(i) {
            out.push(node.id);
            i = node.end.to_usize();
        }
    }

    /// Recomputes the pair of the part starting at `s`, queueing it if it merges.
    fn refresh_large<I: Pos, Q: PairQueue<I>>(&self, nodes: &mut [Node<I>], heap: &mut Q, s: usize) {
        let Some(&Node { end, id, .. }) = nodes.get(s) else { return };
        let (rank, pair_id) = match nodes.get(end.to_usize()) {
            Some(right) => self.merge_of(id, right.id),
            None => (NO_RANK, 0),
        };
        nodes[s].rank = rank;
        nodes[s].pair_id = pair_id;
        if rank != NO_RANK {
            heap.push_pair(rank, I::from_usize(s));
        }
    }

    /// The bytes of `ids` concatenated; an unknown id is an error.
    pub fn decode_bytes(&self, ids: &[u32]) -> Result<Vec<u8>> {
        let mut out = Vec::with_capacity(ids.len() * 4);
        for &id in ids {
            match self.decoder.get(&id) {
                Some(bytes) => out.extend_from_slice(bytes),
                None => match self.specials.iter().find(|(_, s)| *s == id) {
                    Some((text, _)) => out.extend_from_slice(text.as_bytes()),
                    None => return Err(Error::value(format!("unknown token id {id} for {}", self.source))),
                },
            }
        }
        Ok(out)
    }

    /// The text of `ids`, with U+FFFD for invalid UTF-8 (tiktoken's `errors="replace"`).
    pub fn decode(&self, ids: &[u32]) -> Result<String> {
        let bytes = self.decode_bytes(ids)?;
        Ok(match String::from_utf8(bytes) {
            Ok(s) => s,
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        })
    }
}

/// A part in the flat merge loop: its token and the merge with its right neighbour.
#[derive(Clone, Copy, Debug)]
struct Part {
    id: u32,
    /// Rank of the merge with the next part, `NO_RANK` if none.
    rank: u32,
    pair_id: u32,
}

/// A part in the heap merge, stored at its start byte.
#[derive(Clone, Copy, Debug)]
struct Node<I> {
    /// Start of the next part (`n` for the last).
    end: I,
    /// Start of the previous part (meaningless for the first).
    prev: I,
    id: u32,
    /// Rank of the pair with the next part, `NO_RANK` if none (or if this part is gone).
    rank: u32,
    pair_id: u32,
}

/// The candidate pairs of the heap merge, popped lowest rank first, then leftmost.
trait PairQueue<I> {
    /// A queue holding `pairs` of `(rank, start)`.
    fn from_pairs(pairs: Vec<(u32, I)>) -> Self;
    /// Adds a pair.
    fn push_pair(&mut self, rank: u32, start: I);
    /// Removes the lowest pair.
    fn pop_pair(&mut self) -> Option<(u32, I)>;
}

/// The radix queue, for pieces under 4 GiB: `(rank, start)` packed into one `u64` key.
impl PairQueue<u32> for MergeQueue {
    fn from_pairs(pairs: Vec<(u32, u32)>) -> Self {
        MergeQueue::from_keys(pairs.into_iter().map(|(rank, start)| rank_key(rank, start)).collect())
    }
    #[inline]
    fn push_pair(&mut self, rank: u32, start: u32) {
        self.push(rank_key(rank, start));
    }
    #[inline]
    fn pop_pair(&mut self) -> Option<(u32, u32)> {
        self.pop().map(|k| ((k >> 32) as u32, k as u32))
    }
}

/// `(rank, start)` as one key that orders like the pair: rank first, then position.
#[inline]
fn rank_key(rank: u32, start: u32) -> u64 {
    (u64::from(rank) << 32) | u64::from(start)
}

/// A binary heap, for the (theoretical) pieces of 4 GiB or more.
impl<I: Ord + Copy> PairQueue<I> for BinaryHeap<Reverse<(u32, I)>> {
    fn from_pairs(pairs: Vec<(u32, I)>) -> Self {
        // Heapify in O(n) rather than n pushes.
        BinaryHeap::from(pairs.into_iter().map(Reverse).collect::<Vec<_>>())
    }
    fn push_pair(&mut self, rank: u32, start: I) {
        self.push(Reverse((rank, start)));
    }
    fn pop_pair(&mut self) -> Option<(u32, I)> {
        self.pop().map(|Reverse(p)| p)
    }
}

/// A byte position in the heap merge: `u32` for pieces under 4 GiB, else `usize`.
trait Pos: Copy + Ord {
    /// `i`, which the caller guarantees fits.
    fn from_usize(i: usize) -> Self;
    /// The position as an index.
    fn to_usize(self) -> usize;
}

impl Pos for u32 {
    #[inline]
    fn from_usize(i: usize) -> Self {
        // Positions are at most the piece length, checked to fit before choosing u32.
        i as u32
    }
    #[inline]
    fn to_usize(self) -> usize {
        self as usize
    }
}

impl Pos for usize {
    #[inline]
    fn from_usize(i: usize) -> Self {
        i
    }
    #[inline]
    fn to_usize(self) -> usize {
        self
    }
}

// ---------------------------------------------------------------------------------------
// Registration
// ---------------------------------------------------------------------------------------

/// Models loaded by the constructors, shared while any function holds them.
static LOADED: LazyLock<Mutex<HashMap<String, Weak<Bpe>>>> = LazyLock::new(Default::default);

/// The model under `key`, loading it with `load` unless a live one is cached.
fn cached(key: String, load: impl FnOnce() -> Result<Bpe>) -> Result<Arc<Bpe>> {
    if let Some(bpe) = LOADED.lock().get(&key).and_then(Weak::upgrade) {
        return Ok(bpe);
    }
    // Loading takes a while; the lock is not held meanwhile (two racing loads both succeed).
    let bpe = Arc::new(load()?);
    let mut map = LOADED.lock();
    map.retain(|_, w| w.strong_count() > 0);
    map.insert(key, Arc::downgrade(&bpe));
    Ok(bpe)
}

/// A path as a cache key: canonical when it exists.
fn path_key(p: &str) -> String {
    std::fs::canonicalize(p).map(|c| c.display().to_string()).unwrap_or_else(|_| p.to_string())
}

/// Loads (or reuses) the model of a `.tiktoken` file.
pub fn load_tiktoken(path: &str, pattern_name: &str) -> Result<Arc<Bpe>> {
    let pattern = Pattern::from_name(pattern_name)?;
    cached(format!("tiktoken\0{}\0{}", path_key(path), pattern.name()), || Bpe::from_tiktoken_file(path, pattern))
}

/// Loads (or reuses) the model of GPT-2's `encoder.json` + `vocab.bpe`.
pub fn load_gpt2(encoder_json: &str, vocab_bpe: &str) -> Result<Arc<Bpe>> {
    let key = format!("gpt2\0{}\0{}", path_key(encoder_json), path_key(vocab_bpe));
    cached(key, || Bpe::from_gpt2_files(encoder_json, vocab_bpe))
}

/// Argument `i` of `args` as text (UTF-8 or UCS4).
fn text_arg(args: &[AnyView<'_>], i: usize) -> Result<String> {
    match args.get(i).map(|a| a.value()) {
        Some(Value::Str(s)) => Ok(s.to_string()),
        Some(Value::UStr(cs)) => Ok(cs.iter().collect()),
        Some(_) => Err(Error::type_mismatch("str", &args[i].type_name()).context(format!("argument {i}"))),
        None => Err(Error::new(ErrorKind::Arity, format!("missing argument {i}"))),
    }
}

/// The special tokens an `allowed_special` argument names: `None`, `"all"` or a list of str.
fn allowed_arg<'a>(bpe: &'a Bpe, arg: Option<&AnyView<'_>>) -> Result<Vec<(&'a str, u32)>> {
    let names: Vec<String> = match arg.map(|a| a.value()) {
        None | Some(Value::None) => return Ok(Vec::new()),
        Some(Value::Str("all")) => return Ok(bpe.specials.iter().map(|(s, id)| (s.as_str(), *id)).collect()),
        Some(Value::Str(s)) => vec![s.to_string()],
        Some(_) => arg
            .map(|a| a.get::<List>().and_then(|l| l.to_vec_of::<String>()))
            .unwrap_or_else(|| Ok(Vec::new()))
            .map_err(|e| e.context("argument 1 (allowed_special: None, \"all\" or a list of str)"))?,
    };
    names
        .iter()
        .map(|name| {
            bpe.specials
                .iter()
                .find(|(s, _)| s == name)
                .map(|(s, id)| (s.as_str(), *id))
                .ok_or_else(|| Error::value(format!("{name:?} is not a special token of {}", bpe.source)))
        })
        .collect()
}

/// The encoder function of a model: `(text, allowed_special=None) -> list[int]`.
fn encoder_func(name: &'static str, bpe: Arc<Bpe>) -> PackedFunc {
    PackedFunc::new(move |args: &[AnyView<'_>]| {
        let run = || -> Result<AnyValue> {
            if args.is_empty() || args.len() > 2 {
                return Err(Error::new(ErrorKind::Arity, format!("expected 1 or 2 arguments, got {}", args.len())));
            }
            let allowed = allowed_arg(&bpe, args.get(1))?;
            let ids = match args[0].value() {
                Value::Str(s) if allowed.is_empty() => bpe.encode_ordinary(s),
                Value::Str(s) => bpe.encode_allowed(s, &allowed),
                _ => bpe.encode_allowed(&text_arg(args, 0)?, &allowed),
            };
            let mut list = List::with_capacity(ids.len());
            for id in ids {
                list.push(id);
            }
            Ok(list.into_any())
        };
        run().map_err(|e| e.context(name))
    })
}

/// The decoder function of a model: `(ids: list[int]) -> str`.
fn decoder_func(bpe: Arc<Bpe>) -> PackedFunc {
    PackedFunc::new(move |args: &[AnyView<'_>]| {
        let run = || -> Result<AnyValue> {
            if args.len() != 1 {
                return Err(Error::new(ErrorKind::Arity, format!("expected 1 argument, got {}", args.len())));
            }
            let list = args[0].get::<List>().map_err(|e| e.context("argument 0"))?;
            let ids = list.with_items(|xs| {
                xs.iter()
                    .enumerate()
                    .map(|(i, x)| {
                        x.value().as_int().and_then(|v| u32::try_from(v).ok()).ok_or_else(|| {
                            Error::value(format!("list item {i}: expected a token id (int in 0..2^32), got {x}"))
                        })
                    })
                    .collect::<Result<Vec<u32>>>()
            })?;
            Ok(AnyValue::from(bpe.decode(&ids)?))
        };
        run().map_err(|e| e.context("tok.bpe.decode"))
    })
}

/// Registers the `tok.bpe.*` constructors.
pub fn register(reg: &Registry) -> Result<()> {
    reg.register_typed(
        "tok.bpe.from_tiktoken",
        "Loads a .tiktoken rank file with pattern r50k|cl100k; returns (text, allowed_special=None) -> list[int].",
        |path: String, pattern: String| -> Result<PackedFunc> {
            Ok(encoder_func("tok.bpe.encode", load_tiktoken(&path, &pattern)?))
        },
        false,
    )?;
    reg.register_typed(
        "tok.bpe.from_gpt2",
        "Loads GPT-2's encoder.json and vocab.bpe; returns (text, allowed_special=None) -> list[int].",
        |encoder_json: String, vocab_bpe: String| -> Result<PackedFunc> {
            Ok(encoder_func("tok.bpe.encode", load_gpt2(&encoder_json, &vocab_bpe)?))
        },
        false,
    )?;
    reg.register_typed(
        "tok.bpe.decode.new",
        "Decoder (ids -> str, U+FFFD for bad UTF-8) from (\"tiktoken\", path, pattern) or (\"gpt2\", encoder_json, vocab_bpe).",
        |format: String, a: String, b: String| -> Result<PackedFunc> {
            let bpe = match format.as_str() {
                "tiktoken" => load_tiktoken(&a, &b)?,
                "gpt2" => load_gpt2(&a, &b)?,
                _ => return Err(Error::value(format!("unknown BPE format {format:?} (expected \"tiktoken\" or \"gpt2\")"))),
            };
            Ok(decoder_func(bpe))
        },
        false,
    )
}
