//! `NDArray`: an anyproc array in Python, exchanged with NumPy and PyTorch through DLPack.

use crate::convert::{any_to_py, py_to_any};
use crate::dlpack;
use crate::errors::IntoPyResult;
use anyproc::NDArray;
use anyproc::ndarray::npy::{read_npy, to_npy_bytes};
use pyo3::exceptions::{PyBufferError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyDict, PyTuple};

/// An n-dimensional array; `numpy.from_dlpack` and `torch.from_dlpack` take it without a copy.
#[pyclass(frozen, name = "NDArray", module = "anyproc._native")]
pub struct PyNDArray {
    /// The array.
    pub array: NDArray,
}

#[pymethods]
impl PyNDArray {
    /// From an object with `__dlpack__` (zero copy) or from nested lists of numbers (copied).
    #[new]
    fn new(obj: &Bound<'_, PyAny>) -> PyResult<Self> {
        if obj.hasattr("__dlpack__")? || obj.cast::<PyCapsule>().is_ok() {
            return Ok(PyNDArray { array: import_dlpack(obj)? });
        }
        let value = py_to_any(obj)?;
        Ok(PyNDArray { array: NDArray::from_nested(&value).py_err(obj.py())? })
    }

    /// Imports any object with `__dlpack__` (or a DLPack capsule) without a copy.
    #[staticmethod]
    fn from_dlpack(obj: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PyNDArray { array: import_dlpack(obj)? })
    }

    /// The DLPack export: a `dltensor_versioned` capsule when the consumer gives `max_version` >= 1.
    #[pyo3(signature = (*, stream = None, max_version = None, dl_device = None, copy = None))]
    fn __dlpack__<'py>(
        &self,
        py: Python<'py>,
        stream: Option<Bound<'py, PyAny>>,
        max_version: Option<(u32, u32)>,
        dl_device: Option<(i32, i32)>,
        copy: Option<bool>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        // Host memory needs no stream synchronisation; device arrays are exported as they are.
        let _ = stream;
        let device = self.array.device();
        if let Some((device_type, device_id)) = dl_device {
            if (device_type, device_id) != (device.device_type, device.device_id) {
                return Err(PyBufferError::new_err(format!(
                    "cannot export an array on device ({}, {}) to device ({device_type}, {device_id})",
                    device.device_type, device.device_id
                )));
            }
        }
        let versioned = max_version.is_some_and(|(major, _)| major >= 1);
        if !versioned && self.array.is_read_only() && copy != Some(true) {
            // A legacy capsule cannot say "read-only"; NumPy refuses the same way.
            return Err(PyBufferError::new_err(
                "a read-only array needs max_version=(1, 0) or copy=True (legacy DLPack has no read-only flag)",
            ));
        }
        let copied;
        let array = if copy == Some(true) {
            copied = copy_array(&self.array).map_err(|e| PyBufferError::new_err(format!("cannot copy: {e}")))?;
            &copied
        } else {
            &self.array
        };
        dlpack::export(py, array, versioned)
    }

    /// `(device_type, device_id)`: `(1, 0)` for host memory.
    fn __dlpack_device__(&self) -> (i32, i32) {
        let d = self.array.device();
        (d.device_type, d.device_id)
    }

    /// A NumPy array sharing this array's memory (`numpy.from_dlpack(self)`).
    fn numpy<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        slf.py().import("numpy")?.call_method1("from_dlpack", (slf,))
    }

    /// NumPy's array protocol, so that `numpy.asarray(a)` works (zero copy unless asked).
    #[pyo3(signature = (dtype = None, copy = None))]
    fn __array__<'py>(
        slf: &Bound<'py, Self>,
        dtype: Option<Bound<'py, PyAny>>,
        copy: Option<bool>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let mut out = Self::numpy(slf)?;
        if let Some(dtype) = dtype {
            let kwargs = PyDict::new(slf.py());
            kwargs.set_item("copy", false)?;
            out = out.call_method("astype", (dtype,), Some(&kwargs))?;
        }
        if copy == Some(true) {
            out = out.call_method0("copy")?;
        }
        Ok(out)
    }

    /// The extents.
    #[getter]
    fn shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.array.shape())
    }

    /// The element type's name (`int64`, `float32`, `bool`, ...).
    #[getter]
    fn dtype(&self) -> String {
        self.array.dtype().name()
    }

    /// Number of dimensions.
    #[getter]
    fn ndim(&self) -> usize {
        self.array.ndim()
    }

    fn __len__(&self) -> PyResult<usize> {
        match self.array.shape().first() {
            Some(&n) => Ok(n as usize),
            None => Err(PyTypeError::new_err("len() of a 0-d array")),
        }
    }

    fn __repr__(&self) -> String {
        format!("{:?}", self.array)
    }

    /// The elements as nested Python lists.
    fn tolist<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let list = self.array.to_list().py_err(py)?;
        any_to_py(py, &list.view())
    }
}

/// A host copy of `a` with its own, contiguous memory.
fn copy_array(a: &NDArray) -> anyproc::Result<NDArray> {
    read_npy(to_npy_bytes(a)?.as_slice())
}

/// An `NDArray` from an anyproc `NDArray` object, a DLPack capsule, or any object with `__dlpack__`.
///
/// Asks for a versioned capsule first (`max_version=(1, 0)`) and falls back to the legacy
/// call for producers that do not take the keyword.
pub fn import_dlpack(obj: &Bound<'_, PyAny>) -> PyResult<NDArray> {
    if let Ok(a) = obj.cast::<PyNDArray>() {
        return Ok(a.get().array.clone());
    }
    if obj.cast::<PyCapsule>().is_ok() {
        return dlpack::consume(obj);
    }
    let py = obj.py();
    let kwargs = PyDict::new(py);
    kwargs.set_item("max_version", (1, 0))?;
    let capsule = match obj.call_method("__dlpack__", (), Some(&kwargs)) {
        Ok(c) => c,
        Err(e) if e.is_instance_of::<PyTypeError>(py) => obj.call_method0("__dlpack__")?,
        Err(e) => return Err(e),
    };
    dlpack::consume(&capsule)
}
