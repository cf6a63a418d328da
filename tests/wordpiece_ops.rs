//! Registry-level tests of the WordPiece, BERT, vocab and seq ops, against hand-computed values.
//!
//! Every id below was looked up by hand in `pipelines/assets/bert-base-uncased/vocab.txt`
//! (id = line number - 1), e.g. `grep -nxF 'una' vocab.txt` gives line 14478, so id 14477.
//! Greedy longest-match-first was worked out by listing which prefixes of each
//! remainder are in the file:
//! - `unaffable`: `unaffable`..`unaf` absent, `una` 14477; `##ffable`..`##ffab` absent,
//!   `##ffa` 20961; `##ble` 3468.
//! - `tokenization`: `token` 19204, `##ization` 3989. `playing` 2652. `cats` 8870.
//! - `xyzzyq`: `x` 1060, `##y` 2100 (`##yz..` absent), `##zzy` 28753, `##q` 4160.
//! - `елка`: `е` 1185 (`ел`, `елк`, `елка` absent), `##л` 29436 (`##лк`, `##лка` absent), `##ка` 28598.
//! - `elan`: `el` 3449, `##an` 2319. `hello` 7592, `world` 2088, `,` 1010, `!` 999,
//!   `[UNK]` 100, `[CLS]` 101, `[SEP]` 102, `中` 1746, `文` 1861, `don` 2123, `'` 1005, `t` 1056.
//! - `☃` and `##☃` are absent.

mod common;

use anyproc::{AnyValue, Dict, ErrorKind, List, PackedFunc, get_global_func};
use common::asset;
use std::path::PathBuf;

fn vocab_path() -> String {
    asset("bert-base-uncased/vocab.txt").display().to_string()
}

fn func(name: &str) -> PackedFunc {
    get_global_func(name).unwrap_or_else(|e| panic!("{e}"))
}

/// Calls a constructor, returning the function it builds.
fn make(name: &str, args: Vec<AnyValue>) -> PackedFunc {
    call(&func(name), &args).unwrap_or_else(|e| panic!("{e}")).get::<PackedFunc>().unwrap()
}

fn ints(v: &AnyValue) -> Vec<i64> {
    v.get::<List>().unwrap().to_vec_of::<i64>().unwrap()
}

fn strs(v: &AnyValue) -> Vec<String> {
    v.get::<List>().unwrap().to_vec_of::<String>().unwrap()
}

fn list_of<T: Into<AnyValue> + Clone>(xs: &[T]) -> AnyValue {
    List::from(xs.to_vec()).into_any()
}

/// Calls `f` with owned arguments.
fn call(f: &PackedFunc, args: &[AnyValue]) -> anyproc::Result<AnyValue> {
    f.call_values(args)
}

fn err_of<T: std::fmt::Debug>(r: anyproc::Result<T>) -> anyproc::Error {
    r.expect_err("expected an error")
}

fn wordpiece(max_chars: i64) -> PackedFunc {
    make("tok.wordpiece.new", vec![vocab_path().into(), "[UNK]".into(), max_chars.into()])
}

#[test]
fn wordpiece_greedy_longest_match_first() {
    let wp = wordpiece(100);
    assert_eq!(ints(&call(&wp, &["unaffable".into()]).unwrap()), [14477, 20961, 3468]);
    let words = list_of(&["tokenization", "playing", "cats", "xyzzyq"]);
    assert_eq!(ints(&call(&wp, &[words]).unwrap()), [19204, 3989, 2652, 8870, 1060, 2100, 28753, 4160]);
    assert_eq!(ints(&call(&wp, &["елка".into()]).unwrap()), [1185, 29436, 28598]);
    assert_eq!(ints(&call(&wp, &["".into()]).unwrap()), Vec::<i64>::new());
}

#[test]
fn wordpiece_unknown_pieces_make_the_whole_word_unk() {
    let wp = wordpiece(100);
    assert_eq!(ints(&call(&wp, &["☃".into()]).unwrap()), [100]);
    // `a` alone is in the vocab, but `##☃` is not: the whole word is one [UNK].
    assert_eq!(ints(&call(&wp, &["a☃".into()]).unwrap()), [100]);
    let words = list_of(&["hello", "a☃", "world"]);
    assert_eq!(ints(&call(&wp, &[words]).unwrap()), [7592, 100, 2088]);
}

#[test]
fn wordpiece_max_chars_counts_chars_not_bytes() {
    let wp = wordpiece(5);
    assert_eq!(ints(&call(&wp, &["hello".into()]).unwrap()), [7592]);
    assert_eq!(ints(&call(&wp, &["playing".into()]).unwrap()), [100]);
    // 4 chars in 8 bytes: under the cap of 5.
    assert_eq!(ints(&call(&wp, &["елка".into()]).unwrap()), [1185, 29436, 28598]);
    let wp = wordpiece(3);
    assert_eq!(ints(&call(&wp, &["елка".into()]).unwrap()), [100]);
}

#[test]
fn wordpiece_errors_name_op_and_argument() {
    let wp = wordpiece(100);
    let e = err_of(call(&wp, &[AnyValue::from(5i64)]));
    assert_eq!(e.to_string(), "tok.wordpiece: argument 0: expected str, got int");
    let e = err_of(call(&wp, &[list_of(&[AnyValue::from("a"), AnyValue::from(1i64)])]));
    assert_eq!(e.to_string(), "tok.wordpiece: argument 0: list item 1: expected str, got int");
    let e = err_of(call(&wp, &[]));
    assert_eq!((e.kind(), e.to_string()), (ErrorKind::Arity, "tok.wordpiece: expected 1 argument, got 0".into()));
    let e = err_of(call(&func("tok.wordpiece.new"), &[vocab_path().into(), "<unk>".into(), 100i64.into()]));
    assert_eq!(e.kind(), ErrorKind::Key);
    assert!(e.to_string().contains("unk token \"<unk>\" is not in the vocabulary (30522 tokens)"), "{e}");
    let e = err_of(call(&func("tok.wordpiece.new"), &[vocab_path().into(), "[UNK]".into(), (-1i64).into()]));
    assert_eq!(e.to_string(), "tok.wordpiece.new: argument 2: int -1 is out of range for a non-negative size");
}

#[test]
fn decode_joins_glues_and_cleans_up_like_hf() {
    let dec = make("tok.wordpiece.decode.new", vec![vocab_path().into()]);
    let decode = |ids: &[i64], skip: bool| call(&dec, &[list_of(ids), skip.into()]).unwrap().get::<String>().unwrap();
    assert_eq!(decode(&[14477, 20961, 3468], false), "unaffable");
    // " ," -> "," and " !" -> "!" (cleanup); [CLS]/[SEP] kept unless skipped.
    assert_eq!(decode(&[101, 7592, 1010, 2088, 999, 102], false), "[CLS] hello, world! [SEP]");
    assert_eq!(decode(&[101, 7592, 1010, 2088, 999, 102], true), "hello, world!");
    // Cleanup runs per token: " '" alone matches none of HF's rules (" ' " needs a space after).
    assert_eq!(decode(&[2123, 1005, 1056], false), "don ' t");
    // A leading continuation piece keeps its prefix.
    assert_eq!(decode(&[2050, 1037], false), "##a a");
    assert_eq!(decode(&[], false), "");
    let one_arg = call(&dec, &[list_of(&[7592i64, 2088])]).unwrap();
    assert_eq!(one_arg.get::<String>().unwrap(), "hello world");
    let e = err_of(call(&dec, &[list_of(&[7592i64, 30522])]));
    assert_eq!(
        e.to_string(),
        "tok.wordpiece.decode: argument 0: list item 1: index 30522 out of range for length 30522"
    );
    let e = err_of(call(&dec, &[list_of(&[-1i64])]));
    assert_eq!(e.to_string(), "tok.wordpiece.decode: argument 0: list item 0: id -1 is not a token id");
}

#[test]
fn decode_round_trips_lowercase_words() {
    let wp = wordpiece(100);
    let dec = make("tok.wordpiece.decode.new", vec![vocab_path().into()]);
    for text in ["unaffable tokenization", "playing cats xyzzyq", "hello world"] {
        let words: Vec<&str> = text.split(' ').collect();
        let ids = call(&wp, &[list_of(&words)]).unwrap();
        assert_eq!(call(&dec, &[ids]).unwrap().get::<String>().unwrap(), text);
    }
}

#[test]
fn bert_tokenizer_end_to_end() {
    let bert = make("tok.bert.new", vec![vocab_path().into()]);
    let enc = |t: &str| ints(&call(&bert, &[t.into()]).unwrap());
    assert_eq!(enc("Hello, World!"), [101, 7592, 1010, 2088, 999, 102]);
    // Accents stripped, then lowercase; CJK ideographs isolated.
    assert_eq!(enc("Élan"), [101, 3449, 2319, 102]);
    assert_eq!(enc("中文"), [101, 1746, 1861, 102]);
    // ё is е + U+0308 after NFD; the mark is dropped.
    assert_eq!(enc("Ёлка"), [101, 1185, 29436, 28598, 102]);
    // Special tokens in the raw text are kept whole.
    assert_eq!(enc("hello[SEP]world"), [101, 7592, 102, 2088, 102]);
    assert_eq!(enc(""), [101, 102]);
    let no_special = call(&bert, &["Hello, World!".into(), false.into()]).unwrap();
    assert_eq!(ints(&no_special), [7592, 1010, 2088, 999]);
    let batch = call(&bert, &[list_of(&["hello", "world"])]).unwrap().get::<List>().unwrap();
    assert_eq!(ints(&batch.get(1).unwrap()), [101, 2088, 102]);
    let from_file =
        make("tok.bert.from_file", vec![asset("bert-base-uncased/tokenizer.json").display().to_string().into()]);
    assert_eq!(ints(&call(&from_file, &["Hello, World!".into()]).unwrap()), [101, 7592, 1010, 2088, 999, 102]);

    let pair = make("tok.bert.pair.new", vec![vocab_path().into()]);
    let d = call(&pair, &["Hello".into(), "World".into()]).unwrap().get::<Dict>().unwrap();
    assert_eq!(ints(&d.get_item("input_ids").unwrap()), [101, 7592, 102, 2088, 102]);
    assert_eq!(ints(&d.get_item("token_type_ids").unwrap()), [0, 0, 0, 1, 1]);

    let e = err_of(call(&bert, &[AnyValue::from(1i64)]));
    assert_eq!(e.to_string(), "tok.bert: argument 0: expected str, got int");
}

#[test]
fn bert_normalize_and_pre_tokenize_ops() {
    let norm = func("text.bert_normalize");
    assert_eq!(call(&norm, &["Héllo\tWORLD\u{0}".into()]).unwrap().get::<String>().unwrap(), "hello world");
    let cased = make("text.bert_normalize.new", vec![true.into(), true.into(), AnyValue::none(), false.into()]);
    assert_eq!(call(&cased, &["Héllo 中".into()]).unwrap().get::<String>().unwrap(), "Héllo  中 ");
    let pre = func("text.bert_pre_tokenize");
    let words = strs(&call(&pre, &["Hey friend!  How are you?!?".into()]).unwrap());
    assert_eq!(words, ["Hey", "friend", "!", "How", "are", "you", "?", "!", "?"]);
}

#[test]
fn vocab_lookups() {
    let lookup = make("vocab.lookup.new", vec![vocab_path().into(), "[UNK]".into()]);
    assert!(call(&lookup, &["hello".into()]).unwrap() == 7592i64);
    assert!(call(&lookup, &["☃".into()]).unwrap() == 100i64);
    assert_eq!(ints(&call(&lookup, &[list_of(&["[CLS]", "☃", "world"])]).unwrap()), [101, 100, 2088]);
    let strict = make("vocab.lookup.new", vec![vocab_path().into(), AnyValue::none()]);
    assert!(call(&strict, &["☃".into()]).unwrap().is_none());
    let back = make("vocab.id_to_token.new", vec![vocab_path().into()]);
    assert_eq!(call(&back, &[7592i64.into()]).unwrap().get::<String>().unwrap(), "hello");
    assert_eq!(strs(&call(&back, &[list_of(&[101i64, 14477])]).unwrap()), ["[CLS]", "una"]);
    let e = err_of(call(&back, &[30522i64.into()]));
    assert_eq!(e.kind(), ErrorKind::Index);
    assert_eq!(e.to_string(), "vocab.id_to_token: argument 0: id: index 30522 out of range for length 30522");
    assert!(call(&func("vocab.size"), &[vocab_path().into()]).unwrap() == 30522i64);
}

/// A vocab file in `dir` with exactly `bytes`.
fn temp_vocab(dir: &tempfile::TempDir, name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.path().join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

#[test]
fn malformed_vocab_files_name_file_and_line() {
    let cases: [(&str, &[u8], ErrorKind, &str); 4] = [
        ("empty_line.txt", b"[UNK]\nhello\n\nworld\n", ErrorKind::Parse, ":3: empty token"),
        ("blank_line.txt", b"[UNK]\n \t\r\n", ErrorKind::Parse, ":2: empty token"),
        (
            "duplicate.txt",
            b"[UNK]\nhello\nworld\nhello\n",
            ErrorKind::Duplicate,
            ":4: duplicate token \"hello\" (first at line 2, id 1)",
        ),
        ("bad_utf8.txt", b"[UNK]\nhel\xC3lo\n", ErrorKind::Parse, ":2: invalid UTF-8 at byte 3 of the line"),
    ];
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes, kind, tail) in cases {
        let p = temp_vocab(&dir, name, bytes);
        let shown = p.display().to_string();
        for ctor in ["tok.wordpiece.new", "vocab.lookup.new"] {
            let args: Vec<AnyValue> = vec![shown.clone().into(), "[UNK]".into(), 100i64.into()];
            let n = if ctor == "vocab.lookup.new" { 2 } else { 3 };
            let e = err_of(call(&func(ctor), &args[..n]));
            assert_eq!(e.kind(), kind, "{name} via {ctor}: {e}");
            assert_eq!(e.to_string(), format!("{ctor}: {shown}{tail}"), "{name} via {ctor}");
        }
    }
    let e = err_of(call(&func("tok.bert.new"), &["/nonexistent/vocab.txt".into()]));
    assert_eq!(e.kind(), ErrorKind::Io);
    assert!(e.to_string().starts_with("tok.bert.new: cannot read vocab file /nonexistent/vocab.txt: "), "{e}");
    // A vocabulary without [CLS] cannot make a BERT tokenizer.
    let p = temp_vocab(&dir, "no_cls.txt", b"[UNK]\n[SEP]\nhello\n");
    let e = err_of(call(&func("tok.bert.new"), &[p.display().to_string().into()]));
    assert!(e.to_string().ends_with("cls token \"[CLS]\" is not in the vocabulary (3 tokens)"), "{e}");
}

#[test]
fn seq_special_tokens() {
    let add = func("seq.add_special_tokens");
    assert_eq!(ints(&call(&add, &[list_of(&[5i64, 6]), 101i64.into(), 102i64.into()]).unwrap()), [101, 5, 6, 102]);
    let toks = call(&add, &[list_of(&["a"]), "[CLS]".into(), "[SEP]".into()]).unwrap();
    assert_eq!(strs(&toks), ["[CLS]", "a", "[SEP]"]);
    let pair = func("seq.add_special_tokens_pair");
    let d = call(&pair, &[list_of(&[5i64, 6]), list_of(&[7i64]), 101i64.into(), 102i64.into()]).unwrap();
    let d = d.get::<Dict>().unwrap();
    assert_eq!(ints(&d.get_item("input_ids").unwrap()), [101, 5, 6, 102, 7, 102]);
    assert_eq!(ints(&d.get_item("token_type_ids").unwrap()), [0, 0, 0, 0, 1, 1]);
}

#[test]
fn seq_truncation() {
    let one_to = |n: i64| list_of(&(1..=n).collect::<Vec<_>>());
    let trunc = func("seq.truncate");
    assert_eq!(ints(&call(&trunc, &[one_to(5), 3i64.into(), "right".into()]).unwrap()), [1, 2, 3]);
    assert_eq!(ints(&call(&trunc, &[one_to(5), 3i64.into(), "left".into()]).unwrap()), [3, 4, 5]);
    assert_eq!(ints(&call(&trunc, &[one_to(2), 3i64.into(), "left".into()]).unwrap()), [1, 2]);
    let e = err_of(call(&trunc, &[one_to(5), 3i64.into(), "middle".into()]));
    assert_eq!(e.to_string(), "seq.truncate: argument 2: side must be \"right\" or \"left\", not \"middle\"");

    // HF longest_first, worked by hand: (3, 7) into 8 keeps the short one whole: (3, 5);
    // (6, 6) into 7 needs both cut: 7 / 2 = 3 and 3 + 7 % 2 = 4, the odd one to the second.
    let pair = func("seq.truncate_pair");
    let tp = |a: i64, b: i64, max: i64, strategy: &str, side: &str| {
        let r = call(&pair, &[one_to(a), one_to(b), max.into(), strategy.into(), side.into()]);
        r.map(|v| v.get::<List>().unwrap().to_vec().iter().map(ints).collect::<Vec<_>>())
    };
    assert_eq!(tp(3, 7, 8, "longest_first", "right").unwrap(), [vec![1, 2, 3], vec![1, 2, 3, 4, 5]]);
    assert_eq!(tp(6, 6, 7, "longest_first", "right").unwrap(), [vec![1, 2, 3], vec![1, 2, 3, 4]]);
    assert_eq!(tp(6, 6, 7, "longest_first", "left").unwrap(), [vec![4, 5, 6], vec![3, 4, 5, 6]]);
    assert_eq!(tp(6, 2, 5, "only_first", "right").unwrap(), [vec![1, 2, 3], vec![1, 2]]);
    assert_eq!(tp(2, 6, 5, "only_second", "left").unwrap(), [vec![1, 2], vec![4, 5, 6]]);
    assert_eq!(tp(2, 2, 9, "only_first", "right").unwrap(), [vec![1, 2], vec![1, 2]]);
    let e = err_of(tp(2, 6, 5, "only_first", "right"));
    assert!(
        e.to_string().contains("the first sequence (2 ids) is too short to remove the 3 ids over max_length"),
        "{e}"
    );
    let e = err_of(tp(2, 6, 5, "shortest", "right"));
    assert!(e.to_string().starts_with("seq.truncate_pair: argument 3: strategy must be"), "{e}");

    // Windows of 3 overlapping by 1: starts 0, 2, 4 (the last reaches the end).
    let over = func("seq.truncate_overflow");
    let windows = |n: i64, max: i64, stride: i64, side: &str| {
        call(&over, &[one_to(n), max.into(), stride.into(), side.into()])
            .map(|v| v.get::<List>().unwrap().to_vec().iter().map(ints).collect::<Vec<_>>())
    };
    assert_eq!(windows(6, 3, 1, "right").unwrap(), [vec![1, 2, 3], vec![3, 4, 5], vec![5, 6]]);
    assert_eq!(windows(6, 3, 1, "left").unwrap(), [vec![4, 5, 6], vec![2, 3, 4], vec![1, 2]]);
    assert_eq!(windows(3, 5, 1, "right").unwrap(), [vec![1, 2, 3]]);
    let e = err_of(windows(6, 3, 3, "right"));
    assert_eq!(e.to_string(), "seq.truncate_overflow: stride 3 must be less than max_len 3");
}

#[test]
fn seq_ngrams_and_filters() {
    let ngrams = func("seq.ngrams");
    let toks = list_of(&["a", "b", "c"]);
    assert_eq!(strs(&call(&ngrams, &[toks.clone(), 2i64.into(), " ".into()]).unwrap()), ["a b", "b c"]);
    assert_eq!(strs(&call(&ngrams, &[toks.clone(), 3i64.into(), "_".into()]).unwrap()), ["a_b_c"]);
    assert!(strs(&call(&ngrams, &[toks.clone(), 4i64.into(), " ".into()]).unwrap()).is_empty());
    let e = err_of(call(&ngrams, &[toks, 0i64.into(), " ".into()]));
    assert_eq!(e.to_string(), "seq.ngrams: argument 1: n must be at least 1");

    let stop = func("seq.filter_stopwords");
    let kept = call(&stop, &[list_of(&["the", "cat", "The", "sat"]), list_of(&["the", "a"])]).unwrap();
    assert_eq!(strs(&kept), ["cat", "The", "sat"]);
    let e = err_of(call(&stop, &[list_of(&[AnyValue::from(1i64)]), list_of(&["the"])]));
    assert_eq!(e.to_string(), "seq.filter_stopwords: argument 0: list item 0: expected str, got int");

    let len = func("seq.filter_length");
    let words = list_of(&["a", "bb", "ccc", "ёё"]);
    assert_eq!(strs(&call(&len, &[words.clone(), 2i64.into(), 2i64.into()]).unwrap()), ["bb", "ёё"]);
    assert_eq!(strs(&call(&len, &[words, 2i64.into(), AnyValue::none()]).unwrap()), ["bb", "ccc", "ёё"]);
}
