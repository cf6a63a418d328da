//! `Pipeline.run_file`: stream a text or `.jsonl` file through a pipeline in batches.

use crate::errors::{IntoPyResult, error_text};
use crate::pools::pool;
use anyproc::pipeline::stream::{RecordReader, Sink, padding_values, run_chunks};
use anyproc::pipeline::{BatchOutput, ErrorPolicy, Pipeline};
use anyproc::{Error, Result};
use pyo3::prelude::*;
use std::io::BufReader;
use std::path::Path;

/// Totals of one run.
#[derive(Default)]
pub struct Summary {
    /// Records that made it into the outputs.
    pub records: usize,
    /// Records left out (skip_errors).
    pub skipped: usize,
    /// Ids in padded and ragged outputs, before padding.
    pub tokens: usize,
}

/// Runs `pipeline` over `input` (a line per record, or a JSON object per line for `.jsonl`),
/// writing `output` (`.npz` or `.jsonl`) if given. The GIL is released while a window of chunks
/// runs and signals are checked between windows, so Ctrl-C stops the run.
pub fn run_file(
    py: Python<'_>,
    pipeline: &Pipeline,
    input: &Path,
    output: Option<&Path>,
    batch_size: usize,
    threads: Option<usize>,
    skip_errors: bool,
) -> PyResult<Summary> {
    if batch_size == 0 {
        return Err(Error::value("batch_size must be at least 1")).py_err(py);
    }
    let pool = pool(threads).py_err(py)?;
    let mut sink = Sink::open(output, padding_values(pipeline)).py_err(py)?;
    let file = std::fs::File::open(input)
        .map_err(|e| Error::from(e).context(format!("cannot open input {}", input.display())))
        .py_err(py)?;
    let jsonl = input.extension().is_some_and(|e| e == "jsonl");
    let mut records = RecordReader::new(BufReader::with_capacity(1 << 20, file), jsonl);
    let policy = if skip_errors { ErrorPolicy::Skip } else { ErrorPolicy::Fail };
    let mut summary = Summary::default();
    // A window of chunks per parallel pass, as `anyproc run` does (`Pipeline::run_batches`).
    let window = Pipeline::batches_in_flight(pool.current_num_threads());
    loop {
        let step = py.detach(|| -> Result<Vec<Result<BatchOutput>>> {
            let (chunks, error) = records.next_window(batch_size, window);
            if let Some(e) = error {
                return Err(e.context(pipeline.label.clone()));
            }
            Ok(pool.install(|| run_chunks(pipeline, chunks, policy)))
        });
        let batches = step.py_err(py)?;
        if batches.is_empty() {
            break;
        }
        for batch in batches {
            let batch = batch.py_err(py)?;
            summary.records += batch.records;
            summary.tokens += batch.tokens;
            summary.skipped += batch.skipped.len();
            // Discards any Python exceptions the skipped errors stand for.
            batch.skipped.iter().for_each(|(_, e)| drop(error_text(e)));
            py.detach(|| sink.write(batch)).py_err(py)?;
        }
        py.check_signals()?;
    }
    py.detach(|| sink.finish()).py_err(py)?;
    Ok(summary)
}
