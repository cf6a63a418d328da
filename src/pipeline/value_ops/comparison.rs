//! Comparison and `in`: Python's equality, ordering across numbers and sequences, and identity.

use super::accessors::{Text, check_hashable, dict_in_view, dict_obj, is_tuple, seq_obj};
use super::arithmetic::{Num, num};
use super::{type_error, value_error, vname};
use crate::any::type_index as ti;
use crate::any::{text_first_equal, values_equal};
use crate::container::{ListObj, SetObj};
use crate::pipeline::ast::CmpOp;
use crate::pipeline::set_ops;
use crate::{AnyValue, AnyView, Result, Value};
use std::cmp::Ordering;

/// `a op b` for `== != < <= > >= in not in is is not`, with Python's rules and errors.
pub fn compare(op: CmpOp, a: AnyView<'_>, b: AnyView<'_>) -> Result<bool> {
    match op {
        CmpOp::Eq => Ok(py_eq(a.value(), b.value())),
        CmpOp::NotEq => Ok(!py_eq(a.value(), b.value())),
        CmpOp::Lt | CmpOp::LtE | CmpOp::Gt | CmpOp::GtE => rich_order(op, a.value(), b.value()),
        CmpOp::In => contains(b, a),
        CmpOp::NotIn => contains(b, a).map(|r| !r),
        CmpOp::Is => Ok(is_same(a.value(), b.value())),
        CmpOp::IsNot => Ok(!is_same(a.value(), b.value())),
    }
}

/// Python `==`: numbers exactly across int/float (NaN unequal to itself), everything else by value.
pub(crate) fn py_eq(x: Value<'_>, y: Value<'_>) -> bool {
    match (num(x), num(y)) {
        (Some(p), Some(q)) => num_cmp(p, q) == Some(Ordering::Equal),
        // A keys or items view equals a set with its items (`d.keys() == {"a"}`).
        _ => values_equal(x, y, 0) || crate::pipeline::dict_view_ops::equal(x, y).unwrap_or(false),
    }
}

/// Python `<`, for sorting and `min`.
pub(crate) fn py_lt(x: Value<'_>, y: Value<'_>) -> Result<bool> {
    rich_order(CmpOp::Lt, x, y)
}

/// Python `>`, for `max` (CPython asks `item > best`, which its error message shows).
pub(crate) fn py_gt(x: Value<'_>, y: Value<'_>) -> Result<bool> {
    rich_order(CmpOp::Gt, x, y)
}

pub(crate) fn num_cmp(p: Num, q: Num) -> Option<Ordering> {
    match (p, q) {
        (Num::Int(i), Num::Int(j)) => Some(i.cmp(&j)),
        (Num::Float(f), Num::Float(g)) => f.partial_cmp(&g),
        (Num::Int(i), Num::Float(f)) => int_float_cmp(i, f),
        (Num::Float(f), Num::Int(i)) => int_float_cmp(i, f).map(Ordering::reverse),
    }
}

/// Compares an int with a float exactly, as CPython does (no rounding of the int).
fn int_float_cmp(i: i64, f: f64) -> Option<Ordering> {
    const TWO_63: f64 = 9_223_372_036_854_775_808.0;
    if f.is_nan() {
        return None;
    }
    if f >= TWO_63 {
        return Some(Ordering::Less);
    }
    if f < -TWO_63 {
        return Some(Ordering::Greater);
    }
    let t = f.trunc();
    Some(i.cmp(&(t as i64)).then(t.partial_cmp(&f).unwrap_or(Ordering::Equal)))
}

fn apply_order(op: CmpOp, ord: Ordering) -> bool {
    match op {
        CmpOp::Lt => ord.is_lt(),
        CmpOp::LtE => ord.is_le(),
        CmpOp::Gt => ord.is_gt(),
        _ => ord.is_ge(),
    }
}

pub(crate) fn rich_order(op: CmpOp, x: Value<'_>, y: Value<'_>) -> Result<bool> {
    if let (Some(p), Some(q)) = (num(x), num(y)) {
        // Every order comparison with NaN is false.
        return Ok(num_cmp(p, q).is_some_and(|o| apply_order(op, o)));
    }
    let ord = match (x, y) {
        (Value::Str(p), Value::Str(q)) => p.cmp(q), // UTF-8 byte order is code point order
        (Value::Str(_) | Value::UStr(_), Value::Str(_) | Value::UStr(_)) => {
            Text::of(x).unwrap().chars().cmp(Text::of(y).unwrap().chars())
        }
        (Value::Bytes(p), Value::Bytes(q)) => p.cmp(q),
        _ if let Some(ord) = crate::pipeline::bytearray_ops::byte_order(x, y) => ord,
        _ => match (seq_obj(x), seq_obj(y)) {
            (Some(p), Some(q)) if is_tuple(x) == is_tuple(y) => return list_order(op, p, q),
            _ if let Some(subset) = set_ops::order(op, x, y) => return Ok(subset),
            _ if let Some(included) = crate::pipeline::counter::counter_order(op, x, y) => return included,
            _ if let Some(ordered) = crate::pipeline::deque_ops::order(op, x, y) => return ordered,
            _ if let Some(subset) = crate::pipeline::dict_view_ops::compare(op, x, y) => return subset,
            _ if let Some(ordered) = crate::ops::cmp_to_key::order(op, x, y) => return ordered,
            _ => {
                return Err(type_error(format!(
                    "'{}' not supported between instances of '{}' and '{}'",
                    op.symbol(),
                    vname(x),
                    vname(y)
                )));
            }
        },
    };
    Ok(apply_order(op, ord))
}

/// Lexicographic, as lists compare: the first unequal items decide, else the lengths.
fn list_order(op: CmpOp, p: &ListObj, q: &ListObj) -> Result<bool> {
    p.with_items(|xs| q.with_items(|ys| items_order(op, xs, ys)))
}

/// [`list_order`] of items in hand (a deque's).
pub(crate) fn items_order(op: CmpOp, xs: &[AnyValue], ys: &[AnyValue]) -> Result<bool> {
    for (a, b) in xs.iter().zip(ys) {
        if !values_equal(a.value(), b.value(), 0) {
            return rich_order(op, a.value(), b.value());
        }
    }
    Ok(apply_order(op, xs.len().cmp(&ys.len())))
}

/// `is`: identity for containers and other objects, same type and value for scalars and strings.
fn is_same(x: Value<'_>, y: Value<'_>) -> bool {
    match (x, y) {
        (Value::Object(p), Value::Object(q)) => p == q,
        (Value::Object(_), _) | (_, Value::Object(_)) => false,
        _ => same_plain_type(x, y) && values_equal(x, y, 0),
    }
}

/// Whether two values that are not objects have the same Python type (a UTF-8 and a UCS4
/// string are both `str`), without naming it.
fn same_plain_type(x: Value<'_>, y: Value<'_>) -> bool {
    match (x, y) {
        (Value::Str(_) | Value::UStr(_), Value::Str(_) | Value::UStr(_)) => true,
        (Value::Pod(..), Value::Pod(..)) => vname(x) == vname(y),
        _ => std::mem::discriminant(&x) == std::mem::discriminant(&y),
    }
}

/// `x in h` for bytes (or a bytearray's) `h`: an int is one byte, a bytes-like value a run of
/// bytes; anything else is CPython's TypeError.
fn bytes_contain(h: &[u8], x: Value<'_>) -> Result<bool> {
    match x {
        _ if let Some(n) = crate::pipeline::bytearray_ops::bytes_like(x) => Ok(memchr::memmem::find(h, &n).is_some()),
        Value::Int(_) | Value::Bool(_) => {
            let b = x.as_int().unwrap_or_default();
            let b = u8::try_from(b).map_err(|_| value_error("byte must be in range(0, 256)"))?;
            Ok(h.contains(&b))
        }
        _ => Err(type_error(format!("a bytes-like object is required, not '{}'", vname(x)))),
    }
}

/// `item in container`: substring for str and bytes, item for list, key for dict.
pub fn contains(container: AnyView<'_>, item: AnyView<'_>) -> Result<bool> {
    // A set first, before anything is decoded: `w in STOPWORDS` is the hot case.
    if let Some(s) = container.as_obj().filter(|o| o.type_index() == ti::SET).and_then(|o| o.downcast_ref::<SetObj>()) {
        return s.contains(item);
    }
    // `w in counts`: a text key is hashable, and is looked up as it stands.
    if let Some(d) = dict_in_view(&container).filter(|_| item.as_str().is_some()) {
        return Ok(d.contains_key(item));
    }
    let (c, x) = (container.value(), item.value());
    match c {
        Value::Str(_) | Value::UStr(_) => match Text::of(x) {
            Some(needle) => Ok(text_contains(Text::of(c).unwrap(), needle)),
            None => Err(type_error(format!("'in <string>' requires string as left operand, not {}", vname(x)))),
        },
        Value::Bytes(h) => bytes_contain(h, x),
        _ => {
            // By type index, and on the object where it stands: no handle (two atomic counts)
            // is made for a membership test.
            if let Some(l) = seq_obj(c) {
                // Text against text as bytes, without decoding each item (`w in stopwords`).
                let text = item.as_str();
                let equal = |v: &AnyValue| text_first_equal(v.as_str(), text, || values_equal(v.value(), x, 0));
                return Ok(l.with_items(|xs| xs.iter().any(equal)));
            }
            if let Some(d) = dict_obj(c) {
                check_hashable(x)?;
                return Ok(d.contains_key(item));
            }
            if let Some(items) = crate::pipeline::deque_ops::snapshot(c) {
                return Ok(items.iter().any(|v| py_eq(v.value(), x)));
            }
            if let Some(b) = crate::pipeline::bytearray_ops::byte_array_of(c) {
                return bytes_contain(&b.to_vec(), x);
            }
            if let Some(shown) = crate::pipeline::dict_view_ops::view_of(c) {
                return crate::pipeline::dict_view_ops::contains(shown, item);
            }
            if let Some(g) = crate::pipeline::generator::generator_of(c) {
                // Items are taken up to the first equal one, as CPython's `in` takes them.
                while let Some(v) = g.next()? {
                    if py_eq(v.value(), x) {
                        return Ok(true);
                    }
                }
                return Ok(false);
            }
            Err(type_error(format!("argument of type '{}' is not iterable", vname(c))))
        }
    }
}

fn text_contains(hay: Text<'_>, needle: Text<'_>) -> bool {
    match (hay, needle) {
        (Text::Utf8(h), n) => h.contains(&*n.as_str()),
        (Text::Ucs4(h), n) => {
            let n = n.to_chars();
            n.is_empty() || h.windows(n.len()).any(|w| w == &*n)
        }
    }
}
