//! Universal containers: `List`, `Dict` (and its views), `Set` and `Deque` of any-values, and `ByteArray`, all objects, all nestable (seed 000, N1).
//!
//! They have Python's reference semantics: clones of a handle share one object,
//! and a change through one is seen through all.

mod byte_array;
mod chars;
mod deque;
mod dict;
mod dict_view;
mod list;
mod list_cursor;
mod named_tuple;
mod py_hash;
mod set;
mod set_algebra;
mod set_table;
mod str_hash;
mod tuple;

pub use crate::any::push_chars;
pub use byte_array::{ByteArray, ByteArrayObj, byte_array_obj};
pub use deque::{Deque, DequeObj, deque_obj};
pub use dict::{Dict, DictKind, DictObj};
pub use dict_view::{DictView, DictViewObj, dict_view_obj};
pub use list::{List, ListObj, items_in_slot, list_len_in_slot, try_reserve_items};
pub use list_cursor::ListCursor;
pub(crate) use py_hash::too_deep_to_hash;
pub use py_hash::{float_hash, int_hash, py_hash, python_hash, unhashable_name};
pub use set::{Set, SetObj, SetOperand};
pub use str_hash::{HashSecret, set_hash_secret, str_hash_keyed};
pub use tuple::{NamedTupleClass, Tuple, TupleObj};
