//! `+` and `*` of sequences: concatenation and repetition of text, lists and tuples.

use super::accessors::{Text, dict_of, is_tuple, seq_obj, try_copy_items};
use super::arithmetic::unsupported;
use super::{type_error, vname};
use crate::container::try_reserve_items;
use crate::pipeline::ast::BinOp;
use crate::pipeline::{Slot, set_ops};
use crate::{AnyValue, Dict, Error, ErrorKind, List, Result, Tuple, Value};

fn is_sequence(v: Value<'_>) -> bool {
    matches!(v, Value::Str(_) | Value::UStr(_) | Value::Bytes(_)) || seq_obj(v).is_some()
}

/// A new sequence of `items` of the same kind as `like`: a tuple for a tuple, else a list.
pub(crate) fn same_kind(like: Value<'_>, items: Vec<AnyValue>) -> Slot {
    match is_tuple(like) {
        true => Tuple::from_vec(items).into(),
        false => List::from_vec(items).into(),
    }
}

pub(super) fn seq_binary(op: BinOp, x: Value<'_>, y: Value<'_>) -> Result<Slot> {
    if let Some(result) = set_ops::binary(op, x, y) {
        return result;
    }
    match op {
        BinOp::Add => match (x, y) {
            (Value::Str(_) | Value::UStr(_), _) => match (Text::of(x), Text::of(y)) {
                (Some(p), Some(q)) => concat_text(p, q),
                _ => Err(type_error(format!("can only concatenate str (not \"{}\") to str", vname(y)))),
            },
            (Value::Bytes(p), Value::Bytes(q)) => Slot::try_concat_bytes(&[p, q])
                .ok_or_else(|| Error::out_of_memory("bytes +", p.len().saturating_add(q.len()))),
            (Value::Bytes(_), _) => Err(type_error(format!("can't concat {} to bytes", vname(y)))),
            _ => match (seq_obj(x), seq_obj(y)) {
                (Some(p), Some(q)) if is_tuple(x) == is_tuple(y) => {
                    let mut items = p.with_items(|xs| try_copy_items(xs, "list +"))?;
                    q.with_items(|ys| {
                        try_reserve_items(&mut items, ys.len(), "list +").map(|()| items.extend_from_slice(ys))
                    })?;
                    Ok(same_kind(x, items))
                }
                (Some(_), _) => {
                    let kind = vname(x);
                    Err(type_error(format!("can only concatenate {kind} (not \"{}\") to {kind}", vname(y))))
                }
                _ => Err(unsupported(op, x, y)),
            },
        },
        BinOp::Mul => {
            let (seq, n) = if is_sequence(x) {
                (x, y)
            } else if is_sequence(y) {
                (y, x)
            } else {
                return Err(unsupported(op, x, y));
            };
            let Some(n) = n.as_int() else {
                return Err(type_error(format!("can't multiply sequence by non-int of type '{}'", vname(n))));
            };
            repeat(seq, n)
        }
        BinOp::BitOr => match (dict_of(x), dict_of(y)) {
            (Some(p), Some(q)) => {
                let mut d = Dict::with_kind(crate::pipeline::ordered_dict::union_kind(p.kind(), q.kind()));
                d.extend(p.items());
                d.extend(q.items());
                Ok(d.into())
            }
            _ => Err(unsupported(op, x, y)),
        },
        _ => Err(unsupported(op, x, y)),
    }
}

fn concat_text(p: Text<'_>, q: Text<'_>) -> Result<Slot> {
    match (p, q) {
        (Text::Utf8(a), Text::Utf8(b)) => {
            Slot::try_concat_text(a, b).ok_or_else(|| Error::out_of_memory("str +", a.len() + b.len()))
        }
        // Either side UCS4: the result stays UCS4 so that indexing it is O(1).
        _ => {
            let n = p.char_len() + q.char_len();
            Slot::try_from_char_iter(n, p.chars().chain(q.chars()))
                .ok_or_else(|| Error::out_of_memory("str +", n.saturating_mul(4)))
        }
    }
}

/// Results longer than this are refused as `MemoryError`s without asking the allocator: a
/// request within the machine's overcommit would be granted and then filled until the
/// process is killed. Below it, a refused allocation is a `MemoryError` too.
pub(crate) const MAX_RESULT_BYTES: usize = 1 << 34;

fn repeat(seq: Value<'_>, n: i64) -> Result<Slot> {
    let n = n.max(0) as usize;
    let refused = |what: &str, bytes: usize| Error::out_of_memory(what, bytes);
    // As CPython: text whose length (in characters) times `n` overflows a signed size is an
    // `OverflowError`; any other result too large is a `MemoryError`. Returns the bytes needed.
    // The characters are counted only for a result already too large (never more than bytes).
    let text_bytes = |chars: &dyn Fn() -> usize, bytes: usize, what: &str| -> Result<usize> {
        let total = bytes.saturating_mul(n);
        if total <= MAX_RESULT_BYTES {
            return Ok(total);
        }
        if chars().checked_mul(n).is_none_or(|c| c > i64::MAX as usize) {
            return Err(Error::new(ErrorKind::Overflow, format!("{what} is too long")));
        }
        Err(refused(what, total))
    };
    match seq {
        Value::Str(s) => {
            let bytes = text_bytes(&|| s.chars().count(), s.len(), "repeated string")?;
            Slot::try_repeat_text(s, n).ok_or_else(|| refused("repeated string", bytes))
        }
        Value::UStr(u) => {
            let bytes = text_bytes(&|| u.len(), u.len() * 4, "repeated string")?;
            Slot::try_repeat_chars(u, n).ok_or_else(|| refused("repeated string", bytes))
        }
        Value::Bytes(b) => {
            let bytes = text_bytes(&|| b.len(), b.len(), "repeated bytes")?;
            Slot::try_repeat_bytes(b, n).ok_or_else(|| refused("repeated bytes", bytes))
        }
        _ => {
            let items = seq_obj(seq).map(|l| l.with_items(<[AnyValue]>::to_vec)).unwrap_or_default();
            let Some(bytes) = items.len().checked_mul(n).and_then(|k| k.checked_mul(16)) else {
                return Err(Error::new(ErrorKind::Memory, "repeated list: its size overflows"));
            };
            if bytes > MAX_RESULT_BYTES {
                return Err(refused("repeated list", bytes));
            }
            let total = items.len() * n;
            let mut out = Vec::new();
            out.try_reserve_exact(total).map_err(|_| refused("repeated list", bytes))?;
            // Doubling what is there: log2(n) copies, not n, so `[0] * 10**6` is 20 copies and
            // `[] * 2**62` none (it looped 2**62 times).
            if total > 0 {
                out.extend_from_slice(&items);
            }
            while out.len() < total {
                let more = (total - out.len()).min(out.len());
                out.extend_from_within(..more);
            }
            Ok(same_kind(seq, out))
        }
    }
}
