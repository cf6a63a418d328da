//! BERT benchmark: anyproc against Hugging Face tokenizers (0.23) on the same text, one thread.
//!
//! Input: every line of `$ANYPROC_CORPUS`, else `../shared/data/corpus/dev_sample.txt`
//! next to the crate, else the shipped head `tests/data/dev_sample_head.txt`.
//! Tokenizer files: `pipelines/assets/bert-base-uncased/` (`vocab.txt`, `tokenizer.json`).
//!
//! (a) Full tokenization to ids with `[CLS]`/`[SEP]`, one call per line:
//!     1. `anyproc`: `BertTokenizer::encode(line, true)` into a `Vec<u32>`.
//!     2. `anyproc_func`: the registered `tok.bert.new` function, text in, `List` of ints out
//!        (what a dynamically typed caller pays).
//!     3. `hf_encode`: `Tokenizer::encode(line, true)` with truncation and padding off.
//!     4. `hf_encode_fast`: `Tokenizer::encode_fast` (HF without offsets), for reference.
//! (b) WordPiece alone, one call per word, on the corpus already normalized and
//!     pre-tokenized (BERT's words, computed once in setup):
//!     1. `anyproc`: `WordPiece::tokenize_into` into one reused `Vec<u32>`.
//!     2. `hf`: `models::wordpiece::WordPiece` `Model::tokenize`, ids collected.
//!
//! Before criterion runs (only under `cargo bench`, which passes `--bench`), a standalone
//! table prints MB/s of input text, tokens/s and the speed ratio to HF (best of 3 passes,
//! `Instant`). Both sides' outputs are checked equal on the whole input first.
//! Targets: anyproc >= 5x HF `encode` in (a) and >= 5x HF WordPiece in (b).

use anyproc::PackedFunc;
use anyproc::ops::bert::{BertTokenizer, for_each_bert_word};
use anyproc::ops::wordpiece::WordPiece;
use anyproc::{AnyView, List, get_global_func};
use criterion::{Criterion, SamplingMode, Throughput};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use tokenizers::models::wordpiece::WordPiece as HfWordPiece;
use tokenizers::{Model, Tokenizer};

struct Input {
    path: PathBuf,
    lines: Vec<String>,
    line_bytes: u64,
    /// BERT words of the whole corpus (normalized and pre-tokenized).
    words: Vec<String>,
    word_bytes: u64,
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn corpus_path() -> PathBuf {
    if let Some(p) = std::env::var_os("ANYPROC_CORPUS") {
        return PathBuf::from(p);
    }
    let shared = root().join("../shared/data/corpus/dev_sample.txt");
    if shared.is_file() { shared } else { root().join("tests/data/dev_sample_head.txt") }
}

fn asset(rel: &str) -> PathBuf {
    root().join("pipelines/assets/bert-base-uncased").join(rel)
}

struct Tokenizers {
    ours: BertTokenizer,
    func: PackedFunc,
    hf: Tokenizer,
    hf_wp: HfWordPiece,
}

fn load() -> (Input, Tokenizers) {
    let path = corpus_path();
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    let lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let line_bytes = lines.iter().map(|l| l.len() as u64).sum();
    let vocab = asset("vocab.txt");
    let ours = BertTokenizer::from_vocab_file(&vocab).expect("vocab loads");
    let func = get_global_func("tok.bert.new")
        .and_then(|f| f.call(&[AnyView::from(vocab.to_str().expect("UTF-8 path"))]))
        .and_then(|f| f.get::<PackedFunc>())
        .expect("tok.bert.new");
    let mut hf = Tokenizer::from_file(asset("tokenizer.json")).expect("HF loads tokenizer.json");
    hf.with_truncation(None).expect("no truncation").with_padding(None);
    let hf_wp = HfWordPiece::from_file(vocab.to_str().expect("UTF-8 path"))
        .unk_token("[UNK]".into())
        .max_input_chars_per_word(100)
        .build()
        .expect("HF WordPiece loads");
    let mut words = Vec::new();
    for line in &lines {
        let normalized = ours.normalizer().normalize(line);
        for_each_bert_word(&normalized, |w| words.push(w.to_owned()));
    }
    let word_bytes = words.iter().map(|w| w.len() as u64).sum();
    (Input { path, lines, line_bytes, words, word_bytes }, Tokenizers { ours, func, hf, hf_wp })
}

// One pass over the whole input per variant; each returns the number of ids produced.

fn pass_anyproc(inp: &Input, t: &Tokenizers) -> u64 {
    inp.lines.iter().map(|l| black_box(t.ours.encode(l, true)).len() as u64).sum()
}

fn pass_anyproc_func(inp: &Input, t: &Tokenizers) -> u64 {
    inp.lines
        .iter()
        .map(|l| {
            let out = t.func.call(&[AnyView::from(l.as_str())]).expect("tok.bert call");
            black_box(out.get::<List>().map_or(0, |l| l.len() as u64))
        })
        .sum()
}

fn pass_hf_encode(inp: &Input, t: &Tokenizers) -> u64 {
    inp.lines.iter().map(|l| black_box(t.hf.encode(l.as_str(), true).expect("HF encodes")).len() as u64).sum()
}

fn pass_hf_encode_fast(inp: &Input, t: &Tokenizers) -> u64 {
    inp.lines.iter().map(|l| black_box(t.hf.encode_fast(l.as_str(), true).expect("HF encodes")).len() as u64).sum()
}

fn pass_wp_anyproc(inp: &Input, t: &Tokenizers) -> u64 {
    let wp: &WordPiece = t.ours.wordpiece();
    let mut out = Vec::with_capacity(64);
    let mut n = 0;
    for w in &inp.words {
        out.clear();
        wp.tokenize_into(w, &mut out);
        n += black_box(&out).len() as u64;
    }
    n
}

fn pass_wp_hf(inp: &Input, t: &Tokenizers) -> u64 {
    let mut out: Vec<u32> = Vec::with_capacity(64);
    let mut n = 0;
    for w in &inp.words {
        out.clear();
        out.extend(t.hf_wp.tokenize(w).expect("HF WordPiece").iter().map(|tok| tok.id));
        n += black_box(&out).len() as u64;
    }
    n
}

type Pass = fn(&Input, &Tokenizers) -> u64;

const FULL: [(&str, Pass); 4] = [
    ("anyproc", pass_anyproc),
    ("anyproc_func", pass_anyproc_func),
    ("hf_encode", pass_hf_encode),
    ("hf_encode_fast", pass_hf_encode_fast),
];

const WORDPIECE: [(&str, Pass); 2] = [("anyproc", pass_wp_anyproc), ("hf", pass_wp_hf)];

/// Both sides agree on every line and every word before anything is timed.
fn check_outputs(inp: &Input, t: &Tokenizers) {
    for l in &inp.lines {
        let hf = t.hf.encode(l.as_str(), true).expect("HF encodes");
        assert_eq!(t.ours.encode(l, true), hf.get_ids(), "line {l:?}");
    }
    let mut out = Vec::new();
    for w in &inp.words {
        out.clear();
        t.ours.wordpiece().tokenize_into(w, &mut out);
        let hf: Vec<u32> = t.hf_wp.tokenize(w).expect("HF WordPiece").iter().map(|tok| tok.id).collect();
        assert_eq!(out, hf, "word {w:?}");
    }
}

fn best_of(passes: usize, f: impl Fn() -> u64) -> (Duration, u64) {
    let mut best = Duration::MAX;
    let mut n = 0;
    for _ in 0..passes {
        let t = Instant::now();
        n = f();
        best = best.min(t.elapsed());
    }
    (best, n)
}

fn print_group(title: &str, variants: &[(&str, Pass)], reference: &str, bytes: u64, inp: &Input, t: &Tokenizers) {
    println!("{title}");
    println!("{:<16} | {:>9} | {:>8} | {:>12} | {:>9}", "variant", "time ms", "MB/s", "Mtokens/s", "vs HF");
    let rows: Vec<(&str, Duration, u64)> = variants
        .iter()
        .map(|(name, pass)| {
            let (time, n) = best_of(3, || pass(inp, t));
            (*name, time, n)
        })
        .collect();
    let reference = rows.iter().find(|r| r.0 == reference).map_or(Duration::ZERO, |r| r.1);
    for (name, time, n) in &rows {
        let s = time.as_secs_f64();
        println!(
            "{name:<16} | {:>9.1} | {:>8.1} | {:>12.2} | {:>8.2}x",
            s * 1e3,
            bytes as f64 / s / 1e6,
            *n as f64 / s / 1e6,
            reference.as_secs_f64() / s
        );
    }
}

fn bench(c: &mut Criterion, inp: &Input, t: &Tokenizers) {
    let mut group = c.benchmark_group("bert_full");
    group.throughput(Throughput::Bytes(inp.line_bytes));
    // One iteration is a whole pass (up to seconds for HF): flat sampling, few samples.
    group.sampling_mode(SamplingMode::Flat).sample_size(10);
    for (name, pass) in FULL {
        group.bench_function(name, |b| b.iter(|| pass(inp, t)));
    }
    group.finish();
    let mut group = c.benchmark_group("wordpiece");
    group.throughput(Throughput::Bytes(inp.word_bytes));
    group.sampling_mode(SamplingMode::Flat).sample_size(10);
    for (name, pass) in WORDPIECE {
        group.bench_function(name, |b| b.iter(|| pass(inp, t)));
    }
    group.finish();
}

/// Makes a pathological input of about `n` bytes.
type MakeInput = fn(usize) -> String;

/// Time per byte on pathological inputs at 100 KB and 1 MB: flat means linear time.
fn print_pathological(t: &Tokenizers) {
    let inputs: [(&str, MakeInput); 3] = [
        ("no-space word", |n| "abcdefghij".repeat(n / 10)),
        ("one emoji repeated", |n| "😀".repeat(n / 4)),
        ("spaces and words", |n| "lorem ipsum, dolor sit amet. ".repeat(n / 29)),
    ];
    println!("\n(c) pathological inputs, anyproc vs HF encode, ns per byte");
    println!("{:<20} | {:>10} | {:>10} | {:>10} | {:>10}", "input", "ours 100K", "ours 1M", "hf 100K", "hf 1M");
    for (name, make) in inputs {
        let mut row = Vec::new();
        for hf in [false, true] {
            for n in [100_000, 1_000_000] {
                let text = make(n);
                let (time, _) = best_of(3, || {
                    if hf {
                        t.hf.encode(text.as_str(), true).map_or(0, |e| e.get_ids().len() as u64)
                    } else {
                        t.ours.encode(&text, true).len() as u64
                    }
                });
                row.push(time.as_nanos() as f64 / text.len() as f64);
            }
        }
        println!("{name:<20} | {:>10.2} | {:>10.2} | {:>10.2} | {:>10.2}", row[0], row[1], row[2], row[3]);
    }
}

fn main() {
    let (inp, t) = load();
    println!(
        "input: {} ({} lines, {} bytes; {} words, {} bytes)",
        inp.path.display(),
        inp.lines.len(),
        inp.line_bytes,
        inp.words.len(),
        inp.word_bytes
    );
    // `cargo bench` passes `--bench`; without it (`cargo test --benches`) criterion runs each
    // function once, and the full check and table would only slow that down.
    if std::env::args().any(|a| a == "--bench") {
        check_outputs(&inp, &t);
        print_group(
            "(a) BERT, text to ids ([CLS]/[SEP], no truncation/padding)",
            &FULL,
            "hf_encode",
            inp.line_bytes,
            &inp,
            &t,
        );
        print_group("(b) WordPiece on pre-split words", &WORDPIECE, "hf", inp.word_bytes, &inp, &t);
        print_pathological(&t);
    }
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c, &inp, &t);
    c.final_summary();
}
