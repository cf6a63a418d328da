//! Byte-level pre-tokenization and BPE: hand-computed cases, malformed files, special
//! tokens, pathological inputs, and the scanners against `fancy-regex` on tiktoken's
//! literal patterns.
//!
//! References are independent of the code under test: values read from the shipped rank
//! files by this file's own parser, the regex crates, tiktoken-rs built from the same rank
//! files, and a naive merge loop written here. No timings (see `benches/bpe.rs`).

mod common;

use anyproc::ops::bpe::{Bpe, ENDOFTEXT, LARGE_PIECE};
use anyproc::ops::bytelevel::{
    CL100K_PATTERN, CharClass, Pattern, R50K_PATTERN, byte_to_char, char_class, char_to_byte, split_cl100k, split_r50k,
    to_byte_level,
};
use anyproc::{AnyValue, AnyView, ErrorKind, List, get_global_func};
use base64::Engine as _;
use proptest::prelude::*;
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::LazyLock;
use tiktoken_rs::CoreBPE;

/// The r50k pattern as tiktoken-rs writes it (possessive form); equivalent to [`R50K_PATTERN`].
const R50K_PATTERN_POSSESSIVE: &str =
    r"'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s";

fn rank_file(name: &str) -> PathBuf {
    common::asset(&format!("gpt2/{name}"))
}

/// The rank file parsed by this test, independently of anyproc: token bytes → rank.
fn read_ranks(name: &str) -> HashMap<Vec<u8>, u32> {
    let text = std::fs::read_to_string(rank_file(name)).expect("rank file");
    text.lines()
        .map(|line| {
            let (tok, rank) = line.split_once(' ').expect("two fields");
            (base64::engine::general_purpose::STANDARD.decode(tok).expect("base64"), rank.parse().expect("rank"))
        })
        .collect()
}

static R50K_RANKS: LazyLock<HashMap<Vec<u8>, u32>> = LazyLock::new(|| read_ranks("r50k_base.tiktoken"));
static CL100K_RANKS: LazyLock<HashMap<Vec<u8>, u32>> = LazyLock::new(|| read_ranks("cl100k_base.tiktoken"));

static R50K: LazyLock<Bpe> =
    LazyLock::new(|| Bpe::from_tiktoken_file(rank_file("r50k_base.tiktoken"), Pattern::R50k).expect("r50k"));
static CL100K: LazyLock<Bpe> =
    LazyLock::new(|| Bpe::from_tiktoken_file(rank_file("cl100k_base.tiktoken"), Pattern::Cl100k).expect("cl100k"));

/// tiktoken-rs built from the same ranks, with the given pattern and specials.
fn tiktoken(ranks: &HashMap<Vec<u8>, u32>, specials: &[(&str, u32)], pattern: &str) -> CoreBPE {
    let encoder = ranks.iter().map(|(k, v)| (k.clone(), *v)).collect();
    let specials = specials.iter().map(|(s, id)| (s.to_string(), *id)).collect();
    CoreBPE::new(encoder, specials, pattern).expect("tiktoken-rs CoreBPE")
}

static TT_R50K: LazyLock<CoreBPE> = LazyLock::new(|| tiktoken(&R50K_RANKS, &[(ENDOFTEXT, 50256)], R50K_PATTERN));
static TT_CL100K: LazyLock<CoreBPE> = LazyLock::new(|| {
    let specials = [
        (ENDOFTEXT, 100257),
        ("<|fim_prefix|>", 100258),
        ("<|fim_middle|>", 100259),
        ("<|fim_suffix|>", 100260),
        ("<|endofprompt|>", 100276),
    ];
    tiktoken(&CL100K_RANKS, &specials, CL100K_PATTERN)
});

/// The pieces `fancy-regex` finds with `pattern`, as tiktoken runs it.
fn regex_pieces<'a>(re: &fancy_regex::Regex, text: &'a str) -> Vec<&'a str> {
    re.find_iter(text).map(|m| m.expect("regex ran").as_str()).collect()
}

static RE_R50K: LazyLock<fancy_regex::Regex> = LazyLock::new(|| fancy_regex::Regex::new(R50K_PATTERN).unwrap());
static RE_R50K_POSSESSIVE: LazyLock<fancy_regex::Regex> =
    LazyLock::new(|| fancy_regex::Regex::new(R50K_PATTERN_POSSESSIVE).unwrap());
static RE_CL100K: LazyLock<fancy_regex::Regex> = LazyLock::new(|| fancy_regex::Regex::new(CL100K_PATTERN).unwrap());

fn assert_split_parity(text: &str) {
    let r50k = split_r50k(text);
    assert_eq!(r50k, regex_pieces(&RE_R50K, text), "r50k on {text:?}");
    assert_eq!(r50k, regex_pieces(&RE_R50K_POSSESSIVE, text), "r50k (possessive form) on {text:?}");
    assert_eq!(split_cl100k(text), regex_pieces(&RE_CL100K, text), "cl100k on {text:?}");
}

const EDGE_CASES: &[&str] = &[
    "",
    " ",
    "  ",
    "a",
    "hello world",
    "Hello  world  ",
    "I'LL",
    "I'll",
    "I'Ve i'RE it'S he'D I'M don'T",
    "don't",
    "'s",
    "'S",
    "'ſ",
    "'ſt 'ſ",
    "x'll've're'd'm't",
    "''s",
    "' s",
    " 's",
    "'",
    "'l",
    "'lL",
    "\r\n",
    "a\r\nb",
    "a \r\n b",
    "\n\n\n",
    "line1\n\nline2",
    " \n ",
    "\r",
    "\r\r\n\n",
    "x \n\t\n  y",
    "\t\tfoo",
    "\tfoo",
    "foo\t",
    "a\u{3000}b",
    "\u{a0}x",
    "\u{a0}\u{a0}x",
    "\u{2028}",
    "\u{85}x",
    "\u{1680}",
    "\u{2000}\u{2001}x",
    "1",
    "12",
    "123",
    "1234",
    "12345",
    "123456",
    "1234567",
    " 1234567",
    "a1b22c333d4444",
    "١٢٣٤",
    "Ⅻ",
    "½¼",
    "①②③④",
    "😀",
    "👍🏽",
    "👨‍👩‍👧",
    "hi😀there",
    " 😀😀",
    "🇺🇸",
    "e\u{301}",
    "cafe\u{301} au lait",
    "\u{301}abc",
    " \u{301}",
    "ก่",
    "नमस्ते दुनिया",
    "안녕하세요",
    "你好，世界",
    "カタカナ",
    "مرحبا بالعالم",
    "...",
    " ...",
    "!!!\n",
    "?!\r\n\r\n",
    "a.b",
    "(hello)",
    " (",
    "\"quoted\"",
    "---\n\n",
    " !\n\n x",
    "\u{0}\u{1}\u{1f}",
    "\u{7f}",
    "\u{1c}\u{1d}\u{1e}\u{1f}",
    "hello   ",
    "hello \n",
    "hello\n ",
    "   \t\n",
    "<|endoftext|>",
    "def f(x):\n    return x  # comment\n",
    "a  b   c\t\td\n\ne",
];

#[test]
fn scanners_match_fancy_regex_on_edge_cases() {
    for text in EDGE_CASES {
        assert_split_parity(text);
    }
}

#[test]
fn hand_computed_splits() {
    assert_eq!(split_r50k("Hello  world's 1234!!"), ["Hello", " ", " world", "'s", " 1234", "!!"]);
    assert_eq!(split_cl100k("Hello  world's 1234!!"), ["Hello", " ", " world", "'s", " ", "123", "4", "!!"]);
    assert_eq!(split_r50k("I'LL"), ["I", "'", "LL"]);
    assert_eq!(split_cl100k("I'LL"), ["I", "'LL"]);
    assert_eq!(split_cl100k("a\r\n\r\nb"), ["a", "\r\n\r\n", "b"]);
    assert_eq!(split_r50k("a\r\n\r\nb"), ["a", "\r\n\r", "\n", "b"]);
    assert_eq!(split_r50k("  "), ["  "]);
    assert_eq!(split_cl100k("(hello"), ["(hello"]);
}

/// Chars that exercise every branch of both scanners.
const POOL: &[char] = &[
    ' ', ' ', ' ', '\t', '\n', '\r', 'a', 'Z', '\'', '\'', 's', 'S', 'L', 'l', 'v', 'e', 'E', 'r', 'R', 'd', 'm', 't',
    'ſ', '1', '7', '٣', '½', '.', '!', '(', '😀', '\u{301}', '\u{3000}', '\u{85}', '\u{a0}', 'é', '你', '\u{1c}', '\0',
];

proptest! {
    #[test]
    fn scanners_match_fancy_regex_on_random_text(idx in proptest::collection::vec(0..POOL.len(), 0..40)) {
        let text: String = idx.iter().map(|&i| POOL[i]).collect();
        assert_split_parity(&text);
    }

    #[test]
    fn scanners_match_fancy_regex_on_arbitrary_text(text in "\\PC{0,30}|[\\s\\S]{0,30}") {
        assert_split_parity(&text);
    }
}

/// Whether each code point (by index) is in the class, according to the regex crate.
fn regex_class_members(all: &str, pattern: &str) -> Vec<bool> {
    let re = regex::Regex::new(pattern).unwrap();
    let mut member = vec![false; 0x110000];
    for c in re.find_iter(all).flat_map(|m| m.as_str().chars()) {
        member[c as usize] = true;
    }
    member
}

#[test]
fn char_classes_match_the_regex_crate_on_every_code_point() {
    let all: String = (0..=0x10FFFFu32).filter_map(char::from_u32).collect();
    let letters = regex_class_members(&all, r"\p{L}+");
    let numbers = regex_class_members(&all, r"\p{N}+");
    let spaces = regex_class_members(&all, r"\s+");
    let mut wrong = Vec::new();
    for c in all.chars() {
        let want = if letters[c as usize] {
            CharClass::Letter
        } else if numbers[c as usize] {
            CharClass::Number
        } else if spaces[c as usize] {
            CharClass::Space
        } else {
            CharClass::Other
        };
        if char_class(c) != want {
            wrong.push((c as u32, want));
        }
    }
    assert!(wrong.is_empty(), "{} code points differ, first: {:x?}", wrong.len(), &wrong[..wrong.len().min(10)]);
}

/// Prints the `\p{L}` and `\p{N}` tables of `ops/bytelevel.rs` from the regex crate in use.
#[test]
#[ignore = "generator: run with --ignored --nocapture to refresh the tables"]
fn print_class_tables() {
    let all: String = (0..=0x10FFFFu32).filter_map(char::from_u32).collect();
    for (name, pattern) in [("LETTER", r"\p{L}+"), ("NUMBER", r"\p{N}+")] {
        let members = regex_class_members(&all, pattern);
        let mut ranges: Vec<(u32, u32)> = Vec::new();
        for cp in (0..0x110000u32).filter(|&cp| members[cp as usize]) {
            match ranges.last_mut() {
                Some((_, end)) if *end + 1 == cp => *end = cp,
                _ => ranges.push((cp, cp)),
            }
        }
        let flat: Vec<String> = ranges.iter().map(|(a, b)| format!("0x{a:X}, 0x{b:X}")).collect();
        println!("const {name}: &[u32] = &[{}];", flat.join(", "));
    }
}

#[test]
fn bytes_to_unicode_is_gpt2s_table() {
    assert_eq!(byte_to_char(b' '), 'Ġ');
    assert_eq!(byte_to_char(b'\n'), 'Ċ');
    assert_eq!(byte_to_char(0), 'Ā');
    assert_eq!(byte_to_char(b'!'), '!');
    assert_eq!(byte_to_char(0xAD), 'Ń');
    assert_eq!(byte_to_char(0x7F), 'ġ');
    assert_eq!(byte_to_char(0xFF), 'ÿ');
    let chars: HashSet<char> = (0..=255u8).map(byte_to_char).collect();
    assert_eq!(chars.len(), 256);
    for b in 0..=255u8 {
        assert_eq!(char_to_byte(byte_to_char(b)), Some(b));
    }
    for c in [' ', '\n', '\u{ad}', '\u{144}', '😀'] {
        assert_eq!(char_to_byte(c), None, "{c:?}");
    }
    assert_eq!(to_byte_level(" hello\n"), "ĠhelloĊ");
}

#[test]
fn hello_world_matches_the_rank_files() {
    // Ranks read from the files by this test's own parser.
    assert_eq!(R50K_RANKS[&b"hello"[..]], 31373);
    assert_eq!(R50K_RANKS[&b" world"[..]], 995);
    assert_eq!(CL100K_RANKS[&b"hello"[..]], 15339);
    assert_eq!(CL100K_RANKS[&b" world"[..]], 1917);
    assert_eq!(R50K.encode_ordinary("hello world"), [31373, 995]);
    assert_eq!(CL100K.encode_ordinary("hello world"), [15339, 1917]);
    assert_eq!(R50K.decode(&[31373, 995]).unwrap(), "hello world");
    assert_eq!(R50K.vocab_size(), 50256);
    assert_eq!(CL100K.vocab_size(), 100256);
}

/// A rank file with the 256 single bytes (rank = byte) plus `extra` tokens ranked 256...
fn small_rank_file(extra: &[&str]) -> String {
    let b64 = |b: &[u8]| base64::engine::general_purpose::STANDARD.encode(b);
    let mut out: Vec<String> = (0..=255u8).map(|b| format!("{} {b}", b64(&[b]))).collect();
    out.extend(extra.iter().enumerate().map(|(i, t)| format!("{} {}", b64(t.as_bytes()), 256 + i)));
    out.join("\n") + "\n"
}

fn small_bpe(extra: &[&str]) -> Bpe {
    Bpe::from_tiktoken_bytes(small_rank_file(extra).as_bytes(), "small.tiktoken", Pattern::R50k).unwrap()
}

fn piece(bpe: &Bpe, bytes: &[u8]) -> Vec<u32> {
    let mut out = Vec::new();
    bpe.encode_piece(bytes, &mut out);
    out
}

#[test]
fn merge_order_follows_rank_then_position() {
    // ab=256, bc=257: "ab" merges first.
    assert_eq!(piece(&small_bpe(&["ab", "bc"]), b"abc"), [256, b'c' as u32]);
    // bc=256, ab=257: "bc" first, after which "a"+"bc" is no token.
    assert_eq!(piece(&small_bpe(&["bc", "ab"]), b"abc"), [b'a' as u32, 256]);
    // Equal pairs: leftmost first.
    assert_eq!(piece(&small_bpe(&["aa"]), b"aaa"), [256, b'a' as u32]);
    assert_eq!(piece(&small_bpe(&["aa"]), b"aaaaa"), [256, 256, b'a' as u32]);
    // Merges chain through concatenated bytes: aa=256, aaaa=257.
    assert_eq!(piece(&small_bpe(&["aa", "aaaa"]), b"aaaaaa"), [257, 256]);
    // Priority is by the concatenation, not the pair: "abc" forms from "a"+"bc" even though
    // it was "ab"+"c" that the ranks list first.
    assert_eq!(piece(&small_bpe(&["bc", "ab", "abc"]), b"abc"), [258]);
    // A whole-piece token is taken directly.
    assert_eq!(small_bpe(&["bc", "abc"]).encode_ordinary("abc"), [257]);
}

/// The naive BPE loop, for reference: merge the lowest-ranked adjacent pair, leftmost on ties.
fn naive_bpe(ranks: &HashMap<Vec<u8>, u32>, piece: &[u8]) -> Vec<u32> {
    let mut parts: Vec<Vec<u8>> = piece.iter().map(|&b| vec![b]).collect();
    loop {
        let best = (0..parts.len().saturating_sub(1))
            .filter_map(|i| ranks.get(&[parts[i].as_slice(), parts[i + 1].as_slice()].concat()).map(|&r| (r, i)))
            .min();
        let Some((_, i)) = best else { break };
        let right = parts.remove(i + 1);
        parts[i].extend(right);
    }
    parts.iter().map(|p| ranks[p]).collect()
}

/// Deterministic pseudo-random letters (a 64-bit LCG, Knuth's MMIX constants).
fn lcg_letters(n: usize, seed: u64, alphabet: &[u8]) -> String {
    let mut x = seed;
    (0..n)
        .map(|_| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            alphabet[((x >> 33) % alphabet.len() as u64) as usize] as char
        })
        .collect()
}

#[test]
fn heap_merge_matches_the_naive_loop() {
    // Lengths around the switch to the heap merge, and a 1 KB piece.
    for (n, seed) in [(LARGE_PIECE - 1, 1), (LARGE_PIECE, 2), (LARGE_PIECE + 1, 3), (500, 4), (1000, 5)] {
        let word = lcg_letters(n, seed, b"abcdefghijklmnopqrstuvwxyz");
        let spaced = lcg_letters(n, seed, b"aeiou tnsrl");
        for (bpe, ranks) in [(&*R50K, &*R50K_RANKS), (&*CL100K, &*CL100K_RANKS)] {
            for text in [&word, &spaced] {
                assert_eq!(piece(bpe, text.as_bytes()), naive_bpe(ranks, text.as_bytes()), "n={n} on {text:.40}");
            }
        }
    }
}

#[test]
fn large_merge_handles_ranks_against_the_merge_order() {
    // "abc" ranks before "bc" (256 vs 257), though only merging "bc" can make it: after each
    // "bc" merge, the new pair "a"+"bc" ranks below the merge just done. The large-piece
    // queue must still pop it next (its below-the-last-pop path).
    let ranks_list = ["abc", "bc", "ab", "ca"];
    let bpe = small_bpe(&ranks_list);
    let ranks: HashMap<Vec<u8>, u32> = (0..=255u8)
        .map(|b| (vec![b], u32::from(b)))
        .chain(ranks_list.iter().enumerate().map(|(i, t)| (t.as_bytes().to_vec(), 256 + i as u32)))
        .collect();
    for n in [LARGE_PIECE + 2, 600, 5000] {
        for seed in 0..4 {
            let text = lcg_letters(n, seed, b"abc");
            let want = naive_bpe(&ranks, text.as_bytes());
            assert_eq!(piece(&bpe, text.as_bytes()), want, "n={n} seed={seed}");
        }
    }
    // Hand-computed, where the order decides the result: merging "bc" (259) makes both
    // "a"+"bc" = "abc" (256) and "bc"+"d" = "bcd" (258). Rank order takes "abc" first, so
    // each "abcd" becomes "abc", "d"; taking "bcd" first would give "a", "bcd".
    let bpe = small_bpe(&["abc", "zz", "bcd", "bc"]);
    let text = "abcd".repeat(30);
    assert_eq!(piece(&bpe, text.as_bytes()), [256, u32::from(b'd')].repeat(30));
}

#[test]
fn encodes_like_tiktoken_on_edge_cases() {
    for text in EDGE_CASES {
        assert_eq!(R50K.encode_ordinary(text), TT_R50K.encode_ordinary(text), "r50k on {text:?}");
        assert_eq!(CL100K.encode_ordinary(text), TT_CL100K.encode_ordinary(text), "cl100k on {text:?}");
        assert_eq!(R50K.decode(&R50K.encode_ordinary(text)).unwrap(), *text);
        assert_eq!(CL100K.decode(&CL100K.encode_ordinary(text)).unwrap(), *text);
    }
}

// ---- pathological inputs: correct output; growth is measured in benches/bpe.rs ----

fn assert_like_tiktoken(text: &str, what: &str) {
    for (name, bpe, tt) in [("r50k", &*R50K, &*TT_R50K), ("cl100k", &*CL100K, &*TT_CL100K)] {
        let ids = bpe.encode_ordinary(text);
        let want = tt.encode_ordinary(text);
        assert!(ids == want, "{name} on {what}: {} ids vs tiktoken's {}", ids.len(), want.len());
        assert_eq!(bpe.decode(&ids).unwrap(), text, "{name} round trip on {what}");
    }
}

#[test]
fn pathological_100kb_word_without_spaces() {
    let word = lcg_letters(100_000, 42, b"abcdefghijklmnopqrstuvwxyz");
    assert_eq!(split_r50k(&word).len(), 1);
    assert_eq!(split_cl100k(&word).len(), 1);
    assert_like_tiktoken(&word, "a 100 KB word");
}

#[test]
fn pathological_1mb_of_one_emoji() {
    let text = "😀".repeat(1 << 18);
    assert_eq!(text.len(), 1 << 20);
    assert_like_tiktoken(&text, "1 MB of 😀");
}

#[test]
fn pathological_line_of_control_characters() {
    let text: String = (0u32..0x20).chain(0x7F..0xA0).filter_map(char::from_u32).filter(|c| *c != '\n').collect();
    assert_like_tiktoken(&text, "control characters");
    let repeated = text.repeat(2000);
    assert_like_tiktoken(&repeated, "control characters x2000");
}

/// tiktoken-rs with a catch-all pattern: it BPE-encodes a whole text as one piece.
fn tiktoken_whole(ranks: &HashMap<Vec<u8>, u32>) -> CoreBPE {
    tiktoken(ranks, &[], r"[\s\S]+")
}

#[test]
fn pathological_1mb_of_whitespace() {
    // fancy-regex overflows its stack on `\s+(?!\S)` over a megabyte of spaces, so tiktoken-rs
    // cannot encode these with the real patterns. The splits are simple enough to state by
    // hand (a whitespace run reaching the end is one piece under both patterns; before a
    // letter, the run minus one space, then " x"), and tiktoken-rs encodes each piece whole.
    let spaces = " ".repeat(1 << 20);
    let mixed = lcg_letters(1 << 20, 7, b"  \t\n\r ");
    // A long run before a letter: 64 KB suffices for the split rule (and halves debug time).
    let before_word = format!("{}x", &spaces[..1 << 16]);
    let cases: [(&str, &str, Vec<&str>); 3] = [
        ("1 MB of spaces", &spaces, vec![&spaces]),
        ("1 MB of mixed whitespace", &mixed, vec![&mixed]),
        ("64 KB of spaces then a letter", &before_word, vec![&spaces[1..1 << 16], " x"]),
    ];
    let whole = [(&*R50K, tiktoken_whole(&R50K_RANKS)), (&*CL100K, tiktoken_whole(&CL100K_RANKS))];
    for (what, text, pieces) in cases {
        assert_eq!(split_r50k(text), pieces, "r50k split of {what}");
        assert_eq!(split_cl100k(text), pieces, "cl100k split of {what}");
        for (bpe, tt) in &whole {
            // Both sides take seconds in a debug build: run them side by side.
            let (want, ids) = rayon::join(
                || pieces.iter().flat_map(|p| tt.encode_ordinary(p)).collect::<Vec<u32>>(),
                || bpe.encode_ordinary(text),
            );
            assert!(ids == want, "{} on {what}: {} ids vs tiktoken's {}", bpe.pattern().name(), ids.len(), want.len());
            assert_eq!(bpe.decode(&ids).unwrap(), text, "round trip on {what}");
        }
    }
}

// ---- special tokens ----

#[test]
fn special_tokens_when_allowed() {
    let text = "hello<|endoftext|>world <|endoftext|>";
    let ids = R50K.encode(text, &[ENDOFTEXT]).unwrap();
    assert_eq!(ids, [31373, 50256, 6894, 220, 50256]);
    let tt_allowed: HashSet<&str> = [ENDOFTEXT].into();
    assert_eq!(ids, TT_R50K.encode(text, &tt_allowed).unwrap().0);
    assert_eq!(R50K.decode(&ids).unwrap(), text);
    // Not allowed: ordinary text, as encode_ordinary.
    let ordinary = R50K.encode(text, &[]).unwrap();
    assert_eq!(ordinary, R50K.encode_ordinary(text));
    assert_eq!(ordinary, TT_R50K.encode_ordinary(text));
    assert!(!ordinary.contains(&50256));
    assert_eq!(R50K.encode_with_special_tokens(text), ids);

    let text = "<|fim_prefix|>a<|fim_suffix|>b<|fim_middle|><|endofprompt|>x<|endoftext|>";
    let all = CL100K.encode_with_special_tokens(text);
    assert_eq!(all, TT_CL100K.encode_with_special_tokens(text));
    assert!(all.starts_with(&[100258]) && all.ends_with(&[100257]));
    let some = CL100K.encode(text, &["<|fim_suffix|>"]).unwrap();
    let tt_some: HashSet<&str> = ["<|fim_suffix|>"].into();
    assert_eq!(some, TT_CL100K.encode(text, &tt_some).unwrap().0);
    assert_eq!(CL100K.decode(&all).unwrap(), text);

    let err = R50K.encode("x", &["<|fim_prefix|>"]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Value);
    assert!(err.to_string().contains("not a special token"), "{err}");
}

#[test]
fn decode_replaces_invalid_utf8_and_rejects_unknown_ids() {
    // "😀" is 4 bytes; its first byte alone is invalid UTF-8.
    let first = R50K.token_id(&[0xF0]).unwrap();
    assert_eq!(R50K.decode(&[first, 31373]).unwrap(), "\u{FFFD}hello");
    assert_eq!(R50K.decode_bytes(&[first]).unwrap(), [0xF0]);
    let err = R50K.decode(&[31373, 60000]).unwrap_err();
    assert!(err.to_string().contains("unknown token id 60000"), "{err}");
}

// ---- malformed files ----

fn tiktoken_error(contents: &str) -> String {
    let err = Bpe::from_tiktoken_bytes(contents.as_bytes(), "bad.tiktoken", Pattern::R50k).err().expect("an error");
    assert_eq!(err.kind(), ErrorKind::Parse, "{err}");
    err.to_string()
}

#[test]
fn malformed_tiktoken_files_name_file_and_line() {
    let good = small_rank_file(&[]);
    let with = |line: &str| format!("{good}{line}\n");
    let e = tiktoken_error(&with("!!notbase64!! 256"));
    assert!(e.starts_with("bad.tiktoken:257: bad base64 token"), "{e}");
    let e = tiktoken_error(&with("YWI="));
    assert!(e.starts_with("bad.tiktoken:257: missing rank"), "{e}");
    let e = tiktoken_error(&with("YWI= twelve"));
    assert!(e.starts_with("bad.tiktoken:257: rank \"twelve\" is not an integer"), "{e}");
    let e = tiktoken_error(&with("YWI= -3"));
    assert!(e.starts_with("bad.tiktoken:257: rank \"-3\" is not an integer"), "{e}");
    let e = tiktoken_error(&with("YWI= 4294967295"));
    assert!(e.starts_with("bad.tiktoken:257: rank \"4294967295\""), "{e}");
    let e = tiktoken_error(&with("YWI= 256 7"));
    assert!(e.starts_with("bad.tiktoken:257: extra fields"), "{e}");
    // "YQ==" is "a", already on line 98 (byte 97).
    let e = tiktoken_error(&with("YQ== 300"));
    assert!(e.starts_with("bad.tiktoken:257: duplicate token \"a\" (first on line 98)"), "{e}");
    let e = tiktoken_error(&with("YWI= 5"));
    assert!(e.starts_with("bad.tiktoken:257: duplicate rank 5 (first on line 6)"), "{e}");
    let missing_byte: String = good.lines().skip(1).map(|l| format!("{l}\n")).collect();
    let e = tiktoken_error(&missing_byte);
    assert!(e.contains("no token for byte 0x00"), "{e}");
    // Blank lines and CRLF endings are fine.
    assert!(
        Bpe::from_tiktoken_bytes(format!("\n{}\r\n\n", good.replace('\n', "\r\n")).as_bytes(), "x", Pattern::R50k)
            .is_ok()
    );
}

#[test]
fn file_errors_name_the_path() {
    let dir = std::env::temp_dir().join(format!("anyproc-bpe-ops-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("broken.tiktoken");
    std::fs::write(&path, format!("{}YWI=\n", small_rank_file(&[]))).unwrap();
    let err = Bpe::from_tiktoken_file(&path, Pattern::Cl100k).err().unwrap();
    assert!(err.to_string().starts_with(&format!("{}:257: missing rank", path.display())), "{err}");
    let err = Bpe::from_tiktoken_file(dir.join("absent.tiktoken"), Pattern::R50k).err().unwrap();
    assert_eq!(err.kind(), ErrorKind::Io);
    assert!(err.to_string().contains("absent.tiktoken"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// GPT-2 files for the 256 bytes plus `merges`, with ids in tiktoken's order.
fn small_gpt2(merges: &[(&str, &str)]) -> (String, String) {
    let mut vocab: Vec<(String, usize)> = (0..=255u8).map(|b| (byte_to_char(b).to_string(), 0)).collect();
    // GPT-2 numbers single bytes in bytes_to_unicode's order: printable ones first.
    vocab.sort_by_key(|(s, _)| s.chars().next().map(|c| c as u32));
    for (i, (_, id)) in vocab.iter_mut().enumerate() {
        *id = i;
    }
    for (i, (a, b)) in merges.iter().enumerate() {
        vocab.push((format!("{a}{b}"), 256 + i));
    }
    vocab.push((ENDOFTEXT.to_string(), 256 + merges.len()));
    let json = serde_json::to_string(&vocab.into_iter().collect::<HashMap<_, _>>()).unwrap();
    let bpe = std::iter::once("#version: 0.2".to_string()).chain(merges.iter().map(|(a, b)| format!("{a} {b}")));
    (json, bpe.collect::<Vec<_>>().join("\n") + "\n")
}

fn gpt2_error(json: &str, bpe: &str) -> String {
    let err = Bpe::from_gpt2_bytes(json.as_bytes(), "enc.json", bpe.as_bytes(), "vocab.bpe").err().expect("an error");
    err.to_string()
}

#[test]
fn small_gpt2_files_encode_by_merge_order() {
    let (json, merges) = small_gpt2(&[("Ġ", "h"), ("e", "l"), ("Ġh", "el"), ("l", "o")]);
    let bpe = Bpe::from_gpt2_bytes(json.as_bytes(), "enc.json", merges.as_bytes(), "vocab.bpe").unwrap();
    let id = |s: &str| serde_json::from_str::<HashMap<String, u32>>(&json).unwrap()[s];
    assert_eq!(bpe.encode_ordinary(" hello"), [id("Ġhel"), id("lo")]);
    assert_eq!(bpe.special_tokens(), [(ENDOFTEXT.to_string(), 260)]);
    assert_eq!(bpe.encode("a<|endoftext|>", &[ENDOFTEXT]).unwrap(), [id("a"), 260]);
}

#[test]
fn malformed_gpt2_files_name_file_and_line() {
    let (json, merges) = small_gpt2(&[("Ġ", "h"), ("e", "l")]);
    let e = gpt2_error("{\"a\": 1,", &merges);
    assert!(e.starts_with("enc.json: invalid JSON object"), "{e}");
    let e = gpt2_error("{\"a\": -1}", &merges);
    assert!(e.starts_with("enc.json: token \"a\" has id -1"), "{e}");
    let e = gpt2_error(&json, &format!("{merges}x y\n"));
    assert!(e.starts_with("vocab.bpe:4: merge result \"xy\" is not in enc.json"), "{e}");
    let e = gpt2_error(&json, &format!("{merges}x y z\n"));
    assert!(e.starts_with("vocab.bpe:4: expected two space-separated symbols"), "{e}");
    let e = gpt2_error(&json, &format!("{merges}x 😀\n"));
    assert!(e.starts_with("vocab.bpe:4: symbol \"😀\" is not in GPT-2's byte-level alphabet"), "{e}");
    let e = gpt2_error(&json, &format!("{merges}e l\n"));
    assert!(e.starts_with("vocab.bpe:4: merge result \"el\" repeats line 3"), "{e}");
    let e = gpt2_error(&json.replace("\"!\":", "\"!!\":"), &merges);
    assert!(e.contains("no token for byte 0x21"), "{e}");
}

// ---- registered ops ----

fn call(name: &str, args: &[AnyValue]) -> anyproc::Result<AnyValue> {
    let views: Vec<AnyView<'_>> = args.iter().map(AnyValue::view).collect();
    get_global_func(name)?.call(&views)
}

fn ints(v: &AnyValue) -> Vec<i64> {
    v.get::<List>().unwrap().to_vec_of::<i64>().unwrap()
}

#[test]
fn registered_pre_tokenizers() {
    let out = call("text.gpt2_pre_tokenize", &["Hello  world's".into()]).unwrap();
    assert_eq!(out.get::<List>().unwrap().to_vec_of::<String>().unwrap(), ["Hello", " ", " world", "'s"]);
    let out = call("text.gpt2_pre_tokenize", &["Hello  world".into(), true.into()]).unwrap();
    assert_eq!(out.get::<List>().unwrap().to_vec_of::<String>().unwrap(), ["Hello", "Ġ", "Ġworld"]);
    let ucs4 = AnyValue::from_chars(&['h', 'é', ' ', '1', '2', '3', '4']);
    let out = call("text.cl100k_pre_tokenize", std::slice::from_ref(&ucs4)).unwrap();
    assert_eq!(out.get::<List>().unwrap().to_vec_of::<String>().unwrap(), ["hé", " ", "123", "4"]);
    let ids = call(
        "tok.bpe.from_tiktoken",
        &[rank_file("cl100k_base.tiktoken").display().to_string().into(), "cl100k".into()],
    )
    .unwrap()
    .get::<anyproc::PackedFunc>()
    .unwrap()
    .call(&[ucs4.view()])
    .unwrap();
    assert_eq!(ints(&ids).iter().map(|&i| i as u32).collect::<Vec<_>>(), CL100K.encode_ordinary("hé 1234"));
    let out = call("text.cl100k_pre_tokenize", &["x 1234".into()]).unwrap();
    assert_eq!(out.get::<List>().unwrap().to_vec_of::<String>().unwrap(), ["x", " ", "123", "4"]);
    let err = call("text.cl100k_pre_tokenize", &[3i64.into()]).unwrap_err();
    assert_eq!(err.to_string(), "text.cl100k_pre_tokenize: argument 0: expected str, got int");
    let err = call("text.cl100k_pre_tokenize", &[]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Arity);
}

#[test]
fn registered_bpe_constructors() {
    let path = rank_file("r50k_base.tiktoken").display().to_string();
    let enc = call("tok.bpe.from_tiktoken", &[path.as_str().into(), "r50k".into()]).unwrap();
    let enc = enc.get::<anyproc::PackedFunc>().unwrap();
    let ids = enc.call(&["hello world".into()]).unwrap();
    assert_eq!(ints(&ids), [31373, 995]);
    let ids = enc.call(&["a<|endoftext|>".into(), "all".into()]).unwrap();
    assert_eq!(ints(&ids), [64, 50256]);
    let allowed = AnyValue::from(List::from(vec![ENDOFTEXT]));
    let ids = enc.call(&["a<|endoftext|>".into(), allowed.view()]).unwrap();
    assert_eq!(ints(&ids), [64, 50256]);
    let err = enc.call(&["a".into(), "<|nope|>".into()]).unwrap_err();
    assert!(err.to_string().starts_with("tok.bpe.encode: \"<|nope|>\" is not a special token"), "{err}");

    let gpt2 = call(
        "tok.bpe.from_gpt2",
        &[
            common::asset("gpt2/encoder.json").display().to_string().into(),
            common::asset("gpt2/vocab.bpe").display().to_string().into(),
        ],
    )
    .unwrap();
    let ids = gpt2.get::<anyproc::PackedFunc>().unwrap().call(&["hello world".into()]).unwrap();
    assert_eq!(ints(&ids), [31373, 995]);

    let dec = call("tok.bpe.decode.new", &["tiktoken".into(), path.as_str().into(), "r50k".into()]).unwrap();
    let dec = dec.get::<anyproc::PackedFunc>().unwrap();
    let text = dec.call(&[AnyValue::from(List::from(vec![31373i64, 995, 50256])).view()]).unwrap();
    assert_eq!(text, "hello world<|endoftext|>");
    let err = dec.call(&[AnyValue::from(List::from(vec![-1i64])).view()]).unwrap_err();
    assert!(err.to_string().contains("list item 0"), "{err}");

    let err = call("tok.bpe.from_tiktoken", &[path.as_str().into(), "p50k".into()]).unwrap_err();
    assert!(err.to_string().contains("unknown pre-tokenization pattern \"p50k\""), "{err}");
    let err = call("tok.bpe.decode.new", &["sentencepiece".into(), "a".into(), "b".into()]).unwrap_err();
    assert!(err.to_string().contains("unknown BPE format"), "{err}");
}
