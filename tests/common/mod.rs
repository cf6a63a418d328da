//! Helpers shared by the integration tests: where the reference data lives.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The crate root.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A file of the project's shared data set, if present (`ANYPROC_SHARED_DATA`, else `../shared/data`).
pub fn shared_data(rel: &str) -> Option<PathBuf> {
    let base = std::env::var_os("ANYPROC_SHARED_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("../shared/data"));
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
