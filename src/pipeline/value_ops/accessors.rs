//! Shared accessors: the objects behind values, argument conversions, hashability, text views and iteration.

use super::{type_error, value_error, vname};
use crate::FromAny;
use crate::any::type_index as ti;
use crate::container::{DictObj, ListObj, try_reserve_items};
use crate::object::MAX_DEPTH;
use crate::pipeline::Slot;
use crate::pipeline::set_ops::set_of;
use crate::{AnyValue, AnyView, Dict, Error, ErrorKind, List, Result, Value};
use std::borrow::Cow;

/// The list behind a value, if it is one (checked by index first: no registry lookup); not a
/// tuple, so this is the accessor for what changes a list.
pub(crate) fn list_obj(v: Value<'_>) -> Option<&ListObj> {
    v.as_obj().filter(|o| o.type_index() == ti::LIST).and_then(|o| o.downcast_ref::<ListObj>())
}

/// The items' owner behind a list or a tuple, for what only reads a sequence.
pub(crate) fn seq_obj(v: Value<'_>) -> Option<&ListObj> {
    v.as_obj().filter(|o| matches!(o.type_index(), ti::LIST | ti::TUPLE)).and_then(|o| o.downcast_ref::<ListObj>())
}

/// The items' owner behind a tuple, if `v` is one.
pub(crate) fn tuple_obj(v: Value<'_>) -> Option<&ListObj> {
    v.as_obj().filter(|o| o.type_index() == ti::TUPLE).and_then(|o| o.downcast_ref::<ListObj>())
}

/// Whether `v` is a tuple.
pub(crate) fn is_tuple(v: Value<'_>) -> bool {
    v.as_obj().is_some_and(|o| o.type_index() == ti::TUPLE)
}

/// The dict object behind a value, if it is one, borrowed where it stands (no handle made).
pub(crate) fn dict_obj(v: Value<'_>) -> Option<&DictObj> {
    v.as_obj().filter(|o| o.type_index() == ti::DICT).and_then(|o| o.downcast_ref::<DictObj>())
}

/// [`dict_obj`] of a view, read before the view is decoded (`d.get(w)`, `w in d`, `d[w] = v`).
pub(crate) fn dict_in_view<'a>(v: &'a AnyView<'_>) -> Option<&'a DictObj> {
    v.as_obj().filter(|o| o.type_index() == ti::DICT).and_then(|o| o.downcast_ref::<DictObj>())
}

/// A handle to the list behind a value, if it is one.
pub(crate) fn list_of(v: Value<'_>) -> Option<List> {
    v.as_obj().filter(|o| o.type_index() == ti::LIST).and_then(|_| List::from_value(v))
}

/// A handle to the dict behind a value, if it is one.
pub(crate) fn dict_of(v: Value<'_>) -> Option<Dict> {
    v.as_obj().filter(|o| o.type_index() == ti::DICT).and_then(|_| Dict::from_value(v))
}

/// An argument that must be an int, with Python's message otherwise.
pub(crate) fn index_arg(v: &AnyView<'_>) -> Result<i64> {
    let x = v.value();
    x.as_int().ok_or_else(|| type_error(format!("'{}' object cannot be interpreted as an integer", vname(x))))
}

/// An argument CPython reads as a C `int` (`reverse=`, `keepends=`, `tabsize=`): an int, with
/// CPython's errors for other types and for values beyond 32 bits.
pub(crate) fn c_int_arg(v: &AnyView<'_>) -> Result<i32> {
    let i = index_arg(v)?;
    i32::try_from(i).map_err(|_| Error::new(ErrorKind::Overflow, "Python int too large to convert to C int"))
}

/// Dict keys must be hashable: not a list, a dict or a set, as in CPython (a tuple is, when its
/// items are).
pub(crate) fn check_hashable(k: Value<'_>) -> Result<()> {
    check_hashable_at(k, 0)
}

/// [`check_hashable`] of a key as it stands: text, the common key, is hashable without being
/// decoded.
pub(crate) fn check_key_hashable(k: &AnyView<'_>) -> Result<()> {
    match k.as_str() {
        Some(_) => Ok(()),
        None => check_hashable(k.value()),
    }
}

fn check_hashable_at(k: Value<'_>, depth: usize) -> Result<()> {
    match k.as_obj() {
        Some(_) if crate::pipeline::set_ops::is_frozenset(k) => Ok(()),
        Some(o) if matches!(o.type_index(), ti::LIST | ti::DICT | ti::SET) => {
            Err(type_error(format!("unhashable type: '{}'", vname(k))))
        }
        Some(o) if let Some(name) = crate::container::unhashable_name(o) => {
            Err(type_error(format!("unhashable type: '{name}'")))
        }
        // Tuples nest without bound (one made in Python may be a million deep), so the depth is
        // capped where hashing stops too.
        _ => match tuple_obj(k) {
            Some(_) if depth >= MAX_DEPTH => Err(crate::container::too_deep_to_hash()),
            Some(t) => t.with_items(|xs| xs.iter().try_for_each(|x| check_hashable_at(x.value(), depth + 1))),
            None => Ok(()),
        },
    }
}

/// A text operand in either encoding.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Text<'a> {
    /// UTF-8 (`Value::Str`).
    Utf8(&'a str),
    /// UCS4 (`Value::UStr`).
    Ucs4(&'a [char]),
}

impl<'a> Text<'a> {
    /// The text of a str value.
    pub(crate) fn of(v: Value<'a>) -> Option<Self> {
        match v {
            Value::Str(s) => Some(Text::Utf8(s)),
            Value::UStr(u) => Some(Text::Ucs4(u)),
            _ => None,
        }
    }

    /// Whether results derived from this text should be UCS4 too.
    pub(crate) fn is_ucs4(self) -> bool {
        matches!(self, Text::Ucs4(_))
    }

    /// Length in code points (O(n) for UTF-8).
    pub(crate) fn char_len(self) -> usize {
        match self {
            Text::Utf8(s) => s.chars().count(),
            Text::Ucs4(u) => u.len(),
        }
    }

    /// The text as UTF-8, borrowed when it already is.
    pub(crate) fn as_str(self) -> Cow<'a, str> {
        match self {
            Text::Utf8(s) => Cow::Borrowed(s),
            Text::Ucs4(u) => Cow::Owned(u.iter().collect()),
        }
    }

    /// The code points, borrowed when the text is UCS4.
    pub(crate) fn to_chars(self) -> Cow<'a, [char]> {
        match self {
            Text::Utf8(s) => Cow::Owned(s.chars().collect()),
            Text::Ucs4(u) => Cow::Borrowed(u),
        }
    }

    /// Iterates over the code points.
    pub(crate) fn chars(self) -> TextChars<'a> {
        match self {
            Text::Utf8(s) => TextChars::Utf8(s.chars()),
            Text::Ucs4(u) => TextChars::Ucs4(u.iter()),
        }
    }
}

/// The code points of a [`Text`].
pub(crate) enum TextChars<'a> {
    Utf8(std::str::Chars<'a>),
    Ucs4(std::slice::Iter<'a, char>),
}

impl Iterator for TextChars<'_> {
    type Item = char;
    fn next(&mut self) -> Option<char> {
        match self {
            TextChars::Utf8(c) => c.next(),
            TextChars::Ucs4(c) => c.next().copied(),
        }
    }
}

impl DoubleEndedIterator for TextChars<'_> {
    fn next_back(&mut self) -> Option<char> {
        match self {
            TextChars::Utf8(c) => c.next_back(),
            TextChars::Ucs4(c) => c.next_back().copied(),
        }
    }
}

/// A str slot in the requested encoding (inline when it fits).
pub(crate) fn text_slot(s: &str, ucs4: bool) -> Slot {
    if ucs4 { Slot::from_text_ucs4(s) } else { Slot::from_text(s) }
}

/// A str list item in the requested encoding (inline when it fits).
pub(crate) fn text_item(s: &str, ucs4: bool) -> AnyValue {
    if ucs4 { AnyValue::from_text_ucs4(s) } else { AnyValue::from_text(s) }
}

/// A copy of `xs`, or a `MemoryError` naming `what` when the allocator refuses it.
pub(crate) fn try_copy_items(xs: &[AnyValue], what: &str) -> Result<Vec<AnyValue>> {
    let mut items = Vec::new();
    items.try_reserve_exact(xs.len()).map_err(|_| Error::out_of_memory(what, std::mem::size_of_val(xs)))?;
    items.extend_from_slice(xs);
    Ok(items)
}

/// Whether [`iter_items`] takes `v`: Python's iterables that anyscript has.
pub(crate) fn is_iterable(v: Value<'_>) -> bool {
    matches!(v, Value::Str(_) | Value::UStr(_) | Value::Bytes(_))
        || crate::pipeline::generator::generator_of(v).is_some()
        || seq_obj(v).is_some()
        || dict_obj(v).is_some()
        || set_of(v).is_some()
        || crate::pipeline::dict_view_ops::view_of(v).is_some()
        || crate::pipeline::bytearray_ops::byte_array_of(v).is_some()
}

/// [`iter_items`], keeping what a generator gave before it failed: the items, and the failure.
///
/// Rationale: CPython's `list.extend`, `set.update`, `deque.extend` and `Counter.update` take a
/// generator's items one at a time, so one that fails part way leaves the earlier items added.
pub(crate) fn iter_items_until_error(v: Value<'_>) -> Result<(Vec<AnyValue>, Option<Error>)> {
    match crate::pipeline::generator::generator_of(v) {
        Some(g) => Ok(g.drain_until_error()),
        None => iter_items(v).map(|items| (items, None)),
    }
}

/// The items of an iterable: a list's items, a str's characters, a dict's keys, a bytes' ints.
pub(crate) fn iter_items(v: Value<'_>) -> Result<Vec<AnyValue>> {
    if let Some(g) = crate::pipeline::generator::generator_of(v) {
        return g.drain();
    }
    if let Some(l) = seq_obj(v) {
        return l.with_items(|xs| try_copy_items(xs, "copy of a list"));
    }
    if let Some(d) = dict_of(v) {
        return Ok(d.keys());
    }
    if let Some(s) = set_of(v) {
        return Ok(s.items());
    }
    if let Some(items) = crate::pipeline::deque_ops::snapshot(v) {
        return Ok(items);
    }
    if let Some(items) = crate::pipeline::bytearray_ops::snapshot(v) {
        return Ok(items);
    }
    if let Some(shown) = crate::pipeline::dict_view_ops::view_of(v) {
        return Ok(shown.items());
    }
    // A value per character or byte: 16 times the text's size for ASCII, so the room is asked
    // for up front, and refused as a `MemoryError`.
    let mut items = Vec::new();
    match v {
        Value::Str(s) => {
            try_reserve_items(&mut items, s.chars().count(), "list of characters")?;
            items.extend(s.chars().map(AnyValue::from_char));
        }
        Value::UStr(u) => {
            try_reserve_items(&mut items, u.len(), "list of characters")?;
            items.extend(u.iter().map(|&c| AnyValue::from_char_ucs4(c)));
        }
        Value::Bytes(b) => {
            try_reserve_items(&mut items, b.len(), "list of bytes")?;
            items.extend(b.iter().map(|&x| AnyValue::from_int(x as i64)));
        }
        _ => return Err(type_error(format!("'{}' object is not iterable", vname(v)))),
    }
    Ok(items)
}

/// `dict.update(src)` / `dict(src)`: from a dict, or from an iterable of 2-item sequences.
pub(crate) fn dict_update_from(d: &mut Dict, src: Value<'_>) -> Result<()> {
    if let Some(other) = dict_of(src) {
        for (k, v) in other.items() {
            d.try_set(k, v, "dict.update()")?;
        }
        return Ok(());
    }
    // A generator's pairs as far as it got are set, as CPython's loop sets them.
    let (items, failed) = iter_items_until_error(src)?;
    for (i, el) in items.iter().enumerate() {
        let pair = match el.value() {
            Value::Str(_) | Value::UStr(_) | Value::Bytes(_) => iter_items(el.value())?,
            // Any iterable of two: a dict's two keys make a pair too, as in CPython.
            x => match (seq_obj(x), dict_of(x)) {
                (Some(l), _) => l.with_items(<[AnyValue]>::to_vec),
                (None, Some(d)) => d.keys(),
                (None, None) => {
                    return Err(type_error(format!(
                        "cannot convert dictionary update sequence element #{i} to a sequence"
                    )));
                }
            },
        };
        let [k, v] = <[AnyValue; 2]>::try_from(pair).map_err(|p| {
            value_error(format!("dictionary update sequence element #{i} has length {}; 2 is required", p.len()))
        })?;
        check_hashable(k.value())?;
        d.try_set(k, v, "dict.update()")?;
    }
    failed.map_or(Ok(()), Err)
}
