//! A Python `random.Random` handed to a function: copied in at the place it stands (its
//! `getstate()`), and its state written back with `setstate()` when the call returns, so that
//! Python's generator moves on exactly as far as the script drew from it.
//!
//! Rationale: other arguments are converted by copy, and a list a script changes is not changed
//! in Python. A generator copied that way would hand every call the same numbers, so that a
//! masking function called once per example would mask each alike, silently unlike CPython.

use anyproc::AnyValue;
use anyproc::ops::random::RandomObj;
use anyproc::ops::random::mt::N;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use std::cell::RefCell;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A Python generator and the copy a call draws from.
struct Lent {
    python: Py<PyAny>,
    copy: AnyValue,
}

thread_local! {
    /// The generators lent to the call running on this thread.
    static LENT: RefCell<Vec<Lent>> = const { RefCell::new(Vec::new()) };
}

/// How many generators are lent on any thread, read on every call: a load of a line no thread
/// writes unless generators are lent, where a thread-local costs a call into the loader in a
/// shared library.
static LENT_ANYWHERE: AtomicUsize = AtomicUsize::new(0);

/// `obj` as an anyproc generator at its state, when it is a `random.Random` (exactly: a
/// subclass may draw otherwise); `None` for anything else.
pub fn random_to_any(obj: &Bound<'_, PyAny>) -> PyResult<Option<AnyValue>> {
    let py = obj.py();
    let class = py.import("random")?.getattr("Random")?;
    if !obj.get_type().is(&class) {
        return Ok(None);
    }
    let state = obj.call_method0("getstate")?;
    let (version, internal, gauss_next): (i64, Bound<'_, PyTuple>, Option<f64>) = state.extract()?;
    let words: Vec<u32> = internal.extract()?;
    if version != 3 || words.len() != N + 1 {
        return Err(pyo3::exceptions::PyValueError::new_err("a random.Random state of an unknown version"));
    }
    let index = words[N] as usize;
    let words: &[u32; N] = words[..N].try_into().expect("N words");
    let copy = RandomObj::from_python_state(words, index, gauss_next)
        .ok_or_else(|| pyo3::exceptions::PyValueError::new_err("invalid random.Random state"))?;
    LENT.with(|l| l.borrow_mut().push(Lent { python: obj.clone().unbind(), copy: copy.clone() }));
    LENT_ANYWHERE.fetch_add(1, Ordering::Relaxed);
    Ok(Some(copy))
}

/// Writes the state of each generator lent to the call that just returned back to its Python
/// generator, then returns the call's result (its error first, if both failed).
#[inline(always)]
pub fn after_call<T>(py: Python<'_>, result: PyResult<T>) -> PyResult<T> {
    if LENT_ANYWHERE.load(Ordering::Relaxed) == 0 {
        return result;
    }
    let written = write_back(py);
    let value = result?;
    written.map(|()| value)
}

#[cold]
fn write_back(py: Python<'_>) -> PyResult<()> {
    let lent = LENT.with(|l| std::mem::take(&mut *l.borrow_mut()));
    LENT_ANYWHERE.fetch_sub(lent.len(), Ordering::Relaxed);
    for Lent { python, copy } in lent {
        let view = copy.view();
        let Some(generator) = anyproc::ops::random::random_of(view.value()) else { continue };
        let (words, gauss_next) = generator.python_state();
        let state = (3, PyTuple::new(py, words)?, gauss_next);
        python.bind(py).call_method1("setstate", (state,))?;
    }
    Ok(())
}
