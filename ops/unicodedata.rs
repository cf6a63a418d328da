//! `unicodedata.*`: the functions of Python's `unicodedata` module that text code reaches for
//! (`normalize`, `is_normalized`, `category`, `combining`, `name`), with CPython 3.11's results and
//! messages. A script calls them as `unicodedata.category(c)`; `anyproc.script` maps Python's
//! functions to them.
//!
//! `category` and the other properties read CPython 3.11's own tables
//! (`unicodedata_props.rs`); names come from a newer table, limited to the characters
//! Unicode 14 assigns, as CPython 3.11 knows them.

use crate::error::{Error, ErrorKind, Result};
use crate::func::{OpEntry, Registry};
use crate::pipeline::methods::arity_error;
use crate::pipeline::value_ops::{Text, arg_vname};
use crate::{AnyValue, AnyView};
use unicode_normalization::{IsNormalized, UnicodeNormalization};

/// The argument count CPython's functions insist on.
pub(super) fn check_count(name: &str, args: &[AnyView<'_>], n: usize) -> Result<()> {
    if args.len() == n {
        return Ok(());
    }
    Err(arity_error(&format!("unicodedata.{name}"), name, (n, n), args.len()))
}

/// A one-character str argument (CPython's message for anything else).
pub(super) fn one_char(name: &str, v: &AnyView<'_>) -> Result<char> {
    let mut chars = Text::of(v.value()).map(Text::chars);
    match chars.as_mut().map(|c| (c.next(), c.next())) {
        Some((Some(c), None)) => Ok(c),
        _ => Err(Error::new(
            ErrorKind::Type,
            format!("{name}() argument must be a unicode character, not {}", arg_vname(v.value())),
        )),
    }
}

/// The form and text arguments of `normalize`/`is_normalized`; no form for an empty text.
fn form_and_text(name: &str, args: &[AnyView<'_>]) -> Result<(Option<Form>, String)> {
    check_count(name, args, 2)?;
    let arg = |i: usize| {
        Text::of(args[i].value()).map(|t| t.as_str().into_owned()).ok_or_else(|| {
            let message = format!("{name}() argument {} must be str, not {}", i + 1, arg_vname(args[i].value()));
            Error::new(ErrorKind::Type, message)
        })
    };
    let (form, text) = (arg(0)?, arg(1)?);
    if text.is_empty() {
        // CPython returns an empty text before it looks at the form.
        return Ok((None, text));
    }
    let form = match form.as_str() {
        "NFC" => Form::Nfc,
        "NFD" => Form::Nfd,
        "NFKC" => Form::Nfkc,
        "NFKD" => Form::Nfkd,
        _ => return Err(Error::value("invalid normalization form")),
    };
    Ok((Some(form), text))
}

#[derive(Clone, Copy)]
enum Form {
    Nfc,
    Nfd,
    Nfkc,
    Nfkd,
}

/// `s` in `form`.
fn normalized(form: Form, s: &str) -> String {
    match form {
        Form::Nfc => s.nfc().collect(),
        Form::Nfd => s.nfd().collect(),
        Form::Nfkc => s.nfkc().collect(),
        Form::Nfkd => s.nfkd().collect(),
    }
}

fn normalize(args: &[AnyView<'_>]) -> Result<AnyValue> {
    let (Some(form), s) = form_and_text("normalize", args)? else {
        return Ok(AnyValue::from_text(""));
    };
    Ok(AnyValue::from_text(&normalized(form, &s)))
}

fn is_normalized(args: &[AnyView<'_>]) -> Result<AnyValue> {
    let (Some(form), s) = form_and_text("is_normalized", args)? else {
        return Ok(AnyValue::from_bool(true));
    };
    let quick = match form {
        Form::Nfc => unicode_normalization::is_nfc_quick(s.chars()),
        Form::Nfd => unicode_normalization::is_nfd_quick(s.chars()),
        Form::Nfkc => unicode_normalization::is_nfkc_quick(s.chars()),
        Form::Nfkd => unicode_normalization::is_nfkd_quick(s.chars()),
    };
    let yes = match quick {
        IsNormalized::Yes => true,
        IsNormalized::No => false,
        IsNormalized::Maybe => normalized(form, &s) == s,
    };
    Ok(AnyValue::from_bool(yes))
}

fn category(args: &[AnyView<'_>]) -> Result<AnyValue> {
    check_count("category", args, 1)?;
    let c = one_char("category", &args[0])?;
    Ok(AnyValue::from_text(super::unicodedata_props::category_of(c)))
}

/// `unicodedata.name(chr[, default])`: the names of Unicode 14, as CPython 3.11's (the names
/// table is newer, so a character Unicode 14 does not assign has none).
fn name(args: &[AnyView<'_>]) -> Result<AnyValue> {
    let (c, default) = char_and_default("name", args)?;
    match (char_name(c), default) {
        (Some(found), _) => Ok(AnyValue::from_text(&found)),
        (None, Some(default)) => Ok(default.to_owned()),
        (None, None) => Err(Error::value("no such name")),
    }
}

/// CPython 3.11's name of `c` (`unicodedata.name`), if it has one.
pub fn char_name(c: char) -> Option<String> {
    unicode_names2::name(c).filter(|_| super::unicodedata_props::assigned(c)).map(|n| n.to_string())
}

/// The `chr[, default]` arguments of `name`, `numeric`, `digit` and `decimal`, with CPython's
/// errors for a wrong count and for anything but one character.
pub(super) fn char_and_default<'a>(name: &str, args: &'a [AnyView<'a>]) -> Result<(char, Option<&'a AnyView<'a>>)> {
    match args.len() {
        0 => return Err(Error::new(ErrorKind::Type, format!("{name} expected at least 1 argument, got 0"))),
        n if n > 2 => {
            return Err(Error::new(ErrorKind::Type, format!("{name} expected at most 2 arguments, got {n}")));
        }
        _ => {}
    }
    let c = one_char(name, &args[0]).map_err(|_| {
        Error::new(
            ErrorKind::Type,
            format!("{name}() argument 1 must be a unicode character, not {}", arg_vname(args[0].value())),
        )
    })?;
    Ok((c, args.get(1)))
}

fn combining(args: &[AnyView<'_>]) -> Result<AnyValue> {
    check_count("combining", args, 1)?;
    let c = one_char("combining", &args[0])?;
    Ok(AnyValue::from_int(unicode_normalization::char::canonical_combining_class(c) as i64))
}

/// Registers the `unicodedata.*` ops.
pub fn register(reg: &Registry) -> Result<()> {
    let ops: &[OpEntry] = &[
        (
            "unicodedata.normalize",
            "(form, unistr) -> str",
            "NFC/NFD/NFKC/NFKD, as Python's unicodedata.normalize.",
            normalize,
        ),
        (
            "unicodedata.is_normalized",
            "(form, unistr) -> bool",
            "Whether the text is in the form already.",
            is_normalized,
        ),
        (
            "unicodedata.category",
            "(chr) -> str",
            "The general category (Lu, Mn, Po, ...), as unicodedata.category.",
            category,
        ),
        (
            "unicodedata.combining",
            "(chr) -> int",
            "The canonical combining class, as unicodedata.combining.",
            combining,
        ),
        (
            "unicodedata.name",
            "(*chr_default) -> str",
            "The character's name in the Unicode standard, or default, as unicodedata.name.",
            name,
        ),
        (
            "unicodedata.lookup",
            "(*name) -> str",
            "The character called name (an alias too, in any case), as unicodedata.lookup.",
            super::unicodedata_lookup::lookup,
        ),
        (
            "unicodedata.bidirectional",
            "(chr) -> str",
            "The bidirectional class (L, R, AL, ...; '' for none), as unicodedata.bidirectional.",
            super::unicodedata_props::bidirectional,
        ),
        (
            "unicodedata.mirrored",
            "(chr) -> int",
            "1 when the character is mirrored in bidirectional text, else 0, as unicodedata.mirrored.",
            super::unicodedata_props::mirrored,
        ),
    ];
    reg.register_ops(ops)?;
    super::unicodedata_numeric::register(reg)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(name: &str, args: &[AnyValue]) -> std::result::Result<String, String> {
        let views: Vec<AnyView<'_>> = args.iter().map(AnyValue::view).collect();
        let f = crate::func::registry().get(name).unwrap();
        f.call(&views).map(|v| crate::pipeline::value_ops::repr_value(v.value())).map_err(|e| e.message().to_string())
    }

    fn s(t: &str) -> AnyValue {
        AnyValue::from_text(t)
    }

    #[test]
    fn results_and_errors_are_cpythons() {
        // Each expected value is CPython 3.11's.
        assert_eq!(call("unicodedata.normalize", &[s("NFD"), s("é")]).unwrap(), "'e\u{301}'");
        assert_eq!(call("unicodedata.normalize", &[s("NFKC"), s("ﬁ²")]).unwrap(), "'fi2'");
        assert_eq!(call("unicodedata.category", &[s("\u{301}")]).unwrap(), "'Mn'");
        assert_eq!(call("unicodedata.category", &[s("¿")]).unwrap(), "'Po'");
        assert_eq!(call("unicodedata.combining", &[s("\u{301}")]).unwrap(), "230");
        assert_eq!(call("unicodedata.is_normalized", &[s("NFC"), s("e\u{301}")]).unwrap(), "False");
        assert_eq!(call("unicodedata.normalize", &[s("NFX"), s("a")]).unwrap_err(), "invalid normalization form");
        assert_eq!(call("unicodedata.normalize", &[s("NFX"), s("")]).unwrap(), "''");
        assert_eq!(call("unicodedata.category", &[s("\u{1171E}")]).unwrap(), "'Mn'");
        assert_eq!(
            call("unicodedata.category", &[s("ab")]).unwrap_err(),
            "category() argument must be a unicode character, not str"
        );
        assert_eq!(call("unicodedata.normalize", &[s("NFC")]).unwrap_err(), "normalize expected 2 arguments, got 1");
        assert_eq!(
            call("unicodedata.normalize", &[s("NFC"), AnyValue::from_int(1)]).unwrap_err(),
            "normalize() argument 2 must be str, not int"
        );
    }
}
