//! Named tuples across the boundary: an instance of a `collections.namedtuple` class becomes an
//! anyproc named tuple of a class with the same name, fields and defaults, and one a script
//! returns is an instance of the Python class it came from, or of a class made once with
//! `collections.namedtuple` for a class the script made.

use crate::convert::{to_any, to_py};
use crate::errors::to_pyerr;
use anyproc::container::{NamedTupleClass, Tuple};
use anyproc::pipeline::named_tuple_ops::namedtuple;
use anyproc::{AnyValue, AnyView};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple, PyType};
use std::sync::{Arc, Mutex};

/// The anyproc class standing for Python's named-tuple class `ty`, made on first use, with `ty`
/// kept as the class its instances return as; `None` when `ty` is no named-tuple class.
pub fn class_for(ty: &Bound<'_, PyType>, depth: usize) -> PyResult<Option<Arc<NamedTupleClass>>> {
    // Python classes already met, each with its anyproc class (kept alive here, so that a
    // class's address is never another's).
    static SEEN: Mutex<Vec<(Py<PyType>, Arc<NamedTupleClass>)>> = Mutex::new(Vec::new());
    let seen = |ty: &Bound<'_, PyType>| {
        let table = SEEN.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        table.iter().find(|(t, _)| t.is(ty)).map(|(_, c)| c.clone())
    };
    if let Some(class) = seen(ty) {
        return Ok(Some(class));
    }
    // A class `collections.namedtuple` made, not a subclass of one (whose methods would be lost).
    let bases = ty.getattr("__bases__")?;
    let direct = bases
        .cast::<PyTuple>()
        .is_ok_and(|b| b.len() == 1 && b.get_item(0).is_ok_and(|t| t.is(ty.py().get_type::<PyTuple>())));
    let (Ok(fields), Ok(defaults)) = (ty.getattr("_fields"), ty.getattr("_field_defaults")) else {
        return Ok(None);
    };
    let (Ok(fields), Ok(defaults), true) = (fields.cast_into::<PyTuple>(), defaults.cast_into::<PyDict>(), direct)
    else {
        return Ok(None);
    };
    let names = fields.iter().map(|f| to_any(&f, depth + 1)).collect::<PyResult<Vec<_>>>()?;
    // The defaults of the last fields, in field order; none where one does not convert (a
    // script then passes every field).
    let mut values = Vec::new();
    for f in fields.iter() {
        if let Some(d) = defaults.get_item(&f)? {
            values.push(to_any(&d, depth + 1));
        }
    }
    let values: Vec<AnyValue> = values.into_iter().collect::<PyResult<_>>().unwrap_or_default();
    let name = AnyValue::from_text(&ty.name()?.to_string());
    let names = Tuple::from_vec(names).into_any();
    let defaults = Tuple::from_vec(values).into_any();
    // `rename=True` keeps a renamed class's `_1` fields as they are.
    let class =
        namedtuple(name.view(), names.value(), true, Some(defaults.value())).map_err(|e| to_pyerr(ty.py(), e))?;
    class.set_foreign(Arc::new(ty.clone().unbind()), true);
    SEEN.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push((ty.clone().unbind(), class.clone()));
    Ok(Some(class))
}

/// `t` as an anyproc named tuple when its type is a named-tuple class; `None` otherwise.
pub fn named_tuple_to_any(t: &Bound<'_, PyTuple>, depth: usize) -> PyResult<Option<AnyValue>> {
    let Some(class) = class_for(&t.get_type(), depth)? else { return Ok(None) };
    let items = t.iter().map(|item| to_any(&item, depth + 1)).collect::<PyResult<Vec<_>>>()?;
    if items.len() != class.fields.len() {
        return Ok(None);
    }
    Ok(Some(Tuple::named(class, items).into_any()))
}

/// The Python class of anyproc's `class`: the one it came from, or one made for it.
pub fn python_class<'py>(py: Python<'py>, class: &NamedTupleClass, depth: usize) -> PyResult<Bound<'py, PyType>> {
    if let Some(ty) = class.foreign().and_then(|f| f.downcast_ref::<Py<PyType>>().map(|t| t.clone_ref(py))) {
        return Ok(ty.into_bound(py));
    }
    let defaults = class.defaults.iter().map(|d| to_py(py, &d.view(), depth + 1)).collect::<PyResult<Vec<_>>>()?;
    let kwargs = PyDict::new(py);
    kwargs.set_item("defaults", defaults)?;
    kwargs.set_item("rename", true)?;
    let made = py.import("collections")?.getattr("namedtuple")?.call((&class.name, &class.fields), Some(&kwargs))?;
    let ty = made.cast_into::<PyType>()?;
    // Another thread, or the class's own Python class, may have been kept first: that one stays.
    let kept = class.set_foreign(Arc::new(ty.clone().unbind()), false);
    match kept.downcast_ref::<Py<PyType>>() {
        Some(kept) => Ok(kept.clone_ref(py).into_bound(py)),
        None => Ok(ty),
    }
}

/// The anyproc named tuple `v` (of `class`, holding `items`) as an instance of its Python class.
pub fn named_tuple_to_py<'py>(
    py: Python<'py>,
    class: &NamedTupleClass,
    items: &[AnyValue],
    depth: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let ty = python_class(py, class, depth)?;
    let values = items.iter().map(|x| to_py(py, &x.view(), depth + 1)).collect::<PyResult<Vec<_>>>()?;
    ty.call_method1("_make", (values,))
}

/// `anyproc._native.register_named_tuple(cls)`: makes the anyproc class of a Python named-tuple
/// class, so that instances a script makes of it return as `cls` (what `anyproc.script` does
/// for each such class a script reads); whether `cls` is one.
#[pyfunction]
pub fn register_named_tuple(cls: &Bound<'_, PyType>) -> PyResult<bool> {
    Ok(class_for(cls, 0)?.is_some())
}

/// The class of `v` when it is an anyproc named tuple.
pub fn class_of(v: &AnyView<'_>) -> Option<Arc<NamedTupleClass>> {
    anyproc::pipeline::named_tuple_ops::class_of(v.value()).cloned()
}
