//! Streaming records through a pipeline, shared by `anyproc run` and Python's `Pipeline.run_file`:
//! reading lines or `.jsonl` objects in chunks, running a chunk, writing `.npz` or `.jsonl`.

pub mod chunk;
pub mod records;
pub mod sink;

pub use chunk::{padding_values, run_chunk, run_chunks};
pub use records::{Record, RecordReader};
pub use sink::Sink;
