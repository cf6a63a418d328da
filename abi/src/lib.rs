//! The stable C ABI of anyproc, as Rust types: defined here once.
//!
//! `include/anyproc.h` declares the same layouts for C, and a test
//! (`tests/capi_layout.rs`) compiles a C probe against that header and fails on
//! any size, offset or constant that differs from these definitions (seed 004:
//! a layout copied by hand drifts). The runtime (`anyproc`) builds on these
//! types, and a plugin written in Rust depends on this crate alone.

pub mod api;
pub mod dlpack;
pub mod object;
pub mod type_index;
mod value;

pub use api::{
    ABI_VERSION, ABI_VERSION_MAJOR, ABI_VERSION_MINOR, AnyProcApi, Callback, PLUGIN_ABI_VERSION_SYMBOL,
    PLUGIN_INIT_SYMBOL, PluginAbiVersionFn, PluginInitFn, ResourceDeleter,
};
pub use object::ObjectHeader;
pub use value::{Payload, RawAny};
