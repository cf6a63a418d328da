//! `collections.deque` across the boundary: a Python deque becomes an anyproc deque (its items
//! and `maxlen` copied, as a list's items are), and one a script returns is a Python deque.

use crate::convert::{to_any, to_py};
use anyproc::AnyValue;
use anyproc::container::Deque;
use pyo3::prelude::*;
use pyo3::types::PyList;

/// `obj` as an anyproc deque when it is a `collections.deque` (or a subclass); `None` otherwise.
pub fn deque_to_any(obj: &Bound<'_, PyAny>, depth: usize) -> PyResult<Option<AnyValue>> {
    let class = obj.py().import("collections")?.getattr("deque")?;
    if !obj.is_instance(&class)? {
        return Ok(None);
    }
    let maxlen: Option<usize> = obj.getattr("maxlen")?.extract()?;
    let items = obj.try_iter()?.map(|item| to_any(&item?, depth + 1)).collect::<PyResult<Vec<_>>>()?;
    Ok(Some(Deque::new(items, maxlen).into_any()))
}

/// The anyproc deque `d` (items `items`, `maxlen`) as a Python `collections.deque`.
pub fn deque_to_py<'py>(
    py: Python<'py>,
    items: &[AnyValue],
    maxlen: Option<usize>,
    depth: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let list = PyList::empty(py);
    for item in items {
        list.append(to_py(py, &item.view(), depth + 1)?)?;
    }
    py.import("collections")?.getattr("deque")?.call1((list, maxlen))
}
