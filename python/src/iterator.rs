//! Python iterables handed to anyproc: an iterator (a generator, a file, `map(...)`) becomes a
//! generator that takes its items one at a time as the script asks for them; any other
//! iterable (`range`, `d.keys()`) becomes the list of its items (a `deque` a deque:
//! `convert_deque.rs`), and a mapping that is not a dict the dict of its items.
//!
//! Rationale: a script given `open(path)` or `(line.strip() for line in f)` must see what
//! Python would. Taking all the items first would read a whole file to find its first long
//! line, run a generator's body past where the loop stopped, and never end on `itertools.count()`.

use crate::errors::carry;
use anyproc::AnyValue;
use anyproc::pipeline::generator::{ForeignItems, Generator};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyIterator, PyList};

/// A Python iterator, asked for its next item under the GIL whenever the script wants one.
struct PythonItems {
    iterator: Py<PyIterator>,
}

impl ForeignItems for PythonItems {
    fn next_item(&self) -> anyproc::Result<Option<AnyValue>> {
        Python::attach(|py| {
            let mut iterator = self.iterator.bind(py).clone();
            match iterator.next() {
                None => Ok(None),
                Some(item) => item.and_then(|x| crate::convert::py_to_any(&x)).map(Some).map_err(|e| carry(py, e)),
            }
        })
    }

    fn repr(&self) -> String {
        Python::attach(|py| match self.iterator.bind(py).repr() {
            Ok(r) => r.to_string_lossy().into_owned(),
            Err(_) => "<iterator>".to_string(),
        })
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// `obj` as an anyproc value if it is iterable (see the module's doc), `None` if it is not.
pub fn iterable_to_any(obj: &Bound<'_, PyAny>, depth: usize) -> PyResult<Option<AnyValue>> {
    if let Ok(iterator) = obj.cast::<PyIterator>() {
        return Ok(Some(iterator_to_generator(iterator)?.into_any()));
    }
    if is_mapping(obj)? {
        let items = PyDict::new(obj.py());
        items.update(obj.cast()?)?;
        return crate::convert::to_any(items.as_any(), depth).map(Some);
    }
    let Ok(items) = obj.try_iter() else {
        return Ok(None);
    };
    // Through a Python list: the items are taken once, and converted as a list's are.
    let list = PyList::empty(obj.py());
    for item in items {
        list.append(item?)?;
    }
    crate::convert::to_any(list.as_any(), depth).map(Some)
}

/// A generator over a Python iterator's items, named as Python names the iterator.
fn iterator_to_generator(iterator: &Bound<'_, PyIterator>) -> PyResult<Generator> {
    let type_name = iterator.get_type().name()?.to_string();
    // A Python generator's repr and anyproc's both show its function's name.
    let name = match iterator.getattr("__name__") {
        Ok(n) => n.str()?.to_string(),
        Err(_) => type_name.clone(),
    };
    let items = PythonItems { iterator: iterator.clone().unbind() };
    Ok(Generator::foreign(Box::new(items), type_name, name))
}

/// The Python iterator a generator takes its items from, if it was made from one.
pub fn python_iterator<'py>(py: Python<'py>, generator: &Generator) -> Option<Bound<'py, PyAny>> {
    let items = generator.foreign_items()?.as_any().downcast_ref::<PythonItems>()?;
    Some(items.iterator.bind(py).clone().into_any())
}

/// Whether `obj` is a `collections.abc.Mapping` (a dict and its subclasses are converted before).
fn is_mapping(obj: &Bound<'_, PyAny>) -> PyResult<bool> {
    static MAPPING: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let py = obj.py();
    let mapping =
        MAPPING.get_or_try_init(py, || Ok::<_, PyErr>(py.import("collections.abc")?.getattr("Mapping")?.unbind()))?;
    obj.is_instance(mapping.bind(py))
}
