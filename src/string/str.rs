//! `Str`: an immutable UTF-8 string, inline when short, else a shared heap object.

use crate::any::type_index::{SMALL_STR, STR};
use crate::any::{AnyValue, AnyView, FromAny, Value};
use crate::error::{Error, Result};
use std::fmt;
use std::hash::{Hash, Hasher};

/// An immutable UTF-8 string; clones share the heap buffer or copy the inline bytes.
#[derive(Clone)]
pub struct Str(AnyValue);

impl Str {
    /// A string with the text of `s`.
    pub fn new(s: &str) -> Self {
        Str(AnyValue::from_text(s))
    }

    /// Validates `bytes` as UTF-8; the error names the first bad byte offset.
    pub fn from_utf8(bytes: &[u8]) -> Result<Self> {
        match std::str::from_utf8(bytes) {
            Ok(s) => Ok(Self::new(s)),
            Err(e) => Err(Error::value(format!("invalid UTF-8 at byte {}", e.valid_up_to()))),
        }
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        match self.0.value() {
            Value::Str(s) => s,
            // The invariant (SMALL_STR or STR) makes this unreachable; "" keeps it panic-free.
            _ => "",
        }
    }

    /// Whether the text is stored inline (no heap object).
    pub fn is_inline(&self) -> bool {
        self.0.type_index() == SMALL_STR
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

impl std::ops::Deref for Str {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl FromAny for Str {
    fn type_name() -> String {
        "str".into()
    }
    fn from_value(v: Value<'_>) -> Option<Self> {
        match v {
            Value::Str(s) => Some(Str::new(s)),
            Value::UStr(u) => Some(Str::new(&u.iter().collect::<String>())),
            _ => None,
        }
    }
    fn from_view(v: &AnyView<'_>) -> Option<Self> {
        // A heap string is shared, not copied.
        match v.type_index() {
            STR => Some(Str(v.to_owned())),
            _ => Self::from_value(v.value()),
        }
    }
}
crate::impl_try_from_any!(Str, Option<Str>);

impl<const N: usize> From<Str> for crate::AnyPad<N> {
    fn from(s: Str) -> Self {
        s.0.resize()
    }
}

impl From<&str> for Str {
    fn from(s: &str) -> Self {
        Str::new(s)
    }
}

impl From<String> for Str {
    fn from(s: String) -> Self {
        Str::new(&s)
    }
}

impl PartialEq for Str {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}
impl Eq for Str {}

impl PartialEq<str> for Str {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Str {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl Hash for Str {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.hash(state)
    }
}

impl fmt::Display for Str {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Str {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}
