//! What the fuzz targets share: the limits and the arguments every compiled function is run on.

use anyproc::pipeline::compile::Limits;

/// Small caps, so that a loop or a recursion the fuzzer writes ends quickly.
pub const LIMITS: Limits = Limits { while_limit: 100, max_depth: 16 };

#[path = "../../tests/support/call_with_everything.rs"]
mod probe;
pub use probe::call_with_everything;
