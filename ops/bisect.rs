//! `bisect.*`: binary search of a sorted list, tuple or str (`bisect_left`, `bisect_right` and
//! its alias `bisect`), and insertion into a sorted list where that search lands (`insort_left`,
//! `insort_right`, `insort`), with CPython 3.11's results and errors. `anyproc.script` maps
//! Python's functions to the ops of the same dotted names.
//!
//! Rationale: the search reads the sequence where it stands (a list under its read lock), so a
//! lookup in a list of a million offsets costs twenty comparisons, not a copy. The comparisons
//! are CPython's (`a[mid] < x` for the left search, `x < a[mid]` for the right one), and so are
//! their errors. A script may name `lo=`, `hi=` and `key=` ([`crate::ops::params`] binds them);
//! the op takes them by position, `key` fifth.

use crate::error::{Error, ErrorKind, Result};
use crate::func::Registry;
use crate::pipeline::counter::is_counter;
use crate::pipeline::set_ops::set_of;
use crate::pipeline::value_ops::{callable, dict_obj, index_arg, is_tuple, list_of, py_lt, seq_obj, type_error, vname};
use crate::{AnyValue, AnyView, PackedFunc, Value};

/// Registers the `bisect.*` ops.
pub fn register(reg: &Registry) -> Result<()> {
    let signature = "(a, x, lo=0, hi=None, key=None) -> int";
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
        reg.register(
            op,
            "(a, x, lo=0, hi=None, key=None) -> None",
            doc,
            PackedFunc::new(move |args| insort(name, side, args)),
            false,
        )?;
    }
    Ok(())
}

/// Which end of a run of items equal to `x` the search lands on.
#[derive(Clone, Copy)]
enum Side {
    Left,
    Right,
}

/// `bisect_left(a, x, lo=0, hi=len(a), *, key=None)` and `bisect_right`: the index.
fn search(name: &str, side: Side, args: &[AnyView<'_>]) -> Result<AnyValue> {
    let (lo, hi) = bounds(name, args)?;
    let key = Key(args.get(4).map(|k| k.value()).filter(|k| !matches!(k, Value::None)));
    find(args[0].value(), args[1].value(), (side, &key), non_negative(lo)?, hi).map(|i| AnyValue::from_int(i as i64))
}

/// `insort_left(a, x, lo=0, hi=len(a), *, key=None)` and `insort_right`: `x` inserted into the
/// list `a` where `key(x)` goes among the keys of its items.
fn insort(name: &str, side: Side, args: &[AnyView<'_>]) -> Result<AnyValue> {
    let (lo, hi) = bounds(name, args)?;
    let key = Key(args.get(4).map(|k| k.value()).filter(|k| !matches!(k, Value::None)));
    let a = args[0].value();
    // CPython calls key(x) before it checks `lo`.
    let x_key = key.of(args[1].to_owned())?;
    let at = find(a, x_key.value(), (side, &key), non_negative(lo)?, hi)?;
    let Some(mut list) = list_of(a) else {
        return Err(crate::pipeline::value_ops::no_attribute(a, "insert"));
    };
    list.try_insert(at as i64, args[1].to_owned(), "list.insert()")?;
    Ok(AnyValue::none())
}

/// CPython's argument checks, in its order: the count, then `lo` and `hi` as ints (`hi` None or
/// -1 for the length). `hi` is `None` for the length.
fn bounds(name: &str, args: &[AnyView<'_>]) -> Result<(i64, Option<i64>)> {
    match args.len() {
        0 => return Err(type_error(format!("{name}() missing required argument 'a' (pos 1)"))),
        1 => return Err(type_error(format!("{name}() missing required argument 'x' (pos 2)"))),
        n if n > 5 => return Err(type_error(format!("{name}() takes at most 5 arguments ({n} given)"))),
        _ => {}
    }
    let lo = args.get(2).map_or(Ok(0), index_arg)?;
    let hi = match args.get(3).map(|v| v.value()) {
        None | Some(Value::None) => None,
        Some(Value::Int(h)) => Some(h).filter(|&h| h != -1),
        Some(Value::Bool(b)) => Some(i64::from(b)),
        Some(other) => return Err(type_error(format!("argument should be integer or None, not '{}'", vname(other)))),
    };
    Ok((lo, hi))
}

/// `lo`, which CPython checks when the search starts.
fn non_negative(lo: i64) -> Result<usize> {
    usize::try_from(lo).map_err(|_| Error::value("lo must be non-negative"))
}

/// The `key` argument: what an item is compared by (the item itself when there is none).
struct Key<'a>(Option<Value<'a>>);

impl Key<'_> {
    /// `key(item)`, or `item` itself; a key that is not callable fails only when it is called.
    fn of(&self, item: AnyValue) -> Result<AnyValue> {
        let Some(key) = self.0 else { return Ok(item) };
        callable(key)?.call(&[item.view()])
    }
}

/// The index where `x` goes in `a[lo:hi]` (`hi` the length when `None`). As CPython's, `a` is
/// asked for its length only when `hi` is not given, and for items only when `lo < hi`.
fn find(a: Value<'_>, x: Value<'_>, side: (Side, &Key<'_>), lo: usize, hi: Option<i64>) -> Result<usize> {
    if let Some(items) = seq_obj(a) {
        let what = if is_tuple(a) { "tuple" } else { "list" };
        // The lock is taken for each probe, not the search: a key function may change the list.
        let len = || Ok(items.with_items(|xs| xs.len()));
        return bisect(len, |i| items.with_items(|xs| at(xs, i, what)), x, side, lo, hi);
    }
    let chars: Option<Vec<AnyValue>> = match a {
        Value::Str(s) => Some(s.chars().map(AnyValue::from_char).collect()),
        Value::UStr(u) => Some(u.iter().map(|&c| AnyValue::from_char(c)).collect()),
        _ => None,
    };
    if let Some(xs) = chars {
        return bisect(|| Ok(xs.len()), |i| at(&xs, i, "string"), x, side, lo, hi);
    }
    if let Value::Bytes(b) = a {
        let xs: Vec<AnyValue> = b.iter().map(|&byte| AnyValue::from_int(i64::from(byte))).collect();
        return bisect(|| Ok(xs.len()), |i| at(&xs, i, ""), x, side, lo, hi);
    }
    if let Some(d) = dict_obj(a) {
        if is_counter(a) {
            // A Counter is a Python class with `__len__` and `__getitem__`: a missing key is 0.
            let item = |i: usize| Ok(d.get(AnyView::from(i as i64)).unwrap_or_else(|| AnyValue::from_int(0)));
            return bisect(|| Ok(d.len()), item, x, side, lo, hi);
        }
        let not_sequence = || type_error(format!("{} is not a sequence", vname(a)));
        return bisect(|| Err(not_sequence()), |_| Err(not_sequence()), x, side, lo, hi);
    }
    // Anything else: what CPython's `PySequence_Size`, then `PySequence_GetItem`, says of it.
    let len = || match set_of(a) {
        Some(s) => Ok(s.len()),
        None => Err(type_error(format!("object of type '{}' has no len()", vname(a)))),
    };
    let no_items = |_| Err(type_error(format!("'{}' object does not support indexing", vname(a))));
    bisect(len, no_items, x, side, lo, hi)
}

/// `bisect_right(xs, x, 0, hi)` of items in hand (`random.choices` searches its cumulative
/// weights so).
pub(crate) fn bisect_right(xs: &[AnyValue], x: Value<'_>, hi: usize) -> Result<usize> {
    bisect(|| Ok(xs.len()), |i| at(xs, i, "list"), x, (Side::Right, &Key(None)), 0, Some(hi as i64))
}

/// `xs[i]`, with CPython's IndexError for `what` (`list`, `tuple`, `string`; bytes say only
/// "index out of range").
fn at(xs: &[AnyValue], i: usize, what: &str) -> Result<AnyValue> {
    let message = if what.is_empty() { "index out of range".to_string() } else { format!("{what} index out of range") };
    xs.get(i).cloned().ok_or_else(|| Error::new(ErrorKind::Index, message))
}

/// CPython's `internal_bisect_left`/`_right`: `len` is asked for only when `hi` is not given,
/// and `item(mid)` read at each probe as `a[mid]` is, so an `hi` beyond the end fails only
/// when a probe lands there.
fn bisect(
    len: impl FnOnce() -> Result<usize>,
    item: impl Fn(usize) -> Result<AnyValue>,
    x: Value<'_>,
    (side, key): (Side, &Key<'_>),
    lo: usize,
    hi: Option<i64>,
) -> Result<usize> {
    let mut hi = match hi {
        Some(h) => h,
        None => len()? as i64,
    };
    let mut lo = lo as i64;
    while lo < hi {
        // CPython's `((size_t)lo + hi) / 2`: both are non-negative here.
        let mid = ((lo as u64 + hi as u64) / 2) as i64;
        let item = key.of(item(mid as usize)?)?;
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
