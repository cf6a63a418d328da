//! `functools.partial(func, *args, **keywords)`: `func` with its first arguments and some
//! keyword arguments given, as CPython's (`clean = partial(re.sub, r"\s+", " ")`,
//! `split_tabs = partial(str.split, sep="\t")`, `map(partial(pad, width=8), words)`).
//!
//! Rationale: the function value it makes calls `func` with the given arguments, then the
//! call's own, and with the given keywords updated by the call's (a call may set one again),
//! as CPython's `partial.__call__` does; errors are `func`'s, raised when the call runs. Both
//! `partial` and what it makes have keyword forms (`PackedFunc::with_keywords`), so a script's
//! keywords reach them bound when the call runs; `func` takes keywords if it has a keyword
//! form (the script's functions, methods, ops that Python's functions stand behind).

use crate::error::Result;
use crate::func::{CallArgs, Registry};
use crate::pipeline::shaped_binding::{ResolvedArgs, views};
use crate::pipeline::value_ops::{callable, type_error};
use crate::{AnyValue, AnyView, PackedFunc};

/// Registers `functools.partial`.
pub fn register(reg: &Registry) -> Result<()> {
    let partial = PackedFunc::with_keywords((), |(), args| partial(args), |(), call| partial_with_keywords(call));
    let doc = "func with its first arguments and some keyword arguments given, as functools.partial.";
    reg.register("functools.partial", "(*func_args, **keywords) -> function", doc, partial, false)
}

/// What `partial` made: the function and what it was given.
struct Partial {
    func: PackedFunc,
    args: Vec<AnyValue>,
    names: Vec<String>,
    values: Vec<AnyValue>,
}

fn partial(args: &[AnyView<'_>]) -> Result<AnyValue> {
    let given: Vec<AnyValue> = args.iter().map(AnyView::to_owned).collect();
    made(given, Vec::new(), Vec::new())
}

fn partial_with_keywords(call: &CallArgs<'_>) -> Result<AnyValue> {
    let resolved = ResolvedArgs::of("partial", call)?;
    made(resolved.positional, resolved.names, resolved.values)
}

/// The function `partial(*given, **dict(zip(names, values)))` makes, or CPython's error.
fn made(mut given: Vec<AnyValue>, names: Vec<String>, values: Vec<AnyValue>) -> Result<AnyValue> {
    if given.is_empty() {
        return Err(type_error("type 'partial' takes at least one argument"));
    }
    let func = callable(given[0].value()).map_err(|_| type_error("the first argument must be callable"))?;
    given.remove(0);
    let state = Partial { func, args: given, names, values };
    let made = PackedFunc::with_keywords(
        state,
        |p, call| called(p, call, &[], &[]),
        |p, call| {
            let resolved = ResolvedArgs::of("partial", call)?;
            called(p, &views(&resolved.positional), &resolved.name_refs(), &views(&resolved.values))
        },
    );
    Ok(made.into())
}

/// A call of what `partial` made, with `positional` and keyword arguments `names` = `values`:
/// `func` given the arguments first, and the given keywords updated by the call's, in the
/// order of a dict updated so.
fn called(p: &Partial, positional: &[AnyView<'_>], names: &[&str], values: &[AnyView<'_>]) -> Result<AnyValue> {
    let mut all: Vec<AnyView<'_>> = views(&p.args);
    all.extend_from_slice(positional);
    let mut all_names: Vec<&str> = p.names.iter().map(String::as_str).collect();
    let mut all_values = views(&p.values);
    for (&name, &value) in names.iter().zip(values) {
        match all_names.iter().position(|n| *n == name) {
            Some(i) => all_values[i] = value,
            None => {
                all_names.push(name);
                all_values.push(value);
            }
        }
    }
    if all_names.is_empty() {
        return p.func.call(&all);
    }
    p.func.call_keywords(&CallArgs { positional: &all, starred: 0, names: &all_names, values: &all_values })
}
