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

/// An exception class a script can name; `raise Name(...)` names the ones that make errors of
/// a kind of their own.
struct Class {
    /// `type(e).__name__`.
    name: &'static str,
    /// What a script writes for it: its name, or for a module's class the dotted name
    /// (`re.error`, which a bare `error` does not name).
    named: &'static str,
    /// `None` for `BaseException`.
    base: Option<&'static str>,
    /// The kind of the errors it makes; `None` for the classes that only group others.
    kind: Option<ErrorKind>,
    /// Whether `except Name:` names it: not `SyntaxError`, whose errors here are anyproc's own
    /// (a pipeline text it cannot read), which a CPython function never meets.
    caught: bool,
    /// Whether `raise Name(...)` names it: not `JSONDecodeError`, which CPython makes of a
    /// message, a document and a position, not of one value.
    raised: bool,
}

/// A class of errors of `kind`, which `except` names too.
const fn class(name: &'static str, base: &'static str, kind: ErrorKind) -> Class {
    Class { name, named: name, base: Some(base), kind: Some(kind), caught: true, raised: true }
}

/// A class that groups others: caught, never made.
const fn group(name: &'static str, base: Option<&'static str>) -> Class {
    Class { name, named: name, base, kind: None, caught: true, raised: false }
}

/// The exception classes a script can name, with CPython's bases.
const CLASSES: [Class; 26] = [
    group("BaseException", None),
    group("Exception", Some("BaseException")),
    group("ArithmeticError", Some("Exception")),
    // What an unknown codec or error handler raises.
    class("LookupError", "Exception", ErrorKind::Lookup),
    group("UnicodeError", Some("ValueError")),
    // Made of five arguments (`unicode_errors.rs`), which `raise Name(x)` does not give.
    Class { raised: false, ..class("UnicodeEncodeError", "UnicodeError", ErrorKind::UnicodeEncode) },
    Class { raised: false, ..class("UnicodeDecodeError", "UnicodeError", ErrorKind::UnicodeDecode) },
    class("ValueError", "Exception", ErrorKind::Value),
    class("TypeError", "Exception", ErrorKind::Type),
    class("KeyError", "LookupError", ErrorKind::Key),
    class("IndexError", "LookupError", ErrorKind::Index),
    class("RuntimeError", "Exception", ErrorKind::Runtime),
    class("NotImplementedError", "RuntimeError", ErrorKind::NotImplemented),
    class("RecursionError", "RuntimeError", ErrorKind::Recursion),
    class("ZeroDivisionError", "ArithmeticError", ErrorKind::ZeroDivision),
    class("OverflowError", "ArithmeticError", ErrorKind::Overflow),
    class("NameError", "Exception", ErrorKind::Name),
    class("UnboundLocalError", "NameError", ErrorKind::UnboundLocal),
    class("MemoryError", "Exception", ErrorKind::Memory),
    class("AssertionError", "Exception", ErrorKind::Assertion),
    class("StopIteration", "Exception", ErrorKind::StopIteration),
    class("OSError", "Exception", ErrorKind::Io),
    class("AttributeError", "Exception", ErrorKind::Attribute),
    Class { raised: false, ..class("JSONDecodeError", "ValueError", ErrorKind::JsonDecode) },
    // Made of a message, a pattern and a position, as `re` raises it.
    Class { named: "re.error", raised: false, ..class("error", "Exception", ErrorKind::Regex) },
    // What anyproc raises for a text it cannot read (a pipeline file, say).
    Class { caught: false, ..class("SyntaxError", "Exception", ErrorKind::Parse) },
];

/// Other names `except` accepts for a class (Python 3 keeps `IOError` as `OSError`; a module's
/// class is named through its module).
const ALIASES: [(&str, &str); 2] = [("IOError", "OSError"), ("json.JSONDecodeError", "JSONDecodeError")];

/// The heap object behind an [`Exception`].
#[repr(C)]
pub struct ExceptionObj {
    header: Object,
    kind: ErrorKind,
    /// `str(e)`.
    message: Box<str>,
    /// The arguments it was made with (`ValueError(x)`, a codec error's five); `None` for one
    /// made of an error anyproc raised, whose `args` is its message.
    args: Option<Box<[AnyValue]>>,
    /// Its data attributes beyond `args` (a `re.error`'s `msg`, `pattern`, `pos`, ...).
    attributes: Box<[(&'static str, AnyValue)]>,
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
        Ok(Exception::make(kind, message.into(), Some(arg.map(|a| a.to_owned()).into_iter().collect())))
    }

    /// An exception of `kind` whose `str` is `message` and whose `args` are `args` (a codec
    /// error's encoding, object, start, end and reason).
    pub(crate) fn with_args(kind: ErrorKind, message: String, args: Vec<AnyValue>) -> Exception {
        Exception::make(kind, message.into(), Some(args.into()))
    }

    /// `KeyError(key)`, what a lookup of a missing key raises.
    pub fn key_error(key: AnyView<'_>) -> Exception {
        Exception::make(ErrorKind::Key, repr_value(key.value()).into(), Some(Box::new([key.to_owned()])))
    }

    /// An exception of `kind` whose `str` and only argument is `message`, with the data
    /// attributes `attributes` (a `re.error`'s `msg`, `pattern`, `pos`, `lineno`, `colno`).
    pub fn with_attributes(kind: ErrorKind, message: String, attributes: Vec<(&'static str, AnyValue)>) -> Exception {
        Exception::made(kind, message.into(), None, attributes.into_boxed_slice())
    }

    fn make(kind: ErrorKind, message: Box<str>, args: Option<Box<[AnyValue]>>) -> Exception {
        Exception::made(kind, message, args, Box::default())
    }

    fn made(
        kind: ErrorKind,
        message: Box<str>,
        args: Option<Box<[AnyValue]>>,
        attributes: Box<[(&'static str, AnyValue)]>,
    ) -> Exception {
        Exception(ObjRef::new(ExceptionObj { header: Object::blank(), kind, message, args, attributes }))
    }

    /// The exception `error` was raised with (a script's `raise`, a missing key, a codec's or
    /// a pattern's error), if it carries one.
    pub fn carried_by(error: &Error) -> Option<&Exception> {
        error.payload().and_then(|p| p.downcast_ref::<Exception>())
    }

    /// Its data attribute `name`, if it was made with one.
    pub fn attribute(&self, name: &str) -> Option<AnyValue> {
        self.0.attributes.iter().find(|(n, _)| *n == name).map(|(_, v)| v.clone())
    }

    /// What `except ... as e` binds for `error`: the exception it was raised with, or one made
    /// of its kind and message.
    pub fn caught(error: &Error) -> Exception {
        if let Some(e) = Exception::carried_by(error) {
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

    /// `e.args`: the arguments it was made with, or for one anyproc raised its message (none
    /// when that is empty).
    pub fn args(&self) -> Vec<AnyValue> {
        match &self.0.args {
            Some(args) => args.to_vec(),
            None if self.0.message.is_empty() => Vec::new(),
            None => vec![AnyValue::from(&*self.0.message)],
        }
    }

    /// The arguments it was made with (a missing key, `ValueError(x)`'s `x`), if it was made
    /// with some rather than of an error's message.
    pub fn given_args(&self) -> Option<&[AnyValue]> {
        self.0.args.as_deref()
    }

    /// The name of its class (`TypeError` for a wrong argument count too).
    pub fn class_name(&self) -> &'static str {
        class_name(self.0.kind)
    }

    /// `repr(e)`: `ValueError('bad')`, `KeyError('k')`, `ValueError()`, and for more than one
    /// argument the class and the arguments' tuple (`UnicodeDecodeError('utf-8', b'\xff', 0, 1,
    /// 'invalid start byte')`).
    pub fn repr(&self) -> String {
        let class = self.class_name();
        let reprs = |args: &[AnyValue]| args.iter().map(|a| repr_value(a.value())).collect::<Vec<_>>().join(", ");
        match (&self.0.args, self.0.kind) {
            (Some(args), _) => format!("{class}({})", reprs(args)),
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
        ErrorKind::Regex => "error",
        other => other.name(),
    }
}

/// The class objects, in [`CLASSES`]' order: calling one makes an exception of its kind.
static CLASS_FUNCS: LazyLock<Vec<PackedFunc>> = LazyLock::new(|| {
    CLASSES.iter().map(|&Class { name, kind, .. }| PackedFunc::new(move |args| construct(name, kind, args))).collect()
});

/// `ValueError(x)`, `KeyError()`; the classes that group others make no exception here.
fn construct(name: &str, kind: Option<ErrorKind>, args: &[AnyView<'_>]) -> Result<AnyValue> {
    let Some(kind) = kind else {
        return Err(type_error(format!(
            "anyscript makes exceptions of the classes it raises, not of '{name}' (ValueError, KeyError, ...)"
        )));
    };
    if matches!(kind, ErrorKind::UnicodeEncode | ErrorKind::UnicodeDecode) {
        return super::unicode_errors::construct(kind, args).map(Exception::into_any);
    }
    if let (ErrorKind::Regex, [msg]) = (kind, args) {
        // `re.error(msg)`: no pattern, so no position, line or column.
        let none = AnyValue::none;
        let attributes =
            vec![("msg", msg.to_owned()), ("pattern", none()), ("pos", none()), ("lineno", none()), ("colno", none())];
        return Ok(Exception::with_attributes(kind, to_str(*msg)?, attributes).into_any());
    }
    match args {
        [] => Exception::new(kind, None).map(Exception::into_any),
        [a] => Exception::new(kind, Some(*a)).map(Exception::into_any),
        _ => Err(type_error(format!(
            "anyscript makes an exception of at most one argument, not {} ({name})",
            args.len()
        ))),
    }
}

/// The position in [`CLASSES`] of the class whose `__name__` is `name`.
fn class_index(name: &str) -> Option<usize> {
    CLASSES.iter().position(|c| c.name == name)
}

/// The position in [`CLASSES`] of the class a script names `name` (`re.error`, not `error`).
fn named_index(name: &str) -> Option<usize> {
    CLASSES.iter().position(|c| c.named == name)
}

/// Whether `name` is an exception class a script can name.
pub fn is_class_name(name: &str) -> bool {
    named_index(name).is_some()
}

/// The class object named `name`, if it is an exception class a script can name.
pub fn exception_class(name: &str) -> Option<PackedFunc> {
    Some(CLASS_FUNCS[named_index(name)?].clone())
}

/// The class object a dotted name names (`re.error`, `json.JSONDecodeError`), as a value.
pub fn dotted_class(path: &str) -> Option<PackedFunc> {
    let name = ALIASES.iter().find(|(alias, _)| *alias == path).map_or(path, |&(_, to)| to);
    if !path.contains('.') {
        return None;
    }
    exception_class(name)
}

/// The name of `f` when it is an exception class.
pub fn exception_class_name(f: &PackedFunc) -> Option<&'static str> {
    CLASS_FUNCS.iter().position(|c| c.ptr_eq(f)).map(|i| CLASSES[i].name)
}

/// The positions in [`CLASSES`] of the class named `name` and each of its bases up to
/// `BaseException`.
fn lineage(name: &str) -> impl Iterator<Item = usize> {
    std::iter::successors(class_index(name), |&i| CLASSES[i].base.and_then(class_index))
}

/// The classes `e` is an instance of: its own, then each base up to `BaseException`.
pub fn classes_of(e: &Exception) -> Vec<PackedFunc> {
    lineage(e.class_name()).map(|i| CLASS_FUNCS[i].clone()).collect()
}

/// The kind of errors `raise name(...)` raises, if scripts raise that class.
pub fn raised_kind(name: &str) -> Option<ErrorKind> {
    let class = &CLASSES[named_index(name)?];
    class.kind.filter(|_| class.raised)
}

/// The error kinds `except name:` catches, one bit each (bit `kind as u32`): the kinds whose
/// class is `name` or derives from it. `None` for a name `except` may not name.
pub fn caught_kinds(name: &str) -> Option<u32> {
    let name = ALIASES.iter().find(|(alias, _)| *alias == name).map_or(name, |&(_, to)| to);
    let class = named_index(name).filter(|&i| CLASSES[i].caught)?;
    let catches = |k: &ErrorKind| lineage(class_name(*k)).any(|i| i == class);
    Some(ErrorKind::ALL.into_iter().filter(catches).fold(0, |bits, k| bits | 1 << k as u32))
}

/// The names of the classes scripts may name (`all`), raise and catch, in [`CLASSES`]' order
/// (the catchable ones then the aliases), for the Python front end's checks and messages.
pub fn class_names() -> [Vec<&'static str>; 3] {
    let names = |keep: fn(&Class) -> bool| CLASSES.iter().filter(|c| keep(c)).map(|c| c.named).collect::<Vec<_>>();
    let mut caught = names(|c| c.caught);
    caught.extend(ALIASES.iter().map(|(alias, _)| *alias));
    [names(|_| true), names(|c| c.raised), caught]
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
/// an empty one; CPython's AttributeError for a value that is no
/// exception.
fn args_attribute(x: Value<'_>) -> Result<AnyValue> {
    if let Some(field) = super::named_tuple_ops::field(x, "args") {
        // A named tuple's field `args`.
        return Ok(field);
    }
    let Some(e) = exception_of(x) else {
        return Err(super::value_ops::no_attribute(x, "args"));
    };
    Ok(crate::Tuple::from_vec(e.args()).into())
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

    // Expected: CPython 3.11's class tree (`LookupError` catches `KeyError` and `IndexError`,
    // ...), with anyproc's own kinds caught as the class Python sees (a wrong argument count is
    // a TypeError, a duplicate name a ValueError).
    #[test]
    fn except_catches_a_class_and_its_subclasses() {
        use ErrorKind::*;
        let bits = |kinds: &[ErrorKind]| kinds.iter().fold(0u32, |acc, &k| acc | 1 << k as u32);
        let every = bits(&ErrorKind::ALL);
        let expected = [
            ("Exception", every),
            ("BaseException", every),
            ("ArithmeticError", bits(&[ZeroDivision, Overflow])),
            ("LookupError", bits(&[Index, Key, Lookup])),
            ("NameError", bits(&[Name, UnboundLocal])),
            ("TypeError", bits(&[Type, Arity])),
            ("ValueError", bits(&[Value, Duplicate, JsonDecode, UnicodeEncode, UnicodeDecode])),
            ("UnicodeError", bits(&[UnicodeEncode, UnicodeDecode])),
            ("UnicodeDecodeError", bits(&[UnicodeDecode])),
            ("JSONDecodeError", bits(&[JsonDecode])),
            ("json.JSONDecodeError", bits(&[JsonDecode])),
            ("OSError", bits(&[Io])),
            ("IOError", bits(&[Io])),
            ("KeyError", bits(&[Key])),
            ("IndexError", bits(&[Index])),
            ("UnboundLocalError", bits(&[UnboundLocal])),
            ("ZeroDivisionError", bits(&[ZeroDivision])),
            ("StopIteration", bits(&[StopIteration])),
            ("RuntimeError", bits(&[Runtime, NotImplemented, Recursion])),
            ("RecursionError", bits(&[Recursion])),
            ("NotImplementedError", bits(&[NotImplemented])),
            ("AttributeError", bits(&[Attribute])),
            ("re.error", bits(&[Regex])),
        ];
        for (name, want) in expected {
            assert_eq!(caught_kinds(name), Some(want), "{name}");
        }
        for refused in
            ["SyntaxError", "ArityError", "ParseError", "DuplicateError", "Warning", "KeyboardInterrupt", "error"]
        {
            assert_eq!(caught_kinds(refused), None, "{refused}");
        }
        assert_eq!(ErrorKind::ALL.iter().enumerate().find(|&(i, k)| *k as usize != i), None);
    }

    #[test]
    fn raise_names_the_classes_python_maps_back() {
        assert_eq!(raised_kind("KeyError"), Some(ErrorKind::Key));
        assert_eq!(raised_kind("StopIteration"), Some(ErrorKind::StopIteration));
        assert_eq!(raised_kind("SyntaxError"), Some(ErrorKind::Parse));
        assert_eq!(raised_kind("OSError"), Some(ErrorKind::Io));
        assert_eq!(raised_kind("LookupError"), Some(ErrorKind::Lookup));
        for refused in ["UnicodeError", "UnicodeDecodeError", "Exception", "ArithmeticError", "ArityError", "IOError"] {
            assert_eq!(raised_kind(refused), None, "{refused}");
        }
        let [all, raised, caught] = class_names();
        assert_eq!(raised_kind("NotImplementedError"), Some(ErrorKind::NotImplemented));
        assert_eq!((all.len(), raised.len(), caught.len()), (26, 18, 27));
        assert_eq!(raised_kind("JSONDecodeError"), None);
        assert!(caught.contains(&"IOError") && !caught.contains(&"SyntaxError"));
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
            "NotImplementedError",
            "RecursionError",
            "re.error",
        ] {
            let kind = ErrorKind::from_name(name).expect(name);
            let e = Exception::new(kind, None).unwrap();
            assert_eq!(classes_of(&e).first().and_then(exception_class_name), Some(e.class_name()), "{name}");
        }
    }
}
