//! Indexing, slicing and `len`: `x[i]`, `x[i] = v`, `del x[i]` and `x[i:j:k]`.

use super::accessors::{
    check_hashable, check_key_hashable, dict_in_view, dict_obj, dict_of, is_tuple, list_of, seq_obj,
};
use super::sequences::same_kind;
use super::{index_error, key_error, type_error, value_error, vname};
use crate::any::type_index as ti;
use crate::container::DictObj;
use crate::pipeline::Slot;
use crate::pipeline::set_ops::set_of;
use crate::{AnyValue, AnyView, Result, Value};

/// A Python index normalised against `len`, or `None` when out of range.
pub(crate) fn norm_index(i: i64, len: usize) -> Option<usize> {
    let n = len as i64;
    let j = if i < 0 { i + n } else { i };
    (0..n).contains(&j).then_some(j as usize)
}

/// The code point at index `i` of a UTF-8 string.
///
/// O(i) (O(len - i) for negative indices): an ASCII prefix is checked with a vectorised scan,
/// anything else walks the characters. Strings that are indexed a lot should be UCS4.
fn utf8_char_at(s: &str, i: i64) -> Option<char> {
    let b = s.as_bytes();
    if i >= 0 {
        let i = usize::try_from(i).ok()?;
        if i < b.len() && b[..=i].is_ascii() {
            return Some(b[i] as char);
        }
        s.chars().nth(i)
    } else {
        let k = usize::try_from(-(i + 1)).ok()?;
        if k < b.len() && b[b.len() - 1 - k..].is_ascii() {
            return Some(b[b.len() - 1 - k] as char);
        }
        s.chars().rev().nth(k)
    }
}

/// `obj[key]`: list and str by int (negative counts from the end), dict by key, bytes to an int.
///
/// A str item is a one-character str in the receiver's encoding, always inline (no allocation).
pub fn get_item(obj: AnyView<'_>, key: AnyView<'_>) -> Result<Slot> {
    let (o, k) = (obj.value(), key.value());
    let str_index =
        || k.as_int().ok_or_else(|| type_error(format!("string indices must be integers, not '{}'", vname(k))));
    match o {
        Value::Str(s) => {
            let i = str_index()?;
            // An ASCII heap string (as many characters as bytes, a count it keeps) is indexed
            // by byte, in O(1).
            if s.len() > 64 && obj.char_count() == Some(s.len()) {
                let at = norm_index(i, s.len()).ok_or_else(|| index_error("string index out of range"))?;
                return Ok(Slot::from_char(s.as_bytes()[at] as char));
            }
            // A long non-ASCII one walks from the mark before the character.
            if let Some(marks) = crate::pipeline::char_marks::marks_of(&obj, s) {
                let n = obj.char_count().unwrap_or_else(|| marks.chars());
                let at = norm_index(i, n).ok_or_else(|| index_error("string index out of range"))?;
                let c = s[marks.byte_of(s, at)..].chars().next();
                return c.map(Slot::from_char).ok_or_else(|| index_error("string index out of range"));
            }
            utf8_char_at(s, i).map(Slot::from_char).ok_or_else(|| index_error("string index out of range"))
        }
        Value::UStr(u) => norm_index(str_index()?, u.len())
            .map(|i| Slot::from_char_ucs4(u[i]))
            .ok_or_else(|| index_error("string index out of range")),
        Value::Bytes(b) => {
            let i = k
                .as_int()
                .ok_or_else(|| type_error(format!("byte indices must be integers or slices, not {}", vname(k))))?;
            norm_index(i, b.len()).map(|i| Slot::from_int(b[i] as i64)).ok_or_else(|| index_error("index out of range"))
        }
        _ => {
            if let Some(l) = seq_obj(o) {
                let kind = vname(o);
                let i = k.as_int().ok_or_else(|| {
                    type_error(format!("{kind} indices must be integers or slices, not {}", vname(k)))
                })?;
                let item = l.with_items(|xs| norm_index(i, xs.len()).map(|i| xs[i].clone()));
                return item.map(Slot::from).ok_or_else(|| index_error(format!("{kind} index out of range")));
            }
            if let Some(d) = dict_of(o) {
                check_hashable(k)?;
                if let Some(v) = d.get(key) {
                    return Ok(v.into());
                }
                return crate::pipeline::counter::missing(&d, key)?.map(Slot::from).ok_or_else(|| key_error(key));
            }
            if let Some(d) = crate::pipeline::deque_ops::deque_of(o) {
                return crate::pipeline::deque_ops::get_item(d, k);
            }
            if let Some(b) = crate::pipeline::bytearray_ops::byte_array_of(o) {
                return crate::pipeline::bytearray_ops::get_item(b, k);
            }
            if let Some(m) = crate::ops::re::match_of(o) {
                // `m[1]` is `m.group(1)`.
                return m.group(&[key]).map(AnyValue::resize);
            }
            Err(type_error(format!("'{}' object is not subscriptable", vname(o))))
        }
    }
}

/// `obj[key] = value` for lists (in range) and dicts; the change is seen through every handle.
pub fn set_item(obj: AnyView<'_>, key: AnyView<'_>, value: AnyView<'_>) -> Result<()> {
    // On the dict where it stands: no handle (two atomic counts) is made for `d[k] = v`, and
    // nothing is decoded for a text key, which is hashable.
    if let Some(d) = dict_in_view(&obj) {
        check_key_hashable(&key)?;
        let replaced = d.try_set(key.to_owned::<0>(), value.to_owned::<0>(), "dict item")?;
        drop(replaced);
        return Ok(());
    }
    let (o, k) = (obj.value(), key.value());
    if let Some(mut l) = list_of(o) {
        let i = k
            .as_int()
            .ok_or_else(|| type_error(format!("list indices must be integers or slices, not {}", vname(k))))?;
        let i = norm_index(i, l.len()).ok_or_else(|| index_error("list assignment index out of range"))?;
        return l.set(i as i64, value.to_owned::<0>());
    }
    if let Some(d) = crate::pipeline::deque_ops::deque_of(o) {
        return crate::pipeline::deque_ops::set_item(d, k, value.to_owned::<0>());
    }
    if let Some(b) = crate::pipeline::bytearray_ops::byte_array_of(o) {
        return crate::pipeline::bytearray_ops::set_item(b, k, value);
    }
    Err(type_error(format!("'{}' object does not support item assignment", vname(o))))
}

/// `del obj[key]` for a list's item or a dict's key, with CPython's errors.
pub fn del_item(obj: AnyView<'_>, key: AnyView<'_>) -> Result<()> {
    let (o, k) = (obj.value(), key.value());
    if let Some(mut l) = list_of(o) {
        let i = k
            .as_int()
            .ok_or_else(|| type_error(format!("list indices must be integers or slices, not {}", vname(k))))?;
        // The index is resolved under the list's lock; the item is dropped after it is released,
        // in case it is a list too.
        let removed = l.with_items_mut(|items| norm_index(i, items.len()).map(|i| items.remove(i)));
        return removed.map(drop).ok_or_else(|| index_error("list assignment index out of range"));
    }
    if let Some(mut d) = dict_of(o) {
        check_hashable(k)?;
        // A Counter's `__delitem__` passes over a missing key.
        let counter = *d.kind() == crate::container::DictKind::Counter;
        return match d.remove(key) {
            Some(_) => Ok(()),
            None if counter => Ok(()),
            None => Err(key_error(key)),
        };
    }
    if let Some(d) = crate::pipeline::deque_ops::deque_of(o) {
        return crate::pipeline::deque_ops::del_item(d, k);
    }
    if let Some(b) = crate::pipeline::bytearray_ops::byte_array_of(o) {
        return crate::pipeline::bytearray_ops::del_item(b, k);
    }
    // A type with sequence methods given an int says "doesn't", anything else "does not"
    // (CPython's two paths); a set has them too, for `in`.
    let sequence = matches!(o, Value::Str(_) | Value::UStr(_) | Value::Bytes(_))
        || is_tuple(o)
        || crate::pipeline::set_ops::set_of(o).is_some();
    Err(type_error(match sequence && matches!(k, Value::Int(_) | Value::Bool(_)) {
        true => format!("'{}' object doesn't support item deletion", vname(o)),
        false => format!("'{}' object does not support item deletion", vname(o)),
    }))
}

/// Resolved slice: first index, step and number of items (CPython's `PySlice_AdjustIndices`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct SliceSpan {
    /// The first index selected.
    pub(crate) start: i64,
    /// The distance between selected indices.
    pub(crate) step: i64,
    /// How many indices are selected.
    pub(crate) count: usize,
}

impl SliceSpan {
    /// Resolves `[lower:upper:step]` against a sequence of `len` items; `step != 0`.
    pub(crate) fn new(lower: Option<i64>, upper: Option<i64>, step: i64, len: usize) -> Self {
        let step = step.max(-i64::MAX);
        let n = len as i64;
        let clamp = |v: i64| {
            if v < 0 {
                let v = v + n;
                if v < 0 { if step < 0 { -1 } else { 0 } } else { v }
            } else if v >= n {
                if step < 0 { n - 1 } else { n }
            } else {
                v
            }
        };
        let (start, stop) = if step < 0 { (n - 1, -1) } else { (0, n) };
        let start = lower.map_or(start, clamp);
        let stop = upper.map_or(stop, clamp);
        let count = if step < 0 {
            if stop < start { (start - stop - 1) / -step + 1 } else { 0 }
        } else if start < stop {
            (stop - start - 1) / step + 1
        } else {
            0
        };
        SliceSpan { start, step, count: count as usize }
    }

    /// The selected indices, in order.
    pub(crate) fn indices(self) -> impl Iterator<Item = usize> {
        (0..self.count as i64).map(move |k| (self.start + k * self.step) as usize)
    }

    /// The selected items of `xs`.
    pub(crate) fn pick<T: Clone>(self, xs: &[T]) -> Vec<T> {
        if self.step == 1 {
            let s = self.start as usize;
            return xs[s..s + self.count].to_vec();
        }
        self.indices().map(|i| xs[i].clone()).collect()
    }
}

pub(crate) fn slice_arg(v: &AnyView<'_>) -> Result<Option<i64>> {
    match v.value() {
        Value::None => Ok(None),
        x => x
            .as_int()
            .map(Some)
            .ok_or_else(|| type_error("slice indices must be integers or None or have an __index__ method")),
    }
}

/// Byte offset of code point `k` in `s` (`s.len()` when `k` is the length).
pub(crate) fn byte_of(s: &str, k: usize) -> usize {
    s.char_indices().nth(k).map_or(s.len(), |(b, _)| b)
}

/// `obj[lower:upper:step]` for str (by code point), list and bytes; `None` means omitted.
pub fn slice(obj: AnyView<'_>, lower: AnyView<'_>, upper: AnyView<'_>, step: AnyView<'_>) -> Result<Slot> {
    // CPython's order of checks: the receiver, then the step, then the bounds.
    let o = obj.value();
    let byte_array = crate::pipeline::bytearray_ops::byte_array_of(o);
    if !matches!(o, Value::Str(_) | Value::UStr(_) | Value::Bytes(_)) && seq_obj(o).is_none() && byte_array.is_none() {
        // A dict looks the slice up as a key, which CPython 3.11 cannot hash.
        if dict_obj(o).is_some() {
            return Err(type_error("unhashable type: 'slice'"));
        }
        if crate::pipeline::deque_ops::deque_of(o).is_some() {
            return Err(type_error("sequence index must be integer, not 'slice'"));
        }
        return Err(type_error(format!("'{}' object is not subscriptable", vname(o))));
    }
    let step = slice_arg(&step)?.unwrap_or(1);
    if step == 0 {
        return Err(value_error("slice step cannot be zero"));
    }
    let (lo, hi) = (slice_arg(&lower)?, slice_arg(&upper)?);
    match o {
        Value::Str(s) => {
            // Counted once; a heap string keeps its count, so knows it is ASCII without a scan.
            let n = obj.char_count().unwrap_or_else(|| s.chars().count());
            if n == s.len() {
                // An ASCII string slices by byte.
                let span = SliceSpan::new(lo, hi, step, n);
                return Ok(Slot::from_text(std::str::from_utf8(&span.pick(s.as_bytes())).unwrap_or_default()));
            }
            let span = SliceSpan::new(lo, hi, step, n);
            if span.step == 1 {
                // A long text walks from the marks before its ends, a short one from its start.
                let (b0, b1) = match crate::pipeline::char_marks::marks_of(&obj, s) {
                    Some(marks) => {
                        (marks.byte_of(s, span.start as usize), marks.byte_of(s, span.start as usize + span.count))
                    }
                    None => {
                        let b0 = byte_of(s, span.start as usize);
                        (b0, b0 + byte_of(&s[b0..], span.count))
                    }
                };
                return Ok(Slot::from_text(&s[b0..b1]));
            }
            let chars: Vec<char> = s.chars().collect();
            Ok(Slot::from_text(&span.pick(&chars).into_iter().collect::<String>()))
        }
        Value::UStr(u) => Ok(Slot::from_chars(&SliceSpan::new(lo, hi, step, u.len()).pick(u))),
        Value::Bytes(b) => Ok(Slot::from_bytes(&SliceSpan::new(lo, hi, step, b.len()).pick(b))),
        _ if let Some(b) = byte_array => {
            Ok(crate::pipeline::bytearray_ops::slice(b, |bytes| SliceSpan::new(lo, hi, step, bytes.len()).pick(bytes)))
        }
        _ => match seq_obj(o) {
            Some(l) => Ok(same_kind(o, l.with_items(|xs| SliceSpan::new(lo, hi, step, xs.len()).pick(xs)))),
            None => Err(type_error(format!("'{}' object is not subscriptable", vname(o)))),
        },
    }
}

/// `len(v)`: code points for str, items for list and dict, bytes for bytes.
pub fn len(v: AnyView<'_>) -> Result<i64> {
    let x = v.value();
    let n = match x {
        // A heap string keeps its count once counted.
        Value::Str(s) => v.char_count().unwrap_or_else(|| s.chars().count()),
        Value::UStr(u) => u.len(),
        Value::Bytes(b) => b.len(),
        _ => match (seq_obj(x), x.as_obj().filter(|o| o.type_index() == ti::DICT)) {
            (Some(l), _) => l.len(),
            (None, Some(o)) => o.downcast_ref::<DictObj>().map_or(0, DictObj::len),
            _ if let Some(s) = set_of(x) => s.len(),
            _ if let Some(d) = crate::pipeline::deque_ops::deque_of(x) => d.len(),
            _ if let Some(b) = crate::pipeline::bytearray_ops::byte_array_of(x) => b.len(),
            _ if let Some(shown) = crate::pipeline::dict_view_ops::view_of(x) => shown.len(),
            _ => return Err(type_error(format!("object of type '{}' has no len()", vname(x)))),
        },
    };
    Ok(n as i64)
}
