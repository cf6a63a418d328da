//! Worker pools for pipeline runs, one per thread count, made once and kept.
//!
//! Rationale: starting a rayon pool spawns its threads (tens of microseconds each); a
//! Python loop that calls a pipeline per small batch should not pay that every call.

use anyproc::Error;
use anyproc::pipeline::batch::{thread_count, thread_pool};
use rayon::ThreadPool;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

static POOLS: Mutex<Option<HashMap<usize, Arc<ThreadPool>>>> = Mutex::new(None);

/// The pool for `threads` workers (default: `ANYPROC_NUM_THREADS`, else all cores).
pub fn pool(threads: Option<usize>) -> anyproc::Result<Arc<ThreadPool>> {
    if threads == Some(0) {
        return Err(Error::value("threads must be at least 1"));
    }
    let n = thread_count(threads)?;
    let mut pools = POOLS.lock().unwrap_or_else(|p| p.into_inner());
    let pools = pools.get_or_insert_with(HashMap::new);
    if let Some(p) = pools.get(&n) {
        return Ok(p.clone());
    }
    let p = Arc::new(thread_pool(n)?);
    pools.insert(n, p.clone());
    Ok(p)
}
