//! `collections.*`: Python's `Counter` and `defaultdict`, the dicts text code counts with. A
//! script calls them as `collections.Counter(words)`; `anyproc.script` maps Python's classes to
//! them. They make dicts of [`crate::container::DictKind`] `Counter` and `Default`, whose
//! behaviour lives in `pipeline/counter.rs`.

use crate::error::Result;
use crate::func::{OpEntry, Registry};
use crate::pipeline::counter::{new_counter, new_defaultdict};

/// Registers the `collections.*` ops.
pub fn register(reg: &Registry) -> Result<()> {
    let ops: &[OpEntry] = &[
        (
            "collections.Counter",
            "(iterable=None) -> Counter",
            "A dict of counts of the items (or a copy of a dict of counts), as collections.Counter.",
            new_counter,
        ),
        (
            "collections.defaultdict",
            "(default_factory=None, mapping=None) -> defaultdict",
            "A dict whose missing keys get default_factory(), as collections.defaultdict.",
            new_defaultdict,
        ),
    ];
    reg.register_ops(ops)
}
