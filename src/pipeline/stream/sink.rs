//! Where batches go: streamed to `.jsonl`, or gathered and written as one `.npz`.

use super::jsonl::write_jsonl;
use super::stack::concat;
use crate::ndarray::npy::write_npz;
use crate::pipeline::BatchOutput;
use crate::{AnyValue, Error, NDArray, Result};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The output file of a run.
pub enum Sink {
    /// Nothing written; only the summary.
    None,
    /// One JSON object per record, written as batches finish.
    Jsonl(std::io::BufWriter<std::fs::File>),
    /// All batches gathered, written at the end.
    Npz { path: PathBuf, batches: Vec<BatchOutput>, pads: Vec<(String, i64)> },
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
            Some("npz") => Ok(Sink::Npz { path: path.to_path_buf(), batches: Vec::new(), pads }),
            _ => Err(Error::value(format!("output {}: the file name must end in .npz or .jsonl", path.display()))),
        }
    }

    /// Takes one finished batch.
    pub fn write(&mut self, batch: BatchOutput) -> Result<()> {
        match self {
            Sink::None => Ok(()),
            Sink::Jsonl(w) => write_jsonl(w, &batch),
            Sink::Npz { batches, .. } => {
                batches.push(batch);
                Ok(())
            }
        }
    }

    /// Flushes or writes the file.
    pub fn finish(self) -> Result<()> {
        match self {
            Sink::None => Ok(()),
            Sink::Jsonl(mut w) => w.flush().map_err(Error::from),
            Sink::Npz { path, batches, pads } => {
                let names: Vec<String> =
                    batches.first().map(|b| b.outputs.iter().map(|(k, _)| k.clone()).collect()).unwrap_or_default();
                let mut arrays = Vec::new();
                for name in &names {
                    let parts: Vec<&AnyValue> = batches.iter().filter_map(|b| b.get(name)).collect();
                    let pad = pads.iter().find(|(n, _)| n == name).map(|(_, p)| *p);
                    arrays.push((name.clone(), concat(name, &parts, pad)?));
                }
                let refs: Vec<(&str, &NDArray)> = arrays.iter().map(|(k, v)| (k.as_str(), v)).collect();
                write_npz(&path, &refs).map_err(|e| e.context(path.display().to_string()))
            }
        }
    }
}
