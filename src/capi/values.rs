//! Reference counts, value release and copy, and strings across the C ABI.

use super::error_slot::guard;
use super::marshal::{borrow_value, out_slot, write_value};
use crate::any::type_index::{NONE, OBJECT_BEGIN, SMALL_STR};
use crate::any::{AnyValue, RawAny, Value};
use crate::error::Error;
use crate::object::{dec_ref, inc_ref};
use anyproc_abi::ObjectHeader;
use std::ffi::c_char;
use std::ptr::NonNull;

/// The object behind a non-null, aligned handle, or `None` (a no-op for refcount calls).
fn live_handle(obj: *mut ObjectHeader) -> Option<NonNull<crate::object::Object>> {
    NonNull::new(obj.cast::<crate::object::Object>()).filter(|p| p.as_ptr().is_aligned())
}

/// Adds a reference to an object; NULL is ignored.
pub(crate) unsafe extern "C" fn object_inc_ref(obj: *mut ObjectHeader) {
    if let Some(p) = live_handle(obj) {
        // SAFETY: the caller holds a reference to this live object.
        unsafe { inc_ref(p) }
    }
}

/// Drops a reference to an object, freeing it at zero; NULL is ignored.
pub(crate) unsafe extern "C" fn object_dec_ref(obj: *mut ObjectHeader) {
    if let Some(p) = live_handle(obj) {
        // SAFETY: the caller owns the reference it gives up.
        unsafe { dec_ref(p) }
    }
}

/// Releases an owned value and sets it to None; NULL is ignored.
pub(crate) unsafe extern "C" fn any_release(value: *mut RawAny) {
    // SAFETY: NULL or a writable value head the caller owns.
    let Some(v) = (unsafe { value.as_mut() }) else { return };
    if v.type_index >= OBJECT_BEGIN {
        // SAFETY: object values keep their (owned) pointer in `v_ptr`.
        unsafe { object_dec_ref(v.payload.v_ptr.cast()) };
    }
    *v = RawAny::with_type(NONE);
}

/// Writes an owned copy of `value` (borrowed strings copied, objects with a new reference) to `out`.
pub(crate) unsafe extern "C" fn any_copy(value: *const RawAny, out: *mut RawAny) -> i32 {
    guard("any_copy", || {
        // SAFETY: the ABI's contract on `value`; it is checked before use.
        let view = unsafe { borrow_value("any_copy: value", value) }?;
        let copy: AnyValue = view.to_owned();
        // SAFETY: `out` is checked for NULL and writable by contract.
        unsafe { write_value("any_copy", out, copy) }
    })
}

/// Writes a string made from `len` bytes of UTF-8 at `data` to `out`.
pub(crate) unsafe extern "C" fn str_create(data: *const c_char, len: usize, out: *mut RawAny) -> i32 {
    guard("str_create", || {
        out_slot("str_create", out)?;
        let bytes: &[u8] = match (data.is_null(), len) {
            (true, 0) => &[],
            (true, _) => return Err(Error::value(format!("str_create: data is NULL but len is {len}"))),
            // SAFETY: `len` readable bytes at `data`, by the ABI's contract.
            (false, _) => unsafe { std::slice::from_raw_parts(data.cast::<u8>(), len) },
        };
        let text = std::str::from_utf8(bytes)
            .map_err(|e| Error::value(format!("str_create: data is not valid UTF-8 ({e})")))?;
        // SAFETY: checked non-NULL above.
        unsafe { write_value("str_create", out, AnyValue::from_text(text)) }
    })
}

/// Points `data`/`len` at the UTF-8 text of a string value; UCS4 strings are converted into `holder`.
pub(crate) unsafe extern "C" fn str_get(
    value: *const RawAny,
    holder: *mut RawAny,
    data: *mut *const c_char,
    len: *mut usize,
) -> i32 {
    guard("str_get", || {
        let (data, len) = (out_slot("str_get: data", data)?, out_slot("str_get: len", len)?);
        if let Some(h) = NonNull::new(holder) {
            // SAFETY: a writable slot by contract; it starts out empty.
            unsafe { h.write(RawAny::with_type(NONE)) };
        }
        // SAFETY: the ABI's contract on `value`; it is checked before use.
        let view = unsafe { borrow_value("str_get: value", value) }?;
        let (ptr, n) = match view.value() {
            // An inline string lives in the caller's own value head, not in our copy of it.
            // SAFETY: `value` is non-NULL (checked above) and its payload starts 8 bytes in.
            Value::Str(s) if view.type_index() == SMALL_STR => (unsafe { value.cast::<u8>().add(8) }, s.len()),
            Value::Str(s) => (s.as_ptr(), s.len()),
            Value::UStr(chars) => {
                let holder = out_slot("str_get: holder (needed for a UCS4 string)", holder)?;
                let text: String = chars.iter().collect();
                let n = text.len();
                // SAFETY: checked non-NULL; the converted string moves to the caller.
                unsafe { write_value("str_get", holder.as_ptr(), AnyValue::from_text(&text)) }?;
                // SAFETY: just written; the text is inline in the holder or in its heap object.
                let kept = unsafe { borrow_value("str_get: holder", holder.as_ptr()) }?;
                match kept.value() {
                    // SAFETY: as for the inline case above, inside the caller's holder.
                    Value::Str(_) if kept.type_index() == SMALL_STR => {
                        (unsafe { holder.as_ptr().cast::<u8>().add(8).cast_const() }, n)
                    }
                    Value::Str(s) => (s.as_ptr(), n),
                    _ => return Err(Error::runtime("str_get: converted string is not UTF-8")),
                }
            }
            _ => return Err(Error::type_mismatch("str", &view.type_name()).context("str_get: value")),
        };
        // SAFETY: both checked non-NULL and writable by contract.
        unsafe {
            data.write(ptr.cast());
            len.write(n);
        }
        Ok(())
    })
}
