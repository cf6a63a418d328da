//! `str.swapcase` and `str.istitle`, as CPython 3.11 has them: full case mappings (`"ß"` swaps
//! to `"SS"`), the final sigma in context, titlecase letters (`ǅ`) left as they are.

use super::Slot;
use super::methods::{is_titlecase, lowered_per_char};
use super::value_ops::{Text, text_slot};

/// `t.swapcase()`: upper-case characters lowered, lower-case ones raised, others kept.
pub(crate) fn swapcase(t: Text<'_>) -> Slot {
    let s = t.as_str();
    let mut out = String::with_capacity(s.len());
    for (c, lowered) in s.chars().zip(lowered_per_char(&s)) {
        if c.is_uppercase() {
            out.extend(lowered);
        } else if c.is_lowercase() {
            out.extend(c.to_uppercase());
        } else {
            out.push(c);
        }
    }
    text_slot(&out, t.is_ucs4())
}

/// `t.istitle()`: some cased character, upper and titlecase ones only after uncased ones,
/// lower-case ones only after cased ones.
pub(crate) fn istitle(t: Text<'_>) -> bool {
    let mut cased = false;
    let mut previous_cased = false;
    for c in t.chars() {
        if c.is_uppercase() || is_titlecase(c) {
            if previous_cased {
                return false;
            }
            previous_cased = true;
            cased = true;
        } else if c.is_lowercase() {
            if !previous_cased {
                return false;
            }
            previous_cased = true;
            cased = true;
        } else {
            previous_cased = false;
        }
    }
    cased
}

#[cfg(test)]
mod tests {
    use crate::pipeline::test_values::*;

    use method_repr as call;

    #[test]
    fn case_as_cpython() {
        // CPython 3.11's results.
        assert_eq!(call("Hello World ß", "swapcase", &[]), "'hELLO wORLD SS'");
        assert_eq!(call("ΑΣ ǅ", "swapcase", &[]), "'ας ǅ'");
        assert_eq!(call("Hello World", "istitle", &[]), "True");
        assert_eq!(call("Hello world", "istitle", &[]), "False");
        assert_eq!(call("ǅungla", "istitle", &[]), "True");
        assert_eq!(call("123", "istitle", &[]), "False");
        assert_eq!(call("", "istitle", &[]), "False");
    }
}
