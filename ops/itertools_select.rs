//! `itertools.takewhile`, `dropwhile`, `filterfalse`, `compress`, `starmap` and
//! `zip_longest` (`fillvalue=` too): the items of an iterable a predicate or a mask selects, a
//! function applied to each tuple, and iterables zipped to the longest; CPython 3.11's results
//! and errors.
//!
//! Rationale: like the other `itertools` ops here each gives the list of its items at once.
//! `takewhile` reads its iterable one item at a time and stops where CPython's stops, so a
//! generator it reads goes on where CPython's would.

use super::itertools::counted;
use crate::error::Result;
use crate::func::{OpEntry, Registry};
use crate::ops::params::check_count;
use crate::pipeline::iterate::LoopState;
use crate::pipeline::value_ops::{callable, iter_items, truthy};
use crate::{AnyValue, AnyView, List, Tuple};

/// Registers the ops.
pub fn register(reg: &Registry) -> Result<()> {
    let ops: &[OpEntry] = &[
        (
            "itertools.takewhile",
            "(*predicate_iterable) -> list",
            "The items while the predicate holds, as itertools.takewhile.",
            takewhile,
        ),
        (
            "itertools.dropwhile",
            "(*predicate_iterable) -> list",
            "The items from the first the predicate fails on, as itertools.dropwhile.",
            dropwhile,
        ),
        (
            "itertools.filterfalse",
            "(*function_iterable) -> list",
            "The items the function (or truth, for None) rejects, as itertools.filterfalse.",
            filterfalse,
        ),
        (
            "itertools.compress",
            "(*data_selectors) -> list",
            "The items whose selector is true, as itertools.compress.",
            compress,
        ),
        (
            "itertools.starmap",
            "(*function_iterable) -> list",
            "function(*item) for each item, as itertools.starmap.",
            starmap,
        ),
        (
            "itertools.zip_longest",
            "(*iterables) -> list",
            "Tuples of the items of each iterable, None for those that ran out, as itertools.zip_longest.",
            zip_longest,
        ),
    ];
    reg.register_ops(ops)
}

/// The two arguments of a function that takes exactly two and no keywords, counted as CPython
/// counts them.
fn two<'a, 'b>(name: &str, args: &'a [AnyView<'b>]) -> Result<(&'a AnyView<'b>, &'a AnyView<'b>)> {
    counted(name, args, 2, 2)?;
    Ok((&args[0], &args[1]))
}

/// `predicate(item)`'s truth; `None` as the predicate is called, and fails, as in CPython.
fn holds(predicate: &AnyView<'_>, item: &AnyValue) -> Result<bool> {
    let result = callable(predicate.value())?.call(&[item.view()])?;
    Ok(truthy(result.view()))
}

fn takewhile(args: &[AnyView<'_>]) -> Result<AnyValue> {
    let (predicate, iterable) = two("takewhile", args)?;
    let mut items = LoopState::start(*iterable)?;
    let mut out = Vec::new();
    while let Some(item) = items.next_checked()? {
        let item = item.resize();
        if !holds(predicate, &item)? {
            break;
        }
        out.push(item);
    }
    Ok(List::from_vec(out).into())
}

fn dropwhile(args: &[AnyView<'_>]) -> Result<AnyValue> {
    let (predicate, iterable) = two("dropwhile", args)?;
    let mut items = LoopState::start(*iterable)?;
    let mut out = Vec::new();
    let mut dropping = true;
    while let Some(item) = items.next_checked()? {
        let item = item.resize();
        if dropping && holds(predicate, &item)? {
            continue;
        }
        dropping = false;
        out.push(item);
    }
    Ok(List::from_vec(out).into())
}

fn filterfalse(args: &[AnyView<'_>]) -> Result<AnyValue> {
    let (function, iterable) = two("filterfalse", args)?;
    let mut out = Vec::new();
    for item in iter_items(iterable.value())? {
        let keep = match function.is_none() {
            true => !truthy(item.view()),
            false => !holds(function, &item)?,
        };
        if keep {
            out.push(item);
        }
    }
    Ok(List::from_vec(out).into())
}

fn compress(args: &[AnyView<'_>]) -> Result<AnyValue> {
    check_count("itertools.compress", args.len())?;
    let (data, selectors) = (iter_items(args[0].value())?, iter_items(args[1].value())?);
    let kept = data.into_iter().zip(selectors).filter(|(_, s)| truthy(s.view())).map(|(d, _)| d);
    Ok(List::from_vec(kept.collect()).into())
}

fn starmap(args: &[AnyView<'_>]) -> Result<AnyValue> {
    let (function, iterable) = two("starmap", args)?;
    let mut out = Vec::new();
    for item in iter_items(iterable.value())? {
        let call_args = iter_items(item.value())?;
        let views: Vec<AnyView<'_>> = call_args.iter().map(AnyValue::view).collect();
        out.push(callable(function.value())?.call(&views)?);
    }
    Ok(List::from_vec(out).into())
}

/// `zip_longest(*iterables)`, its `fillvalue` None.
fn zip_longest(args: &[AnyView<'_>]) -> Result<AnyValue> {
    zip_longest_filled(args, AnyValue::none())
}

/// `zip_longest(*iterables, fillvalue=v)`, called with `v` first (see
/// [`crate::ops::star_params`]).
pub(crate) fn zip_longest_with_keywords(args: &[AnyView<'_>]) -> Result<AnyValue> {
    let (fill, iterables) = args.split_first().expect("the keyword form is passed fillvalue first");
    zip_longest_filled(iterables, fill.to_owned())
}

/// Tuples of the items of each of `iterables`, `fill` for those that ran out.
///
/// Each row takes one item of each iterable still going, in turn, as CPython's `zip_longest`
/// steps them, so an iterator given twice (`zip_longest(it, it)`, the "grouper" recipe) fills a
/// row with consecutive items; the row in which the last one runs out is not made.
fn zip_longest_filled(iterables: &[AnyView<'_>], fill: AnyValue) -> Result<AnyValue> {
    let mut states = iterables.iter().map(|a| LoopState::start(*a).map(Some)).collect::<Result<Vec<_>>>()?;
    let mut active = states.len();
    let mut rows = Vec::new();
    while active > 0 {
        let mut row = Vec::with_capacity(states.len());
        for state in states.iter_mut() {
            let item = match state {
                Some(going) => going.next_checked()?,
                None => None,
            };
            match item {
                Some(x) => row.push(x.resize()),
                None if state.is_none() => row.push(fill.clone()),
                None => {
                    *state = None;
                    active -= 1;
                    if active == 0 {
                        break;
                    }
                    row.push(fill.clone());
                }
            }
        }
        if active > 0 {
            crate::container::try_reserve_items(&mut rows, 1, "zip_longest()")?;
            rows.push(Tuple::from_vec(row).into_any());
        }
    }
    Ok(List::from_vec(rows).into())
}

#[cfg(test)]
mod tests {
    use crate::pipeline::test_values::run_main as run;

    // Expected values: the itertools documentation's examples (and CPython 3.11's output).
    #[test]
    fn the_documented_examples() {
        let cases = [
            ("itertools.takewhile(lambda x: x < 5, [1, 4, 6, 3, 8])", "[1, 4]"),
            ("itertools.dropwhile(lambda x: x < 5, [1, 4, 6, 3, 8])", "[6, 3, 8]"),
            ("itertools.filterfalse(lambda x: x < 5, [1, 4, 6, 3, 8])", "[6, 8]"),
            ("itertools.compress('ABCDEF', [1, 0, 1, 0, 1, 1])", "['A', 'C', 'E', 'F']"),
            ("itertools.starmap(pow, [(2, 5), (3, 2), (10, 3)])", "[32, 9, 1000]"),
            ("itertools.zip_longest('ABCD', 'xy')", "[('A', 'x'), ('B', 'y'), ('C', None), ('D', None)]"),
            ("itertools.zip_longest('ABCD', 'xy', fillvalue='-')", "[('A', 'x'), ('B', 'y'), ('C', '-'), ('D', '-')]"),
            // The grouper recipe: one iterator given twice.
            ("itertools.zip_longest(*[iter('abcde')] * 2, fillvalue='-')", "[('a', 'b'), ('c', 'd'), ('e', '-')]"),
            ("itertools.zip_longest()", "[]"),
            // `product`'s own examples, with `repeat=`.
            ("itertools.product('AB', repeat=2)", "[('A', 'A'), ('A', 'B'), ('B', 'A'), ('B', 'B')]"),
            (
                "itertools.product(range(2), 'x', repeat=2)",
                "[(0, 'x', 0, 'x'), (0, 'x', 1, 'x'), (1, 'x', 0, 'x'), (1, 'x', 1, 'x')]",
            ),
            ("itertools.product('AB', repeat=0)", "[()]"),
        ];
        for (expr, want) in cases {
            assert_eq!(run(&format!("return repr({expr})")), want, "{expr}");
        }
        assert_eq!(run("return repr(itertools.takewhile(None, [1]))"), "Type: 'NoneType' object is not callable");
    }
}
