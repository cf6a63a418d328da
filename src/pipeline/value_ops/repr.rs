//! `str()` and `repr()` of values, with CPython's text for every type and `...` for a container inside
//! itself.

use super::accessors::{dict_of, list_obj, seq_obj};
use crate::any::py_text::{write_bytes_repr, write_float_repr, write_str_repr, write_utf8_str_repr};
use crate::any::type_index as ti;
use crate::container::DictKind;
use crate::object::MAX_DEPTH;
use crate::pipeline::set_ops::set_of;
use crate::{AnyValue, AnyView, Dict, Error, Result, Value};
use std::fmt::{self, Write};

/// Python `str(v)`: text as is, everything else as its repr; a `MemoryError` when the allocator
/// refuses the text.
pub fn to_str(v: AnyView<'_>) -> Result<String> {
    match v.value() {
        Value::Str(s) => Ok(s.to_owned()),
        Value::UStr(u) => Ok(u.iter().collect()),
        other if let Some(e) = crate::pipeline::exception_value::exception_of(other) => Ok(e.message().to_string()),
        other => try_repr_value(other),
    }
}

/// Python `repr()` of a decoded value (floats as `1e+16`, strings escaped as CPython does), or
/// a `MemoryError` when the allocator refuses the text.
pub(crate) fn try_repr_value(v: Value<'_>) -> Result<String> {
    let mut out = ReprOut::default();
    write_repr(&mut out, v, &mut Vec::new());
    match out.refused {
        Some(bytes) => Err(Error::out_of_memory("repr()", bytes)),
        None => Ok(out.text),
    }
}

/// [`try_repr_value`] for error messages: a repr the allocator refuses is cut short with `...`.
pub(crate) fn repr_value(v: Value<'_>) -> String {
    let mut out = ReprOut::default();
    write_repr(&mut out, v, &mut Vec::new());
    if out.refused.is_some() {
        out.text.push_str("...");
    }
    out.text
}

/// A repr being written, whose growth the allocator may refuse.
///
/// Rationale: a repr can be far larger than its value (`[s] * 1000` of a 1 MB `s` prints a
/// gigabyte), and `String`'s own growth aborts the process when the allocator refuses; here a
/// refusal stops the writing and is reported instead.
#[derive(Default)]
struct ReprOut {
    text: String,
    /// The length the text needed when the allocator refused it.
    refused: Option<usize>,
}

impl ReprOut {
    /// Makes room for `additional` more bytes up front (a string's repr is at least as long as
    /// the string), so that a repr too large for memory is refused before it is written.
    fn reserve(&mut self, additional: usize) {
        if self.refused.is_none() && self.text.try_reserve(additional).is_err() {
            self.refused = Some(self.text.len().saturating_add(additional));
        }
    }

    fn push_str(&mut self, s: &str) {
        let _ = fmt::Write::write_str(self, s);
    }

    pub(super) fn push(&mut self, c: char) {
        let _ = fmt::Write::write_char(self, c);
    }
}

impl fmt::Write for ReprOut {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        if self.refused.is_some() {
            return Err(fmt::Error);
        }
        if self.text.try_reserve(s.len()).is_err() {
            self.refused = Some(self.text.len().saturating_add(s.len()));
            return Err(fmt::Error);
        }
        self.text.push_str(s);
        Ok(())
    }
}

/// Writes a repr; `seen` holds the containers being printed, so cycles print as `[...]`.
fn write_repr(out: &mut ReprOut, v: Value<'_>, seen: &mut Vec<usize>) {
    // Once the allocator has refused, nothing more is written: skip the work of formatting it.
    if out.refused.is_some() {
        return;
    }
    match v {
        Value::None => out.push_str("None"),
        Value::Bool(b) => out.push_str(if b { "True" } else { "False" }),
        Value::Int(i) => {
            let _ = write!(out, "{i}");
        }
        Value::Float(f) => {
            let _ = write_float_repr(out, f);
        }
        Value::Str(s) => {
            out.reserve(s.len().saturating_add(2));
            if out.refused.is_none() {
                let _ = write_utf8_str_repr(out, s);
            }
        }
        Value::UStr(u) => {
            let _ = write_str_repr(out, u.iter().copied());
        }
        Value::Bytes(b) => {
            let _ = write_bytes_repr(out, b);
        }
        Value::Object(o) if o.type_index() == ti::SET => {
            // A set holds no mutable container, and a frozenset is made before it is shared, so
            // neither contains itself; but frozensets nest without bound, so the depth is capped
            // as a list's is.
            if seen.len() >= MAX_DEPTH {
                return out.push_str("...");
            }
            let set = set_of(v);
            let items = set.as_ref().map(|s| s.items()).unwrap_or_default();
            let frozen = set.is_some_and(|s| s.is_frozen());
            seen.push(o.as_raw().as_ptr() as usize);
            match (items.is_empty(), frozen) {
                (true, false) => out.push_str("set()"),
                (true, true) => out.push_str("frozenset()"),
                (false, false) => write_items(out, ("{", "}"), &items, seen),
                (false, true) => write_items(out, ("frozenset({", "})"), &items, seen),
            }
            seen.pop();
        }
        Value::Object(o)
            if matches!(o.type_index(), ti::LIST | ti::TUPLE | ti::DICT)
                || crate::pipeline::deque_ops::deque_of(v).is_some() =>
        {
            let addr = o.as_raw().as_ptr() as usize;
            if seen.contains(&addr) || seen.len() >= MAX_DEPTH {
                out.push_str(match o.type_index() {
                    ti::LIST => "[...]",
                    ti::TUPLE => "(...)",
                    // An OrderedDict's repr is a call, which CPython's recursion guard elides.
                    _ if crate::pipeline::ordered_dict::is_ordered(v) => "...",
                    ti::DICT => "{...}",
                    // CPython's guard writes a deque inside itself as `[...]`.
                    _ => "[...]",
                });
                return;
            }
            seen.push(addr);
            if let Some(l) = list_obj(v) {
                l.with_items(|xs| write_items(out, ("[", "]"), xs, seen));
            } else if let Some(class) = crate::pipeline::named_tuple_ops::class_of(v) {
                // `Point(x=1, y=2)`.
                let items = seq_obj(v).map(|t| t.with_items(<[AnyValue]>::to_vec)).unwrap_or_default();
                out.push_str(&class.name);
                out.push('(');
                for (i, (field, x)) in class.fields.iter().zip(&items).enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    out.push_str(field);
                    out.push('=');
                    write_repr(out, x.value(), seen);
                }
                out.push(')');
            } else if let Some(t) = seq_obj(v) {
                // A tuple: `(x,)` for one item, so that it reads back as a tuple.
                t.with_items(|xs| write_items(out, ("(", if xs.len() == 1 { ",)" } else { ")" }), xs, seen));
            } else if let Some(d) = dict_of(v) {
                write_dict_repr(out, &d, seen);
            } else if let Some(d) = crate::pipeline::deque_ops::deque_of(v) {
                out.push_str("deque(");
                write_items(out, ("[", "]"), &d.to_vec(), seen);
                if let Some(max) = d.maxlen() {
                    let _ = write!(out, ", maxlen={max}");
                }
                out.push(')');
            }
            seen.pop();
        }
        Value::Object(o) if let Some(g) = crate::pipeline::generator::generator_of(v) => {
            if let Some(items) = g.foreign_items() {
                return out.push_str(&items.repr());
            }
            let addr = o.as_raw().as_ptr() as usize;
            let _ = match g.type_name() {
                "generator" => write!(out, "<generator object {} at {addr:#x}>", g.name()),
                iterator => write!(out, "<{iterator} object at {addr:#x}>"),
            };
        }
        Value::Object(o) if let Some(shown) = crate::pipeline::dict_view_ops::view_of(v) => {
            // `dict_keys([...])`; a view met again inside itself is CPython's `...`.
            let addr = o.as_raw().as_ptr() as usize;
            if seen.contains(&addr) || seen.len() >= MAX_DEPTH {
                return out.push_str("...");
            }
            seen.push(addr);
            out.push_str(shown.type_name());
            out.push('(');
            write_items(out, ("[", "]"), &shown.items(), seen);
            out.push(')');
            seen.pop();
        }
        Value::Object(_) if let Some(text) = crate::pipeline::type_checks::function_repr(v) => out.push_str(&text),
        Value::Object(_) if let Some(e) = crate::pipeline::exception_value::exception_of(v) => out.push_str(&e.repr()),
        _ => {
            let _ = write!(out, "{:?}", OtherRepr(v));
        }
    }
}

/// A dict's repr, or a Counter's, defaultdict's or OrderedDict's (`Counter({'a': 2})`,
/// `OrderedDict([('a', 2)])`).
fn write_dict_repr(out: &mut ReprOut, d: &Dict, seen: &mut Vec<usize>) {
    match d.kind() {
        DictKind::Counter if d.is_empty() => return out.push_str("Counter()"),
        DictKind::Ordered if d.is_empty() => return out.push_str("OrderedDict()"),
        DictKind::Ordered => {
            // `OrderedDict(list(od.items()))`, as CPython 3.11 writes it.
            out.push_str("OrderedDict([");
            for (i, (k, x)) in d.items().iter().enumerate() {
                out.push_str(if i > 0 { ", (" } else { "(" });
                write_repr(out, k.value(), seen);
                out.push_str(", ");
                write_repr(out, x.value(), seen);
                out.push(')');
            }
            return out.push_str("])");
        }
        _ => {}
    }
    match crate::pipeline::counter::repr_prefix_and_entries(d) {
        None => write_entries(out, d, seen),
        Some((prefix, entries)) => {
            out.push_str(&prefix);
            write_entries(out, &entries, seen);
            out.push(')');
        }
    }
}

/// `{k: v, ...}`.
fn write_entries(out: &mut ReprOut, d: &Dict, seen: &mut Vec<usize>) {
    out.push('{');
    for (i, (k, x)) in d.items().iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write_repr(out, k.value(), seen);
        out.push_str(": ");
        write_repr(out, x.value(), seen);
    }
    out.push('}');
}

/// The reprs of `items` between `brackets`, separated by ", " (a list's, a set's).
fn write_items(out: &mut ReprOut, (open, close): (&str, &str), items: &[AnyValue], seen: &mut Vec<usize>) {
    out.push_str(open);
    for (i, x) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write_repr(out, x.value(), seen);
    }
    out.push_str(close);
}

/// Falls back to the crate's repr for values Python has no literal for (NDArray, functions).
struct OtherRepr<'a>(Value<'a>);

impl fmt::Debug for OtherRepr<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::any::write_repr(self.0, f, 0)
    }
}
