//! Python's cycle collector paused while a large result is converted.

use pyo3::prelude::*;
use pyo3::types::PyModule;

/// Results with at least this many items pause the collector while they are converted; for
/// smaller ones the pause would cost more (about a microsecond) than the collections it saves.
pub const PAUSE_FROM_ITEMS: usize = 2048;

/// Python's cycle collector, paused for the guard's lifetime if it was running.
///
/// Rationale: converting a batch makes hundreds of thousands of lists, each counted towards
/// the next collection, and the collections then traverse what was made so far, again and
/// again as it grows: one second of the 3.4 the keywords pipeline took to hand 150,000
/// records back. Nothing made during a conversion can be garbage or part of a cycle before
/// it returns, so no collection in it could free anything. The GIL is held throughout and no
/// Python code runs, so no other thread sees the collector paused.
pub struct GcPause<'py> {
    gc: Option<Bound<'py, PyModule>>,
}

impl<'py> GcPause<'py> {
    /// Pauses the collector if it runs; a failure to reach it leaves it as it was.
    pub fn new(py: Python<'py>) -> Self {
        let running = |gc: &Bound<'py, PyModule>| gc.call_method0("isenabled").and_then(|r| r.is_truthy());
        let gc = py.import("gc").ok().filter(|gc| running(gc).unwrap_or(false));
        let gc = gc.filter(|gc| gc.call_method0("disable").is_ok());
        GcPause { gc }
    }
}

impl Drop for GcPause<'_> {
    fn drop(&mut self) {
        if let Some(gc) = &self.gc {
            // Restoring cannot fail short of the interpreter shutting down; an error then is
            // not worth a panic in a destructor.
            let _ = gc.call_method0("enable");
        }
    }
}
