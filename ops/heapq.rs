//! `heapq.*`: a binary min-heap kept in a list (`heappush`, `heappop`, `heapify`,
//! `heapreplace`, `heappushpop`) and the `n` smallest or largest items of an iterable
//! (`nsmallest`, `nlargest`, `key=` by name too), with CPython 3.11's results and errors.
//! `anyproc.script` maps Python's functions to the ops of the same dotted names.
//!
//! Rationale: the sifts are `_heapqmodule.c`'s step for step (which child wins a tie, where an
//! item stops, the cache-friendly order `heapify` takes for large lists), so a heap a script
//! builds holds its items in the order CPython's holds them. `nsmallest` and `nlargest` follow
//! `heapq.py` (its shortcuts, and its heap of `(item, order)` tuples otherwise), so that NaNs
//! and items that do not compare give CPython's result or error, which `sorted()[:n]` would
//! not. A sift takes the items out of the list and puts them back afterwards: items are never
//! compared while the list's lock is held, since an item may hold the list itself.

use crate::error::Result;
use crate::func::{OpEntry, Registry};
use crate::ops::params::check_count;
use crate::pipeline::ast::{CmpOp, UnaryOp};
use crate::pipeline::keyed::{extreme, sort_keyed};
use crate::pipeline::value_ops::{
    arg_vname, callable, compare, index_arg, index_error, is_iterable, iter_items, len, list_of, py_lt, seq_obj,
    sort_by_python_lt, type_error, unary, vname,
};
use crate::{AnyValue, AnyView, List, Tuple, Value};

/// Registers the `heapq.*` ops. Their signatures take any number of arguments, so that a
/// wrong count is CPython's TypeError when the call runs, not an error compiling the script.
pub fn register(reg: &Registry) -> Result<()> {
    let ops: &[OpEntry] = &[
        ("heapq.heappush", "(*heap_item) -> None", "Pushes item onto the heap, as heapq.heappush.", heappush),
        ("heapq.heappop", "(*heap) -> value", "Pops the smallest item off the heap, as heapq.heappop.", heappop),
        ("heapq.heapify", "(*list) -> None", "Makes the list a heap, in place, as heapq.heapify.", heapify),
        (
            "heapq.heapreplace",
            "(*heap_item) -> value",
            "Pops the smallest item, then pushes item, as heapq.heapreplace.",
            heapreplace,
        ),
        (
            "heapq.heappushpop",
            "(*heap_item) -> value",
            "Pushes item, then pops the smallest item, as heapq.heappushpop.",
            heappushpop,
        ),
        (
            "heapq.merge",
            "(*iterables) -> list",
            "The items of sorted iterables, merged in order, as heapq.merge.",
            super::heapq_merge::merge,
        ),
        (
            "heapq.nsmallest",
            "(n, iterable, key=None) -> list",
            "The n smallest items, smallest first (by key), as heapq.nsmallest.",
            nsmallest,
        ),
        (
            "heapq.nlargest",
            "(n, iterable, key=None) -> list",
            "The n largest items, largest first (by key), as heapq.nlargest.",
            nlargest,
        ),
    ];
    reg.register_ops(ops)
}

/// Which way a heap is ordered: `heapq`'s public heaps are min-heaps; `nsmallest` keeps the
/// `n` smallest items in a max-heap (`_heapify_max`, `_heapreplace_max`).
#[derive(Clone, Copy)]
pub(super) enum Order {
    Min,
    Max,
}

impl Order {
    /// Whether `a` belongs above `b`: `a < b` in a min-heap, `b < a` in a max-heap, the
    /// comparison CPython makes (which its error message shows).
    fn above(self, a: &AnyValue, b: &AnyValue) -> Result<bool> {
        match self {
            Order::Min => py_lt(a.value(), b.value()),
            Order::Max => py_lt(b.value(), a.value()),
        }
    }
}

/// `siftdown(heap, startpos, pos)`: the item at `pos` moves up past the parents it belongs above.
fn sift_down(heap: &mut [AnyValue], order: Order, start: usize, mut pos: usize) -> Result<()> {
    while pos > start {
        let parent = (pos - 1) >> 1;
        if !order.above(&heap[pos], &heap[parent])? {
            break;
        }
        heap.swap(parent, pos);
        pos = parent;
    }
    Ok(())
}

/// `siftup(heap, pos)`: the smaller child moves up until a leaf is reached, then the item that
/// was at `pos` moves back up from there ([`sift_down`]).
pub(super) fn sift_up(heap: &mut [AnyValue], order: Order, mut pos: usize) -> Result<()> {
    let end = heap.len();
    let start = pos;
    let limit = end >> 1;
    while pos < limit {
        let mut child = 2 * pos + 1;
        // The right child wins unless the left one belongs above it.
        if child + 1 < end && !order.above(&heap[child], &heap[child + 1])? {
            child += 1;
        }
        heap.swap(child, pos);
        pos = child;
    }
    sift_down(heap, order, start, pos)
}

/// `heapify`: [`sift_up`] on every node with a child, bottom up; for more than 2,500 items in
/// CPython's cache-friendly order (`cache_friendly_heapify`), which gives the same heap but
/// compares in another order, so that an error stops it where CPython's stops.
pub(super) fn heapify_items(heap: &mut [AnyValue], order: Order) -> Result<()> {
    let n = heap.len();
    if n <= 2500 {
        for i in (0..n / 2).rev() {
            sift_up(heap, order, i)?;
        }
        return Ok(());
    }
    let m = n >> 1; // the first node with no child
    let leftmost = keep_top_bit(m + 1) - 1; // the leftmost node in m's row
    let mhalf = m >> 1; // the parent of m
    // Each node, then its ancestors for as long as it is their right child.
    let sift_with_ancestors = |heap: &mut [AnyValue], mut j: usize| -> Result<()> {
        loop {
            sift_up(heap, order, j)?;
            if j & 1 == 0 {
                return Ok(());
            }
            j >>= 1;
        }
    };
    for i in (mhalf..leftmost).rev() {
        sift_with_ancestors(heap, i)?;
    }
    for i in (leftmost..m).rev() {
        sift_with_ancestors(heap, i)?;
    }
    Ok(())
}

/// The largest power of two not above `n` (`n >= 1`).
fn keep_top_bit(n: usize) -> usize {
    1 << (usize::BITS - 1 - n.leading_zeros())
}

/// Runs `f` on the items of the list `heap`, taken out of it for the time `f` runs and put
/// back after, whatever `f` returns (a failed sift leaves the list as far as it got, as
/// CPython's does).
fn with_heap<R>(mut heap: List, f: impl FnOnce(&mut Vec<AnyValue>) -> Result<R>) -> Result<R> {
    let mut items = heap.with_items_mut(std::mem::take);
    let result = f(&mut items);
    heap.with_items_mut(|slot| *slot = items);
    result
}

/// The list a heap function is given, or CPython's TypeError naming `what` (its argument);
/// Argument Clinic writes None as itself, other values by their type.
fn heap_arg(name: &str, what: &str, v: &AnyView<'_>) -> Result<List> {
    list_of(v.value()).ok_or_else(|| type_error(format!("{name}() {what} must be list, not {}", arg_vname(v.value()))))
}

/// A function of two positional arguments: CPython's count error otherwise.
fn two_args<'a, 'v>(name: &str, args: &'a [AnyView<'v>]) -> Result<(&'a AnyView<'v>, &'a AnyView<'v>)> {
    match args {
        [a, b] => Ok((a, b)),
        _ => Err(type_error(format!("{name} expected 2 arguments, got {}", args.len()))),
    }
}

/// A function of one argument (`METH_O`): CPython's count error otherwise.
fn one_arg<'a, 'v>(name: &str, args: &'a [AnyView<'v>]) -> Result<&'a AnyView<'v>> {
    match args {
        [a] => Ok(a),
        _ => Err(type_error(format!("_heapq.{name}() takes exactly one argument ({} given)", args.len()))),
    }
}

fn heappush(args: &[AnyView<'_>]) -> Result<AnyValue> {
    let (heap, item) = two_args("heappush", args)?;
    let heap = heap_arg("heappush", "argument 1", heap)?;
    with_heap(heap, |items| {
        items.push(item.to_owned());
        let last = items.len() - 1;
        sift_down(items, Order::Min, 0, last)
    })?;
    Ok(AnyValue::none())
}

fn heappop(args: &[AnyView<'_>]) -> Result<AnyValue> {
    let heap = heap_arg("heappop", "argument", one_arg("heappop", args)?)?;
    with_heap(heap, |items| pop_top(items, Order::Min))
}

/// `heappop` on a heap of either order: the top, with the last item sifted in its place.
pub(super) fn pop_top(items: &mut Vec<AnyValue>, order: Order) -> Result<AnyValue> {
    let last = items.pop().ok_or_else(|| index_error("index out of range"))?;
    if items.is_empty() {
        return Ok(last);
    }
    let top = std::mem::replace(&mut items[0], last);
    sift_up(items, order, 0)?;
    Ok(top)
}

fn heapify(args: &[AnyView<'_>]) -> Result<AnyValue> {
    let heap = heap_arg("heapify", "argument", one_arg("heapify", args)?)?;
    with_heap(heap, |items| heapify_items(items, Order::Min))?;
    Ok(AnyValue::none())
}

fn heapreplace(args: &[AnyView<'_>]) -> Result<AnyValue> {
    let (heap, item) = two_args("heapreplace", args)?;
    let heap = heap_arg("heapreplace", "argument 1", heap)?;
    with_heap(heap, |items| replace_top(items, Order::Min, item.to_owned()))
}

/// `heapreplace` on a heap of either order: the top, with `item` sifted in its place.
pub(super) fn replace_top(items: &mut [AnyValue], order: Order, item: AnyValue) -> Result<AnyValue> {
    let Some(slot) = items.first_mut() else { return Err(index_error("index out of range")) };
    let top = std::mem::replace(slot, item);
    sift_up(items, order, 0)?;
    Ok(top)
}

fn heappushpop(args: &[AnyView<'_>]) -> Result<AnyValue> {
    let (heap, item) = two_args("heappushpop", args)?;
    let heap = heap_arg("heappushpop", "argument 1", heap)?;
    with_heap(heap, |items| {
        // `item` comes straight back unless the top is smaller.
        match items.first() {
            Some(top) if py_lt(top.value(), item.value())? => replace_top(items, Order::Min, item.to_owned()),
            _ => Ok(item.to_owned()),
        }
    })
}

fn nsmallest(args: &[AnyView<'_>]) -> Result<AnyValue> {
    select("heapq.nsmallest", false, args)
}

fn nlargest(args: &[AnyView<'_>]) -> Result<AnyValue> {
    select("heapq.nlargest", true, args)
}

/// `heapq.py`'s `nsmallest(n, iterable, key=None)` (`largest` false) or `nlargest`.
fn select(op: &str, largest: bool, args: &[AnyView<'_>]) -> Result<AnyValue> {
    check_count(op, args.len())?;
    let none = AnyValue::none();
    let (n, iterable, key) = (args[0], args[1], args.get(2).copied().unwrap_or(none.view()));
    // `n == 1`: `min(iterable, default=sentinel, key=key)` (or `max`), the first of equal ones.
    if matches!(n.value(), Value::Int(1) | Value::Bool(true)) || matches!(n.value(), Value::Float(f) if f == 1.0) {
        let items = iter_items(iterable.value())?;
        if items.is_empty() {
            return Ok(List::new().into());
        }
        let items: AnyValue = List::from_vec(items).into();
        let found = extreme(largest, key, None, &[items.view()])?;
        return Ok(List::from_vec(vec![found.resize()]).into());
    }
    // `n >= len(iterable)`: `sorted(iterable, key=key, reverse=largest)[:n]`.
    if let Ok(size) = len(iterable) {
        if compare(CmpOp::GtE, n, AnyView::from(size))? {
            let mut items = iter_items(iterable.value())?;
            sort_keyed(&mut items, key, largest)?;
            let n = match n.value() {
                Value::Int(n) => n,
                Value::Bool(b) => i64::from(b),
                _ => return Err(type_error("slice indices must be integers or None or have an __index__ method")),
            };
            items.truncate(usize::try_from(n).unwrap_or(0));
            return Ok(List::from_vec(items).into());
        }
    }
    if !is_iterable(iterable.value()) {
        return Err(type_error(format!("'{}' object is not iterable", vname(iterable.value()))));
    }
    // `zip(range(n), it)` (`range(0, -n, -1)` for nlargest) takes nothing from the iterable
    // when `n` is 0 or less.
    if largest {
        unary(UnaryOp::Neg, n)?;
    }
    let n = index_arg(&n)?;
    if n <= 0 {
        return Ok(List::new().into());
    }
    let items = iter_items(iterable.value())?;
    if items.is_empty() {
        return Ok(List::new().into());
    }
    // A key that is not callable fails only when it is called: here, on the first item.
    let key = if key.is_none() { None } else { Some(callable(key.value())?) };
    let order = if largest { Order::Min } else { Order::Max };
    // The heap's entries: `(key, order, item)`, or `(item, order)` without a key; the order
    // numbers count down for `nlargest`, so that of equal keys the first seen wins either way.
    let entry = |x: &AnyValue, i: i64| -> Result<AnyValue> {
        let number = AnyValue::from_int(if largest { -i } else { i });
        let fields = match &key {
            Some(f) => vec![f.call(&[x.view()])?, number, x.clone()],
            None => vec![x.clone(), number],
        };
        Ok(Tuple::from_vec(fields).into_any())
    };
    let first = items.len().min(n as usize);
    let mut heap = items[..first].iter().zip(0..).map(|(x, i)| entry(x, i)).collect::<Result<Vec<_>>>()?;
    heapify_items(&mut heap, order)?;
    let mut top = first_field(&heap[0]);
    let mut count = n;
    for x in &items[first..] {
        let candidate = entry(x, count)?;
        let k = first_field(&candidate);
        // `k < top` for nsmallest, `top < k` for nlargest.
        let better = if largest { py_lt(top.value(), k.value())? } else { py_lt(k.value(), top.value())? };
        if better {
            replace_top(&mut heap, order, candidate)?;
            top = first_field(&heap[0]);
            count += 1;
        }
    }
    sort_by_python_lt(&mut heap, AnyValue::value, largest)?;
    let item_at = if key.is_some() { 2 } else { 0 };
    Ok(List::from_vec(heap.iter().map(|entry| field(entry, item_at)).collect()).into())
}

/// Field `i` of a heap entry.
fn field(entry: &AnyValue, i: usize) -> AnyValue {
    seq_obj(entry.value()).expect("a heap entry is a tuple").with_items(|fields| fields[i].clone())
}

/// The first field of a heap entry (its key, or the item itself).
fn first_field(entry: &AnyValue) -> AnyValue {
    field(entry, 0)
}
