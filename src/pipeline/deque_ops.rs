//! Python's `collections.deque` in anyscript: its construction, methods, operators, indexing
//! and repr, with CPython 3.11's results and messages. The container is
//! [`crate::container::Deque`]; `value_ops` sends a deque here wherever it meets one.
//!
//! A loop over a deque walks the items it had when the loop started (CPython raises
//! `RuntimeError` when one changes under its iterator).

use super::Slot;
use super::ast::{BinOp, CmpOp};
use super::methods::{Method, arity_error, count_of, index_of};
use super::value_ops::{
    index_arg, index_error, iter_items, norm_index, py_eq, repr_value, type_error, value_error, vname,
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

/// The argument counts of the deque's methods, checked with CPython's messages.
fn check_count(m: Method, n: usize) -> Result<()> {
    use Method::*;
    let qualified = format!("deque.{}", m.name());
    let exact = |k: usize| match n == k {
        true => Ok(()),
        false => Err(arity_error(&qualified, m.name(), (k, k), n)),
    };
    match m {
        Append | Appendleft | Extend | Extendleft | Count | Remove => exact(1),
        Pop | Popleft | Clear | Copy | Reverse => exact(0),
        Rotate if n > 1 => Err(type_error(format!("deque.rotate expected at most 1 argument, got {n}"))),
        Index if n == 0 => Err(type_error("index() takes at least 1 argument (0 given)")),
        Index if n > 3 => Err(type_error(format!("index() takes at most 3 arguments ({n} given)"))),
        Insert if n != 2 => Err(type_error(format!("insert() takes exactly 2 arguments ({n} given)"))),
        _ => Ok(()),
    }
}

/// `d.method(*args)`.
pub(crate) fn method(m: Method, d: &DequeObj, args: &[AnyView<'_>]) -> Result<Slot> {
    use Method::*;
    check_count(m, args.len())?;
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
            for item in iter_items(args[0].value())? {
                d.push_back(item);
            }
            none
        }
        Extendleft => {
            for item in iter_items(args[0].value())? {
                d.push_front(item);
            }
            none
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
        _ => Err(type_error(format!("'collections.deque' object has no attribute '{}'", m.name()))),
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
    d.with_items_mut(|items| items.get(i).cloned()).map(Slot::from).ok_or_else(out_of_range)
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
            match n.as_int() {
                Some(n) => repeat(d, n),
                None => Err(type_error(format!("can't multiply sequence by non-int of type '{}'", vname(n)))),
            }
        }
        _ => return None,
    })
}

/// The name CPython's concatenation message gives a type (`deque` for a deque).
fn short_name(v: Value<'_>) -> String {
    if deque_of(v).is_some() { "deque".into() } else { vname(v).into_owned() }
}

fn repeat(d: &DequeObj, n: i64) -> Result<Slot> {
    let items = d.to_vec();
    let times = usize::try_from(n).unwrap_or(0);
    // Only the last `maxlen` survive: no more than those are made.
    let keep = d.maxlen().unwrap_or(usize::MAX);
    let total = items.len().saturating_mul(times).min(keep);
    let mut out = Vec::new();
    crate::container::try_reserve_items(&mut out, total, "deque *")?;
    out.extend(
        items.iter().cycle().take(items.len() * times).skip((items.len() * times).saturating_sub(total)).cloned(),
    );
    Ok(like(d, out))
}

/// `d += items` (any iterable) and `d *= n`, in place; `None` when `x` is not a deque.
pub(crate) fn in_place(op: BinOp, x: Value<'_>, y: Value<'_>) -> Option<Result<()>> {
    let d = deque_of(x)?;
    Some(match op {
        BinOp::Add => iter_items(y).map(|items| items.into_iter().for_each(|item| d.push_back(item))),
        BinOp::Mul => match y.as_int() {
            Some(n) => repeat(d, n).map(|r| {
                let items = deque_of(r.value()).map(DequeObj::to_vec).unwrap_or_default();
                let old = d.with_items_mut(|xs| std::mem::replace(xs, items.into()));
                drop(old);
            }),
            None => Err(type_error(format!("can't multiply sequence by non-int of type '{}'", vname(y)))),
        },
        _ => return None,
    })
}

/// `a < b` and its kin between two deques, lexicographic as lists compare; `None` when either
/// is not a deque.
pub(crate) fn order(op: CmpOp, x: Value<'_>, y: Value<'_>) -> Option<Result<bool>> {
    let (a, b) = (deque_of(x)?.to_vec(), deque_of(y)?.to_vec());
    let run = || {
        for (p, q) in a.iter().zip(&b) {
            if !py_eq(p.value(), q.value()) {
                return super::value_ops::compare(op, p.view(), q.view());
            }
        }
        Ok(match op {
            CmpOp::Lt => a.len() < b.len(),
            CmpOp::LtE => a.len() <= b.len(),
            CmpOp::Gt => a.len() > b.len(),
            _ => a.len() >= b.len(),
        })
    };
    Some(run())
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
