//! Streaming chunks of records through a pipeline, several in flight, results in input order.

use super::chunk::run_chunk;
use super::records::Chunk;
use crate::Result;
use crate::pipeline::ordered::run_ordered;
use crate::pipeline::{BatchOutput, ErrorPolicy, Pipeline};
use rayon::ThreadPool;
use std::ops::ControlFlow;

/// Runs each chunk of `chunks` on `pool`, [`Pipeline::batches_in_flight`] at a time, and hands
/// `emit` each chunk's batch with the input bytes read up to its end, in input order; a read
/// error reaches `emit` in its place, after the batches of the chunks read before it.
///
/// Chunks are read and batches emitted (written, say) on the calling thread while the workers
/// run the chunks in flight. Returns what `emit` broke with, if it did; no chunk is read after.
pub fn run_stream<E>(
    pipeline: &Pipeline,
    pool: &ThreadPool,
    chunks: impl Iterator<Item = Result<Chunk>>,
    policy: ErrorPolicy,
    emit: impl FnMut(Result<(BatchOutput, u64)>) -> ControlFlow<E>,
) -> Option<E> {
    let run = |chunk: Result<Chunk>, spread| {
        let chunk = chunk.map_err(|e| e.context(pipeline.label.clone()))?;
        let batch = run_chunk(pipeline, chunk.records, policy, chunk.first_line, spread)?;
        Ok((batch, chunk.bytes_read))
    };
    run_ordered(pool, chunks, Pipeline::batches_in_flight(pool.current_num_threads()), run, emit)
}
