//! `type(x)` and `isinstance(x, t)`. As in Python, a type is the built-in that makes its values
//! (`type(3) is int`, `type(s)(x)` converts), so `int`, `float`, `bool`, `str`, `list`, `tuple`,
//! `dict`, `set` and `bytes` are the built-in functions themselves; the types with no such
//! built-in (`NoneType`, `function`, ...) are a function each that refuses to be called.
//! `collections.Counter` and `defaultdict` are their ops, which make their values.
//!

use super::Slot;
use super::builtins::Builtin;
use super::exception_value::{classes_of, exception_class_name, exception_of};
use super::set_ops::set_of;
use super::value_ops::{type_error, vname};
use crate::container::DictKind;
use crate::error::Result;
use crate::{AnyView, FromAny, List, PackedFunc, Tuple, Value};
use std::collections::HashMap;
use std::sync::{LazyLock, Mutex};

/// The built-ins that are types, in the order `isinstance` lists a value's types (also the
/// types Python's built-ins and anyproc's share, which the Python package maps to each other).
pub const TYPE_BUILTINS: [Builtin; 11] = [
    Builtin::Bool,
    Builtin::Int,
    Builtin::Float,
    Builtin::Str,
    Builtin::List,
    Builtin::Tuple,
    Builtin::Dict,
    Builtin::Set,
    Builtin::Frozenset,
    Builtin::Bytes,
    Builtin::Bytearray,
];

/// The type objects of types that have no built-in, one per name, made when first asked for.
static OTHER_TYPES: LazyLock<Mutex<HashMap<String, PackedFunc>>> = LazyLock::new(Default::default);

/// The type object named `name` of a type with no built-in: calling it is CPython's error, but
/// for `NoneType()`, which is `None`.
fn other_type(name: &str) -> PackedFunc {
    let mut types = OTHER_TYPES.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    types
        .entry(name.to_string())
        .or_insert_with(|| match name {
            "NoneType" => PackedFunc::new(|args| match args {
                [] => Ok(crate::AnyValue::none()),
                _ => Err(type_error("NoneType takes no arguments")),
            }),
            _ => {
                let message = format!("cannot create '{name}' instances");
                PackedFunc::new(move |_| Err(type_error(message.clone())))
            }
        })
        .clone()
}

/// The dict types of `collections`, by name: their ops are their type objects, as in Python
/// (`isinstance(c, Counter)`, `type(d) is defaultdict`).
const COLLECTION_TYPES: [(&str, &str); 4] = [
    ("Counter", "collections.Counter"),
    ("defaultdict", "collections.defaultdict"),
    ("OrderedDict", "collections.OrderedDict"),
    ("deque", "collections.deque"),
];

/// The type object of a dict of `kind`, when it is one of `collections`' types.
fn collection_type(kind: &DictKind) -> Option<PackedFunc> {
    let op = match kind {
        DictKind::Plain => return None,
        DictKind::Counter => COLLECTION_TYPES[0].1,
        DictKind::Default(_) => COLLECTION_TYPES[1].1,
        DictKind::Ordered => COLLECTION_TYPES[2].1,
    };
    crate::func::registry().get(op).ok()
}

/// The name of `f` when it is one of `collections`' types.
fn collection_type_name(f: &PackedFunc) -> Option<&'static str> {
    let reg = crate::func::registry();
    COLLECTION_TYPES.iter().find(|(_, op)| reg.get(op).is_ok_and(|t| t.ptr_eq(f))).map(|(name, _)| *name)
}

/// Whether `f` is a type object (a type built-in, one of `collections`', or one made by
/// [`other_type`]).
fn is_type(f: &PackedFunc) -> bool {
    TYPE_BUILTINS.iter().any(|b| b.as_func().ptr_eq(f))
        || collection_type_name(f).is_some()
        || exception_class_name(f).is_some()
        || crate::container::NamedTupleClass::of_func(f).is_some()
        || OTHER_TYPES.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).values().any(|t| t.ptr_eq(f))
}

/// `type(x)`: the type object of `x`.
pub(crate) fn type_of(x: Value<'_>) -> PackedFunc {
    let builtin = match x {
        Value::Bool(_) => Builtin::Bool,
        Value::Int(_) => Builtin::Int,
        Value::Float(_) => Builtin::Float,
        Value::Str(_) | Value::UStr(_) => Builtin::Str,
        Value::Bytes(_) => Builtin::Bytes,
        _ if let Some(class) = super::named_tuple_ops::class_of(x) => return class.func(),
        _ if super::bytearray_ops::byte_array_of(x).is_some() => Builtin::Bytearray,
        _ if Tuple::from_value(x).is_some() => Builtin::Tuple,
        _ if List::from_value(x).is_some() => Builtin::List,
        _ if let Some(d) = crate::Dict::from_value(x) => match collection_type(d.kind()) {
            Some(t) => return t,
            None => Builtin::Dict,
        },
        _ if let Some(s) = set_of(x) => match s.is_frozen() {
            true => Builtin::Frozenset,
            false => Builtin::Set,
        },
        _ if super::deque_ops::deque_of(x).is_some() => {
            return crate::func::registry().get(COLLECTION_TYPES[3].1).unwrap_or_else(|_| other_type("deque"));
        }
        _ if let Some(e) = exception_of(x) => {
            // Its own class comes first (every kind has one).
            return classes_of(&e).into_iter().next().unwrap_or_else(|| other_type(e.class_name()));
        }
        _ => return other_type(&vname(x)),
    };
    builtin.as_func()
}

/// The types `x` is an instance of: its own, `int` for a bool, and `dict` for `collections`'.
fn types_of(x: Value<'_>) -> Vec<PackedFunc> {
    if let Some(e) = exception_of(x) {
        return classes_of(&e);
    }
    let own = type_of(x);
    let mut types = vec![own.clone()];
    if own.ptr_eq(&Builtin::Bool.as_func()) {
        types.push(Builtin::Int.as_func());
    }
    if collection_type_name(&own).is_some() && crate::Dict::from_value(x).is_some() {
        types.push(Builtin::Dict.as_func());
    }
    if super::named_tuple_ops::class_of(x).is_some() {
        types.push(Builtin::Tuple.as_func());
    }
    types
}

/// `x.__name__`: the name of a type (`type(x).__name__`) or of a built-in function; CPython's
/// AttributeError (a TypeError in anyscript) for a value that has no `__name__`, and an error
/// saying so for a function of the program, whose name anyscript does not keep.
pub(crate) fn name_attribute(x: Value<'_>) -> Result<Slot> {
    let Some(f) = PackedFunc::from_value(x) else {
        return Err(super::value_ops::no_attribute(x, "__name__"));
    };
    match known_function(&f) {
        Some(KnownFunction::Builtin(b)) => Ok(Slot::from_text(b.name())),
        Some(KnownFunction::Collection(name)) => Ok(Slot::from_text(name)),
        Some(KnownFunction::Other(name)) => Ok(Slot::from_text(&name)),
        Some(KnownFunction::Exception(name)) => Ok(Slot::from_text(name)),
        Some(KnownFunction::NamedTuple(name)) => Ok(Slot::from_text(&name)),
        None => Err(type_error("__name__ is known only of types and built-in functions in anyscript")),
    }
}

/// Python's repr of a built-in function or a type given as a value (`<class 'int'>`,
/// `<built-in function len>`, `<class 'collections.Counter'>`), when `x` is one.
pub(crate) fn function_repr(x: Value<'_>) -> Option<String> {
    Some(match known_function(&PackedFunc::from_value(x)?)? {
        KnownFunction::Builtin(b) => b.repr(),
        KnownFunction::Collection(name) => format!("<class 'collections.{name}'>"),
        KnownFunction::Other(name) => format!("<class '{name}'>"),
        KnownFunction::Exception(name) => format!("<class '{name}'>"),
        // CPython names the module that made the class too, which anyscript does not keep.
        KnownFunction::NamedTuple(name) => format!("<class '{name}'>"),
    })
}

/// What a function value that anyscript names is.
enum KnownFunction {
    /// A built-in (a type among them).
    Builtin(Builtin),
    /// One of `collections`' types, by name.
    Collection(&'static str),
    /// The type object of a type with no built-in ([`other_type`]), by name.
    Other(String),
    /// An exception class, by name.
    Exception(&'static str),
    /// A `collections.namedtuple` class, by name.
    NamedTuple(String),
}

/// Which built-in or type `f` is, if anyscript names it.
fn known_function(f: &PackedFunc) -> Option<KnownFunction> {
    if let Some(b) = Builtin::of_func(f) {
        return Some(KnownFunction::Builtin(b));
    }
    if let Some(name) = collection_type_name(f) {
        return Some(KnownFunction::Collection(name));
    }
    if let Some(name) = exception_class_name(f) {
        return Some(KnownFunction::Exception(name));
    }
    if let Some(class) = crate::container::NamedTupleClass::of_func(f) {
        return Some(KnownFunction::NamedTuple(class.name.clone()));
    }
    let types = OTHER_TYPES.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    types.iter().find(|(_, t)| t.ptr_eq(f)).map(|(name, _)| KnownFunction::Other(name.clone()))
}

/// [`name_attribute`] as a function value, which `x.__name__` compiles to a call of.
pub(crate) fn name_attribute_func() -> PackedFunc {
    static FUNC: LazyLock<PackedFunc> =
        LazyLock::new(|| PackedFunc::new(|args| name_attribute(args[0].value()).map(Slot::resize)));
    FUNC.clone()
}

/// `isinstance(x, t)`: `t` a type or a tuple of types, nested or not.
pub(crate) fn isinstance(x: AnyView<'_>, t: AnyView<'_>) -> Result<Slot> {
    let types = types_of(x.value());
    matches_any(&types, t.value(), 0).map(Slot::from_bool)
}

fn matches_any(types: &[PackedFunc], t: Value<'_>, depth: usize) -> Result<bool> {
    if let Some(f) = PackedFunc::from_value(t).filter(is_type) {
        return Ok(types.iter().any(|own| own.ptr_eq(&f)));
    }
    match Tuple::from_value(t) {
        // CPython recurses into nested tuples, and stops where its recursion limit does.
        Some(items) if depth < crate::object::MAX_DEPTH => {
            for item in items.to_vec() {
                if matches_any(types, item.value(), depth + 1)? {
                    return Ok(true);
                }
            }
            Ok(false)
        }
        _ => Err(type_error("isinstance() arg 2 must be a type, a tuple of types, or a union")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::AnyValue;

    fn isa(x: impl Into<AnyValue>, t: impl Into<AnyValue>) -> Result<bool> {
        let (x, t) = (x.into(), t.into());
        isinstance(x.view(), t.view()).map(|s| matches!(s.value(), Value::Bool(true)))
    }

    #[test]
    fn values_are_instances_of_their_types_and_bases() {
        let f = |b: Builtin| b.as_func();
        assert!(isa(3i64, f(Builtin::Int)).unwrap());
        assert!(isa(true, f(Builtin::Int)).unwrap());
        assert!(!isa(3i64, f(Builtin::Bool)).unwrap());
        assert!(isa("é", f(Builtin::Str)).unwrap());
        assert!(!isa(1.5, f(Builtin::Int)).unwrap());
        let choices =
            Tuple::from_vec(vec![f(Builtin::Dict).into(), Tuple::from_vec(vec![f(Builtin::Float).into()]).into()]);
        assert!(isa(1.5, choices.clone()).unwrap());
        assert!(!isa("x", choices).unwrap());
        // A tuple is a tuple, and a list is not one; a list of types is no second argument.
        assert!(isa(Tuple::from_vec(vec![]), f(Builtin::Tuple)).unwrap());
        assert!(!isa(List::new(), f(Builtin::Tuple)).unwrap());
        assert!(isa(1.5, List::from_vec(vec![f(Builtin::Float).into()])).is_err());
        assert!(isa(AnyValue::none(), type_of(Value::None)).unwrap());
        assert!(!isa(0i64, type_of(Value::None)).unwrap());
    }

    #[test]
    fn names_of_types_and_built_ins() {
        let name = |x: Value<'_>| name_attribute(x).map(|s| s.to_string()).map_err(|e| e.message().to_string());
        let of = |v: AnyValue| name(type_of(v.value()).into_any().value());
        assert_eq!(of(AnyValue::from_int(3)), Ok("int".into()));
        assert_eq!(of(Tuple::from_vec(vec![]).into_any()), Ok("tuple".into()));
        assert_eq!(of(AnyValue::none()), Ok("NoneType".into()));
        assert_eq!(name(Builtin::Len.as_func().into_any().value()), Ok("len".into()));
        assert_eq!(name(Value::Int(3)), Err("'int' object has no attribute '__name__'".into()));
    }

    #[test]
    fn a_second_argument_that_is_no_type_is_a_type_error() {
        let err = isa(1i64, Builtin::Len.as_func()).unwrap_err();
        assert_eq!(err.message(), "isinstance() arg 2 must be a type, a tuple of types, or a union");
        assert!(isa(1i64, 5i64).is_err());
        let none_type = type_of(Value::None);
        assert!(none_type.call(&[]).unwrap().is_none());
        assert_eq!(none_type.call(&[AnyView::from(1i64)]).unwrap_err().message(), "NoneType takes no arguments");
        assert!(type_of(Value::Int(1)).ptr_eq(&Builtin::Int.as_func()));
    }
}
