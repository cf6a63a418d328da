//! `Pipeline.run_file`: stream a text or `.jsonl` file through a pipeline in batches.

use crate::errors::{IntoPyResult, error_text};
use crate::pools::pool;
use crate::records::{Record, RecordReader};
use crate::sink::Sink;
use anyproc::pipeline::spec::Layout;
use anyproc::pipeline::{BatchOutput, ErrorPolicy, Pipeline};
use anyproc::{AnyValue, Error, Result};
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
/// writing `output` (`.npz` or `.jsonl`) if given. The GIL is released while a chunk runs and
/// signals are checked between chunks, so Ctrl-C stops the run.
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
    loop {
        let step = py.detach(|| -> Result<Option<BatchOutput>> {
            let first_line = records.line + 1;
            let chunk = records.next_chunk(batch_size).map_err(|e| e.context(pipeline.label.clone()))?;
            if chunk.is_empty() {
                return Ok(None);
            }
            let batch = pool.install(|| run_chunk(pipeline, chunk, policy, first_line))?;
            Ok(Some(batch))
        });
        let Some(batch) = step.py_err(py)? else { break };
        summary.records += batch.records;
        summary.tokens += batch.tokens;
        summary.skipped += batch.skipped.len();
        // Discards any Python exceptions the skipped errors stand for.
        batch.skipped.iter().for_each(|(_, e)| drop(error_text(e)));
        py.detach(|| sink.write(batch)).py_err(py)?;
        py.check_signals()?;
    }
    py.detach(|| sink.finish()).py_err(py)?;
    Ok(summary)
}

/// Runs one chunk; unreadable lines count as failed records, and errors name the input line.
fn run_chunk(pipeline: &Pipeline, chunk: Vec<Record>, policy: ErrorPolicy, first_line: usize) -> Result<BatchOutput> {
    let mut unreadable = Vec::new();
    let mut good: Vec<AnyValue> = Vec::with_capacity(chunk.len());
    let mut lines = Vec::with_capacity(chunk.len());
    for (i, r) in chunk.into_iter().enumerate() {
        match r {
            Ok(v) => {
                good.push(v);
                lines.push(first_line + i);
            }
            Err(e) if policy == ErrorPolicy::Skip => unreadable.push((first_line + i, e)),
            Err(e) => return Err(e.context(pipeline.label.clone())),
        }
    }
    let mut batch = pipeline.run_batch(&good, policy).map_err(|e| relabel_record(e, &lines))?;
    let mut skipped: Vec<(usize, Error)> = batch.skipped.drain(..).map(|(i, e)| (lines[i], e)).collect();
    skipped.extend(unreadable);
    skipped.sort_by_key(|(line, _)| *line);
    batch.skipped = skipped;
    Ok(batch)
}

/// Turns the executor's `record N` (index in the chunk) into the input's `input line L`.
fn relabel_record(e: Error, lines: &[usize]) -> Error {
    let text = e.to_string();
    let Some(at) = text.find(": record ") else { return e };
    let rest = &text[at + ": record ".len()..];
    let digits = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
    match rest[..digits].parse::<usize>().ok().and_then(|i| lines.get(i)) {
        Some(line) => Error::new(e.kind(), format!("{}: input line {line}{}", &text[..at], &rest[digits..])),
        None => e,
    }
}

/// The padding value of each padded tensor, for joining batches in a `.npz`.
fn padding_values(p: &Pipeline) -> Vec<(String, i64)> {
    let mut pads = Vec::new();
    for o in p.outputs.iter().filter(|o| o.spec.layout == Layout::Padded) {
        pads.push((o.spec.name.clone(), o.spec.pad_id));
        pads.extend(o.spec.attention_mask.iter().map(|n| (n.clone(), 0)));
        pads.extend(o.spec.token_type_ids.iter().map(|n| (n.clone(), 0)));
    }
    pads
}
