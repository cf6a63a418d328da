//! Pipelines: anyscript source and pipeline files, compiled to a flat register IR and run.

pub mod ast;
pub mod builtins;
pub mod methods;
pub mod parser;
pub mod value_ops;

/// The register type of the interpreter: one slot holds any value, strings up to 16 bytes inline.
pub type Slot = crate::AnyPad<1>;
