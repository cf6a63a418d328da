//! Lists and dicts across the C ABI.

use super::error_slot::guard;
use super::marshal::{borrow_handle, borrow_value, handle_as, out_slot, write_handle, write_value};
use crate::any::type_index::{DICT, LIST, TUPLE};
use crate::any::{AnyValue, RawAny};
use crate::container::{Dict, List};
use crate::error::Error;
use anyproc_abi::ObjectHeader;

/// Writes a new empty list to `out`.
pub(crate) unsafe extern "C" fn list_create(out: *mut *mut ObjectHeader) -> i32 {
    guard("list_create", || {
        write_handle(out_slot("list_create", out)?, List::new().into_any());
        Ok(())
    })
}

/// Appends a copy of `item` to `list`.
pub(crate) unsafe extern "C" fn list_append(list: *mut ObjectHeader, item: *const RawAny) -> i32 {
    guard("list_append", || {
        let mut list: List = handle_as("list_append: handle", list, LIST)?;
        // SAFETY: the ABI's contract on values; checked before use.
        let item: AnyValue = unsafe { borrow_value("list_append: item", item) }?.to_owned();
        list.push(item);
        Ok(())
    })
}

/// Writes the number of items of `list` to `out`.
pub(crate) unsafe extern "C" fn list_size(list: *mut ObjectHeader, out: *mut i64) -> i32 {
    guard("list_size", || {
        let out = out_slot("list_size", out)?;
        let list = sequence_handle("list_size: handle", list)?;
        // SAFETY: a checked out-slot.
        unsafe { out.write(list.len() as i64) };
        Ok(())
    })
}

/// Writes a new reference to `list[index]` to `out` (negative counts from the end).
pub(crate) unsafe extern "C" fn list_get_item(list: *mut ObjectHeader, index: i64, out: *mut RawAny) -> i32 {
    guard("list_get_item", || {
        out_slot("list_get_item", out)?;
        let list = sequence_handle("list_get_item: handle", list)?;
        let item = list.get(index).map_err(|e| e.context("list_get_item"))?;
        // SAFETY: checked non-NULL.
        unsafe { write_value("list_get_item", out, item) }
    })
}

/// A list or a tuple from a handle, for the functions that only read one: a tuple is a list's
/// subtype, laid out as one.
fn sequence_handle(what: &str, handle: *mut ObjectHeader) -> crate::error::Result<List> {
    // SAFETY: the ABI's contract on handles; checked for NULL, alignment and an object index.
    let obj = unsafe { borrow_handle(what, handle, None) }?;
    if !matches!(obj.type_index(), LIST | TUPLE) {
        return Err(Error::type_mismatch("list", &obj.type_name()).context(what));
    }
    crate::any::unbox(&crate::AnyView::from_obj(&obj.to_owned()))
}

/// Writes a new empty dict to `out`.
pub(crate) unsafe extern "C" fn dict_create(out: *mut *mut ObjectHeader) -> i32 {
    guard("dict_create", || {
        write_handle(out_slot("dict_create", out)?, Dict::new().into_any());
        Ok(())
    })
}

/// Sets `dict[key] = value`, copying both.
pub(crate) unsafe extern "C" fn dict_set_item(
    dict: *mut ObjectHeader,
    key: *const RawAny,
    value: *const RawAny,
) -> i32 {
    guard("dict_set_item", || {
        let mut dict: Dict = handle_as("dict_set_item: handle", dict, DICT)?;
        // SAFETY: the ABI's contract on values; both checked before use.
        let (key, value): (AnyValue, AnyValue) = unsafe {
            (
                borrow_value("dict_set_item: key", key)?.to_owned(),
                borrow_value("dict_set_item: value", value)?.to_owned(),
            )
        };
        dict.set(key, value);
        Ok(())
    })
}

/// Writes a new reference to `dict[key]` to `out`; a missing key is a KeyError.
pub(crate) unsafe extern "C" fn dict_get_item(dict: *mut ObjectHeader, key: *const RawAny, out: *mut RawAny) -> i32 {
    guard("dict_get_item", || {
        out_slot("dict_get_item", out)?;
        let dict: Dict = handle_as("dict_get_item: handle", dict, DICT)?;
        // SAFETY: the ABI's contract on values; checked before use.
        let key = unsafe { borrow_value("dict_get_item: key", key) }?;
        let value = dict.get_item(key).map_err(|e| e.context("dict_get_item"))?;
        // SAFETY: checked non-NULL.
        unsafe { write_value("dict_get_item", out, value) }
    })
}

/// Writes the number of entries of `dict` to `out`.
pub(crate) unsafe extern "C" fn dict_size(dict: *mut ObjectHeader, out: *mut i64) -> i32 {
    guard("dict_size", || {
        let out = out_slot("dict_size", out)?;
        let dict: Dict = handle_as("dict_size: handle", dict, DICT)?;
        // SAFETY: a checked out-slot.
        unsafe { out.write(dict.len() as i64) };
        Ok(())
    })
}

/// Writes new references to the key and value of the `index`-th entry, in insertion order.
pub(crate) unsafe extern "C" fn dict_item_at(
    dict: *mut ObjectHeader,
    index: i64,
    key_out: *mut RawAny,
    value_out: *mut RawAny,
) -> i32 {
    guard("dict_item_at", || {
        out_slot("dict_item_at: key_out", key_out)?;
        out_slot("dict_item_at: value_out", value_out)?;
        let dict: Dict = handle_as("dict_item_at: handle", dict, DICT)?;
        let len = dict.len();
        let (key, value) = usize::try_from(index)
            .ok()
            .and_then(|i| dict.item_at(i))
            .ok_or_else(|| Error::index_out_of_range(index, len).context("dict_item_at"))?;
        // SAFETY: both checked non-NULL.
        unsafe {
            write_value("dict_item_at", key_out, key)?;
            write_value("dict_item_at", value_out, value)
        }
    })
}
