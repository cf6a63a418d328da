//! Python's `bytearray` in anyscript: its construction, its own methods (`append`, `extend`,
//! `pop`, `insert`, `remove`, `reverse`, `clear`, `copy`), the methods it shares with `bytes`
//! (giving a bytearray where CPython's does), indexing, slicing, operators and comparisons,
//! with CPython 3.11's results and messages. The container is
//! [`crate::container::ByteArray`]; `value_ops` sends a bytearray here wherever it meets one.
//!
//! Rationale: the shared methods run `bytes`' own code (`bytes_methods.rs`, `str_codecs.rs`) on
//! a copy of the bytes, so the two types cannot drift apart; only their results are retyped.

use super::Slot;
use super::ast::BinOp;
use super::methods::Method;
use super::value_ops::{index_arg, index_error, norm_index, type_error, value_error, vname};
use crate::container::{ByteArray, ByteArrayObj, byte_array_obj};
use crate::{AnyValue, AnyView, Error, FromAny, List, Result, Tuple, Value};
use std::borrow::Cow;

/// The bytearray behind `v`, if it is one.
pub(crate) fn byte_array_of(v: Value<'_>) -> Option<&ByteArrayObj> {
    v.as_obj().and_then(byte_array_obj)
}

/// The bytes of a bytes-like value (`bytes` or `bytearray`, the latter copied).
pub(crate) fn bytes_like(v: Value<'_>) -> Option<Cow<'_, [u8]>> {
    match v {
        Value::Bytes(b) => Some(Cow::Borrowed(b)),
        _ => byte_array_of(v).map(|b| Cow::Owned(b.to_vec())),
    }
}

/// A new bytearray holding `bytes`, as a register value.
pub(crate) fn new_slot(bytes: Vec<u8>) -> Slot {
    ByteArray::new(bytes).into_any().into()
}

/// `bytearray()`, `bytearray(n)`, `bytearray(text, encoding[, errors])`,
/// `bytearray(iterable_of_ints)` and `bytearray(bytes_like)`: what `bytes()` makes of the same
/// arguments, with the messages CPython's bytearray gives.
pub(crate) fn bytearray_builtin(args: &[AnyView<'_>]) -> Result<Slot> {
    made_bytes(args).map(new_slot)
}

/// The bytes `bytearray(*args)` holds.
fn made_bytes(args: &[AnyView<'_>]) -> Result<Vec<u8>> {
    let made = super::str_codecs::bytes_made_by("bytearray", args)?;
    Ok(super::str_codecs::bytes_of(made.value()).map(<[u8]>::to_vec).unwrap_or_default())
}

/// Runs `f` with `args` in which every bytearray is replaced by a bytes copy of it, as the
/// methods of `bytes` read their arguments.
pub(crate) fn with_bytes_args<R>(args: &[AnyView<'_>], f: impl FnOnce(&[AnyView<'_>]) -> R) -> R {
    // A tuple of prefixes (`startswith((b'a', bytearray(b'b')))`) is read as bytes too.
    let in_tuple = |v: Value<'_>| {
        Tuple::from_value(v).is_some_and(|t| t.with_items(|xs| xs.iter().any(|x| byte_array_of(x.value()).is_some())))
    };
    if !args.iter().any(|a| byte_array_of(a.value()).is_some() || in_tuple(a.value())) {
        return f(args);
    }
    let as_bytes = |v: AnyValue| match byte_array_of(v.value()) {
        Some(b) => AnyValue::from_bytes(&b.to_vec()),
        None => v,
    };
    let owned: Vec<AnyValue> = args
        .iter()
        .map(|a| match Tuple::from_value(a.value()).filter(|_| in_tuple(a.value())) {
            Some(t) => Tuple::from_vec(t.to_vec().into_iter().map(as_bytes).collect()).into_any(),
            None => as_bytes(a.to_owned()),
        })
        .collect();
    let views: Vec<AnyView<'_>> = owned.iter().map(AnyValue::view).collect();
    f(&views)
}

/// `b.method(*args)`, its arguments counted by the method table.
pub(crate) fn method(m: Method, b: &ByteArrayObj, args: &[AnyView<'_>]) -> Result<Slot> {
    use Method::*;
    let none = Ok(Slot::none());
    match m {
        Append => {
            let byte = byte_arg(&args[0])?;
            b.with_bytes_mut(|bytes| bytes.push(byte));
            none
        }
        Extend => {
            let more = extension(args[0].value())?;
            b.with_bytes_mut(|bytes| bytes.extend_from_slice(&more));
            none
        }
        Pop => {
            let at = args.first().map(index_arg).transpose()?;
            b.with_bytes_mut(|bytes| {
                if bytes.is_empty() {
                    return Err(index_error("pop from empty bytearray"));
                }
                let i =
                    norm_index(at.unwrap_or(-1), bytes.len()).ok_or_else(|| index_error("pop index out of range"))?;
                Ok(Slot::from_int(i64::from(bytes.remove(i))))
            })
        }
        Insert => {
            let at = index_arg(&args[0])?;
            let byte = byte_arg(&args[1])?;
            b.with_bytes_mut(|bytes| {
                let n = bytes.len() as i64;
                let i = if at < 0 { (at + n).max(0) } else { at.min(n) };
                bytes.insert(i as usize, byte);
            });
            none
        }
        Remove => {
            let byte = byte_arg(&args[0])?;
            let removed = b.with_bytes_mut(|bytes| bytes.iter().position(|&c| c == byte).map(|i| bytes.remove(i)));
            removed.map(|_| Slot::none()).ok_or_else(|| value_error("value not found in bytearray"))
        }
        Reverse => {
            b.with_bytes_mut(|bytes| bytes.reverse());
            none
        }
        Clear => {
            b.with_bytes_mut(Vec::clear);
            none
        }
        Copy => Ok(new_slot(b.to_vec())),
        Decode => super::str_codecs::decode(&b.to_vec(), args),
        // A static method: bytes, from either type.
        Maketrans => with_bytes_args(args, |args| super::bytes_methods::call(m, &[], args)),
        _ => {
            let own = b.to_vec();
            let result = with_bytes_args(args, |args| super::bytes_methods::call(m, &own, args))?;
            Ok(retyped(result))
        }
    }
}

/// A shared method's result as CPython's bytearray gives it: bytes, and the bytes in a list or
/// tuple (`split`, `partition`), become bytearrays; anything else stays as it is.
fn retyped(result: Slot) -> Slot {
    let v = result.value();
    if let Value::Bytes(b) = v {
        return new_slot(b.to_vec());
    }
    let retype = |items: Vec<AnyValue>| -> Vec<AnyValue> {
        items
            .into_iter()
            .map(|x| match x.value() {
                Value::Bytes(b) => ByteArray::new(b.to_vec()).into_any(),
                _ => x,
            })
            .collect()
    };
    if let Some(t) = Tuple::from_value(v) {
        return Tuple::from_vec(retype(t.to_vec())).into_any().into();
    }
    if let Some(l) = List::from_value(v) {
        return List::from_vec(retype(l.to_vec())).into_any().into();
    }
    result
}

/// A byte given as an int (`append`, `insert`, `remove`, `b[i] = x`), with CPython's errors.
fn byte_arg(v: &AnyView<'_>) -> Result<u8> {
    byte_value(v.value())
}

/// [`byte_arg`] of a value.
fn byte_value(x: Value<'_>) -> Result<u8> {
    let Some(n) = x.as_int() else {
        return Err(type_error(format!("'{}' object cannot be interpreted as an integer", vname(x))));
    };
    u8::try_from(n).map_err(|_| value_error("byte must be in range(0, 256)"))
}

/// The bytes `extend` and `+=` add: a bytes-like value's, or an iterable's ints (all read
/// before any is added, as CPython's `extend` builds them first).
fn extension(x: Value<'_>) -> Result<Vec<u8>> {
    if let Some(bytes) = bytes_like(x) {
        return Ok(bytes.into_owned());
    }
    if !super::value_ops::is_iterable(x) {
        return Err(type_error(format!("can't extend bytearray with {}", vname(x))));
    }
    super::value_ops::iter_items(x)?.iter().map(|item| byte_value(item.value())).collect()
}

/// The bytes `b[i:j] = value` stores, with CPython's errors: a number or a str is refused, other
/// values are read as `bytearray(value)` reads them.
pub(crate) fn assigned_bytes(view: AnyView<'_>) -> Result<Vec<u8>> {
    let value = view.value();
    if let Some(bytes) = bytes_like(value) {
        return Ok(bytes.into_owned());
    }
    if matches!(value, Value::Int(_) | Value::Bool(_) | Value::Float(_)) || super::value_ops::Text::of(value).is_some()
    {
        return Err(type_error("can assign only bytes, buffers, or iterables of ints in range(0, 256)"));
    }
    made_bytes(&[view])
}

/// `b[i]`: the byte as an int.
pub(crate) fn get_item(b: &ByteArrayObj, key: Value<'_>) -> Result<Slot> {
    let Some(i) = key.as_int() else {
        return Err(type_error(format!("bytearray indices must be integers or slices, not {}", vname(key))));
    };
    b.with_bytes(|bytes| norm_index(i, bytes.len()).map(|i| Slot::from_int(i64::from(bytes[i]))))
        .ok_or_else(|| index_error("bytearray index out of range"))
}

/// `b[i] = x`.
pub(crate) fn set_item(b: &ByteArrayObj, key: Value<'_>, value: AnyView<'_>) -> Result<()> {
    let Some(i) = key.as_int() else {
        return Err(type_error(format!("bytearray indices must be integers or slices, not {}", vname(key))));
    };
    let byte = byte_arg(&value)?;
    b.with_bytes_mut(|bytes| norm_index(i, bytes.len()).map(|i| bytes[i] = byte))
        .ok_or_else(|| index_error("bytearray index out of range"))
}

/// `del b[i]`.
pub(crate) fn del_item(b: &ByteArrayObj, key: Value<'_>) -> Result<()> {
    let Some(i) = key.as_int() else {
        return Err(type_error(format!("bytearray indices must be integers or slices, not {}", vname(key))));
    };
    b.with_bytes_mut(|bytes| {
        norm_index(i, bytes.len()).map(|i| {
            bytes.remove(i);
        })
    })
    .ok_or_else(|| index_error("bytearray index out of range"))
}

/// `a + b` and `a * n` (either side) where a bytearray takes part; `None` when none does.
/// (`bytes + bytearray` is bytes, as the left operand's type decides.)
pub(crate) fn binary(op: BinOp, x: Value<'_>, y: Value<'_>) -> Option<Result<Slot>> {
    let (bx, by) = (byte_array_of(x), byte_array_of(y));
    if bx.is_none() && by.is_none() {
        return None;
    }
    Some(match op {
        // A left operand that is not bytes-like words its own error (`"x" + b`, `1 + b`).
        BinOp::Add if bytes_like(x).is_none() => return None,
        BinOp::Add => concatenated(x, y).map(|(joined, left_is_array)| match left_is_array {
            true => new_slot(joined),
            false => Slot::from_bytes(&joined),
        }),
        BinOp::Mul => match (bx, by) {
            (Some(b), _) => repeated(b, y).map(new_slot),
            (None, Some(b)) if x.as_int().is_some() => repeated(b, x).map(new_slot),
            // `"ab" * b`: the left sequence repeated by a bytearray; `1.5 * b`: b by a float.
            (None, Some(_)) => {
                let sequence = matches!(x, Value::Str(_) | Value::UStr(_) | Value::Bytes(_))
                    || super::value_ops::seq_obj(x).is_some();
                let by = if sequence { vname(y) } else { vname(x) };
                Err(type_error(format!("can't multiply sequence by non-int of type '{by}'")))
            }
            (None, None) => return None,
        },
        _ => return None,
    })
}

/// The bytes of `x + y` and whether `x` is the bytearray, or CPython's error.
fn concatenated(x: Value<'_>, y: Value<'_>) -> Result<(Vec<u8>, bool)> {
    match (bytes_like(x), bytes_like(y)) {
        (Some(a), Some(b)) => {
            let mut out = Vec::new();
            crate::container::try_reserve_items(&mut out, a.len() + b.len(), "bytearray +")?;
            out.extend_from_slice(&a);
            out.extend_from_slice(&b);
            Ok((out, byte_array_of(x).is_some()))
        }
        _ => Err(type_error(format!("can't concat {} to {}", vname(y), vname(x)))),
    }
}

/// The bytes of `b * n` (`n` an int, else CPython's error).
fn repeated(b: &ByteArrayObj, n: Value<'_>) -> Result<Vec<u8>> {
    let Some(n) = n.as_int() else {
        return Err(type_error(format!("can't multiply sequence by non-int of type '{}'", vname(n))));
    };
    let bytes = b.to_vec();
    let times = usize::try_from(n).unwrap_or(0);
    let total = bytes.len().checked_mul(times).ok_or_else(|| Error::out_of_memory("bytearray *", usize::MAX))?;
    let mut out = Vec::new();
    crate::container::try_reserve_items(&mut out, total, "bytearray *")?;
    for _ in 0..times {
        out.extend_from_slice(&bytes);
    }
    Ok(out)
}

/// `b += x` (bytes-like) and `b *= n`, in place; `None` when `x` is not a bytearray.
pub(crate) fn in_place(op: BinOp, x: Value<'_>, y: Value<'_>) -> Option<Result<()>> {
    let b = byte_array_of(x)?;
    Some(match op {
        BinOp::Add => match bytes_like(y) {
            Some(more) => {
                let more = more.into_owned();
                b.with_bytes_mut(|bytes| bytes.extend_from_slice(&more));
                Ok(())
            }
            None => Err(type_error(format!("can't concat {} to bytearray", vname(y)))),
        },
        BinOp::Mul => repeated(b, y).map(|bytes| b.with_bytes_mut(|old| *old = bytes)),
        _ => return None,
    })
}

/// The order of `x` and `y` by their bytes when one is a bytearray and the other bytes-like;
/// `None` otherwise (CPython's TypeError then, or another type's order).
pub(crate) fn byte_order(x: Value<'_>, y: Value<'_>) -> Option<std::cmp::Ordering> {
    if byte_array_of(x).is_none() && byte_array_of(y).is_none() {
        return None;
    }
    Some(bytes_like(x)?.cmp(&bytes_like(y)?))
}

/// The bytes as a list of ints, for a loop over them.
pub(crate) fn snapshot(v: Value<'_>) -> Option<Vec<AnyValue>> {
    byte_array_of(v).map(|b| b.to_vec().into_iter().map(|c| AnyValue::from_int(i64::from(c))).collect())
}

/// `b[lower:upper:step]`, from the bytes' slice.
pub(crate) fn slice(b: &ByteArrayObj, pick: impl FnOnce(&[u8]) -> Vec<u8>) -> Slot {
    new_slot(b.with_bytes(pick))
}

#[cfg(test)]
mod tests {
    // Expected values: CPython 3.11's output for the same statements.
    use crate::pipeline::test_values::run_main as run;

    #[test]
    fn a_bytearray_changes_in_place_and_keeps_its_type() {
        let cases = [
            ("b = bytearray(b'ab')\nc = b\nc.append(99)\nc += b'd'\nreturn repr(b)", "bytearray(b'abcd')"),
            ("b = bytearray(b'abc')\nb[0] = 65\ndel b[1]\nreturn repr(b)", "bytearray(b'Ac')"),
            ("b = bytearray(b'abcd')\nb[1:3] = b'xyz'\nreturn repr(b)", "bytearray(b'axyzd')"),
            ("b = bytearray(b'abcd')\ndel b[::2]\nreturn repr(b)", "bytearray(b'bd')"),
            ("return repr(bytearray(b'a b').split())", "[bytearray(b'a'), bytearray(b'b')]"),
            ("return repr((bytearray(b'x') + b'y', b'y' + bytearray(b'x')))", "(bytearray(b'xy'), b'yx')"),
            ("return repr(bytearray(b\"it's\"))", "bytearray(b\"it\\'s\")"),
            (
                "return repr([bytearray(b'a') == b'a', b'a' in bytearray(b'ba'), list(bytearray(b'ab'))])",
                "[True, True, [97, 98]]",
            ),
        ];
        for (body, want) in cases {
            assert_eq!(run(body), want, "{body}");
        }
        assert_eq!(run("return repr(bytearray().pop())"), "Index: pop from empty bytearray");
        assert_eq!(run("return repr(bytearray(b'a').append(256))"), "Value: byte must be in range(0, 256)");
        assert_eq!(run("return repr({bytearray(): 1})"), "Type: unhashable type: 'bytearray'");
    }
}
