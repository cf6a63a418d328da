//! Pipeline files (TOML): load, and run one record through whatever loads.

#![no_main]

use anyproc::AnyView;
use anyproc::pipeline::{Format, Pipeline};
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    // Resources resolve against the shipped pipelines, so a mutant of a real file finds its vocab.
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("../pipelines");
    let Ok(pipeline) = Pipeline::from_text(text, Format::Toml, &base, "fuzz.toml") else { return };
    let record = [AnyView::from("Hello wörld, 3 quick foxes. 日本 ok!"), AnyView::from(7i64)];
    let _ = pipeline.run_record(&record[..pipeline.inputs().len().min(2)]);
});
