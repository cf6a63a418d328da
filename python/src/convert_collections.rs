//! `collections.Counter`, `defaultdict` and `OrderedDict` across the boundary: anyproc holds them
//! as dicts of a [`DictKind`], Python as instances of the classes, so that a Counter a script
//! returns is a Counter in Python (its repr, `most_common`, arithmetic) and one passed in
//! counts missing keys as 0 in the script.

use crate::convert::{to_any, to_py};
use anyproc::container::DictKind;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// The kind of dict a Python dict is: `Counter`, `defaultdict` and `OrderedDict` (and their
/// subclasses) are kinds of their own, anything else a plain dict.
pub fn dict_kind_of(obj: &Bound<'_, PyAny>, depth: usize) -> PyResult<DictKind> {
    if obj.is_exact_instance_of::<PyDict>() {
        return Ok(DictKind::Plain);
    }
    let collections = obj.py().import("collections")?;
    if obj.is_instance(&collections.getattr("Counter")?)? {
        return Ok(DictKind::Counter);
    }
    if obj.is_instance(&collections.getattr("defaultdict")?)? {
        let factory = obj.getattr("default_factory")?;
        return Ok(DictKind::Default(to_any(&factory, depth + 1)?));
    }
    if obj.is_instance(&collections.getattr("OrderedDict")?)? {
        return Ok(DictKind::Ordered);
    }
    Ok(DictKind::Plain)
}

/// `plain`, the entries of a dict of `kind`, as the Python object of that kind.
pub fn with_kind<'py>(plain: Bound<'py, PyDict>, kind: &DictKind, depth: usize) -> PyResult<Bound<'py, PyAny>> {
    let py = plain.py();
    let collections = || py.import("collections");
    match kind {
        DictKind::Plain => Ok(plain.into_any()),
        DictKind::Counter => collections()?.getattr("Counter")?.call1((plain,)),
        DictKind::Default(factory) => {
            let factory = to_py(py, &factory.view(), depth + 1)?;
            collections()?.getattr("defaultdict")?.call1((factory, plain))
        }
        DictKind::Ordered => collections()?.getattr("OrderedDict")?.call1((plain,)),
    }
}
