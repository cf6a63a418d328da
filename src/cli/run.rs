//! `anyproc run`: stream records through a pipeline in batches and report throughput.

use anyproc::pipeline::batch::{thread_count, thread_pool};
use anyproc::pipeline::stream::{RecordReader, Sink, padding_values, run_stream};
use anyproc::pipeline::{ErrorPolicy, Pipeline};
use anyproc::{Error, Result};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::{BufRead, BufReader, IsTerminal};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The sample a run reads when no `--input` is given: the first 3,000 lines of the dev corpus.
const SAMPLE_TEXT: &str = include_str!("../../tests/data/dev_sample_head.txt");

/// Settings of one `anyproc run`.
pub struct RunArgs {
    /// The pipeline file.
    pub pipeline: PathBuf,
    /// Input file, `-` for stdin, or the bundled sample.
    pub input: Option<PathBuf>,
    /// `.npz` or `.jsonl` output.
    pub output: Option<PathBuf>,
    /// Records per batch.
    pub batch_size: usize,
    /// Worker threads.
    pub threads: Option<usize>,
    /// Skip failing records instead of failing the run.
    pub skip_errors: bool,
}

/// Totals printed at the end of a run.
#[derive(Default)]
struct Totals {
    records: usize,
    skipped: usize,
    tokens: usize,
    bytes: u64,
}

/// Runs the pipeline over the input; returns the summary line.
pub fn run(args: &RunArgs) -> Result<String> {
    if args.batch_size == 0 {
        return Err(Error::value("--batch-size must be at least 1"));
    }
    let pipeline = Pipeline::load(&args.pipeline)?;
    let threads = thread_count(args.threads)?;
    let pool = thread_pool(threads)?;
    let pads = padding_values(&pipeline);
    let mut sink = Sink::open(args.output.as_deref(), pads)?;
    let (reader, total_bytes, jsonl) = open_input(args.input.as_deref())?;
    let progress = progress_bar(total_bytes);
    let policy = if args.skip_errors { ErrorPolicy::Skip } else { ErrorPolicy::Fail };
    let start = Instant::now();
    let mut totals = Totals::default();
    // Chunks stream through the pool two per thread, a new one read on this thread as each one
    // ends, and their batches are written here in input order while the workers run the next
    // ones (`run_stream`): no barrier between batches, and reading and writing overlap the work.
    let mut records = RecordReader::new(reader, jsonl);
    let failed = run_stream(&pipeline, &pool, records.chunks(args.batch_size), policy, |result| {
        let (batch, bytes_read) = match result {
            Ok(done) => done,
            // The chunks read before it ran and were written, as they would have been.
            Err(e) => return ControlFlow::Break(e),
        };
        totals.records += batch.records;
        totals.tokens += batch.tokens;
        for (line, e) in &batch.skipped {
            progress.suspend(|| eprintln!("anyproc: skipped input line {line}: {e}"));
        }
        totals.skipped += batch.skipped.len();
        totals.bytes = bytes_read;
        progress.set_position(bytes_read);
        match sink.write(batch) {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => ControlFlow::Break(e),
        }
    });
    if let Some(e) = failed {
        return Err(e);
    }
    progress.finish_and_clear();
    if totals.records + totals.skipped == 0 {
        return Err(Error::value("the input holds no records"));
    }
    sink.finish()?;
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    Ok(format!(
        "{}: {} records ({} skipped), {} tokens, {:.2} MB in {:.3} s: {:.1} MB/s, {:.0} records/s, {} threads{}",
        pipeline.spec.name,
        totals.records,
        totals.skipped,
        totals.tokens,
        totals.bytes as f64 / 1e6,
        secs,
        totals.bytes as f64 / 1e6 / secs,
        (totals.records + totals.skipped) as f64 / secs,
        threads,
        args.output.as_ref().map_or(String::new(), |p| format!(", wrote {}", p.display())),
    ))
}

type Input = (Box<dyn BufRead + Send>, Option<u64>, bool);

fn open_input(input: Option<&Path>) -> Result<Input> {
    match input {
        None => Ok((Box::new(SAMPLE_TEXT.as_bytes()), Some(SAMPLE_TEXT.len() as u64), false)),
        Some(p) if p.as_os_str() == "-" => Ok((Box::new(BufReader::new(std::io::stdin())), None, false)),
        Some(p) => {
            let file = std::fs::File::open(p)
                .map_err(|e| Error::from(e).context(format!("cannot open input {}", p.display())))?;
            let len = file.metadata().ok().map(|m| m.len());
            let jsonl = p.extension().is_some_and(|e| e == "jsonl");
            Ok((Box::new(BufReader::with_capacity(1 << 20, file)), len, jsonl))
        }
    }
}

fn progress_bar(total: Option<u64>) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = match total {
        Some(n) => ProgressBar::new(n),
        None => ProgressBar::no_length(),
    };
    let style =
        ProgressStyle::with_template("{bar:40} {binary_bytes}/{binary_total_bytes} {binary_bytes_per_sec} eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    bar
}
