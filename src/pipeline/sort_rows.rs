//! Sorting lists of rows (`sorted([[-count, word] for ...])`, the usual way to rank) without
//! a Python comparison per pair.
//!
//! Python compares two lists item by item: the first pair that is not `==` decides with `<`,
//! else the shorter list is less. When the items at each position are all numbers (no NaN)
//! or all strs, no such comparison can raise and together they are a total order, so the
//! standard library's stable sort gives the order CPython's stable sort gives. Each row is
//! read once, under its list's lock, instead of twice per comparison.

use super::value_ops::{is_tuple, num, num_cmp, seq_obj};
use crate::{AnyValue, Value};
use std::cmp::Ordering;

/// What the items at one position of every row must all be.
#[derive(Clone, Copy, PartialEq)]
enum Column {
    Numbers,
    Strs,
}

fn column_of(v: Value<'_>) -> Option<Column> {
    match v {
        Value::Int(_) | Value::Bool(_) => Some(Column::Numbers),
        Value::Float(f) if !f.is_nan() => Some(Column::Numbers),
        Value::Str(_) => Some(Column::Strs),
        _ => None,
    }
}

/// The items of every list or tuple in `items` (read through `key`), when all are lists (or all
/// tuples) whose items at each position are all numbers or all strs; `None` otherwise.
pub(crate) fn rows_of<T>(items: &[T], key: fn(&T) -> Value<'_>) -> Option<Vec<Vec<AnyValue>>> {
    let rows: Vec<Vec<AnyValue>> =
        items.iter().map(|x| seq_obj(key(x)).map(|l| l.with_items(<[AnyValue]>::to_vec))).collect::<Option<_>>()?;
    // A list and a tuple do not compare: the general sort raises CPython's error for them.
    let tuples = items.iter().filter(|x| is_tuple(key(x))).count();
    if tuples != 0 && tuples != items.len() {
        return None;
    }
    let mut columns: Vec<Column> = Vec::new();
    for row in &rows {
        for (p, v) in row.iter().enumerate() {
            let c = column_of(v.value())?;
            match columns.get(p) {
                Some(&want) if want != c => return None,
                Some(_) => {}
                None => columns.push(c),
            }
        }
    }
    Some(rows)
}

/// Python's order of two rows that [`rows_of`] accepted.
pub(crate) fn compare_rows(a: &[AnyValue], b: &[AnyValue]) -> Ordering {
    for (x, y) in a.iter().zip(b) {
        let order = match (x.as_str(), y.as_str()) {
            (Some(s), Some(t)) => s.cmp(t),
            // Both numbers (`rows_of` checked the column), none of them NaN.
            _ => match (num(x.value()), num(y.value())) {
                (Some(p), Some(q)) => num_cmp(p, q).unwrap_or(Ordering::Equal),
                _ => Ordering::Equal,
            },
        };
        if order != Ordering::Equal {
            return order;
        }
    }
    a.len().cmp(&b.len())
}
