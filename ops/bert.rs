//! BERT tokenization: Hugging Face's `BertNormalizer`, `BertPreTokenizer`, WordPiece and the
//! `[CLS] A [SEP] (B [SEP])` template, fused into one pass over the text.
//!
//! Semantics are HF tokenizers 0.23's, step for step:
//! 1. Added tokens (`[CLS]`, `[MASK]`, ...) are cut out of the raw text first,
//!    leftmost-longest, and become their own ids; the pieces between are tokenized alone.
//! 2. `clean_text` drops U+0000, U+FFFD and "other" chars (Cc, Cf, Co in the
//!    `unicode_categories` tables) except `\t \n \r`, then maps whitespace to `' '`;
//!    `handle_chinese_chars` puts spaces around CJK ideographs; `strip_accents`
//!    (default: follows `lowercase`) is NFD then dropping Mn; `lowercase` is
//!    `char::to_lowercase`, char by char. In that order.
//! 3. The pre-tokenizer splits on whitespace (removed) and isolates every punctuation
//!    char (ASCII punctuation or a Unicode P* category).
//! 4. WordPiece per word (see `wordpiece.rs`).
//!
//! Speed comes from doing 2 and 3 per char with a precomputed table: each char maps to
//! its normalized output already classified for the pre-tokenizer (word char,
//! punctuation, space, dropped). Words are built in one reusable buffer and handed to
//! WordPiece as they end; nothing is allocated per word. ASCII has its own 128-entry
//! table; other chars use 256-char blocks built on first use.
//!
//! Per-char mapping is exact except where NFD reorders combining marks across chars.
//! Marks that are Mn are dropped anyway, so order only matters for a kept mark with a
//! nonzero combining class; a char whose NFD yields one is flagged, and a text piece
//! containing one is redone on the exact (string-level) path.
//!
//! Unicode versions: HF's NFD uses Unicode 9.0 data (`unicode-normalization-alignments`
//! 0.1.12). `unicode-normalization` here is newer, so the chars whose decomposition or
//! combining class it knows but Unicode 9.0 did not are listed below and treated as
//! Unicode 9.0 did (no decomposition, class 0). `tests/parity_bert.rs` checks every
//! char against HF.

use super::vocab::{Vocab, check_arity, with_text};
use super::wordpiece::{WordPiece, ids_to_list};
use crate::any::{AnyValue, AnyView};
use crate::container::{Dict, List};
use crate::error::{Error, ErrorKind, Result, ResultExt};
use crate::func::{PackedFunc, Registry};
use crate::string::Str;
use std::cell::RefCell;
use std::path::Path;
use std::sync::{Arc, OnceLock};
use unicode_categories::UnicodeCategories;
use unicode_normalization::char::{canonical_combining_class, decompose_canonical};

// ---------------------------------------------------------------------------------------------
// Char classes, as HF defines them
// ---------------------------------------------------------------------------------------------

/// HF's `is_whitespace` for `clean_text`: `\t \n \r` or Unicode White_Space.
fn is_bert_whitespace(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r') || c.is_whitespace()
}

/// HF's `is_control`: Cc, Cf or Co (per `unicode_categories`), except `\t \n \r`.
fn is_bert_control(c: char) -> bool {
    !matches!(c, '\t' | '\n' | '\r') && c.is_other()
}

/// HF's `is_chinese_char`: the CJK Unified Ideographs blocks and their extensions.
pub fn is_chinese_char(c: char) -> bool {
    matches!(c as u32,
        0x4E00..=0x9FFF | 0x3400..=0x4DBF | 0x20000..=0x2A6DF | 0x2A700..=0x2B73F |
        0x2B740..=0x2B81F | 0x2B920..=0x2CEAF | 0xF900..=0xFAFF | 0x2F800..=0x2FA1F)
}

/// HF's `is_bert_punc`: ASCII punctuation or any Unicode punctuation category.
pub fn is_bert_punctuation(c: char) -> bool {
    // Every ASCII char in a Unicode P* category is ASCII punctuation, so ASCII needs no table search.
    if c.is_ascii() { c.is_ascii_punctuation() } else { c.is_punctuation() }
}

/// Code points whose canonical decomposition or combining class `unicode-normalization`
/// knows but Unicode 9.0 (HF's NFD tables) did not; derived by comparing the two crates'
/// `decompose_canonical` and `canonical_combining_class` over every char.
#[rustfmt::skip]
const NEWER_THAN_UNICODE_9: [(u32, u32); 63] = [
    (0x5C8, 0x5C9), (0x7FD, 0x7FD), (0x897, 0x89F), (0x8CA, 0x8D3), (0x9FE, 0x9FE), (0xC3C, 0xC3C),
    (0xD3B, 0xD3C), (0xEBA, 0xEBA), (0x1715, 0x1715), (0x1ABF, 0x1AF0), (0x1DF6, 0x1DFA), (0xA82C, 0xA82C),
    (0x105C9, 0x105C9), (0x105E4, 0x105E4), (0x10D24, 0x10D27), (0x10D69, 0x10D6D), (0x10EAB, 0x10EAC),
    (0x10ECB, 0x10ECF), (0x10EF0, 0x10EFB), (0x10EFD, 0x10EFF), (0x10F46, 0x10F50), (0x10F82, 0x10F85),
    (0x11070, 0x11070), (0x1133B, 0x1133B), (0x11383, 0x11383), (0x11385, 0x11385), (0x1138E, 0x1138E),
    (0x11391, 0x11391), (0x113C5, 0x113C5), (0x113C7, 0x113C8), (0x113CE, 0x113D0), (0x1145E, 0x1145E),
    (0x11839, 0x1183A), (0x11938, 0x11938), (0x1193D, 0x1193E), (0x11943, 0x11943), (0x119E0, 0x119E0),
    (0x11A34, 0x11A34), (0x11A47, 0x11A47), (0x11A99, 0x11A99), (0x11D42, 0x11D42), (0x11D44, 0x11D45),
    (0x11D97, 0x11D97), (0x11F41, 0x11F42), (0x16121, 0x16128), (0x1612F, 0x1612F), (0x16D68, 0x16D6A),
    (0x16FF0, 0x16FF1), (0x1D127, 0x1D128), (0x1D250, 0x1D252), (0x1D25B, 0x1D25C), (0x1D25F, 0x1D25F),
    (0x1D280, 0x1D281), (0x1E08F, 0x1E08F), (0x1E130, 0x1E136), (0x1E2AE, 0x1E2AE), (0x1E2EC, 0x1E2EF),
    (0x1E4EC, 0x1E4EF), (0x1E5EE, 0x1E5EF), (0x1E6E3, 0x1E6E3), (0x1E6E6, 0x1E6E6), (0x1E6EE, 0x1E6EF),
    (0x1E6F5, 0x1E6F5),
];

fn newer_than_unicode_9(c: char) -> bool {
    let u = c as u32;
    u >= 0x5C8
        && NEWER_THAN_UNICODE_9
            .binary_search_by(|&(lo, hi)| {
                if hi < u {
                    std::cmp::Ordering::Less
                } else if lo > u {
                    std::cmp::Ordering::Greater
                } else {
                    std::cmp::Ordering::Equal
                }
            })
            .is_ok()
}

/// Canonical combining class as Unicode 9.0 had it.
fn ccc9(c: char) -> u8 {
    if c.is_ascii() || newer_than_unicode_9(c) { 0 } else { canonical_combining_class(c) }
}

/// Full canonical decomposition as Unicode 9.0 had it.
fn decompose9(c: char, out: &mut Vec<char>) {
    if c.is_ascii() || newer_than_unicode_9(c) {
        out.push(c);
    } else {
        decompose_canonical(c, |d| out.push(d));
    }
}

/// NFD of `chars` with Unicode 9.0 data: full decomposition, then each run of
/// non-starters stably sorted by combining class.
fn nfd9(chars: &[char]) -> Vec<char> {
    let mut out = Vec::with_capacity(chars.len() + chars.len() / 4);
    for &c in chars {
        decompose9(c, &mut out);
    }
    let mut i = 0;
    while i < out.len() {
        if ccc9(out[i]) == 0 {
            i += 1;
            continue;
        }
        let start = i;
        while i < out.len() && ccc9(out[i]) != 0 {
            i += 1;
        }
        out[start..i].sort_by_key(|&c| ccc9(c));
    }
    out
}

// ---------------------------------------------------------------------------------------------
// The normalizer's per-char table
// ---------------------------------------------------------------------------------------------

// An entry is a tag in the top 3 bits and a payload: a char, or a pool range.
const TAG_SHIFT: u32 = 29;
const PAYLOAD: u32 = (1 << TAG_SHIFT) - 1;
/// Nothing comes out.
const DROP: u32 = 0;
/// One char that belongs to a word.
const WORD: u32 = 1;
/// One punctuation char: a word of its own.
const PUNCT: u32 = 2;
/// One whitespace char: ends the word (payload: the char, for `normalize`).
const SPACE: u32 = 3;
/// A CJK char padded with spaces: `' ' x ' '`, x a word of its own.
const PADDED: u32 = 4;
/// Several chars: a pool range (start << 8 | len); pool items are WORD/PUNCT/SPACE entries.
const MULTI: u32 = 5;
/// The char needs the exact, string-level path (see the module docs).
const SLOW: u32 = 6;

#[inline(always)]
fn entry(tag: u32, payload: u32) -> u32 {
    (tag << TAG_SHIFT) | payload
}

#[inline(always)]
fn tag_of(e: u32) -> u32 {
    e >> TAG_SHIFT
}

#[inline(always)]
fn char_of(e: u32) -> char {
    // Payloads of char entries come from chars, so this never falls back.
    char::from_u32(e & PAYLOAD).unwrap_or('\u{FFFD}')
}

/// The BERT normalizer's settings, with `strip_accents` already resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BertNormalizerConfig {
    /// Drop control chars, map whitespace to `' '`.
    pub clean_text: bool,
    /// Put spaces around CJK ideographs.
    pub handle_chinese_chars: bool,
    /// NFD, then drop nonspacing marks.
    pub strip_accents: bool,
    /// Lowercase char by char.
    pub lowercase: bool,
}

impl BertNormalizerConfig {
    fn index(self) -> usize {
        usize::from(self.clean_text)
            | usize::from(self.handle_chinese_chars) << 1
            | usize::from(self.strip_accents) << 2
            | usize::from(self.lowercase) << 3
    }

    /// The normalized output of the single char `c`, and whether it must take the exact path.
    fn char_output(self, c: char, out: &mut Vec<char>) -> (bool, bool) {
        out.clear();
        if self.clean_text && (c == '\0' || c == '\u{FFFD}' || is_bert_control(c)) {
            return (false, false);
        }
        let c = if self.clean_text && is_bert_whitespace(c) { ' ' } else { c };
        let padded = self.handle_chinese_chars && is_chinese_char(c);
        let mut slow = false;
        let mut stripped = Vec::with_capacity(4);
        if self.strip_accents {
            for d in nfd9(&[c]) {
                if d.is_mark_nonspacing() {
                    continue;
                }
                slow |= ccc9(d) != 0;
                stripped.push(d);
            }
        } else {
            stripped.push(c);
        }
        for d in stripped {
            if self.lowercase {
                out.extend(d.to_lowercase());
            } else {
                out.push(d);
            }
        }
        (padded, slow)
    }
}

/// The pre-tokenizer's class of a normalized char.
fn class_of(c: char) -> u32 {
    if c.is_whitespace() {
        SPACE
    } else if is_bert_punctuation(c) {
        PUNCT
    } else {
        WORD
    }
}

/// 256 consecutive chars' entries, and the pool their MULTI entries point into.
struct Block {
    entries: [u32; 256],
    pool: Vec<u32>,
}

/// All chars' entries for one configuration: ASCII up front, the rest in lazily built blocks.
struct CharTable {
    config: BertNormalizerConfig,
    ascii: [u32; 128],
    blocks: Box<[OnceLock<Box<Block>>]>,
}

/// One table per configuration, shared by every tokenizer that uses it.
static TABLES: [OnceLock<CharTable>; 16] = [const { OnceLock::new() }; 16];

impl CharTable {
    fn get(config: BertNormalizerConfig) -> &'static CharTable {
        TABLES[config.index()].get_or_init(|| {
            let first = build_block(config, 0);
            let mut ascii = [0u32; 128];
            ascii.copy_from_slice(&first.entries[..128]);
            let blocks: Box<[OnceLock<Box<Block>>]> =
                (0..=(char::MAX as usize >> 8)).map(|_| OnceLock::new()).collect();
            // Block 0 is built already; keep it rather than building it twice.
            let _ = blocks[0].set(first);
            CharTable { config, ascii, blocks }
        })
    }

    /// The block holding `c`, built on first use.
    #[inline]
    fn block(&self, c: char) -> &Block {
        let b = c as usize >> 8;
        self.blocks[b].get_or_init(|| build_block(self.config, b))
    }
}

fn build_block(config: BertNormalizerConfig, b: usize) -> Box<Block> {
    let mut block = Box::new(Block { entries: [entry(DROP, 0); 256], pool: Vec::new() });
    let mut out = Vec::with_capacity(8);
    for low in 0..256 {
        // Surrogates are not chars and never occur in a str: they keep the DROP entry.
        let Some(c) = char::from_u32((b << 8 | low) as u32) else { continue };
        let (padded, slow) = config.char_output(c, &mut out);
        block.entries[low] = if slow {
            entry(SLOW, 0)
        } else {
            match (padded, out.as_slice()) {
                (false, []) => entry(DROP, 0),
                (false, &[x]) => entry(class_of(x), x as u32),
                (true, &[x]) if class_of(x) != SPACE => entry(PADDED, x as u32),
                _ => {
                    let start = block.pool.len();
                    if padded {
                        block.pool.push(entry(SPACE, ' ' as u32));
                    }
                    block.pool.extend(out.iter().map(|&x| entry(class_of(x), x as u32)));
                    if padded {
                        block.pool.push(entry(SPACE, ' ' as u32));
                    }
                    let len = block.pool.len() - start;
                    // At most 256 chars with a handful of outputs each: the range always fits.
                    entry(MULTI, ((start as u32) << 8) | len as u32)
                }
            }
        };
    }
    block
}

// ---------------------------------------------------------------------------------------------
// Normalizer and pre-tokenizer
// ---------------------------------------------------------------------------------------------

/// Hugging Face's `BertNormalizer`.
#[derive(Clone, Copy)]
pub struct BertNormalizer {
    table: &'static CharTable,
}

impl std::fmt::Debug for BertNormalizer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "BertNormalizer({:?})", self.table.config)
    }
}

impl Default for BertNormalizer {
    /// HF's defaults (and bert-base-uncased's): clean, CJK spacing, lowercase, accents stripped.
    fn default() -> Self {
        Self::new(true, true, None, true)
    }
}

/// Why the per-char path gave up: a char needs the exact path.
struct NeedsExact;

impl BertNormalizer {
    /// A normalizer with HF's four settings; `strip_accents: None` follows `lowercase`.
    pub fn new(clean_text: bool, handle_chinese_chars: bool, strip_accents: Option<bool>, lowercase: bool) -> Self {
        let config = BertNormalizerConfig {
            clean_text,
            handle_chinese_chars,
            strip_accents: strip_accents.unwrap_or(lowercase),
            lowercase,
        };
        BertNormalizer { table: CharTable::get(config) }
    }

    /// The resolved settings.
    pub fn config(&self) -> BertNormalizerConfig {
        self.table.config
    }

    /// The normalized text.
    pub fn normalize(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len() + text.len() / 8);
        self.normalize_into(text, &mut out);
        out
    }

    /// Appends the normalized text to `out`.
    pub fn normalize_into(&self, text: &str, out: &mut String) {
        let mark = out.len();
        if self.normalize_fast(text, out).is_err() {
            out.truncate(mark);
            self.normalize_exact_into(text, out);
        }
    }

    fn normalize_fast(&self, text: &str, out: &mut String) -> std::result::Result<(), NeedsExact> {
        let t = self.table;
        for c in text.chars() {
            let (e, block) = if c.is_ascii() { (t.ascii[c as usize], None) } else { self.lookup(c) };
            match tag_of(e) {
                DROP => {}
                WORD | PUNCT | SPACE => out.push(char_of(e)),
                PADDED => {
                    out.push(' ');
                    out.push(char_of(e));
                    out.push(' ');
                }
                MULTI => {
                    for &item in pool_items(block, e) {
                        out.push(char_of(item));
                    }
                }
                _ => return Err(NeedsExact),
            }
        }
        Ok(())
    }

    #[inline]
    fn lookup(&self, c: char) -> (u32, Option<&'static Block>) {
        let block = self.table.block(c);
        (block.entries[c as usize & 0xFF], Some(block))
    }

    /// The normalized text by the string-level reference path (HF's steps one after another).
    pub fn normalize_exact(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        self.normalize_exact_into(text, &mut out);
        out
    }

    fn normalize_exact_into(&self, text: &str, out: &mut String) {
        let cfg = self.table.config;
        let mut chars: Vec<char> = Vec::with_capacity(text.len());
        for c in text.chars() {
            if cfg.clean_text && (c == '\0' || c == '\u{FFFD}' || is_bert_control(c)) {
                continue;
            }
            let c = if cfg.clean_text && is_bert_whitespace(c) { ' ' } else { c };
            if cfg.handle_chinese_chars && is_chinese_char(c) {
                chars.extend([' ', c, ' ']);
            } else {
                chars.push(c);
            }
        }
        if cfg.strip_accents {
            chars = nfd9(&chars);
            chars.retain(|c| !c.is_mark_nonspacing());
        }
        for c in chars {
            if cfg.lowercase {
                out.extend(c.to_lowercase());
            } else {
                out.push(c);
            }
        }
    }
}

/// The pool items of a MULTI entry.
#[inline]
fn pool_items(block: Option<&Block>, e: u32) -> &[u32] {
    let start = ((e & PAYLOAD) >> 8) as usize;
    let len = (e & 0xFF) as usize;
    block.and_then(|b| b.pool.get(start..start + len)).unwrap_or(&[])
}

/// Calls `f` on each word of HF's `BertPreTokenizer`: split on whitespace, punctuation isolated.
pub fn for_each_bert_word<'a>(text: &'a str, mut f: impl FnMut(&'a str)) {
    let mut start = 0;
    for (i, c) in text.char_indices() {
        let ws = c.is_whitespace();
        if ws || is_bert_punctuation(c) {
            if start < i {
                f(&text[start..i]);
            }
            if !ws {
                f(&text[i..i + c.len_utf8()]);
            }
            start = i + c.len_utf8();
        }
    }
    if start < text.len() {
        f(&text[start..]);
    }
}

/// HF's `BertPreTokenizer` on raw text: the words, as slices of `text`.
pub fn bert_pre_tokenize(text: &str) -> Vec<&str> {
    let mut words = Vec::new();
    for_each_bert_word(text, |w| words.push(w));
    words
}

// ---------------------------------------------------------------------------------------------
// The tokenizer
// ---------------------------------------------------------------------------------------------

/// Tokens matched in the raw text before normalization (HF's non-normalized added tokens).
#[derive(Clone, Debug, Default)]
struct AddedTokens {
    tokens: Vec<(Box<str>, u32)>,
    /// The distinct first bytes of the tokens, to find candidates with `memchr`.
    first_bytes: Vec<u8>,
}

impl AddedTokens {
    fn new(tokens: Vec<(Box<str>, u32)>) -> Self {
        let mut first_bytes: Vec<u8> = tokens.iter().filter_map(|(t, _)| t.as_bytes().first().copied()).collect();
        first_bytes.sort_unstable();
        first_bytes.dedup();
        let tokens = tokens.into_iter().filter(|(t, _)| !t.is_empty()).collect();
        AddedTokens { tokens, first_bytes }
    }

    /// The next candidate position at or after `from`.
    fn candidate(&self, text: &[u8], from: usize) -> Option<usize> {
        let hay = text.get(from..)?;
        let found = match *self.first_bytes.as_slice() {
            [] => None,
            [a] => memchr::memchr(a, hay),
            [a, b] => memchr::memchr2(a, b, hay),
            [a, b, c] => memchr::memchr3(a, b, c, hay),
            ref many => hay.iter().position(|x| many.contains(x)),
        };
        found.map(|p| from + p)
    }

    /// The leftmost-longest match at or after `from`: `(start, end, id)`.
    fn find(&self, text: &str, mut from: usize) -> Option<(usize, usize, u32)> {
        while let Some(p) = self.candidate(text.as_bytes(), from) {
            let rest = &text.as_bytes()[p..];
            let best = self
                .tokens
                .iter()
                .filter(|(t, _)| rest.starts_with(t.as_bytes()))
                .max_by_key(|(t, _)| t.len())
                .map(|(t, id)| (p, p + t.len(), *id));
            if best.is_some() {
                return best;
            }
            from = p + 1;
        }
        None
    }
}

thread_local! {
    /// The word buffer, reused across calls on this thread.
    static WORD_BUF: RefCell<String> = RefCell::new(String::with_capacity(128));
}

/// A BERT tokenizer: normalizer, pre-tokenizer, WordPiece and the `[CLS]`/`[SEP]` template.
#[derive(Clone, Debug)]
pub struct BertTokenizer {
    normalizer: BertNormalizer,
    wordpiece: WordPiece,
    cls_id: u32,
    sep_id: u32,
    added: AddedTokens,
}

impl BertTokenizer {
    /// bert-base-uncased's settings over a `vocab.txt`.
    pub fn from_vocab_file(path: impl AsRef<Path>) -> Result<Self> {
        Self::new(Arc::new(Vocab::load(path)?), BertNormalizer::default())
    }

    /// BERT's model (unk `[UNK]`, `##`, 100 chars) and template over `vocab`, with `normalizer`.
    ///
    /// BERT's five special tokens that are in the vocabulary are matched in raw text, as HF does.
    pub fn new(vocab: Arc<Vocab>, normalizer: BertNormalizer) -> Result<Self> {
        let cls_id = vocab.require("[CLS]", "cls token")?;
        let sep_id = vocab.require("[SEP]", "sep token")?;
        let added = super::wordpiece::BERT_SPECIAL_TOKENS
            .iter()
            .filter_map(|t| vocab.get(t).map(|id| (Box::<str>::from(*t), id)))
            .collect();
        let wordpiece = WordPiece::bert(vocab)?;
        Ok(BertTokenizer { normalizer, wordpiece, cls_id, sep_id, added: AddedTokens::new(added) })
    }

    /// A tokenizer from a Hugging Face `tokenizer.json` with a BERT pipeline.
    ///
    /// Truncation, padding and the decoder in the file are not applied: encodings are raw,
    /// to be truncated and padded by `seq.*` ops or collation.
    pub fn from_tokenizer_json(path: impl AsRef<Path>) -> Result<Self> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path)
            .map_err(|e| Error::new(ErrorKind::Io, format!("cannot read {}: {e}", path.display())))?;
        Self::from_tokenizer_json_str(&text).with_context(|| path.display().to_string())
    }

    /// Like [`from_tokenizer_json`](Self::from_tokenizer_json), from the file's text.
    pub fn from_tokenizer_json_str(text: &str) -> Result<Self> {
        let json: serde_json::Value =
            serde_json::from_str(text).map_err(|e| Error::new(ErrorKind::Parse, format!("invalid JSON: {e}")))?;
        let n = &json["normalizer"];
        expect_type(n, "BertNormalizer", "normalizer")?;
        let flag = |key: &str, default: bool| n[key].as_bool().unwrap_or(default);
        let normalizer = BertNormalizer::new(
            flag("clean_text", true),
            flag("handle_chinese_chars", true),
            n["strip_accents"].as_bool(),
            flag("lowercase", true),
        );
        expect_type(&json["pre_tokenizer"], "BertPreTokenizer", "pre_tokenizer")?;
        let m = &json["model"];
        expect_type(m, "WordPiece", "model")?;
        let map = m["vocab"].as_object().ok_or_else(|| Error::value("model.vocab must be an object"))?;
        let mut pairs = Vec::with_capacity(map.len());
        for (token, id) in map {
            let id = id.as_u64().and_then(|i| u32::try_from(i).ok());
            pairs.push((token.as_str(), id.ok_or_else(|| Error::value(format!("model.vocab[{token:?}]: bad id")))?));
        }
        let vocab = Arc::new(Vocab::from_pairs(pairs).with_context(|| "model.vocab")?);
        let unk = m["unk_token"].as_str().unwrap_or("[UNK]");
        let prefix = m["continuing_subword_prefix"].as_str().unwrap_or("##");
        let max_chars = m["max_input_chars_per_word"].as_u64().unwrap_or(100) as usize;
        let wordpiece = WordPiece::new(vocab.clone(), unk, prefix, max_chars).with_context(|| "model")?;
        let mut added = Vec::new();
        for (i, t) in json["added_tokens"].as_array().map(Vec::as_slice).unwrap_or(&[]).iter().enumerate() {
            let plain = ["single_word", "lstrip", "rstrip", "normalized"].iter().all(|k| t[*k].as_bool() != Some(true));
            let (Some(content), Some(id)) = (t["content"].as_str(), t["id"].as_u64()) else {
                return Err(Error::value(format!("added_tokens[{i}]: needs content and id")));
            };
            if !plain {
                return Err(Error::value(format!(
                    "added_tokens[{i}] ({content:?}): single_word, lstrip, rstrip and normalized are not supported"
                )));
            }
            let id = u32::try_from(id).map_err(|_| Error::value(format!("added_tokens[{i}]: bad id")))?;
            added.push((Box::<str>::from(content), id));
        }
        let (cls_id, sep_id) = template_ids(&json["post_processor"])?;
        Ok(BertTokenizer { normalizer, wordpiece, cls_id, sep_id, added: AddedTokens::new(added) })
    }

    /// The normalizer.
    pub fn normalizer(&self) -> &BertNormalizer {
        &self.normalizer
    }

    /// The WordPiece model.
    pub fn wordpiece(&self) -> &WordPiece {
        &self.wordpiece
    }

    /// The `[CLS]` id.
    pub fn cls_id(&self) -> u32 {
        self.cls_id
    }

    /// The `[SEP]` id.
    pub fn sep_id(&self) -> u32 {
        self.sep_id
    }

    /// The ids of `text`, with `[CLS]` and `[SEP]` around them if `add_special_tokens`.
    pub fn encode(&self, text: &str, add_special_tokens: bool) -> Vec<u32> {
        let mut out = Vec::with_capacity(text.len() / 4 + 2);
        if add_special_tokens {
            out.push(self.cls_id);
        }
        self.encode_into(text, &mut out);
        if add_special_tokens {
            out.push(self.sep_id);
        }
        out
    }

    /// A pair as `[CLS] A [SEP] B [SEP]` with token type ids 0 for `[CLS] A [SEP]`, 1 after.
    pub fn encode_pair(&self, a: &str, b: &str, add_special_tokens: bool) -> (Vec<u32>, Vec<u32>) {
        let mut ids = Vec::with_capacity((a.len() + b.len()) / 4 + 3);
        if add_special_tokens {
            ids.push(self.cls_id);
        }
        self.encode_into(a, &mut ids);
        if add_special_tokens {
            ids.push(self.sep_id);
        }
        let first = ids.len();
        self.encode_into(b, &mut ids);
        if add_special_tokens {
            ids.push(self.sep_id);
        }
        let mut types = vec![0; first];
        types.resize(ids.len(), 1);
        (ids, types)
    }

    /// Appends the ids of `text` (no special tokens around it) to `out`.
    pub fn encode_into(&self, text: &str, out: &mut Vec<u32>) {
        WORD_BUF.with(|w| match w.try_borrow_mut() {
            Ok(mut word) => self.encode_with(text, out, &mut word),
            // Only reachable if a caller re-entered from inside a tokenizer call.
            Err(_) => self.encode_with(text, out, &mut String::new()),
        })
    }

    fn encode_with(&self, text: &str, out: &mut Vec<u32>, word: &mut String) {
        let mut from = 0;
        while let Some((start, end, id)) = self.added.find(text, from) {
            self.encode_piece(&text[from..start], out, word);
            out.push(id);
            from = end;
        }
        self.encode_piece(&text[from..], out, word);
    }

    /// One piece between added tokens: the fused fast path, or the exact path if a char needs it.
    fn encode_piece(&self, piece: &str, out: &mut Vec<u32>, word: &mut String) {
        let mark = out.len();
        word.clear();
        if self.encode_fast(piece, out, word).is_err() {
            out.truncate(mark);
            let normalized = self.normalizer.normalize_exact(piece);
            for_each_bert_word(&normalized, |w| self.wordpiece.tokenize_into(w, out));
        }
    }

    #[inline]
    fn encode_fast(&self, piece: &str, out: &mut Vec<u32>, word: &mut String) -> std::result::Result<(), NeedsExact> {
        let table = self.normalizer.table;
        let wp = &self.wordpiece;
        let bytes = piece.as_bytes();
        // Chars in `word`, for WordPiece's length cap.
        let mut chars = 0usize;
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            if b < 0x80 {
                i += 1;
                let e = table.ascii[b as usize];
                match tag_of(e) {
                    WORD => {
                        word.push(char_of(e));
                        chars += 1;
                    }
                    DROP => {}
                    // SPACE or PUNCT: ASCII never maps to anything else.
                    t => {
                        flush(wp, word, &mut chars, out);
                        if t == PUNCT {
                            single(wp, char_of(e), out);
                        }
                    }
                }
                continue;
            }
            let Some(c) = piece.get(i..).and_then(|s| s.chars().next()) else { break };
            i += c.len_utf8();
            let block = table.block(c);
            let e = block.entries[c as usize & 0xFF];
            match tag_of(e) {
                WORD => {
                    word.push(char_of(e));
                    chars += 1;
                }
                DROP => {}
                PUNCT | PADDED => {
                    flush(wp, word, &mut chars, out);
                    single(wp, char_of(e), out);
                }
                SPACE => flush(wp, word, &mut chars, out),
                MULTI => {
                    for &item in pool_items(Some(block), e) {
                        match tag_of(item) {
                            WORD => {
                                word.push(char_of(item));
                                chars += 1;
                            }
                            PUNCT => {
                                flush(wp, word, &mut chars, out);
                                single(wp, char_of(item), out);
                            }
                            _ => flush(wp, word, &mut chars, out),
                        }
                    }
                }
                _ => return Err(NeedsExact),
            }
        }
        flush(wp, word, &mut chars, out);
        Ok(())
    }
}

/// Ends the current word: its pieces go to `out`, the buffer is emptied.
#[inline(always)]
fn flush(wp: &WordPiece, word: &mut String, chars: &mut usize, out: &mut Vec<u32>) {
    if !word.is_empty() {
        wp.tokenize_counted(word, *chars, out);
        word.clear();
        *chars = 0;
    }
}

/// A one-char word (punctuation, a CJK ideograph).
#[inline(always)]
fn single(wp: &WordPiece, c: char, out: &mut Vec<u32>) {
    let mut buf = [0u8; 4];
    wp.tokenize_counted(c.encode_utf8(&mut buf), 1, out);
}

fn expect_type(v: &serde_json::Value, want: &str, what: &str) -> Result<()> {
    match v["type"].as_str() {
        Some(t) if t == want => Ok(()),
        other => Err(Error::value(format!("{what} must be {want}, found {}", other.unwrap_or("none")))),
    }
}

/// The `[CLS]` and `[SEP]` ids of a BERT post-processor (`TemplateProcessing` or `BertProcessing`).
fn template_ids(pp: &serde_json::Value) -> Result<(u32, u32)> {
    let id_of = |v: &serde_json::Value| v.as_u64().and_then(|i| u32::try_from(i).ok());
    let bad = || Error::value("post_processor must be BERT's [CLS] A [SEP] (B [SEP]) template");
    match pp["type"].as_str() {
        Some("BertProcessing") => Ok((id_of(&pp["cls"][1]).ok_or_else(bad)?, id_of(&pp["sep"][1]).ok_or_else(bad)?)),
        Some("TemplateProcessing") => {
            let special = |piece: &serde_json::Value| piece["SpecialToken"]["id"].as_str().map(str::to_owned);
            let single = pp["single"].as_array().ok_or_else(bad)?;
            let pair = pp["pair"].as_array().ok_or_else(bad)?;
            let (cls, sep) = match single.as_slice() {
                [a, s, b] if s["Sequence"]["id"] == "A" => (special(a).ok_or_else(bad)?, special(b).ok_or_else(bad)?),
                _ => return Err(bad()),
            };
            // The pair template must be [CLS] A [SEP] B [SEP] with B's part typed 1.
            let ok = matches!(pair.as_slice(), [c, a, s1, b, s2]
                if special(c).as_deref() == Some(cls.as_str()) && a["Sequence"]["id"] == "A"
                && special(s1).as_deref() == Some(sep.as_str()) && b["Sequence"]["id"] == "B"
                && b["Sequence"]["type_id"] == 1 && special(s2).as_deref() == Some(sep.as_str())
                && s2["SpecialToken"]["type_id"] == 1);
            if !ok {
                return Err(bad());
            }
            let ids = |name: &str| -> Result<u32> {
                match pp["special_tokens"][name]["ids"].as_array().map(Vec::as_slice) {
                    Some([id]) => id_of(id).ok_or_else(bad),
                    _ => Err(bad()),
                }
            };
            Ok((ids(&cls)?, ids(&sep)?))
        }
        _ => Err(bad()),
    }
}

// ---------------------------------------------------------------------------------------------
// Registration
// ---------------------------------------------------------------------------------------------

/// `tok.bert`'s call: a text (or a list of texts) and an optional add_special_tokens flag.
fn bert_call(tok: &BertTokenizer, args: &[AnyView<'_>]) -> Result<AnyValue> {
    check_arity(args, 1, 2)?;
    let add = match args.get(1) {
        Some(v) => v.get::<bool>().with_context(|| "argument 1")?,
        None => true,
    };
    if let Some(list) = <List as crate::FromAny>::from_view(&args[0]) {
        return list.with_items(|xs| {
            let mut rows = List::with_capacity(xs.len());
            for (i, x) in xs.iter().enumerate() {
                let ids = with_text(&x.view(), |t| tok.encode(t, add))
                    .with_context(|| format!("list item {i}"))
                    .with_context(|| "argument 0")?;
                rows.push(ids_to_list(&ids));
            }
            Ok(rows.into_any())
        });
    }
    let ids = with_text(&args[0], |t| tok.encode(t, add)).with_context(|| "argument 0")?;
    Ok(ids_to_list(&ids).into_any())
}

fn bert_func(tok: BertTokenizer) -> PackedFunc {
    PackedFunc::new(move |args| bert_call(&tok, args).with_context(|| "tok.bert"))
}

fn pair_dict(ids: &[u32], types: &[u32]) -> Dict {
    let mut d = Dict::new();
    d.set("input_ids", ids_to_list(ids));
    d.set("token_type_ids", ids_to_list(types));
    d
}

/// Registers `text.bert_normalize(.new)`, `text.bert_pre_tokenize`, `tok.bert.new`,
/// `tok.bert.from_file` and `tok.bert.pair.new`.
pub fn register(reg: &Registry) -> Result<()> {
    reg.register_typed(
        "text.bert_normalize",
        "HF BertNormalizer with bert-base-uncased settings (clean, CJK spacing, strip accents, lowercase).",
        |s: Str| BertNormalizer::default().normalize(&s),
        false,
    )?;
    reg.register_typed(
        "text.bert_normalize.new",
        "HF BertNormalizer(clean_text, handle_chinese_chars, strip_accents | None, lowercase) as func(text) -> text.",
        |clean: bool, chinese: bool, strip: Option<bool>, lower: bool| -> PackedFunc {
            let n = BertNormalizer::new(clean, chinese, strip, lower);
            PackedFunc::from_typed("text.bert_normalize", move |s: Str| n.normalize(&s))
        },
        false,
    )?;
    reg.register_typed(
        "text.bert_pre_tokenize",
        "HF BertPreTokenizer: split on whitespace, each punctuation char its own word.",
        |s: Str| {
            let mut out = List::new();
            for_each_bert_word(&s, |w| out.push(w));
            out
        },
        false,
    )?;
    reg.register_typed(
        "tok.bert.new",
        "BERT (uncased) over vocab.txt; returns func(text | list of texts[, add_special_tokens]) -> ids.",
        |path: String| -> Result<PackedFunc> { Ok(bert_func(BertTokenizer::from_vocab_file(&path)?)) },
        false,
    )?;
    reg.register_typed(
        "tok.bert.from_file",
        "BERT from a HF tokenizer.json (no truncation/padding); returns func(text[, add_special_tokens]) -> ids.",
        |path: String| -> Result<PackedFunc> { Ok(bert_func(BertTokenizer::from_tokenizer_json(&path)?)) },
        false,
    )?;
    reg.register_typed(
        "tok.bert.pair.new",
        "BERT (uncased) over vocab.txt; returns func(a, b) -> {input_ids, token_type_ids} as [CLS] A [SEP] B [SEP].",
        |path: String| -> Result<PackedFunc> {
            let tok = BertTokenizer::from_vocab_file(&path)?;
            Ok(PackedFunc::new(move |args| {
                let run = || -> Result<AnyValue> {
                    check_arity(args, 2, 2)?;
                    let a = with_text(&args[0], str::to_owned).with_context(|| "argument 0")?;
                    let (ids, types) =
                        with_text(&args[1], |b| tok.encode_pair(&a, b, true)).with_context(|| "argument 1")?;
                    Ok(pair_dict(&ids, &types).into_any())
                };
                run().with_context(|| "tok.bert.pair")
            }))
        },
        false,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalizer_follows_hf_steps() {
        let n = BertNormalizer::default();
        assert_eq!(n.normalize("Héllo\tWORLD\u{0}!"), "hello world!");
        assert_eq!(n.normalize("中文"), " 中  文 ");
        assert_eq!(n.normalize("\u{200B}a\u{FFFD}b\u{0B}c"), "abc");
        assert_eq!(n.normalize("Ёлка"), "елка");
        let cased = BertNormalizer::new(true, true, None, false);
        assert_eq!(cased.normalize("Héllo"), "Héllo");
    }

    #[test]
    fn fast_and_exact_normalization_agree() {
        let n = BertNormalizer::default();
        for s in ["İstanbul ﬁ Ǆ ß", "a\u{301}\u{316}b", "x\u{1D165}\u{1D166}\u{301}y", "\u{F900}\u{2F800}😀"] {
            assert_eq!(n.normalize(s), n.normalize_exact(s), "{s:?}");
        }
    }

    #[test]
    fn pre_tokenizer_isolates_punctuation() {
        assert_eq!(
            bert_pre_tokenize("Hey friend!  How are you?!?"),
            ["Hey", "friend", "!", "How", "are", "you", "?", "!", "?"]
        );
        assert_eq!(bert_pre_tokenize("a\u{3000}b「c」"), ["a", "b", "「", "c", "」"]);
    }

    #[test]
    fn newer_chars_are_listed_in_order() {
        assert!(NEWER_THAN_UNICODE_9.windows(2).all(|w| w[0].1 < w[1].0));
        assert!(newer_than_unicode_9('\u{1AC0}'));
        assert!(!newer_than_unicode_9('\u{301}'));
    }
}
