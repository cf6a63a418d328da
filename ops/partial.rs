//! `functools.partial(func, *args)`: `func` with its first arguments given, as CPython's
//! (`clean = partial(re.sub, r"\s+", " ")`, `map(partial(pad, width=...), ...)` without keywords).
//!
//! Rationale: the function value it makes calls `func` with the given arguments, then the
//! call's own; errors are `func`'s, raised when the call runs, as CPython raises them.
//! Keyword arguments to `partial` are not taken: an op takes its arguments by position.

use crate::error::Result;
use crate::func::{OpEntry, Registry};
use crate::pipeline::value_ops::{callable, type_error};
use crate::{AnyValue, AnyView, PackedFunc};

/// Registers `functools.partial`.
pub fn register(reg: &Registry) -> Result<()> {
    let ops: &[OpEntry] = &[(
        "functools.partial",
        "(*func_args) -> function",
        "func with its first arguments given, as functools.partial.",
        partial,
    )];
    reg.register_ops(ops)
}

fn partial(args: &[AnyView<'_>]) -> Result<AnyValue> {
    let Some(func) = args.first() else {
        return Err(type_error("type 'partial' takes at least one argument"));
    };
    let func = callable(func.value()).map_err(|_| type_error("the first argument must be callable"))?;
    let given: Vec<AnyValue> = args[1..].iter().map(AnyView::to_owned).collect();
    let made = PackedFunc::new(move |call: &[AnyView<'_>]| {
        let mut all: Vec<AnyView<'_>> = given.iter().map(AnyValue::view).collect();
        all.extend_from_slice(call);
        func.call(&all)
    });
    Ok(made.into())
}
