//! `str.partition`, `rpartition`, `removeprefix`, `removesuffix` and `splitlines`, as
//! CPython 3.11 has them.

use super::Slot;
use super::methods::Method;
use super::value_ops::{Text, arg_vname, c_int_arg, text_item, text_slot, type_error, value_error, vname};
use crate::container::try_reserve_items;
use crate::{AnyValue, AnyView, List, Result, Tuple, Value};

/// `t.partition(sep)` / `t.rpartition(sep)`: `[before, sep, after]`.
pub(crate) fn partition(m: Method, t: Text<'_>, sep: &AnyView<'_>) -> Result<Slot> {
    let x = sep.value();
    let sep = Text::of(x).ok_or_else(|| type_error(format!("must be str, not {}", vname(x))))?.as_str();
    if sep.is_empty() {
        return Err(value_error("empty separator"));
    }
    let s = t.as_str();
    let found = if m == Method::Partition { s.find(&*sep) } else { s.rfind(&*sep) };
    let (a, b, c) = match found {
        Some(k) => (&s[..k], &*sep, &s[k + sep.len()..]),
        // Not found: the text is on the side the search started from.
        None if m == Method::Partition => (&s[..], "", ""),
        None => ("", "", &s[..]),
    };
    let ucs4 = t.is_ucs4();
    Ok(Tuple::from_vec(vec![text_item(a, ucs4), text_item(b, ucs4), text_item(c, ucs4)]).into())
}

/// `t.removeprefix(p)` / `t.removesuffix(p)`.
pub(crate) fn remove_affix(m: Method, t: Text<'_>, affix: &AnyView<'_>) -> Result<Slot> {
    let x = affix.value();
    let Some(affix) = Text::of(x) else {
        return Err(type_error(format!("{}() argument must be str, not {}", m.name(), arg_vname(x))));
    };
    let (s, affix) = (t.as_str(), affix.as_str());
    let kept = if m == Method::Removeprefix { s.strip_prefix(&*affix) } else { s.strip_suffix(&*affix) };
    Ok(text_slot(kept.unwrap_or(&s), t.is_ucs4()))
}

/// Whether `c` ends a line for `splitlines` (`\r\n` is handled by the caller).
fn is_line_break(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\x0b' | '\x0c' | '\x1c' | '\x1d' | '\x1e' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// `splitlines`' `keepends` (of str or bytes): an int or a bool, as CPython takes it, nothing else.
pub(crate) fn keepends_arg(keepends: Option<&AnyView<'_>>) -> Result<bool> {
    match keepends {
        None => Ok(false),
        Some(k) => match k.value() {
            Value::Bool(b) => Ok(b),
            _ => Ok(c_int_arg(k)? != 0),
        },
    }
}

/// `t.splitlines(keepends=False)`: the lines, split at every Unicode line boundary.
pub(crate) fn splitlines(t: Text<'_>, keepends: Option<&AnyView<'_>>) -> Result<Slot> {
    let keep = keepends_arg(keepends)?;
    let s = t.as_str();
    let mut lines: Vec<AnyValue> = Vec::new();
    let mut start = 0;
    let mut chars = s.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if !is_line_break(c) {
            continue;
        }
        let mut end = i + c.len_utf8();
        if c == '\r' && chars.peek().is_some_and(|&(_, d)| d == '\n') {
            chars.next();
            end += 1;
        }
        try_reserve_items(&mut lines, 1, "str.splitlines() result")?;
        lines.push(text_item(&s[start..if keep { end } else { i }], t.is_ucs4()));
        start = end;
    }
    if start < s.len() {
        try_reserve_items(&mut lines, 1, "str.splitlines() result")?;
        lines.push(text_item(&s[start..], t.is_ucs4()));
    }
    Ok(List::from_vec(lines).into())
}

#[cfg(test)]
mod tests {
    use crate::pipeline::test_values::*;

    use method_repr as call;

    #[test]
    fn pieces_as_cpython() {
        // CPython 3.11's results.
        assert_eq!(call("a-b-c", "partition", &[s("-")]), "('a', '-', 'b-c')");
        assert_eq!(call("a-b-c", "rpartition", &[s("-")]), "('a-b', '-', 'c')");
        assert_eq!(call("ab", "partition", &[s("z")]), "('ab', '', '')");
        assert_eq!(call("ab", "rpartition", &[s("z")]), "('', '', 'ab')");
        assert_eq!(call("a", "partition", &[s("")]), "empty separator");
        assert_eq!(call("ab", "removeprefix", &[i(1)]), "removeprefix() argument must be str, not int");
        assert_eq!(call("abc", "removesuffix", &[s("bc")]), "'a'");
        assert_eq!(call("a\r\nb\x1cc\u{2028}d\u{85}", "splitlines", &[]), "['a', 'b', 'c', 'd']");
        assert_eq!(call("a\nb\n", "splitlines", &[b(true)]), "['a\\n', 'b\\n']");
        assert_eq!(call("\n", "splitlines", &[]), "['']");
        assert_eq!(call("a\nb", "splitlines", &[s("x")]), "'str' object cannot be interpreted as an integer");
        assert_eq!(call("", "isascii", &[]), "True");
    }
}
