//! Python's `collections.deque` in anyscript: its construction, methods, operators, indexing
//! and repr, with CPython 3.11's results and messages. The container is
//! [`crate::container::Deque`]; `value_ops` sends a deque here wherever it meets one.
//!
//! A loop over a deque walks the items it had when the loop started (CPython raises
//! `RuntimeError` when one changes under its iterator).

use super::Slot;
use super::ast::{BinOp, CmpOp};
use super::methods::{Method, count_of, index_of};
use super::value_ops::{
    index_arg, index_error, items_order, iter_items, iter_items_until_error, norm_index, py_eq, repr_value, type_error,
    value_error, vname,
};
use crate::container::{Deque, DequeObj, deque_obj};
use crate::{AnyValue, AnyView, Error, Result, Value};

/// The deque behind `v`, if it is one.
pub(crate) fn deque_of(v: Value<'_>) -> Option<&DequeObj> {
    v.as_obj().and_then(deque_obj)
}

/// `collections.deque(iterable=(), maxlen=None)`.
pub fn new_deque(args: &[AnyView<'_>]) -> Result<AnyValue> {
    if args.len() > 2 {
        return Err(type_error(format!("deque() takes at most 2 arguments ({} given)", args.len())));
    }
    let maxlen = maxlen_arg(args.get(1))?;
    let items = match args.first() {
        Some(it) => iter_items(it.value())?,
        None => Vec::new(),
    };
    Ok(Deque::new(items, maxlen).into_any())
}

fn maxlen_arg(v: Option<&AnyView<'_>>) -> Result<Option<usize>> {
    match v.map(|v| v.value()) {
        None | Some(Value::None) => Ok(None),
        Some(x) => match x.as_int() {
            Some(n) => usize::try_from(n).map(Some).map_err(|_| value_error("maxlen must be non-negative")),
            None => Err(type_error("an integer is required")),
        },
    }
}

/// A deque of the same `maxlen` as `like`, holding `items` (their last `maxlen`).
fn like(like: &DequeObj, items: Vec<AnyValue>) -> Slot {
    Deque::new(items, like.maxlen()).into_any().into()
}

/// The argument counts of the deque's methods whose messages are not the ones the method
/// table's check words (`deque.append()` and the rest are); `None` for those.
pub(crate) fn check_arity(m: Method, n: usize) -> Option<Result<()>> {
    use Method::*;
    Some(match m {
        Rotate if n > 1 => Err(type_error(format!("deque.rotate expected at most 1 argument, got {n}"))),
        Index if n == 0 => Err(type_error("index() takes at least 1 argument (0 given)")),
        Index if n > 3 => Err(type_error(format!("index() takes at most 3 arguments ({n} given)"))),
        Insert if n != 2 => Err(type_error(format!("insert() takes exactly 2 arguments ({n} given)"))),
        Rotate | Index | Insert => Ok(()),
        _ => return None,
    })
}

/// `d.method(*args)`, its arguments counted by the method table.
pub(crate) fn method(m: Method, d: &DequeObj, args: &[AnyView<'_>]) -> Result<Slot> {
    use Method::*;
    let none = Ok(Slot::none());
    match m {
        Append => {
            d.push_back(args[0].to_owned());
            none
        }
        Appendleft => {
            d.push_front(args[0].to_owned());
            none
        }
        Pop | Popleft => {
            let popped = d.with_items_mut(|items| if m == Pop { items.pop_back() } else { items.pop_front() });
            popped.map(Slot::from).ok_or_else(|| index_error("pop from an empty deque"))
        }
        // The items are read first, so that `d.extend(d)` doubles it.
        Extend => {
            let (items, failed) = iter_items_until_error(args[0].value())?;
            for item in items {
                d.push_back(item);
            }
            failed.map_or(none, Err)
        }
        Extendleft => {
            let (items, failed) = iter_items_until_error(args[0].value())?;
            for item in items {
                d.push_front(item);
            }
            failed.map_or(none, Err)
        }
        Clear => {
            let old = d.with_items_mut(std::mem::take);
            drop(old);
            none
        }
        Copy => Ok(like(d, d.to_vec())),
        Count => Ok(count_of(&d.to_vec(), args[0].value())),
        Index => index_of(&d.to_vec(), args)?
            .map(Slot::from_int)
            .ok_or_else(|| value_error(format!("{} is not in deque", repr_value(args[0].value())))),
        Insert => insert(d, args),
        Remove => {
            let x = args[0].value();
            let at = d.to_vec().iter().position(|v| py_eq(v.value(), x));
            let removed = at.and_then(|i| d.with_items_mut(|items| items.remove(i)));
            removed.map(|_| Slot::none()).ok_or_else(|| value_error(format!("{} is not in deque", repr_value(x))))
        }
        Reverse => {
            d.with_items_mut(|items| items.make_contiguous().reverse());
            none
        }
        Rotate => {
            let n = args.first().map_or(Ok(1), index_arg)?;
            d.with_items_mut(|items| {
                let len = items.len() as i64;
                if len > 1 {
                    let k = n.rem_euclid(len) as usize;
                    items.rotate_right(k);
                }
            });
            none
        }
        _ => unreachable!("spec admits only deque methods"),
    }
}

/// `d.insert(i, x)`: at `i` as `list.insert` places it; a full deque refuses.
fn insert(d: &DequeObj, args: &[AnyView<'_>]) -> Result<Slot> {
    let i = index_arg(&args[0])?;
    let item = args[1].to_owned();
    let full = d.with_items_mut(|items| {
        if d.maxlen().is_some_and(|max| items.len() >= max) {
            return true;
        }
        let n = items.len() as i64;
        let at = if i < 0 { (i + n).max(0) } else { i.min(n) };
        items.insert(at as usize, item);
        false
    });
    if full { Err(index_error("deque already at its maximum size")) } else { Ok(Slot::none()) }
}

/// `d[i]`.
pub(crate) fn get_item(d: &DequeObj, key: Value<'_>) -> Result<Slot> {
    let i = position(d, key)?;
    d.get(i).map(Slot::from).ok_or_else(out_of_range)
}

/// `d[i] = v`.
pub(crate) fn set_item(d: &DequeObj, key: Value<'_>, value: AnyValue) -> Result<()> {
    let i = position(d, key)?;
    let old = d.with_items_mut(|items| items.get_mut(i).map(|slot| std::mem::replace(slot, value)));
    old.map(drop).ok_or_else(out_of_range)
}

/// `del d[i]`.
pub(crate) fn del_item(d: &DequeObj, key: Value<'_>) -> Result<()> {
    let i = position(d, key)?;
    d.with_items_mut(|items| items.remove(i)).map(drop).ok_or_else(out_of_range)
}

/// The position an index names (a negative one from the end).
fn position(d: &DequeObj, key: Value<'_>) -> Result<usize> {
    let Some(i) = key.as_int() else {
        return Err(type_error(format!("sequence index must be integer, not '{}'", vname(key))));
    };
    norm_index(i, d.len()).ok_or_else(out_of_range)
}

fn out_of_range() -> Error {
    index_error("deque index out of range")
}

/// `a + b` and `a * n` (either side) with a deque; `None` when neither operand is one.
pub(crate) fn binary(op: BinOp, x: Value<'_>, y: Value<'_>) -> Option<Result<Slot>> {
    let (dx, dy) = (deque_of(x), deque_of(y));
    if dx.is_none() && dy.is_none() {
        return None;
    }
    Some(match (op, dx, dy) {
        (BinOp::Add, Some(a), Some(b)) => {
            let mut items = a.to_vec();
            items.extend(b.to_vec());
            Ok(like(a, items))
        }
        (BinOp::Add, Some(_), None) => {
            Err(type_error(format!("can only concatenate deque (not \"{}\") to deque", short_name(y))))
        }
        (BinOp::Mul, Some(d), None) | (BinOp::Mul, None, Some(d)) => {
            let n = if dx.is_some() { y } else { x };
            repeated(d, n).map(|items| like(d, items))
        }
        _ => return None,
    })
}

/// The name CPython's concatenation message gives a type (`deque` for a deque).
fn short_name(v: Value<'_>) -> String {
    if deque_of(v).is_some() { "deque".into() } else { vname(v).into_owned() }
}

/// The items of `d * n` (`n` an int, else CPython's error): only the last `maxlen` of them,
/// which are all that survive, are made.
fn repeated(d: &DequeObj, n: Value<'_>) -> Result<Vec<AnyValue>> {
    let Some(n) = n.as_int() else {
        return Err(type_error(format!("can't multiply sequence by non-int of type '{}'", vname(n))));
    };
    let items = d.to_vec();
    let times = usize::try_from(n).unwrap_or(0);
    let made = items.len() as u128 * times as u128;
    let total = made.min(d.maxlen().map_or(u128::MAX, |max| max as u128));
    let total = usize::try_from(total).map_err(|_| Error::out_of_memory("deque *", usize::MAX))?;
    let mut out = Vec::new();
    crate::container::try_reserve_items(&mut out, total, "deque *")?;
    if total > 0 {
        // The last `total` of the repetition start this far into a copy of the items.
        let start = ((made - total as u128) % items.len() as u128) as usize;
        out.extend(items.iter().cycle().skip(start).take(total).cloned());
    }
    Ok(out)
}

/// `d += items` (any iterable) and `d *= n`, in place; `None` when `x` is not a deque.
pub(crate) fn in_place(op: BinOp, x: Value<'_>, y: Value<'_>) -> Option<Result<()>> {
    let d = deque_of(x)?;
    Some(match op {
        BinOp::Add => iter_items(y).map(|items| items.into_iter().for_each(|item| d.push_back(item))),
        BinOp::Mul => repeated(d, y).map(|items| {
            let old = d.with_items_mut(|xs| std::mem::replace(xs, items.into()));
            drop(old);
        }),
        _ => return None,
    })
}

/// `a < b` and its kin between two deques, lexicographic as lists compare; `None` when either
/// is not a deque.
pub(crate) fn order(op: CmpOp, x: Value<'_>, y: Value<'_>) -> Option<Result<bool>> {
    let (a, b) = (deque_of(x)?.to_vec(), deque_of(y)?.to_vec());
    Some(items_order(op, &a, &b))
}

/// The deque's items as a list, for a loop over it.
pub(crate) fn snapshot(v: Value<'_>) -> Option<Vec<AnyValue>> {
    deque_of(v).map(DequeObj::to_vec)
}

#[cfg(test)]
mod tests {
    // Expected values: worked out by hand from the documentation of `collections.deque` (and
    // CPython 3.11's output).
    use crate::pipeline::test_values::run_main as run;

    #[test]
    fn a_bounded_deque_drops_from_the_other_end() {
        let cases = [
            ("d = collections.deque('abc', 2)\nd.append('x')\nreturn repr(d)", "deque(['c', 'x'], maxlen=2)"),
            ("d = collections.deque('abc', 2)\nd.appendleft('x')\nreturn repr(d)", "deque(['x', 'b'], maxlen=2)"),
            ("d = collections.deque([1, 2, 3, 4, 5])\nd.rotate(2)\nreturn repr(d)", "deque([4, 5, 1, 2, 3])"),
            ("d = collections.deque([1, 2, 3, 4, 5])\nd.rotate(-1)\nreturn repr(d)", "deque([2, 3, 4, 5, 1])"),
            (
                "d = collections.deque()\nd.extendleft('abc')\nreturn repr((d, d[0], d[-1], len(d)))",
                "(deque(['c', 'b', 'a']), 'c', 'a', 3)",
            ),
            ("d = collections.deque([1], 3)\nreturn repr(d * 4)", "deque([1, 1, 1], maxlen=3)"),
        ];
        for (body, want) in cases {
            assert_eq!(run(body), want, "{body}");
        }
        assert_eq!(run("return repr(collections.deque().popleft())"), "Index: pop from an empty deque");
        assert_eq!(
            run("d = collections.deque([1], 1)\nreturn repr(d.insert(0, 2))"),
            "Index: deque already at its maximum size"
        );
    }
}
