//! `itertools.combinations`, `combinations_with_replacement` and `permutations`: pairs of
//! words for co-occurrence features, orderings of a few fields; CPython 3.11's tuples in its
//! order (by position in the iterable, lexicographically) and its errors.
//!
//! Rationale: like the other `itertools` ops here each gives the list of its tuples at once,
//! and the room for all of them is asked for first, so a count too large to hold is a
//! `MemoryError` rather than a process killed midway. The index sequences are the ones the
//! `itertools` documentation gives as these functions' equivalent Python code.

use crate::container::try_reserve_items;
use crate::error::{Error, Result};
use crate::func::{OpEntry, Registry};
use crate::ops::params::check_count;
use crate::pipeline::value_ops::{index_arg, iter_items, type_error, value_error};
use crate::{AnyValue, AnyView, List, Tuple, Value};

/// Registers the three ops.
pub fn register(reg: &Registry) -> Result<()> {
    let ops: &[OpEntry] = &[
        (
            "itertools.combinations",
            "(*iterable_r) -> list",
            "The r-length tuples of the items in their order, no item twice, as itertools.combinations.",
            combinations,
        ),
        (
            "itertools.combinations_with_replacement",
            "(*iterable_r) -> list",
            "The r-length tuples of the items in their order, items repeating, as itertools.combinations_with_replacement.",
            combinations_with_replacement,
        ),
        (
            "itertools.permutations",
            "(*iterable_r) -> list",
            "The r-length orderings of the items (all of them for r=None), as itertools.permutations.",
            permutations,
        ),
    ];
    reg.register_ops(ops)
}

fn non_negative(r: i64) -> Result<usize> {
    usize::try_from(r).map_err(|_| value_error("r must be non-negative"))
}

/// An empty list with room for `count` tuples (`None`: more than a machine word counts).
fn room(count: Option<u128>, what: &str) -> Result<Vec<AnyValue>> {
    let count = count.and_then(|c| usize::try_from(c).ok()).ok_or_else(|| Error::out_of_memory(what, usize::MAX))?;
    let mut out = Vec::new();
    try_reserve_items(&mut out, count, what)?;
    Ok(out)
}

/// `n! / (k! (n - k)!)`, `None` past 128 bits.
fn binomial(n: usize, k: usize) -> Option<u128> {
    let k = k.min(n.saturating_sub(k));
    (0..k).try_fold(1u128, |acc, i| acc.checked_mul((n - i) as u128).map(|x| x / (i as u128 + 1)))
}

/// The tuple of `pool`'s items at `indices`.
fn pick(pool: &[AnyValue], indices: &[usize]) -> AnyValue {
    Tuple::from_vec(indices.iter().map(|&i| pool[i].clone()).collect()).into()
}

/// `combinations(iterable, r)`.
fn combinations(args: &[AnyView<'_>]) -> Result<AnyValue> {
    check_count("itertools.combinations", args.len())?;
    let r = index_arg(&args[1])?;
    let pool = iter_items(args[0].value())?;
    let (n, r) = (pool.len(), non_negative(r)?);
    if r > n {
        return Ok(List::new().into());
    }
    let mut out = room(binomial(n, r), "itertools.combinations")?;
    let mut indices: Vec<usize> = (0..r).collect();
    out.push(pick(&pool, &indices));
    // The rightmost index that can still move, moved one on, and those after it just behind.
    while let Some(i) = (0..r).rev().find(|&i| indices[i] != i + n - r) {
        indices[i] += 1;
        for j in i + 1..r {
            indices[j] = indices[j - 1] + 1;
        }
        out.push(pick(&pool, &indices));
    }
    Ok(List::from_vec(out).into())
}

/// `combinations_with_replacement(iterable, r)`.
fn combinations_with_replacement(args: &[AnyView<'_>]) -> Result<AnyValue> {
    check_count("itertools.combinations_with_replacement", args.len())?;
    let r = index_arg(&args[1])?;
    let pool = iter_items(args[0].value())?;
    let (n, r) = (pool.len(), non_negative(r)?);
    if n == 0 && r > 0 {
        return Ok(List::new().into());
    }
    let count = if r == 0 { Some(1) } else { binomial(n + r - 1, r) };
    let mut out = room(count, "itertools.combinations_with_replacement")?;
    let mut indices = vec![0usize; r];
    out.push(pick(&pool, &indices));
    while let Some(i) = (0..r).rev().find(|&i| indices[i] != n - 1) {
        let next = indices[i] + 1;
        indices[i..].fill(next);
        out.push(pick(&pool, &indices));
    }
    Ok(List::from_vec(out).into())
}

/// `permutations(iterable, r=None)`.
fn permutations(args: &[AnyView<'_>]) -> Result<AnyValue> {
    check_count("itertools.permutations", args.len())?;
    let pool = iter_items(args[0].value())?;
    let n = pool.len();
    let r = match args.get(1).map(|a| a.value()) {
        None | Some(Value::None) => n,
        Some(v @ (Value::Int(_) | Value::Bool(_))) => non_negative(v.as_int().unwrap_or(0))?,
        Some(_) => return Err(type_error("Expected int as r")),
    };
    if r > n {
        return Ok(List::new().into());
    }
    let count = (n - r + 1..=n).try_fold(1u128, |acc, k| acc.checked_mul(k as u128));
    let mut out = room(count, "itertools.permutations")?;
    let mut indices: Vec<usize> = (0..n).collect();
    let mut cycles: Vec<usize> = (0..r).map(|i| n - i).collect();
    out.push(pick(&pool, &indices[..r]));
    // The documentation's loop: each step turns the rightmost cycle that has not run out.
    'next: loop {
        for i in (0..r).rev() {
            cycles[i] -= 1;
            if cycles[i] == 0 {
                indices[i..].rotate_left(1);
                cycles[i] = n - i;
            } else {
                let j = n - cycles[i];
                indices.swap(i, j);
                out.push(pick(&pool, &indices[..r]));
                continue 'next;
            }
        }
        break;
    }
    Ok(List::from_vec(out).into())
}

#[cfg(test)]
mod tests {
    use crate::pipeline::test_values::run_main as run;

    // Expected values: the itertools documentation's examples (and CPython 3.11's output).
    #[test]
    fn the_documented_examples() {
        assert_eq!(
            run("return repr(itertools.combinations('ABCD', 2))"),
            "[('A', 'B'), ('A', 'C'), ('A', 'D'), ('B', 'C'), ('B', 'D'), ('C', 'D')]"
        );
        assert_eq!(
            run("return repr(itertools.combinations_with_replacement('ABC', 2))"),
            "[('A', 'A'), ('A', 'B'), ('A', 'C'), ('B', 'B'), ('B', 'C'), ('C', 'C')]"
        );
        assert_eq!(
            run("return repr(itertools.permutations('ABCD', 2))"),
            "[('A', 'B'), ('A', 'C'), ('A', 'D'), ('B', 'A'), ('B', 'C'), ('B', 'D'), ('C', 'A'), ('C', 'B'), ('C', 'D'), ('D', 'A'), ('D', 'B'), ('D', 'C')]"
        );
        assert_eq!(
            run("return repr(itertools.permutations(range(3)))"),
            "[(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]"
        );
        assert_eq!(run("return repr((itertools.combinations('', 0), itertools.permutations('ab', 3)))"), "([()], [])");
        assert_eq!(run("return repr(itertools.combinations('ab', -1))"), "Value: r must be non-negative");
    }

    #[test]
    fn a_count_too_large_to_hold_is_a_memory_error() {
        assert!(run("return repr(itertools.permutations(range(40)))").starts_with("Memory:"));
    }
}
