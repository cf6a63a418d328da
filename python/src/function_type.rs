//! `anyproc.Function`: a `PackedFunc` as a Python callable that CPython calls through vectorcall.
//!
//! Rationale: a `#[pyclass]` with `__call__` is reached through `tp_call`, so every call first
//! packs its arguments into a tuple and then unpacks them in PyO3's argument extraction; PyO3
//! classes cannot offer vectorcall (PyO3 issue 4252). This type is built with `PyType_FromSpec`
//! (stable ABI) and names its per-instance vectorcall pointer through the `__vectorcalloffset__`
//! member (honoured since CPython 3.9), so `f(x)` hands us CPython's own argument array.

use crate::convert::{any_to_py, py_to_any, scalar_to_any};
use crate::errors::IntoPyResult;
use anyproc::{AnyValue, AnyView, CallArgs, PackedFunc};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::ffi;
use pyo3::panic::PanicException;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use std::ffi::{CStr, c_int, c_void};
use std::mem::offset_of;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::ptr::{self, null_mut};
use std::sync::atomic::{AtomicBool, AtomicPtr, Ordering};
use std::sync::{Arc, OnceLock};

// Vectorcall pieces the limited API of Python 3.9 does not declare; their values have been
// fixed since PEP 590 (CPython 3.8).
const TPFLAGS_HAVE_VECTORCALL: std::ffi::c_ulong = 1 << 11;
const VECTORCALL_ARGUMENTS_OFFSET: usize = 1 << (usize::BITS - 1);
type VectorcallFn = unsafe extern "C" fn(
    *mut ffi::PyObject,
    *const *mut ffi::PyObject,
    usize,
    *mut ffi::PyObject,
) -> *mut ffi::PyObject;

/// What a `Function` carries besides its Python header.
pub struct FunctionState {
    /// The function.
    pub func: PackedFunc,
    /// The registry name or script entry it came from, for `repr` and `name`.
    pub name: Option<String>,
    /// Whether calls release the GIL (see [`release_gil_by_default`]); shared with the copies
    /// a subclass's constructor makes (a `ScriptFunction` and its `.func`), so one setting
    /// governs both.
    release_gil: Arc<AtomicBool>,
}

/// The instance layout: CPython's header, the vectorcall pointer CPython reads, the state.
#[repr(C)]
struct FunctionObject {
    ob_base: ffi::PyObject,
    vectorcall: VectorcallFn,
    state: FunctionState,
}

/// The type object, created once by [`add_to_module`] and never freed.
static FUNCTION_TYPE: AtomicPtr<ffi::PyTypeObject> = AtomicPtr::new(null_mut());

/// Whether new `Function`s release the GIL: yes unless `ANYPROC_RELEASE_GIL_BY_DEFAULT=0`.
///
/// Releasing and retaking the GIL costs a mutex round trip per call, which dominates a
/// call that does almost nothing; such functions can turn it off with `release_gil`.
fn release_gil_by_default() -> bool {
    static DEFAULT: OnceLock<bool> = OnceLock::new();
    *DEFAULT.get_or_init(|| std::env::var("ANYPROC_RELEASE_GIL_BY_DEFAULT").map_or(true, |v| v.trim() != "0"))
}

/// A new `anyproc.Function` wrapping `func`; `name` is shown by `repr` and `.name`.
pub fn new_function<'py>(py: Python<'py>, func: PackedFunc, name: Option<String>) -> PyResult<Bound<'py, PyAny>> {
    let tp = FUNCTION_TYPE.load(Ordering::Acquire);
    if tp.is_null() {
        return Err(PyValueError::new_err("anyproc._native is not initialised (Function type missing)"));
    }
    let state = FunctionState { func, name, release_gil: Arc::new(AtomicBool::new(release_gil_by_default())) };
    // SAFETY: `tp` is our live type object.
    unsafe { alloc_function(py, tp, state) }
}

/// A new instance of `tp` (ours, or a Python subclass of it) holding `state`.
///
/// # Safety
/// `tp` is the Function type or a subtype of it, and the GIL is held.
unsafe fn alloc_function<'py>(
    py: Python<'py>,
    tp: *mut ffi::PyTypeObject,
    state: FunctionState,
) -> PyResult<Bound<'py, PyAny>> {
    // SAFETY: GenericAlloc returns a zeroed instance of the type's basic size (at least that of
    // `FunctionObject`: a subclass only appends its dict) with the header set (and tracked by
    // the GC if the subclass is collected), or null with an exception set.
    unsafe {
        let obj = ffi::PyType_GenericAlloc(tp, 0);
        if obj.is_null() {
            return Err(PyErr::fetch(py));
        }
        let this = obj.cast::<FunctionObject>();
        ptr::addr_of_mut!((*this).vectorcall).write(function_vectorcall);
        ptr::addr_of_mut!((*this).state).write(state);
        Ok(Bound::from_owned_ptr(py, obj))
    }
}

/// The state of `obj` if it is an `anyproc.Function` (or of a Python subclass, `ScriptFunction`).
pub fn function_state<'a>(obj: &'a Bound<'_, PyAny>) -> Option<&'a FunctionState> {
    let tp = FUNCTION_TYPE.load(Ordering::Acquire);
    // SAFETY: reading the type of a live object. Instances of this type and of its subclasses
    // begin with our layout (a subclass appends its dict after it; `tp_new` writes the state),
    // and live as long as the borrow of `obj`.
    unsafe {
        let own = ffi::Py_TYPE(obj.as_ptr());
        if tp.is_null() || (own != tp && ffi::PyType_IsSubtype(own, tp) == 0) {
            return None;
        }
        Some(&(*obj.as_ptr().cast::<FunctionObject>()).state)
    }
}

/// Creates the type and adds it to the module as `Function`.
pub fn add_to_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    let mut tp = FUNCTION_TYPE.load(Ordering::Acquire);
    if tp.is_null() {
        tp = create_type(py)?;
        FUNCTION_TYPE.store(tp, Ordering::Release);
    }
    // SAFETY: `tp` is a live type object; the module gets a reference of its own.
    let ty = unsafe { Bound::from_borrowed_ptr(py, tp.cast::<ffi::PyObject>()) };
    m.add("Function", ty)
}

fn create_type(py: Python<'_>) -> PyResult<*mut ffi::PyTypeObject> {
    // CPython keeps pointers to the spec's name and the getset table for the type's
    // lifetime (the whole process), so they are leaked once here.
    let getset: &'static mut [ffi::PyGetSetDef] = Box::leak(Box::new([
        getset(c"name", Some(get_name), None, c"The name it was looked up or compiled under, if any."),
        getset(
            c"release_gil",
            Some(get_release_gil),
            Some(set_release_gil),
            c"Whether calls release the GIL while Rust runs (default: yes, or ANYPROC_RELEASE_GIL_BY_DEFAULT).",
        ),
        // SAFETY: an all-zero `PyGetSetDef` is the table's sentinel.
        unsafe { std::mem::zeroed() },
    ]));
    let members: &'static mut [ffi::PyMemberDef] = Box::leak(Box::new([
        ffi::PyMemberDef {
            name: c"__vectorcalloffset__".as_ptr(),
            type_code: ffi::Py_T_PYSSIZET,
            offset: offset_of!(FunctionObject, vectorcall) as ffi::Py_ssize_t,
            flags: ffi::Py_READONLY,
            doc: ptr::null(),
        },
        // SAFETY: an all-zero `PyMemberDef` is the table's sentinel.
        unsafe { std::mem::zeroed() },
    ]));
    let doc = c"An anyproc function (a PackedFunc); calls release the GIL while Rust runs unless `release_gil` is off.";
    let slots: &'static mut [ffi::PyType_Slot] = Box::leak(Box::new([
        slot(ffi::Py_tp_dealloc, function_dealloc as *mut c_void),
        slot(ffi::Py_tp_call, function_call as *mut c_void),
        slot(ffi::Py_tp_new, function_new as *mut c_void),
        slot(ffi::Py_tp_repr, function_repr as *mut c_void),
        slot(ffi::Py_tp_hash, function_hash as *mut c_void),
        slot(ffi::Py_tp_richcompare, function_richcompare as *mut c_void),
        slot(ffi::Py_tp_getset, getset.as_mut_ptr().cast()),
        slot(ffi::Py_tp_members, members.as_mut_ptr().cast()),
        slot(ffi::Py_tp_doc, doc.as_ptr() as *mut c_void),
        slot(0, null_mut()),
    ]));
    let spec = Box::leak(Box::new(ffi::PyType_Spec {
        name: c"anyproc._native.Function".as_ptr(),
        basicsize: size_of::<FunctionObject>() as c_int,
        itemsize: 0,
        // A base type for `anyproc.ScriptFunction`, whose instances are Functions with a dict.
        flags: (ffi::Py_TPFLAGS_DEFAULT | ffi::Py_TPFLAGS_BASETYPE | TPFLAGS_HAVE_VECTORCALL) as _,
        slots: slots.as_mut_ptr(),
    }));
    // SAFETY: the spec and every table it points to live forever (leaked above).
    let tp = unsafe { ffi::PyType_FromSpec(spec) };
    if tp.is_null() {
        return Err(PyErr::fetch(py));
    }
    Ok(tp.cast())
}

fn slot(slot: c_int, pfunc: *mut c_void) -> ffi::PyType_Slot {
    ffi::PyType_Slot { slot, pfunc }
}

fn getset(
    name: &'static CStr,
    get: Option<ffi::getter>,
    set: Option<ffi::setter>,
    doc: &'static CStr,
) -> ffi::PyGetSetDef {
    ffi::PyGetSetDef { name: name.as_ptr(), get, set, doc: doc.as_ptr(), closure: null_mut() }
}

/// Runs `body` with the GIL held, turning an error or a panic into a raised exception and `err`.
///
/// # Safety
/// The caller holds the GIL (every slot CPython calls does).
unsafe fn guarded<T>(err: T, body: impl FnOnce(Python<'_>) -> PyResult<T>) -> T {
    // SAFETY: the caller holds the GIL.
    let py = unsafe { Python::assume_attached() };
    match catch_unwind(AssertUnwindSafe(|| body(py))) {
        Ok(Ok(v)) => v,
        Ok(Err(e)) => {
            e.restore(py);
            err
        }
        Err(panic) => {
            PanicException::new_err(anyproc::panic_message(&*panic)).restore(py);
            err
        }
    }
}

/// The state behind a `self` pointer CPython passes to a slot of this type.
///
/// # Safety
/// `obj` is a live instance of the Function type.
unsafe fn state_of<'a>(obj: *mut ffi::PyObject) -> &'a FunctionState {
    // SAFETY: the caller's contract; the state was written when the object was made.
    unsafe { &(*obj.cast::<FunctionObject>()).state }
}

/// Converts the arguments, calls the function (without the GIL if `release_gil` is on) and
/// converts the result.
fn call<'py>(py: Python<'py>, state: &FunctionState, args: &[*mut ffi::PyObject]) -> PyResult<Bound<'py, PyAny>> {
    let run = |views: &[AnyView<'_>]| -> PyResult<Bound<'py, PyAny>> {
        let out = if state.release_gil.load(Ordering::Relaxed) {
            py.detach(|| state.func.call(views))
        } else {
            state.func.call(views)
        };
        any_to_py(py, &out.py_err(py)?.view())
    };
    let result = match args.len() {
        0 => run(&[]),
        1 => call_with::<1, _>(py, args, run),
        2 => call_with::<2, _>(py, args, run),
        3 => call_with::<3, _>(py, args, run),
        4 => call_with::<4, _>(py, args, run),
        5 => call_with::<5, _>(py, args, run),
        6 => call_with::<6, _>(py, args, run),
        _ => args
            .iter()
            .map(|&a| convert(py, a))
            .collect::<PyResult<Vec<AnyValue>>>()
            .and_then(|values| run(&values.iter().map(AnyValue::view).collect::<Vec<AnyView<'_>>>())),
    };
    // A `random.Random` among the arguments gets the state the call left its copy in.
    crate::convert_random::after_call(py, result)
}

/// Converts exactly `N` arguments into arrays on the stack and runs `run` on their views.
///
/// Rationale: one array of the exact size per arity, so a call converts, views and drops only
/// the arguments it has (a fixed array of six cost more than the conversion of one int).
#[inline(always)]
fn call_with<'py, const N: usize, R>(
    py: Python<'py>,
    args: &[*mut ffi::PyObject],
    run: impl FnOnce(&[AnyView<'_>]) -> PyResult<R>,
) -> PyResult<R> {
    let Ok(args) = <&[*mut ffi::PyObject; N]>::try_from(args) else {
        unreachable!("call_with::<{N}> is given {N} arguments")
    };
    // Each value is written once, in place, and the first error is kept aside and raised after
    // every argument was tried. A `?` per argument (an early return that drops a partly filled
    // array) cost about 6 ns per argument, and so did skipping the rest after an error (a check
    // per argument that keeps the loop from being flattened); trying them all costs only a call
    // that fails anyway.
    let mut failed = None;
    let mut values: [AnyValue; N] = [const { AnyValue::none() }; N];
    for (slot, &arg) in values.iter_mut().zip(args) {
        *slot = convert(py, arg).unwrap_or_else(|e| {
            failed.get_or_insert(e);
            AnyValue::none()
        });
    }
    if let Some(e) = failed {
        return Err(e);
    }
    let views: [AnyView<'_>; N] = std::array::from_fn(|i| values[i].view());
    run(&views)
}

/// Converts one argument CPython passed: scalars inline, anything else by the general conversion.
#[inline(always)]
fn convert(py: Python<'_>, arg: *mut ffi::PyObject) -> PyResult<AnyValue> {
    // SAFETY: CPython's argument pointers are live, borrowed references for the duration of the call.
    let arg = unsafe { pyo3::Borrowed::from_ptr(py, arg) };
    scalar_to_any(&arg).map_or_else(|| py_to_any(&arg), Ok)
}

fn no_keywords() -> PyErr {
    PyTypeError::new_err("anyproc.Function takes no keyword arguments")
}

/// A call with keyword arguments: a subclass that binds them (`ScriptFunction`, whose Python
/// function knows its parameters) turns them into positional arguments with its
/// `_bind_keywords(args, kwargs)`; `Function` itself takes none.
fn call_with_keywords<'py>(
    py: Python<'py>,
    callable: *mut ffi::PyObject,
    args: Bound<'py, PyTuple>,
    kwargs: Bound<'py, PyDict>,
) -> PyResult<Bound<'py, PyAny>> {
    // SAFETY: CPython passes a live instance of this type (or of a subclass), borrowed for the call.
    let this = unsafe { pyo3::Borrowed::from_ptr(py, callable) };
    if this.get_type().as_ptr() == FUNCTION_TYPE.load(Ordering::Acquire).cast() {
        // SAFETY: `callable` is an instance of this very type.
        let state = unsafe { state_of(callable) };
        if state.func.takes_keywords() {
            return call_keyword_form(py, state, &args, &kwargs);
        }
        return Err(no_keywords());
    }
    let bind = match this.getattr(pyo3::intern!(py, "_bind_keywords")) {
        Ok(bind) => bind,
        Err(_) => return Err(no_keywords()),
    };
    let positional = bind.call1((args, kwargs))?;
    let positional =
        positional.cast_into::<PyTuple>().map_err(|_| PyTypeError::new_err("_bind_keywords must return a tuple"))?;
    // A function with `*args`, keyword-only or `**kwargs` parameters is given its registers,
    // bound by `_bind_keywords`, through the function that takes them as they are.
    if let Ok(registers) = this.getattr(pyo3::intern!(py, "_registers"))
        && !registers.is_none()
    {
        return registers.call1(positional);
    }
    let items: Vec<*mut ffi::PyObject> = positional.iter_borrowed().map(|a| a.as_ptr()).collect();
    // SAFETY: `callable` is an instance of this type or of a subclass (see above).
    call(py, unsafe { state_of(callable) }, &items)
}

/// A call with keyword arguments of a function that binds them itself (an op that a Python
/// function stands behind, such as `re.sub`, `functools.partial`, a function a script made):
/// the arguments are converted, then given to its keyword form with the GIL released.
fn call_keyword_form<'py>(
    py: Python<'py>,
    state: &FunctionState,
    args: &Bound<'py, PyTuple>,
    kwargs: &Bound<'py, PyDict>,
) -> PyResult<Bound<'py, PyAny>> {
    let positional = args.iter_borrowed().map(|a| convert(py, a.as_ptr())).collect::<PyResult<Vec<AnyValue>>>()?;
    let mut names = Vec::with_capacity(kwargs.len());
    let mut values = Vec::with_capacity(kwargs.len());
    for (name, value) in kwargs.iter() {
        names.push(name.extract::<String>()?);
        values.push(convert(py, value.as_ptr())?);
    }
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let positional: Vec<AnyView<'_>> = positional.iter().map(AnyValue::view).collect();
    let values: Vec<AnyView<'_>> = values.iter().map(AnyValue::view).collect();
    let call = CallArgs { positional: &positional, starred: 0, names: &names, values: &values };
    let out = if state.release_gil.load(Ordering::Relaxed) {
        py.detach(|| state.func.call_keywords(&call))
    } else {
        state.func.call_keywords(&call)
    };
    let result = any_to_py(py, &out.py_err(py)?.view());
    crate::convert_random::after_call(py, result)
}

unsafe extern "C" fn function_vectorcall(
    callable: *mut ffi::PyObject,
    args: *const *mut ffi::PyObject,
    nargsf: usize,
    kwnames: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    // SAFETY: CPython calls this slot with the GIL held, on an instance of this type, with
    // `nargs` live argument pointers at `args` and a tuple (or null) of keyword names.
    unsafe {
        guarded(null_mut(), |py| {
            let nargs = nargsf & !VECTORCALL_ARGUMENTS_OFFSET;
            let n_keywords = if kwnames.is_null() { 0 } else { ffi::PyTuple_Size(kwnames).max(0) as usize };
            let all =
                if nargs + n_keywords == 0 { &[][..] } else { std::slice::from_raw_parts(args, nargs + n_keywords) };
            if n_keywords > 0 {
                let names = Bound::from_borrowed_ptr(py, kwnames).cast_into::<PyTuple>()?;
                let kwargs = PyDict::new(py);
                for (name, &value) in names.iter().zip(&all[nargs..]) {
                    kwargs.set_item(name, Bound::from_borrowed_ptr(py, value))?;
                }
                let args = PyTuple::new(py, all[..nargs].iter().map(|&a| Bound::from_borrowed_ptr(py, a)))?;
                return call_with_keywords(py, callable, args, kwargs).map(Bound::into_ptr);
            }
            call(py, state_of(callable), all).map(Bound::into_ptr)
        })
    }
}

/// `tp_call`, for callers that come with a tuple (CPython uses vectorcall where it can).
unsafe extern "C" fn function_call(
    callable: *mut ffi::PyObject,
    args: *mut ffi::PyObject,
    kwargs: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    // SAFETY: CPython calls this slot with the GIL held, on an instance of this type, with an
    // argument tuple and a dict (or null) of keyword arguments.
    unsafe {
        guarded(null_mut(), |py| {
            if !kwargs.is_null() && ffi::PyDict_Size(kwargs) > 0 {
                let args = Bound::from_borrowed_ptr(py, args).cast_into::<PyTuple>()?;
                let kwargs = Bound::from_borrowed_ptr(py, kwargs).cast_into::<PyDict>()?;
                return call_with_keywords(py, callable, args, kwargs).map(Bound::into_ptr);
            }
            // Python subclasses (`ScriptFunction`) are called this way on CPython 3.11 and older,
            // which give mutable subclasses no vectorcall: up to six arguments go on the stack.
            let n = ffi::PyTuple_Size(args).max(0) as usize;
            let item = |i: usize| ffi::PyTuple_GetItem(args, i as ffi::Py_ssize_t);
            if n <= 6 {
                let items: [*mut ffi::PyObject; 6] = std::array::from_fn(|i| if i < n { item(i) } else { null_mut() });
                call(py, state_of(callable), &items[..n]).map(Bound::into_ptr)
            } else {
                let items: Vec<*mut ffi::PyObject> = (0..n).map(item).collect();
                call(py, state_of(callable), &items).map(Bound::into_ptr)
            }
        })
    }
}

/// `tp_new`: refused for `Function` itself; a subclass is made from a Function given first
/// (`ScriptFunction(func, ...)`), whose function, name and GIL setting it shares. The other
/// arguments are left to the subclass's `__init__`.
unsafe extern "C" fn function_new(
    subtype: *mut ffi::PyTypeObject,
    args: *mut ffi::PyObject,
    _: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    // SAFETY: CPython calls `tp_new` with the GIL held, on our type or a subtype, with an
    // argument tuple.
    unsafe {
        guarded(null_mut(), |py| {
            if subtype == FUNCTION_TYPE.load(Ordering::Acquire) {
                return Err(PyTypeError::new_err(
                    "anyproc.Function cannot be created directly: use anyproc.get_global_func, anyproc.script or register_func",
                ));
            }
            let first = if ffi::PyTuple_Size(args) > 0 { ffi::PyTuple_GetItem(args, 0) } else { null_mut() };
            let source = (!first.is_null()).then(|| Bound::from_borrowed_ptr(py, first));
            let Some(from) = source.as_ref().and_then(function_state) else {
                return Err(PyTypeError::new_err("a subclass of anyproc.Function is made from an anyproc.Function"));
            };
            let state = FunctionState {
                func: from.func.clone(),
                name: from.name.clone(),
                release_gil: Arc::clone(&from.release_gil),
            };
            alloc_function(py, subtype, state).map(Bound::into_ptr)
        })
    }
}

unsafe extern "C" fn function_dealloc(obj: *mut ffi::PyObject) {
    // SAFETY: CPython calls `tp_dealloc` once, with the GIL held, when the count reaches zero;
    // the state was written at creation. The instance memory goes back through the type's
    // `tp_free`, and the reference every instance of a heap type holds on it is released.
    unsafe {
        let tp = ffi::Py_TYPE(obj);
        let state = ptr::addr_of_mut!((*obj.cast::<FunctionObject>()).state);
        // Dropping the function may drop a Python callable; a panic must not unwind into CPython.
        let _ = catch_unwind(AssertUnwindSafe(|| ptr::drop_in_place(state)));
        let free = ffi::PyType_GetSlot(tp, ffi::Py_tp_free);
        if !free.is_null() {
            let free: ffi::freefunc = std::mem::transmute(free);
            free(obj.cast());
        }
        ffi::Py_DECREF(tp.cast());
    }
}

unsafe extern "C" fn function_repr(obj: *mut ffi::PyObject) -> *mut ffi::PyObject {
    // SAFETY: a slot of this type, called with the GIL held.
    unsafe {
        guarded(null_mut(), |py| {
            let state = state_of(obj);
            let text = match &state.name {
                Some(n) => format!("<anyproc.Function {n}>"),
                None => format!("<anyproc.Function {:?}>", state.func),
            };
            Ok(pyo3::types::PyString::new(py, &text).into_any().into_ptr())
        })
    }
}

unsafe extern "C" fn function_hash(obj: *mut ffi::PyObject) -> ffi::Py_hash_t {
    // SAFETY: a slot of this type, called with the GIL held.
    let state = unsafe { state_of(obj) };
    let any = state.func.clone().into_any();
    let h = any.as_obj().map_or(0, |o| o.as_raw().as_ptr() as usize as ffi::Py_hash_t);
    // -1 means "error" to CPython.
    if h == -1 { -2 } else { h }
}

unsafe extern "C" fn function_richcompare(
    a: *mut ffi::PyObject,
    b: *mut ffi::PyObject,
    op: c_int,
) -> *mut ffi::PyObject {
    // SAFETY: a slot of this type, called with the GIL held on live objects.
    unsafe {
        guarded(null_mut(), |py| {
            let other = Bound::from_borrowed_ptr(py, b);
            let same = function_state(&other).map(|o| o.func.ptr_eq(&state_of(a).func));
            let result = match (op, same) {
                (ffi::Py_EQ, Some(s)) => s.into_pyobject(py)?.to_owned().into_any(),
                (ffi::Py_NE, Some(s)) => (!s).into_pyobject(py)?.to_owned().into_any(),
                _ => py.NotImplemented().into_bound(py),
            };
            Ok(result.into_ptr())
        })
    }
}

unsafe extern "C" fn get_name(obj: *mut ffi::PyObject, _: *mut c_void) -> *mut ffi::PyObject {
    // SAFETY: a getter of this type, called with the GIL held.
    unsafe {
        guarded(null_mut(), |py| {
            Ok(match &state_of(obj).name {
                Some(n) => pyo3::types::PyString::new(py, n).into_any().into_ptr(),
                None => py.None().into_ptr(),
            })
        })
    }
}

unsafe extern "C" fn get_release_gil(obj: *mut ffi::PyObject, _: *mut c_void) -> *mut ffi::PyObject {
    // SAFETY: a getter of this type, called with the GIL held.
    unsafe {
        guarded(null_mut(), |py| {
            let on = state_of(obj).release_gil.load(Ordering::Relaxed);
            Ok(on.into_pyobject(py)?.to_owned().into_any().into_ptr())
        })
    }
}

unsafe extern "C" fn set_release_gil(obj: *mut ffi::PyObject, value: *mut ffi::PyObject, _: *mut c_void) -> c_int {
    // SAFETY: a setter of this type, called with the GIL held; `value` is null for `del`.
    unsafe {
        guarded(-1, |py| {
            if value.is_null() {
                return Err(PyTypeError::new_err("cannot delete release_gil"));
            }
            let on: bool = Bound::from_borrowed_ptr(py, value).extract()?;
            state_of(obj).release_gil.store(on, Ordering::Relaxed);
            Ok(0)
        })
    }
}
