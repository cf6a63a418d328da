//! Errors across the boundary: anyproc errors to Python exceptions, and Python exceptions
//! carried through Rust (possibly across threads) so that the original object is re-raised.

use anyproc::{Error, ErrorKind};
use pyo3::exceptions::{
    PyIndexError, PyKeyError, PyMemoryError, PyOSError, PyRuntimeError, PySyntaxError, PyTypeError, PyValueError,
};
use pyo3::prelude::*;
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// Python exceptions raised inside callbacks, waiting to be re-raised, keyed by the id in their message.
///
/// Rationale: an anyproc `Error` is plain data (it may be cloned, moved to another thread,
/// wrapped in context or dropped inside Rust), so it carries only an id; the exception object
/// waits here. The map is bounded: the oldest entries go first, so errors that never come
/// back to Python (skipped records, errors handled in Rust) cannot grow it without limit.
static STASH: Mutex<BTreeMap<u64, PyErr>> = Mutex::new(BTreeMap::new());
static NEXT_ID: AtomicU64 = AtomicU64::new(1);
/// At most this many exceptions wait in the stash.
const STASH_LIMIT: usize = 256;
const MARKER: &str = "[python exception #";

/// An anyproc error that stands for the Python exception `err`, which waits in the stash.
pub fn stash(py: Python<'_>, err: PyErr) -> Error {
    let kind = kind_of(py, &err);
    let text = describe(py, &err);
    let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
    let mut evicted = Vec::new();
    {
        let mut map = STASH.lock().unwrap_or_else(|p| p.into_inner());
        while map.len() >= STASH_LIMIT {
            evicted.extend(map.pop_first().map(|(_, e)| e));
        }
        map.insert(id, err);
    }
    // Dropped after the lock is released: dropping an exception may run Python code (`__del__`).
    drop(evicted);
    Error::new(kind, format!("{MARKER}{id}] {text}"))
}

/// The stash id embedded in `message`, if any.
fn marker_id(message: &str) -> Option<u64> {
    let rest = &message[message.find(MARKER)? + MARKER.len()..];
    rest[..rest.find(']')?].parse().ok()
}

/// Takes the stashed exception an error stands for, if it is still there.
fn take_stashed(e: &Error) -> Option<PyErr> {
    let id = marker_id(&e.to_string())?;
    STASH.lock().unwrap_or_else(|p| p.into_inner()).remove(&id)
}

/// The error's text without the stash marker, and its stashed exception (if any) discarded.
///
/// For errors reported as text (skipped records) rather than raised.
pub fn error_text(e: &Error) -> String {
    let text = e.to_string();
    match marker_id(&text) {
        Some(id) => {
            let stashed = STASH.lock().unwrap_or_else(|p| p.into_inner()).remove(&id);
            drop(stashed);
            text.replace(&format!("{MARKER}{id}] "), "")
        }
        None => text,
    }
}

/// How many Python exceptions wait in the stash (for leak tests).
#[pyfunction]
pub fn _pending_exceptions() -> usize {
    STASH.lock().unwrap_or_else(|p| p.into_inner()).len()
}

/// `TypeName: message` of a Python exception, for anyproc error messages.
fn describe(py: Python<'_>, err: &PyErr) -> String {
    let ty = err.get_type(py).name().map(|n| n.to_string()).unwrap_or_else(|_| "Exception".into());
    match err.value(py).str() {
        Ok(s) if !s.to_string_lossy().is_empty() => format!("{ty}: {}", s.to_string_lossy()),
        _ => ty,
    }
}

/// The anyproc kind closest to a Python exception's class.
fn kind_of(py: Python<'_>, err: &PyErr) -> ErrorKind {
    if err.is_instance_of::<PyTypeError>(py) {
        ErrorKind::Type
    } else if err.is_instance_of::<PyKeyError>(py) {
        ErrorKind::Key
    } else if err.is_instance_of::<PyIndexError>(py) {
        ErrorKind::Index
    } else if err.is_instance_of::<PySyntaxError>(py) {
        ErrorKind::Parse
    } else if err.is_instance_of::<PyValueError>(py) {
        ErrorKind::Value
    } else if err.is_instance_of::<PyOSError>(py) {
        ErrorKind::Io
    } else if err.is_instance_of::<PyMemoryError>(py) {
        ErrorKind::Memory
    } else {
        ErrorKind::Runtime
    }
}

/// The Python exception for an anyproc error: the original exception if the error stands for
/// one raised in a callback (with the anyproc context added as a note), else one mapped from its kind.
pub fn to_pyerr(py: Python<'_>, e: Error) -> PyErr {
    let msg = e.to_string();
    if let Some(original) = take_stashed(&e) {
        // What anyproc added around the exception (pipeline, record, step), as a note;
        // `add_note` exists from Python 3.11, older versions go without.
        let context = msg[..msg.find(MARKER).unwrap_or(0)].trim_end_matches([':', ' ']);
        if !context.is_empty() {
            let _ = original.value(py).call_method1("add_note", (format!("raised inside anyproc: {context}"),));
        }
        return original;
    }
    match e.kind() {
        ErrorKind::Type | ErrorKind::Arity => PyTypeError::new_err(msg),
        ErrorKind::Value | ErrorKind::Duplicate => PyValueError::new_err(msg),
        ErrorKind::Index => PyIndexError::new_err(msg),
        ErrorKind::Key => PyKeyError::new_err(msg),
        ErrorKind::Io => PyOSError::new_err(msg),
        ErrorKind::Parse => PySyntaxError::new_err(msg),
        ErrorKind::Runtime => PyRuntimeError::new_err(msg),
        ErrorKind::Memory => PyMemoryError::new_err(msg),
    }
}

/// Converts an anyproc result into a Python one.
pub trait IntoPyResult<T> {
    /// The value, or the error as a Python exception.
    fn py_err(self, py: Python<'_>) -> PyResult<T>;
}

impl<T> IntoPyResult<T> for anyproc::Result<T> {
    fn py_err(self, py: Python<'_>) -> PyResult<T> {
        self.map_err(|e| to_pyerr(py, e))
    }
}

#[cfg(test)]
mod tests {
    use super::marker_id;

    #[test]
    fn marker_is_found_anywhere_in_the_message() {
        assert_eq!(marker_id("[python exception #17] ValueError: x"), Some(17));
        assert_eq!(marker_id("step 'a': [python exception #3] boom"), Some(3));
        assert_eq!(marker_id("no marker"), None);
        assert_eq!(marker_id("[python exception #x]"), None);
    }
}
