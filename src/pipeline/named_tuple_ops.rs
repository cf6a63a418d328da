//! Python's `collections.namedtuple` in anyscript: the class factory (its validation of names,
//! `rename=` and `defaults=`, with CPython 3.11's messages), the class as a function that makes
//! instances by position or by name, and what an instance adds to a tuple: its fields as
//! attributes, `_fields`, `_field_defaults`, `_asdict()`, `_replace(**kw)` and `_make()`. The
//! instance is a [`Tuple`] pointing to its [`NamedTupleClass`], so everything a tuple does it
//! does (indexing, unpacking, `==`, hashing, sorting).

use super::binding::{Params, Source, bind};
use super::shaped_binding::ResolvedArgs;
use super::value_ops::{Text, iter_items, no_attribute, repr_value, to_str, type_error, value_error};
use crate::container::{NamedTupleClass, TupleObj};
use crate::func::CallArgs;
use crate::{AnyValue, AnyView, Dict, FromAny, PackedFunc, Result, Tuple, Value};
use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};

/// The attributes every named tuple has besides its fields (and a tuple's methods).
pub const OWN_ATTRIBUTES: [&str; 5] = ["_fields", "_field_defaults", "_asdict", "_replace", "_make"];

/// The class of the named tuple `v`, if it is one.
pub fn class_of(v: Value<'_>) -> Option<&Arc<NamedTupleClass>> {
    v.as_obj().and_then(|o| o.downcast_ref::<TupleObj>()).and_then(TupleObj::named_class)
}

/// `collections.namedtuple(typename, field_names, rename=False, defaults=None, module=None)`,
/// its arguments bound by position (`ops/params.rs` binds keywords).
pub fn new_namedtuple(args: &[AnyView<'_>]) -> Result<AnyValue> {
    let arg = |i: usize| args.get(i).map(AnyView::value).unwrap_or(Value::None);
    if args.len() < 2 {
        return Err(type_error("namedtuple() missing required argument"));
    }
    let rename = args.get(2).is_some_and(|a| super::value_ops::truthy(*a));
    let defaults = match arg(3) {
        Value::None => None,
        d => Some(d),
    };
    Ok(AnyValue::from(namedtuple(args[0], arg(1), rename, defaults)?.func()))
}

/// The class `namedtuple(typename, field_names, rename=rename, defaults=defaults)` makes, checked
/// as CPython's `collections.namedtuple` checks it (the defaults, any iterable, are read after
/// the names are checked).
pub fn namedtuple(
    typename: AnyView<'_>,
    field_names: Value<'_>,
    rename: bool,
    defaults: Option<Value<'_>>,
) -> Result<Arc<NamedTupleClass>> {
    // `field_names.replace(',', ' ').split()` for a str, `list(map(str, field_names))` else.
    let mut fields: Vec<String> = match Text::of(field_names) {
        Some(t) => {
            let spaced = t.as_str().replace(',', " ");
            spaced.split(super::methods::is_space).filter(|w| !w.is_empty()).map(str::to_string).collect()
        }
        None => iter_items(field_names)?.iter().map(|f| to_str(f.view())).collect::<Result<_>>()?,
    };
    let name = to_str(typename)?;
    if rename {
        let mut seen: Vec<String> = Vec::new();
        for (i, field) in fields.iter_mut().enumerate() {
            let bad = !is_identifier(field) || crate::pipeline::lexer::is_keyword(field) || field.starts_with('_');
            let original = std::mem::take(field);
            *field = if bad || seen.contains(&original) { format!("_{i}") } else { original.clone() };
            seen.push(original);
        }
    }
    for n in std::iter::once(&name).chain(&fields) {
        if !is_identifier(n) {
            return Err(value_error(format!("Type names and field names must be valid identifiers: {}", quoted(n))));
        }
        if crate::pipeline::lexer::is_keyword(n) {
            return Err(value_error(format!("Type names and field names cannot be a keyword: {}", quoted(n))));
        }
    }
    for (i, field) in fields.iter().enumerate() {
        if field.starts_with('_') && !rename {
            return Err(value_error(format!("Field names cannot start with an underscore: {}", quoted(field))));
        }
        if fields[..i].contains(field) {
            return Err(value_error(format!("Encountered duplicate field name: {}", quoted(field))));
        }
    }
    let defaults = defaults.map(iter_items).transpose()?.unwrap_or_default();
    if defaults.len() > fields.len() {
        return Err(type_error("Got more default values than field names"));
    }
    // A default that is an object (a list, say) is that object: two classes made with equal
    // but distinct lists are two classes, as in CPython, and do not share one list.
    let key: Vec<String> = defaults
        .iter()
        .map(|d| match d.value() {
            Value::Object(o) if !super::value_ops::is_tuple(d.value()) => format!("@{:p}", o.as_raw().as_ptr()),
            v => repr_value(v),
        })
        .collect();
    Ok(NamedTupleClass::intern(&name, fields, defaults, &key.join("\0"), |class| {
        PackedFunc::with_keywords(class, construct_positional, construct_keywords)
    }))
}

/// Whether `name` is a Python identifier.
fn is_identifier(name: &str) -> bool {
    crate::pipeline::methods::is_identifier(Text::Utf8(name))
}

/// `name` as Python's repr writes a str.
fn quoted(name: &str) -> String {
    repr_value(AnyValue::from_text(name).value())
}

/// `Point(1, 2)`: the fast path of a call with one argument per field.
fn construct_positional(class: &Arc<NamedTupleClass>, args: &[AnyView<'_>]) -> Result<AnyValue> {
    if args.len() == class.fields.len() {
        return Ok(Tuple::named(class.clone(), args.iter().map(|a| a.to_owned()).collect()).into_any());
    }
    construct(class, args.iter().map(|a| a.to_owned()).collect(), Vec::new(), Vec::new())
}

/// `Point(1, y=2)`, `Point(*xs)`, `Point(**d)`.
fn construct_keywords(class: &Arc<NamedTupleClass>, args: &CallArgs<'_>) -> Result<AnyValue> {
    let resolved = ResolvedArgs::of(&constructor_name(class), args)?;
    construct(class, resolved.positional, resolved.names, resolved.values)
}

/// How CPython names the constructor in its errors (`Point.__new__`).
fn constructor_name(class: &NamedTupleClass) -> String {
    format!("{}.__new__", class.name)
}

/// An instance of `class` of the arguments, bound as CPython binds `__new__(_cls, x, y=...)`.
fn construct(
    class: &Arc<NamedTupleClass>,
    positional: Vec<AnyValue>,
    names: Vec<String>,
    values: Vec<AnyValue>,
) -> Result<AnyValue> {
    let name = constructor_name(class);
    // `_cls` comes first, as in CPython's `__new__`, so that its counts are CPython's.
    let params: Vec<&str> = std::iter::once("_cls").chain(class.fields.iter().map(String::as_str)).collect();
    let keywords: Vec<&str> = names.iter().map(String::as_str).collect();
    let spec = Params {
        name: &name,
        names: &params,
        positional: params.len(),
        n_defaults: class.defaults.len(),
        builtin: false,
    };
    let sources = bind(&spec, positional.len() + 1, &keywords)?;
    let first_default = class.fields.len() - class.defaults.len();
    let items = sources[1..]
        .iter()
        .map(|source| match *source {
            Source::Positional(i) => positional[i - 1].clone(),
            Source::Keyword(k) => values[k].clone(),
            Source::Default(i) => class.defaults[i - 1 - first_default].clone(),
        })
        .collect();
    Ok(Tuple::named(class.clone(), items).into_any())
}

/// `x.attr` where `x` is a named tuple or a named-tuple class: a field, or one of
/// [`OWN_ATTRIBUTES`]; `None` when `x` is neither.
pub(crate) fn attribute(view: AnyView<'_>, attr: &str) -> Option<Result<AnyValue>> {
    let x = view.value();
    let (class, instance) = match class_of(x) {
        Some(class) => (class.clone(), Some(view.to_owned())),
        None => (PackedFunc::from_value(x).and_then(|f| NamedTupleClass::of_func(&f))?, None),
    };
    Some(match (attr, &instance) {
        ("_fields", _) => Ok(fields_tuple(&class)),
        ("_field_defaults", _) => field_defaults(&class),
        ("_make", _) => Ok(AnyValue::from(PackedFunc::with_keywords(class, make, make_keywords))),
        ("_asdict", Some(me)) => {
            let me = me.clone();
            Ok(AnyValue::from(PackedFunc::new(move |args| as_dict(&class, &me, args))))
        }
        ("_replace", Some(me)) => {
            let state = (class, me.clone());
            Ok(AnyValue::from(PackedFunc::with_keywords(state, replace_positional, replace_keywords)))
        }
        (name, Some(me)) if let Some(value) = field(me.value(), name) => Ok(value),
        _ => Err(no_attribute(x, attr)),
    })
}

/// Field `name` of the named tuple `x`, if it is one with such a field.
pub(crate) fn field(x: Value<'_>, name: &str) -> Option<AnyValue> {
    let i = class_of(x)?.field_index(name)?;
    Tuple::from_value(x)?.with_items(|xs| xs.get(i).cloned())
}

/// `Point._fields`: the field names.
fn fields_tuple(class: &NamedTupleClass) -> AnyValue {
    Tuple::from_vec(class.fields.iter().map(|f| AnyValue::from_text(f)).collect()).into_any()
}

/// `Point._field_defaults`: each field with a default, mapped to it.
fn field_defaults(class: &NamedTupleClass) -> Result<AnyValue> {
    let mut d = Dict::new();
    let first = class.fields.len() - class.defaults.len();
    for (field, value) in class.fields[first..].iter().zip(&class.defaults) {
        d.try_set(AnyValue::from_text(field), value.clone(), "_field_defaults")?;
    }
    Ok(d.into_any())
}

/// `p._asdict()`: a dict of the fields and values.
fn as_dict(class: &NamedTupleClass, me: &AnyValue, args: &[AnyView<'_>]) -> Result<AnyValue> {
    if !args.is_empty() {
        let n = args.len() + 1;
        return Err(type_error(format!("{}._asdict() takes 1 positional argument but {n} were given", class.name)));
    }
    let mut d = Dict::new();
    let items = Tuple::from_value(me.value()).map(|t| t.to_vec()).unwrap_or_default();
    for (field, value) in class.fields.iter().zip(items) {
        d.try_set(AnyValue::from_text(field), value, "_asdict")?;
    }
    Ok(d.into_any())
}

/// `Point._make(iterable)`.
fn make(class: &Arc<NamedTupleClass>, args: &[AnyView<'_>]) -> Result<AnyValue> {
    let [iterable] = args else {
        let message = match args.len() {
            0 => format!("{}._make() missing 1 required positional argument: 'iterable'", class.name),
            n => format!("{}._make() takes 2 positional arguments but {} were given", class.name, n + 1),
        };
        return Err(type_error(message));
    };
    let items = iter_items(iterable.value())?;
    if items.len() != class.fields.len() {
        let (want, got) = (class.fields.len(), items.len());
        return Err(type_error(format!("Expected {want} arguments, got {got}")));
    }
    Ok(Tuple::named(class.clone(), items).into_any())
}

/// `Point._make(iterable=...)`: keywords resolved, then as [`make`].
fn make_keywords(class: &Arc<NamedTupleClass>, args: &CallArgs<'_>) -> Result<AnyValue> {
    let resolved = ResolvedArgs::of(&format!("{}._make", class.name), args)?;
    let mut positional = resolved.positional;
    for (name, value) in resolved.names.iter().zip(resolved.values) {
        if name != "iterable" || !positional.is_empty() {
            let message = format!("{}._make() got an unexpected keyword argument '{name}'", class.name);
            return Err(type_error(message));
        }
        positional.push(value);
    }
    let views: Vec<AnyView<'_>> = positional.iter().map(AnyValue::view).collect();
    make(class, &views)
}

/// `p._replace()` with no arguments: a copy.
fn replace_positional(state: &(Arc<NamedTupleClass>, AnyValue), args: &[AnyView<'_>]) -> Result<AnyValue> {
    let (class, me) = state;
    if !args.is_empty() {
        let n = args.len() + 1;
        return Err(type_error(format!("{}._replace() takes 1 positional argument but {n} were given", class.name)));
    }
    let items = Tuple::from_value(me.value()).map(|t| t.to_vec()).unwrap_or_default();
    Ok(Tuple::named(class.clone(), items).into_any())
}

/// `p._replace(x=1)`: a copy with the named fields changed, or CPython's `ValueError` naming
/// the fields it does not have.
fn replace_keywords(state: &(Arc<NamedTupleClass>, AnyValue), args: &CallArgs<'_>) -> Result<AnyValue> {
    let (class, me) = state;
    let resolved = ResolvedArgs::of(&format!("{}._replace", class.name), args)?;
    if !resolved.positional.is_empty() {
        let n = resolved.positional.len() + 1;
        return Err(type_error(format!("{}._replace() takes 1 positional argument but {n} were given", class.name)));
    }
    let mut items = Tuple::from_value(me.value()).map(|t| t.to_vec()).unwrap_or_default();
    let mut unknown = Vec::new();
    for (name, value) in resolved.names.iter().zip(resolved.values) {
        match class.field_index(name) {
            Some(i) => items[i] = value,
            None => unknown.push(name.clone()),
        }
    }
    if !unknown.is_empty() {
        let names: Vec<String> = unknown.iter().map(|n| quoted(n)).collect();
        return Err(value_error(format!("Got unexpected field names: [{}]", names.join(", "))));
    }
    Ok(Tuple::named(class.clone(), items).into_any())
}

/// The reader of attribute `attr` of a named tuple (or its class) as a function of one argument
/// (a method of that name bound to any other value); one per name, so that the compiled
/// program holds it as a constant.
pub(crate) fn attribute_reader(attr: &str) -> PackedFunc {
    static READERS: LazyLock<Mutex<HashMap<String, PackedFunc>>> = LazyLock::new(Default::default);
    let mut readers = READERS.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    readers
        .entry(attr.to_string())
        .or_insert_with(|| {
            let attr = attr.to_string();
            // A name that is also a method (`title`, `count`) is the method bound to anything
            // but a named tuple that has such a field.
            let method = super::methods::Method::from_name(&attr);
            PackedFunc::new(move |args| match (attribute(args[0], &attr), method) {
                (Some(found), _) => found,
                (None, Some(m)) => super::methods::bind_method_func(m).call(&[args[0]]),
                (None, None) => Err(missing_attribute(args[0].value(), &attr)),
            })
        })
        .clone()
}

/// The error for `x.attr` that no reader answers: CPython's `AttributeError`, but for an
/// exception or a generator, whose CPython types have attributes anyscript does not keep
/// (`StopIteration.value`, `gi_running`): for those it says anyscript does not read them.
fn missing_attribute(x: Value<'_>, attr: &str) -> crate::Error {
    let kept_elsewhere =
        super::exception_value::exception_of(x).is_some() || super::generator::generator_of(x).is_some();
    if kept_elsewhere {
        let kind = super::value_ops::vname(x);
        return type_error(format!("anyscript does not read the attribute '{attr}' of '{kind}' objects"));
    }
    no_attribute(x, attr)
}

/// Whether anyscript compiles `x.attr` to [`attribute_reader`]: a name that may be a named
/// tuple's field or one of [`OWN_ATTRIBUTES`], and no data attribute of another built-in type
/// anyscript lacks (a number's `real`, a dunder name), which stays a compile error.
pub(crate) fn may_be_field(attr: &str) -> bool {
    const OTHER_TYPES: [&str; 6] = ["real", "imag", "numerator", "denominator", "stop", "step"];
    OWN_ATTRIBUTES.contains(&attr)
        || (is_identifier(attr)
            && !attr.starts_with('_')
            && !crate::pipeline::lexer::is_keyword(attr)
            && !OTHER_TYPES.contains(&attr))
}

#[cfg(test)]
mod tests {
    // Expected values: CPython 3.11's output for the same statements.
    use crate::pipeline::test_values::run_main as run;

    #[test]
    fn a_named_tuple_is_a_tuple_with_fields() {
        let make = "P = collections.namedtuple('P', 'x y', defaults=[0])\n";
        let cases = [
            ("return repr((P(1, y=2), P(1), P(1, 2).y, P._fields))", "(P(x=1, y=2), P(x=1, y=0), 2, ('x', 'y'))"),
            (
                "p = P(3, 4)\na, b = p\nreturn repr((a + b, p == (3, 4), p[1], p._replace(x=0), p._asdict()))",
                "(7, True, 4, P(x=0, y=4), {'x': 3, 'y': 4})",
            ),
            ("return repr((type(P(1)).__name__, isinstance(P(1), tuple), P(1) + (2,)))", "('P', True, (1, 0, 2))"),
        ];
        for (body, want) in cases {
            assert_eq!(run(&format!("{make}{body}")), want, "{body}");
        }
        assert_eq!(
            run(&format!("{make}return repr(P())")),
            "Type: P.__new__() missing 1 required positional argument: 'x'"
        );
        assert_eq!(run(&format!("{make}return repr(P(1).z)")), "Attribute: 'P' object has no attribute 'z'");
        assert_eq!(
            run("return repr(collections.namedtuple('P', 'a a'))"),
            "Value: Encountered duplicate field name: 'a'"
        );
    }
}
