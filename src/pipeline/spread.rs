//! Calls with `*iterable` arguments when they run: the items of each such argument take its
//! place, then the callee is called through its value, as Python calls it; and calls of a
//! function value with keyword arguments, which the callee binds.

use super::Slot;
use super::shaped_binding::{ResolvedArgs, views};
use super::value_ops::{callable, is_iterable, iter_items, to_str, type_error, vname};
use crate::func::CallArgs;
use crate::{AnyValue, AnyView, Result, Value};

/// `args` with the items of each one whose bit is set in `starred` in its place; CPython 3.11's
/// TypeError for one that is not iterable: naming the function `name` when it is the call's only
/// argument (which CPython passes on as it is), else the value (which CPython adds to a list).
pub fn spread_args(name: &str, args: &[AnyView<'_>], starred: u16) -> Result<Vec<AnyValue>> {
    let mut out = Vec::with_capacity(args.len());
    for (i, a) in args.iter().enumerate() {
        if starred & (1 << i) == 0 {
            out.push(a.to_owned());
            continue;
        }
        // Only a value that is no iterable: a generator's own error while it runs is its own.
        if !is_iterable(a.value()) {
            let what = if args.len() == 1 { format!("{name}() argument") } else { "Value".to_string() };
            return Err(type_error(format!("{what} after * must be an iterable, not {}", vname(a.value()))));
        }
        out.extend(iter_items(a.value())?);
    }
    Ok(out)
}

/// `callee(*...)`: `label` names the callee as the call writes it, or its method when
/// `receiver` is not None (`dict.get`, as CPython names a bound method), for messages.
pub fn call_spread(
    label: AnyView<'_>,
    receiver: AnyView<'_>,
    callee: AnyView<'_>,
    args: &[AnyView<'_>],
    starred: u16,
) -> Result<Slot> {
    let f = callable(callee.value())?;
    let name = match receiver.value() {
        Value::None => to_str(label)?,
        obj => format!("{}.{}", vname(obj), to_str(label)?),
    };
    let values = spread_args(&name, args, starred)?;
    f.call(&views(&values)).map(AnyValue::resize)
}

/// `callee(..., name=value, **mapping)` of a function value (see `Keyed::Named`): a function
/// with a keyword form (the script's own) binds the call itself; any other takes positional
/// arguments only.
pub fn call_named(
    label: AnyView<'_>,
    callee: AnyView<'_>,
    names: AnyView<'_>,
    operands: &[AnyView<'_>],
    starred: u16,
) -> Result<Slot> {
    let f = callable(callee.value())?;
    let names = to_str(names)?;
    let names: Vec<&str> = names.split(',').filter(|n| !n.is_empty()).collect();
    let (values, positional) = operands.split_at(names.len());
    let args = CallArgs { positional, starred, names: &names, values };
    if f.takes_keywords() {
        return f.call_keywords(&args).map(AnyValue::resize);
    }
    let label = to_str(label)?;
    let resolved = ResolvedArgs::of(&label, &args)?;
    if let Some(name) = resolved.names.first() {
        return Err(type_error(format!(
            "{label}() got keyword argument '{name}': a built-in or an op called through a function value takes \
             positional arguments only in anyscript (call it by its name to pass keywords)"
        )));
    }
    f.call(&views(&resolved.positional)).map(AnyValue::resize)
}
