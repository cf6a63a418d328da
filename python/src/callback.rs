//! Python callables as `PackedFunc`s: callable from pipelines and Rust, on any thread.

use crate::convert::{any_to_py, py_to_any};
use crate::errors::carry;
use anyproc::{AnyValue, AnyView, PackedFunc};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

/// Wraps a Python callable: each call attaches to the interpreter, converts the arguments,
/// calls, and converts the result; a Python exception travels inside the error (see `errors`).
pub fn callable_to_func(callable: Py<PyAny>) -> PackedFunc {
    PackedFunc::new(move |args: &[AnyView<'_>]| Python::attach(|py| call(py, &callable, args)))
}

fn call(py: Python<'_>, callable: &Py<PyAny>, args: &[AnyView<'_>]) -> anyproc::Result<AnyValue> {
    let result = (|| {
        let items = args.iter().map(|a| any_to_py(py, a)).collect::<PyResult<Vec<_>>>()?;
        let out = callable.bind(py).call1(PyTuple::new(py, items)?)?;
        py_to_any(&out)
    })();
    result.map_err(|e| carry(py, e))
}
