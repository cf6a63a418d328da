//! The stable C ABI: the `AnyProcApi` table, plugin loading, and the checks at the boundary.
//!
//! This is an FFI layer (with `any`, `object` and `ndarray`): unsafe code is
//! allowed here, each block with a `// SAFETY:` line. Every entry point follows
//! the safe-call convention (`error_slot`): nothing unwinds into C, and bad
//! input from C becomes an error naming the entry point and argument.
//! The layouts themselves are defined once in the `anyproc-abi` crate and
//! declared for C in `include/anyproc.h`.

mod arrays;
mod containers;
mod error_slot;
mod funcs;
mod marshal;
mod module;
mod table;
mod values;

pub use anyproc_abi::AnyProcApi;
pub use module::{LoadOptions, LoadedLibrary, Module, ModuleObj, is_loaded, load_module, load_module_with};
pub use table::api;
