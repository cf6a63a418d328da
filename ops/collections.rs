//! `collections.*`: Python's `Counter` and `defaultdict`, the dicts text code counts with. A
//! script calls them as `collections.Counter(words)`; `anyproc.script` maps Python's classes to
//! them. They make dicts of [`crate::container::DictKind`] `Counter` and `Default`, whose
//! behaviour lives in `pipeline/counter.rs`.

use crate::error::Result;
use crate::func::Registry;
use crate::pipeline::counter::{new_counter, new_defaultdict};
use crate::{AnyValue, AnyView, PackedFunc};

/// Registers the `collections.*` ops.
pub fn register(reg: &Registry) -> Result<()> {
    type Op = fn(&[AnyView<'_>]) -> Result<AnyValue>;
    let ops: [(&str, &str, &str, Op); 2] = [
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
    for (name, signature, doc, f) in ops {
        reg.register(name, signature, doc, PackedFunc::new(f), false)?;
    }
    Ok(())
}
