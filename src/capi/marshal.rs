//! Checking what C hands us before the runtime trusts it.
//!
//! Rationale: a value head from C may carry any bits. Everything the decoder
//! relies on (UTF-8 validity, code points, lengths within the inline area, a
//! non-null object whose header agrees with the value's type index) is checked
//! here once, so a malformed value becomes an error naming the argument instead
//! of undefined behaviour deeper down. What cannot be checked (that a non-null
//! pointer points to live memory) stays the C caller's contract.

use crate::any::type_index::*;
use crate::any::{AnyValue, AnyView, RawAny};
use crate::error::{Error, Result};
use crate::object::{ObjPtr, Object};
use anyproc_abi::ObjectHeader;
use std::ptr::NonNull;

fn bad(what: &str, why: impl std::fmt::Display) -> Error {
    Error::value(format!("{what}: {why}"))
}

fn check_chars(what: &str, units: &[u32]) -> Result<()> {
    match units.iter().position(|&u| char::from_u32(u).is_none()) {
        Some(i) => Err(bad(what, format!("code point {:#x} at {i} is not a valid char", units[i]))),
        None => Ok(()),
    }
}

/// Checks a value head from C; returns it with a NULL empty-string pointer replaced by a dangling one.
///
/// # Safety
/// Borrowed pointers must point to `small_len` readable units and objects must be
/// live, as the ABI requires; everything else is checked.
unsafe fn checked(what: &str, raw: RawAny, owned: bool) -> Result<RawAny> {
    let len = raw.small_len as usize;
    // SAFETY: each arm reads the union field its type index says is there.
    unsafe {
        match raw.type_index {
            NONE | INT | BOOL | FLOAT | OPAQUE_PTR | DATA_TYPE | DEVICE => Ok(raw),
            SMALL_STR | SMALL_BYTES if len > 8 => Err(bad(what, format!("inline length {len} exceeds 8 bytes"))),
            SMALL_STR => match std::str::from_utf8(&raw.payload.v_bytes[..len]) {
                Ok(_) => Ok(raw),
                Err(e) => Err(bad(what, format!("inline string is not valid UTF-8 ({e})"))),
            },
            SMALL_BYTES => Ok(raw),
            SMALL_USTR if len > 2 => Err(bad(what, format!("inline length {len} exceeds 2 code points"))),
            SMALL_USTR => check_chars(what, &raw.payload.v_char32[..len]).map(|_| raw),
            RAW_STR | RAW_USTR | RAW_BYTES if owned => {
                Err(bad(what, "a borrowed string cannot be handed over as an owned value; build one with str_create"))
            }
            RAW_STR | RAW_USTR | RAW_BYTES => {
                let mut raw = raw;
                let ptr = raw.payload.v_ptr;
                if ptr.is_null() {
                    if len != 0 {
                        return Err(bad(what, format!("borrowed string of length {len} has a NULL pointer")));
                    }
                    raw.payload.v_ptr = NonNull::<u32>::dangling().as_ptr().cast();
                    return Ok(raw);
                }
                match raw.type_index {
                    RAW_STR => {
                        let bytes = std::slice::from_raw_parts(ptr.cast::<u8>(), len);
                        if let Err(e) = std::str::from_utf8(bytes) {
                            return Err(bad(what, format!("string is not valid UTF-8 ({e})")));
                        }
                    }
                    RAW_USTR => {
                        if !ptr.cast::<u32>().is_aligned() {
                            return Err(bad(what, "UCS4 string pointer is not 4-byte aligned"));
                        }
                        check_chars(what, std::slice::from_raw_parts(ptr.cast::<u32>(), len))?;
                    }
                    _ => {}
                }
                Ok(raw)
            }
            t if t >= OBJECT_BEGIN => {
                let header = object_header(what, raw.payload.v_ptr.cast())?;
                if header.type_index() != t {
                    return Err(bad(
                        what,
                        format!("value says type index {t} but its object's header says {}", header.type_index()),
                    ));
                }
                Ok(raw)
            }
            t => Err(bad(what, format!("unknown type index {t}"))),
        }
    }
}

/// Checks that `ptr` can be an object header: non-null, aligned, with an object type index.
///
/// # Safety
/// A non-null, aligned `ptr` must point to a live object (the ABI's contract).
unsafe fn object_header<'a>(what: &str, ptr: *mut Object) -> Result<&'a Object> {
    let Some(nn) = NonNull::new(ptr) else {
        return Err(bad(what, "object pointer is NULL"));
    };
    if !ptr.is_aligned() {
        return Err(bad(what, "object pointer is not 8-byte aligned"));
    }
    // SAFETY: non-null and aligned; liveness is the caller's contract.
    let header = unsafe { nn.as_ref() };
    if header.type_index() < OBJECT_BEGIN {
        return Err(bad(what, format!("object header has type index {}, not an object", header.type_index())));
    }
    Ok(header)
}

/// Views a value that C lends for the duration of a call.
///
/// # Safety
/// `raw` must be NULL or point to a value head whose pointers are valid for `'a`.
pub(crate) unsafe fn borrow_value<'a>(what: &str, raw: *const RawAny) -> Result<AnyView<'a>> {
    // SAFETY: NULL-checked; the rest is the caller's contract.
    let Some(raw) = (unsafe { raw.as_ref() }) else {
        return Err(bad(what, "value pointer is NULL"));
    };
    // SAFETY: as above.
    let raw = unsafe { checked(what, *raw, false) }?;
    // SAFETY: checked just now; validity for 'a is the caller's contract.
    Ok(unsafe { AnyView::from_raw_borrowed(raw) })
}

/// Views `count` values that C lends (the arguments of a call).
///
/// # Safety
/// `args` must be NULL (with `count` 0) or point to `count` value heads valid for `'a`.
pub(crate) unsafe fn borrow_args<'a>(entry: &str, args: *const RawAny, count: i32) -> Result<Vec<AnyView<'a>>> {
    let count = usize::try_from(count).map_err(|_| Error::value(format!("{entry}: num_args {count} is negative")))?;
    if count > 0 && args.is_null() {
        return Err(Error::value(format!("{entry}: args is NULL but num_args is {count}")));
    }
    // SAFETY: `count` heads are readable, by the caller's contract.
    (0..count).map(|i| unsafe { borrow_value(&format!("{entry}: argument {i}"), args.add(i)) }).collect()
}

/// Takes over a value that C owned (a callback's result).
///
/// # Safety
/// `raw`'s pointers must be valid and its object reference the caller's to hand over.
pub(crate) unsafe fn take_owned(what: &str, raw: RawAny) -> Result<AnyValue> {
    // SAFETY: the caller's contract.
    let raw = unsafe { checked(what, raw, true) }?;
    // SAFETY: checked to be a well-formed owned head; the reference moves to us.
    Ok(unsafe { AnyValue::from_raw_owned(raw) })
}

/// Borrows an object handle from C, checking it is an object of type `expected` (or any if `None`).
///
/// # Safety
/// A non-null, aligned `handle` must be a live object for `'a`.
pub(crate) unsafe fn borrow_handle<'a>(
    what: &str,
    handle: *mut ObjectHeader,
    expected: Option<i32>,
) -> Result<ObjPtr<'a>> {
    // SAFETY: the caller's contract; checked for NULL, alignment and an object index.
    let header = unsafe { object_header(what, handle.cast()) }?;
    if let Some(t) = expected
        && header.type_index() != t
    {
        return Err(Error::type_mismatch(&crate::object::type_name(t), &crate::object::type_name(header.type_index()))
            .context(what));
    }
    // SAFETY: a live object, checked above.
    Ok(unsafe { ObjPtr::new(NonNull::from(header)) })
}

/// Takes a new reference to a handle's object as `T`, checking it is an object of type index `index`.
pub(crate) fn handle_as<T: crate::any::FromAny>(what: &str, handle: *mut ObjectHeader, index: i32) -> Result<T> {
    // SAFETY: the ABI's contract on handles; checked for NULL, alignment and type.
    let obj = unsafe { borrow_handle(what, handle, Some(index)) }?;
    crate::any::unbox(&AnyView::from_obj(&obj.to_owned()))
}

/// Writes an owned value to a C out-slot.
///
/// # Safety
/// `out` must be NULL or writable.
pub(crate) unsafe fn write_value(what: &str, out: *mut RawAny, value: AnyValue) -> Result<()> {
    if out.is_null() {
        return Err(bad(what, "out pointer is NULL"));
    }
    // SAFETY: non-null and writable by the caller's contract; the reference moves to C.
    unsafe { out.write(value.into_raw()) };
    Ok(())
}

/// Writes an owned object value's handle to a checked out-slot; the reference moves to C.
pub(crate) fn write_handle(out: NonNull<*mut ObjectHeader>, value: AnyValue) {
    debug_assert!(value.is_object());
    let raw = value.into_raw();
    // SAFETY: a checked out-slot; object values keep their object in `v_ptr`.
    unsafe { out.write(raw.payload.v_ptr.cast()) }
}

/// Checks an out-slot is non-NULL before any work is done.
pub(crate) fn out_slot<T>(what: &str, out: *mut T) -> Result<NonNull<T>> {
    NonNull::new(out).ok_or_else(|| bad(what, "out pointer is NULL"))
}
