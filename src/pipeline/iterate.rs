//! Loop state of the interpreter: what a `for` loop iterates and how it steps.
//!
//! A loop slot holds a [`LoopState`]; `range(...)` is counted without building a
//! list, strings are walked by character (bytes by byte), dicts by a snapshot of their keys
//! and sets slot by slot.

use super::Slot;
use super::generator::Generator;
use super::methods::{Method, call_method};
use super::value_ops::seq_obj;
pub use crate::container::DictView;
use crate::container::{ListCursor, try_reserve_items};
use crate::error::{Error, ErrorKind, Result};
use crate::{AnyValue, AnyView, Dict, FromAny, List, Set, Tuple, Value};
use smallvec::SmallVec;

/// What one loop slot iterates.
#[derive(Default)]
pub enum LoopState {
    /// Not iterating (before a loop starts and after it ends).
    #[default]
    Idle,
    /// `range(next, stop, step)`, counted in place.
    Range {
        /// The next value to produce.
        next: i64,
        /// The bound, exclusive.
        stop: i64,
        /// The step, never zero.
        step: i64,
    },
    /// The items of a list, by index (so appends during the loop are seen, as in Python).
    List(ListCursor),
    /// Characters of a string, by byte position (UTF-8) or index (UCS4), or the ints of bytes.
    Text {
        /// The string or bytes.
        text: Slot,
        /// The next position.
        pos: usize,
    },
    /// A dict's keys as they were when the loop started, and what each step gives of them.
    Keys {
        /// The keys.
        keys: Vec<AnyValue>,
        /// The next index.
        index: usize,
        /// The dict, to notice a change of its size, which Python reports, and to read values.
        dict: Dict,
        /// Keys, values (read when the step comes, as CPython's view does) or `[key, value]`.
        view: DictView,
    },
    /// A set's keys, read from its live table slot by slot as CPython's set iterator reads
    /// them, and its size when the loop started, to notice a change.
    Set {
        /// The set.
        set: Set,
        /// The slot to look from next.
        pos: usize,
        /// The set's size when the loop started.
        len: usize,
    },
    /// Iterations of a `while` loop so far, for its cap.
    Count(u64),
    /// The items of a generator, each run for when the loop asks for it.
    Generator(Generator),
}

impl DictView {
    /// The view a method of that name gives, if it is one.
    pub fn of(method: Method) -> Option<DictView> {
        match method {
            Method::Keys => Some(DictView::Keys),
            Method::Values => Some(DictView::Values),
            Method::Items => Some(DictView::Items),
            _ => None,
        }
    }

    fn method(self) -> Method {
        match self {
            DictView::Keys => Method::Keys,
            DictView::Values => Method::Values,
            DictView::Items => Method::Items,
        }
    }
}

impl LoopState {
    /// Starts `for x in v.keys()` (`values()`, `items()`): over the dict itself, so that a
    /// change of its size is CPython's RuntimeError and values are read as the loop reaches
    /// them; a value that is not a dict gets the method's own result (or error) iterated.
    pub fn start_view(v: AnyView<'_>, view: DictView) -> Result<LoopState> {
        match Dict::from_view(&v) {
            Some(dict) => Ok(LoopState::Keys { keys: dict.keys(), index: 0, dict, view }),
            None => LoopState::start(call_method(view.method(), v, &[])?.view()),
        }
    }

    /// Whether `v` can be iterated (what [`LoopState::start`] takes), checked without starting:
    /// a generator expression's first iterable is checked where the expression is, as CPython's
    /// `GET_ITER` checks it, though its loop starts only when the first item is asked for.
    pub fn check_iterable(v: AnyView<'_>) -> Result<()> {
        if super::value_ops::is_iterable(v.value()) || super::deque_ops::deque_of(v.value()).is_some() {
            return Ok(());
        }
        LoopState::start(v).map(drop)
    }

    /// Starts iterating `v`; an error for values that are not iterable.
    pub fn start(v: AnyView<'_>) -> Result<LoopState> {
        match v.value() {
            Value::Str(_) | Value::UStr(_) | Value::Bytes(_) => Ok(LoopState::Text { text: v.to_owned(), pos: 0 }),
            Value::Object(o) => {
                if let Some(list) = List::from_view(&v) {
                    return Ok(LoopState::List(ListCursor::new(list)));
                }
                if let Some(dict) = Dict::from_view(&v) {
                    return Ok(LoopState::Keys { keys: dict.keys(), index: 0, dict, view: DictView::Keys });
                }
                if let Some(set) = Set::from_view(&v) {
                    return Ok(LoopState::Set { len: set.len(), set, pos: 0 });
                }
                if let Some(shown) = crate::container::dict_view_obj(o) {
                    let dict = shown.dict().clone();
                    return Ok(LoopState::Keys { keys: dict.keys(), index: 0, dict, view: shown.view() });
                }
                if let Some(g) = Generator::from_view(&v) {
                    return Ok(LoopState::Generator(g));
                }
                if let Some(items) = super::deque_ops::snapshot(v.value()) {
                    return Ok(LoopState::List(ListCursor::new(List::from_vec(items))));
                }
                // The bytes it had when the loop started, as an int each.
                if let Some(items) = super::bytearray_ops::snapshot(v.value()) {
                    return Ok(LoopState::List(ListCursor::new(List::from_vec(items))));
                }
                Err(Error::new(ErrorKind::Type, format!("'{}' object is not iterable", o.type_name())))
            }
            _ => {
                Err(Error::new(ErrorKind::Type, format!("'{}' object is not iterable", super::value_ops::type_name(v))))
            }
        }
    }

    /// The next item, or `None` at the end, after CPython's checks of a dict or set whose
    /// size changed since the loop started (made before each step, as CPython's iterator
    /// makes them) and of a next key that was removed (and another added).
    ///
    /// Rationale: a step over `d.values()` or `d.items()` looks its key up once, for the
    /// check and the value together.
    #[inline(always)]
    pub fn next_checked(&mut self) -> Result<Option<Slot>> {
        match self {
            LoopState::Keys { keys, dict, .. } if dict.len() != keys.len() => Err(dict_changed_size()),
            LoopState::Keys { keys, index, dict, view: view @ (DictView::Values | DictView::Items) } => {
                Ok(next_entry(keys, index, dict)?.map(|(k, v)| match view {
                    DictView::Values => v.resize(),
                    _ => Tuple::from_vec(vec![k.clone(), v]).into(),
                }))
            }
            LoopState::Set { set, len, .. } if set.len() != *len => Err(super::set_ops::changed_size_error()),
            LoopState::Generator(g) => Ok(g.next()?.map(AnyValue::resize)),
            _ => Ok(self.next_item()),
        }
    }

    /// [`next_checked`](Self::next_checked) for a loop over `d.items()` whose target is two
    /// names: the key and its value, without the `[key, value]` list.
    #[inline(always)]
    pub fn next_item_pair(&mut self) -> Result<Option<(Slot, Slot)>> {
        match self {
            LoopState::Keys { keys, dict, .. } if dict.len() != keys.len() => Err(dict_changed_size()),
            LoopState::Keys { keys, index, dict, view: DictView::Items } => {
                Ok(next_entry(keys, index, dict)?.map(|(k, v)| (k.clone().resize(), v.resize())))
            }
            _ => Err(Error::runtime("internal error: a loop over items() runs over something else")),
        }
    }

    /// anyproc's error for a loop over a list that has taken more than `while_limit` items
    /// added while it ran (checked after each item is taken).
    ///
    /// Rationale: `for x in xs: xs.append(...)` never ends unless its body stops appending;
    /// like `while True`, such a loop in a script run over untrusted input would hang a batch
    /// and then exhaust memory, so it counts against the same limit as `while` loops.
    #[inline(always)]
    pub fn check_taken(&self, while_limit: u64) -> Result<()> {
        match self {
            LoopState::List(cursor) if cursor.past_start() as u64 > while_limit => Err(grown_list_error(while_limit)),
            _ => Ok(()),
        }
    }

    /// The next item, or `None` at the end.
    #[inline(always)]
    pub fn next_item(&mut self) -> Option<Slot> {
        match self {
            LoopState::Range { next, stop, step } => {
                let i = *next;
                if (*step > 0 && i < *stop) || (*step < 0 && i > *stop) {
                    *next = i.saturating_add(*step);
                    if *next == i {
                        // Saturated at the end of i64: this was the last item.
                        *stop = i;
                    }
                    Some(Slot::from_int(i))
                } else {
                    None
                }
            }
            LoopState::List(cursor) => cursor.next().map(AnyValue::resize),
            LoopState::Text { text, pos } => match text.value() {
                Value::Str(s) => {
                    let c = s.get(*pos..)?.chars().next()?;
                    *pos += c.len_utf8();
                    Some(Slot::from_char(c))
                }
                Value::UStr(u) => {
                    let c = *u.get(*pos)?;
                    *pos += 1;
                    Some(Slot::from_char_ucs4(c))
                }
                Value::Bytes(b) => {
                    let byte = *b.get(*pos)?;
                    *pos += 1;
                    Some(Slot::from_int(i64::from(byte)))
                }
                _ => None,
            },
            LoopState::Keys { keys, index, dict, view } => {
                let k = keys.get(*index)?;
                *index += 1;
                match view {
                    DictView::Keys => Some(k.clone().resize()),
                    // A key removed since the loop started ends a loop that does not check
                    // (`next_checked` raises CPython's error instead).
                    DictView::Values => dict.get(k).map(AnyValue::resize),
                    DictView::Items => Some(Tuple::from_vec(vec![k.clone(), dict.get(k)?]).into()),
                }
            }
            LoopState::Set { set, pos, .. } => {
                let (next, key) = set.next_from(*pos)?;
                *pos = next;
                Some(key.resize())
            }
            // A generator's step can fail: it is taken by `next_checked`.
            LoopState::Idle | LoopState::Count(_) | LoopState::Generator(_) => None,
        }
    }
}

/// CPython's error for a dict whose size changed since its loop started.
fn dict_changed_size() -> Error {
    Error::runtime("dictionary changed size during iteration")
}

/// The key at `index` of a loop over a dict's values or items, and its value, moving past it;
/// `None` after the last key, and CPython's error when the key was removed (and another added,
/// the size being checked first).
fn next_entry<'k>(keys: &'k [AnyValue], index: &mut usize, dict: &Dict) -> Result<Option<(&'k AnyValue, AnyValue)>> {
    let Some(k) = keys.get(*index) else { return Ok(None) };
    let v = dict.get(k).ok_or_else(|| Error::runtime("dictionary keys changed during iteration"))?;
    *index += 1;
    Ok(Some((k, v)))
}

/// The error for a loop over a list that grew past `while_limit` items while it ran.
#[cold]
fn grown_list_error(while_limit: u64) -> Error {
    Error::runtime(format!(
        "for loop stopped after {while_limit} items added to its list while it ran (the limit; raise `while_limit` if it is meant to run longer)"
    ))
}

/// The items of any iterable value, materialised.
pub fn iter_values(v: AnyView<'_>) -> Result<Vec<AnyValue>> {
    let mut state = LoopState::start(v)?;
    let mut out = Vec::new();
    while let Some(x) = state.next_checked()? {
        try_reserve_items(&mut out, 1, "list of items")?;
        out.push(x.resize::<0>());
    }
    Ok(out)
}

/// The `n` targets' values for `a, *b, c = v`, the one at `star` the list of the items the
/// others leave; Python's error when there are too few.
pub fn unpack_starred(v: AnyView<'_>, n: usize, star: usize) -> Result<Vec<Slot>> {
    let mut items = iter_values(v)?;
    let fixed = n - 1;
    if items.len() < fixed {
        return Err(Error::value(format!(
            "not enough values to unpack (expected at least {fixed}, got {})",
            items.len()
        )));
    }
    let after = items.split_off(items.len() - (fixed - star));
    let rest = items.split_off(star);
    let mut out: Vec<Slot> = items.into_iter().map(AnyValue::resize::<1>).collect();
    out.push(List::from_vec(rest).into());
    out.extend(after.into_iter().map(AnyValue::resize::<1>));
    Ok(out)
}

/// The `n` items of `v` for `a, b, ... = v`; Python's errors when there are more or fewer.
///
/// A list of the right length (a pair of `d.items()`, a tuple) is read under one lock into
/// slots on the stack; anything else is iterated as a `for` loop would.
pub fn unpack_items(v: AnyView<'_>, n: usize) -> Result<SmallVec<[Slot; 4]>> {
    let list = seq_obj(v.value());
    let read = |xs: &[AnyValue]| (xs.len() == n).then(|| xs.iter().map(|x| x.clone().resize::<1>()).collect());
    if let Some(items) = list.and_then(|l| l.with_items(read)) {
        return Ok(items);
    }
    let items = iter_values(v)?;
    if items.len() != n {
        let msg = if items.len() > n {
            format!("too many values to unpack (expected {n})")
        } else {
            format!("not enough values to unpack (expected {n}, got {})", items.len())
        };
        return Err(Error::value(msg));
    }
    Ok(items.into_iter().map(AnyValue::resize::<1>).collect())
}
