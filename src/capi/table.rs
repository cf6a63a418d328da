//! The one `AnyProcApi` table this runtime hands out.

use super::{arrays, containers, error_slot, funcs, module, values};
use anyproc_abi::{ABI_VERSION, AnyProcApi};

static API: AnyProcApi = AnyProcApi {
    abi_version: ABI_VERSION,
    struct_size: std::mem::size_of::<AnyProcApi>() as u32,
    error_last: error_slot::error_last,
    error_set: error_slot::error_set,
    object_inc_ref: values::object_inc_ref,
    object_dec_ref: values::object_dec_ref,
    any_release: values::any_release,
    any_copy: values::any_copy,
    func_get_global: funcs::func_get_global,
    func_call: funcs::func_call,
    func_create: funcs::func_create,
    func_register_global: funcs::func_register_global,
    str_create: values::str_create,
    str_get: values::str_get,
    list_create: containers::list_create,
    list_append: containers::list_append,
    list_size: containers::list_size,
    list_get_item: containers::list_get_item,
    dict_create: containers::dict_create,
    dict_set_item: containers::dict_set_item,
    dict_get_item: containers::dict_get_item,
    dict_size: containers::dict_size,
    dict_item_at: containers::dict_item_at,
    ndarray_create: arrays::ndarray_create,
    ndarray_get_tensor: arrays::ndarray_get_tensor,
    ndarray_to_dlpack: arrays::ndarray_to_dlpack,
    ndarray_from_dlpack: arrays::ndarray_from_dlpack,
    module_load: module::module_load,
};

/// The runtime's API table, for plugins and for C code the host calls directly.
pub fn api() -> &'static AnyProcApi {
    &API
}
