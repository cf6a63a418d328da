//! `str` methods: case mapping, stripping, splitting, joining and replacing, with CPython 3.11's results and
//! errors.

use super::Method;
use super::char_classes::{
    all_chars, cased_only, decimal_value, is_alpha, is_cased, is_digit, is_identifier, is_numeric, is_printable,
    is_space,
};
use crate::container::try_reserve_items;
use crate::pipeline::Slot;
use crate::pipeline::format::FormatArgs;
use crate::pipeline::value_ops::{
    Text, arg_vname, dict_of, index_arg, iter_items, join_item_error, seq_obj, text_item, text_slot, type_error,
    value_error, vname,
};
use crate::{AnyValue, AnyView, Error, List, Result, Value};
use std::borrow::Cow;

/// A method of str `t`, the text of `obj`.
pub(super) fn str_method(m: Method, t: Text<'_>, obj: &AnyView<'_>, args: &[AnyView<'_>]) -> Result<Slot> {
    use Method::*;
    let ucs4 = t.is_ucs4();
    let flag = |pred: fn(char) -> bool| Ok(Slot::from_bool(all_chars(t, pred)));
    match m {
        Lower => Ok(case_map(t, false)),
        Upper => Ok(case_map(t, true)),
        Casefold => Ok(text_slot(&caseless::default_case_fold_str(&t.as_str()), ucs4)),
        Title => Ok(text_slot(&title(&t.as_str()), ucs4)),
        Capitalize => Ok(text_slot(&capitalize(&t.as_str()), ucs4)),
        Strip | Lstrip | Rstrip => strip(m, t, args.first()),
        Split | Rsplit => split(m, t, args),
        Join => join(t, &args[0]),
        // The receiver's count of characters, which a heap string keeps: searching from an
        // index of a long ASCII text is then O(1) to start, as it is in CPython.
        Startswith | Endswith | Find | Rfind | Index | Rindex | Count => {
            crate::pipeline::str_find::search(m, t, obj, args)
        }
        Replace => replace(t, args),
        Format => Ok(text_slot(&crate::pipeline::format::str_format(t, args)?, ucs4)),
        FormatMap => {
            let map = FormatArgs { positional: &[], named: Some(args[0]), map_only: true };
            Ok(text_slot(&crate::pipeline::format::str_format_with(t, map)?, ucs4))
        }
        Center | Ljust | Rjust => crate::pipeline::str_padding::justify(m, t, args),
        Zfill => crate::pipeline::str_padding::zfill(t, &args[0]),
        Partition | Rpartition => crate::pipeline::str_pieces::partition(m, t, &args[0]),
        Removeprefix | Removesuffix => crate::pipeline::str_pieces::remove_affix(m, t, &args[0]),
        Splitlines => crate::pipeline::str_pieces::splitlines(t, args.first()),
        // True for "" too, unlike the other tests.
        Isascii => Ok(Slot::from_bool(t.chars().all(|c| c.is_ascii()))),
        Swapcase => Ok(crate::pipeline::str_case::swapcase(t)),
        Istitle => Ok(Slot::from_bool(crate::pipeline::str_case::istitle(t))),
        Expandtabs => crate::pipeline::str_padding::expandtabs(t, args.first()),
        Maketrans => crate::pipeline::str_translate::maketrans(args),
        Translate => crate::pipeline::str_translate::translate(t, &args[0]),
        Encode => crate::pipeline::str_codecs::encode(t, args),
        Isidentifier => Ok(Slot::from_bool(is_identifier(t))),
        Isprintable => Ok(Slot::from_bool(t.chars().all(is_printable))),
        Isdigit => flag(is_digit),
        Isdecimal => flag(|c| decimal_value(c).is_some()),
        Isnumeric => flag(is_numeric),
        Isalpha => flag(is_alpha),
        Isalnum => flag(|c| is_alpha(c) || is_numeric(c)),
        Isspace => flag(is_space),
        Islower => Ok(Slot::from_bool(cased_only(t, char::is_lowercase, char::is_uppercase))),
        Isupper => Ok(Slot::from_bool(cased_only(t, char::is_uppercase, char::is_lowercase))),
        _ => unreachable!("spec admits only str methods"),
    }
}

/// `lower()` / `upper()`; short ASCII strings are mapped on the stack and stay inline.
fn case_map(t: Text<'_>, upper: bool) -> Slot {
    if let Text::Utf8(s) = t {
        if s.len() <= Slot::INLINE_BYTES && s.is_ascii() {
            let mut buf = [0u8; Slot::INLINE_BYTES];
            let buf = &mut buf[..s.len()];
            buf.copy_from_slice(s.as_bytes());
            if upper {
                buf.make_ascii_uppercase()
            } else {
                buf.make_ascii_lowercase()
            }
            return Slot::from_text(std::str::from_utf8(buf).unwrap_or_default());
        }
    }
    // Rust's full mappings match CPython's, final sigma included ("ΑΣ".lower() == "ας").
    let s = t.as_str();
    text_slot(&if upper { s.to_uppercase() } else { s.to_lowercase() }, t.is_ucs4())
}

/// Appends the full titlecase mapping of `c` (Unicode SpecialCasing, as CPython 3.11 has it).
fn push_title(c: char, out: &mut String) {
    let mapped: &str = match c as u32 {
        0x149 => "\u{2BC}N",
        0x1C4..=0x1C6 => "\u{1C5}",
        0x1C7..=0x1C9 => "\u{1C8}",
        0x1CA..=0x1CC => "\u{1CB}",
        0x1F1..=0x1F3 => "\u{1F2}",
        // Georgian Mkhedruli letters are their own titlecase (their uppercase is Mtavruli).
        0x10D0..=0x10FA | 0x10FD..=0x10FF => {
            out.push(c);
            return;
        }
        // Greek with ypogegrammeni: the titlecase is the Lt letter 8 code points up.
        0x1F80..=0x1FAF => {
            out.extend(char::from_u32(c as u32 | 8));
            return;
        }
        0x1FB3 | 0x1FBC => "\u{1FBC}",
        0x1FC3 | 0x1FCC => "\u{1FCC}",
        0x1FF3 | 0x1FFC => "\u{1FFC}",
        0x1FB2 => "\u{1FBA}\u{345}",
        0x1FB4 => "\u{386}\u{345}",
        0x1FB7 => "\u{391}\u{342}\u{345}",
        0x1FC2 => "\u{1FCA}\u{345}",
        0x1FC4 => "\u{389}\u{345}",
        0x1FC7 => "\u{397}\u{342}\u{345}",
        0x1FF2 => "\u{1FFA}\u{345}",
        0x1FF4 => "\u{38F}\u{345}",
        0x1FF7 => "\u{3A9}\u{342}\u{345}",
        // Everywhere else the titlecase is the uppercase with all but its first letter lowered.
        _ => {
            let mut upper = c.to_uppercase();
            out.extend(upper.next());
            upper.for_each(|u| out.extend(u.to_lowercase()));
            return;
        }
    };
    out.push_str(mapped);
}

/// The lowercase of each character of `s`, in context (final sigma), aligned with `s.chars()`.
pub(crate) fn lowered_per_char(s: &str) -> impl Iterator<Item = Vec<char>> + '_ {
    // `str::to_lowercase` maps char by char except for the contextual final sigma, so its output
    // splits back into per-character pieces of known lengths.
    let lowered: Vec<char> = s.to_lowercase().chars().collect();
    let mut at = 0;
    s.chars().map(move |c| {
        let n = if c == 'Σ' { 1 } else { c.to_lowercase().len() };
        at += n;
        lowered[at - n..at].to_vec()
    })
}

/// `str.title()`: titlecase after an uncased character, lowercase after a cased one.
pub(super) fn title(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut prev_cased = false;
    for (c, low) in s.chars().zip(lowered_per_char(s)) {
        if prev_cased {
            out.extend(low)
        } else {
            push_title(c, &mut out)
        }
        prev_cased = is_cased(c);
    }
    out
}

/// `str.capitalize()`: the first character titlecased, the rest lowercased.
pub(super) fn capitalize(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for (i, (c, low)) in s.chars().zip(lowered_per_char(s)).enumerate() {
        if i == 0 { push_title(c, &mut out) } else { out.extend(low) }
    }
    out
}

pub(super) fn strip(m: Method, t: Text<'_>, chars: Option<&AnyView<'_>>) -> Result<Slot> {
    let set: Option<Cow<'_, [char]>> = match chars.map(|a| a.value()) {
        None | Some(Value::None) => None,
        Some(x) => match Text::of(x) {
            Some(c) => Some(Cow::Owned(c.to_chars().into_owned())),
            None => return Err(type_error(format!("{} arg must be None or str", m.name()))),
        },
    };
    let strip_it = |c: char| match &set {
        Some(set) => set.contains(&c),
        None => is_space(c),
    };
    let s = t.as_str();
    let out = match m {
        Method::Strip => s.trim_matches(strip_it),
        Method::Lstrip => s.trim_start_matches(strip_it),
        _ => s.trim_end_matches(strip_it),
    };
    Ok(text_slot(out, t.is_ucs4()))
}

/// An optional `start`/`end` argument: an int, or None for "omitted".
pub(crate) fn opt_index(v: Option<&AnyView<'_>>) -> Result<Option<i64>> {
    match v.map(|a| a.value()) {
        None | Some(Value::None) => Ok(None),
        Some(x) => x
            .as_int()
            .map(Some)
            .ok_or_else(|| type_error("slice indices must be integers or None or have an __index__ method")),
    }
}

/// CPython's `ADJUST_INDICES` for str methods: clamps `end`, and `start` only from below.
pub(crate) fn adjust_indices(start: Option<i64>, end: Option<i64>, len: usize) -> (i64, i64) {
    let n = len as i64;
    let end = match end.unwrap_or(n) {
        e if e > n => n,
        e if e < 0 => (e + n).max(0),
        e => e,
    };
    let start = match start.unwrap_or(0) {
        s if s < 0 => (s + n).max(0),
        s => s,
    };
    (start, end)
}

/// Adds `piece` to the pieces of a split, or a `MemoryError` when they cannot grow.
fn push_piece<'s>(out: &mut Vec<&'s str>, piece: &'s str) -> Result<()> {
    try_reserve_items(out, 1, "str.split() result")?;
    out.push(piece);
    Ok(())
}

/// Splits on runs of whitespace, at most `maxsplit` times (negative: no limit), as `str.split()`.
fn split_whitespace(s: &str, maxsplit: i64) -> Result<Vec<&str>> {
    let mut out = Vec::new();
    let mut rest = s.trim_start_matches(is_space);
    while !rest.is_empty() {
        if out.len() as i64 == maxsplit {
            push_piece(&mut out, rest)?;
            break;
        }
        match rest.find(is_space) {
            Some(i) => {
                push_piece(&mut out, &rest[..i])?;
                rest = rest[i..].trim_start_matches(is_space);
            }
            None => {
                push_piece(&mut out, rest)?;
                break;
            }
        }
    }
    Ok(out)
}

/// `str.rsplit()` on whitespace: as [`split_whitespace`], from the right.
fn rsplit_whitespace(s: &str, maxsplit: i64) -> Result<Vec<&str>> {
    let mut out = Vec::new();
    let mut rest = s.trim_end_matches(is_space);
    while !rest.is_empty() {
        if out.len() as i64 == maxsplit {
            push_piece(&mut out, rest)?;
            break;
        }
        match rest.char_indices().rev().find(|&(_, c)| is_space(c)) {
            Some((i, c)) => {
                push_piece(&mut out, &rest[i + c.len_utf8()..])?;
                rest = rest[..i].trim_end_matches(is_space);
            }
            None => {
                push_piece(&mut out, rest)?;
                break;
            }
        }
    }
    out.reverse();
    Ok(out)
}

pub(super) fn split(m: Method, t: Text<'_>, args: &[AnyView<'_>]) -> Result<Slot> {
    // CPython's argument parser reads `maxsplit` before split() looks at `sep`.
    let maxsplit = args.get(1).map(index_arg).transpose()?.unwrap_or(-1);
    let sep = match args.first().map(|a| a.value()) {
        None | Some(Value::None) => None,
        Some(x) => {
            Some(Text::of(x).ok_or_else(|| type_error(format!("must be str or None, not {}", vname(x))))?.as_str())
        }
    };
    let s = t.as_str();
    // `maxsplit + 1` pieces at most; a negative count means no limit.
    let limit = usize::try_from(maxsplit).map_or(usize::MAX, |k| k.saturating_add(1));
    let pieces: Vec<&str> = match (sep.as_deref(), m) {
        (None, Method::Split) => split_whitespace(&s, maxsplit)?,
        (None, _) => rsplit_whitespace(&s, maxsplit)?,
        (Some(""), _) => return Err(value_error("empty separator")),
        (Some(sep), Method::Split) => {
            let mut v = Vec::new();
            s.splitn(limit, sep).try_for_each(|p| push_piece(&mut v, p))?;
            v
        }
        (Some(sep), _) => {
            let mut v = Vec::new();
            s.rsplitn(limit, sep).try_for_each(|p| push_piece(&mut v, p))?;
            v.reverse();
            v
        }
    };
    let mut items = Vec::new();
    try_reserve_items(&mut items, pieces.len(), "str.split() result")?;
    items.extend(pieces.into_iter().map(|p| text_item(p, t.is_ucs4())));
    Ok(List::from_vec(items).into())
}

pub(super) fn join(t: Text<'_>, iterable: &AnyView<'_>) -> Result<Slot> {
    let sep = t.as_str();
    // A generator's items can be taken once: they are listed before the two passes.
    let listed = match crate::pipeline::generator::generator_of(iterable.value()) {
        Some(g) => Some(List::from_vec(g.drain()?).into_any()),
        None => None,
    };
    let it = listed.as_ref().map_or_else(|| iterable.value(), AnyValue::value);
    // Two passes over the pieces: their total size first, so that the room for the result is
    // asked for once, and a result too large for memory is a `MemoryError`, not an abort.
    let mut total = 0usize;
    let mut out = String::new();
    let mut measure = |i: usize, x: Value<'_>| -> Result<()> {
        let Some(piece) = Text::of(x) else {
            return Err(join_item_error(i, &vname(x)));
        };
        let len = match piece {
            Text::Utf8(p) => p.len(),
            Text::Ucs4(p) => p.iter().map(|c| c.len_utf8()).sum(),
        };
        total = total.saturating_add(len).saturating_add(if i > 0 { sep.len() } else { 0 });
        Ok(())
    };
    for_each_join_piece(it, &mut measure)?;
    out.try_reserve_exact(total).map_err(|_| Error::out_of_memory("str.join() result", total))?;
    let mut push = |i: usize, x: Value<'_>| -> Result<()> {
        if i > 0 {
            out.push_str(&sep);
        }
        match Text::of(x) {
            Some(Text::Utf8(p)) => out.push_str(p),
            Some(Text::Ucs4(p)) => out.extend(p),
            // Only if another thread put it there since the first pass.
            None => return Err(join_item_error(i, &vname(x))),
        }
        Ok(())
    };
    for_each_join_piece(it, &mut push)?;
    if t.is_ucs4() {
        return Ok(text_slot(&out, true));
    }
    // The result is copied into its string object, which the allocator may refuse as well.
    Slot::try_concat_text(&out, "").ok_or_else(|| Error::out_of_memory("str.join() result", out.len()))
}

/// Calls `f` with each piece `str.join` joins (and its index): a list's or a tuple's items, a
/// str's characters, a dict's keys, a set's or a deque's items.
pub(crate) fn for_each_join_piece(it: Value<'_>, f: &mut dyn FnMut(usize, Value<'_>) -> Result<()>) -> Result<()> {
    if let Some(l) = seq_obj(it) {
        l.with_items(|xs| xs.iter().enumerate().try_for_each(|(i, x)| f(i, x.value())))
    } else if let Some(src) = Text::of(it) {
        src.chars().enumerate().try_for_each(|(i, c)| f(i, AnyValue::from_char(c).value()))
    } else if let Some(d) = dict_of(it) {
        d.keys().iter().enumerate().try_for_each(|(i, k)| f(i, k.value()))
    } else if let Value::Bytes(b) = it {
        // Its items are ints: bytes to join, an error for str's join.
        b.iter().enumerate().try_for_each(|(i, &c)| f(i, Value::Int(i64::from(c))))
    } else if crate::pipeline::set_ops::set_of(it).is_some()
        || crate::pipeline::deque_ops::deque_of(it).is_some()
        || crate::pipeline::dict_view_ops::view_of(it).is_some()
    {
        iter_items(it)?.iter().enumerate().try_for_each(|(i, x)| f(i, x.value()))
    } else {
        Err(type_error("can only join an iterable"))
    }
}

pub(super) fn replace(t: Text<'_>, args: &[AnyView<'_>]) -> Result<Slot> {
    let text_arg = |k: usize| {
        let x = args[k].value();
        Text::of(x)
            .map(|p| p.as_str().into_owned())
            .ok_or_else(|| type_error(format!("replace() argument {} must be str, not {}", k + 1, arg_vname(x))))
    };
    let (old, new) = (text_arg(0)?, text_arg(1)?);
    let count = args.get(2).map(index_arg).transpose()?.unwrap_or(-1);
    let s = t.as_str();
    let limit = usize::try_from(count).unwrap_or(usize::MAX);
    // The result is sized first, so that a huge one (`s.replace("a", "b" * 10**6)`) is a
    // memory error when the allocator refuses it instead of an abort.
    let hits = s.matches(&*old).take(limit).count();
    let bytes = hits
        .checked_mul(new.len())
        .and_then(|added| (s.len() - hits * old.len()).checked_add(added))
        .ok_or_else(|| value_error("replace() result is too long"))?;
    let mut out = String::new();
    out.try_reserve_exact(bytes).map_err(|_| Error::out_of_memory("replace() result", bytes))?;
    let mut last = 0;
    for (at, hit) in s.match_indices(&*old).take(limit) {
        out.push_str(&s[last..at]);
        out.push_str(&new);
        last = at + hit.len();
    }
    out.push_str(&s[last..]);
    Ok(text_slot(&out, t.is_ucs4()))
}
