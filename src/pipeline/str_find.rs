//! `str.find`, `rfind`, `index`, `rindex`, `count`, `startswith` and `endswith`, with
//! optional `start`/`end` in code points, as CPython 3.11 gives them.
//!
//! Rationale: a tokenizer loop that calls `s.find(' ', i)` and slices `s[i:j]` over a long
//! text is linear in CPython, whose strings index in O(1). Here a UTF-8 string maps code
//! points to bytes by walking it, which made that loop quadratic; so an ASCII text (its
//! character count, which a heap string keeps, equal to its length in bytes) maps them
//! directly, and a UCS4 text is searched where it lies, without making a UTF-8 copy of it.

use super::Slot;
use super::char_marks::byte_offset;
use super::methods::{Method, adjust_indices, opt_index};
use super::value_ops::{Text, tuple_obj, type_error, value_error, vname};
use crate::{AnyView, Result};

/// `t.m(...)` for one of the searching methods (`find`, `rfind`, `index`, `rindex`, `count`,
/// `startswith`, `endswith`); `t` is the text of `receiver`, which may know its count of code
/// points and where they start.
pub(super) fn search(m: Method, t: Text<'_>, receiver: &AnyView<'_>, args: &[AnyView<'_>]) -> Result<Slot> {
    match m {
        Method::Startswith | Method::Endswith => starts_ends(m, t, receiver, args).map(Slot::from_bool),
        _ => find(m, t, receiver, args),
    }
}

/// `t.find(sub, start, end)` and its kin (`m`).
fn find(m: Method, t: Text<'_>, receiver: &AnyView<'_>, args: &[AnyView<'_>]) -> Result<Slot> {
    // CPython reads the bounds before it looks at `sub`.
    let (start, end) = (opt_index(args.get(1))?, opt_index(args.get(2))?);
    let x = args[0].value();
    let sub = Text::of(x).ok_or_else(|| type_error(format!("must be str, not {}", vname(x))))?.as_str();
    let sublen = sub.chars().count() as i64;
    let found = match t {
        Text::Ucs4(u) => {
            let sub_chars: Vec<char> = sub.chars().collect();
            let (st, en) = adjust_indices(start, end, u.len());
            if m == Method::Count {
                return Ok(Slot::from_int(count_in(en - st, sublen, || {
                    count_chars(&u[st as usize..en as usize], &sub_chars)
                })));
            }
            (en - st >= sublen)
                .then(|| search_chars(m, &u[st as usize..en as usize], &sub_chars).map(|i| st + i as i64))
                .flatten()
        }
        Text::Utf8(s) => {
            let n = receiver.char_count().unwrap_or_else(|| s.chars().count());
            let ascii = n == s.len();
            let (st, en) = adjust_indices(start, end, n);
            let hay = || &s[byte_at(receiver, s, n, st)..byte_at(receiver, s, n, en)];
            if m == Method::Count {
                return Ok(Slot::from_int(count_in(en - st, sublen, || hay().matches(&*sub).count() as i64)));
            }
            (en - st >= sublen)
                .then(|| {
                    let h = hay();
                    let at = if matches!(m, Method::Find | Method::Index) { h.find(&*sub) } else { h.rfind(&*sub) };
                    at.map(|b| st + if ascii { b as i64 } else { h[..b].chars().count() as i64 })
                })
                .flatten()
        }
    };
    match (found, m) {
        (Some(i), _) => Ok(Slot::from_int(i)),
        (None, Method::Find | Method::Rfind) => Ok(Slot::from_int(-1)),
        (None, _) => Err(value_error("substring not found")),
    }
}

/// `t.startswith(prefix, start, end)` (or `endswith`), `prefix` a str or a tuple of them.
fn starts_ends(m: Method, t: Text<'_>, receiver: &AnyView<'_>, args: &[AnyView<'_>]) -> Result<bool> {
    let (start, end) = (opt_index(args.get(1))?, opt_index(args.get(2))?);
    let at_end = m == Method::Endswith;
    let x = args[0].value();
    if let Some(p) = Text::of(x) {
        return Ok(tailmatch(t, receiver, &p.as_str(), (start, end), at_end));
    }
    let Some(l) = tuple_obj(x) else {
        return Err(type_error(format!("{} first arg must be str or a tuple of str, not {}", m.name(), vname(x))));
    };
    // A tuple of prefixes is tried in order; a non-str fails only when it is reached, as in CPython.
    l.with_items(|xs| {
        for p in xs {
            match Text::of(p.value()) {
                Some(p) if tailmatch(t, receiver, &p.as_str(), (start, end), at_end) => return Ok(true),
                Some(_) => {}
                None => {
                    return Err(type_error(format!(
                        "tuple for {} must only contain str, not {}",
                        m.name(),
                        vname(p.value())
                    )));
                }
            }
        }
        Ok(false)
    })
}

/// CPython's `tailmatch`: does `t[start:end]` start (or end) with `sub`?
fn tailmatch(
    t: Text<'_>,
    receiver: &AnyView<'_>,
    sub: &str,
    (start, end): (Option<i64>, Option<i64>),
    at_end: bool,
) -> bool {
    match t {
        Text::Utf8(s) if start.is_none() && end.is_none() => {
            if at_end {
                s.ends_with(sub)
            } else {
                s.starts_with(sub)
            }
        }
        Text::Utf8(s) => {
            let n = receiver.char_count().unwrap_or_else(|| s.chars().count());
            let (st, en) = adjust_indices(start, end, n);
            if en - (sub.chars().count() as i64) < st {
                return false;
            }
            let hay = &s[byte_at(receiver, s, n, st)..byte_at(receiver, s, n, en)];
            if at_end { hay.ends_with(sub) } else { hay.starts_with(sub) }
        }
        Text::Ucs4(u) => {
            let (st, en) = adjust_indices(start, end, u.len());
            let sub: Vec<char> = sub.chars().collect();
            if en - (sub.len() as i64) < st {
                return false;
            }
            let hay = &u[st as usize..en as usize];
            if at_end { hay.ends_with(&sub) } else { hay.starts_with(&sub) }
        }
    }
}

/// The byte offset of code point `k` (in range) of `s`, the text of `receiver`, which has `n`
/// code points: `k` itself when `s` is ASCII (as many code points as bytes), else found
/// through the marks of a long text or by walking a short one.
fn byte_at(receiver: &AnyView<'_>, s: &str, n: usize, k: i64) -> usize {
    if n == s.len() { k as usize } else { byte_offset(receiver, s, k as usize) }
}

/// `count` over a window of `span` code points: none when the needle is longer, one more than
/// the span for an empty needle (CPython counts the empty string between every two).
fn count_in(span: i64, sublen: i64, matches: impl FnOnce() -> i64) -> i64 {
    match span {
        span if span < sublen => 0,
        span if sublen == 0 => span + 1,
        _ => matches(),
    }
}

/// Where `needle` first (`find`, `index`) or last (`rfind`, `rindex`) occurs in `hay`.
fn search_chars(m: Method, hay: &[char], needle: &[char]) -> Option<usize> {
    let forward = matches!(m, Method::Find | Method::Index);
    if needle.is_empty() {
        return Some(if forward { 0 } else { hay.len() });
    }
    let mut windows = hay.windows(needle.len());
    if forward { windows.position(|w| w == needle) } else { windows.rposition(|w| w == needle) }
}

/// The occurrences of `needle` (not empty) in `hay` that do not overlap, counted from the start.
fn count_chars(hay: &[char], needle: &[char]) -> i64 {
    let (mut n, mut i) = (0, 0);
    while i + needle.len() <= hay.len() {
        if hay[i..i + needle.len()] == *needle {
            n += 1;
            i += needle.len();
        } else {
            i += 1;
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use crate::pipeline::test_values::run_main as run;

    #[test]
    fn finds_as_cpython_in_ascii_utf8_and_ucs4_text() {
        // Results from CPython 3.11; each text is long enough to live on the heap (UCS4 texts,
        // which come from Python, are searched in test_str_find.py).
        let cases = [
            ("('a b ' * 20).find(' ', 5)", "5"),
            ("('a b ' * 20).rfind('b', 0, 9)", "6"),
            ("('a b ' * 20).count(' ', 3, 50)", "24"),
            ("('a b ' * 20).find('', 200)", "-1"),
            ("('a b ' * 20).find('', 80)", "80"),
            ("('é b ' * 20).find('b', 5)", "6"),
            ("('é b ' * 20).rfind('é', -10)", "76"),
            ("('é b ' * 20).count('é b', 1)", "19"),
            ("('é b ' * 20).index('zz')", "Value: substring not found"),
            ("('aaaa' * 20).count('aa')", "40"),
            ("('aaaa' * 20).count('', 78)", "3"),
            ("('a b ' * 20).startswith('b', 6)", "True"),
            ("('a b ' * 20).startswith(('x', 'b '), 6, 8)", "True"),
            ("('é b ' * 20).endswith('é', 0, -3)", "True"),
            ("('é b ' * 20).startswith('', 81)", "False"),
        ];
        for (expr, want) in cases {
            assert_eq!(run(&format!("return repr({expr})")), want, "{expr}");
        }
    }
}
