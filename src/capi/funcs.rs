//! Functions across the C ABI: look up, call, wrap a C callback, register.

use super::error_slot::{c_str_arg, clear_last_error, guard, take_last_error};
use super::marshal::{borrow_args, borrow_handle, handle_as, out_slot, take_owned, write_handle, write_value};
use super::module::{LoadedLibrary, current_library, record_registration};
use crate::any::type_index::{FUNC, NONE};
use crate::any::{AnyValue, AnyView, RawAny};
use crate::error::{Error, Result};
use crate::func::{PackedFunc, call_obj, get_global_func, registry};
use anyproc_abi::{Callback, ObjectHeader, ResourceDeleter};
use std::ffi::{c_char, c_void};
use std::sync::Arc;

/// Writes a new reference to the global function `name` to `out`.
pub(crate) unsafe extern "C" fn func_get_global(name: *const c_char, out: *mut *mut ObjectHeader) -> i32 {
    guard("func_get_global", || {
        let out = out_slot("func_get_global", out)?;
        // SAFETY: the ABI's contract: NULL or a NUL-terminated string.
        let name = unsafe { c_str_arg("func_get_global", "name", name) }?;
        write_handle(out, get_global_func(name)?.into_any());
        Ok(())
    })
}

/// Calls `func` with `num_args` borrowed `args`; writes the owned result to `result`.
pub(crate) unsafe extern "C" fn func_call(
    func: *mut ObjectHeader,
    args: *const RawAny,
    num_args: i32,
    result: *mut RawAny,
) -> i32 {
    guard("func_call", || {
        out_slot("func_call: result", result)?;
        // SAFETY: the ABI's contract on each pointer; all are checked before use.
        let (func, args) =
            unsafe { (borrow_handle("func_call: func", func, Some(FUNC))?, borrow_args("func_call", args, num_args)?) };
        let value = call_obj(func, &args)?;
        // SAFETY: checked non-NULL above.
        unsafe { write_value("func_call", result, value) }
    })
}

/// A C callback's resource, freed by its deleter when the function object goes.
struct Resource {
    ptr: *mut c_void,
    deleter: Option<ResourceDeleter>,
}

// SAFETY: the ABI requires callbacks and their resources to be callable from any thread.
unsafe impl Send for Resource {}
// SAFETY: as above.
unsafe impl Sync for Resource {}

impl Drop for Resource {
    fn drop(&mut self) {
        if let Some(deleter) = self.deleter {
            // SAFETY: called once, with the resource the plugin gave us.
            unsafe { deleter(self.ptr) }
        }
    }
}

/// A C callback as a Rust closure's state.
///
/// Rationale: fields drop in order, so the resource's deleter runs while the
/// library holding its code is still mapped; the library handle goes last.
struct CallbackFunc {
    callback: Callback,
    resource: Resource,
    library: Option<Arc<LoadedLibrary>>,
}

impl CallbackFunc {
    fn call(&self, args: &[AnyView<'_>]) -> Result<AnyValue> {
        let mut result = RawAny::with_type(NONE);
        clear_last_error();
        let num_args = i32::try_from(args.len()).map_err(|_| Error::value("too many arguments for a C callback"))?;
        // `AnyView` is `#[repr(C)]` around a `RawAny`, so the slice is the C array of values.
        let rc = super::module::with_library(self.library.as_ref(), || {
            // SAFETY: the callback was registered through the ABI with this signature; the
            // arguments stay borrowed for the call and `result` is a writable slot.
            unsafe { (self.callback)(self.resource.ptr, args.as_ptr().cast::<RawAny>(), num_args, &mut result) }
        });
        let origin = || self.library.as_ref().map(|l| format!("plugin {}", l.display_name()));
        if rc != 0 {
            let error =
                take_last_error().unwrap_or_else(|| Error::runtime("callback returned -1 without setting an error"));
            return Err(match origin() {
                Some(o) => error.context(o),
                None => error,
            });
        }
        // SAFETY: the callback handed over an owned value; it is checked before use.
        unsafe { take_owned("callback result", result) }.map_err(|e| match origin() {
            Some(o) => e.context(o),
            None => e,
        })
    }
}

/// Wraps `callback` as a function object; `deleter(resource)` runs when it is freed.
pub(crate) unsafe extern "C" fn func_create(
    callback: Option<Callback>,
    resource: *mut c_void,
    deleter: Option<ResourceDeleter>,
    out: *mut *mut ObjectHeader,
) -> i32 {
    guard("func_create", || {
        let out = out_slot("func_create", out)?;
        let Some(callback) = callback else {
            return Err(Error::value("func_create: callback is NULL"));
        };
        let state =
            CallbackFunc { callback, resource: Resource { ptr: resource, deleter }, library: current_library() };
        write_handle(out, PackedFunc::new(move |args| state.call(args)).into_any());
        Ok(())
    })
}

/// Registers `func` as the global function `name`.
pub(crate) unsafe extern "C" fn func_register_global(
    name: *const c_char,
    signature: *const c_char,
    doc: *const c_char,
    func: *mut ObjectHeader,
    override_existing: i32,
) -> i32 {
    guard("func_register_global", || {
        // SAFETY: the ABI's contract: NULL or a NUL-terminated string.
        let name = unsafe { c_str_arg("func_register_global", "name", name) }?;
        let func: PackedFunc = handle_as("func_register_global: func", func, FUNC)?;
        let optional = |p: *const c_char, arg: &str| -> Result<String> {
            // SAFETY: NULL or a NUL-terminated string, by contract.
            if p.is_null() {
                Ok(String::new())
            } else {
                unsafe { c_str_arg("func_register_global", arg, p) }.map(str::to_string)
            }
        };
        let (signature, doc) = (optional(signature, "signature")?, optional(doc, "doc")?);
        let previous = registry().info(name);
        let override_existing = override_existing != 0 || super::module::loading_overrides();
        registry().register(name, &signature, &doc, func, override_existing)?;
        record_registration(name, previous);
        Ok(())
    })
}
