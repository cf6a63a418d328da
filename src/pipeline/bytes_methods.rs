//! The methods of `bytes` besides `decode` (`str_codecs.rs`): `find`, `rfind`, `index`,
//! `rindex`, `count`, `startswith`, `endswith`, `split`, `rsplit`, `strip`, `lstrip`, `rstrip`,
//! `replace`, `join`, `lower`, `upper`, `isdigit`/`isalpha`/`isalnum`/`isspace`/`islower`/
//! `isupper`/`isascii` and `hex` here, with CPython 3.11's results and errors; the padding and
//! the other case changes in `bytes_layout.rs`, and the partitions, lines, translation and hex
//! parsing in `bytes_pieces.rs`.
//!
//! Rationale: bytes are ASCII to these methods, as to CPython's: only ASCII letters change case,
//! and the whitespace that `split()` and `strip()` take away is `b' \t\n\r\x0b\x0c'`.

use super::Slot;
use super::bytes_layout;
use super::bytes_pieces;
use super::methods::{Method, adjust_indices, for_each_join_piece, opt_index};
use super::value_ops::{MAX_RESULT_BYTES, index_arg, type_error, vname};
use crate::error::{Error, Result};
use crate::{AnyValue, AnyView, List, Value};

/// `b.method(*args)`, its argument count already checked.
pub(crate) fn call(m: Method, b: &[u8], args: &[AnyView<'_>]) -> Result<Slot> {
    Ok(match m {
        Method::Find | Method::Rfind | Method::Index | Method::Rindex | Method::Count => find(m, b, args)?,
        Method::Startswith | Method::Endswith => Slot::from_bool(starts_ends(m, b, args)?),
        Method::Split | Method::Rsplit => split(m, b, args)?,
        Method::Strip | Method::Lstrip | Method::Rstrip => Slot::from_bytes(strip(m, b, args.first())?),
        Method::Replace => replace(b, args)?,
        Method::Join => join(b, &args[0])?,
        Method::Lower => Slot::from_bytes(&b.to_ascii_lowercase()),
        Method::Upper => Slot::from_bytes(&b.to_ascii_uppercase()),
        Method::Hex => hex(b, args)?,
        Method::Center | Method::Ljust | Method::Rjust => bytes_layout::justify(m, b, args)?,
        Method::Zfill => bytes_layout::zfill(b, &args[0])?,
        Method::Expandtabs => bytes_layout::expandtabs(b, args.first())?,
        Method::Title | Method::Capitalize | Method::Swapcase => bytes_layout::change_case(m, b),
        Method::Istitle => Slot::from_bool(bytes_layout::is_title(b)),
        Method::Partition | Method::Rpartition => bytes_pieces::partition(m, b, &args[0])?,
        Method::Removeprefix | Method::Removesuffix => bytes_pieces::remove_affix(m, b, &args[0])?,
        Method::Splitlines => bytes_pieces::splitlines(b, args.first())?,
        Method::Translate => bytes_pieces::translate(b, args)?,
        Method::Maketrans => bytes_pieces::maketrans(args)?,
        Method::Fromhex => bytes_pieces::fromhex(&args[0])?,
        _ => Slot::from_bool(test(m, b)),
    })
}

/// The bytes of `x`, or CPython's TypeError for what is not bytes-like.
pub(crate) fn bytes_arg<'v>(x: Value<'v>) -> Result<&'v [u8]> {
    match x {
        Value::Bytes(b) => Ok(b),
        _ => Err(type_error(format!("a bytes-like object is required, not '{}'", vname(x)))),
    }
}

/// Whether `c` is what bytes call whitespace.
pub(crate) fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b'\x0b' | b'\x0c')
}

/// `find(sub, start, end)` and its kin: `sub` bytes or one byte as an int. (CPython reads the
/// bounds before `sub`, and so do these, for the same first error.)
fn find(m: Method, b: &[u8], args: &[AnyView<'_>]) -> Result<Slot> {
    let (st, en) = adjust_indices(opt_index(args.get(1))?, opt_index(args.get(2))?, b.len());
    let x = args[0].value();
    let byte;
    let sub: &[u8] = match x {
        Value::Bytes(s) => s,
        Value::Int(i) => {
            byte = [u8::try_from(i).map_err(|_| Error::value("byte must be in range(0, 256)"))?];
            &byte
        }
        _ => {
            let message = format!("argument should be integer or bytes-like object, not '{}'", vname(x));
            return Err(type_error(message));
        }
    };
    if m == Method::Count {
        if en < st {
            return Ok(Slot::from_int(0));
        }
        let hay = &b[st as usize..en as usize];
        let n = if sub.is_empty() { hay.len() + 1 } else { count(hay, sub) };
        return Ok(Slot::from_int(n as i64));
    }
    let found = (en - st >= sub.len() as i64)
        .then(|| {
            let hay = &b[st as usize..en as usize];
            let at = match m {
                Method::Find | Method::Index => memchr::memmem::find(hay, sub),
                _ => memchr::memmem::rfind(hay, sub),
            };
            at.map(|i| st + i as i64)
        })
        .flatten();
    match (found, m) {
        (Some(i), _) => Ok(Slot::from_int(i)),
        (None, Method::Find | Method::Rfind) => Ok(Slot::from_int(-1)),
        (None, _) => Err(Error::value("subsection not found")),
    }
}

/// How many times `sub` (not empty) occurs in `hay` without overlapping (as memchr's iterator
/// reports them).
fn count(hay: &[u8], sub: &[u8]) -> usize {
    memchr::memmem::find_iter(hay, sub).count()
}

/// `startswith(prefix, start, end)` (or `endswith`), `prefix` bytes or a tuple of them.
fn starts_ends(m: Method, b: &[u8], args: &[AnyView<'_>]) -> Result<bool> {
    let (st, en) = adjust_indices(opt_index(args.get(1))?, opt_index(args.get(2))?, b.len());
    let at_end = m == Method::Endswith;
    let matches = |p: &[u8]| {
        if en - (p.len() as i64) < st {
            return false;
        }
        let hay = &b[st as usize..en as usize];
        if at_end { hay.ends_with(p) } else { hay.starts_with(p) }
    };
    let x = args[0].value();
    if let Value::Bytes(p) = x {
        return Ok(matches(p));
    }
    let Some(prefixes) = super::value_ops::tuple_obj(x) else {
        let message = format!("{} first arg must be bytes or a tuple of bytes, not {}", m.name(), vname(x));
        return Err(type_error(message));
    };
    // Tried in order; an item that is not bytes fails only when it is reached, as in CPython.
    prefixes.with_items(|xs| {
        for p in xs {
            if matches(bytes_arg(p.value())?) {
                return Ok(true);
            }
        }
        Ok(false)
    })
}

/// `split(sep=None, maxsplit=-1)` and `rsplit`.
fn split(m: Method, b: &[u8], args: &[AnyView<'_>]) -> Result<Slot> {
    // CPython reads `maxsplit` first.
    let maxsplit = args.get(1).map(index_arg).transpose()?.unwrap_or(-1);
    let sep = match args.first().map(|a| a.value()) {
        None | Some(Value::None) => None,
        Some(x) => Some(bytes_arg(x)?),
    };
    let limit = usize::try_from(maxsplit).unwrap_or(usize::MAX);
    let from_right = m == Method::Rsplit;
    let mut pieces: Vec<&[u8]> = match sep {
        Some([]) => return Err(Error::value("empty separator")),
        Some(sep) => split_on(b, sep, limit, from_right),
        None => split_space(b, limit, from_right),
    };
    if from_right {
        pieces.reverse();
    }
    Ok(Slot::from(List::from_vec(pieces.into_iter().map(AnyValue::from_bytes).collect())))
}

/// The pieces of `b` between occurrences of `sep`, at most `limit` splits, taken from the
/// right (and listed from the right) when `from_right`.
fn split_on<'b>(b: &'b [u8], sep: &[u8], limit: usize, from_right: bool) -> Vec<&'b [u8]> {
    let mut out = Vec::new();
    let mut rest = b;
    while out.len() < limit {
        let at = if from_right { memchr::memmem::rfind(rest, sep) } else { memchr::memmem::find(rest, sep) };
        let Some(at) = at else { break };
        if from_right {
            out.push(&rest[at + sep.len()..]);
            rest = &rest[..at];
        } else {
            out.push(&rest[..at]);
            rest = &rest[at + sep.len()..];
        }
    }
    out.push(rest);
    out
}

/// The runs of `b` between whitespace, at most `limit` splits (the rest kept whole, its
/// leading whitespace removed), taken from the right when `from_right`.
fn split_space(b: &[u8], limit: usize, from_right: bool) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut rest = if from_right { trim_end(b) } else { trim_start(b) };
    while !rest.is_empty() {
        if out.len() == limit {
            out.push(rest);
            break;
        }
        if from_right {
            let start = rest.iter().rposition(|&c| is_space(c)).map_or(0, |i| i + 1);
            out.push(&rest[start..]);
            rest = trim_end(&rest[..start]);
        } else {
            let end = rest.iter().position(|&c| is_space(c)).unwrap_or(rest.len());
            out.push(&rest[..end]);
            rest = trim_start(&rest[end..]);
        }
    }
    out
}

fn trim_start(b: &[u8]) -> &[u8] {
    &b[b.iter().position(|&c| !is_space(c)).unwrap_or(b.len())..]
}

fn trim_end(b: &[u8]) -> &[u8] {
    &b[..b.iter().rposition(|&c| !is_space(c)).map_or(0, |i| i + 1)]
}

/// `strip(chars=None)` and its one-sided kin.
fn strip<'b>(m: Method, b: &'b [u8], chars: Option<&AnyView<'_>>) -> Result<&'b [u8]> {
    let set = match chars.map(|a| a.value()) {
        None | Some(Value::None) => None,
        Some(x) => Some(bytes_arg(x)?),
    };
    let strip_it = |c: &u8| set.map_or_else(|| is_space(*c), |s| s.contains(c));
    let start = if m == Method::Rstrip { 0 } else { b.iter().position(|c| !strip_it(c)).unwrap_or(b.len()) };
    let end = if m == Method::Lstrip { b.len() } else { b.iter().rposition(|c| !strip_it(c)).map_or(0, |i| i + 1) };
    Ok(if start < end { &b[start..end] } else { &[] })
}

/// `replace(old, new, count=-1)`.
fn replace(b: &[u8], args: &[AnyView<'_>]) -> Result<Slot> {
    let (old, new) = (bytes_arg(args[0].value())?, bytes_arg(args[1].value())?);
    let count = args.get(2).map(index_arg).transpose()?.unwrap_or(-1);
    let limit = usize::try_from(count).unwrap_or(usize::MAX);
    let mut out = Vec::new();
    let mut replaced = 0;
    if old.is_empty() {
        // Before every byte and after the last, as CPython inserts it.
        for &c in b {
            if replaced < limit {
                grow(&mut out, new.len() + 1)?;
                out.extend_from_slice(new);
                replaced += 1;
            }
            out.push(c);
        }
        if replaced < limit {
            grow(&mut out, new.len())?;
            out.extend_from_slice(new);
        }
        return Ok(Slot::from_bytes(&out));
    }
    let mut rest = b;
    while replaced < limit {
        let Some(at) = memchr::memmem::find(rest, old) else { break };
        grow(&mut out, at + new.len())?;
        out.extend_from_slice(&rest[..at]);
        out.extend_from_slice(new);
        rest = &rest[at + old.len()..];
        replaced += 1;
    }
    grow(&mut out, rest.len())?;
    out.extend_from_slice(rest);
    Ok(Slot::from_bytes(&out))
}

/// Room for `more` bytes in a result, or a `MemoryError` when there is none. Past
/// `MAX_RESULT_BYTES` none is asked for: overcommit would grant it, and filling it would get
/// the process killed (`b"a".center(2**40)`).
pub(crate) fn grow(out: &mut Vec<u8>, more: usize) -> Result<()> {
    let total = out.len().saturating_add(more);
    if total > MAX_RESULT_BYTES || out.try_reserve(more).is_err() {
        return Err(Error::out_of_memory("bytes result", total));
    }
    Ok(())
}

/// `sep.join(iterable)`: every item bytes.
fn join(sep: &[u8], iterable: &AnyView<'_>) -> Result<Slot> {
    // A generator's items can be taken once: they are listed first, as `str.join` does.
    let listed = match super::generator::generator_of(iterable.value()) {
        Some(g) => Some(List::from_vec(g.drain()?).into_any()),
        None => None,
    };
    let items = listed.as_ref().map_or_else(|| iterable.value(), AnyValue::value);
    let mut out = Vec::new();
    for_each_join_piece(items, &mut |i, x| {
        let Some(piece) = super::bytearray_ops::bytes_like(x) else {
            return Err(type_error(format!("sequence item {i}: expected a bytes-like object, {} found", vname(x))));
        };
        let piece = &*piece;
        let at_sep = if i > 0 { sep } else { &[] };
        grow(&mut out, at_sep.len() + piece.len())?;
        out.extend_from_slice(at_sep);
        out.extend_from_slice(piece);
        Ok(())
    })?;
    Ok(Slot::from_bytes(&out))
}

/// `hex(sep, bytes_per_sep=1)`: `sep` one ASCII character (str or bytes) put between groups of
/// `bytes_per_sep` bytes counted from the right (from the left when negative).
fn hex(b: &[u8], args: &[AnyView<'_>]) -> Result<Slot> {
    let digits = |bytes: &[u8]| bytes.iter().map(|c| format!("{c:02x}")).collect::<String>();
    let Some(sep) = args.first().map(|a| a.value()) else { return Ok(Slot::from_text(&digits(b))) };
    // CPython reads `bytes_per_sep` first.
    let per = args.get(1).map(index_arg).transpose()?.unwrap_or(1);
    // `hex(bytes_per_sep=2)` binds `sep` to None: no separator, as CPython leaves it unset.
    if matches!(sep, Value::None) && args.len() == 2 {
        return Ok(Slot::from_text(&digits(b)));
    }
    let sep: Vec<u8> = match sep {
        Value::Bytes(s) => s.to_vec(),
        other => match super::value_ops::Text::of(other) {
            Some(t) => t.as_str().chars().map(|c| if c.is_ascii() { c as u8 } else { 0x80 }).collect(),
            // CPython takes the length of any sized `sep` before it looks at its type.
            None if super::value_ops::len(args[0])? != 1 => return Err(Error::value("sep must be length 1.")),
            None => return Err(type_error("sep must be str or bytes.")),
        },
    };
    let sep = match sep[..] {
        [c] if c.is_ascii() => c as char,
        [_] => return Err(Error::value("sep must be ASCII.")),
        _ => return Err(Error::value("sep must be length 1.")),
    };
    let size = per.unsigned_abs() as usize;
    if size == 0 || b.is_empty() {
        return Ok(Slot::from_text(&digits(b)));
    }
    // Groups of `size` bytes; the short one is the first from the right's point of view.
    let first = if per > 0 { b.len() % size } else { size.min(b.len()) };
    let mut groups: Vec<&[u8]> = Vec::new();
    let mut rest = b;
    if per > 0 && first > 0 {
        groups.push(&rest[..first]);
        rest = &rest[first..];
    }
    groups.extend(rest.chunks(size));
    let text = groups.iter().map(|g| digits(g)).collect::<Vec<_>>().join(&sep.to_string());
    Ok(Slot::from_text(&text))
}

/// `isdigit()` and the other ASCII class tests.
fn test(m: Method, b: &[u8]) -> bool {
    let all = |f: fn(&u8) -> bool| !b.is_empty() && b.iter().all(f);
    match m {
        Method::Isdigit => all(u8::is_ascii_digit),
        Method::Isalpha => all(u8::is_ascii_alphabetic),
        Method::Isalnum => all(u8::is_ascii_alphanumeric),
        Method::Isspace => all(|c| is_space(*c)),
        Method::Isascii => b.is_ascii(),
        // Cased: at least one letter of the case, none of the other.
        Method::Islower => b.iter().any(u8::is_ascii_lowercase) && !b.iter().any(u8::is_ascii_uppercase),
        _ => b.iter().any(u8::is_ascii_uppercase) && !b.iter().any(u8::is_ascii_lowercase),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(m: Method, b: &[u8], args: &[AnyView<'_>]) -> String {
        crate::pipeline::test_values::outcome(call(m, b, args))
    }

    // Expected: CPython 3.11's results for the same calls.
    #[test]
    fn results_are_cpythons() {
        let b = |s: &'static [u8]| AnyView::from_bytes(s);
        assert_eq!(run(Method::Split, b" \x1c a\x85 ", &[]), "[b'\\x1c', b'a\\x85']");
        assert_eq!(run(Method::Rsplit, b"a b  c", &[AnyView::none(), AnyView::from(1i64)]), "[b'a b', b'c']");
        assert_eq!(run(Method::Split, b"a,b,,c", &[b(b","), AnyView::from(2i64)]), "[b'a', b'b', b',c']");
        assert_eq!(run(Method::Replace, b"ab", &[b(b""), b(b"-"), AnyView::from(2i64)]), "b'-a-b'");
        assert_eq!(run(Method::Hex, b"abcde", &[AnyView::from(":"), AnyView::from(2i64)]), "'61:6263:6465'");
        assert_eq!(run(Method::Hex, b"abcde", &[AnyView::from(":"), AnyView::from(-2i64)]), "'6162:6364:65'");
        assert_eq!(run(Method::Count, b"abc", &[b(b""), AnyView::from(1i64)]), "3");
        assert_eq!(run(Method::Find, b"abc", &[AnyView::from(300i64)]), "Value: byte must be in range(0, 256)");
        assert_eq!(run(Method::Lower, b"A\xc9z", &[]), "b'a\\xc9z'");
        assert_eq!(run(Method::Strip, b" \x1c a ", &[]), "b'\\x1c a'");
        assert_eq!(count(b"aaaa", b"aa"), 2);
    }
}
