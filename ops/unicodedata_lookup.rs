//! Characters by name: `unicodedata.lookup(name)`, and the lookup that `\N{name}` escapes in
//! regular expressions and string literals share, as CPython 3.11's `_getcode` reads a name.

use super::unicodedata_props::assigned;
use crate::error::{ErrorKind, Result};
use crate::pipeline::exception_value::Exception;
use crate::pipeline::value_ops::{repr_value, vname};
use crate::{AnyValue, AnyView, Value};

/// CPython's `NAME_MAXLEN`: a longer name is "name too long".
const NAME_MAX_LEN: usize = 256;

/// The character named `name`, as CPython finds it: a character's name or alias in any case;
/// a Hangul syllable or a unified ideograph, whose names Unicode makes by rule, only in capitals
/// (`HANGUL SYLLABLE GAG`, `CJK UNIFIED IDEOGRAPH-4E00`); only characters Unicode 14 assigns,
/// as CPython 3.11's. Named sequences are not characters.
pub fn char_named(name: &str) -> Option<char> {
    for prefix in ["HANGUL SYLLABLE ", "CJK UNIFIED IDEOGRAPH-"] {
        if name.get(..prefix.len()).is_some_and(|p| p.eq_ignore_ascii_case(prefix)) {
            let capitals = name.starts_with(prefix) && !name.bytes().any(|b| b.is_ascii_lowercase());
            return capitals.then(|| unicode_names2::character(name)).flatten().filter(|&c| assigned(c));
        }
    }
    unicode_names2::character(name).filter(|&c| assigned(c))
}

/// `unicodedata.lookup(name)`: the character, or CPython's `KeyError` (whose `str` is its
/// message's repr) for a name that names none; a name may be given as bytes.
pub(super) fn lookup(args: &[AnyView<'_>]) -> Result<AnyValue> {
    if args.len() != 1 {
        let message = format!("unicodedata.lookup() takes exactly one argument ({} given)", args.len());
        return Err(crate::Error::new(ErrorKind::Type, message));
    }
    let name = match args[0].value() {
        Value::Str(s) => s.to_string(),
        Value::Bytes(b) => String::from_utf8_lossy(b).into_owned(),
        other => {
            let message = format!("a bytes-like object is required, not '{}'", vname(other));
            return Err(crate::Error::new(ErrorKind::Type, message));
        }
    };
    if name.len() > NAME_MAX_LEN {
        return Err(key_error("name too long"));
    }
    match char_named(&name) {
        Some(c) => Ok(AnyValue::from_text(c.encode_utf8(&mut [0; 4]))),
        None => Err(key_error(&format!("undefined character name '{name}'"))),
    }
}

/// CPython's `KeyError(message)`: its `args` the message, its `str` the message's repr.
fn key_error(message: &str) -> crate::Error {
    let text = repr_value(Value::Str(message));
    Exception::with_args(ErrorKind::Key, text, vec![AnyValue::from_text(message)]).into_error()
}

#[cfg(test)]
mod tests {
    use super::*;

    // Expected: CPython 3.11's unicodedata.lookup.
    #[test]
    fn finds_names_as_cpython_does() {
        assert_eq!(char_named("LATIN SMALL LETTER A"), Some('a'));
        assert_eq!(char_named("latin small letter a"), Some('a'));
        assert_eq!(char_named("BACKSPACE"), Some('\u{8}'));
        assert_eq!(char_named("HANGUL SYLLABLE GAG"), Some('각'));
        assert_eq!(char_named("hangul syllable GAG"), None);
        assert_eq!(char_named("CJK UNIFIED IDEOGRAPH-4E00"), Some('一'));
        assert_eq!(char_named("cjk unified ideograph-3402"), None);
        assert_eq!(char_named("CJK UNIFIED IDEOGRAPH-4e00"), None);
        assert_eq!(char_named("LATIN SMALL LETTER A "), None);
        assert_eq!(char_named(""), None);
    }
}
