//! Byte-level BPE benchmark: anyproc against tiktoken-rs, single thread, same data, one run.
//!
//! Both sides load the same shipped rank files (`pipelines/assets/gpt2/*.tiktoken`);
//! tiktoken-rs's `CoreBPE` gets tiktoken's literal patterns. Rows:
//!
//! 1. r50k `encode_ordinary`, one call per corpus line: anyproc, tiktoken-rs, and anyproc
//!    through the registered `tok.bpe.from_tiktoken` function (text in, `List` of ids out).
//! 2. cl100k likewise.
//! 3. Pathological: one word of LCG letters with no spaces, 10 KB, 100 KB and 1 MB (one
//!    pre-token each, so all the time is the merge loop): ns per byte should stay near
//!    flat (a quadratic merge loop would grow 10x per step; a heap grows by its log factor
//!    and its cache misses). The criterion group times anyproc on the 10 KB and 100 KB words.
//!
//! Before criterion runs (only under `cargo bench`), a standalone table prints MB/s
//! (best of 3 passes over the whole corpus, `Instant`) and the ratio anyproc/tiktoken.
//! Target: ratio >= 1.5x on both encodings.
//!
//! Input: the full shared corpus `../shared/data/corpus/dev_sample.txt` when present,
//! else the shipped 3,000-line head `tests/data/dev_sample_head.txt`.

use anyproc::ops::bpe::{Bpe, ENDOFTEXT};
use anyproc::ops::bytelevel::{CL100K_PATTERN, Pattern, R50K_PATTERN};
use anyproc::{AnyView, PackedFunc, get_global_func};
use base64::Engine as _;
use criterion::{Criterion, SamplingMode, Throughput};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use tiktoken_rs::CoreBPE;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn corpus() -> (PathBuf, Vec<String>) {
    let shared = root().join("../shared/data/corpus/dev_sample.txt");
    let path = if shared.is_file() { shared } else { root().join("tests/data/dev_sample_head.txt") };
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let lines = text.lines().map(str::to_owned).collect();
    (path, lines)
}

fn rank_path(name: &str) -> PathBuf {
    root().join("pipelines/assets/gpt2").join(name)
}

/// tiktoken-rs built from the same rank file.
fn tiktoken(name: &str, special: u32, pattern: &str) -> CoreBPE {
    let text = std::fs::read_to_string(rank_path(name)).expect("rank file");
    let encoder = text
        .lines()
        .map(|line| {
            let (tok, rank) = line.split_once(' ').expect("two fields");
            (base64::engine::general_purpose::STANDARD.decode(tok).expect("base64"), rank.parse().expect("rank"))
        })
        .collect();
    CoreBPE::new(encoder, [(ENDOFTEXT.to_string(), special)].into_iter().collect(), pattern).expect("CoreBPE")
}

/// One encoding's three contenders.
struct Encoding {
    name: &'static str,
    ours: Bpe,
    func: PackedFunc,
    theirs: CoreBPE,
}

fn load(name: &'static str, file: &str, pattern: Pattern, special: u32) -> Encoding {
    let path = rank_path(file);
    let ours = Bpe::from_tiktoken_file(&path, pattern).expect("anyproc model");
    let ctor = get_global_func("tok.bpe.from_tiktoken").expect("registered");
    let path_text = path.display().to_string();
    let func = ctor
        .call(&[AnyView::from(path_text.as_str()), AnyView::from(pattern.name())])
        .and_then(|f| f.get::<PackedFunc>())
        .expect("encoder function");
    let theirs = tiktoken(file, special, pattern.regex());
    Encoding { name, ours, func, theirs }
}

/// The per-line passes, each over all `lines`.
fn pass_ours(e: &Encoding, lines: &[String]) {
    let mut out = Vec::new();
    for line in lines {
        out.clear();
        e.ours.encode_ordinary_into(line, &mut out);
        black_box(&out);
    }
}

fn pass_func(e: &Encoding, lines: &[String]) {
    for line in lines {
        black_box(e.func.call(&[AnyView::from(line.as_str())]).expect("encode"));
    }
}

fn pass_theirs(e: &Encoding, lines: &[String]) {
    for line in lines {
        black_box(e.theirs.encode_ordinary(line));
    }
}

/// Best-of-`n` wall time of `f`.
fn best_of(n: usize, mut f: impl FnMut()) -> Duration {
    (0..n)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .min()
        .unwrap_or(Duration::ZERO)
}

/// Deterministic pseudo-random letters (a 64-bit LCG, Knuth's MMIX constants).
fn lcg_word(n: usize) -> String {
    let mut x: u64 = 42;
    (0..n)
        .map(|_| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (b'a' + ((x >> 33) % 26) as u8) as char
        })
        .collect()
}

fn print_table(encodings: &[Encoding], lines: &[String]) {
    let bytes: usize = lines.iter().map(String::len).sum();
    let mb = bytes as f64 / 1e6;
    println!("\n{:<8} | {:<27} | {:>8} | {:>7}", "encoding", "contender (1 thread)", "MB/s", "ratio");
    for e in encodings {
        let theirs = best_of(3, || pass_theirs(e, lines)).as_secs_f64();
        let ours = best_of(3, || pass_ours(e, lines)).as_secs_f64();
        let func = best_of(3, || pass_func(e, lines)).as_secs_f64();
        println!("{:<8} | {:<27} | {:>8.2} | {:>6.2}x", e.name, "tiktoken-rs encode_ordinary", mb / theirs, 1.0);
        println!("{:<8} | {:<27} | {:>8.2} | {:>6.2}x", e.name, "anyproc encode_ordinary", mb / ours, theirs / ours);
        println!("{:<8} | {:<27} | {:>8.2} | {:>6.2}x", e.name, "anyproc tok.bpe (-> List)", mb / func, theirs / func);
    }
    println!("\npathological: one word without spaces, ns per byte (best of 3)");
    println!(
        "{:<8} | {:<12} | {:>8} | {:>8} | {:>8} | {:>12} | {:>11}",
        "encoding", "contender", "10 KB", "100 KB", "1 MB", "100KB/10KB", "1MB/100KB"
    );
    let words = [lcg_word(10_000), lcg_word(100_000), lcg_word(1_000_000)];
    for e in encodings {
        let per_byte = |f: &dyn Fn(&str), w: &str| best_of(3, || f(w)).as_nanos() as f64 / w.len() as f64;
        let ours = |w: &str| drop(black_box(e.ours.encode_ordinary(w)));
        let theirs = |w: &str| drop(black_box(e.theirs.encode_ordinary(w)));
        for (name, f) in [("anyproc", &ours as &dyn Fn(&str)), ("tiktoken-rs", &theirs)] {
            let [a, b, c] = [0, 1, 2].map(|k| per_byte(f, &words[k]));
            println!(
                "{:<8} | {:<12} | {a:>8.1} | {b:>8.1} | {c:>8.1} | {:>11.2}x | {:>10.2}x",
                e.name,
                name,
                b / a,
                c / b
            );
        }
    }
    println!();
}

fn bench(c: &mut Criterion, encodings: &[Encoding], lines: &[String]) {
    // About 1 MB of lines per iteration, so each sample is short enough for criterion.
    let mut subset = Vec::new();
    let mut size = 0;
    for line in lines {
        if size >= 1_000_000 {
            break;
        }
        size += line.len();
        subset.push(line.clone());
    }
    for e in encodings {
        let mut group = c.benchmark_group(format!("bpe_{}", e.name));
        group.throughput(Throughput::Bytes(size as u64)).sampling_mode(SamplingMode::Flat).sample_size(10);
        group.bench_function("anyproc", |b| b.iter(|| pass_ours(e, &subset)));
        group.bench_function("anyproc_func", |b| b.iter(|| pass_func(e, &subset)));
        group.bench_function("tiktoken_rs", |b| b.iter(|| pass_theirs(e, &subset)));
        group.finish();
    }
    let mut group = c.benchmark_group("bpe_no_space_word");
    group.sampling_mode(SamplingMode::Flat).sample_size(10);
    for n in [10_000, 100_000] {
        let word = lcg_word(n);
        group.throughput(Throughput::Bytes(n as u64));
        group.bench_function(format!("anyproc_r50k_{}kb", n / 1000), |b| {
            b.iter(|| black_box(encodings[0].ours.encode_ordinary(&word)))
        });
    }
    group.finish();
}

fn main() {
    let (path, lines) = corpus();
    let bytes: usize = lines.iter().map(String::len).sum();
    println!("input: {} ({} lines, {:.2} MB)", path.display(), lines.len(), bytes as f64 / 1e6);
    let encodings = [
        load("r50k", "r50k_base.tiktoken", Pattern::R50k, 50256),
        load("cl100k", "cl100k_base.tiktoken", Pattern::Cl100k, 100257),
    ];
    assert_eq!(encodings[0].theirs.encode_ordinary("x"), encodings[0].ours.encode_ordinary("x"));
    assert_eq!(R50K_PATTERN, Pattern::R50k.regex());
    assert_eq!(CL100K_PATTERN, Pattern::Cl100k.regex());
    // Same ids on a prefix, so the rows compare equal work.
    for e in &encodings {
        for line in lines.iter().take(2000) {
            assert_eq!(e.ours.encode_ordinary(line), e.theirs.encode_ordinary(line), "{} on {line:?}", e.name);
        }
    }
    // `cargo bench` passes `--bench`; without it (`cargo test --benches`) criterion runs a
    // quick mode, and the standalone table would only slow that down.
    if std::env::args().any(|a| a == "--bench") {
        print_table(&encodings, &lines);
    }
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c, &encodings, &lines);
    c.final_summary();
}
