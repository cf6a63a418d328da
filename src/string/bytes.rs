//! `Bytes`: an immutable byte string, inline when short.

use crate::any::type_index::BYTES;
use crate::any::{AnyPad, AnyValue, AnyView, FromAny, Value};
use std::fmt;

/// An immutable byte string.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Bytes(AnyValue);

impl Bytes {
    /// A byte string holding a copy of `b`.
    pub fn new(b: &[u8]) -> Self {
        Bytes(AnyValue::from_bytes(b))
    }

    /// The bytes.
    pub fn as_bytes(&self) -> &[u8] {
        match self.0.value() {
            Value::Bytes(b) => b,
            _ => &[],
        }
    }

    /// The byte string as an any-value.
    pub fn into_any(self) -> AnyValue {
        self.0
    }
}

impl std::ops::Deref for Bytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl FromAny for Bytes {
    fn type_name() -> String {
        "bytes".into()
    }
    fn from_value(v: Value<'_>) -> Option<Self> {
        match v {
            Value::Bytes(b) => Some(Bytes::new(b)),
            // A bytearray is bytes to an op that reads bytes, as a buffer is to CPython's.
            Value::Object(o) => crate::container::byte_array_obj(o).map(|b| Bytes::new(&b.to_vec())),
            _ => None,
        }
    }
    fn from_view(v: &AnyView<'_>) -> Option<Self> {
        match v.type_index() {
            BYTES => Some(Bytes(v.to_owned())),
            _ => Self::from_value(v.value()),
        }
    }
}
crate::impl_try_from_any!(Bytes, Option<Bytes>);

impl<const N: usize> From<Bytes> for AnyPad<N> {
    fn from(b: Bytes) -> Self {
        b.0.resize()
    }
}

impl From<&[u8]> for Bytes {
    fn from(b: &[u8]) -> Self {
        Bytes::new(b)
    }
}

impl fmt::Debug for Bytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}
