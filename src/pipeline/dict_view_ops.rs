//! Dict views in anyscript: `in`, the set operators `& | - ^`, the comparisons and
//! `isdisjoint` of `d.keys()` and `d.items()`, with CPython 3.11's results, set layouts and
//! errors. The view object is [`crate::container::DictViewObj`]; `value_ops` sends a view here
//! wherever it meets one, and iterates it as its dict.
//!
//! Keys and items views are sets to Python (`collections.abc.Set`); a values view is neither
//! a set nor comparable but by identity.

use super::Slot;
use super::ast::{BinOp, CmpOp};
use super::set_ops::{Operand, set_of};
use super::value_ops::{check_hashable, iter_items, tuple_obj};
use crate::any::values_equal;
use crate::container::{DictKind, DictView, DictViewObj, SetOperand, dict_view_obj};
use crate::{AnyValue, AnyView, Dict, Result, Set, Tuple, Value};

/// The dict view behind `v`, if it is one.
pub(crate) fn view_of(v: Value<'_>) -> Option<&DictViewObj> {
    v.as_obj().and_then(dict_view_obj)
}

/// A keys or an items view: the two that are sets.
pub(crate) fn set_view_of(v: Value<'_>) -> Option<&DictViewObj> {
    view_of(v).filter(|shown| shown.view() != DictView::Values)
}

/// `x in view`: a key looked up (CPython's error for an unhashable one), a `(key, value)`
/// pair looked up and its value compared, or a value compared with each value in turn.
pub(crate) fn contains(view: &DictViewObj, x: AnyView<'_>) -> Result<bool> {
    match view.view() {
        DictView::Keys => {
            check_hashable(x.value())?;
            Ok(view.dict().contains_key(x))
        }
        DictView::Items => {
            // Anything but a 2-tuple is simply not an item.
            let pair = |xs: &[AnyValue]| match xs {
                [k, v] => Some((k.clone(), v.clone())),
                _ => None,
            };
            let Some((key, value)) = tuple_obj(x.value()).and_then(|t| t.with_items(pair)) else { return Ok(false) };
            check_hashable(key.value())?;
            Ok(view.dict().get(&key).is_some_and(|found| values_equal(found.value(), value.value(), 0)))
        }
        DictView::Values => Ok(view.dict().values().iter().any(|v| values_equal(v.value(), x.value(), 0))),
    }
}

/// `x op y` for `& | - ^` when either side is a keys or items view (the other any iterable,
/// as CPython's view takes the reflected operator too); `None` otherwise.
pub(crate) fn binary(op: BinOp, x: Value<'_>, y: Value<'_>) -> Option<Result<Slot>> {
    if !matches!(op, BinOp::BitAnd | BinOp::BitOr | BinOp::Sub | BinOp::BitXor) {
        return None;
    }
    set_view_of(x).or_else(|| set_view_of(y))?;
    let result = match (op, set_view_of(x), set_view_of(y)) {
        (BinOp::BitAnd, _, _) => intersect(x, y),
        (BinOp::BitXor, Some(a), Some(b)) if a.view() == DictView::Items && b.view() == DictView::Items => {
            items_xor(a.dict(), b.dict())
        }
        _ => to_set(x).and_then(|mut out| {
            let other = Operand::of(y)?;
            match op {
                BinOp::BitOr => out.update(&other.get()),
                BinOp::Sub => out.difference_update(&other.get()),
                _ => out.symmetric_difference_update(&other.get()),
            }
            .map(|()| out)
        }),
    };
    Some(result.map(Slot::from))
}

/// CPython's `dictviews_to_set`: the keys of a plain dict's keys view are read as the dict's
/// (a set sized for them first); anything else is iterated.
fn to_set(x: Value<'_>) -> Result<Set> {
    let mut out = Set::new();
    match view_of(x) {
        Some(shown) if shown.view() == DictView::Keys && *shown.dict().kind() == DictKind::Plain => {
            out.update(&SetOperand::DictKeys(&shown.dict().keys()))?;
        }
        _ => out.update(&Operand::of(x)?.get())?,
    }
    Ok(out)
}

/// CPython's `_PyDictView_Intersect`: a larger set intersects the view's items itself;
/// otherwise the smaller side is walked and what the view (the larger one) holds is kept.
fn intersect(x: Value<'_>, y: Value<'_>) -> Result<Set> {
    let (mut this, mut other) = if set_view_of(x).is_some() { (x, y) } else { (y, x) };
    let len = set_view_of(this).map_or(0, DictViewObj::len);
    if let Some(set) = set_of(other).filter(|s| len <= s.len()) {
        return set.intersection(&SetOperand::Items(&iter_items(this)?));
    }
    if set_view_of(other).is_some_and(|o| o.len() > len) {
        std::mem::swap(&mut this, &mut other);
    }
    let shown = set_view_of(this).expect("a keys or items view");
    let mut out = Set::new();
    for item in iter_items(other)? {
        if contains(shown, item.view())? {
            out.add(item)?;
        }
    }
    Ok(out)
}

/// CPython's `dictitems_xor`: the second dict's pairs that the first lacks (or holds with
/// another value), then the first's that the second did not match, in that order.
fn items_xor(first: &Dict, second: &Dict) -> Result<Set> {
    let mut left: Dict = first.items().into_iter().collect();
    let mut out = Set::new();
    for (k, v) in second.items() {
        match left.get(&k) {
            Some(mine) if values_equal(mine.value(), v.value(), 0) => {
                left.remove(&k);
            }
            _ => {
                out.add(Tuple::from_vec(vec![k, v]).into_any())?;
            }
        }
    }
    let rest: Vec<AnyValue> = left.items().into_iter().map(|(k, v)| Tuple::from_vec(vec![k, v]).into_any()).collect();
    out.update(&SetOperand::Items(&rest))?;
    Ok(out)
}

/// The size of a set or a keys or items view, the operands views compare with.
fn set_like_len(v: Value<'_>) -> Option<usize> {
    set_view_of(v).map(DictViewObj::len).or_else(|| set_of(v).map(|s| s.len()))
}

/// `x op y` for `== != < <= > >=` between a keys or items view and a set or another such view:
/// sizes first, then whether every item of the smaller side is in the other, as CPython's
/// `dictview_richcompare` decides; `None` for any other pair.
pub(crate) fn compare(op: CmpOp, x: Value<'_>, y: Value<'_>) -> Option<Result<bool>> {
    set_view_of(x).or_else(|| set_view_of(y))?;
    let (nx, ny) = (set_like_len(x)?, set_like_len(y)?);
    Some(match op {
        CmpOp::Eq => all_in(x, y).map(|all| nx == ny && all),
        CmpOp::NotEq => all_in(x, y).map(|all| !(nx == ny && all)),
        CmpOp::Lt if nx < ny => all_in(x, y),
        CmpOp::LtE if nx <= ny => all_in(x, y),
        CmpOp::Gt if nx > ny => all_in(y, x),
        CmpOp::GtE if nx >= ny => all_in(y, x),
        CmpOp::Lt | CmpOp::LtE | CmpOp::Gt | CmpOp::GtE => Ok(false),
        _ => return None,
    })
}

/// `==` of a keys or items view with a set or another such view (`None` for other pairs); an
/// item that cannot be looked up makes them unequal.
pub(crate) fn equal(x: Value<'_>, y: Value<'_>) -> Option<bool> {
    compare(CmpOp::Eq, x, y).map(|r| r.unwrap_or(false))
}

/// Whether every item of `x` (a set or a view) is in `y` (a set or a view).
fn all_in(x: Value<'_>, y: Value<'_>) -> Result<bool> {
    for item in iter_items(x)? {
        if !holds(y, item.view())? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// `item in container`, for a set or a view.
fn holds(container: Value<'_>, item: AnyView<'_>) -> Result<bool> {
    match view_of(container) {
        Some(shown) => contains(shown, item),
        None => set_of(container).map_or(Ok(false), |s| s.contains(item)),
    }
}

/// `view.isdisjoint(other)`: the smaller of two sets walked, else `other` walked and looked up
/// in the view, as CPython's `dictviews_isdisjoint` does.
pub(crate) fn isdisjoint(view: Value<'_>, other: Value<'_>) -> Result<bool> {
    let (mut this, mut walked) = (view, other);
    if this.as_obj().zip(walked.as_obj()).is_some_and(|(a, b)| a == b) {
        return Ok(set_like_len(this) == Some(0));
    }
    let len = set_like_len(this).unwrap_or(0);
    if set_like_len(walked).is_some_and(|n| n > len) {
        std::mem::swap(&mut this, &mut walked);
    }
    for item in iter_items(walked)? {
        if holds(this, item.view())? {
            return Ok(false);
        }
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    // Expected values: CPython 3.11's, worked out from its `dictobject.c` and checked in its
    // REPL (the set orders are its layouts of small ints, which hash to themselves).
    use crate::pipeline::test_values::run_main as run;

    #[test]
    fn keys_views_are_live_sets() {
        let body = "d = {1: 'a', 2: 'b'}\nks = d.keys()\nd[3] = 'c'\nreturn repr([len(ks), 3 in ks, ks == {1, 2, 3}, ks < {1, 2, 3, 4}, ks])";
        assert_eq!(run(body), "[3, True, True, True, dict_keys([1, 2, 3])]");
    }

    #[test]
    fn set_operators_take_any_iterable_on_either_side() {
        let body = "d = {1: 0, 2: 0, 3: 0}\nreturn repr([d.keys() & [2, 3, 4], [5] | d.keys(), d.keys() - {1}, d.keys() ^ (3, 4)])";
        assert_eq!(run(body), "[{2, 3}, {1, 2, 3, 5}, {2, 3}, {1, 2, 4}]");
    }

    #[test]
    fn items_views_compare_values_and_values_views_are_not_sets() {
        let body = "d = {'a': 1}\nv = d.values()\nreturn repr([('a', 1) in d.items(), ('a', 2) in d.items(), ['a', 1] in d.items(), 1 in v, v == d.values(), v == v])";
        assert_eq!(run(body), "[True, False, False, True, False, True]");
    }
}
