//! Where batches go: streamed to `.jsonl`, or gathered and written as one `.npz`.

use super::jsonl::write_jsonl;
use super::npz::NpzWriter;
use crate::pipeline::BatchOutput;
use crate::{Error, Result};
use std::io::Write;
use std::path::Path;

/// The output file of a run.
pub enum Sink {
    /// Nothing written; only the summary.
    None,
    /// One JSON object per record, written as batches finish.
    Jsonl(std::io::BufWriter<std::fs::File>),
    /// All batches gathered (int tensors in a temporary file), written at the end.
    Npz(NpzWriter),
}

impl Sink {
    /// A sink for `path` by its extension; `pads` gives the padding value of each padded tensor.
    pub fn open(path: Option<&Path>, pads: Vec<(String, i64)>) -> Result<Sink> {
        let Some(path) = path else { return Ok(Sink::None) };
        match path.extension().and_then(|e| e.to_str()) {
            Some("jsonl") => {
                let file = std::fs::File::create(path)
                    .map_err(|e| Error::from(e).context(format!("cannot create {}", path.display())))?;
                Ok(Sink::Jsonl(std::io::BufWriter::new(file)))
            }
            Some("npz") => Ok(Sink::Npz(NpzWriter::new(path, pads))),
            _ => Err(Error::value(format!("output {}: the file name must end in .npz or .jsonl", path.display()))),
        }
    }

    /// Takes one finished batch.
    pub fn write(&mut self, batch: BatchOutput) -> Result<()> {
        match self {
            Sink::None => Ok(()),
            Sink::Jsonl(w) => write_jsonl(w, &batch),
            Sink::Npz(npz) => npz.write(batch),
        }
    }

    /// Flushes or writes the file.
    pub fn finish(self) -> Result<()> {
        match self {
            Sink::None => Ok(()),
            Sink::Jsonl(mut w) => w.flush().map_err(Error::from),
            Sink::Npz(npz) => npz.finish(),
        }
    }
}
