//! DLPack capsules: exporting an `NDArray` as a `dltensor[_versioned]` capsule and consuming one.
//!
//! The protocol: a capsule named `dltensor_versioned` (DLPack 1.x) or `dltensor` (legacy)
//! holds a managed tensor. The consumer takes ownership by renaming it `used_...`; the
//! capsule's destructor calls the tensor's deleter only if nobody consumed it.

use crate::errors::IntoPyResult;
use anyproc::NDArray;
use anyproc::ndarray::{DLManagedTensor, DLManagedTensorVersioned};
use pyo3::exceptions::PyTypeError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyCapsule;
use std::ffi::CStr;
use std::ptr::NonNull;

const VERSIONED: &CStr = c"dltensor_versioned";
const LEGACY: &CStr = c"dltensor";
const USED_VERSIONED: &CStr = c"used_dltensor_versioned";
const USED_LEGACY: &CStr = c"used_dltensor";

/// A capsule holding a new export of `array` (versioned or legacy); it keeps the array alive.
pub fn export<'py>(py: Python<'py>, array: &NDArray, versioned: bool) -> PyResult<Bound<'py, PyCapsule>> {
    if versioned {
        let managed = array.to_dlpack_versioned();
        // SAFETY: `managed` is a fresh export that the capsule owns until a consumer renames it;
        // the destructor matches the name and runs the deleter at most once.
        let capsule =
            unsafe { PyCapsule::new_with_pointer_and_destructor(py, managed.cast(), VERSIONED, Some(drop_versioned)) };
        capsule.inspect_err(|_| {
            // SAFETY: the capsule was not made, so the export is still ours to release, once.
            unsafe { release_versioned(managed.as_ptr()) }
        })
    } else {
        let managed = array.to_dlpack();
        // SAFETY: as above, for the legacy struct.
        let capsule =
            unsafe { PyCapsule::new_with_pointer_and_destructor(py, managed.cast(), LEGACY, Some(drop_legacy)) };
        capsule.inspect_err(|_| {
            // SAFETY: as above.
            unsafe { release_legacy(managed.as_ptr()) }
        })
    }
}

/// # Safety
/// `m` must be a live versioned managed tensor whose deleter has not run.
unsafe fn release_versioned(m: *mut DLManagedTensorVersioned) {
    // SAFETY: per the contract.
    unsafe {
        if let Some(d) = (*m).deleter {
            d(m)
        }
    }
}

/// # Safety
/// `m` must be a live legacy managed tensor whose deleter has not run.
unsafe fn release_legacy(m: *mut DLManagedTensor) {
    // SAFETY: per the contract.
    unsafe {
        if let Some(d) = (*m).deleter {
            d(m)
        }
    }
}

unsafe extern "C" fn drop_versioned(capsule: *mut ffi::PyObject) {
    // SAFETY: called by Python with a live capsule. A consumed capsule was renamed, so the
    // name check fails and the consumer's copy of the pointer stays the only owner.
    // `PyCapsule_IsValid` sets no exception, so none can leak out of this destructor.
    unsafe {
        if ffi::PyCapsule_IsValid(capsule, VERSIONED.as_ptr()) == 1 {
            let m = ffi::PyCapsule_GetPointer(capsule, VERSIONED.as_ptr());
            release_versioned(m.cast());
        }
    }
}

unsafe extern "C" fn drop_legacy(capsule: *mut ffi::PyObject) {
    // SAFETY: as in `drop_versioned`.
    unsafe {
        if ffi::PyCapsule_IsValid(capsule, LEGACY.as_ptr()) == 1 {
            let m = ffi::PyCapsule_GetPointer(capsule, LEGACY.as_ptr());
            release_legacy(m.cast());
        }
    }
}

/// Takes ownership of the tensor in a `dltensor_versioned` or `dltensor` capsule (zero copy).
pub fn consume(capsule: &Bound<'_, PyAny>) -> PyResult<NDArray> {
    let py = capsule.py();
    let ptr = capsule.as_ptr();
    // SAFETY: `ptr` is a live object; `PyCapsule_IsValid` is false for anything but a capsule
    // of that name with a non-null pointer, which by the protocol is an unconsumed managed
    // tensor. Renaming it first hands ownership to us before the import can run the deleter.
    unsafe {
        if ffi::PyCapsule_IsValid(ptr, VERSIONED.as_ptr()) == 1 {
            let m = ffi::PyCapsule_GetPointer(ptr, VERSIONED.as_ptr());
            let m = NonNull::new(m.cast::<DLManagedTensorVersioned>()).ok_or_else(|| PyErr::fetch(py))?;
            if ffi::PyCapsule_SetName(ptr, USED_VERSIONED.as_ptr()) != 0 {
                return Err(PyErr::fetch(py));
            }
            return NDArray::from_dlpack_versioned(m).py_err(py);
        }
        if ffi::PyCapsule_IsValid(ptr, LEGACY.as_ptr()) == 1 {
            let m = ffi::PyCapsule_GetPointer(ptr, LEGACY.as_ptr());
            let m = NonNull::new(m.cast::<DLManagedTensor>()).ok_or_else(|| PyErr::fetch(py))?;
            if ffi::PyCapsule_SetName(ptr, USED_LEGACY.as_ptr()) != 0 {
                return Err(PyErr::fetch(py));
            }
            return NDArray::from_dlpack(m).py_err(py);
        }
    }
    let what = match capsule.cast::<PyCapsule>() {
        Ok(c) => format!("a capsule named {:?} (already consumed?)", capsule_name(c)),
        Err(_) => capsule.get_type().name().map(|n| n.to_string()).unwrap_or_default(),
    };
    Err(PyTypeError::new_err(format!("expected a DLPack capsule ('dltensor_versioned' or 'dltensor'), got {what}")))
}

fn capsule_name(c: &Bound<'_, PyCapsule>) -> String {
    // SAFETY: a live capsule; the name is null or a C string that outlives the capsule.
    let name = unsafe { ffi::PyCapsule_GetName(c.as_ptr()) };
    if name.is_null() {
        return String::new();
    }
    // SAFETY: non-null names are NUL-terminated strings (the capsule API's contract).
    unsafe { CStr::from_ptr(name) }.to_string_lossy().into_owned()
}
