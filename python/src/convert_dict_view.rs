//! Dict views across the boundary: a view a script returns is the same view of the converted
//! dict in Python (`dict_keys`, `odict_items`, ...), and a Python view passed in is a view of
//! its dict's copy.

use crate::convert::{to_any, to_py};
use anyproc::container::{DictView, DictViewObj, dict_view_obj};
use anyproc::{AnyValue, AnyView, Dict, FromAny};
use pyo3::prelude::*;

/// Python's names of a dict view's types, and the view each is.
const VIEW_TYPES: [(&str, DictView); 6] = [
    ("dict_keys", DictView::Keys),
    ("dict_values", DictView::Values),
    ("dict_items", DictView::Items),
    ("odict_keys", DictView::Keys),
    ("odict_values", DictView::Values),
    ("odict_items", DictView::Items),
];

/// `obj` as an anyproc view of a copy of its dict when it is a Python dict view that names
/// its dict (`mapping`, Python 3.10+); `None` otherwise (then it converts as an iterable).
pub fn dict_view_to_any(obj: &Bound<'_, PyAny>, depth: usize) -> PyResult<Option<AnyValue>> {
    let type_name = obj.get_type().name()?.to_string();
    let Some(&(_, view)) = VIEW_TYPES.iter().find(|(name, _)| type_name == *name) else {
        return Ok(None);
    };
    let Ok(mapping) = obj.getattr("mapping") else { return Ok(None) };
    let copied = to_any(&mapping.call_method0("copy")?, depth + 1)?;
    Ok(Dict::from_value(copied.value()).map(|dict| DictViewObj::new_value(dict, view)))
}

/// The anyproc dict view in `v`, if it is one, as the same view of its dict converted.
pub fn dict_view_to_py<'py>(py: Python<'py>, v: &AnyView<'_>, depth: usize) -> PyResult<Option<Bound<'py, PyAny>>> {
    let Some(shown) = v.value().as_obj().and_then(dict_view_obj) else { return Ok(None) };
    let dict = to_py(py, &shown.dict().into(), depth + 1)?;
    let method = match shown.view() {
        DictView::Keys => "keys",
        DictView::Values => "values",
        DictView::Items => "items",
    };
    dict.call_method0(method).map(Some)
}
