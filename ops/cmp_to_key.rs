//! `functools.cmp_to_key(mycmp)`: a key function made of an old-style comparison function
//! (`sorted(words, key=cmp_to_key(by_length_then_text))`), as CPython's C one.
//!
//! Rationale: the key it gives wraps each item; two wrapped items compare as
//! `mycmp(a, b) < 0` (or `>`, `<=`, `>=` against 0), which the interpreter's order comparison
//! asks of them (`value_ops::comparison`), so `sorted`, `min`, `max`, `heapq` and `bisect` take
//! it as any key. The comparison function is called when two keys are compared, as CPython
//! calls it (a value that is not callable fails then). Wrapped items compare equal only when
//! they are the same object (CPython's also asks `mycmp(a, b) == 0`).

use crate::error::Result;
use crate::func::{OpEntry, Registry};
use crate::object::{ObjRef, Object};
use crate::pipeline::ast::CmpOp;
use crate::pipeline::value_ops::{callable, rich_order, type_error};
use crate::{AnyValue, AnyView, PackedFunc, Value};

/// An item wrapped by the key function `cmp_to_key` made: the comparison function and the item.
#[repr(C)]
pub struct KeyWrapperObj {
    header: Object,
    cmp: AnyValue,
    item: AnyValue,
}

crate::declare_object_type!(KeyWrapperObj, "functools.KeyWrapper", parent = Object, child_slots = 0);

/// Registers `functools.cmp_to_key`.
pub fn register(reg: &Registry) -> Result<()> {
    let ops: &[OpEntry] = &[(
        "functools.cmp_to_key",
        "(*mycmp) -> function",
        "A key function that orders items as mycmp(a, b) does, as functools.cmp_to_key.",
        cmp_to_key,
    )];
    reg.register_ops(ops)
}

fn cmp_to_key(args: &[AnyView<'_>]) -> Result<AnyValue> {
    let cmp = match args {
        [cmp] => cmp.to_owned(),
        [] => return Err(type_error("cmp_to_key() missing required argument 'mycmp' (pos 1)")),
        _ => return Err(type_error(format!("cmp_to_key() takes at most 1 argument ({} given)", args.len()))),
    };
    let key = PackedFunc::new(move |args: &[AnyView<'_>]| match args {
        [item] => {
            let wrapped = KeyWrapperObj { header: Object::blank(), cmp: cmp.clone(), item: item.to_owned() };
            Ok(AnyValue::from_object(ObjRef::new(wrapped)))
        }
        _ => Err(type_error(format!("K() takes exactly 1 argument ({} given)", args.len()))),
    });
    Ok(key.into_any())
}

/// `x < y` (or the other order comparisons) when `x` is a wrapped item: `mycmp(x, y)` against
/// 0, CPython's TypeError when `y` is not one; `None` when `x` is not one.
pub(crate) fn order(op: CmpOp, x: Value<'_>, y: Value<'_>) -> Option<Result<bool>> {
    let a = x.as_obj()?.downcast_ref::<KeyWrapperObj>()?;
    let Some(b) = y.as_obj().and_then(|o| o.downcast_ref::<KeyWrapperObj>()) else {
        return Some(Err(type_error("other argument must be K instance")));
    };
    let compared = || {
        let result = callable(a.cmp.value())?.call(&[a.item.view(), b.item.view()])?;
        rich_order(op, result.value(), Value::Int(0))
    };
    Some(compared())
}

#[cfg(test)]
mod tests {
    use crate::pipeline::test_values::run_main as run;

    // Worked out by hand: longest first, then reverse text order, as the comparison says.
    #[test]
    fn orders_as_the_comparison_says() {
        let body = "cmp = lambda a, b: len(b) - len(a) or (b > a) - (b < a)\n\
                    return str(sorted(['bb', 'a', 'ccc', 'ab'], key=functools.cmp_to_key(cmp)))";
        assert_eq!(run(body), "['ccc', 'bb', 'ab', 'a']");
        let body = "k = functools.cmp_to_key(lambda a, b: 0)\nreturn str(k(1) < 2)";
        assert_eq!(run(body), "Type: other argument must be K instance");
    }
}
