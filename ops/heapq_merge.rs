//! `heapq.merge(*iterables, key=None, reverse=False)`: sorted iterables merged into one sorted
//! list, with CPython 3.11's result and errors.
//!
//! Rationale: `heapq.py`'s merge keeps a heap of `[value, order, next]` entries (`[key(value),
//! order, value, next]` with a key), the order numbers counting down when `reverse`, so that of
//! equal items the earlier iterable's comes first either way. The entries here are the tuples
//! `(value, order)` or `(key, order)`: the order numbers differ, so the comparisons stop there
//! and are the ones CPython makes, and NaNs and items that do not compare give its result or
//! its error. Each iterable is read one item at a time, when CPython's merge reads it, so a
//! generator it reads goes on where CPython's would; the result is the list of every item.

use super::heapq::{Order, heapify_items, pop_top, replace_top};
use crate::error::Result;
use crate::pipeline::iterate::LoopState;
use crate::pipeline::value_ops::{callable, seq_obj, truthy};
use crate::{AnyValue, AnyView, List, Tuple};

/// `merge(*iterables)`, ascending, without a key.
pub(super) fn merge(args: &[AnyView<'_>]) -> Result<AnyValue> {
    merge_sorted(args, None, false)
}

/// `merge(*iterables, key=k, reverse=r)`, called with `k` and `r` first (see
/// [`crate::ops::star_params`]). A key that is not callable fails when it is first called.
pub(crate) fn merge_with_keywords(args: &[AnyView<'_>]) -> Result<AnyValue> {
    let [key, reverse, iterables @ ..] = args else { unreachable!("the keyword form is passed key and reverse first") };
    let key = (!key.is_none()).then_some(key);
    merge_sorted(iterables, key, truthy(*reverse))
}

/// One iterable being merged: where it is read from, and its item the heap holds.
struct Source {
    items: LoopState,
    current: AnyValue,
}

/// The merge: `key` orders the items when given; `reverse` merges descending iterables.
fn merge_sorted(iterables: &[AnyView<'_>], key: Option<&AnyView<'_>>, reverse: bool) -> Result<AnyValue> {
    let (order, direction) = if reverse { (Order::Max, -1) } else { (Order::Min, 1) };
    // The heap entry of `value` from iterable number `i`.
    let entry = |value: &AnyValue, i: usize| -> Result<AnyValue> {
        let sort_key = match key {
            Some(k) => callable(k.value())?.call(&[value.view()])?,
            None => value.clone(),
        };
        Ok(Tuple::from_vec(vec![sort_key, AnyValue::from_int(direction * i as i64)]).into_any())
    };
    let mut sources = Vec::with_capacity(iterables.len());
    let mut heap = Vec::with_capacity(iterables.len());
    for iterable in iterables {
        let mut items = LoopState::start(*iterable)?;
        let Some(first) = items.next_checked()? else { continue };
        let current = first.resize();
        heap.push(entry(&current, sources.len())?);
        sources.push(Source { items, current });
    }
    heapify_items(&mut heap, order)?;
    let mut out = Vec::new();
    while heap.len() > 1 {
        let source = &mut sources[source_of(&heap[0])];
        out.push(source.current.clone());
        match source.items.next_checked()? {
            Some(next) => {
                source.current = next.resize();
                let i = source_of(&heap[0]);
                let replacement = entry(&sources[i].current, i)?;
                replace_top(&mut heap, order, replacement)?;
            }
            None => {
                pop_top(&mut heap, order)?;
            }
        }
    }
    // The last iterable left is read to its end without comparing.
    if let Some(last) = heap.first() {
        let source = &mut sources[source_of(last)];
        out.push(source.current.clone());
        while let Some(item) = source.items.next_checked()? {
            out.push(item.resize());
        }
    }
    Ok(List::from_vec(out).into())
}

/// The number of the iterable a heap entry came from: its order number, whatever its sign.
fn source_of(entry: &AnyValue) -> usize {
    let order =
        seq_obj(entry.value()).expect("a heap entry is a tuple").with_items(|fields| fields[1].value().as_int());
    order.expect("an entry's order number is an int").unsigned_abs() as usize
}

#[cfg(test)]
mod tests {
    use crate::pipeline::test_values::run_main as run;

    #[test]
    fn merges_as_cpython() {
        // Results from CPython 3.11's heapq.merge.
        let cases = [
            ("heapq.merge([1, 3, 5], [2, 4, 6], [0, 7])", "[0, 1, 2, 3, 4, 5, 6, 7]"),
            ("heapq.merge([5, 3], [4, 1], reverse=True)", "[5, 4, 3, 1]"),
            ("heapq.merge(['b', 'C'], ['a', 'D'], key=lambda s: s.lower())", "['a', 'b', 'C', 'D']"),
            ("heapq.merge([1, 1.0], [True])", "[1, 1.0, True]"),
            ("heapq.merge()", "[]"),
            ("heapq.merge([], [2], [])", "[2]"),
            ("heapq.merge([1, 'a'], [2])", "Type: '<' not supported between instances of 'str' and 'int'"),
        ];
        for (expr, want) in cases {
            assert_eq!(run(&format!("return repr({expr})")), want, "{expr}");
        }
    }
}
