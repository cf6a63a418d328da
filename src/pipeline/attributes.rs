//! The data attributes of built-in values that a script may read: a deque's `maxlen`, a
//! defaultdict's `default_factory`, a match's `string`, `re`, `pos`, `endpos`, `lastindex` and
//! `lastgroup`, a compiled pattern's `pattern`, `flags`, `groupindex` and `groups` (which
//! is a match's bound method `groups` on a match), and a codec error's `encoding`, `object`,
//! `start`, `end` and `reason` (`start` and `end` are a match's bound methods on a match), a
//! `json.JSONDecodeError`'s `msg`, `pos`, `lineno` and `colno`, and a `re.error`'s `msg`,
//! `pattern`, `pos`, `lineno` and `colno`.
//!
//! Rationale: anyscript has no attribute lookup of its own (its values are not objects with a
//! `__dict__`), so `x.attr` that is not a method compiles to a call of the attribute's reader,
//! which looks at the value when the line runs and gives CPython's value, or CPython's
//! `AttributeError` for a value that has no such attribute.

use crate::container::DictKind;
use crate::error::Result;
use crate::ops::re::{Pattern, match_of};
use crate::pipeline::deque_ops::deque_of;
use crate::pipeline::methods::{Method, bind_method_func};
use crate::pipeline::value_ops::dict_obj;
use crate::{AnyValue, AnyView, Dict, PackedFunc};
use std::sync::LazyLock;

/// The data attributes anyscript reads, each with its reader.
const ATTRIBUTES: [&str; 20] = [
    "maxlen",
    "default_factory",
    "string",
    "re",
    "pos",
    "endpos",
    "lastindex",
    "lastgroup",
    "pattern",
    "flags",
    "groupindex",
    "groups",
    "encoding",
    "object",
    "start",
    "end",
    "reason",
    "msg",
    "lineno",
    "colno",
];

/// The reader of data attribute `attr` as a function value of one argument, if a built-in
/// type has that attribute.
pub(crate) fn attribute_func(attr: &str) -> Option<PackedFunc> {
    static READERS: LazyLock<Vec<PackedFunc>> =
        LazyLock::new(|| ATTRIBUTES.iter().map(|&attr| PackedFunc::new(move |args| read(attr, args[0]))).collect());
    ATTRIBUTES.iter().position(|a| *a == attr).map(|i| READERS[i].clone())
}

/// `x.attr`.
fn read(attr: &str, view: AnyView<'_>) -> Result<AnyValue> {
    let x = view.value();
    // A named tuple's field first: `span.start` of `namedtuple("Span", "start end")`.
    if let Some(field) = super::named_tuple_ops::attribute(view, attr) {
        return field;
    }
    if let Some(field) = super::unicode_errors::attribute(x, attr) {
        return Ok(field);
    }
    if let Some(field) = json_error_attribute(x, attr) {
        return Ok(field);
    }
    if let Some(field) = super::exception_value::exception_of(x).and_then(|e| e.attribute(attr)) {
        return Ok(field);
    }
    let found = match attr {
        // A match's methods, bound, when no call follows.
        "start" => Some(bind_method_func(Method::Start).call(&[view])),
        "end" => Some(bind_method_func(Method::End).call(&[view])),
        // A pattern's count of groups; on anything else the method `groups` bound to it, as
        // `m.groups` is when no call follows.
        "groups" => Some(match Pattern::of(x) {
            Some(p) => Ok(AnyValue::from_int(p.groups as i64)),
            None => bind_method_func(Method::Groups).call(&[view]),
        }),
        "maxlen" => deque_of(x).map(|d| Ok(d.maxlen().map_or_else(AnyValue::none, |n| AnyValue::from_int(n as i64)))),
        "default_factory" => dict_obj(x).and_then(|d| match d.kind() {
            DictKind::Default(factory) => Some(Ok(factory.clone())),
            _ => None,
        }),
        "string" | "re" | "pos" | "endpos" | "lastindex" | "lastgroup" => match_of(x).map(|m| match attr {
            "string" => Ok(m.string()),
            "re" => m.pattern(),
            "pos" => Ok(m.pos()),
            "endpos" => Ok(m.endpos()),
            "lastindex" => Ok(m.lastindex()),
            _ => Ok(m.lastgroup()),
        }),
        _ => Pattern::of(x).map(|p| match attr {
            "pattern" => Ok(AnyValue::from_text(&p.source)),
            "flags" => Ok(AnyValue::from_int(p.flags)),
            _ => {
                let mut index = Dict::new();
                for (name, n) in &p.names {
                    index.try_set(AnyValue::from_text(name), AnyValue::from_int(*n as i64), "groupindex")?;
                }
                Ok(index.into_any())
            }
        }),
    };
    found.unwrap_or_else(|| Err(super::value_ops::no_attribute(x, attr)))
}

/// `e.msg`, `e.pos`, `e.lineno` or `e.colno` of a `json.JSONDecodeError`, read from its
/// message as CPython made it (`Expecting value: line 1 column 5 (char 4)`).
fn json_error_attribute(x: crate::Value<'_>, attr: &str) -> Option<AnyValue> {
    let e = super::exception_value::exception_of(x).filter(|e| e.kind() == crate::error::ErrorKind::JsonDecode)?;
    let (msg, lineno, colno, pos) = crate::ops::json::decode_error_parts(e.message())?;
    Some(match attr {
        "msg" => AnyValue::from_text(msg),
        "pos" => AnyValue::from_int(pos),
        "lineno" => AnyValue::from_int(lineno),
        "colno" => AnyValue::from_int(colno),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use crate::pipeline::test_values::run_main as run;

    #[test]
    fn reads_what_cpython_reads() {
        // Values from CPython 3.11.
        let cases = [
            ("collections.deque('abc', 2).maxlen", "2"),
            ("collections.deque('abc').maxlen", "None"),
            ("collections.defaultdict(list).default_factory is list", "True"),
            ("re.match(r'(a)(b)?', 'ac').lastindex", "1"),
            ("re.match(r'((a)(b))', 'ab').lastindex", "1"),
            ("re.match(r'(a)(b?)', 'a').lastindex", "2"),
            ("re.match(r'(a)|b', 'b').lastindex", "None"),
            ("re.search(r'(?P<num>\\d+)|(?P<word>\\w+)', ' ab').lastgroup", "'word'"),
            ("re.match(r'(?P<x>a)(b)', 'ab').lastgroup", "None"),
            ("re.search('b', 'abc').string", "'abc'"),
            ("(re.search('b', 'abc').pos, re.search('b', 'aébc').endpos)", "(0, 4)"),
            ("re.compile('(?P<a>x)(y)', re.I).groupindex", "{'a': 1}"),
            ("(re.compile('(?P<a>x)(y(z))').groups, re.compile('x').groups)", "(3, 0)"),
            ("re.match('(a)(b)?', 'a').groups('-')", "('a', '-')"),
            ("[m.groups for m in [re.match('(a)', 'a')]][0]()", "('a',)"),
            ("[1].groups", "Attribute: 'list' object has no attribute 'groups'"),
            ("(re.compile('x+', re.I).pattern, re.compile('x+', re.I).flags)", "('x+', 34)"),
            ("re.search('b', 'abc').re == re.compile('b')", "True"),
            ("[1].maxlen", "Attribute: 'list' object has no attribute 'maxlen'"),
        ];
        for (expr, want) in cases {
            assert_eq!(run(&format!("return repr({expr})")), want, "{expr}");
        }
    }
}
