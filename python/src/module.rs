//! `load_module`: plugins (shared libraries built against include/anyproc.h) from Python.

use crate::errors::IntoPyResult;
use anyproc::capi::{LoadOptions, Module};
use pyo3::prelude::*;
use std::path::PathBuf;

/// A loaded plugin; its ops are in the registry (and under `anyproc.ops`).
#[pyclass(frozen, name = "Module", module = "anyproc._native")]
pub struct PyModuleHandle {
    module: Module,
}

#[pymethods]
impl PyModuleHandle {
    /// The file the plugin was loaded from.
    #[getter]
    fn path(&self) -> PathBuf {
        self.module.path().to_path_buf()
    }

    /// The names of the ops its init registered, in order.
    #[getter]
    fn functions(&self) -> Vec<String> {
        self.module.function_names()
    }

    fn __repr__(&self) -> String {
        format!("<anyproc.Module {} ({} ops)>", self.module.path().display(), self.module.function_names().len())
    }
}

/// Loads the plugin at `path`; loading it again returns the module already loaded.
#[pyfunction]
#[pyo3(signature = (path, *, r#override = false))]
pub fn load_module(py: Python<'_>, path: PathBuf, r#override: bool) -> PyResult<PyModuleHandle> {
    let options = LoadOptions { override_existing: r#override };
    // Plugin init may take a while and never touches Python.
    let module = py.detach(|| anyproc::capi::load_module_with(&path, &options)).py_err(py)?;
    Ok(PyModuleHandle { module })
}
