//! Exceptions as values: what `except E as e` binds, what `ValueError(x)` makes and what
//! `raise e` raises. One reads as CPython's does (`str(e)` is its message, `repr(e)` is
//! `ValueError('bad')`), its type is its class (`type(e).__name__`, `isinstance(e,
//! LookupError)`), and it compares by identity.
//!
//! Rationale: an error raised by a script carries the exception it was raised with as its
//! payload, so that the clause that catches it binds that very object, as CPython does.

use super::Slot;
use super::value_ops::{repr_value, to_str, type_error};
use crate::error::{Error, ErrorKind, Result};
use crate::object::{ObjRef, Object};
use crate::{AnyPad, AnyValue, AnyView, FromAny, PackedFunc, Value};
use std::sync::{Arc, LazyLock};

/// The exception classes a script can name, each with its base (`None` for `BaseException`)
/// and the kind of the errors it makes (`None` for the classes that only group others).
const CLASSES: [(&str, Option<&str>, Option<ErrorKind>); 18] = [
    ("BaseException", None, None),
    ("Exception", Some("BaseException"), None),
    ("ArithmeticError", Some("Exception"), None),
    ("LookupError", Some("Exception"), None),
    ("ValueError", Some("Exception"), Some(ErrorKind::Value)),
    ("TypeError", Some("Exception"), Some(ErrorKind::Type)),
    ("KeyError", Some("LookupError"), Some(ErrorKind::Key)),
    ("IndexError", Some("LookupError"), Some(ErrorKind::Index)),
    ("RuntimeError", Some("Exception"), Some(ErrorKind::Runtime)),
    ("ZeroDivisionError", Some("ArithmeticError"), Some(ErrorKind::ZeroDivision)),
    ("OverflowError", Some("ArithmeticError"), Some(ErrorKind::Overflow)),
    ("NameError", Some("Exception"), Some(ErrorKind::Name)),
    ("UnboundLocalError", Some("NameError"), Some(ErrorKind::UnboundLocal)),
    ("MemoryError", Some("Exception"), Some(ErrorKind::Memory)),
    ("AssertionError", Some("Exception"), Some(ErrorKind::Assertion)),
    ("OSError", Some("Exception"), Some(ErrorKind::Io)),
    ("StopIteration", Some("Exception"), Some(ErrorKind::StopIteration)),
    // What an op raises for text it cannot parse (a bad regular expression, say).
    ("SyntaxError", Some("Exception"), Some(ErrorKind::Parse)),
];

/// The heap object behind an [`Exception`].
#[repr(C)]
pub struct ExceptionObj {
    header: Object,
    kind: ErrorKind,
    /// `str(e)`.
    message: Box<str>,
    /// The argument it was made with, when a script made it (`ValueError(x)`); `None` for one
    /// made of an error anyproc raised, or of a class called with no argument.
    arg: Option<AnyValue>,
}

crate::declare_object_type!(ExceptionObj, "pipeline.Exception", parent = Object, child_slots = 0);

/// A handle to an exception value.
#[derive(Clone)]
pub struct Exception(ObjRef<ExceptionObj>);

impl Exception {
    /// `class(arg)` for the class of errors of `kind`: its message is `str(arg)` (`repr(arg)`
    /// for a KeyError, as CPython shows a missing key), empty with no argument.
    pub fn new(kind: ErrorKind, arg: Option<AnyView<'_>>) -> Result<Exception> {
        let message = match (arg, kind) {
            (None, _) => String::new(),
            (Some(a), ErrorKind::Key) => repr_value(a.value()),
            (Some(a), _) => to_str(a)?,
        };
        Ok(Exception::make(kind, message.into(), arg.map(|a| a.to_owned())))
    }

    /// `KeyError(key)`, what a lookup of a missing key raises.
    pub fn key_error(key: AnyView<'_>) -> Exception {
        Exception::make(ErrorKind::Key, repr_value(key.value()).into(), Some(key.to_owned()))
    }

    fn make(kind: ErrorKind, message: Box<str>, arg: Option<AnyValue>) -> Exception {
        Exception(ObjRef::new(ExceptionObj { header: Object::blank(), kind, message, arg }))
    }

    /// What `except ... as e` binds for `error`: the exception it was raised with, or one made
    /// of its kind and message.
    pub fn caught(error: &Error) -> Exception {
        if let Some(e) = error.payload().and_then(|p| p.downcast_ref::<Exception>()) {
            return e.clone();
        }
        let message = error.caught_text().unwrap_or(error.message());
        Exception::make(error.kind(), message.into(), None)
    }

    /// The error that raises this exception (`raise e`), caught as this same object.
    pub fn into_error(self) -> Error {
        let (kind, message) = (self.0.kind, self.0.message.to_string());
        Error::new(kind, message.clone()).with_payload(Arc::new(self)).catchable_as(message)
    }

    /// The kind of error it is.
    pub fn kind(&self) -> ErrorKind {
        self.0.kind
    }

    /// `str(e)`.
    pub fn message(&self) -> &str {
        &self.0.message
    }

    /// The argument it was made with, if a script made it with one.
    pub fn arg(&self) -> Option<&AnyValue> {
        self.0.arg.as_ref()
    }

    /// The name of its class (`TypeError` for a wrong argument count too).
    pub fn class_name(&self) -> &'static str {
        class_name(self.0.kind)
    }

    /// `repr(e)`: `ValueError('bad')`, `KeyError('k')`, `ValueError()`.
    pub fn repr(&self) -> String {
        let class = self.class_name();
        match (&self.0.arg, self.0.kind) {
            (Some(a), _) => format!("{class}({})", repr_value(a.value())),
            (None, _) if self.0.message.is_empty() => format!("{class}()"),
            // A missing key's message is already its repr.
            (None, ErrorKind::Key) => format!("{class}({})", self.0.message),
            (None, _) => format!("{class}({})", repr_value(Value::Str(&self.0.message))),
        }
    }

    /// The value handle.
    pub fn into_any(self) -> AnyValue {
        AnyPad::from_object(self.0)
    }
}

impl FromAny for Exception {
    fn type_name() -> String {
        "exception".into()
    }
    fn from_value(v: Value<'_>) -> Option<Self> {
        v.as_obj().and_then(|o| o.to_owned_as::<ExceptionObj>()).map(Exception)
    }
}

/// The exception `v` is, if it is one.
pub fn exception_of(v: Value<'_>) -> Option<Exception> {
    Exception::from_value(v)
}

/// The Python class name of errors of `kind`.
pub fn class_name(kind: ErrorKind) -> &'static str {
    match kind {
        ErrorKind::Arity => "TypeError",
        ErrorKind::Duplicate => "ValueError",
        ErrorKind::Io => "OSError",
        ErrorKind::Parse => "SyntaxError",
        other => other.name(),
    }
}

/// The class objects, in [`CLASSES`]' order: calling one makes an exception of its kind.
static CLASS_FUNCS: LazyLock<Vec<PackedFunc>> = LazyLock::new(|| {
    CLASSES.iter().map(|&(name, _, kind)| PackedFunc::new(move |args| construct(name, kind, args))).collect()
});

/// `ValueError(x)`, `KeyError()`; the classes that group others make no exception here.
fn construct(name: &str, kind: Option<ErrorKind>, args: &[AnyView<'_>]) -> Result<AnyValue> {
    let Some(kind) = kind else {
        return Err(type_error(format!(
            "anyscript makes exceptions of the classes it raises, not of '{name}' (ValueError, KeyError, ...)"
        )));
    };
    match args {
        [] => Exception::new(kind, None).map(Exception::into_any),
        [a] => Exception::new(kind, Some(*a)).map(Exception::into_any),
        _ => Err(type_error(format!(
            "anyscript makes an exception of at most one argument, not {} ({name})",
            args.len()
        ))),
    }
}

/// Whether `name` is an exception class a script can name.
pub fn is_class_name(name: &str) -> bool {
    CLASSES.iter().any(|(n, _, _)| *n == name)
}

/// The class object named `name`, if it is an exception class a script can name.
pub fn exception_class(name: &str) -> Option<PackedFunc> {
    let i = CLASSES.iter().position(|(n, _, _)| *n == name)?;
    Some(CLASS_FUNCS[i].clone())
}

/// The name of `f` when it is an exception class.
pub fn exception_class_name(f: &PackedFunc) -> Option<&'static str> {
    CLASS_FUNCS.iter().position(|c| c.ptr_eq(f)).map(|i| CLASSES[i].0)
}

/// The classes `e` is an instance of: its own, then each base up to `BaseException`.
pub fn classes_of(e: &Exception) -> Vec<PackedFunc> {
    let mut out = Vec::new();
    let mut name = Some(e.class_name());
    while let Some(n) = name {
        let Some(i) = CLASSES.iter().position(|(c, _, _)| *c == n) else { break };
        out.push(CLASS_FUNCS[i].clone());
        name = CLASSES[i].1;
    }
    out
}

/// What `raise x` raises: `x` an exception, or a class made with no argument (`raise
/// ValueError`); CPython's TypeError for anything else.
pub fn to_raise(x: AnyView<'_>) -> Result<Exception> {
    if let Some(e) = exception_of(x.value()) {
        return Ok(e);
    }
    if let Some(f) = PackedFunc::from_value(x.value()).filter(|f| exception_class_name(f).is_some()) {
        if let Some(e) = exception_of(f.call(&[])?.value()) {
            return Ok(e);
        }
    }
    Err(type_error("exceptions must derive from BaseException"))
}

/// `raise ... from cause`: CPython's TypeError unless `cause` is None, an exception or a class.
pub fn check_cause(cause: AnyView<'_>) -> Result<()> {
    let v = cause.value();
    let is_class = || PackedFunc::from_value(v).is_some_and(|f| exception_class_name(&f).is_some());
    match v {
        Value::None => Ok(()),
        _ if exception_of(v).is_some() || is_class() => Ok(()),
        _ => Err(type_error("exception causes must derive from BaseException")),
    }
}

/// `e.args`: the argument it was made with, its message for one anyproc raised, nothing for
/// an empty one; CPython's AttributeError (a TypeError in anyscript) for a value that is no
/// exception.
fn args_attribute(x: Value<'_>) -> Result<AnyValue> {
    let Some(e) = exception_of(x) else {
        return Err(type_error(format!("'{}' object has no attribute 'args'", super::value_ops::vname(x))));
    };
    let items = match e.arg() {
        Some(a) => vec![a.clone()],
        None if e.message().is_empty() => Vec::new(),
        None => vec![AnyValue::from(e.message())],
    };
    Ok(crate::Tuple::from_vec(items).into())
}

/// [`args_attribute`] as a function value, which `x.args` compiles to a call of.
pub(crate) fn args_attribute_func() -> PackedFunc {
    static FUNC: LazyLock<PackedFunc> = LazyLock::new(|| PackedFunc::new(|args| args_attribute(args[0].value())));
    FUNC.clone()
}

/// An exception as a register value.
pub(crate) fn slot(e: Exception) -> Slot {
    AnyPad::from_object(e.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    // Expected texts: what CPython 3.11 prints for the same exceptions.
    #[test]
    fn exceptions_read_as_cpython_shows_them() {
        let e = Exception::new(ErrorKind::Value, Some(AnyView::from("bad x"))).unwrap();
        assert_eq!((e.message(), e.repr().as_str()), ("bad x", "ValueError('bad x')"));
        let k = Exception::new(ErrorKind::Key, Some(AnyView::from("k"))).unwrap();
        assert_eq!((k.message(), k.repr().as_str()), ("'k'", "KeyError('k')"));
        let none = Exception::new(ErrorKind::Index, None).unwrap();
        assert_eq!((none.message(), none.repr().as_str()), ("", "IndexError()"));
        let five = Exception::new(ErrorKind::Type, Some(AnyView::from(5i64))).unwrap();
        assert_eq!((five.message(), five.repr().as_str()), ("5", "TypeError(5)"));
        let caught = Exception::caught(&Error::new(ErrorKind::Arity, "f() takes 1 positional argument"));
        assert_eq!(caught.repr(), "TypeError('f() takes 1 positional argument')");
    }

    #[test]
    fn a_raised_exception_is_caught_as_itself() {
        let e = Exception::new(ErrorKind::Value, Some(AnyView::from("x"))).unwrap();
        let again = Exception::caught(&e.clone().into_error());
        assert!(e.0.ptr_eq(&again.0));
    }

    #[test]
    fn classes_have_cpython_bases() {
        let k = Exception::new(ErrorKind::Key, None).unwrap();
        let names: Vec<_> = classes_of(&k).iter().filter_map(exception_class_name).collect();
        assert_eq!(names, ["KeyError", "LookupError", "Exception", "BaseException"]);
        assert!(exception_class("Exception").unwrap().call(&[]).is_err());
        assert_eq!(to_raise(AnyView::from(3i64)).err().unwrap().message(), "exceptions must derive from BaseException");
    }

    #[test]
    fn every_error_kind_has_a_class() {
        for name in [
            "TypeError",
            "ValueError",
            "IndexError",
            "KeyError",
            "ArityError",
            "DuplicateError",
            "IOError",
            "ParseError",
            "RuntimeError",
            "MemoryError",
            "ZeroDivisionError",
            "OverflowError",
            "NameError",
            "UnboundLocalError",
            "AssertionError",
            "StopIteration",
        ] {
            let kind = ErrorKind::from_name(name).expect(name);
            let e = Exception::new(kind, None).unwrap();
            assert_eq!(classes_of(&e).first().and_then(exception_class_name), Some(e.class_name()), "{name}");
        }
    }
}
