//! `bisect.*`: binary search of a sorted list, tuple or str (`bisect_left`, `bisect_right` and
//! its alias `bisect`), and insertion into a sorted list where that search lands (`insort_left`,
//! `insort_right`, `insort`), with CPython 3.11's results and errors. `anyproc.script` maps
//! Python's functions to the ops of the same dotted names.
//!
//! Rationale: the search reads the sequence where it stands (a list under its read lock), so a
//! lookup in a list of a million offsets costs twenty comparisons, not a copy. The comparisons
//! are CPython's (`a[mid] < x` for the left search, `x < a[mid]` for the right one), and so are
//! their errors. Positional arguments only: `lo=`/`hi=`/`key=` keywords are refused when the
//! call is compiled.

use crate::error::{Error, ErrorKind, Result};
use crate::func::Registry;
use crate::pipeline::value_ops::{is_tuple, list_of, py_lt, seq_obj, type_error, vname};
use crate::{AnyValue, AnyView, PackedFunc, Value};

/// Registers the `bisect.*` ops.
pub fn register(reg: &Registry) -> Result<()> {
    let signature = "(*a_x_lo_hi) -> int";
    let searches: [(&str, &str, Side); 3] = [
        ("bisect.bisect_left", "bisect_left", Side::Left),
        ("bisect.bisect_right", "bisect_right", Side::Right),
        ("bisect.bisect", "bisect_right", Side::Right),
    ];
    for (op, name, side) in searches {
        let doc = "Where x goes in the sorted a[lo:hi]: before equal items (left) or after them, as Python's bisect.";
        reg.register(op, signature, doc, PackedFunc::new(move |args| search(name, side, args)), false)?;
    }
    let inserts: [(&str, &str, Side); 3] = [
        ("bisect.insort_left", "insort_left", Side::Left),
        ("bisect.insort_right", "insort_right", Side::Right),
        ("bisect.insort", "insort_right", Side::Right),
    ];
    for (op, name, side) in inserts {
        let doc = "Inserts x into the sorted list a where bisect finds its place, as Python's insort.";
        reg.register(op, "(*a_x_lo_hi) -> None", doc, PackedFunc::new(move |args| insort(name, side, args)), false)?;
    }
    Ok(())
}

/// Which end of a run of items equal to `x` the search lands on.
#[derive(Clone, Copy)]
enum Side {
    Left,
    Right,
}

/// `bisect_left(a, x, lo=0, hi=len(a))` and `bisect_right`: the index.
fn search(name: &str, side: Side, args: &[AnyView<'_>]) -> Result<AnyValue> {
    let (lo, hi) = bounds(name, args)?;
    find(args[0].value(), args[1].value(), side, lo, hi).map(|i| AnyValue::from_int(i as i64))
}

/// `insort_left(a, x, lo=0, hi=len(a))` and `insort_right`: `x` inserted into the list `a`.
fn insort(name: &str, side: Side, args: &[AnyView<'_>]) -> Result<AnyValue> {
    let (lo, hi) = bounds(name, args)?;
    let (a, x) = (args[0].value(), args[1].value());
    let at = find(a, x, side, lo, hi)?;
    let Some(mut list) = list_of(a) else {
        return Err(type_error(format!("'{}' object has no attribute 'insert'", vname(a))));
    };
    list.insert(at as i64, args[1].to_owned::<0>());
    Ok(AnyValue::none())
}

/// CPython's argument checks, in its order: the count, then `lo` and `hi` as ints (`hi` None or
/// -1 for the length), then `lo` non-negative. `hi` is `None` for the length.
fn bounds(name: &str, args: &[AnyView<'_>]) -> Result<(usize, Option<i64>)> {
    match args.len() {
        0 => return Err(type_error(format!("{name}() missing required argument 'a' (pos 1)"))),
        1 => return Err(type_error(format!("{name}() missing required argument 'x' (pos 2)"))),
        n if n > 4 => return Err(type_error(format!("{name}() takes at most 4 positional arguments ({n} given)"))),
        _ => {}
    }
    let lo = args.get(2).map_or(Ok(0), |v| index_arg(v.value()))?;
    let hi = match args.get(3).map(|v| v.value()) {
        None | Some(Value::None) => None,
        Some(Value::Int(h)) => Some(h).filter(|&h| h != -1),
        Some(Value::Bool(b)) => Some(i64::from(b)),
        Some(other) => return Err(type_error(format!("argument should be integer or None, not '{}'", vname(other)))),
    };
    if lo < 0 {
        return Err(Error::value("lo must be non-negative"));
    }
    Ok((lo as usize, hi))
}

/// An int argument, with CPython's message for anything else.
fn index_arg(v: Value<'_>) -> Result<i64> {
    match v {
        Value::Int(i) => Ok(i),
        Value::Bool(b) => Ok(i64::from(b)),
        other => Err(type_error(format!("'{}' object cannot be interpreted as an integer", vname(other)))),
    }
}

/// The index where `x` goes in `a[lo:hi]` (`hi` the length when `None`).
fn find(a: Value<'_>, x: Value<'_>, side: Side, lo: usize, hi: Option<i64>) -> Result<usize> {
    if let Some(items) = seq_obj(a) {
        let what = if is_tuple(a) { "tuple" } else { "list" };
        return items.with_items(|xs| bisect(xs, x, side, lo, hi, what));
    }
    if let Value::Str(s) = a {
        let chars: Vec<AnyValue> = s.chars().map(AnyValue::from_char).collect();
        return bisect(&chars, x, side, lo, hi, "string");
    }
    if let Value::UStr(u) = a {
        let chars: Vec<AnyValue> = u.iter().map(|&c| AnyValue::from_char(c)).collect();
        return bisect(&chars, x, side, lo, hi, "string");
    }
    let message = match a {
        // CPython asks for the length first, and then for items.
        _ if hi.is_none() => format!("object of type '{}' has no len()", vname(a)),
        _ => format!("'{}' object does not support indexing", vname(a)),
    };
    Err(type_error(message))
}

/// CPython's `internal_bisect_left`/`_right` over `xs`: the item at each probe is read as
/// `a[mid]` reads it, so an `hi` beyond the end fails (`what index out of range`) only when a
/// probe lands there.
fn bisect(xs: &[AnyValue], x: Value<'_>, side: Side, lo: usize, hi: Option<i64>, what: &str) -> Result<usize> {
    let (mut lo, mut hi) = (lo as i64, hi.unwrap_or(xs.len() as i64));
    while lo < hi {
        // CPython's `((size_t)lo + hi) / 2`: both are non-negative here.
        let mid = ((lo as u64 + hi as u64) / 2) as i64;
        let item =
            xs.get(mid as usize).ok_or_else(|| Error::new(ErrorKind::Index, format!("{what} index out of range")))?;
        let go_right = match side {
            Side::Left => py_lt(item.value(), x)?,
            Side::Right => !py_lt(x, item.value())?,
        };
        if go_right {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    Ok(lo as usize)
}
