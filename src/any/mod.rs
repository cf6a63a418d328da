//! The universal value: `AnyValue` (16 bytes, owning), `AnyView` (non-owning) and `AnyPad<N>` (wider).
//!
//! Layout, inline strings and conversions follow seed 000 (the AnyValue RFC).
//! With `object`, this is where the crate's unsafe code lives.

mod convert;
mod eq_hash;
pub mod heap_kinds;
mod pad;
mod raw;
mod repr;
pub mod type_index;
mod value_ref;
mod view;

pub use convert::{FromAny, unbox};
pub use eq_hash::{hash_value, values_equal};
pub use pad::{AnyPad, AnyValue};
pub use raw::{Payload, RawAny};
pub use repr::{write_repr, write_str};
pub use value_ref::Value;
pub use view::AnyView;
