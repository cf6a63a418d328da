//! Functions as objects (`PackedFunc`), typed registration, and the global registry (seed 002).

mod packed;
mod registry;
mod testing;
mod typed;

pub use packed::{
    CallArgs, FuncObj, KeywordForm, PackedFunc, PositionalForm, call_obj, call_obj_keywords, obj_takes_keywords,
};
pub use registry::{FuncInfo, OpEntry, Registry, get_global_func, list_global_funcs, register_func, registry};
pub(crate) use testing::register as register_testing;
pub use typed::{IntoAnyResult, TypedFunc};
