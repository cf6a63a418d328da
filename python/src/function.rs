//! The global registry seen from Python, and scripts compiled into `Function`s.

use crate::callback::callable_to_func;
use crate::errors::IntoPyResult;
use crate::function_type::{function_state, new_function};
use anyproc::func::registry;
use anyproc::pipeline::Limits;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

/// The global function `name`; KeyError (with a did-you-mean) if none is registered.
#[pyfunction]
pub fn get_global_func<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
    let func = registry().get(name).py_err(py)?;
    new_function(py, func, Some(name.to_string()))
}

/// Every registered function name, sorted.
#[pyfunction]
pub fn list_global_funcs() -> Vec<String> {
    registry().list().into_iter().map(|i| i.name).collect()
}

/// `(signature, doc)` of the global function `name`.
#[pyfunction]
pub fn func_info(py: Python<'_>, name: &str) -> PyResult<(String, String)> {
    match registry().info(name) {
        Some(info) => Ok((info.signature, info.doc)),
        // The registry's own KeyError, with its did-you-mean.
        None => registry().get(name).py_err(py).map(|_| (String::new(), String::new())),
    }
}

/// Registers a Python callable (or a `Function`) globally under `name`.
#[pyfunction]
#[pyo3(signature = (name, func, r#override = false))]
pub fn register_func(py: Python<'_>, name: &str, func: &Bound<'_, PyAny>, r#override: bool) -> PyResult<()> {
    let (packed, signature, doc) = if let Some(f) = function_state(func) {
        let info = f.name.as_deref().and_then(|n| registry().info(n));
        let (sig, doc) = info.map_or_else(|| ("(...) -> any".into(), String::new()), |i| (i.signature, i.doc));
        (f.func.clone(), sig, doc)
    } else if func.is_callable() {
        (callable_to_func(func.clone().unbind()), python_signature(py, func), python_doc(func))
    } else {
        let ty = func.get_type().name().map(|n| n.to_string()).unwrap_or_default();
        return Err(PyTypeError::new_err(format!("register_func: expected a callable, got {ty}")));
    };
    registry().register(name, &signature, &doc, packed, r#override).py_err(py)
}

/// `inspect.signature(f)` as text, or `(...)` when Python cannot tell.
fn python_signature(py: Python<'_>, f: &Bound<'_, PyAny>) -> String {
    let sig = py.import("inspect").and_then(|m| m.call_method1("signature", (f,))).and_then(|s| s.str());
    let sig = sig.map(|s| s.to_string()).unwrap_or_else(|_| "(...)".into());
    format!("{sig} -> any")
}

/// The first line of the callable's docstring, or what it is.
fn python_doc(f: &Bound<'_, PyAny>) -> String {
    let doc: Option<String> = f.getattr("__doc__").ok().and_then(|d| d.extract().ok());
    if let Some(line) = doc.as_deref().and_then(|d| d.lines().map(str::trim).find(|l| !l.is_empty())) {
        return line.to_string();
    }
    let qualname = f.getattr("__qualname__").and_then(|q| q.str()).map(|q| q.to_string());
    format!("Python function {}", qualname.unwrap_or_else(|_| "<callable>".into()))
}

/// The limits a script runs under: the defaults, with those given replacing theirs.
fn script_limits(while_limit: Option<u64>, max_depth: Option<u32>) -> Limits {
    let default = Limits::default();
    Limits {
        while_limit: while_limit.unwrap_or(default.while_limit),
        max_depth: max_depth.unwrap_or(default.max_depth),
    }
}

/// Compiles a module given as JSON (the shape of `anyproc::pipeline::ast::Module`) and returns `entry`.
///
/// With `registers=True` it returns `(entry, registers)`, where `registers` takes the entry's
/// registers as they are (a tuple for `*args`, the keyword-only parameters, a dict for
/// `**kwargs`), for a caller that binds keyword arguments itself.
#[pyfunction]
#[pyo3(signature = (ast_json, entry, *, while_limit=None, max_depth=None, registers=false))]
pub fn script_json<'py>(
    py: Python<'py>,
    ast_json: &str,
    entry: &str,
    while_limit: Option<u64>,
    max_depth: Option<u32>,
    registers: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let limits = script_limits(while_limit, max_depth);
    let (func, raw) =
        py.detach(|| anyproc::pipeline::script::script_json_entries(ast_json, entry, limits)).py_err(py)?;
    let func = new_function(py, func, Some(entry.to_string()))?;
    if !registers {
        return Ok(func);
    }
    let raw = new_function(py, raw, Some(format!("{entry} (registers)")))?;
    Ok(pyo3::types::PyTuple::new(py, [func, raw])?.into_any())
}

/// Compiles anyscript source text and returns its function `entry`.
#[pyfunction]
#[pyo3(signature = (source, entry, *, while_limit=None, max_depth=None))]
pub fn script_source<'py>(
    py: Python<'py>,
    source: &str,
    entry: &str,
    while_limit: Option<u64>,
    max_depth: Option<u32>,
) -> PyResult<Bound<'py, PyAny>> {
    let limits = script_limits(while_limit, max_depth);
    let func = py.detach(|| anyproc::pipeline::script_with_limits(source, entry, limits)).py_err(py)?;
    new_function(py, func, Some(entry.to_string()))
}
