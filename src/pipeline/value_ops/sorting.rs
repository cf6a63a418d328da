//! Sorting by Python's `<`: stable, and failing as CPython's sort fails.

use super::comparison::py_lt;
use crate::{AnyValue, Result, Value};
use std::cmp::Ordering;

/// Sorts like Python's `list.sort()`: stable, asking only `<`; on a failed comparison `items` is
/// left as CPython leaves its list, and the error returned.
pub(crate) fn sort_values(items: &mut Vec<AnyValue>) -> Result<()> {
    sort_by_python_lt(items, AnyValue::value, false)
}

/// Sorts `items` by `key`, stable, as CPython's `list.sort(reverse=...)` sorts them: a total
/// order (ints, UTF-8 strs, floats without NaN) by the standard library's sort, which gives the
/// same result, anything else by CPython's own algorithm (`timsort.rs`), whose comparisons
/// decide the result with a NaN and the error and the list left with an incomparable pair.
pub(crate) fn sort_by_python_lt<T>(items: &mut Vec<T>, key: fn(&T) -> Value<'_>, reverse: bool) -> Result<()> {
    let total = |cmp: fn(Value<'_>, Value<'_>) -> Ordering, items: &mut Vec<T>| {
        stable_sort(items, reverse, |a, b| cmp(key(a), key(b)));
    };
    if items.iter().all(|x| matches!(key(x), Value::Int(_) | Value::Bool(_))) {
        total(|a, b| a.as_int().cmp(&b.as_int()), items);
        return Ok(());
    }
    if items.iter().all(|x| matches!(key(x), Value::Str(_))) {
        total(|a, b| a.as_str().cmp(&b.as_str()), items);
        return Ok(());
    }
    if items.iter().all(|x| matches!(key(x), Value::Float(f) if !f.is_nan())) {
        total(|a, b| a.as_float().partial_cmp(&b.as_float()).unwrap_or(Ordering::Equal), items);
        return Ok(());
    }
    let mut order: Vec<usize> = (0..items.len()).collect();
    if let Some(rows) = crate::pipeline::sort_rows::rows_of(items, key) {
        stable_sort(&mut order, reverse, |&i, &j| crate::pipeline::sort_rows::compare_rows(&rows[i], &rows[j]));
        permute(items, &order);
        return Ok(());
    }
    let result =
        crate::pipeline::timsort::listsort(&mut order, &mut |i, j| py_lt(key(&items[i]), key(&items[j])), reverse);
    // The permutation applies after a failure too: CPython's list is left as its sort left it.
    permute(items, &order);
    result
}

/// Sorts `items` stably by a total order `cmp`, reversed as CPython reverses a sort: the
/// list reversed, sorted stably, reversed back (so equal items keep their order).
fn stable_sort<T>(items: &mut [T], reverse: bool, cmp: impl FnMut(&T, &T) -> Ordering) {
    if reverse {
        items.reverse();
    }
    items.sort_by(cmp);
    if reverse {
        items.reverse();
    }
}

/// Puts `items` in `order` (a permutation of their indices).
fn permute<T>(items: &mut Vec<T>, order: &[usize]) {
    let mut taken: Vec<Option<T>> = items.drain(..).map(Some).collect();
    items.extend(order.iter().map(|&i| taken[i].take().expect("the sort permutes the indices")));
}
