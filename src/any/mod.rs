//! The universal value: `AnyValue` (16 bytes, owning), `AnyView` (non-owning) and `AnyPad<N>` (wider).
//!
//! Layout, inline strings and conversions follow seed 000 (the AnyValue RFC).
//! With `object`, this is where the crate's unsafe code lives.

mod chars;
mod convert;
mod eq_hash;
pub mod heap_kinds;
mod pad;
pub mod py_text;
mod repr;
mod stack_slots;
mod value_ref;
mod view;

pub use anyproc_abi::type_index;
pub use anyproc_abi::{Payload, RawAny};
pub use chars::push_chars;
pub use convert::{FromAny, unbox};
pub use eq_hash::{hash_value, values_equal};
pub(crate) use eq_hash::{text_first_equal, with_utf8};
pub use pad::{AnyPad, AnyValue, clear_values};
pub use repr::{write_repr, write_str};
pub use stack_slots::StackSlots;
pub use value_ref::Value;
pub use view::AnyView;
