//! Calls with `*iterable` arguments when they run: the items of each such argument take its
//! place, then the callee is called through its value, as Python calls it.

use super::Slot;
use super::value_ops::{callable, is_iterable, iter_items, to_str, type_error, vname};
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
    let views: Vec<AnyView<'_>> = values.iter().map(AnyValue::view).collect();
    f.call(&views).map(AnyValue::resize)
}
