//! The methods that draw from a sequence: `choice`, `shuffle`, `sample` and `choices`, each
//! drawing exactly the numbers `random.py`'s draws, in its order.

use super::draw::{below_len, next_float};
use super::mt::Mt19937 as Mt;
use crate::error::{Error, ErrorKind, Result};
use crate::pipeline::ast::{BinOp, CmpOp};
use crate::pipeline::value_ops::{
    binary, compare, get_item, index_arg, iter_items, len, list_of, seq_obj, set_item, type_error, value_error, vname,
};
use crate::{AnyValue, AnyView, List, Value};
use parking_lot::Mutex;

/// `choice(seq)`.
pub(super) fn choice(mt: &Mutex<Mt>, seq: AnyView<'_>) -> Result<AnyValue> {
    let n = len(seq)?;
    if n == 0 {
        return Err(Error::new(ErrorKind::Index, "Cannot choose from an empty sequence"));
    }
    let i = AnyValue::from_int(below_len(mt, n as usize) as i64);
    Ok(get_item(seq, i.view())?.resize())
}

/// `shuffle(x)`: Fisher-Yates from the end, each swap `x[i], x[j] = x[j], x[i]`.
pub(super) fn shuffle(mt: &Mutex<Mt>, x: AnyView<'_>) -> Result<()> {
    let n = len(x)? as usize;
    if let Some(mut list) = list_of(x.value()) {
        // A list is shuffled under its own lock, drawing as CPython draws.
        return list.with_items_mut(|items| {
            for i in (1..items.len()).rev() {
                items.swap(i, below_len(mt, i + 1));
            }
            Ok(())
        });
    }
    for i in (1..n).rev() {
        let j = AnyValue::from_int(below_len(mt, i + 1) as i64);
        let i = AnyValue::from_int(i as i64);
        let (xj, xi) = (get_item(x, j.view())?, get_item(x, i.view())?);
        set_item(x, i.view(), xj.view())?;
        set_item(x, j.view(), xi.view())?;
    }
    Ok(())
}

/// `sample(population, k)`: `random.py`'s two ways, a pool for small populations and a set of
/// the indices taken for large ones, chosen by the same size rule.
pub(super) fn sample(mt: &Mutex<Mt>, population: AnyView<'_>, k: &AnyView<'_>) -> Result<AnyValue> {
    let v = population.value();
    let is_sequence = seq_obj(v).is_some() || matches!(v, Value::Str(_) | Value::UStr(_) | Value::Bytes(_));
    if !is_sequence {
        return Err(type_error("Population must be a sequence.  For dicts or sets, use sorted(d)."));
    }
    let items = iter_items(v)?;
    let n = items.len();
    let in_range = compare(CmpOp::LtE, AnyView::from(0i64), *k)? && compare(CmpOp::LtE, *k, AnyView::from(n as i64))?;
    if !in_range {
        return Err(value_error("Sample larger than population or is negative"));
    }
    let Some(k) = k.value().as_int() else {
        return Err(type_error(format!("can't multiply sequence by non-int of type '{}'", vname(k.value()))));
    };
    let k = k as usize;
    let mut setsize = 21usize;
    if k > 5 {
        // `4 ** _ceil(_log(k * 3, 4))`, with `math.log`'s division of two logarithms.
        let exponent = (((k * 3) as f64).ln() / 4f64.ln()).ceil() as u32;
        setsize += 4usize.saturating_pow(exponent);
    }
    let mut result = Vec::with_capacity(k);
    if n <= setsize {
        let mut pool = items;
        for i in 0..k {
            let j = below_len(mt, n - i);
            result.push(pool[j].clone());
            pool[j] = pool[n - i - 1].clone();
        }
    } else {
        let mut selected = std::collections::HashSet::with_capacity(k);
        for _ in 0..k {
            let mut j = below_len(mt, n);
            while selected.contains(&j) {
                j = below_len(mt, n);
            }
            selected.insert(j);
            result.push(items[j].clone());
        }
    }
    Ok(List::from_vec(result).into_any())
}

/// `choices(population, weights=None, *, cum_weights=None, k=1)` (the op's arguments in that
/// order).
pub(super) fn choices(mt: &Mutex<Mt>, args: &[AnyView<'_>]) -> Result<AnyValue> {
    let population = args[0];
    let given = |i: usize| args.get(i).copied().filter(|v| !matches!(v.value(), Value::None));
    let (weights, cum_weights) = (given(1), given(2));
    let k = match args.get(3) {
        Some(k) => index_arg(k)?,
        None => 1,
    };
    let n = len(population)?;
    let pick = |i: i64| get_item(population, AnyView::from(i)).map(|v| v.resize());
    let mut out = Vec::new();
    // A `k` the memory cannot hold is a MemoryError up front, not a process killed midway.
    crate::container::try_reserve_items(&mut out, k.max(0) as usize, "random.choices()")?;
    let Some(cum_weights) = (match (weights, cum_weights) {
        (None, None) => None,
        (Some(_), Some(_)) => return Err(type_error("Cannot specify both weights and cumulative weights")),
        (None, Some(c)) => Some(iter_items(c.value())?),
        (Some(w), None) => Some(accumulated(w)?),
    }) else {
        let nf = n as f64;
        for _ in 0..k.max(0) {
            out.push(pick((next_float(mt) * nf).floor() as i64)?);
        }
        return Ok(List::from_vec(out).into_any());
    };
    if cum_weights.len() as i64 != n {
        return Err(value_error("The number of weights does not match the population"));
    }
    let Some(last) = cum_weights.last() else {
        return Err(Error::new(ErrorKind::Index, "list index out of range"));
    };
    let total = binary(BinOp::Add, last.view(), AnyView::from(0.0f64))?;
    let total = total.value().as_float().unwrap_or(f64::NAN);
    if total <= 0.0 {
        return Err(value_error("Total of weights must be greater than zero"));
    }
    if !total.is_finite() {
        return Err(value_error("Total of weights must be finite"));
    }
    let hi = cum_weights.len() - 1;
    for _ in 0..k.max(0) {
        let x = AnyValue::from_float(next_float(mt) * total);
        out.push(pick(crate::ops::bisect::bisect_right(&cum_weights, x.value(), hi)? as i64)?);
    }
    Ok(List::from_vec(out).into_any())
}

/// `list(accumulate(weights))`; a weights argument that is an int is CPython's hint that `k`
/// was meant.
fn accumulated(weights: AnyView<'_>) -> Result<Vec<AnyValue>> {
    let items = match iter_items(weights.value()) {
        Ok(items) => items,
        Err(e) => {
            return Err(match weights.value() {
                Value::Int(k) => type_error(format!("The number of choices must be a keyword argument: k={k}")),
                _ => e,
            });
        }
    };
    let mut sums: Vec<AnyValue> = Vec::with_capacity(items.len());
    for w in items {
        let next = match sums.last() {
            Some(total) => binary(BinOp::Add, total.view(), w.view())?.resize(),
            None => w,
        };
        sums.push(next);
    }
    Ok(sums)
}
