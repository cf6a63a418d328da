//! `anyproc._native`: the Rust side of the Python package `anyproc`.
//!
//! Values cross the boundary through `convert`; anyproc errors become Python exceptions in
//! `errors` (and Python exceptions raised in callbacks come back as themselves); arrays cross
//! through DLPack without a copy (`ndarray`, `dlpack`).

mod callback;
mod convert;
mod convert_collections;
mod convert_deque;
mod convert_dict_view;
mod convert_named_tuple;
mod convert_random;
mod dlpack;
mod errors;
mod function;
mod function_type;
mod gc_pause;
mod generator;
mod hash_secret;
mod iterator;
mod module;
mod ndarray;
mod object;
mod pipeline;
mod pools;
mod run_file;
mod stdout;

use pyo3::prelude::*;

/// mimalloc for the extension's own allocations, as for the `anyproc` binary (see
/// `src/main.rs`): Python's objects keep Python's allocator, and every anyproc object is
/// freed by the deleter of the side that made it.
#[cfg(not(debug_assertions))]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The native module; `anyproc/__init__.py` re-exports it.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    stdout::install();
    function_type::add_to_module(m)?;
    m.add_class::<ndarray::PyNDArray>()?;
    m.add_class::<pipeline::PyPipeline>()?;
    m.add_class::<object::Opaque>()?;
    m.add_class::<generator::PyGenerator>()?;
    m.add_class::<module::PyModuleHandle>()?;
    m.add_function(wrap_pyfunction!(function::get_global_func, m)?)?;
    m.add_function(wrap_pyfunction!(function::list_global_funcs, m)?)?;
    m.add_function(wrap_pyfunction!(function::func_info, m)?)?;
    m.add_function(wrap_pyfunction!(function::register_func, m)?)?;
    m.add_function(wrap_pyfunction!(function::script_json, m)?)?;
    m.add_function(wrap_pyfunction!(module::load_module, m)?)?;
    m.add_function(wrap_pyfunction!(function::script_source, m)?)?;
    m.add_function(wrap_pyfunction!(convert_named_tuple::register_named_tuple, m)?)?;
    m.add_function(wrap_pyfunction!(pipeline::_pipeline_from_pickle, m)?)?;
    m.add_function(wrap_pyfunction!(errors::_pending_exceptions, m)?)?;
    m.add_function(wrap_pyfunction!(errors::_exception_classes, m)?)?;
    m.add_function(wrap_pyfunction!(hash_secret::_set_hash_secret, m)?)?;
    Ok(())
}
