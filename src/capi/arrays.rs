//! NDArrays across the C ABI: create, read the DLTensor, DLPack export and import.

use super::error_slot::guard;
use super::marshal::{handle_as, out_slot, write_handle};
use super::module::{LoadedLibrary, current_library};
use crate::any::type_index::NDARRAY;
use crate::error::Error;
use crate::ndarray::NDArray;
use crate::ndarray::dlpack::{DLDataType, DLDevice, DLManagedTensorVersioned, DLTensor};
use anyproc_abi::ObjectHeader;
use std::ffi::c_void;
use std::ptr::NonNull;
use std::sync::Arc;

/// Writes a new zero-filled compact array of `shape` and `dtype` to `out`; only host memory is supported.
pub(crate) unsafe extern "C" fn ndarray_create(
    shape: *const i64,
    ndim: i32,
    dtype: DLDataType,
    device: DLDevice,
    out: *mut *mut ObjectHeader,
) -> i32 {
    guard("ndarray_create", || {
        let out = out_slot("ndarray_create", out)?;
        let ndim =
            usize::try_from(ndim).map_err(|_| Error::value(format!("ndarray_create: ndim {ndim} is negative")))?;
        if ndim > 0 && shape.is_null() {
            return Err(Error::value(format!("ndarray_create: shape is NULL but ndim is {ndim}")));
        }
        if device != DLDevice::CPU {
            return Err(Error::value(format!(
                "ndarray_create: device (type {}, id {}) is not supported; only CPU (kDLCPU, 0) is",
                device.device_type, device.device_id
            )));
        }
        // SAFETY: `ndim` readable extents at `shape`, by the ABI's contract.
        let shape = if ndim == 0 { &[][..] } else { unsafe { std::slice::from_raw_parts(shape, ndim) } };
        let array = NDArray::zeros(shape, dtype).map_err(|e| e.context("ndarray_create"))?;
        write_handle(out, array.into_any());
        Ok(())
    })
}

/// Points `out` at the array's DLTensor, valid while the array is alive.
pub(crate) unsafe extern "C" fn ndarray_get_tensor(array: *mut ObjectHeader, out: *mut *const DLTensor) -> i32 {
    guard("ndarray_get_tensor", || {
        let out = out_slot("ndarray_get_tensor", out)?;
        let array = handle_as::<NDArray>("ndarray_get_tensor: array", array, NDARRAY)?;
        // The tensor lives inside the array object, which the caller keeps alive.
        let tensor: *const DLTensor = array.dl_tensor();
        // SAFETY: a checked out-slot.
        unsafe { out.write(tensor) };
        Ok(())
    })
}

/// Exports the array as a versioned DLPack tensor sharing its memory.
pub(crate) unsafe extern "C" fn ndarray_to_dlpack(
    array: *mut ObjectHeader,
    out: *mut *mut DLManagedTensorVersioned,
) -> i32 {
    guard("ndarray_to_dlpack", || {
        let out = out_slot("ndarray_to_dlpack", out)?;
        let managed = handle_as::<NDArray>("ndarray_to_dlpack: array", array, NDARRAY)?.to_dlpack_versioned();
        // SAFETY: a checked out-slot; the consumer now owns the managed tensor.
        unsafe { out.write(managed.as_ptr()) };
        Ok(())
    })
}

/// A plugin's managed tensor re-wrapped so that its library stays loaded until its deleter has run.
#[repr(C)]
struct PinnedImport {
    managed: DLManagedTensorVersioned,
    inner: NonNull<DLManagedTensorVersioned>,
    _library: Arc<LoadedLibrary>,
}

unsafe extern "C" fn delete_pinned(managed: *mut DLManagedTensorVersioned) {
    // SAFETY: made by `pin_to_library` with `managed` first in a boxed PinnedImport.
    let pinned = unsafe { Box::from_raw(managed.cast::<PinnedImport>()) };
    // SAFETY: the inner tensor is the plugin's, released once here.
    if let Some(deleter) = unsafe { pinned.inner.as_ref() }.deleter {
        // SAFETY: as above; the library is still held by `pinned`.
        unsafe { deleter(pinned.inner.as_ptr()) }
    }
    drop(pinned);
}

fn pin_to_library(
    inner: NonNull<DLManagedTensorVersioned>,
    library: Arc<LoadedLibrary>,
) -> NonNull<DLManagedTensorVersioned> {
    // SAFETY: a valid managed tensor, by the ABI's contract.
    let m = unsafe { inner.as_ref() };
    let pinned = Box::new(PinnedImport {
        managed: DLManagedTensorVersioned {
            version: m.version,
            manager_ctx: std::ptr::null_mut::<c_void>(),
            deleter: Some(delete_pinned),
            flags: m.flags,
            dl_tensor: m.dl_tensor,
        },
        inner,
        _library: library,
    });
    // SAFETY: Box::into_raw is never null; `managed` is the first field.
    unsafe { NonNull::new_unchecked(Box::into_raw(pinned)).cast() }
}

/// Imports a versioned DLPack tensor, sharing its memory; on failure its deleter has already run.
pub(crate) unsafe extern "C" fn ndarray_from_dlpack(
    managed: *mut DLManagedTensorVersioned,
    out: *mut *mut ObjectHeader,
) -> i32 {
    guard("ndarray_from_dlpack", || {
        let out = out_slot("ndarray_from_dlpack", out)?;
        let managed = NonNull::new(managed).ok_or_else(|| Error::value("ndarray_from_dlpack: managed is NULL"))?;
        // A deleter that lives in a plugin must not outlive the plugin's code.
        let managed = match current_library() {
            Some(library) => pin_to_library(managed, library),
            None => managed,
        };
        // SAFETY: a valid managed tensor that the caller hands over, by the ABI's contract.
        let array = unsafe { NDArray::from_dlpack_versioned(managed) }.map_err(|e| e.context("ndarray_from_dlpack"))?;
        write_handle(out, array.into_any());
        Ok(())
    })
}
