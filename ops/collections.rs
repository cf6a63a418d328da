//! `collections.*`: Python's `Counter` and `defaultdict`, the dicts text code counts with,
//! `OrderedDict`, which vocabulary loaders build, and `deque`, the buffer of sliding windows
//! and token packing (`pipeline/deque_ops.rs`), and `namedtuple`, the records of spans and
//! tokens (`pipeline/named_tuple_ops.rs`). A script calls them as
//! `collections.Counter(words)`; `anyproc.script` maps Python's classes to them. They make
//! dicts of [`crate::container::DictKind`] `Counter`, `Default` and `Ordered`, whose behaviour
//! lives in `pipeline/counter.rs` and `pipeline/ordered_dict.rs`.

use crate::error::Result;
use crate::func::{OpEntry, Registry};
use crate::pipeline::counter::{new_counter, new_defaultdict};
use crate::pipeline::deque_ops::new_deque;
use crate::pipeline::named_tuple_ops::new_namedtuple;
use crate::pipeline::ordered_dict::{class_fromkeys, new_ordered_dict};

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
        (
            "collections.OrderedDict",
            "(mapping_or_pairs=None) -> OrderedDict",
            "A dict whose equality minds its order and whose entries move to either end, as collections.OrderedDict.",
            new_ordered_dict,
        ),
        (
            "collections.deque",
            "(*iterable_maxlen) -> deque",
            "A double-ended queue of the items (the last maxlen of them), as collections.deque.",
            new_deque,
        ),
        (
            "collections.namedtuple",
            "(typename, field_names, rename=False, defaults=None, module=None) -> type",
            "A tuple subclass named typename whose items are also read as fields, as collections.namedtuple.",
            new_namedtuple,
        ),
        (
            "collections.OrderedDict.fromkeys",
            "(iterable, value=None) -> OrderedDict",
            "An OrderedDict of the iterable's items, each mapped to value, as OrderedDict.fromkeys.",
            class_fromkeys,
        ),
    ];
    reg.register_ops(ops)
}
