//! Python callables as `PackedFunc`s: callable from pipelines and Rust, on any thread, with
//! keyword arguments too (`fn(text, lower=True)`, `fn(*parts, **options)` in a script).

use crate::convert::{any_to_py, py_to_any};
use crate::errors::carry;
use anyproc::{AnyValue, AnyView, CallArgs, PackedFunc};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

/// Wraps a Python callable: each call attaches to the interpreter, converts the arguments,
/// calls, and converts the result; a Python exception travels inside the error (see `errors`).
pub fn callable_to_func(callable: Py<PyAny>) -> PackedFunc {
    PackedFunc::with_keywords(
        callable,
        |callable, args| Python::attach(|py| call(py, callable, args)),
        |callable, args| Python::attach(|py| call_keywords(py, callable, args)),
    )
}

fn call(py: Python<'_>, callable: &Py<PyAny>, args: &[AnyView<'_>]) -> anyproc::Result<AnyValue> {
    let result = (|| {
        let items = args.iter().map(|a| any_to_py(py, a)).collect::<PyResult<Vec<_>>>()?;
        let out = callable.bind(py).call1(PyTuple::new(py, items)?)?;
        py_to_any(&out)
    })();
    result.map_err(|e| carry(py, e))
}

/// A call with keyword arguments, `*iterable` and `**mapping` ones among them, spread and
/// merged as CPython's call does, with its errors.
fn call_keywords(py: Python<'_>, callable: &Py<PyAny>, args: &CallArgs<'_>) -> anyproc::Result<AnyValue> {
    let result = (|| {
        let callable = callable.bind(py);
        let mut items = Vec::with_capacity(args.positional.len());
        for (i, a) in args.positional.iter().enumerate() {
            let value = any_to_py(py, a)?;
            if i < 16 && args.starred & (1 << i) != 0 {
                let Ok(iter) = value.try_iter() else {
                    let ty = value.get_type().name()?;
                    let message = format!("{} argument after * must be an iterable, not {ty}", function_str(callable));
                    return Err(PyTypeError::new_err(message));
                };
                for item in iter {
                    items.push(item?);
                }
            } else {
                items.push(value);
            }
        }
        let keywords = PyDict::new(py);
        let set = |name: Bound<'_, PyAny>, value: Bound<'_, PyAny>| -> PyResult<()> {
            if keywords.contains(&name)? {
                let message =
                    format!("{} got multiple values for keyword argument '{}'", function_str(callable), name.str()?);
                return Err(PyTypeError::new_err(message));
            }
            keywords.set_item(name, value)
        };
        for (name, value) in args.names.iter().zip(args.values) {
            let value = any_to_py(py, value)?;
            if *name != CallArgs::MAPPING {
                set(name.into_pyobject(py)?.into_any(), value)?;
                continue;
            }
            let Ok(keys) = value.call_method0("keys") else {
                let ty = value.get_type().name()?;
                let message = format!("{} argument after ** must be a mapping, not {ty}", function_str(callable));
                return Err(PyTypeError::new_err(message));
            };
            for key in keys.try_iter()? {
                let key = key?;
                if !key.is_instance_of::<pyo3::types::PyString>() {
                    return Err(PyTypeError::new_err("keywords must be strings"));
                }
                let item = value.get_item(&key)?;
                set(key, item)?;
            }
        }
        let out = callable.call(PyTuple::new(py, items)?, Some(&keywords))?;
        py_to_any(&out)
    })();
    result.map_err(|e| carry(py, e))
}

/// How CPython names a callable in a call's errors (`_PyObject_FunctionStr`): `module.qualname()`,
/// `qualname()` for a built-in, the object's `str` when it has no qualified name.
fn function_str(callable: &Bound<'_, PyAny>) -> String {
    let Ok(qualname) = callable.getattr("__qualname__").and_then(|q| q.str()) else {
        return callable.str().map(|s| s.to_string()).unwrap_or_default();
    };
    match callable.getattr("__module__").ok().filter(|m| !m.is_none()).and_then(|m| m.str().ok()) {
        Some(module) if module != "builtins" => format!("{module}.{qualname}()"),
        _ => format!("{qualname}()"),
    }
}
