//! `Generator`: a generator a script made (a call of a `def` with `yield`), in Python an
//! iterator whose each item runs the generator's body, without the GIL, to its next `yield`.

use crate::convert::any_to_py;
use crate::errors::to_pyerr;
use anyproc::pipeline::generator::Generator;
use pyo3::prelude::*;

/// A script's generator: `next(g)`, `for x in g` and `list(g)` take its items as Python's
/// generator gives them, one run of its body each.
#[pyclass(frozen, name = "Generator", module = "anyproc._native")]
pub struct PyGenerator {
    /// The generator.
    pub generator: Generator,
}

#[pymethods]
impl PyGenerator {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        let generator = self.generator.clone();
        let item = py.detach(|| generator.next()).map_err(|e| to_pyerr(py, e))?;
        item.map(|v| any_to_py(py, &v.view()).map(Bound::unbind)).transpose()
    }

    fn __repr__(&self) -> String {
        format!("<anyproc.Generator of {}>", self.generator.name())
    }
}
