//! `str.maketrans(...)` and `str.translate(table)`, with CPython 3.11's results and errors: the
//! text-cleaning idiom `text.translate(str.maketrans("", "", punctuation))`.

use super::Slot;
use super::value_ops::{Text, arg_vname, dict_of, get_item, text_slot, type_error, value_error};
use crate::error::{ErrorKind, Result};
use crate::{AnyValue, AnyView, Dict, Value};

/// `str.maketrans(x)` of a dict (str keys of one character become their code points), or
/// `str.maketrans(x, y[, z])` of strs: each character of `x` maps to the one of `y` at its
/// place, each of `z` to `None`.
pub(crate) fn maketrans(args: &[AnyView<'_>]) -> Result<Slot> {
    let mut table = Dict::new();
    let [x, rest @ ..] = args else { return Err(type_error("maketrans expected at least 1 argument, got 0")) };
    for (i, a) in rest.iter().enumerate() {
        if Text::of(a.value()).is_none() {
            return Err(type_error(format!(
                "maketrans() argument {} must be str, not {}",
                i + 2,
                arg_vname(a.value())
            )));
        }
    }
    let Some(y) = rest.first() else {
        let Some(d) = dict_of(x.value()) else {
            return Err(type_error("if you give only one argument to maketrans it must be a dict"));
        };
        for (key, value) in d.items() {
            let key = match key.value() {
                Value::Str(_) | Value::UStr(_) => {
                    let mut chars = Text::of(key.value()).expect("a str").chars();
                    match (chars.next(), chars.next()) {
                        (Some(c), None) => AnyValue::from_int(c as i64),
                        _ => return Err(value_error("string keys in translate table must be of length 1")),
                    }
                }
                Value::Int(_) | Value::Bool(_) => key,
                _ => return Err(type_error("keys in translate table must be strings or integers")),
            };
            table.try_set(key, value, "str.maketrans()")?;
        }
        return Ok(table.into());
    };
    let Some(from) = Text::of(x.value()) else {
        return Err(type_error("first maketrans argument must be a string if there is a second argument"));
    };
    let to = Text::of(y.value()).expect("checked above");
    if from.char_len() != to.char_len() {
        return Err(value_error("the first two maketrans arguments must have equal length"));
    }
    for (a, b) in from.chars().zip(to.chars()) {
        table.try_set(AnyValue::from_int(a as i64), AnyValue::from_int(b as i64), "str.maketrans()")?;
    }
    if let Some(z) = rest.get(1) {
        for c in Text::of(z.value()).expect("checked above").chars() {
            table.try_set(AnyValue::from_int(c as i64), AnyValue::none(), "str.maketrans()")?;
        }
    }
    Ok(table.into())
}

/// `text.translate(table)`: each character looked up as `table[ord(c)]` (any value that can be
/// indexed: a dict, a list, a str); not found (a `KeyError` or `IndexError`) keeps it, `None`
/// drops it, an int or a str replaces it.
pub(crate) fn translate(t: Text<'_>, table: &AnyView<'_>) -> Result<Slot> {
    let mut out = String::new();
    for c in t.chars() {
        let code = AnyValue::from_int(c as i64);
        let mapped = match get_item(*table, code.view()) {
            Ok(v) => v,
            Err(e) if matches!(e.kind(), ErrorKind::Key | ErrorKind::Index) => {
                out.push(c);
                continue;
            }
            Err(e) => return Err(e),
        };
        match mapped.value() {
            Value::None => {}
            Value::Int(_) | Value::Bool(_) => {
                let n = mapped.value().as_int().unwrap_or_default();
                let ch = u32::try_from(n).ok().filter(|&n| n < 0x110000).map(char::from_u32);
                match ch {
                    Some(Some(ch)) => out.push(ch),
                    // Surrogates are code points CPython can hold and anyscript cannot.
                    Some(None) => return Err(value_error("character mapping must not be a surrogate in anyscript")),
                    None => return Err(value_error("character mapping must be in range(0x110000)")),
                }
            }
            Value::Str(s) => out.push_str(s),
            Value::UStr(u) => out.extend(u.iter()),
            _ => return Err(type_error("character mapping must return integer, None or str")),
        }
    }
    Ok(text_slot(&out, t.is_ucs4()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::value_ops::repr_value;

    fn v(s: &str) -> AnyValue {
        AnyValue::from_text(s)
    }

    fn maketrans_repr(args: &[AnyValue]) -> String {
        let views: Vec<AnyView<'_>> = args.iter().map(AnyValue::view).collect();
        repr_value(maketrans(&views).unwrap().value())
    }

    // Expected values: CPython 3.11's for the same calls.
    #[test]
    fn tables_map_code_points() {
        assert_eq!(maketrans_repr(&[v("ab"), v("xy"), v("c")]), "{97: 120, 98: 121, 99: None}");
        let mut d = Dict::new();
        d.set("a", "1");
        d.set(66i64, AnyValue::none());
        assert_eq!(maketrans_repr(&[d.into_any()]), "{97: '1', 66: None}");
    }

    #[test]
    fn translate_keeps_drops_and_replaces() {
        let table = maketrans(&[v("ab").view(), v("xy").view(), v(",!").view()]).unwrap();
        let out = translate(Text::Utf8("a, b! c"), &table.view()).unwrap();
        assert_eq!(repr_value(out.value()), "'x y c'");
        // A str table: `"XYZ"[ord(c)]` for the first three code points, the rest kept.
        let out = translate(Text::Utf8("\u{1}\u{2}d"), &v("XYZ").view()).unwrap();
        assert_eq!(repr_value(out.value()), "'YZd'");
    }

    #[test]
    fn errors_are_cpython_s() {
        let err = |args: &[AnyValue]| {
            let views: Vec<AnyView<'_>> = args.iter().map(AnyValue::view).collect();
            maketrans(&views).unwrap_err().message().to_string()
        };
        assert_eq!(err(&[v("ab"), v("x")]), "the first two maketrans arguments must have equal length");
        assert_eq!(err(&[v("ab")]), "if you give only one argument to maketrans it must be a dict");
        assert_eq!(err(&[v("a"), AnyValue::from_int(1)]), "maketrans() argument 2 must be str, not int");
        let mut d = Dict::new();
        d.set("ab", 1i64);
        assert_eq!(err(&[d.into_any()]), "string keys in translate table must be of length 1");
        let mut d = Dict::new();
        d.set(97i64, 1.5);
        let out = translate(Text::Utf8("a"), &d.into_any().view()).unwrap_err();
        assert_eq!(out.message(), "character mapping must return integer, None or str");
    }
}
