//! Errors across the boundary: anyproc errors to Python exceptions, and Python exceptions
//! carried through Rust (possibly across threads) so that the original object is re-raised.

use crate::convert::to_py;
use anyproc::pipeline::exception_value::Exception;
use anyproc::{Error, ErrorKind};
use pyo3::exceptions::{
    PyAssertionError, PyAttributeError, PyIndexError, PyKeyError, PyLookupError, PyMemoryError, PyNameError,
    PyNotImplementedError, PyOSError, PyOverflowError, PyRecursionError, PyRuntimeError, PyStopIteration,
    PySyntaxError, PyTypeError, PyUnboundLocalError, PyUnicodeDecodeError, PyUnicodeEncodeError, PyUnicodeError,
    PyValueError, PyZeroDivisionError,
};
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A Python exception raised inside a callback, carried as the payload of the anyproc error
/// that stands for it, so that the original object is re-raised when the error reaches Python.
///
/// Rationale: the error may be cloned, moved to another thread, wrapped in context or dropped
/// inside Rust (a record skipped, or failing beside the one that is reported); the exception
/// (and its traceback, with the frames it keeps alive) lives exactly as long as the error does.
struct CarriedException(PyErr);

/// Exceptions carried by live errors (for leak tests).
static CARRIED: AtomicUsize = AtomicUsize::new(0);

impl CarriedException {
    fn new(err: PyErr) -> Self {
        CARRIED.fetch_add(1, Ordering::Relaxed);
        CarriedException(err)
    }
}

impl Drop for CarriedException {
    fn drop(&mut self) {
        // Without the GIL (a worker thread), PyO3 defers the exception's decref to the next
        // time the interpreter is attached; no Python code runs here.
        CARRIED.fetch_sub(1, Ordering::Relaxed);
    }
}

/// An anyproc error that stands for the Python exception `err`, which it carries.
///
/// A script's `except` clauses catch it as CPython's would when its class is one anyscript can
/// name (or a subclass of one: `UnicodeDecodeError` is a `ValueError`), and `as e` binds
/// `str(e)`; any other class (`KeyboardInterrupt`, the program's own exceptions) passes
/// through every clause, so that Ctrl-C always stops a run.
pub fn carry(py: Python<'_>, err: PyErr) -> Error {
    let kind = kind_of(py, &err);
    let text = describe(py, &err);
    let error = Error::new(kind.unwrap_or(ErrorKind::Runtime), text);
    let error = match kind {
        Some(_) => {
            error.catchable_as(err.value(py).str().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default())
        }
        None => error,
    };
    error.with_payload(Arc::new(CarriedException::new(err)))
}

/// The error's payload exception, if it stands for one.
fn carried(py: Python<'_>, e: &Error) -> Option<PyErr> {
    let carried = e.payload()?.downcast_ref::<CarriedException>()?;
    Some(carried.0.clone_ref(py))
}

/// The error's text, for errors reported as text (skipped records) rather than raised.
pub fn error_text(e: &Error) -> String {
    e.to_string()
}

/// How many Python exceptions are carried by errors still alive somewhere (for leak tests).
#[pyfunction]
pub fn _pending_exceptions() -> usize {
    CARRIED.load(Ordering::Relaxed)
}

/// The exception classes scripts may name, raise and catch (`exception_value::class_names`),
/// so that `anyproc.script` checks a function against the compiler's own lists.
#[pyfunction]
pub fn _exception_classes() -> [Vec<&'static str>; 3] {
    anyproc::pipeline::exception_value::class_names()
}

/// `TypeName: message` of a Python exception, for anyproc error messages.
fn describe(py: Python<'_>, err: &PyErr) -> String {
    let ty = err.get_type(py).name().map(|n| n.to_string()).unwrap_or_else(|_| "Exception".into());
    match err.value(py).str() {
        Ok(s) if !s.to_string_lossy().is_empty() => format!("{ty}: {}", s.to_string_lossy()),
        _ => ty,
    }
}

/// The anyproc kind of a Python exception's class: the kind of the class anyscript names
/// that it is (or derives from), `None` for any other class.
fn kind_of(py: Python<'_>, err: &PyErr) -> Option<ErrorKind> {
    let is = |ty: Bound<'_, pyo3::types::PyType>| err.get_type(py).is_subclass(&ty).unwrap_or(false);
    let regex_error = py.import("re").and_then(|re| re.getattr("error")).ok();
    if regex_error.and_then(|e| e.cast_into::<pyo3::types::PyType>().ok()).is_some_and(is) {
        return Some(ErrorKind::Regex);
    }
    // Subclasses before their bases: UnboundLocalError is a NameError.
    [
        (py.get_type::<PyTypeError>(), ErrorKind::Type),
        (py.get_type::<PyKeyError>(), ErrorKind::Key),
        (py.get_type::<PyIndexError>(), ErrorKind::Index),
        (py.get_type::<PySyntaxError>(), ErrorKind::Parse),
        (py.get_type::<PyUnicodeEncodeError>(), ErrorKind::UnicodeEncode),
        (py.get_type::<PyUnicodeDecodeError>(), ErrorKind::UnicodeDecode),
        (py.get_type::<PyValueError>(), ErrorKind::Value),
        (py.get_type::<PyOSError>(), ErrorKind::Io),
        (py.get_type::<PyMemoryError>(), ErrorKind::Memory),
        (py.get_type::<PyZeroDivisionError>(), ErrorKind::ZeroDivision),
        (py.get_type::<PyOverflowError>(), ErrorKind::Overflow),
        (py.get_type::<PyUnboundLocalError>(), ErrorKind::UnboundLocal),
        (py.get_type::<PyNameError>(), ErrorKind::Name),
        (py.get_type::<PyAssertionError>(), ErrorKind::Assertion),
        (py.get_type::<PyStopIteration>(), ErrorKind::StopIteration),
        (py.get_type::<PyNotImplementedError>(), ErrorKind::NotImplemented),
        (py.get_type::<PyRecursionError>(), ErrorKind::Recursion),
        (py.get_type::<PyRuntimeError>(), ErrorKind::Runtime),
        (py.get_type::<PyAttributeError>(), ErrorKind::Attribute),
        (py.get_type::<PyLookupError>(), ErrorKind::Lookup),
    ]
    .into_iter()
    .find_map(|(ty, kind)| is(ty).then_some(kind))
}

/// The Python exception for an anyproc error: the original exception if the error stands for
/// one raised in a callback (with the anyproc context added as a note), else one mapped from its kind.
pub fn to_pyerr(py: Python<'_>, e: Error) -> PyErr {
    let msg = e.to_string();
    if let Some(original) = carried(py, &e) {
        // What anyproc added around the exception (pipeline, record, step), as a note.
        add_context_note(original.value(py).as_any(), &e);
        return original;
    }
    match e.kind() {
        ErrorKind::Type | ErrorKind::Arity => PyTypeError::new_err(msg),
        ErrorKind::Value | ErrorKind::Duplicate => PyValueError::new_err(msg),
        ErrorKind::Index => PyIndexError::new_err(msg),
        ErrorKind::Key => key_error(py, &e, msg),
        ErrorKind::Io => PyOSError::new_err(msg),
        ErrorKind::Parse => PySyntaxError::new_err(msg),
        ErrorKind::Runtime => PyRuntimeError::new_err(msg),
        ErrorKind::Memory => PyMemoryError::new_err(msg),
        ErrorKind::ZeroDivision => PyZeroDivisionError::new_err(msg),
        ErrorKind::Overflow => PyOverflowError::new_err(msg),
        ErrorKind::Name => PyNameError::new_err(msg),
        ErrorKind::UnboundLocal => PyUnboundLocalError::new_err(msg),
        ErrorKind::Assertion => PyAssertionError::new_err(msg),
        ErrorKind::StopIteration => PyStopIteration::new_err(msg),
        ErrorKind::JsonDecode => json_decode_error(py, e.message(), msg),
        ErrorKind::Attribute => PyAttributeError::new_err(msg),
        ErrorKind::Lookup => PyLookupError::new_err(msg),
        ErrorKind::NotImplemented => PyNotImplementedError::new_err(msg),
        ErrorKind::Recursion => PyRecursionError::new_err(msg),
        ErrorKind::UnicodeEncode | ErrorKind::UnicodeDecode => unicode_error(py, &e, msg),
        ErrorKind::Regex => regex_error(py, &e, msg),
    }
}

/// A `re.error` whose `str()` is `text` (the message with anyproc's context) and whose `msg`,
/// `pattern`, `pos`, `lineno` and `colno` are those the script's exception holds; one made of
/// the text alone when the error holds no such exception (one a plugin set by name).
fn regex_error(py: Python<'_>, e: &Error, text: String) -> PyErr {
    let build = || -> PyResult<PyErr> {
        let class = py.import("re")?.getattr("error")?;
        let Some(exception) = Exception::carried_by(e) else {
            return Ok(PyErr::from_value(class.call1((&text,))?));
        };
        let error = with_text(&class, py.get_type::<pyo3::exceptions::PyException>(), &text)?;
        for name in ["msg", "pattern", "pos", "lineno", "colno"] {
            let value = match exception.attribute(name) {
                Some(v) => to_py(py, &v.view(), 0)?,
                None => py.None().into_bound(py),
            };
            error.setattr(name, value)?;
        }
        Ok(PyErr::from_value(error))
    };
    build().unwrap_or_else(|err| err)
}

/// A `KeyError` made of the arguments the script's exception holds (the key a lookup missed,
/// or what `raise KeyError(k)` gave), so that `e.args[0]` is the key and `str(e)` its repr as in
/// CPython, with what anyproc added around it (function, line, record) as a note; one of the
/// text when the error holds no such exception.
fn key_error(py: Python<'_>, e: &Error, text: String) -> PyErr {
    let build = || -> PyResult<PyErr> {
        let Some(given) = Exception::carried_by(e).and_then(Exception::given_args) else {
            return Ok(PyKeyError::new_err(text.clone()));
        };
        let args = given.iter().map(|a| to_py(py, &a.view(), 0)).collect::<PyResult<Vec<_>>>()?;
        let error = py.get_type::<PyKeyError>().call1(PyTuple::new(py, args)?)?;
        add_context_note(&error, e);
        Ok(PyErr::from_value(error))
    };
    build().unwrap_or_else(|err| err)
}

/// Adds what anyproc added around `e` (function, line, record) to `error` as a note;
/// `add_note` exists from Python 3.11, older versions go without.
fn add_context_note(error: &Bound<'_, PyAny>, e: &Error) {
    let context = e.frames().collect::<Vec<_>>().join(": ");
    if !context.is_empty() {
        let _ = error.call_method1("add_note", (format!("raised inside anyproc: {context}"),));
    }
}

/// A codec's error as CPython's `UnicodeEncodeError` or `UnicodeDecodeError`, made of the five
/// arguments the script's exception holds (its `str()` is then CPython's message), with what
/// anyproc added around it (function, line, record) as a note; a `UnicodeError` of the text
/// when the error holds no such exception (one a plugin set by name).
fn unicode_error(py: Python<'_>, e: &Error, text: String) -> PyErr {
    let build = || -> PyResult<PyErr> {
        let Some(exception) = Exception::carried_by(e) else {
            return Ok(PyUnicodeError::new_err(text.clone()));
        };
        let args = exception.args().iter().map(|a| to_py(py, &a.view(), 0)).collect::<PyResult<Vec<_>>>()?;
        let class = match e.kind() {
            ErrorKind::UnicodeEncode => py.get_type::<PyUnicodeEncodeError>(),
            _ => py.get_type::<PyUnicodeDecodeError>(),
        };
        let error = class.call1(PyTuple::new(py, args)?)?;
        add_context_note(&error, e);
        Ok(PyErr::from_value(error))
    };
    build().unwrap_or_else(|err| err)
}

/// A `json.JSONDecodeError` whose `str()` is `text` (the message with anyproc's context) and
/// whose `msg`, `lineno`, `colno` and `pos` are read from the scanner's `message` (`Expecting
/// value: line 1 column 5 (char 4)`); its `doc` is None, as the document stays in the script.
fn json_decode_error(py: Python<'_>, message: &str, text: String) -> PyErr {
    let build = || -> PyResult<PyErr> {
        let class = py.import("json")?.getattr("JSONDecodeError")?;
        let error = with_text(&class, py.get_type::<PyValueError>(), &text)?;
        let Some((msg, lineno, colno, pos)) = anyproc::ops::json::decode_error_parts(message) else {
            return Ok(PyErr::from_value(error));
        };
        for (name, value) in [("lineno", lineno), ("colno", colno), ("pos", pos)] {
            error.setattr(name, value)?;
        }
        error.setattr("msg", msg)?;
        error.setattr("doc", py.None())?;
        Ok(PyErr::from_value(error))
    };
    build().unwrap_or_else(|_| PyValueError::new_err(text))
}

/// An instance of exception class `class`, whose own constructor takes more than a message,
/// with `str()` `text`: made by its `__new__` and given the text by `base`'s `__init__`, so that
/// its fields can then be set one by one.
fn with_text<'py>(
    class: &Bound<'py, PyAny>,
    base: Bound<'py, pyo3::types::PyType>,
    text: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let error = class.call_method1("__new__", (class,))?;
    base.call_method1("__init__", (&error, text))?;
    Ok(error)
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
