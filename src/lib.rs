//! anyproc: an NLP preprocessing engine built on one 16-byte dynamically typed value.
//!
//! Layers, bottom to top: [`any`] and [`object`] (the value and the heap object
//! protocol), [`string`] and [`container`], [`func`] (functions as objects and
//! the global registry) and [`ndarray`] (tensors, DLPack, collation). See `docs/architecture.md`.

pub mod any;
pub mod capi;
pub mod container;
pub mod error;
pub mod func;
pub mod ndarray;
pub mod object;
#[path = "../ops/mod.rs"]
pub mod ops;
pub mod pipeline;
pub mod string;

pub use any::{AnyPad, AnyValue, AnyView, FromAny, Value};
pub use container::{Dict, List, Set, Tuple};
pub use error::{Error, ErrorKind, Result, panic_message};
pub use func::{CallArgs, PackedFunc, get_global_func, list_global_funcs, register_func};
pub use ndarray::NDArray;
pub use object::{ObjRef, Object, ObjectType};
pub use string::{Bytes, Str, UStr};

/// Functions that fill the global registry on first use, one per family of built-ins.
pub(crate) const BUILTIN_REGISTRARS: &[fn(&func::Registry) -> Result<()>] = &[func::register_testing, ops::register];
