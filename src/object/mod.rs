//! Heap objects: the 16-byte header, `ObjRef`, the type registry and object pools (seed 001).
//!
//! This is one of the two layers (with `any`) where unsafe code lives; every
//! block carries a `// SAFETY:` line and everything above is safe Rust.

pub mod census;
mod header;
mod hooks;
mod obj_ptr;
mod obj_ref;
mod object_type;
mod pool;
mod recycle;
mod release;
mod tail_array;
mod type_registry;

pub use header::{Object, ObjectDeleter};
pub use hooks::{MAX_DEPTH, TypeHooks, hooks_of};
pub use obj_ptr::ObjPtr;
pub use obj_ref::{ObjRef, dec_ref, inc_ref};
pub use object_type::{ObjectType, SubObject};
pub use pool::ObjectPool;
pub use recycle::{Recycle, RecycleBin};
pub use release::MAX_NESTED_DELETERS;
pub use tail_array::{TailArray, TailKind, cached_count, tail_slice};
pub use type_registry::{TypeInfo, is_instance, register_type, type_index_of, type_info, type_name};
