//! The `text.*` ops (ops/normalize.rs, ops/split.rs): each through the registry
//! and through its core function, against hand-written expectations.
//!
//! References, stated per case: Python 3's `str` methods (`lower`, `upper`,
//! `casefold`, `strip`, `replace`, `split`) and `re.sub`; HF tokenizers'
//! `SplitDelimiterBehavior` tests (normalizer.rs `split`, pre_tokenizers/split.rs
//! `basic`, pre_tokenizers/digits.rs), and, differentially, the `tokenizers`
//! crate itself (a dev-dependency) on the corpus head. Bad input must come back
//! as an error with the documented message, never a panic.

mod common;

use anyproc::any::type_index::{SMALL_STR, SMALL_USTR};
use anyproc::ops::normalize as norm;
use anyproc::ops::split as sp;
use anyproc::{AnyValue, AnyView, Error, ErrorKind, List, PackedFunc, Str, UStr, get_global_func};
use std::time::{Duration, Instant};

// ---------------------------------------------------------------- helpers

/// Calls the registered op `name`.
fn call(name: &str, args: &[AnyView<'_>]) -> anyproc::Result<AnyValue> {
    get_global_func(name)?.call(args)
}

/// Calls a `str -> str` op and returns the text.
fn call_str(name: &str, args: &[AnyView<'_>]) -> String {
    let out = call(name, args).unwrap_or_else(|e| panic!("{name}: {e}"));
    out.get::<String>().unwrap_or_else(|e| panic!("{name} returned {out:?}: {e}"))
}

/// Calls a `... -> list` op and returns its items as strings.
fn call_list(name: &str, args: &[AnyView<'_>]) -> Vec<String> {
    let out = call(name, args).unwrap_or_else(|e| panic!("{name}: {e}"));
    out.get::<List>().and_then(|l| l.to_vec_of::<String>()).unwrap_or_else(|e| panic!("{name} returned {out:?}: {e}"))
}

fn err_of<T: std::fmt::Debug>(r: anyproc::Result<T>) -> Error {
    match r {
        Ok(v) => panic!("expected an error, got Ok({v:?})"),
        Err(e) => e,
    }
}

/// Checks a `str -> str` op on `(input, expected)` pairs, through the registry and the core function.
fn check_map(name: &str, core: fn(&str) -> String, cases: &[(&str, &str)]) {
    for &(input, want) in cases {
        assert_eq!(call_str(name, &[input.into()]), want, "{name}({input:?}) through the registry");
        assert_eq!(core(input), want, "{name}({input:?}) through the core function");
    }
}

fn strs(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

// ---------------------------------------------------------------- case mapping

#[test]
fn lower_follows_python() {
    // Python: "ǅ".lower() == "ǆ" (titlecase digraph); "ΣΑΣ ΟΔΟΣ".lower() == "σας οδος"
    // (final sigma at word end); "İ".lower() == "i̇" (i + U+0307, a full mapping, 2 chars).
    check_map(
        "text.lower",
        |s| norm::lower(s).into_owned(),
        &[
            ("HeLLo", "hello"),
            ("hello", "hello"),
            ("ǅ", "ǆ"),
            ("ΣΑΣ ΟΔΟΣ", "σας οδος"),
            ("İ", "i\u{307}"),
            ("ÀÉÎ", "àéî"),
            ("", ""),
        ],
    );
}

#[test]
fn upper_follows_python() {
    // Python: "ß".upper() == "SS", "ﬁ".upper() == "FI", "ǆ".upper() == "Ǆ".
    check_map(
        "text.upper",
        |s| norm::upper(s).into_owned(),
        &[("hello", "HELLO"), ("ß", "SS"), ("ﬁ", "FI"), ("ǆ", "Ǆ"), ("straße", "STRASSE"), ("", "")],
    );
}

#[test]
fn casefold_follows_python() {
    // Python: "ß".casefold() == "ss", "ẞ".casefold() == "ss", "ﬁ".casefold() == "fi",
    // "ς".casefold() == "σ", "ΣΑΣ".casefold() == "σασ" (no final-sigma context in folding),
    // "ᏸ".casefold() == "Ᏸ" (Cherokee folds to the uppercase letters).
    check_map(
        "text.casefold",
        |s| norm::casefold(s).into_owned(),
        &[
            ("HeLLo", "hello"),
            ("ß", "ss"),
            ("ẞ", "ss"),
            ("ﬁ", "fi"),
            ("ς", "σ"),
            ("ΣΑΣ", "σασ"),
            ("\u{13F8}", "\u{13F0}"),
            ("", ""),
        ],
    );
}

// ---------------------------------------------------------------- normal forms and accents

#[test]
fn normal_forms() {
    // Python's unicodedata.normalize gives the same on each of these.
    check_map("text.nfc", |s| norm::nfc(s).into_owned(), &[("e\u{301}", "é"), ("\u{212B}", "\u{C5}"), ("ﬁ", "ﬁ")]);
    check_map("text.nfd", |s| norm::nfd(s).into_owned(), &[("é", "e\u{301}"), ("한", "\u{1112}\u{1161}\u{11AB}")]);
    check_map("text.nfkc", |s| norm::nfkc(s).into_owned(), &[("ﬁ", "fi"), ("①", "1"), ("ｶ\u{FF9E}", "ガ")]);
    check_map("text.nfkd", |s| norm::nfkd(s).into_owned(), &[("ﬁ", "fi"), ("é", "e\u{301}"), ("²", "2")]);
    for name in ["text.nfc", "text.nfd", "text.nfkc", "text.nfkd"] {
        assert_eq!(call_str(name, &["plain ascii".into()]), "plain ascii");
        assert_eq!(call_str(name, &["".into()]), "");
    }
}

#[test]
fn strip_accents_is_nfd_without_nonspacing_marks() {
    // As HF's BertNormalizer(strip_accents=True): NFD, then drop Mn. Hangul stays decomposed
    // (jamo are letters, Lo); Devanagari's vowel sign I (U+093F) is Mc, a spacing mark, and stays.
    check_map(
        "text.strip_accents",
        |s| norm::strip_accents(s).into_owned(),
        &[
            ("Héllo wörld", "Hello world"),
            ("Ångström café", "Angstrom cafe"),
            ("한", "\u{1112}\u{1161}\u{11AB}"),
            ("कि", "कि"),
            ("ﬁ", "ﬁ"),
            ("\u{301}", ""),
        ],
    );
}

#[test]
fn unchanged_input_is_returned_as_the_same_object() {
    // The fast path hands back the caller's own heap string instead of a copy.
    let input = Str::new("already normalized, lowercase, and longer than eight bytes");
    assert!(!input.is_inline());
    let input_any = input.clone().into_any();
    let input_ptr = input_any.as_obj().map(|o| o.as_raw());
    for name in ["text.lower", "text.casefold", "text.nfc", "text.nfd", "text.nfkc", "text.nfkd", "text.strip"] {
        let out = call(name, &[input_any.view()]).unwrap();
        assert_eq!(out.as_obj().map(|o| o.as_raw()), input_ptr, "{name} copied an unchanged string");
    }
    let out = call("text.replace", &[input_any.view(), "[0-9]".into(), "#".into()]).unwrap();
    assert_eq!(out.as_obj().map(|o| o.as_raw()), input_ptr, "text.replace copied an unchanged string");
    // A changed string is a new object with the new text.
    let out = call("text.upper", &[input_any.view()]).unwrap();
    assert_eq!(out, "ALREADY NORMALIZED, LOWERCASE, AND LONGER THAN EIGHT BYTES");
}

#[test]
fn ucs4_input_is_accepted() {
    // A UCS4 string is text too; the ops read it as UTF-8.
    let u = UStr::new("ÉCOLE");
    assert_eq!(call_str("text.lower", &[u.view()]), "école");
    assert_eq!(call_list("text.chars", &[u.view()]), strs(&["É", "C", "O", "L", "E"]));
}

// ---------------------------------------------------------------- replace and strip

#[test]
fn regex_replace_follows_re_sub() {
    // Python: re.sub(r"\d+", "#", "a1b22c333") == "a#b#c#";
    // re.sub(r"(\w+) (\w+)", r"\2 \1", "John Smith") == "Smith John" (here `$2 $1`);
    // re.sub(r"\s+(?!\S)", "", "a  b   c") == "a b c" (look-ahead, as in GPT-2's pattern).
    let cases: &[(&str, &str, &str, &str)] = &[
        ("a1b22c333", r"\d+", "#", "a#b#c#"),
        ("John Smith", r"(\w+) (\w+)", "$2 $1", "Smith John"),
        ("a  b   c", r"\s+(?!\S)", "", "a b c"),
        ("price: $5", r"\$", "$$", "price: $5"),
        ("no match", r"\d", "#", "no match"),
        ("", r"x*", "-", "-"),
    ];
    for &(text, pattern, rep, want) in cases {
        assert_eq!(call_str("text.replace", &[text.into(), pattern.into(), rep.into()]), want, "{pattern:?}");
        assert_eq!(norm::replace(text, pattern, rep).unwrap(), want, "{pattern:?} (core)");
        let compiled: PackedFunc = call("text.replace.new", &[pattern.into(), rep.into()]).unwrap().get().unwrap();
        assert_eq!(compiled.call(&[text.into()]).unwrap(), want, "{pattern:?} (compiled)");
    }
}

#[test]
fn invalid_regex_is_a_value_error_naming_the_pattern() {
    for name in ["text.replace", "text.replace.new"] {
        let args: Vec<AnyView<'_>> = if name == "text.replace" {
            vec!["x".into(), "(ab".into(), "".into()]
        } else {
            vec!["(ab".into(), "".into()]
        };
        let e = err_of(call(name, &args));
        assert_eq!(e.kind(), ErrorKind::Value, "{e}");
        let shown = e.to_string();
        assert!(shown.starts_with(&format!("{name}: invalid regex \"(ab\": ")), "{shown}");
        assert!(shown.len() > format!("{name}: invalid regex \"(ab\": ").len(), "the regex error is missing: {shown}");
    }
    let e = err_of(call("text.split", &["x".into(), "[z-a]".into(), "removed".into(), false.into()]));
    assert_eq!(e.kind(), ErrorKind::Value);
    assert!(e.to_string().starts_with("text.split: invalid regex \"[z-a]\": "), "{e}");
}

#[test]
fn regex_cache_survives_many_distinct_patterns() {
    // More distinct patterns than the cache holds: eviction must keep every call correct.
    for i in 0..200 {
        let pattern = format!("x{{{}}}", i % 150 + 1);
        let text = "x".repeat(i % 150 + 1);
        assert_eq!(call_str("text.replace", &[text.as_str().into(), pattern.as_str().into(), "#".into()]), "#");
    }
}

#[test]
fn literal_replace_follows_python() {
    // Python: "a.b.c".replace(".", "-") == "a-b-c" (no regex); "abc".replace("", "-") == "-a-b-c-";
    // "aaa".replace("aa", "b") == "ba" (left to right, non-overlapping).
    let cases =
        [("a.b.c", ".", "-", "a-b-c"), ("abc", "", "-", "-a-b-c-"), ("aaa", "aa", "b", "ba"), ("x", "y", "z", "x")];
    for (text, old, new, want) in cases {
        assert_eq!(call_str("text.replace_literal", &[text.into(), old.into(), new.into()]), want);
        assert_eq!(norm::replace_literal(text, old, new), want);
    }
}

#[test]
fn strip_follows_python() {
    // Python: "  a b\t".strip() == "a b"; "\x1ca\x1f".strip() == "a" (information separators
    // are whitespace to Python); "\u200bx".strip() == "\u200bx" (ZWSP is not whitespace);
    // "\xa0x\u3000".strip() == "x".
    check_map(
        "text.strip",
        |s| norm::strip(s).to_owned(),
        &[("  a b\t", "a b"), ("\u{1c}a\u{1f}", "a"), ("\u{200b}x", "\u{200b}x"), ("\u{a0}x\u{3000}", "x"), ("", "")],
    );
    check_map("text.lstrip", |s| norm::lstrip(s).to_owned(), &[("  a b\t", "a b\t"), ("\n\n", "")]);
    check_map("text.rstrip", |s| norm::rstrip(s).to_owned(), &[("  a b\t", "  a b"), ("x\u{85}", "x")]);
}

// ---------------------------------------------------------------- splitting

#[test]
fn split_whitespace_follows_rust_and_hf() {
    // Rust's str::split_whitespace and HF's WhitespaceSplit: runs of White_Space, no empty pieces.
    // Python's "a\x0bb".split() == ["a", "b"] too; Python would also split on U+001C..U+001F,
    // which are not White_Space, so here they stay inside a piece.
    let cases: &[(&str, &[&str])] = &[
        ("  a b\t\nc  ", &["a", "b", "c"]),
        ("a\x0bb\x0cc\rd", &["a", "b", "c", "d"]),
        ("\u{3000}日本\u{a0}語 ", &["日本", "語"]),
        ("a\u{1c}b", &["a\u{1c}b"]),
        ("", &[]),
        (" \t ", &[]),
    ];
    for &(text, want) in cases {
        assert_eq!(call_list("text.split_whitespace", &[text.into()]), strs(want), "{text:?}");
        assert_eq!(sp::split_whitespace(text).collect::<Vec<_>>(), want, "{text:?} (core)");
        assert_eq!(text.split_whitespace().collect::<Vec<_>>(), want, "{text:?} (std)");
    }
}

#[test]
fn uax29_segmentation() {
    let text = "Hello, world! Can't stop 3.14.";
    // UAX #29 words: "can't" and "3.14" are one word each (WB6/7, WB11/12).
    let words = ["Hello", "world", "Can't", "stop", "3.14"];
    assert_eq!(call_list("text.split_words", &[text.into()]), strs(&words));
    assert_eq!(sp::split_words(text).collect::<Vec<_>>(), words);
    let bounds = ["Hello", ",", " ", "world", "!", " ", "Can't", " ", "stop", " ", "3.14", "."];
    assert_eq!(call_list("text.word_bounds", &[text.into()]), strs(&bounds));
    assert_eq!(sp::word_bounds(text).collect::<String>(), text, "word bounds cover the text");

    // Graphemes: e + combining acute is one; a ZWJ family and a flag pair are one each.
    let text = "e\u{301}👨\u{200d}👩\u{200d}👧🇫🇷x";
    let graphemes = ["e\u{301}", "👨\u{200d}👩\u{200d}👧", "🇫🇷", "x"];
    assert_eq!(call_list("text.split_graphemes", &[text.into()]), strs(&graphemes));
    assert_eq!(sp::split_graphemes(text).collect::<Vec<_>>(), graphemes);

    // Sentences keep their trailing spaces and cover the text.
    let text = "Hello world. How are you? Fine.";
    let sentences = ["Hello world. ", "How are you? ", "Fine."];
    assert_eq!(call_list("text.split_sentences", &[text.into()]), strs(&sentences));
    assert_eq!(sp::split_sentences(text).collect::<Vec<_>>(), sentences);

    // Empty text has no segments (collecting unicode-segmentation's own sentence iterator
    // would panic here in a debug build: its size hint underflows).
    assert!(sp::split_sentences("").collect::<Vec<_>>().is_empty());
    assert!(sp::word_bounds("").chain(sp::split_words("")).chain(sp::split_graphemes("")).next().is_none());
}

#[test]
fn chars_are_inline_one_character_strings() {
    // One item per code point, as Python's list("añ€😀"); every item up to 4 bytes is inline.
    let text = "añ€😀";
    let list: List = call("text.chars", &[text.into()]).unwrap().get().unwrap();
    assert_eq!(list.to_vec_of::<String>().unwrap(), strs(&["a", "ñ", "€", "😀"]));
    list.with_items(|items| {
        for item in items {
            assert_eq!(item.type_index(), SMALL_STR, "{item:?} is not an inline UTF-8 string");
            assert!(!item.is_object());
        }
    });
    assert_eq!(sp::chars(text).collect::<Vec<_>>(), ["a", "ñ", "€", "😀"]);

    let list: List = call("text.chars_ucs4", &[text.into()]).unwrap().get().unwrap();
    assert_eq!(list.to_vec_of::<String>().unwrap(), strs(&["a", "ñ", "€", "😀"]));
    list.with_items(|items| {
        for item in items {
            assert_eq!(item.type_index(), SMALL_USTR, "{item:?} is not an inline UCS4 string");
            assert_eq!(item.get::<UStr>().unwrap().len(), 1);
        }
    });
}

/// HF's `SplitDelimiterBehavior` on "The-final--countdown" with "-" (normalizer.rs, test `split`).
const HF_DASH_CASES: [(&str, &[&str]); 5] = [
    ("removed", &["The", "final", "countdown"]),
    ("isolated", &["The", "-", "final", "-", "-", "countdown"]),
    ("merged_with_previous", &["The-", "final-", "-", "countdown"]),
    ("merged_with_next", &["The", "-final", "-", "-countdown"]),
    ("contiguous", &["The", "-", "final", "--", "countdown"]),
];

#[test]
fn split_behaviors_match_hf_docs() {
    let text = "The-final--countdown";
    for (behavior, want) in HF_DASH_CASES {
        let args = [text.into(), "-".into(), behavior.into(), false.into()];
        assert_eq!(call_list("text.split", &args), strs(want), "{behavior}");
        assert_eq!(sp::split(text, "-", behavior.parse().unwrap(), false).unwrap(), want, "{behavior} (core)");
        let f: PackedFunc =
            call("text.split.new", &["-".into(), behavior.into(), false.into()]).unwrap().get().unwrap();
        let got: List = f.call(&[text.into()]).unwrap().get().unwrap();
        assert_eq!(got.to_vec_of::<String>().unwrap(), strs(want), "{behavior} (compiled)");
    }
    // tokenizer.json spells them in CamelCase; both are accepted.
    let args = [text.into(), "-".into(), "MergedWithNext".into(), false.into()];
    assert_eq!(call_list("text.split", &args), strs(HF_DASH_CASES[3].1));
}

#[test]
fn split_invert_matches_hf_split_basic() {
    // HF pre_tokenizers/split.rs `basic`: pattern \w+|[^\w\s]+ with invert=true on "How are you doing?".
    let cases: [(&str, &[&str]); 5] = [
        ("removed", &["How", "are", "you", "doing", "?"]),
        ("isolated", &["How", " ", "are", " ", "you", " ", "doing", "?"]),
        ("merged_with_previous", &["How ", "are ", "you ", "doing", "?"]),
        ("merged_with_next", &["How", " are", " you", " doing", "?"]),
        ("contiguous", &["How", " ", "are", " ", "you", " ", "doing?"]),
    ];
    for (behavior, want) in cases {
        let args = ["How are you doing?".into(), r"\w+|[^\w\s]+".into(), behavior.into(), true.into()];
        assert_eq!(call_list("text.split", &args), strs(want), "{behavior}");
    }
}

#[test]
fn unknown_behavior_lists_the_valid_ones() {
    let e = err_of(call("text.split", &["a-b".into(), "-".into(), "merged".into(), false.into()]));
    assert_eq!(e.kind(), ErrorKind::Value);
    assert_eq!(
        e.to_string(),
        "text.split: unknown split behavior \"merged\"; expected one of: \
         removed, isolated, merged_with_previous, merged_with_next, contiguous"
    );
    let e = err_of(call("text.split.new", &["-".into(), "".into(), false.into()]));
    assert_eq!(e.kind(), ErrorKind::Value);
    assert!(e.to_string().contains("expected one of: removed, isolated"), "{e}");
}

#[test]
fn split_digits_matches_hf_digits() {
    // HF pre_tokenizers/digits.rs `numbers`: "Hey 123 friend!" -> "Hey ", "123", " friend!";
    // with individual digits -> "Hey ", "1", "2", "3", " friend!".
    let text = "Hey 123 friend!";
    assert_eq!(call_list("text.split_digits", &[text.into(), false.into()]), strs(&["Hey ", "123", " friend!"]));
    let each = ["Hey ", "1", "2", "3", " friend!"];
    assert_eq!(call_list("text.split_digits", &[text.into(), true.into()]), strs(&each));
    assert_eq!(sp::split_digits(text, true), each);
    // Any Unicode number counts (char::is_numeric, as HF): Arabic-Indic digits, "½".
    assert_eq!(sp::split_digits("x٤٢½y", false), ["x", "٤٢½", "y"]);
    assert_eq!(sp::split_digits("", false), Vec::<&str>::new());
}

// ---------------------------------------------------------------- differential checks against HF

/// The pieces HF's pre-tokenizer `pre` makes of `text`.
fn hf_pieces(pre: &impl tokenizers::PreTokenizer, text: &str) -> Vec<String> {
    let mut p = tokenizers::PreTokenizedString::from(text);
    pre.pre_tokenize(&mut p).unwrap();
    let splits = p.get_splits(tokenizers::OffsetReferential::Original, tokenizers::OffsetType::Byte);
    splits.into_iter().map(|(s, _, _)| s.to_owned()).collect()
}

/// HF's normalizer `n` applied to `text`.
fn hf_normalized(n: &impl tokenizers::Normalizer, text: &str) -> String {
    let mut s = tokenizers::NormalizedString::from(text);
    n.normalize(&mut s).unwrap();
    s.get().to_owned()
}

#[test]
fn corpus_agrees_with_hf_tokenizers() {
    use tokenizers::SplitDelimiterBehavior as B;
    use tokenizers::normalizers::BertNormalizer;
    use tokenizers::pre_tokenizers::{digits::Digits, split::Split, split::SplitPattern, whitespace::WhitespaceSplit};
    let (path, lines) = common::corpus();
    let behaviors = [
        ("removed", B::Removed),
        ("isolated", B::Isolated),
        ("merged_with_previous", B::MergedWithPrevious),
        ("merged_with_next", B::MergedWithNext),
        ("contiguous", B::Contiguous),
    ];
    // A GPT-2 style pattern (with look-ahead), a whitespace one, and two that match empty strings.
    let patterns = [r"'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+", r"\s+", r"e*", r"\b"];
    let strip = BertNormalizer::new(false, false, Some(true), false);
    // (pattern, behaviour name, invert, HF's splitter), built once: HF compiles its regex in `new`.
    let mut splitters = Vec::new();
    for pattern in patterns {
        for (name, b) in behaviors {
            for invert in [false, true] {
                splitters.push((
                    pattern,
                    name,
                    invert,
                    Split::new(SplitPattern::Regex(pattern.into()), b, invert).unwrap(),
                ));
            }
        }
    }
    for (n, line) in lines.iter().take(1500).enumerate() {
        let at = format!("{}:{}", path.display(), n + 1);
        let ours: Vec<&str> = sp::split_whitespace(line).collect();
        assert_eq!(ours, hf_pieces(&WhitespaceSplit, line), "split_whitespace at {at}");
        for individual in [false, true] {
            assert_eq!(sp::split_digits(line, individual), hf_pieces(&Digits::new(individual), line), "{at}");
        }
        assert_eq!(norm::strip_accents(line), hf_normalized(&strip, line), "strip_accents at {at}");
        for (pattern, name, invert, hf) in &splitters {
            let ours = sp::split(line, pattern, name.parse().unwrap(), *invert).unwrap();
            assert_eq!(ours, hf_pieces(hf, line), "split {pattern:?} {name} invert={invert} at {at}");
        }
    }
}

// ---------------------------------------------------------------- bad input

#[test]
fn wrong_argument_types_are_type_errors() {
    let e = err_of(call("text.lower", &[1i64.into()]));
    assert_eq!(e.kind(), ErrorKind::Type);
    assert_eq!(e.to_string(), "text.lower: argument 0: expected str, got int");
    let e = err_of(call("text.split_digits", &["12".into(), 1i64.into()]));
    assert_eq!(e.to_string(), "text.split_digits: argument 1: expected bool, got int");
    let e = err_of(call("text.replace", &["a".into(), "a".into(), AnyView::none()]));
    assert_eq!(e.to_string(), "text.replace: argument 2: expected str, got None");
    let e = err_of(call("text.nfkc", &[]));
    assert_eq!(e.kind(), ErrorKind::Arity);
    assert_eq!(e.to_string(), "text.nfkc: expected 1 argument, got 0");
    let compiled: PackedFunc =
        call("text.split.new", &["-".into(), "removed".into(), false.into()]).unwrap().get().unwrap();
    assert_eq!(err_of(compiled.call(&[2.5f64.into()])).to_string(), "text.split: argument 0: expected str, got float");
}

/// Every `text.*` op that takes just a string.
const STR_OPS: [&str; 18] = [
    "text.lower",
    "text.upper",
    "text.casefold",
    "text.nfc",
    "text.nfd",
    "text.nfkc",
    "text.nfkd",
    "text.strip_accents",
    "text.strip",
    "text.lstrip",
    "text.rstrip",
    "text.split_whitespace",
    "text.word_bounds",
    "text.split_words",
    "text.split_graphemes",
    "text.split_sentences",
    "text.chars",
    "text.chars_ucs4",
];

#[test]
fn odd_inputs_never_fail() {
    let inputs = [
        "",
        "\0\u{1}\u{7}\u{1b}\u{7f}\u{9f}",          // control characters only
        "\u{301}\u{302}\u{303}",                   // combining marks with no base
        "\u{202e}abc\u{202c}\u{200f}",             // bidi controls
        "\u{fffd}\u{feff}\u{fff9}",                // replacement char, BOM, annotation anchor
        "\u{10ffff}\u{e000}\u{f0000}",             // private use and the last code point
        "ﷺ",                                       // U+FDFA: NFKD is 18 characters
        "\u{1100}\u{1161}\u{11a8}\u{11a8}\u{302}", // jamo and stacked marks
    ];
    for name in STR_OPS {
        for text in inputs {
            call(name, &[text.into()]).unwrap_or_else(|e| panic!("{name}({text:?}): {e}"));
        }
    }
    // Control characters: not whitespace to Python's strip (\0, \x01, \x07, \x1b, \x7f)
    // and not split points; each is one grapheme (GB4/GB5: break around controls).
    let controls = "\0\u{1}\u{7}\u{1b}\u{7f}";
    assert_eq!(call_str("text.strip", &[controls.into()]), controls);
    assert_eq!(call_list("text.split_whitespace", &[controls.into()]), strs(&[controls]));
    assert_eq!(call_list("text.split_graphemes", &[controls.into()]).len(), 5);
    assert_eq!(call_str("text.lower", &[controls.into()]), controls);
    assert_eq!(call_str("text.nfkc", &["ﷺ".into()]).chars().count(), 18);
}

// ---------------------------------------------------------------- big inputs

/// Generous wall-clock limit for 1 MB inputs (a debug build on a loaded 2-core machine).
const BIG_INPUT_LIMIT: Duration = Duration::from_secs(10);

#[test]
fn a_megabyte_of_whitespace_splits_to_nothing_quickly() {
    for unit in [" ", "\t\n", "\u{3000}"] {
        let text = unit.repeat((1 << 20) / unit.len());
        let start = Instant::now();
        let pieces = call_list("text.split_whitespace", &[text.as_str().into()]);
        assert!(pieces.is_empty(), "{unit:?}");
        assert_eq!(call_str("text.strip", &[text.as_str().into()]), "");
        assert!(call_list("text.split_words", &[text.as_str().into()]).is_empty());
        assert!(start.elapsed() < BIG_INPUT_LIMIT, "{unit:?}: {:?}", start.elapsed());
    }
}

#[test]
fn a_megabyte_of_one_emoji() {
    // 😀 is 4 bytes in UTF-8, so 1 MiB holds 262,144 of them.
    let n = (1 << 20) / 4;
    let text = "😀".repeat(n);
    let start = Instant::now();
    let list: List = call("text.chars", &[text.as_str().into()]).unwrap().get().unwrap();
    assert_eq!(list.len(), n);
    list.with_items(|items| assert!(items.iter().all(|x| x.type_index() == SMALL_STR && *x == "😀")));
    let list: List = call("text.chars_ucs4", &[text.as_str().into()]).unwrap().get().unwrap();
    assert_eq!(list.len(), n);
    // Each emoji is its own grapheme (no ZWJ or modifiers between them), and the text has no spaces.
    assert_eq!(call("text.split_graphemes", &[text.as_str().into()]).unwrap().get::<List>().unwrap().len(), n);
    assert_eq!(call_list("text.split_whitespace", &[text.as_str().into()]).len(), 1);
    assert_eq!(call_str("text.nfkc", &[text.as_str().into()]).len(), 1 << 20);
    assert!(start.elapsed() < BIG_INPUT_LIMIT, "{:?}", start.elapsed());
}

// ---------------------------------------------------------------- registry metadata

#[test]
fn every_op_is_registered_with_a_doc_and_signature() {
    let names = [
        ("text.lower", "(str) -> str"),
        ("text.casefold", "(str) -> str"),
        ("text.replace", "(str, str, str) -> str"),
        ("text.replace.new", "(str, str) -> func"),
        ("text.replace_literal", "(str, str, str) -> str"),
        ("text.split", "(str, str, str, bool) -> list"),
        ("text.split.new", "(str, str, bool) -> func"),
        ("text.split_digits", "(str, bool) -> list"),
        ("text.chars", "(str) -> list"),
    ];
    for (name, signature) in names {
        let info = anyproc::func::registry().info(name).unwrap_or_else(|| panic!("{name} is not registered"));
        assert_eq!(info.signature, signature, "{name}");
        assert!(!info.doc.is_empty() && !info.doc.contains('\n'), "{name}: doc must be one line");
    }
    for name in STR_OPS {
        assert_eq!(anyproc::func::registry().info(name).map(|i| i.signature), Some("(str) -> ".to_owned() + ret(name)));
    }
}

/// The return type of a one-string op.
fn ret(name: &str) -> &'static str {
    if name.contains("split") || name.contains("chars") || name.contains("bounds") { "list" } else { "str" }
}
