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
fn zip_longest_filled(iterables: &[AnyView<'_>], fill: AnyValue) -> Result<AnyValue> {
    let columns = iterables.iter().map(|a| iter_items(a.value())).collect::<Result<Vec<_>>>()?;
    let rows = columns.iter().map(Vec::len).max().unwrap_or(0);
    let tuple = |row: usize| {
        let items = columns.iter().map(|c| c.get(row).unwrap_or(&fill).clone()).collect();
        Tuple::from_vec(items).into()
    };
    Ok(List::from_vec((0..rows).map(tuple).collect()).into())
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
