//! Pipelines: anyscript source and pipeline files, compiled to a flat register IR and run.
//!
//! `spec` reads a pipeline file, `parser` reads anyscript into `ast`, `compile`
//! lowers it to `ir`, `interp` runs it, `batch` runs a pipeline over many records.

mod append_loop;
pub mod ast;
pub(crate) mod attributes;
pub mod batch;
pub(crate) mod binding;
mod builtin_numbers;
pub mod builtins;
pub(crate) mod bytearray_ops;
mod bytes_layout;
mod bytes_methods;
mod bytes_pieces;
mod callable_iterator;
mod cell;
pub(crate) mod char_marks;
mod codec_names;
mod codec_units;
pub mod compile;
pub(crate) mod counter;
pub(crate) mod deque_ops;
pub(crate) mod dict_view_ops;
pub mod direct;
pub mod direct_extend;
pub mod exception_value;
mod foreign_items;
mod format;
pub mod generator;
pub mod inline;
pub mod interp;
pub mod ir;
pub mod iterate;
pub mod json;
pub mod keyed;
mod lambdas;
pub mod lexer;
pub mod load;
pub mod methods;
pub(crate) mod named_params;
pub mod named_tuple_ops;
pub mod ordered;
pub(crate) mod ordered_dict;
pub mod parser;
pub mod print;
pub mod script;
pub(crate) mod set_ops;
pub(crate) mod shaped_binding;
pub mod slice_store;
mod sort_rows;
pub mod spec;
pub mod spread;
mod str_case;
pub(crate) mod str_codecs;
mod str_find;
mod str_padding;
mod str_pieces;
mod str_translate;
pub mod stream;
#[cfg(test)]
pub(crate) mod test_values;
mod timsort;
mod true_div;
pub mod type_checks;
mod unbound;
pub(crate) mod unicode_errors;
pub mod unpacking;
pub mod value_ops;

pub use batch::{BatchOutput, ErrorPolicy};
pub use compile::Limits;
pub use load::Pipeline;
pub use script::{script, script_json, script_json_with_limits, script_listing, script_with_limits};
pub use spec::{Format, PipelineSpec};

/// The register type of the interpreter: one slot holds any value, strings up to 16 bytes inline.
pub type Slot = crate::AnyPad<1>;
