//! Running one chunk of input records, with errors named by input line.

use super::records::Record;
use crate::pipeline::spec::Layout;
use crate::pipeline::{BatchOutput, ErrorPolicy, Pipeline};
use crate::{AnyValue, Error, Result};

/// Runs one chunk read from line `first_line` on; unreadable lines count as failed records,
/// and every error names the input line (skipped records come back as (line, error)). Its
/// records are split over the pool's workers when `spread` (see [`Pipeline::run_batch_spread`]).
pub fn run_chunk(
    pipeline: &Pipeline,
    chunk: Vec<Record>,
    policy: ErrorPolicy,
    first_line: usize,
    spread: bool,
) -> Result<BatchOutput> {
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
            // Named as a failing record is: `gpt2.toml: input line 7: not valid UTF-8 ...`.
            Err(e) => return Err(e.context(format!("input line {}", first_line + i)).context(pipeline.label.clone())),
        }
    }
    let mut batch = pipeline.run_batch_spread(&good, policy, spread).map_err(|e| relabel_record(e, &lines))?;
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

/// The padding value of each padded tensor of `p`, for joining batches in a `.npz`.
pub fn padding_values(p: &Pipeline) -> Vec<(String, i64)> {
    let mut pads = Vec::new();
    for o in p.outputs.iter().filter(|o| o.spec.layout == Layout::Padded) {
        pads.push((o.spec.name.clone(), o.spec.pad_id));
        pads.extend(o.spec.attention_mask.iter().map(|n| (n.clone(), 0)));
        pads.extend(o.spec.token_type_ids.iter().map(|n| (n.clone(), 0)));
    }
    pads
}
