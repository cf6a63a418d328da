//! Helpers shared by the integration tests: where the reference data lives.
#![allow(dead_code)]

use anyproc::{AnyValue, List, Value};
use std::path::{Path, PathBuf};

/// The crate root.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A file of the project's shared data set, if present (`ANYPROC_SHARED_DATA`, else `../shared/data`).
pub fn shared_data(rel: &str) -> Option<PathBuf> {
    let base =
        std::env::var_os("ANYPROC_SHARED_DATA").map(PathBuf::from).unwrap_or_else(|| root().join("../shared/data"));
    let p = base.join(rel);
    p.exists().then_some(p)
}

/// A shipped pipeline asset, such as `bert-base-uncased/vocab.txt`.
pub fn asset(rel: &str) -> PathBuf {
    root().join("pipelines/assets").join(rel)
}

/// The parity corpus: the full shared `dev_sample.txt` when present, else the shipped head.
pub fn corpus() -> (PathBuf, Vec<String>) {
    let path = shared_data("corpus/dev_sample.txt").unwrap_or_else(|| root().join("tests/data/dev_sample_head.txt"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let lines = text.lines().map(str::to_owned).collect();
    (path, lines)
}

/// A value tree read strictly from `to_list()`/`get()`: ints, floats (as bits), bools and lists
/// stay distinct, so `1`, `1.0` and `True` never compare equal by accident.
#[derive(Debug, PartialEq)]
pub enum J {
    I(i64),
    F(u64),
    B(bool),
    L(Vec<J>),
}

/// Reads a value (nested lists of numbers) as a `J` tree.
pub fn j(v: &AnyValue) -> J {
    if let Ok(l) = v.get::<List>() {
        return J::L(l.to_vec().iter().map(j).collect());
    }
    match v.value() {
        Value::Int(i) => J::I(i),
        Value::Float(f) => J::F(f.to_bits()),
        Value::Bool(b) => J::B(b),
        other => panic!("unexpected element {other:?}"),
    }
}

/// The `J` tree of a 2-d int matrix written out by hand.
pub fn ints2(rows: &[&[i64]]) -> J {
    J::L(rows.iter().map(|r| J::L(r.iter().map(|&x| J::I(x)).collect())).collect())
}

/// The message of an expected error.
pub fn err_text<T: std::fmt::Debug>(r: anyproc::Result<T>) -> String {
    match r {
        Ok(v) => panic!("expected an error, got Ok({v:?})"),
        Err(e) => e.to_string(),
    }
}

/// tiktoken-rs built from a shipped rank file parsed here (independently of anyproc),
/// with `specials` and tiktoken's literal `pattern`.
pub fn tiktoken(name: &str, specials: &[(&str, u32)], pattern: &str) -> tiktoken_rs::CoreBPE {
    use base64::Engine as _;
    let text = std::fs::read_to_string(asset(&format!("gpt2/{name}"))).expect("rank file");
    let encoder = text
        .lines()
        .map(|line| {
            let (tok, rank) = line.split_once(' ').expect("two fields");
            (base64::engine::general_purpose::STANDARD.decode(tok).expect("base64"), rank.parse().expect("rank"))
        })
        .collect();
    let specials = specials.iter().map(|(s, id)| (s.to_string(), *id)).collect();
    tiktoken_rs::CoreBPE::new(encoder, specials, pattern).expect("CoreBPE")
}

/// tiktoken's r50k_base (GPT-2) with `<|endoftext|>`.
pub fn tiktoken_r50k() -> tiktoken_rs::CoreBPE {
    tiktoken("r50k_base.tiktoken", &[("<|endoftext|>", 50256)], anyproc::ops::bytelevel::R50K_PATTERN)
}

/// tiktoken's cl100k_base with `<|endoftext|>`.
pub fn tiktoken_cl100k() -> tiktoken_rs::CoreBPE {
    tiktoken("cl100k_base.tiktoken", &[("<|endoftext|>", 100257)], anyproc::ops::bytelevel::CL100K_PATTERN)
}
