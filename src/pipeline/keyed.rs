//! The operations laid out as a list of operands, out of the interpreter's hot path: the calls
//! whose keyword-only arguments anyscript takes (`sorted(xs, key=f, reverse=True)`,
//! `xs.sort(key=f, reverse=True)`, `min`/`max(..., key=f, default=d)`,
//! `s.format(*args, **kwargs)`, `print`), calls with `*args`, the steps of displays with
//! unpacking and slice stores, with CPython 3.11's results (stable sorts, the first of equal
//! extremes) and errors.

use super::Slot;
use super::format::{FormatArgs, str_format_with};
use super::methods::{Method, check_method};
use super::slice_store::{del_slice, set_slice};
use super::unpacking::{Display, unpack_into};
use super::value_ops::{
    Text, c_int_arg, callable, iter_items, list_of, py_gt, py_lt, sort_by_python_lt, text_slot, type_error, value_error,
};
use crate::{AnyValue, AnyView, List, PackedFunc, Result, Value};

/// A call with keyword-only arguments; each variant lists its operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Keyed {
    /// `sorted(iterable, key=, reverse=)`: operands `iterable, key, reverse`.
    Sorted,
    /// `list.sort(key=, reverse=)`: operands `list, key, reverse`.
    Sort,
    /// `min(...)` or `max(...)` with `key=` or `default=`: operands `key, default, args...`
    /// (`default` is None when the call has none).
    Extreme {
        /// `max` rather than `min`.
        max: bool,
        /// Whether the call passes `default=`.
        has_default: bool,
    },
    /// `str.format(*args, **kwargs)`: operands `str, kwargs (a dict), args...`.
    Format,
    /// `print(*args, sep=, end=, flush=)`: operands `sep, end, flush, args...` (None when not
    /// given); the args whose bit is set in `starred` are `*iterable`s.
    Print {
        /// One bit per arg, set for a `*iterable` one.
        starred: u16,
    },
    /// A call with `*iterable` arguments: operands `label, receiver, callee, args...` (the
    /// callee's name as the call writes it, and the object of a method call or None, for messages).
    Spread {
        /// One bit per arg, set for a `*iterable` one.
        starred: u16,
    },
    /// A call of a function value with keyword arguments: operands `label, callee, names (a
    /// str, joined by commas; `**` for a mapping), the keywords' values, the positional
    /// arguments`.
    Named {
        /// One bit per positional argument, set for a `*iterable` one.
        starred: u16,
    },
    /// `*value` (`**value` for a dict) in a display: operands `container, value`.
    Unpack {
        /// The container the display builds.
        into: Display,
    },
    /// `obj[lower:upper:step] = value`: operands `obj, lower, upper, step, value`.
    SetSlice,
    /// `del obj[lower:upper:step]`: operands `obj, lower, upper, step`.
    DelSlice,
}

impl Keyed {
    /// The call as written in source, for listings.
    pub fn name(self) -> &'static str {
        match self {
            Keyed::Sorted => "sorted",
            Keyed::Sort => "list.sort",
            Keyed::Extreme { max: true, .. } => "max",
            Keyed::Extreme { max: false, .. } => "min",
            Keyed::Format => "str.format",
            Keyed::Print { .. } => "print",
            Keyed::Spread { .. } | Keyed::Named { .. } => "call",
            Keyed::Unpack { into: Display::Dict } => "dict.unpack",
            Keyed::Unpack { into: Display::List } => "list.unpack",
            Keyed::SetSlice => "store_slice",
            Keyed::DelSlice => "delete_slice",
        }
    }
}

/// Runs `call` on its operands `args`.
pub fn call_keyed(call: Keyed, args: &[AnyView<'_>]) -> Result<Slot> {
    match (call, args) {
        (Keyed::Sorted, [iterable, key, reverse]) => {
            let reverse = c_int_arg(reverse)? != 0;
            let mut items = iter_items(iterable.value())?;
            sort_keyed(&mut items, *key, reverse)?;
            Ok(List::from_vec(items).into())
        }
        (Keyed::Sort, [list, key, reverse]) => {
            check_method(Method::Sort, *list)?;
            let mut l = list_of(list.value()).expect("checked to be a list");
            let reverse = c_int_arg(reverse)? != 0;
            // A failed comparison leaves the list as far as the sort got, as CPython's does.
            // CPython empties the list while it sorts: a key function sees it empty, and one that
            // adds to it fails the sort ("list modified during sort"), its additions dropped.
            let mut items = l.to_vec();
            l.clear();
            let sorted = sort_keyed(&mut items, *key, reverse);
            let modified = !l.is_empty();
            l.clear();
            l.extend(items);
            sorted?;
            if modified {
                return Err(crate::Error::value("list modified during sort"));
            }
            Ok(Slot::default())
        }
        (Keyed::Extreme { max, has_default }, [key, default, rest @ ..]) => {
            extreme(max, *key, has_default.then_some(*default), rest)
        }
        (Keyed::Format, [text, kwargs, positional @ ..]) => {
            check_method(Method::Format, *text)?;
            let t = Text::of(text.value()).expect("checked to be a str");
            let args = FormatArgs { positional, named: Some(*kwargs), map_only: false };
            Ok(text_slot(&str_format_with(t, args)?, t.is_ucs4()))
        }
        // `flush=` is taken and not used: each call writes its text at once.
        (Keyed::Print { starred: 0 }, [sep, end, _flush, values @ ..]) => {
            super::print::print_values(values, *sep, *end)
        }
        (Keyed::Print { starred }, [sep, end, _flush, values @ ..]) => {
            let values = super::spread::spread_args("print", values, starred)?;
            let views: Vec<AnyView<'_>> = values.iter().map(AnyValue::view).collect();
            super::print::print_values(&views, *sep, *end)
        }
        (Keyed::Spread { starred }, [label, receiver, callee, values @ ..]) => {
            super::spread::call_spread(*label, *receiver, *callee, values, starred)
        }
        (Keyed::Named { starred }, [label, callee, names, values @ ..]) => {
            super::spread::call_named(*label, *callee, *names, values, starred)
        }
        (Keyed::Unpack { into }, [container, value]) => unpack_into(into, *container, *value).map(|()| Slot::default()),
        (Keyed::SetSlice, [obj, lower, upper, step, value]) => {
            set_slice(*obj, *lower, *upper, *step, *value).map(|()| Slot::default())
        }
        (Keyed::DelSlice, [obj, lower, upper, step]) => {
            del_slice(*obj, *lower, *upper, *step).map(|()| Slot::default())
        }
        _ => Err(type_error(format!("{}() got {} operands", call.name(), args.len()))),
    }
}

/// The key function `key` (None: the items are their own keys); an error unless callable,
/// which CPython raises at the first call: only when there is an item.
fn key_function(key: AnyView<'_>) -> Result<Option<PackedFunc>> {
    if matches!(key.value(), Value::None) {
        return Ok(None);
    }
    callable(key.value()).map(Some)
}

/// The key of each of `items` (a copy of each when there is no key function).
fn keys_of(items: &[AnyValue], key: AnyView<'_>) -> Result<Vec<AnyValue>> {
    if items.is_empty() {
        return Ok(Vec::new());
    }
    match key_function(key)? {
        None => Ok(items.to_vec()),
        Some(f) => items.iter().map(|x| f.call(&[x.view()])).collect(),
    }
}

/// Sorts `items` by their keys, stable, as `list.sort(key=, reverse=)` does (`reverse` keeps
/// equal items in their order); a failing key function leaves `items` as they were, a failed
/// comparison as far as the sort got, as in CPython.
pub(crate) fn sort_keyed(items: &mut Vec<AnyValue>, key: AnyView<'_>, reverse: bool) -> Result<()> {
    let keys = keys_of(items, key)?;
    let mut pairs: Vec<(AnyValue, AnyValue)> = keys.into_iter().zip(items.drain(..)).collect();
    let sorted = sort_by_python_lt(&mut pairs, |(key, _)| key.value(), reverse);
    items.extend(pairs.into_iter().map(|(_, x)| x));
    sorted
}

/// `min`/`max` of `args` (one iterable, or several values) by `key`, the first of equal ones.
pub(crate) fn extreme(max: bool, key: AnyView<'_>, default: Option<AnyView<'_>>, args: &[AnyView<'_>]) -> Result<Slot> {
    let name = if max { "max" } else { "min" };
    let items = match args {
        [one] => iter_items(one.value())?,
        _ if default.is_some() => {
            return Err(type_error(format!(
                "Cannot specify a default for {name}() with multiple positional arguments"
            )));
        }
        _ => args.iter().map(|a| a.to_owned::<0>()).collect(),
    };
    let key = if items.is_empty() { None } else { key_function(key)? };
    let mut best: Option<(AnyValue, &AnyValue)> = None;
    for x in &items {
        let k = match &key {
            Some(f) => f.call(&[x.view()])?,
            None => x.clone(),
        };
        let better = match &best {
            None => true,
            Some((best_key, _)) if max => py_gt(k.value(), best_key.value())?,
            Some((best_key, _)) => py_lt(k.value(), best_key.value())?,
        };
        if better {
            best = Some((k, x));
        }
    }
    match (best, default) {
        (Some((_, x)), _) => Ok(x.clone().into()),
        (None, Some(d)) => Ok(d.to_owned()),
        (None, None) => Err(value_error(format!("{name}() arg is an empty sequence"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::builtins::Builtin;
    use crate::pipeline::test_values::*;
    use crate::pipeline::value_ops::repr_value;

    /// `repr` of the call's result, or its error's message.
    fn run(call: Keyed, args: &[Slot]) -> String {
        let views: Vec<_> = args.iter().map(|a| a.view()).collect();
        call_keyed(call, &views).map_or_else(|e| e.message().to_string(), |v| repr_value(v.value()))
    }

    fn func(b: Builtin) -> Slot {
        Slot::from(b.as_func())
    }

    fn words() -> Slot {
        list(vec![s("bb"), s("a"), s("ccc"), s("dd"), s("e")])
    }

    // Expected values are CPython 3.11's for the same calls.
    #[test]
    fn sorted_is_stable_by_key_both_ways() {
        assert_eq!(run(Keyed::Sorted, &[words(), func(Builtin::Len), b(false)]), "['a', 'e', 'bb', 'dd', 'ccc']");
        // reverse=True keeps equal keys in their order: CPython reverses, sorts, reverses back.
        assert_eq!(run(Keyed::Sorted, &[words(), func(Builtin::Len), b(true)]), "['ccc', 'bb', 'dd', 'a', 'e']");
        assert_eq!(run(Keyed::Sorted, &[words(), none(), i(2)]), "['e', 'dd', 'ccc', 'bb', 'a']");
        assert_eq!(run(Keyed::Sorted, &[list(vec![]), i(3), b(false)]), "[]");
        assert_eq!(run(Keyed::Sorted, &[words(), i(3), b(false)]), "'int' object is not callable");
        assert_eq!(run(Keyed::Sorted, &[words(), none(), s("x")]), "'str' object cannot be interpreted as an integer");
        assert_eq!(
            run(Keyed::Sorted, &[list(vec![i(1), s("a")]), none(), b(false)]),
            "'<' not supported between instances of 'str' and 'int'"
        );
    }

    #[test]
    fn sort_sorts_the_list_in_place() {
        let xs = words();
        assert_eq!(run(Keyed::Sort, &[xs.clone(), func(Builtin::Len), b(true)]), "None");
        assert_eq!(repr_value(xs.value()), "['ccc', 'bb', 'dd', 'a', 'e']");
        assert_eq!(run(Keyed::Sort, &[s("ab"), none(), b(false)]), "'str' object has no attribute 'sort'");
    }

    #[test]
    fn min_and_max_keep_the_first_extreme() {
        let max = Keyed::Extreme { max: true, has_default: false };
        let min = Keyed::Extreme { max: false, has_default: false };
        assert_eq!(run(max, &[func(Builtin::Len), none(), words()]), "'ccc'");
        assert_eq!(run(min, &[func(Builtin::Len), none(), words()]), "'a'");
        assert_eq!(run(max, &[func(Builtin::Len), none(), s("bb"), s("dd")]), "'bb'");
        assert_eq!(run(max, &[none(), none(), list(vec![])]), "max() arg is an empty sequence");
        let with_default = Keyed::Extreme { max: false, has_default: true };
        assert_eq!(run(with_default, &[none(), i(7), list(vec![])]), "7");
        assert_eq!(run(with_default, &[none(), i(7), list(vec![i(3)])]), "3");
        assert_eq!(
            run(with_default, &[none(), i(7), i(1), i(2)]),
            "Cannot specify a default for min() with multiple positional arguments"
        );
    }

    #[test]
    fn format_takes_named_fields() {
        let kwargs = dict(vec![(s("name"), s("x")), (s("n"), i(255))]);
        assert_eq!(run(Keyed::Format, &[s("{name}:{n:#x}:{0}"), kwargs.clone(), i(1)]), "'x:0xff:1'");
        assert_eq!(run(Keyed::Format, &[s("{missing}"), kwargs.clone()]), "'missing'");
        assert_eq!(run(Keyed::Format, &[i(3), kwargs]), "'int' object has no attribute 'format'");
    }
}
