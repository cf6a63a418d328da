//! Universal containers: `List` and `Dict` of any-values, both objects, both nestable (seed 000, N1).
//!
//! They have Python's reference semantics: clones of a handle share one object,
//! and a change through one is seen through all.

mod chars;
mod dict;
mod list;
mod list_cursor;

pub use crate::any::push_chars;
pub use dict::{Dict, DictObj};
pub use list::{List, ListObj, items_in_slot, list_len_in_slot, try_reserve_items};
pub use list_cursor::ListCursor;
