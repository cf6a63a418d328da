//! Running a pattern as CPython's `re` does: one search, and the scan behind `findall`,
//! `finditer`, `sub` and `split`, with Python 3.7's rule for empty matches (an empty match may
//! follow a non-empty one at the same place; after an empty match the next must move on).
//!
//! After an empty match at `p`, CPython backtracks into the pattern for a non-empty match at
//! `p` before moving on (`re.findall('|a', 'a')` is `['', 'a', '']`): the scan asks for one
//! with `\G(?:P)(?!\G)`, a match at the search position that does not end there.

use super::matches::{Spans, new_match};
use super::pattern::{Anchor, Compiled};
use super::search_text::SearchText;
use super::template::Replacement;
use crate::error::{Error, ErrorKind, Result};
use crate::pipeline::value_ops::{join_item_error, not_bytes_like, vname};
use crate::{AnyValue, AnyView, List, Tuple, Value};
use std::sync::Arc;

/// The first match at or after byte `pos`.
pub(super) fn search_at(c: &Compiled, anchor: Anchor, text: &str, pos: usize) -> Result<Option<Spans>> {
    if let Some(found) = c.anchored_match(anchor, text, pos) {
        return Ok(found);
    }
    let program = c.program(anchor)?;
    // These programs always match at `pos`: the group after the pattern's own says whether the
    // pattern did (see `Compiled::program`).
    let marked = matches!(anchor, Anchor::StartAt | Anchor::WholeAt);
    if c.groups == 0 && !marked {
        // Without groups only the match's span is wanted, which the regex crate finds with its
        // DFA, without the slower engines that track groups.
        let found = program.find_from_pos(text, pos).map_err(|e| run_error(c, e))?;
        return Ok(found.map(|m| vec![Some((m.start(), m.end()))]));
    }
    let caps = program.captures_from_pos(text, pos).map_err(|e| run_error(c, e))?;
    let caps = caps.filter(|caps| !marked || caps.get(c.groups + 1).is_some());
    Ok(caps.map(|caps| (0..=c.groups).map(|i| caps.get(i).map(|m| (m.start(), m.end()))).collect()))
}

fn run_error(c: &Compiled, e: fancy_regex::Error) -> Error {
    Error::new(ErrorKind::Runtime, format!("the pattern {:?} failed while matching: {e}", c.source))
}

/// `search`/`match`/`fullmatch` within `window` (code points; `None` where nothing can
/// match): a match object or None. The text ends at `endpos` (`$` matches there); it starts
/// at `pos`, where a match must start for `match`, though `^` and lookbehinds still see the
/// text before it, as in CPython.
pub(super) fn find(
    c: &Arc<Compiled>,
    anchor: Anchor,
    text: &SearchText,
    window: Option<(usize, usize)>,
) -> Result<AnyValue> {
    let Some((pos, endpos)) = window else { return Ok(AnyValue::none()) };
    let (from, to) = (text.byte_of(pos), text.byte_of(endpos));
    let anchor = match anchor {
        Anchor::Start if from > 0 => Anchor::StartAt,
        Anchor::Whole if from > 0 => Anchor::WholeAt,
        other => other,
    };
    Ok(match search_at(c, anchor, &text.text[..to], from)? {
        Some(spans) => new_match(c, text, (pos, endpos), spans),
        None => AnyValue::none(),
    })
}

/// Calls `each` on the successive matches from byte `from`, at most `limit` of them (`None`:
/// all).
fn scan(c: &Compiled, text: &str, limit: Option<usize>, each: impl FnMut(Spans) -> Result<()>) -> Result<()> {
    scan_from(c, text, 0, limit, each)
}

/// [`scan`] from byte `from`.
fn scan_from(
    c: &Compiled,
    text: &str,
    from: usize,
    limit: Option<usize>,
    mut each: impl FnMut(Spans) -> Result<()>,
) -> Result<()> {
    let (mut pos, mut must_advance, mut n) = (from, false, 0);
    while limit.is_none_or(|l| n < l) && pos <= text.len() {
        let Some(mut spans) = search_at(c, Anchor::Search, text, pos)? else { break };
        let (s, e) = spans[0].expect("group 0 of a match");
        if must_advance && s == e && s == pos {
            // CPython backtracks for a longer match here before it moves on.
            let longer = if c.may_prefer_empty { search_at(c, Anchor::NonEmptyAt, text, pos)? } else { None };
            if let Some(found) = longer {
                spans = found;
            } else {
                let Some(next) = text[pos..].chars().next().map(|ch| pos + ch.len_utf8()) else { break };
                match search_at(c, Anchor::Search, text, next)? {
                    Some(found) => spans = found,
                    None => break,
                }
            }
        }
        let (s, e) = spans[0].expect("group 0 of a match");
        must_advance = s == e;
        pos = e;
        n += 1;
        each(spans)?;
    }
    Ok(())
}

/// A count argument (`count`, `maxsplit`) as a scan limit: 0 is no limit, a negative count
/// none at all (as CPython's loops read it).
pub(super) fn limit_of(n: i64) -> Option<usize> {
    match n {
        0 => None,
        n if n < 0 => Some(0),
        n => Some(usize::try_from(n).unwrap_or(usize::MAX)),
    }
}

fn group_text(text: &str, span: Option<(usize, usize)>, missing: AnyValue) -> AnyValue {
    span.map_or(missing, |(s, e)| AnyValue::from_text(&text[s..e]))
}

/// `re.findall` within `window`: the matches, their one group, or tuples of their groups (''
/// for a group that took no part).
pub(super) fn findall(c: &Compiled, text: &SearchText, window: Option<(usize, usize)>) -> Result<AnyValue> {
    let mut out = Vec::new();
    let Some((pos, endpos)) = window else { return Ok(List::new().into_any()) };
    let from = text.byte_of(pos);
    let text = &text.text[..text.byte_of(endpos)];
    scan_from(c, text, from, None, |spans| {
        let empty = || AnyValue::from_text("");
        out.push(match c.groups {
            0 => group_text(text, spans[0], empty()),
            1 => group_text(text, spans[1], empty()),
            _ => Tuple::from_vec(spans[1..].iter().map(|&s| group_text(text, s, empty())).collect()).into(),
        });
        Ok(())
    })?;
    Ok(List::from_vec(out).into_any())
}

/// `re.finditer` within `window`: the match objects, as a list.
pub(super) fn finditer(c: &Arc<Compiled>, text: &SearchText, window: Option<(usize, usize)>) -> Result<AnyValue> {
    let mut out = Vec::new();
    let Some((pos, endpos)) = window else { return Ok(List::new().into_any()) };
    let (from, to) = (text.byte_of(pos), text.byte_of(endpos));
    scan_from(c, &text.text[..to], from, None, |spans| {
        out.push(new_match(c, text, (pos, endpos), spans));
        Ok(())
    })?;
    Ok(List::from_vec(out).into_any())
}

/// `re.split`: the pieces between matches, each match's groups among them.
pub(super) fn split(c: &Compiled, text: &str, limit: Option<usize>) -> Result<AnyValue> {
    let mut out = Vec::new();
    let mut last = 0;
    scan(c, text, limit, |spans| {
        let (s, e) = spans[0].expect("group 0");
        out.push(AnyValue::from_text(&text[last..s]));
        out.extend(spans[1..].iter().map(|&g| group_text(text, g, AnyValue::none())));
        last = e;
        Ok(())
    })?;
    out.push(AnyValue::from_text(&text[last..]));
    Ok(List::from_vec(out).into_any())
}

/// `re.sub`/`re.subn`: the text with at most `limit` matches replaced, and the count.
pub(super) fn sub(c: &Arc<Compiled>, repl: &Replacement, text: &str, limit: Option<usize>) -> Result<(String, i64)> {
    let shared =
        matches!(repl, Replacement::Func(_)).then(|| SearchText::shared(Arc::from(text))).map(|t| (t.chars(), t));
    let mut out = String::with_capacity(text.len());
    let (mut last, mut n, mut pieces) = (0, 0i64, 0usize);
    scan(c, text, limit, |spans| {
        let (s, e) = spans[0].expect("group 0");
        if last < s {
            pieces += 1;
        }
        out.push_str(&text[last..s]);
        match repl {
            Replacement::Template(t) => {
                t.expand(text, &spans, &mut out);
                pieces += 1;
            }
            Replacement::Bytes => return Err(join_item_error(pieces, "bytes")),
            Replacement::Func(f) => {
                let (n, shared) = shared.as_ref().expect("made for a function");
                let m = new_match(c, shared, (0, *n), spans);
                let r = f.call(&[m.view()])?;
                match r.value() {
                    Value::None => {}
                    Value::Str(s) => {
                        out.push_str(s);
                        pieces += 1;
                    }
                    Value::UStr(u) => {
                        out.extend(u.iter());
                        pieces += 1;
                    }
                    other => return Err(join_item_error(pieces, &vname(other))),
                }
            }
        }
        last = e;
        n += 1;
        Ok(())
    })?;
    out.push_str(&text[last..]);
    Ok((out, n))
}

/// The replacement argument of `sub`: a template or a function of the match.
pub(super) fn replacement(c: &Compiled, repl: &AnyView<'_>) -> Result<Replacement> {
    let v = repl.value();
    if let Some(t) = crate::pipeline::value_ops::Text::of(v) {
        return super::template::Template::parse(&t.as_str(), c).map(Replacement::Template);
    }
    if let Some(f) = <crate::PackedFunc as crate::FromAny>::from_value(v) {
        return Ok(Replacement::Func(f));
    }
    if let Value::Bytes(_) = v {
        return Ok(Replacement::Bytes);
    }
    // Neither text nor callable: CPython hands it to its template parser, whose cache hashes it
    // first and which then decodes it.
    crate::pipeline::value_ops::check_hashable(v)?;
    Err(not_bytes_like(v))
}
