//! The function table a host hands to plugins, and the plugin entry points.
//!
//! Rationale: a plugin calls the runtime only through this table, never through
//! link-time symbols, so one plugin binary works in every host that embeds
//! anyproc (the CLI, the Python extension, a test binary) and two runtimes in one
//! process never mix objects by accident. Every function follows the safe-call
//! convention: it returns 0 on success or -1 on failure, and on failure the
//! message is kept in a thread-local slot read with `error_last`. Arguments are
//! borrowed; every value or handle written to an `out` parameter is a new
//! reference the caller releases (`any_release`, `object_dec_ref`).

use crate::dlpack::{DLDataType, DLDevice, DLManagedTensorVersioned, DLTensor};
use crate::object::ObjectHeader;
use crate::value::RawAny;
use std::ffi::{c_char, c_void};

/// Bumped when a layout or a table entry changes incompatibly; a plugin built for another major is refused.
pub const ABI_VERSION_MAJOR: u32 = 1;
/// Bumped when entries are appended to the table; a plugin built for a newer minor is refused.
pub const ABI_VERSION_MINOR: u32 = 0;
/// `major << 16 | minor`, as returned by `AnyProcPluginAbiVersion` and stored in `AnyProcApi::abi_version`.
pub const ABI_VERSION: u32 = (ABI_VERSION_MAJOR << 16) | ABI_VERSION_MINOR;

/// The symbol a plugin exports to say which ABI version it was built for.
pub const PLUGIN_ABI_VERSION_SYMBOL: &str = "AnyProcPluginAbiVersion";
/// The symbol of a plugin's entry point, called once when it is loaded.
pub const PLUGIN_INIT_SYMBOL: &str = "AnyProcPluginInit";

/// `uint32_t AnyProcPluginAbiVersion(void)`.
pub type PluginAbiVersionFn = unsafe extern "C" fn() -> u32;
/// `int AnyProcPluginInit(const AnyProcApi* api, AnyProcObject* module)`: registers the plugin's ops; 0 or -1.
pub type PluginInitFn = unsafe extern "C" fn(api: *const AnyProcApi, module: *mut ObjectHeader) -> i32;

/// A function implemented in C: reads `num_args` borrowed `args`, writes an owned value to `result`; 0 or -1.
pub type Callback =
    unsafe extern "C" fn(resource: *mut c_void, args: *const RawAny, num_args: i32, result: *mut RawAny) -> i32;
/// Frees a callback's resource when its function object is freed.
pub type ResourceDeleter = unsafe extern "C" fn(resource: *mut c_void);

/// The runtime's functions, as handed to a plugin's init (and to any C code the host calls).
#[repr(C)]
pub struct AnyProcApi {
    /// `ABI_VERSION` of the host.
    pub abi_version: u32,
    /// `size_of::<AnyProcApi>()` of the host; entries past what a plugin knows are appended, never reordered.
    pub struct_size: u32,

    /// The message of the last failed call on this thread (valid until the next call), or NULL.
    pub error_last: unsafe extern "C" fn() -> *const c_char,
    /// Sets this thread's error, for a callback about to return -1; `kind` is e.g. "ValueError" or NULL.
    pub error_set: unsafe extern "C" fn(kind: *const c_char, message: *const c_char),

    /// Adds a reference to an object.
    pub object_inc_ref: unsafe extern "C" fn(obj: *mut ObjectHeader),
    /// Drops a reference to an object, freeing it at zero.
    pub object_dec_ref: unsafe extern "C" fn(obj: *mut ObjectHeader),
    /// Releases an owned value (drops its object reference, if any) and sets it to None.
    pub any_release: unsafe extern "C" fn(value: *mut RawAny),
    /// Makes an owned copy of a value, borrowed strings included.
    pub any_copy: unsafe extern "C" fn(value: *const RawAny, out: *mut RawAny) -> i32,

    /// The global function registered under `name`.
    pub func_get_global: unsafe extern "C" fn(name: *const c_char, out: *mut *mut ObjectHeader) -> i32,
    /// Calls a function object.
    pub func_call:
        unsafe extern "C" fn(func: *mut ObjectHeader, args: *const RawAny, num_args: i32, result: *mut RawAny) -> i32,
    /// Wraps a C callback as a function object; `deleter(resource)` runs when the object is freed.
    pub func_create: unsafe extern "C" fn(
        callback: Option<Callback>,
        resource: *mut c_void,
        deleter: Option<ResourceDeleter>,
        out: *mut *mut ObjectHeader,
    ) -> i32,
    /// Registers a function object globally; a taken name is an error unless `override_existing` is nonzero.
    pub func_register_global: unsafe extern "C" fn(
        name: *const c_char,
        signature: *const c_char,
        doc: *const c_char,
        func: *mut ObjectHeader,
        override_existing: i32,
    ) -> i32,

    /// A string from `len` bytes of UTF-8 (inline when it fits, else on the heap).
    pub str_create: unsafe extern "C" fn(data: *const c_char, len: usize, out: *mut RawAny) -> i32,
    /// The UTF-8 bytes of any string value; UCS4 strings are converted into `holder`, which the caller releases.
    pub str_get: unsafe extern "C" fn(
        value: *const RawAny,
        holder: *mut RawAny,
        data: *mut *const c_char,
        len: *mut usize,
    ) -> i32,

    /// A new empty list.
    pub list_create: unsafe extern "C" fn(out: *mut *mut ObjectHeader) -> i32,
    /// Appends a copy of `item`.
    pub list_append: unsafe extern "C" fn(list: *mut ObjectHeader, item: *const RawAny) -> i32,
    /// The number of items of a list or a tuple.
    pub list_size: unsafe extern "C" fn(list: *mut ObjectHeader, out: *mut i64) -> i32,
    /// The item of a list or a tuple at `index` (negative counts from the end).
    pub list_get_item: unsafe extern "C" fn(list: *mut ObjectHeader, index: i64, out: *mut RawAny) -> i32,

    /// A new empty dict.
    pub dict_create: unsafe extern "C" fn(out: *mut *mut ObjectHeader) -> i32,
    /// Sets `dict[key] = value`.
    pub dict_set_item: unsafe extern "C" fn(dict: *mut ObjectHeader, key: *const RawAny, value: *const RawAny) -> i32,
    /// `dict[key]`; a missing key is a KeyError.
    pub dict_get_item: unsafe extern "C" fn(dict: *mut ObjectHeader, key: *const RawAny, out: *mut RawAny) -> i32,
    /// The number of entries.
    pub dict_size: unsafe extern "C" fn(dict: *mut ObjectHeader, out: *mut i64) -> i32,
    /// The `index`-th entry in insertion order.
    pub dict_item_at:
        unsafe extern "C" fn(dict: *mut ObjectHeader, index: i64, key_out: *mut RawAny, value_out: *mut RawAny) -> i32,

    /// A new zero-filled, compact NDArray in host memory.
    pub ndarray_create: unsafe extern "C" fn(
        shape: *const i64,
        ndim: i32,
        dtype: DLDataType,
        device: DLDevice,
        out: *mut *mut ObjectHeader,
    ) -> i32,
    /// The array's DLTensor, borrowed for as long as the array is alive.
    pub ndarray_get_tensor: unsafe extern "C" fn(array: *mut ObjectHeader, out: *mut *const DLTensor) -> i32,
    /// Exports the array as DLPack (sharing memory); the consumer calls its deleter once.
    pub ndarray_to_dlpack:
        unsafe extern "C" fn(array: *mut ObjectHeader, out: *mut *mut DLManagedTensorVersioned) -> i32,
    /// Imports a DLPack tensor (sharing memory); the array owns `managed`, and on failure its deleter has already run.
    pub ndarray_from_dlpack:
        unsafe extern "C" fn(managed: *mut DLManagedTensorVersioned, out: *mut *mut ObjectHeader) -> i32,

    /// Loads a plugin; loading the same file again returns the module already loaded.
    pub module_load:
        unsafe extern "C" fn(path: *const c_char, override_existing: i32, out: *mut *mut ObjectHeader) -> i32,
}
