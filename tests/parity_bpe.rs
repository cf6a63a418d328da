//! Corpus parity of byte-level BPE with tiktoken-rs, token for token.
//!
//! The reference is tiktoken-rs's `CoreBPE`, built from the same shipped rank files
//! (parsed here, independently of anyproc) with tiktoken's literal patterns. Every corpus
//! line must give identical ids for r50k, cl100k, and GPT-2's encoder.json + vocab.bpe
//! (which must equal r50k); decoding must give each line back; and the hand-written
//! pre-tokenizers must cut every line, and every 64-line block with its newlines, exactly
//! where `fancy-regex` does. Lines are spread over threads with rayon: the reference runs
//! fancy-regex's backtracking VM, which is slow in debug builds.

mod common;

use anyproc::ops::bpe::Bpe;
use anyproc::ops::bytelevel::{CL100K_PATTERN, Pattern, R50K_PATTERN};
use rayon::prelude::*;
use std::fmt::Debug;
use std::sync::LazyLock;
use tiktoken_rs::CoreBPE;

static CORPUS: LazyLock<Vec<String>> = LazyLock::new(|| {
    let (path, lines) = common::corpus();
    eprintln!("corpus: {} ({} lines)", path.display(), lines.len());
    lines
});

/// Blocks of 64 corpus lines joined with "\n", so line breaks meet the pre-tokenizers too.
static BLOCKS: LazyLock<Vec<String>> = LazyLock::new(|| CORPUS.chunks(64).map(|c| c.join("\n") + "\n").collect());

fn rank_path(name: &str) -> std::path::PathBuf {
    common::asset(&format!("gpt2/{name}"))
}

static TT_R50K: LazyLock<CoreBPE> = LazyLock::new(common::tiktoken_r50k);
static TT_CL100K: LazyLock<CoreBPE> = LazyLock::new(common::tiktoken_cl100k);

static R50K: LazyLock<Bpe> =
    LazyLock::new(|| Bpe::from_tiktoken_file(rank_path("r50k_base.tiktoken"), Pattern::R50k).expect("r50k"));
static CL100K: LazyLock<Bpe> =
    LazyLock::new(|| Bpe::from_tiktoken_file(rank_path("cl100k_base.tiktoken"), Pattern::Cl100k).expect("cl100k"));
static GPT2: LazyLock<Bpe> = LazyLock::new(|| {
    Bpe::from_gpt2_files(rank_path("encoder.json"), rank_path("vocab.bpe")).expect("encoder.json + vocab.bpe")
});

/// Every line encoded by `f`, in parallel.
fn encode_all(f: impl Fn(&str) -> Vec<u32> + Sync) -> Vec<Vec<u32>> {
    CORPUS.par_iter().map(|l| f(l)).collect()
}

// Each encoding of the corpus is computed once and shared by the tests that need it: the
// debug build spends most of this file's time on the tiktoken-rs side.
static TT_R50K_IDS: LazyLock<Vec<Vec<u32>>> = LazyLock::new(|| encode_all(|l| TT_R50K.encode_ordinary(l)));
static R50K_IDS: LazyLock<Vec<Vec<u32>>> = LazyLock::new(|| encode_all(|l| R50K.encode_ordinary(l)));
static CL100K_IDS: LazyLock<Vec<Vec<u32>>> = LazyLock::new(|| encode_all(|l| CL100K.encode_ordinary(l)));
static GPT2_IDS: LazyLock<Vec<Vec<u32>>> = LazyLock::new(|| encode_all(|l| GPT2.encode_ordinary(l)));

/// Asserts `ours(i) == theirs(i)` for every index, listing the first 10 differences.
fn assert_all_equal<T: PartialEq + Debug + Send>(
    what: &str,
    texts: &[String],
    ours: impl Fn(usize) -> T + Sync,
    theirs: impl Fn(usize) -> T + Sync,
) {
    let mut diffs: Vec<(usize, T, T)> = (0..texts.len())
        .into_par_iter()
        .filter_map(|i| {
            let (a, b) = (ours(i), theirs(i));
            (a != b).then_some((i, a, b))
        })
        .collect();
    diffs.sort_by_key(|d| d.0);
    let mut report = String::new();
    for (i, a, b) in diffs.iter().take(10) {
        report.push_str(&format!("\nline {}: {:?}\n  anyproc:   {a:?}\n  reference: {b:?}", i + 1, texts[*i]));
    }
    assert!(diffs.is_empty(), "{what}: {} of {} texts differ; first 10:{report}", diffs.len(), texts.len());
    eprintln!("{what}: {} of {} texts identical", texts.len(), texts.len());
}

#[test]
fn r50k_matches_tiktoken_on_every_line() {
    assert_all_equal("r50k encode_ordinary", &CORPUS, |i| R50K_IDS[i].clone(), |i| TT_R50K_IDS[i].clone());
}

#[test]
fn cl100k_matches_tiktoken_on_every_line() {
    assert_all_equal(
        "cl100k encode_ordinary",
        &CORPUS,
        |i| CL100K_IDS[i].clone(),
        |i| TT_CL100K.encode_ordinary(&CORPUS[i]),
    );
}

#[test]
fn gpt2_files_match_r50k_on_every_line() {
    assert_all_equal("GPT-2 files encode", &CORPUS, |i| GPT2_IDS[i].clone(), |i| TT_R50K_IDS[i].clone());
}

#[test]
fn decode_gives_every_line_back() {
    for (name, bpe, ids) in
        [("r50k", &*R50K, &R50K_IDS), ("cl100k", &*CL100K, &CL100K_IDS), ("gpt2", &*GPT2, &GPT2_IDS)]
    {
        assert_all_equal(
            &format!("{name} decode(encode(line))"),
            &CORPUS,
            |i| bpe.decode(&ids[i]).map_err(|e| e.to_string()),
            |i| Ok(CORPUS[i].clone()),
        );
    }
}

#[test]
fn pre_tokenizers_cut_where_fancy_regex_does() {
    for (pattern, regex) in [(Pattern::R50k, R50K_PATTERN), (Pattern::Cl100k, CL100K_PATTERN)] {
        let re = fancy_regex::Regex::new(regex).unwrap();
        let reference = |text: &str| -> Vec<String> {
            re.find_iter(text).map(|m| m.expect("regex ran").as_str().to_string()).collect()
        };
        let ours = |text: &str| -> Vec<String> { pattern.pieces(text).map(str::to_string).collect() };
        for (what, texts) in [("lines", &*CORPUS), ("64-line blocks", &*BLOCKS)] {
            assert_all_equal(
                &format!("{} pieces of {what}", pattern.name()),
                texts,
                |i| ours(&texts[i]),
                |i| reference(&texts[i]),
            );
        }
    }
}

#[test]
fn blocks_with_newlines_match_tiktoken() {
    // Whole blocks exercise newline handling in the encoders as well as the splitters.
    assert_all_equal(
        "cl100k blocks",
        &BLOCKS,
        |i| CL100K.encode_ordinary(&BLOCKS[i]),
        |i| TT_CL100K.encode_ordinary(&BLOCKS[i]),
    );
}
