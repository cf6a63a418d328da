//! `Pipeline.run_file`: stream a text or `.jsonl` file through a pipeline in batches.

use crate::errors::{IntoPyResult, to_pyerr};
use crate::pools::pool;
use anyproc::Error;
use anyproc::pipeline::stream::{RecordReader, Sink, padding_values, run_stream};
use anyproc::pipeline::{ErrorPolicy, Pipeline};
use pyo3::prelude::*;
use std::io::BufReader;
use std::ops::ControlFlow;
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
/// writing `output` (`.npz` or `.jsonl`) if given. The GIL is released while it runs and taken
/// back between batches to check for signals, so Ctrl-C stops the run.
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
    // Chunks stream through the pool as `anyproc run` streams them (`run_stream`): read and
    // written on this thread, without the GIL, while the workers run the chunks in flight. The
    // GIL is taken back after each batch only to check for signals, so Ctrl-C stops the run.
    let failed = py.detach(|| {
        run_stream(pipeline, &pool, records.chunks(batch_size), policy, |result| {
            let step = result.and_then(|(batch, _)| {
                summary.records += batch.records;
                summary.tokens += batch.tokens;
                summary.skipped += batch.skipped.len();
                sink.write(batch)
            });
            match step {
                Ok(()) => {
                    Python::attach(|py| py.check_signals()).map_or_else(ControlFlow::Break, ControlFlow::Continue)
                }
                Err(e) => ControlFlow::Break(Python::attach(|py| to_pyerr(py, e))),
            }
        })
    });
    if let Some(e) = failed {
        return Err(e);
    }
    py.detach(|| sink.finish()).py_err(py)?;
    Ok(summary)
}
