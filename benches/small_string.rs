//! Small-string benchmark: the seed's `unicode_split`.
//!
//! Every word of a word list (one word per line) is split into one-character
//! strings pushed into a fresh per-word list. The seed uses this to show why
//! `AnyValue` keeps short strings inline: a one-character string should cost
//! no heap allocation, where `String` costs one per character. Five variants
//! run on identical input, each pass covering the whole word list:
//!
//! 1. `anyvalue_utf8`: `List::from_chars(word)`, the library's kernel (the op
//!    `text.chars`): inline UTF-8 values into an `anyproc::List`; an ASCII word
//!    (94% of `words_1m.txt`) is checked once and split byte by byte.
//! 2. `anyvalue_utf8_loop`: the same written as the plain loop, one
//!    `AnyValue::from(c)` push per decoded char, for comparison.
//! 3. `anyvalue_ucs4`: `UStr::item::<0>(i)` (inline one-code-point UCS4) into an
//!    `anyproc::List`. The `UStr` form of each word is built once in setup, since
//!    indexing by code point needs it and the seed converts each word once up
//!    front; the timed loop only indexes and pushes.
//! 4. `vec_string`: `c.to_string()` into a `Vec<String>` (one allocation per char).
//! 5. `vec_compact_str`: `CompactString` into a `Vec<CompactString>` (inline, no allocation).
//!
//! Before criterion runs, a standalone table prints ns/char (best of 7 passes, the
//! variants taking turns)
//! and heap allocations per char, counted by a wrapping global allocator.
//!
//! Input: `$ANYPROC_WORDS`, else `../shared/data/corpus/words_1m.txt` next to
//! the crate, else the committed sample `tests/data/words_sample.txt`.

use anyproc::{AnyValue, List, UStr, Value};
use compact_str::CompactString;
use criterion::{Criterion, SamplingMode, Throughput};
use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// Heap allocations (alloc, alloc_zeroed, realloc) seen while counting is on.
static ALLOCS: AtomicU64 = AtomicU64::new(0);
/// Whether the allocator counts; off during timing so the counter's atomic add
/// does not inflate the allocation-heavy variants.
static COUNTING: AtomicBool = AtomicBool::new(false);

/// `System`, plus a count of allocation calls.
struct CountingAlloc;

impl CountingAlloc {
    fn note(&self) {
        if COUNTING.load(Relaxed) {
            ALLOCS.fetch_add(1, Relaxed);
        }
    }
}

// SAFETY: every call forwards unchanged to `System`, which upholds the contract.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        self.note();
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        self.note();
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        self.note();
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc;

/// The word list, in the forms the variants read.
struct Input {
    path: PathBuf,
    words: Vec<String>,
    /// UCS4 form of each word, built once in setup (see the module docs).
    ustrs: Vec<UStr>,
    /// Total characters (code points) over all words.
    chars: u64,
}

/// The word file: `$ANYPROC_WORDS`, the shared 1M-word list, or the committed sample.
fn input_path() -> PathBuf {
    if let Some(p) = std::env::var_os("ANYPROC_WORDS") {
        return PathBuf::from(p);
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shared = root.join("../shared/data/corpus/words_1m.txt");
    if shared.is_file() { shared } else { root.join("tests/data/words_sample.txt") }
}

fn load_input() -> Input {
    let path = input_path();
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    let words: Vec<String> = text.lines().filter(|w| !w.is_empty()).map(str::to_owned).collect();
    let ustrs = words.iter().map(|w| UStr::new(w)).collect();
    let chars = words.iter().map(|w| w.chars().count() as u64).sum();
    Input { path, words, ustrs, chars }
}

// The per-word splitters. UTF-8 variants reserve the byte length, an upper bound
// on the char count that needs no extra pass, so no list ever regrows.

/// Variant 1: inline UTF-8 `AnyValue`s in a `List`, by the library's kernel.
fn split_anyvalue_utf8(word: &str) -> List {
    List::from_chars(word)
}

/// Variant 1b: inline UTF-8 `AnyValue`s pushed into a `List` one decoded char at a time.
fn split_anyvalue_utf8_loop(word: &str) -> List {
    let mut list = List::with_capacity(word.len());
    list.with_items_mut(|items| {
        for c in word.chars() {
            items.push(AnyValue::from(c));
        }
    });
    list
}

/// Variant 2: inline UCS4 `AnyValue`s, indexed by code point, in a `List`.
fn split_anyvalue_ucs4(word: &UStr) -> List {
    let n = word.len();
    let mut list = List::with_capacity(n);
    list.with_items_mut(|items| {
        for i in 0..n {
            items.push(word.item::<0>(i as i64).expect("index is in range"));
        }
    });
    list
}

/// Variant 3: one heap `String` per char.
fn split_vec_string(word: &str) -> Vec<String> {
    let mut out = Vec::with_capacity(word.len());
    for c in word.chars() {
        out.push(c.to_string());
    }
    out
}

/// Variant 4: inline `CompactString`s.
fn split_vec_compact(word: &str) -> Vec<CompactString> {
    let mut out = Vec::with_capacity(word.len());
    for c in word.chars() {
        out.push(CompactString::from(c.encode_utf8(&mut [0; 4]) as &str));
    }
    out
}

/// One benchmarked variant: a name and a pass over the whole input.
struct Variant {
    name: &'static str,
    pass: fn(&Input),
}

// Each pass black-boxes every per-word list, so building it cannot be optimized away,
// then drops it (dropping is part of the seed's cost too).
const VARIANTS: [Variant; 5] = [
    Variant {
        name: "anyvalue_utf8",
        pass: |inp| inp.words.iter().for_each(|w| drop(black_box(split_anyvalue_utf8(w)))),
    },
    Variant {
        name: "anyvalue_utf8_loop",
        pass: |inp| inp.words.iter().for_each(|w| drop(black_box(split_anyvalue_utf8_loop(w)))),
    },
    Variant {
        name: "anyvalue_ucs4",
        pass: |inp| inp.ustrs.iter().for_each(|u| drop(black_box(split_anyvalue_ucs4(u)))),
    },
    Variant { name: "vec_string", pass: |inp| inp.words.iter().for_each(|w| drop(black_box(split_vec_string(w)))) },
    Variant {
        name: "vec_compact_str",
        pass: |inp| inp.words.iter().for_each(|w| drop(black_box(split_vec_compact(w)))),
    },
];

/// The text of a one-character item, from either inline string kind.
fn item_text(x: &AnyValue) -> String {
    match x.value() {
        Value::Str(s) => s.to_owned(),
        Value::UStr(c) => c.iter().collect(),
        _ => panic!("not a string: {}", x.type_name()),
    }
}

/// Checks on a prefix of the input that every variant yields the word's characters.
fn check_outputs(input: &Input) {
    for (w, u) in input.words.iter().zip(&input.ustrs).take(1000) {
        let want: Vec<String> = w.chars().map(String::from).collect();
        let utf8: Vec<String> = split_anyvalue_utf8(w).with_items(|xs| xs.iter().map(item_text).collect());
        let utf8_loop: Vec<String> = split_anyvalue_utf8_loop(w).with_items(|xs| xs.iter().map(item_text).collect());
        let ucs4: Vec<String> = split_anyvalue_ucs4(u).with_items(|xs| xs.iter().map(item_text).collect());
        let compact: Vec<String> = split_vec_compact(w).iter().map(|s| s.to_string()).collect();
        assert_eq!(utf8, want, "anyvalue_utf8 on {w:?}");
        assert_eq!(utf8_loop, want, "anyvalue_utf8_loop on {w:?}");
        assert_eq!(ucs4, want, "anyvalue_ucs4 on {w:?}");
        assert_eq!(split_vec_string(w), want, "vec_string on {w:?}");
        assert_eq!(compact, want, "vec_compact_str on {w:?}");
    }
}

/// Timed passes per variant in the standalone table; the best one counts.
const TABLE_ROUNDS: usize = 7;

/// Prints `variant | ns/char | allocs/char` from standalone passes, then the speed ratios.
///
/// The variants take turns, one pass each per round, and each keeps its best pass: the
/// machine's speed drifts over seconds (shared cores), and taking turns exposes every
/// variant to the same drift instead of timing one variant's passes all in a fast spell.
fn print_table(input: &Input) {
    let chars = input.chars as f64;
    let mut best = [Duration::MAX; VARIANTS.len()];
    for _ in 0..TABLE_ROUNDS {
        for (v, best) in VARIANTS.iter().zip(&mut best) {
            let t = Instant::now();
            (v.pass)(input);
            *best = (*best).min(t.elapsed());
        }
    }
    println!("{:<18} | {:>8} | {:>11} | {:>11}", "variant", "ns/char", "allocs/char", "allocs/word");
    let ns: Vec<f64> = best.iter().map(|t| t.as_nanos() as f64 / chars).collect();
    for (v, ns) in VARIANTS.iter().zip(&ns) {
        // A separate counted pass, so timing never pays for the counter.
        ALLOCS.store(0, Relaxed);
        COUNTING.store(true, Relaxed);
        (v.pass)(input);
        COUNTING.store(false, Relaxed);
        let allocs = ALLOCS.load(Relaxed) as f64;
        println!("{:<18} | {ns:>8.2} | {:>11.3} | {:>11.3}", v.name, allocs / chars, allocs / input.words.len() as f64);
    }
    println!("ratio vec_string / anyvalue_utf8 time: {:.2}x", ns[3] / ns[0]);
    println!("ratio vec_string / anyvalue_utf8_loop time: {:.2}x", ns[3] / ns[1]);
    println!("ratio vec_string / anyvalue_ucs4 time: {:.2}x", ns[3] / ns[2]);
}

fn bench_unicode_split(c: &mut Criterion, input: &Input) {
    let mut group = c.benchmark_group("unicode_split");
    group.throughput(Throughput::Elements(input.chars));
    // One iteration is a whole pass (tens of ms on the full list): flat sampling with
    // fewer samples fits the measurement time instead of overrunning it.
    group.sampling_mode(SamplingMode::Flat).sample_size(20);
    for v in &VARIANTS {
        group.bench_function(v.name, |b| b.iter(|| (v.pass)(input)));
    }
    group.finish();
}

fn main() {
    let input = load_input();
    println!("input: {} ({} words, {} chars)", input.path.display(), input.words.len(), input.chars);
    check_outputs(&input);
    // `cargo bench` passes `--bench`; without it (`cargo test --benches`, `--list`)
    // criterion runs in a quick mode, and the standalone table would only slow that down.
    if std::env::args().any(|a| a == "--bench") {
        print_table(&input);
    }
    let mut c = Criterion::default().configure_from_args();
    bench_unicode_split(&mut c, &input);
    c.final_summary();
}
