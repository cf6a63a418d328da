//! `Object`: an anyproc value that has no Python counterpart, passed through opaquely.

use anyproc::AnyValue;
use pyo3::prelude::*;

/// An anyproc value of a type Python does not know (a tokenizer, a device); converts back unchanged.
#[pyclass(frozen, name = "Object", module = "anyproc._native")]
pub struct Opaque {
    /// The value.
    pub value: AnyValue,
}

#[pymethods]
impl Opaque {
    /// The anyproc type name of the value.
    #[getter]
    fn type_name(&self) -> String {
        self.value.type_name()
    }

    fn __repr__(&self) -> String {
        format!("<anyproc.Object {:?}>", self.value)
    }
}
