//! Python objects to anyproc values and back.
//!
//! Python to anyproc dispatches on the exact type first: a failed `extract` builds a Python
//! exception, which costs more than the whole conversion (DESIGN.md, "Python boundary").

use crate::callback::callable_to_func;
use crate::errors::to_pyerr;
use crate::function_type::{function_state, new_function};
use crate::gc_pause::{GcPause, PAUSE_FROM_ITEMS};
use crate::generator::PyGenerator;
use crate::ndarray::{PyNDArray, import_dlpack};
use crate::object::Opaque;
use anyproc::container::DictKind;
use anyproc::pipeline::builtins::Builtin;
use anyproc::pipeline::exception_value::{Exception, exception_class_name, exception_of};
use anyproc::pipeline::type_checks::TYPE_BUILTINS;
use anyproc::{AnyValue, AnyView, Dict, FromAny, List, NDArray, PackedFunc, Set, Tuple, Value};
use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::type_object::PyTypeInfo;
use pyo3::types::{
    PyBool, PyByteArray, PyBytes, PyDict, PyFloat, PyFrozenSet, PyInt, PyList, PySet, PyString, PyTuple,
};

/// Containers nested deeper than this are refused (a list that contains itself would never end).
const MAX_NESTING: usize = 512;

fn too_deep() -> PyErr {
    PyValueError::new_err(format!("containers nested deeper than {MAX_NESTING} levels (a list that contains itself?)"))
}

/// Converts a Python object to an anyproc value.
pub fn py_to_any(obj: &Bound<'_, PyAny>) -> PyResult<AnyValue> {
    to_any(obj, 0)
}

/// The UTF-8 text of a Python str, borrowed from the str itself where the platform allows.
#[cfg(unix)]
fn text_of<'a>(s: &'a Bound<'_, PyString>) -> PyResult<std::borrow::Cow<'a, str>> {
    // Not in the limited API before 3.10, but exported by every CPython 3 on Unix, where
    // extension modules resolve symbols in the running interpreter. It avoids the
    // temporary bytes object that `to_cow` makes under abi3-py39.
    unsafe extern "C" {
        fn PyUnicode_AsUTF8AndSize(unicode: *mut pyo3::ffi::PyObject, size: *mut pyo3::ffi::Py_ssize_t) -> *const u8;
    }
    let mut len: pyo3::ffi::Py_ssize_t = 0;
    // SAFETY: `s` is a live str; the call returns null with an exception set, or a pointer to
    // `len` bytes of UTF-8 cached in the str object, valid as long as the str (borrowed for 'a).
    unsafe {
        let p = PyUnicode_AsUTF8AndSize(s.as_ptr(), &mut len);
        if p.is_null() {
            return Err(PyErr::fetch(s.py()));
        }
        Ok(std::borrow::Cow::Borrowed(std::str::from_utf8_unchecked(std::slice::from_raw_parts(p, len as usize))))
    }
}

#[cfg(not(unix))]
fn text_of<'a>(s: &'a Bound<'_, PyString>) -> PyResult<std::borrow::Cow<'a, str>> {
    s.to_cow()
}

/// `obj` as exactly `T`, checked without building a cast error (which costs an allocation).
fn exact<'a, 'py, T: PyTypeInfo>(obj: &'a Bound<'py, PyAny>) -> Option<&'a Bound<'py, T>> {
    if obj.is_exact_instance_of::<T>() { obj.cast_exact::<T>().ok() } else { None }
}

/// `obj` as a value if it is `None`, an exact int that fits in 64 bits or an exact float; `None`
/// for anything else (an int that does not fit included: [`py_to_any`] raises its error).
///
/// Rationale: always inlined, so that a call from Python converts the arguments of most small
/// calls without a call of its own; the general conversion's frame and result cost about 6 ns
/// per argument, more than converting a scalar.
#[inline(always)]
pub fn scalar_to_any(obj: &Bound<'_, PyAny>) -> Option<AnyValue> {
    if obj.is_none() {
        return Some(AnyValue::none());
    }
    if obj.is_exact_instance_of::<PyInt>() {
        let mut overflow: std::ffi::c_int = 0;
        // SAFETY: `obj` is a live exact int (not a subclass, so no `__index__` runs), which
        // fails to convert only by overflowing, reported in `overflow` instead of raising.
        let v = unsafe { pyo3::ffi::PyLong_AsLongLongAndOverflow(obj.as_ptr(), &mut overflow) };
        return (overflow == 0).then(|| AnyValue::from_int(v));
    }
    exact::<PyFloat>(obj).map(|f| AnyValue::from_float(f.value()))
}

pub(crate) fn to_any(obj: &Bound<'_, PyAny>, depth: usize) -> PyResult<AnyValue> {
    if let Some(v) = scalar_to_any(obj) {
        return Ok(v);
    }
    if let Some(s) = exact::<PyString>(obj) {
        return Ok(AnyValue::from_text(&text_of(s)?));
    }
    if obj.is_exact_instance_of::<PyInt>() {
        // Only an int that does not fit gets here: `int_to_any` raises its OverflowError.
        return int_to_any(obj);
    }
    if let Some(b) = exact::<PyBool>(obj) {
        return Ok(AnyValue::from_bool(b.is_true()));
    }
    if let Some(l) = exact::<PyList>(obj) {
        return list_to_any(l, depth);
    }
    if let Some(t) = exact::<PyTuple>(obj) {
        return tuple_to_any(t, depth);
    }
    if let Some(d) = exact::<PyDict>(obj) {
        return dict_to_any(d, depth);
    }
    if let Some(b) = exact::<PyBytes>(obj) {
        return Ok(AnyValue::from_bytes(b.as_bytes()));
    }
    if let Some(s) = exact::<PySet>(obj) {
        return set_to_any(s.iter(), false, depth);
    }
    if let Some(s) = exact::<PyFrozenSet>(obj) {
        return set_to_any(s.iter(), true, depth);
    }
    if let Some(f) = function_state(obj) {
        return Ok(f.func.clone().into_any());
    }
    if let Some(a) = exact::<PyNDArray>(obj) {
        return Ok(a.get().array.clone().into_any());
    }
    if let Some(g) = exact::<PyGenerator>(obj) {
        return Ok(g.get().generator.clone().into_any());
    }
    if let Some(o) = exact::<Opaque>(obj) {
        return Ok(o.get().value.clone());
    }
    fallback(obj, depth)
}

/// anyproc's function for `obj` when it is one of the types Python's built-ins and anyproc's
/// share (`TYPE_BUILTINS`): `int` given as a value (a `defaultdict`'s factory, a key function)
/// then runs without the GIL, and comes back as `int`.
pub(crate) fn builtin_type_func(obj: &Bound<'_, PyAny>) -> Option<PackedFunc> {
    let builtins = obj.py().import("builtins").ok()?;
    TYPE_BUILTINS.into_iter().find(|b| builtins.getattr(b.name()).is_ok_and(|t| t.is(obj))).map(Builtin::as_func)
}

/// Subclasses of the built-in types and objects that behave like one (NumPy scalars, tensors, callables).
fn fallback(obj: &Bound<'_, PyAny>, depth: usize) -> PyResult<AnyValue> {
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(AnyValue::from_text(&text_of(s)?));
    }
    if obj.is_instance_of::<PyInt>() {
        return int_to_any(obj);
    }
    if let Ok(f) = obj.cast::<PyFloat>() {
        return Ok(AnyValue::from_float(f.value()));
    }
    if let Ok(l) = obj.cast::<PyList>() {
        return seq_to_any(l.iter(), l.len(), depth);
    }
    if let Ok(t) = obj.cast::<PyTuple>() {
        return tuple_to_any(t, depth);
    }
    if let Ok(d) = obj.cast::<PyDict>() {
        // `Counter` and `defaultdict` keep what they are.
        let kind = crate::convert_collections::dict_kind_of(obj, depth)?;
        return dict_to_any_of_kind(d, kind, depth);
    }
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(AnyValue::from_bytes(b.as_bytes()));
    }
    if let Ok(s) = obj.cast::<PySet>() {
        return set_to_any(s.iter(), false, depth);
    }
    if let Ok(s) = obj.cast::<PyFrozenSet>() {
        return set_to_any(s.iter(), true, depth);
    }
    if obj.hasattr("__dlpack__")? {
        return Ok(import_dlpack(obj)?.into_any());
    }
    if let Some(f) = builtin_type_func(obj) {
        return Ok(f.into_any());
    }
    if obj.is_callable() {
        return Ok(callable_to_func(obj.clone().unbind()).into_any());
    }
    let type_name = obj.get_type().name().map(|n| n.to_string()).unwrap_or_default();
    // NumPy's bool scalar is neither an int nor has a usable `__index__`.
    if type_name == "bool" || type_name == "bool_" {
        return Ok(AnyValue::from_bool(obj.is_truthy()?));
    }
    if obj.hasattr("__index__")? {
        return int_to_any(&obj.call_method0("__index__")?);
    }
    if obj.hasattr("__float__")? {
        return Ok(AnyValue::from_float(obj.call_method0("__float__")?.extract::<f64>()?));
    }
    // A copy of its bytes, as a list is copied (ops that read bytes take it as bytes).
    if let Ok(b) = obj.cast::<PyByteArray>() {
        return Ok(anyproc::container::ByteArray::new(b.to_vec()).into_any());
    }
    if let Some(v) = crate::convert_random::random_to_any(obj)? {
        return Ok(v);
    }
    if let Some(v) = crate::convert_deque::deque_to_any(obj, depth)? {
        return Ok(v);
    }
    if let Some(v) = crate::convert_dict_view::dict_view_to_any(obj, depth)? {
        return Ok(v);
    }
    if let Some(v) = crate::iterator::iterable_to_any(obj, depth)? {
        return Ok(v);
    }
    Err(PyTypeError::new_err(format!("cannot convert a Python {type_name} to an anyproc value")))
}

/// A Python int (or an object with `__index__`) as an int value; OverflowError beyond 64 bits.
fn int_to_any(obj: &Bound<'_, PyAny>) -> PyResult<AnyValue> {
    let mut overflow: std::ffi::c_int = 0;
    // SAFETY: `obj` is a live object; the call reports out-of-range values in `overflow`
    // instead of raising, and other failures as -1 with an exception set (checked below).
    let v = unsafe { pyo3::ffi::PyLong_AsLongLongAndOverflow(obj.as_ptr(), &mut overflow) };
    if overflow != 0 {
        return Err(PyOverflowError::new_err(format!("int {obj} does not fit in anyproc's 64-bit int")));
    }
    if v == -1 {
        if let Some(e) = PyErr::take(obj.py()) {
            return Err(e);
        }
    }
    Ok(AnyValue::from_int(v))
}

fn seq_to_any<'py>(items: impl Iterator<Item = Bound<'py, PyAny>>, len: usize, depth: usize) -> PyResult<AnyValue> {
    if depth >= MAX_NESTING {
        return Err(too_deep());
    }
    let mut list = List::with_capacity(len);
    for item in items {
        list.push(to_any(&item, depth + 1)?);
    }
    Ok(list.into_any())
}

/// A Python list converted item by item; exact strs are read through a borrowed reference.
///
/// Rationale: a list of words is what scripts are most often given, and taking and dropping a
/// reference to each item cost as much as converting it. Converting a str runs no Python
/// code, so nothing can remove the item from the list while it is borrowed, nor change the
/// list's length; any other item is held by a reference of its own, since its conversion may
/// run Python code, after which the length is read again.
fn list_to_any(l: &Bound<'_, PyList>, depth: usize) -> PyResult<AnyValue> {
    if depth >= MAX_NESTING {
        return Err(too_deep());
    }
    let py = l.py();
    let mut len = l.len();
    let mut list = List::with_capacity(len);
    // Filled through one ownership check, not one per push: nothing else can see the list yet.
    list.with_items_mut(|items| {
        let mut i = 0;
        while i < len {
            // SAFETY: `i` is below the list's current length, so the call returns a borrowed
            // reference to a live item (or null with an IndexError set, checked below).
            let item = unsafe { pyo3::ffi::PyList_GetItem(l.as_ptr(), i as pyo3::ffi::Py_ssize_t) };
            if item.is_null() {
                return Err(PyErr::fetch(py));
            }
            // SAFETY: `item` is a live object borrowed from the list, which `l` keeps alive.
            let borrowed = unsafe { pyo3::Borrowed::from_ptr(py, item) };
            match exact::<PyString>(&borrowed) {
                Some(s) => items.push(AnyValue::from_text(&text_of(s)?)),
                None => {
                    items.push(to_any(&borrowed.to_owned(), depth + 1)?);
                    len = l.len();
                }
            }
            i += 1;
        }
        Ok(())
    })?;
    Ok(list.into_any())
}

/// A Python tuple converted item by item, each read through a borrowed reference.
///
/// Rationale: a tuple cannot change, and it holds each of its items for as long as it lives
/// (which `t` ensures), so even a conversion that runs Python code cannot free an item that
/// is being read; a reference of our own per item would be a count round trip for nothing.
fn tuple_to_any(t: &Bound<'_, PyTuple>, depth: usize) -> PyResult<AnyValue> {
    if depth >= MAX_NESTING {
        return Err(too_deep());
    }
    // A `collections.namedtuple` instance stays one (its class kept for the way back).
    if !t.is_exact_instance_of::<PyTuple>()
        && let Some(named) = crate::convert_named_tuple::named_tuple_to_any(t, depth)?
    {
        return Ok(named);
    }
    let mut items = Vec::with_capacity(t.len());
    for i in 0..t.len() {
        // SAFETY: `i` is below the tuple's length, which never changes; the tuple, kept alive
        // by `t`, holds the item it lends.
        let item = unsafe { t.get_borrowed_item_unchecked(i) };
        let value = match exact::<PyString>(&item) {
            Some(s) => AnyValue::from_text(&text_of(s)?),
            None => to_any(&item, depth + 1)?,
        };
        items.push(value);
    }
    Ok(Tuple::from_vec(items).into_any())
}

fn dict_to_any(d: &Bound<'_, PyDict>, depth: usize) -> PyResult<AnyValue> {
    dict_to_any_of_kind(d, DictKind::Plain, depth)
}

fn dict_to_any_of_kind(d: &Bound<'_, PyDict>, kind: DictKind, depth: usize) -> PyResult<AnyValue> {
    if depth >= MAX_NESTING {
        return Err(too_deep());
    }
    let mut dict = Dict::with_kind(kind);
    for (k, v) in d.iter() {
        dict.set(to_any(&k, depth + 1)?, to_any(&v, depth + 1)?);
    }
    Ok(dict.into_any())
}

/// A set or (`frozen`) frozenset: its keys added in the order Python iterates them.
fn set_to_any<'py>(keys: impl Iterator<Item = Bound<'py, PyAny>>, frozen: bool, depth: usize) -> PyResult<AnyValue> {
    if depth >= MAX_NESTING {
        return Err(too_deep());
    }
    let mut set = Set::new();
    for k in keys {
        let key = to_any(&k, depth + 1)?;
        set.add(key).map_err(|e| to_pyerr(k.py(), e))?;
    }
    Ok(if frozen { set.into_frozen() } else { set }.into_any())
}

/// Converts an anyproc value to a Python object.
pub fn any_to_py<'py>(py: Python<'py>, v: &AnyView<'_>) -> PyResult<Bound<'py, PyAny>> {
    // None, what most ops called for their effect return, without decoding the value.
    if v.is_none() {
        return Ok(py.None().into_bound(py));
    }
    to_py(py, v, 0)
}

pub(crate) fn to_py<'py>(py: Python<'py>, v: &AnyView<'_>, depth: usize) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v.value() {
        Value::None => py.None().into_bound(py),
        Value::Int(i) => i.into_pyobject(py)?.into_any(),
        Value::Bool(b) => PyBool::new(py, b).to_owned().into_any(),
        Value::Float(f) => PyFloat::new(py, f).into_any(),
        Value::Str(s) => str_to_py(py, s)?,
        Value::UStr(chars) => PyString::new(py, &chars.iter().collect::<String>()).into_any(),
        Value::Bytes(b) => PyBytes::new(py, b).into_any(),
        Value::Pod(..) => Bound::new(py, Opaque { value: v.to_owned() })?.into_any(),
        Value::Object(_) => object_to_py(py, v, depth)?,
    })
}

/// A script's exception as an instance of Python's class of that name, made with the arguments
/// the script gave (its message for one anyproc raised; none for an empty one).
fn exception_to_py<'py>(py: Python<'py>, e: &Exception, depth: usize) -> PyResult<Bound<'py, PyAny>> {
    let class = py.import("builtins")?.getattr(e.class_name())?;
    let args = e.args().iter().map(|a| to_py(py, &a.view(), depth + 1)).collect::<PyResult<Vec<_>>>()?;
    class.call1(PyTuple::new(py, args)?)
}

/// A dict or set key: a tuple, or a list (which a dict made in Rust may use as a key), becomes a
/// tuple (its lists too), so that Python can hash it.
fn key_to_py<'py>(py: Python<'py>, v: &AnyView<'_>, depth: usize) -> PyResult<Bound<'py, PyAny>> {
    let Some(list) = List::from_view(v) else { return to_py(py, v, depth) };
    if depth >= MAX_NESTING {
        return Err(too_deep());
    }
    if let Some(class) = crate::convert_named_tuple::class_of(v) {
        return crate::convert_named_tuple::named_tuple_to_py(py, &class, &list.to_vec(), depth);
    }
    let items = list.to_vec().iter().map(|x| key_to_py(py, &x.view(), depth + 1)).collect::<PyResult<Vec<_>>>()?;
    Ok(PyTuple::new(py, items)?.into_any())
}

/// A Python str; a one-character string is made from its code point, which for code points
/// below 256 returns the interpreter's cached string instead of decoding UTF-8 into a new one.
fn str_to_py<'py>(py: Python<'py>, s: &str) -> PyResult<Bound<'py, PyAny>> {
    let mut chars = s.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        // SAFETY: any `char` is a valid code point; the call returns a new reference, or null
        // with an exception set, which `from_owned_ptr_or_err` turns into the error.
        return unsafe { Bound::from_owned_ptr_or_err(py, pyo3::ffi::PyUnicode_FromOrdinal(c as std::ffi::c_int)) };
    }
    Ok(PyString::new(py, s).into_any())
}

/// A Python list of `items`, converted one by one into a list made at its final size (appends
/// would regrow it).
fn py_list<'py>(py: Python<'py>, items: &[AnyValue], depth: usize) -> PyResult<Bound<'py, PyAny>> {
    // SAFETY: `PyList_New` returns a new list of `len` empty slots, or null with an exception
    // set. Each slot is then set once, with a new reference the list takes over; if a
    // conversion fails first, the list is dropped with some slots still empty, which its
    // deallocation skips; the collector skips them too. It is handed to no Python code before
    // it is full, the use `PyList_New` documents.
    let list =
        unsafe { Bound::from_owned_ptr_or_err(py, pyo3::ffi::PyList_New(items.len() as pyo3::ffi::Py_ssize_t))? };
    for (i, item) in items.iter().enumerate() {
        let obj = to_py(py, &item.view(), depth + 1)?;
        // SAFETY: `i` is within the list's length and `obj` is a new reference, which the call
        // steals; it cannot fail for an in-range index of a list.
        unsafe { pyo3::ffi::PyList_SetItem(list.as_ptr(), i as pyo3::ffi::Py_ssize_t, obj.into_ptr()) };
    }
    Ok(list)
}

fn object_to_py<'py>(py: Python<'py>, v: &AnyView<'_>, depth: usize) -> PyResult<Bound<'py, PyAny>> {
    // Before lists: a tuple is a list's subtype, which `List::from_view` takes too.
    if let Some(tuple) = Tuple::from_view(v) {
        if depth >= MAX_NESTING {
            return Err(too_deep());
        }
        if let Some(class) = crate::convert_named_tuple::class_of(v) {
            return crate::convert_named_tuple::named_tuple_to_py(py, &class, &tuple.to_vec(), depth);
        }
        let items = tuple.to_vec().iter().map(|x| to_py(py, &x.view(), depth + 1)).collect::<PyResult<Vec<_>>>()?;
        return Ok(PyTuple::new(py, items)?.into_any());
    }
    if let Some(list) = List::from_view(v) {
        if depth >= MAX_NESTING {
            return Err(too_deep());
        }
        let _paused = (depth == 0 && list.len() >= PAUSE_FROM_ITEMS).then(|| GcPause::new(py));
        let fill = |items: &[AnyValue]| py_list(py, items, depth);
        // Two counts, `list` and the value converted: no other handle exists, so nothing that
        // runs while Python objects are made can reach the list, and it is read in place.
        if list.handle_count() == 2 {
            return list.with_items(fill);
        }
        // Otherwise a snapshot, so that no anyproc lock is held while Python objects are made
        // (an allocation may run a garbage collection, and so arbitrary `__del__` code).
        return fill(&list.to_vec());
    }
    if let Some(dict) = Dict::from_view(v) {
        if depth >= MAX_NESTING {
            return Err(too_deep());
        }
        let _paused = (depth == 0 && dict.len() >= PAUSE_FROM_ITEMS).then(|| GcPause::new(py));
        let out = PyDict::new(py);
        for (k, val) in dict.items() {
            out.set_item(key_to_py(py, &k.view(), depth + 1)?, to_py(py, &val.view(), depth + 1)?)?;
        }
        return crate::convert_collections::with_kind(out, dict.kind(), depth);
    }
    if let Some(set) = Set::from_view(v) {
        if depth >= MAX_NESTING {
            return Err(too_deep());
        }
        let keys = set.items().iter().map(|k| key_to_py(py, &k.view(), depth + 1)).collect::<PyResult<Vec<_>>>()?;
        if set.is_frozen() {
            return Ok(PyFrozenSet::new(py, keys)?.into_any());
        }
        return Ok(PySet::new(py, keys)?.into_any());
    }
    if let Some(array) = NDArray::from_view(v) {
        return Ok(Bound::new(py, PyNDArray { array })?.into_any());
    }
    if let Some(b) = v.value().as_obj().and_then(anyproc::container::byte_array_obj) {
        return Ok(PyByteArray::new(py, &b.to_vec()).into_any());
    }
    if let Some(d) = v.value().as_obj().and_then(anyproc::container::deque_obj) {
        if depth >= MAX_NESTING {
            return Err(too_deep());
        }
        return crate::convert_deque::deque_to_py(py, &d.to_vec(), d.maxlen(), depth);
    }
    if let Some(view) = crate::convert_dict_view::dict_view_to_py(py, v, depth)? {
        return Ok(view);
    }
    if let Some(generator) = anyproc::pipeline::generator::generator_of(v.value()) {
        // A Python iterator goes back as itself.
        if let Some(iterator) = crate::iterator::python_iterator(py, &generator) {
            return Ok(iterator);
        }
        return Ok(Bound::new(py, PyGenerator { generator })?.into_any());
    }
    if let Some(e) = exception_of(v.value()) {
        return exception_to_py(py, &e, depth);
    }
    if let Some(func) = PackedFunc::from_view(v) {
        if let Some(b) = Builtin::of_func(&func) {
            // A built-in type goes back as itself (`defaultdict(int)`'s factory).
            return py.import("builtins")?.getattr(b.name());
        }
        if let Some(name) = exception_class_name(&func) {
            return py.import("builtins")?.getattr(name);
        }
        if let Some(class) = anyproc::container::NamedTupleClass::of_func(&func) {
            // A named-tuple class goes back as its Python class.
            return crate::convert_named_tuple::python_class(py, &class, depth).map(Bound::into_any);
        }
        return new_function(py, func, None);
    }
    Ok(Bound::new(py, Opaque { value: v.to_owned() })?.into_any())
}
