//! `Function`: a `PackedFunc` as a Python callable, and the global registry seen from Python.

use crate::callback::callable_to_func;
use crate::convert::{any_to_py, py_to_any};
use crate::errors::IntoPyResult;
use anyproc::func::registry;
use anyproc::{AnyValue, AnyView, PackedFunc};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

const INLINE_ARGS: usize = 6;

/// An anyproc function; calls release the GIL while Rust runs unless `release_gil` is off.
#[pyclass(frozen, name = "Function", module = "anyproc._native")]
pub struct Function {
    /// The function.
    pub func: PackedFunc,
    /// The registry name or script entry it came from, for `repr`.
    pub name: Option<String>,
    /// Whether calls release the GIL (see [`release_gil_by_default`]).
    release_gil: AtomicBool,
}

/// Whether new `Function`s release the GIL: yes unless `ANYPROC_RELEASE_GIL_BY_DEFAULT=0`.
///
/// Releasing and retaking the GIL costs a mutex round trip per call, which dominates a
/// call that does almost nothing; such functions can turn it off with `release_gil`.
fn release_gil_by_default() -> bool {
    static DEFAULT: OnceLock<bool> = OnceLock::new();
    *DEFAULT.get_or_init(|| std::env::var("ANYPROC_RELEASE_GIL_BY_DEFAULT").map_or(true, |v| v.trim() != "0"))
}

impl Function {
    /// Wraps `func`; `name` is shown by `repr`.
    pub fn new(func: PackedFunc, name: Option<String>) -> Function {
        Function { func, name, release_gil: AtomicBool::new(release_gil_by_default()) }
    }

    /// Calls the function on converted arguments, without the GIL if `release_gil` is on.
    fn invoke<'py>(&self, py: Python<'py>, args: &[AnyView<'_>]) -> PyResult<Bound<'py, PyAny>> {
        let out = if self.release_gil.load(Ordering::Relaxed) {
            py.detach(|| self.func.call(args))
        } else {
            self.func.call(args)
        };
        any_to_py(py, &out.py_err(py)?.view())
    }
}

#[pymethods]
impl Function {
    #[pyo3(signature = (*args))]
    fn __call__<'py>(&self, py: Python<'py>, args: &Bound<'py, PyTuple>) -> PyResult<Bound<'py, PyAny>> {
        let n = args.len();
        if n > INLINE_ARGS {
            let values = args.iter().map(|a| py_to_any(&a)).collect::<PyResult<Vec<AnyValue>>>()?;
            let views: Vec<AnyView<'_>> = values.iter().map(AnyValue::view).collect();
            return self.invoke(py, &views);
        }
        // Up to `INLINE_ARGS` arguments live in arrays on the stack: a call allocates nothing
        // of its own, and the unused slots are Nones that cost nothing to drop.
        let mut values: [AnyValue; INLINE_ARGS] = [const { AnyValue::none() }; INLINE_ARGS];
        for (slot, a) in values.iter_mut().zip(args.iter_borrowed()) {
            *slot = py_to_any(&a)?;
        }
        let views: [AnyView<'_>; INLINE_ARGS] = std::array::from_fn(|i| values[i].view());
        self.invoke(py, &views[..n])
    }

    /// Whether calls release the GIL while Rust runs (default: yes, or
    /// `ANYPROC_RELEASE_GIL_BY_DEFAULT`); turn it off for functions that return at once.
    #[getter]
    fn release_gil(&self) -> bool {
        self.release_gil.load(Ordering::Relaxed)
    }

    #[setter]
    fn set_release_gil(&self, value: bool) {
        self.release_gil.store(value, Ordering::Relaxed);
    }

    /// The name it was looked up or compiled under, if any.
    #[getter]
    fn name(&self) -> Option<String> {
        self.name.clone()
    }

    fn __repr__(&self) -> String {
        match &self.name {
            Some(n) => format!("<anyproc.Function {n}>"),
            None => format!("<anyproc.Function {:?}>", self.func),
        }
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<Function>().is_ok_and(|o| o.get().func.ptr_eq(&self.func))
    }

    fn __hash__(&self) -> u64 {
        let any = self.func.clone().into_any();
        any.as_obj().map_or(0, |o| o.as_raw().as_ptr() as usize as u64)
    }
}

/// The global function `name`; KeyError (with a did-you-mean) if none is registered.
#[pyfunction]
pub fn get_global_func(py: Python<'_>, name: &str) -> PyResult<Function> {
    let func = registry().get(name).py_err(py)?;
    Ok(Function::new(func, Some(name.to_string())))
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
    let (packed, signature, doc) = if let Ok(f) = func.cast::<Function>() {
        let info = f.get().name.as_deref().and_then(|n| registry().info(n));
        let (sig, doc) = info.map_or_else(|| ("(...) -> any".into(), String::new()), |i| (i.signature, i.doc));
        (f.get().func.clone(), sig, doc)
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

/// Compiles a module given as JSON (the shape of `anyproc::pipeline::ast::Module`) and returns `entry`.
#[pyfunction]
pub fn script_json(py: Python<'_>, ast_json: &str, entry: &str) -> PyResult<Function> {
    let func = py.detach(|| anyproc::pipeline::script_json(ast_json, entry)).py_err(py)?;
    Ok(Function::new(func, Some(entry.to_string())))
}

/// Compiles anyscript source text and returns its function `entry`.
#[pyfunction]
pub fn script_source(py: Python<'_>, source: &str, entry: &str) -> PyResult<Function> {
    let func = py.detach(|| anyproc::pipeline::script(source, entry)).py_err(py)?;
    Ok(Function::new(func, Some(entry.to_string())))
}
