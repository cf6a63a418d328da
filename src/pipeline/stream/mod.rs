//! Streaming records through a pipeline, shared by `anyproc run` and Python's `Pipeline.run_file`:
//! reading lines or `.jsonl` objects in chunks, running chunks several at a time, writing `.npz`
//! or `.jsonl`.

pub mod chunk;
mod jsonl;
mod npz;
pub mod records;
pub mod run;
pub mod sink;
mod stack;

pub use chunk::{padding_values, run_chunk};
pub use records::{Chunk, Record, RecordReader};
pub use run::run_stream;
pub use sink::Sink;
