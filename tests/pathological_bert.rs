//! BERT on pathological inputs: the output equals HF tokenizers' (the reference, in the same
//! test) and is what the rules say by hand. Timing lives in `benches/bert.rs`, not here.
//!
//! - A 100 KB word with no spaces: more than 100 characters, so HF's WordPiece rule makes it
//!   one `[UNK]` (id 100): `[CLS] [UNK] [SEP]` = [101, 100, 102].
//! - 1 MB of one emoji: an emoji is not punctuation, CJK or whitespace, so it stays one
//!   250,000-character word, again longer than 100 characters: [101, 100, 102].
//! - A line of only control characters: BERT's clean-text drops them all: [101, 102].
//! - 1 MB of whitespace: no words at all: [101, 102].

mod common;

use anyproc::ops::bert::BertTokenizer;
use common::asset;
use tokenizers::Tokenizer;

fn both(text: &str) -> (Vec<u32>, Vec<u32>) {
    let mut hf = Tokenizer::from_file(asset("bert-base-uncased/tokenizer.json")).expect("HF loads tokenizer.json");
    hf.with_truncation(None).expect("no truncation").with_padding(None);
    let ours = BertTokenizer::from_vocab_file(asset("bert-base-uncased/vocab.txt")).expect("vocab loads");
    let want = hf.encode(text, true).expect("HF encodes").get_ids().to_vec();
    (ours.encode(text, true), want)
}

/// Letters from a fixed linear congruential generator: deterministic, with no spaces.
fn lcg_letters(n: usize) -> String {
    let mut x: u64 = 0x2545_F491;
    (0..n)
        .map(|_| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (b'a' + (x >> 59) as u8 % 26) as char
        })
        .collect()
}

#[test]
fn a_100_kb_word_is_one_unk() {
    let (ours, hf) = both(&lcg_letters(100_000));
    assert_eq!(ours, hf);
    assert_eq!(ours, [101, 100, 102]);
}

#[test]
fn a_megabyte_of_one_emoji_is_one_unk() {
    let text = "😀".repeat(250_000);
    assert_eq!(text.len(), 1_000_000);
    let (ours, hf) = both(&text);
    assert_eq!(ours, hf);
    assert_eq!(ours, [101, 100, 102]);
}

#[test]
fn a_line_of_control_characters_is_empty() {
    let text: String = (1u8..32).filter(|b| !b"\t\n\r".contains(b)).map(char::from).cycle().take(10_000).collect();
    let (ours, hf) = both(&text);
    assert_eq!(ours, hf);
    assert_eq!(ours, [101, 102]);
}

#[test]
fn a_megabyte_of_whitespace_is_empty() {
    let text: String = " \t\n\u{3000}".chars().cycle().take(700_000).collect();
    // 4 chars are 1 + 1 + 1 + 3 = 6 bytes, so 700,000 chars are 1,050,000 bytes.
    assert!(text.len() >= 1_000_000);
    let (ours, hf) = both(&text);
    assert_eq!(ours, hf);
    assert_eq!(ours, [101, 102]);
}

/// Words just under and over the 100-character limit, many of them, separated by spaces.
#[test]
fn many_long_words_follow_the_max_chars_rule() {
    let text = format!("{} {}", "a".repeat(100), "b".repeat(101)).repeat(1000);
    let (ours, hf) = both(&text);
    assert_eq!(ours, hf);
}
