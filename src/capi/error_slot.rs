//! The safe-call convention: 0 or -1, with the error kept in a thread-local slot.
//!
//! Rationale: an error cannot unwind across a C frame, and a C caller has no
//! place to receive a Rust `Error`; so every entry point catches everything
//! (errors and panics alike), parks the error in this thread's slot and returns
//! -1. `error_last` reads the slot; a C callback reports its own failure by
//! filling the slot with `error_set` before returning -1.

use crate::error::{Error, ErrorKind, Result, panic_message};
use std::cell::RefCell;
use std::ffi::{CStr, CString, c_char};
use std::panic::{AssertUnwindSafe, catch_unwind};

thread_local! {
    /// The last error on this thread, and its message as C reads it.
    static LAST_ERROR: RefCell<Option<(Error, CString)>> = const { RefCell::new(None) };
}

/// Parks `error` in this thread's slot.
pub(crate) fn set_last_error(error: Error) {
    let text = CString::new(error.to_string().replace('\0', "\\0")).unwrap_or_default();
    LAST_ERROR.with(|slot| *slot.borrow_mut() = Some((error, text)));
}

/// Takes the error out of this thread's slot, leaving it empty.
pub(crate) fn take_last_error() -> Option<Error> {
    LAST_ERROR.with(|slot| slot.borrow_mut().take().map(|(e, _)| e))
}

/// Empties this thread's slot.
pub(crate) fn clear_last_error() {
    LAST_ERROR.with(|slot| *slot.borrow_mut() = None);
}

/// Runs an entry point's body: `Ok` gives 0, an error or a panic gives -1 with the slot filled.
pub(crate) fn guard(entry: &str, body: impl FnOnce() -> Result<()>) -> i32 {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => 0,
        Ok(Err(e)) => {
            set_last_error(e);
            -1
        }
        Err(payload) => {
            set_last_error(Error::runtime(format!("{entry}: internal panic: {}", panic_message(&*payload))));
            -1
        }
    }
}

/// Reads a NUL-terminated argument as UTF-8, naming the argument when it is NULL or not UTF-8.
///
/// # Safety
/// `ptr` must be NULL or point to a NUL-terminated string alive for `'a`.
pub(crate) unsafe fn c_str_arg<'a>(entry: &str, arg: &str, ptr: *const c_char) -> Result<&'a str> {
    if ptr.is_null() {
        return Err(Error::value(format!("{entry}: argument '{arg}' is NULL")));
    }
    // SAFETY: non-null and NUL-terminated by the caller's contract.
    unsafe { CStr::from_ptr(ptr) }
        .to_str()
        .map_err(|e| Error::value(format!("{entry}: argument '{arg}' is not valid UTF-8 ({e})")))
}

/// The message of this thread's last error, or NULL; valid until the next failing call on this thread.
pub(crate) unsafe extern "C" fn error_last() -> *const c_char {
    LAST_ERROR.with(|slot| slot.borrow().as_ref().map_or(std::ptr::null(), |(_, text)| text.as_ptr()))
}

/// Fills this thread's slot from C; `kind` names an `ErrorKind` (`ValueError`, ...) or is NULL.
pub(crate) unsafe extern "C" fn error_set(kind: *const c_char, message: *const c_char) {
    let _ = catch_unwind(|| {
        let read = |p: *const c_char| {
            // SAFETY: NULL or a NUL-terminated string, by the ABI's contract.
            (!p.is_null()).then(|| unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
        };
        let kind = read(kind).and_then(|k| ErrorKind::from_name(&k)).unwrap_or(ErrorKind::Runtime);
        let message = read(message).unwrap_or_else(|| "(no message)".into());
        set_last_error(Error::new(kind, message));
    });
}
