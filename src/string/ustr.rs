//! `UStr`: an immutable UCS4 string (one `char` per code point), indexable in O(1) like Python's `str`.

use super::{normalize_index, normalize_range};
use crate::any::type_index::{SMALL_USTR, USTR};
use crate::any::{AnyPad, AnyValue, AnyView, FromAny, Value};
use crate::error::Result;
use std::fmt;
use std::hash::{Hash, Hasher};

/// An immutable UCS4 string; short ones live inline (2 code points in an `AnyValue`).
#[derive(Clone)]
pub struct UStr(AnyValue);

impl UStr {
    /// A UCS4 string with the text of `s`.
    pub fn new(s: &str) -> Self {
        UStr(AnyValue::from_text_ucs4(s))
    }

    /// A UCS4 string of the given code points.
    pub fn from_chars(chars: &[char]) -> Self {
        UStr(AnyValue::from_chars(chars))
    }

    /// The code points.
    #[inline]
    pub fn as_chars(&self) -> &[char] {
        match self.0.value() {
            Value::UStr(u) => u,
            // Unreachable by the invariant (SMALL_USTR or USTR); empty keeps it panic-free.
            _ => &[],
        }
    }

    /// Number of code points.
    #[inline]
    pub fn len(&self) -> usize {
        self.as_chars().len()
    }

    /// Whether the string is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The code point at `index` (negative counts from the end), as Python's `s[i]`.
    #[inline]
    pub fn char_at(&self, index: i64) -> Result<char> {
        let i = normalize_index(index, self.len())?;
        Ok(self.as_chars()[i])
    }

    /// The one-character string at `index`, held inline in an `AnyPad<N>`.
    #[inline]
    pub fn item<const N: usize>(&self, index: i64) -> Result<AnyPad<N>> {
        Ok(AnyPad::from_char_ucs4(self.char_at(index)?))
    }

    /// The substring `start..stop` (Python slice rules, step 1).
    pub fn slice(&self, start: Option<i64>, stop: Option<i64>) -> UStr {
        let r = normalize_range(start, stop, self.len());
        UStr::from_chars(&self.as_chars()[r])
    }

    /// Whether the text is stored inline.
    pub fn is_inline(&self) -> bool {
        self.0.type_index() == SMALL_USTR
    }

    /// The string as an any-value.
    pub fn into_any(self) -> AnyValue {
        self.0
    }

    /// A borrowed view.
    pub fn view(&self) -> AnyView<'_> {
        self.0.view()
    }
}

impl FromAny for UStr {
    fn type_name() -> String {
        "str".into()
    }
    fn from_value(v: Value<'_>) -> Option<Self> {
        match v {
            Value::UStr(u) => Some(UStr::from_chars(u)),
            Value::Str(s) => Some(UStr::new(s)),
            _ => None,
        }
    }
    fn from_view(v: &AnyView<'_>) -> Option<Self> {
        match v.type_index() {
            USTR => Some(UStr(v.to_owned())),
            _ => Self::from_value(v.value()),
        }
    }
}
crate::impl_try_from_any!(UStr, Option<UStr>);

impl<const N: usize> From<UStr> for AnyPad<N> {
    fn from(s: UStr) -> Self {
        s.0.resize()
    }
}

impl From<&str> for UStr {
    fn from(s: &str) -> Self {
        UStr::new(s)
    }
}

impl PartialEq for UStr {
    fn eq(&self, other: &Self) -> bool {
        self.as_chars() == other.as_chars()
    }
}
impl Eq for UStr {}

impl PartialEq<str> for UStr {
    fn eq(&self, other: &str) -> bool {
        other.chars().eq(self.as_chars().iter().copied())
    }
}

impl Hash for UStr {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.hash(state)
    }
}

impl fmt::Display for UStr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl fmt::Debug for UStr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}
