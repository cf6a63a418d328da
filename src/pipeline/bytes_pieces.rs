//! `bytes.partition`, `rpartition`, `removeprefix`, `removesuffix`, `splitlines`, `translate`,
//! and the class methods `bytes.fromhex` and `bytes.maketrans`, as CPython 3.11 has them.

use super::Slot;
use super::bytes_methods::{bytes_arg, grow, is_space};
use super::methods::Method;
use super::value_ops::{Text, arg_vname, type_error, value_error};
use crate::container::try_reserve_items;
use crate::{AnyValue, AnyView, List, Result, Tuple, Value};

/// `b.partition(sep)` / `b.rpartition(sep)`: `(before, sep, after)`.
pub(crate) fn partition(m: Method, b: &[u8], sep: &AnyView<'_>) -> Result<Slot> {
    let sep = bytes_arg(sep.value())?;
    if sep.is_empty() {
        return Err(value_error("empty separator"));
    }
    let found = if m == Method::Partition { memchr::memmem::find(b, sep) } else { memchr::memmem::rfind(b, sep) };
    let (x, y, z): (&[u8], &[u8], &[u8]) = match found {
        Some(k) => (&b[..k], sep, &b[k + sep.len()..]),
        // Not found: the bytes are on the side the search started from.
        None if m == Method::Partition => (b, b"", b""),
        None => (b"", b"", b),
    };
    let items = [x, y, z].map(AnyValue::from_bytes);
    Ok(Tuple::from_vec(items.into()).into())
}

/// `b.removeprefix(p)` / `b.removesuffix(p)`.
pub(crate) fn remove_affix(m: Method, b: &[u8], affix: &AnyView<'_>) -> Result<Slot> {
    let affix = bytes_arg(affix.value())?;
    let kept = if m == Method::Removeprefix { b.strip_prefix(affix) } else { b.strip_suffix(affix) };
    Ok(Slot::from_bytes(kept.unwrap_or(b)))
}

/// `b.splitlines(keepends=False)`: the lines, split at `\n`, `\r` and `\r\n` only.
pub(crate) fn splitlines(b: &[u8], keepends: Option<&AnyView<'_>>) -> Result<Slot> {
    let keep = super::str_pieces::keepends_arg(keepends)?;
    let mut lines: Vec<AnyValue> = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while let Some(at) = memchr::memchr2(b'\n', b'\r', &b[i..]) {
        let brk = i + at;
        let end = if b[brk..].starts_with(b"\r\n") { brk + 2 } else { brk + 1 };
        try_reserve_items(&mut lines, 1, "bytes.splitlines() result")?;
        lines.push(AnyValue::from_bytes(&b[start..if keep { end } else { brk }]));
        start = end;
        i = end;
    }
    if start < b.len() {
        try_reserve_items(&mut lines, 1, "bytes.splitlines() result")?;
        lines.push(AnyValue::from_bytes(&b[start..]));
    }
    Ok(List::from_vec(lines).into())
}

/// `bytes.fromhex(s)`: pairs of hex digits, with ASCII whitespace before any pair.
pub(crate) fn fromhex(s: &AnyView<'_>) -> Result<Slot> {
    let x = s.value();
    let Some(text) = Text::of(x) else {
        return Err(type_error(format!("fromhex() argument must be str, not {}", arg_vname(x))));
    };
    let text = text.as_str();
    let invalid = |at: usize| value_error(format!("non-hexadecimal number found in fromhex() arg at position {at}"));
    // A non-ASCII text is refused at its first non-ASCII character, wherever the digits stop.
    if let Some(at) = text.chars().position(|c| !c.is_ascii()) {
        return Err(invalid(at));
    }
    let digits = text.as_bytes();
    let mut out = Vec::new();
    grow(&mut out, digits.len() / 2)?;
    let mut i = 0;
    while i < digits.len() {
        if is_space(digits[i]) {
            i += 1;
            continue;
        }
        // A missing second digit is reported where it should be (the text's length).
        let digit = |k: usize| digits.get(k).and_then(|&c| (c as char).to_digit(16)).ok_or_else(|| invalid(k));
        let high = digit(i)?;
        let low = digit(i + 1)?;
        out.push((high * 16 + low) as u8);
        i += 2;
    }
    Ok(Slot::from_bytes(&out))
}

/// `bytes.maketrans(frm, to)`: the 256-byte table that maps each byte of `frm` to the byte of
/// `to` at its place, and every other byte to itself.
pub(crate) fn maketrans(args: &[AnyView<'_>]) -> Result<Slot> {
    let (from, to) = (bytes_arg(args[0].value())?, bytes_arg(args[1].value())?);
    if from.len() != to.len() {
        return Err(value_error("maketrans arguments must have same length"));
    }
    let mut table: [u8; 256] = std::array::from_fn(|i| i as u8);
    for (&f, &t) in from.iter().zip(to) {
        table[f as usize] = t;
    }
    Ok(Slot::from_bytes(&table))
}

/// `b.translate(table, delete=b"")`: the bytes not in `delete`, each mapped through `table`
/// (256 bytes, or None for none).
pub(crate) fn translate(b: &[u8], args: &[AnyView<'_>]) -> Result<Slot> {
    // CPython checks the table before it reads `delete`.
    let table = match args[0].value() {
        Value::None => None,
        x => {
            let table = bytes_arg(x)?;
            if table.len() != 256 {
                return Err(value_error("translation table must be 256 characters long"));
            }
            Some(table)
        }
    };
    let mut deleted = [false; 256];
    if let Some(delete) = args.get(1) {
        bytes_arg(delete.value())?.iter().for_each(|&c| deleted[c as usize] = true);
    }
    let mut out = Vec::new();
    grow(&mut out, b.len())?;
    out.extend(b.iter().filter(|&&c| !deleted[c as usize]).map(|&c| table.map_or(c, |t| t[c as usize])));
    Ok(Slot::from_bytes(&out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::test_values::outcome as show;

    // Expected: CPython 3.11's results for the same calls.
    #[test]
    fn results_are_cpythons() {
        let b = |s: &'static [u8]| AnyView::from_bytes(s);
        assert_eq!(show(partition(Method::Rpartition, b"ab", &b(b"x"))), "(b'', b'', b'ab')");
        assert_eq!(show(partition(Method::Partition, b"ab", &b(b""))), "Value: empty separator");
        assert_eq!(show(splitlines(b"a\nb\r\nc\rd\x0be", None)), "[b'a', b'b', b'c', b'd\\x0be']");
        assert_eq!(show(fromhex(&AnyView::from(" 0a\t0b"))), "b'\\n\\x0b'");
        let bad = "Value: non-hexadecimal number found in fromhex() arg at position";
        assert_eq!(show(fromhex(&AnyView::from("0"))), format!("{bad} 1"));
        assert_eq!(show(fromhex(&AnyView::from("0 a"))), format!("{bad} 1"));
        assert_eq!(show(fromhex(&AnyView::from("zz\u{e9}"))), format!("{bad} 2"));
        assert_eq!(show(translate(b"abc", &[AnyView::none(), b(b"b")])), "b'ac'");
        assert_eq!(show(maketrans(&[b(b"ab"), b(b"x")])), "Value: maketrans arguments must have same length");
    }
}
