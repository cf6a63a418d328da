//! BERT parity with Hugging Face tokenizers (0.23, the reference crate) on the same inputs.
//!
//! - Every corpus line (the full shared `dev_sample.txt` when present, else the shipped
//!   head) is encoded by HF's `Tokenizer` (from `bert-base-uncased/tokenizer.json`,
//!   truncation and padding off) and by anyproc's `BertTokenizer`; ids must be identical.
//! - Every Unicode scalar value goes through HF's `BertNormalizer` and
//!   `BertPreTokenizer` and through anyproc's; the outputs must be identical. Pairs of
//!   kept combining marks check canonical reordering (HF's NFD is Unicode 9.0).
//! - With the file's own truncation and padding (128, longest_first), HF's ids, masks
//!   and type ids equal anyproc's raw ids run through `ndarray::collate`, for single
//!   texts and pairs.
//! - HF's `Encoding::truncate` windows with a stride equal `seq::overflow_windows`.
//! - HF's `decode` equals anyproc's WordPiece decoder.

mod common;

use anyproc::ndarray::{CollateOptions, Padding, Side, SpecialTokens, Truncation, collate};
use anyproc::ops::bert::{BertNormalizer, BertTokenizer, bert_pre_tokenize};
use anyproc::ops::seq::overflow_windows;
use anyproc::ops::vocab::Vocab;
use anyproc::ops::wordpiece::WordPieceDecoder;
use common::{asset, corpus};
use rayon::prelude::*;
use std::sync::Arc;
use tokenizers::normalizers::bert::BertNormalizer as HfBertNormalizer;
use tokenizers::pre_tokenizers::bert::BertPreTokenizer as HfBertPreTokenizer;
use tokenizers::{
    NormalizedString, Normalizer, OffsetReferential, OffsetType, PreTokenizedString, PreTokenizer, Tokenizer,
    TruncationDirection,
};

fn hf_raw() -> Tokenizer {
    let mut hf = Tokenizer::from_file(asset("bert-base-uncased/tokenizer.json")).expect("HF loads tokenizer.json");
    hf.with_truncation(None).expect("no truncation").with_padding(None);
    hf
}

fn ours() -> BertTokenizer {
    BertTokenizer::from_vocab_file(asset("bert-base-uncased/vocab.txt")).expect("vocab loads")
}

/// Lists the first 10 lines where `ours` and `hf` differ, with both id sequences.
fn report(kind: &str, diffs: &[(usize, String, Vec<u32>, Vec<u32>)], total: usize) {
    if diffs.is_empty() {
        return;
    }
    let mut msg = format!("{kind}: {} of {total} lines differ; first 10:\n", diffs.len());
    for (i, text, hf, us) in diffs.iter().take(10) {
        msg.push_str(&format!("line {}: {text:?}\n  hf:      {hf:?}\n  anyproc: {us:?}\n", i + 1));
    }
    panic!("{msg}");
}

#[test]
fn every_corpus_line_encodes_to_hf_ids() {
    let (path, lines) = corpus();
    let hf = hf_raw();
    let tok = ours();
    let from_json = BertTokenizer::from_tokenizer_json(asset("bert-base-uncased/tokenizer.json")).unwrap();
    let mut diffs: Vec<(usize, String, Vec<u32>, Vec<u32>)> = lines
        .par_iter()
        .enumerate()
        .filter_map(|(i, line)| {
            let want = hf.encode(line.as_str(), true).expect("HF encodes").get_ids().to_vec();
            let got = tok.encode(line, true);
            let got_json = from_json.encode(line, true);
            (got != want || got_json != want).then(|| (i, line.clone(), want, got))
        })
        .collect();
    diffs.sort_by_key(|d| d.0);
    eprintln!("parity: {} lines of {}, {} differ", lines.len(), path.display(), diffs.len());
    report("BERT ids", &diffs, lines.len());
}

#[test]
fn special_tokens_in_raw_text_are_matched_like_hf() {
    let hf = hf_raw();
    let tok = ours();
    for text in
        ["a[MASK]b", "[CLS][SEP] x [PAD]", "[mask] [UNK]s [MAS K] [[SEP]]", "[", "", "  ", "Ünïcödé [MASK]中文 Ａ１"]
    {
        let want = hf.encode(text, true).unwrap().get_ids().to_vec();
        assert_eq!(tok.encode(text, true), want, "{text:?}");
        let want = hf.encode(text, false).unwrap().get_ids().to_vec();
        assert_eq!(tok.encode(text, false), want, "{text:?} without special tokens");
    }
}

fn hf_normalize(n: &HfBertNormalizer, text: &str) -> String {
    let mut s = NormalizedString::from(text);
    n.normalize(&mut s).expect("HF normalizes");
    s.get().to_owned()
}

fn hf_pre_tokenize(text: &str) -> Vec<String> {
    let mut p = PreTokenizedString::from(text);
    HfBertPreTokenizer.pre_tokenize(&mut p).expect("HF pre-tokenizes");
    p.get_splits(OffsetReferential::Original, OffsetType::Byte).into_iter().map(|(s, _, _)| s.to_owned()).collect()
}

/// Every char of the planes with assigned chars (0-3, 14), 256 at a time, each after an `a`
/// (so that marks attach) and before a space; planes 4-13 and the private-use planes 15-16
/// hold no assigned chars, so their first and last blocks stand for them.
#[test]
fn every_char_normalizes_and_pre_tokenizes_like_hf() {
    let configs = [
        (HfBertNormalizer::default(), BertNormalizer::default()),
        (HfBertNormalizer::new(true, true, None, false), BertNormalizer::new(true, true, None, false)),
        (HfBertNormalizer::new(false, false, Some(true), false), BertNormalizer::new(false, false, Some(true), false)),
    ];
    let blocks: Vec<u32> =
        (0..=0x10FFFF_u32 >> 8).filter(|b| matches!(b >> 8, 0..=3 | 14) || matches!(b & 0xFF, 0 | 0xFF)).collect();
    let bad: Vec<String> = blocks
        .par_iter()
        .flat_map_iter(|&b| {
            let mut text = String::new();
            for c in (b << 8..(b + 1) << 8).filter_map(char::from_u32) {
                text.push('a');
                text.push(c);
                text.push(' ');
            }
            let mut bad = Vec::new();
            for (k, (hf, us)) in configs.iter().enumerate() {
                let want = hf_normalize(hf, &text);
                let fast = us.normalize(&text);
                let exact = us.normalize_exact(&text);
                if fast != want || exact != want {
                    let first = want.chars().zip(fast.chars()).position(|(x, y)| x != y).unwrap_or(0);
                    bad.push(format!("config {k}, block {b:#x}: first difference at normalized char {first}"));
                } else if k == 0 {
                    let hf_words = hf_pre_tokenize(&want);
                    if hf_words != bert_pre_tokenize(&want) {
                        bad.push(format!("block {b:#x}: pre-tokenization differs"));
                    }
                }
            }
            bad
        })
        .collect();
    assert!(bad.is_empty(), "{} differences:\n{}", bad.len(), bad.join("\n"));
}

/// Kept combining marks (nonzero class, not Mn) in pairs: NFD reorders them by class, as of Unicode 9.0.
#[test]
fn combining_mark_pairs_reorder_like_hf() {
    use unicode_categories::UnicodeCategories;
    use unicode_normalization::char::canonical_combining_class;
    let marks: Vec<char> = (0..=0x10FFFF_u32)
        .filter_map(char::from_u32)
        .filter(|&c| canonical_combining_class(c) != 0 && !c.is_mark_nonspacing())
        .chain(['\u{301}', '\u{316}', '\u{334}'])
        .collect();
    assert!(marks.len() > 50, "too few marks to be a test: {}", marks.len());
    let hf = HfBertNormalizer::default();
    let us = BertNormalizer::default();
    let bad: Vec<String> = marks
        .par_iter()
        .filter_map(|&m1| {
            let mut text = String::new();
            for &m2 in &marks {
                text.extend(['x', m1, m2, ' ']);
            }
            let want = hf_normalize(&hf, &text);
            (us.normalize(&text) != want || us.normalize_exact(&text) != want)
                .then(|| format!("U+{:04X} followed by marks", m1 as u32))
        })
        .collect();
    assert!(bad.is_empty(), "{} differences:\n{}", bad.len(), bad.join("\n"));
}

/// Ids, attention masks and type ids with tokenizer.json's own truncation and padding (128).
#[test]
fn truncation_and_padding_at_128_match_hf() {
    let (_, lines) = corpus();
    let hf = Tokenizer::from_file(asset("bert-base-uncased/tokenizer.json")).unwrap();
    let tok = ours();
    let opts = CollateOptions {
        padding: Padding::MaxLength,
        max_length: Some(128),
        truncation: Truncation::LongestFirst,
        token_type_ids: true,
        special_tokens: Some(SpecialTokens::bert(101, 102)),
        ..CollateOptions::default()
    };
    // Long lines first, so that truncation really happens; then pairs of neighbours.
    let mut subset: Vec<&String> = lines.iter().take(3000).collect();
    subset.sort_by_key(|l| std::cmp::Reverse(l.len()));
    subset.truncate(400);
    subset.extend(lines.iter().take(200));
    let mut checked = 0;
    for pair in [false, true] {
        for (i, w) in subset.windows(2).enumerate() {
            let (a, b) = (w[0].as_str(), w[1].as_str());
            let enc = if pair { hf.encode((a, b), true) } else { hf.encode(a, true) }.unwrap();
            let ids_a = tok.encode(a, false);
            let ids_b = tok.encode(b, false);
            let batch = if pair { collate(&[&ids_a], Some(&[&ids_b]), &opts) } else { collate(&[&ids_a], None, &opts) }
                .unwrap();
            let as_u32 =
                |a: &anyproc::NDArray| -> Vec<u32> { a.as_slice::<i64>().unwrap().iter().map(|&x| x as u32).collect() };
            assert_eq!(as_u32(&batch.input_ids), enc.get_ids(), "ids, pair={pair}, item {i}: {a:?} / {b:?}");
            assert_eq!(as_u32(batch.attention_mask.as_ref().unwrap()), enc.get_attention_mask(), "mask, item {i}");
            assert_eq!(as_u32(batch.token_type_ids.as_ref().unwrap()), enc.get_type_ids(), "types, item {i}");
            checked += 1;
        }
    }
    assert!(checked > 1000, "checked {checked}");
}

/// Overflow windows with a stride: HF's `Encoding::truncate` on the full encoding.
///
/// (HF 0.23's `Tokenizer` with truncation stops tokenizing once `max_length` tokens are
/// reached, so its overflowing encodings cover only the tail of the last word; the
/// windows over the whole text are `Encoding::truncate`'s, called here directly.)
#[test]
fn overflow_windows_match_hf_encoding_truncate() {
    let (_, lines) = corpus();
    let hf = hf_raw();
    let tok = ours();
    for line in lines.iter().filter(|l| l.len() > 60).take(300) {
        for (max_len, stride) in [(14, 4), (8, 0), (5, 4), (1, 0)] {
            for (side, dir) in [(Side::Right, TruncationDirection::Right), (Side::Left, TruncationDirection::Left)] {
                let mut enc = hf.encode(line.as_str(), false).unwrap();
                enc.truncate(max_len, stride, dir);
                let mut want = vec![enc.get_ids().to_vec()];
                want.extend(enc.get_overflowing().iter().map(|o| o.get_ids().to_vec()));
                let ids = tok.encode(line, false);
                let got: Vec<Vec<u32>> = overflow_windows(ids.len(), max_len, stride, side)
                    .unwrap()
                    .into_iter()
                    .map(|r| ids[r].to_vec())
                    .collect();
                assert_eq!(got, want, "max_len {max_len}, stride {stride}, {side:?}: {line:?}");
            }
        }
    }
}

#[test]
fn decode_matches_hf() {
    let (_, lines) = corpus();
    let hf = hf_raw();
    let tok = ours();
    let dec = WordPieceDecoder::bert(Arc::new(Vocab::load(asset("bert-base-uncased/vocab.txt")).unwrap()));
    let extra = ["don't do not , . ? ! it's I'm we've they're ' x", "[CLS] a [MASK] b"];
    for line in lines.iter().take(2000).map(String::as_str).chain(extra) {
        let ids = tok.encode(line, true);
        for skip in [false, true] {
            assert_eq!(dec.decode(&ids, skip).unwrap(), hf.decode(&ids, skip).unwrap(), "skip={skip}: {line:?}");
        }
    }
}

/// Pieces that exercise every branch of the fused path: case, accents and kept marks
/// (reordering), CJK and compatibility ideographs, controls and odd whitespace,
/// punctuation, long words, unknown symbols and raw special tokens.
fn piece() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    prop_oneof![
        "[a-zA-Z0-9]{1,12}",
        Just(" ".to_string()),
        prop::sample::select(vec![
            "É",
            "ß",
            "İ",
            "ǅ",
            "ﬁ",
            "\u{301}",
            "\u{316}",
            "\u{1D165}",
            "\u{1D166}",
            "\u{1D16D}",
            "\u{1AC0}",
            "\u{0F71}",
            "\u{0F72}",
            "中",
            "\u{F900}",
            "\u{2F800}",
            "の",
            "が",
            "Ё",
            "й",
            "\u{0}",
            "\u{FFFD}",
            "\u{200B}",
            "\u{0B}",
            "\u{85}",
            "\u{A0}",
            "\u{3000}",
            "\t",
            "\n",
            "!",
            "¿",
            "「",
            "—",
            "☃",
            "😀",
            "[MASK]",
            "[SEP]",
            "[",
            "]",
            "##",
            "'s",
            "n't",
        ])
        .prop_map(str::to_owned),
        Just("a".repeat(101)),
    ]
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]
    #[test]
    fn random_mixed_text_encodes_to_hf_ids(pieces in proptest::collection::vec(piece(), 0..24)) {
        let text: String = pieces.concat();
        let want = HF.encode(text.as_str(), true).unwrap().get_ids().to_vec();
        proptest::prop_assert_eq!(OURS.encode(&text, true), want, "{:?}", text);
    }
}

static HF: std::sync::LazyLock<Tokenizer> = std::sync::LazyLock::new(hf_raw);
static OURS: std::sync::LazyLock<BertTokenizer> = std::sync::LazyLock::new(ours);
