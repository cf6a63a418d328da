//! Boxing (`From`) into any-values and unboxing (`FromAny`, `TryFrom`) out of them.
//!
//! A failed unbox is a type error naming the expected and the actual type. A
//! boxed int unboxes wherever an int is wanted (seed 000, G3).

use super::pad::{AnyPad, AnyValue};
use super::value_ref::Value;
use super::view::AnyView;
use crate::error::{Error, Result};
use crate::object::{ObjRef, ObjectType};

/// A Rust type that can be taken out of a decoded value.
pub trait FromAny: Sized {
    /// The expected type's name in messages and signatures (`int`, `str`, `list`).
    fn type_name() -> String;
    /// The value as `Self`, or `None` if it has another type.
    fn from_value(v: Value<'_>) -> Option<Self>;
    /// Like `from_value`, but also sees the view (for types that keep a reference).
    fn from_view(v: &AnyView<'_>) -> Option<Self> {
        Self::from_value(v.value())
    }
    /// The error for a value that did not convert: a type mismatch unless the type says better.
    fn mismatch(v: &AnyView<'_>) -> Error {
        Error::type_mismatch(&Self::type_name(), &v.type_name())
    }
}

/// Unboxes `v` as `T`, or says what was expected and what came.
pub fn unbox<T: FromAny>(v: &AnyView<'_>) -> Result<T> {
    T::from_view(v).ok_or_else(|| T::mismatch(v))
}

/// The error for an int that has the right type but does not fit `target`.
fn int_range_mismatch(v: &AnyView<'_>, target: &str, expected: &str) -> Error {
    match v.value().as_int() {
        Some(i) => Error::value(format!("int {i} is out of range for {target}")),
        None => Error::type_mismatch(expected, &v.type_name()),
    }
}

impl FromAny for i64 {
    fn type_name() -> String {
        "int".into()
    }
    fn from_value(v: Value<'_>) -> Option<Self> {
        v.as_int()
    }
}

impl FromAny for i32 {
    fn type_name() -> String {
        "int".into()
    }
    fn from_value(v: Value<'_>) -> Option<Self> {
        v.as_int().and_then(|i| i32::try_from(i).ok())
    }
    fn mismatch(v: &AnyView<'_>) -> Error {
        int_range_mismatch(v, "int32", "int")
    }
}

impl FromAny for usize {
    fn type_name() -> String {
        "int".into()
    }
    fn from_value(v: Value<'_>) -> Option<Self> {
        v.as_int().and_then(|i| usize::try_from(i).ok())
    }
    fn mismatch(v: &AnyView<'_>) -> Error {
        int_range_mismatch(v, "a non-negative size", "int")
    }
}

impl FromAny for f64 {
    fn type_name() -> String {
        "float".into()
    }
    fn from_value(v: Value<'_>) -> Option<Self> {
        v.as_float()
    }
}

impl FromAny for bool {
    fn type_name() -> String {
        "bool".into()
    }
    fn from_value(v: Value<'_>) -> Option<Self> {
        match v {
            Value::Bool(b) => Some(b),
            _ => None,
        }
    }
}

impl FromAny for () {
    fn type_name() -> String {
        "None".into()
    }
    fn from_value(v: Value<'_>) -> Option<Self> {
        matches!(v, Value::None).then_some(())
    }
}

impl FromAny for String {
    fn type_name() -> String {
        "str".into()
    }
    fn from_value(v: Value<'_>) -> Option<Self> {
        match v {
            Value::Str(s) => Some(s.to_owned()),
            Value::UStr(u) => Some(u.iter().collect()),
            _ => None,
        }
    }
}

impl FromAny for Vec<u8> {
    fn type_name() -> String {
        "bytes".into()
    }
    fn from_value(v: Value<'_>) -> Option<Self> {
        match v {
            Value::Bytes(b) => Some(b.to_vec()),
            // A bytearray is bytes to an op that reads bytes, as a buffer is to CPython's.
            Value::Object(o) => crate::container::byte_array_obj(o).map(crate::container::ByteArrayObj::to_vec),
            _ => None,
        }
    }
}

impl<const N: usize> FromAny for AnyPad<N> {
    fn type_name() -> String {
        "any".into()
    }
    fn from_value(_: Value<'_>) -> Option<Self> {
        // Only reachable through `from_view`, which can keep references.
        None
    }
    fn from_view(v: &AnyView<'_>) -> Option<Self> {
        Some(v.to_owned())
    }
}

impl<T: FromAny> FromAny for Option<T> {
    fn type_name() -> String {
        format!("{} | None", T::type_name())
    }
    fn from_value(v: Value<'_>) -> Option<Self> {
        match v {
            Value::None => Some(None),
            other => T::from_value(other).map(Some),
        }
    }
    fn from_view(v: &AnyView<'_>) -> Option<Self> {
        if v.is_none() { Some(None) } else { T::from_view(v).map(Some) }
    }
    fn mismatch(v: &AnyView<'_>) -> Error {
        let inner = T::mismatch(v);
        if inner.kind() == crate::error::ErrorKind::Type {
            Error::type_mismatch(&Self::type_name(), &v.type_name())
        } else {
            inner
        }
    }
}

impl<T: ObjectType> FromAny for ObjRef<T> {
    fn type_name() -> String {
        crate::object::type_name(T::type_index())
    }
    fn from_value(v: Value<'_>) -> Option<Self> {
        v.as_obj().and_then(|o| o.to_owned_as::<T>())
    }
}

impl AnyView<'_> {
    /// Unboxes as `T`, or a type error naming expected and actual types.
    pub fn get<T: FromAny>(&self) -> Result<T> {
        unbox(self)
    }
}

impl<const N: usize> AnyPad<N> {
    /// Unboxes as `T`, or a type error naming expected and actual types.
    pub fn get<T: FromAny>(&self) -> Result<T> {
        unbox(&self.view())
    }
}

/// Implements `TryFrom` from every any-value form for types that implement `FromAny`.
#[macro_export]
macro_rules! impl_try_from_any {
    ($($t:ty),* $(,)?) => {$(
        impl<const N: usize> TryFrom<&$crate::AnyPad<N>> for $t {
            type Error = $crate::Error;
            fn try_from(v: &$crate::AnyPad<N>) -> $crate::Result<Self> {
                v.get()
            }
        }
        impl<const N: usize> TryFrom<$crate::AnyPad<N>> for $t {
            type Error = $crate::Error;
            fn try_from(v: $crate::AnyPad<N>) -> $crate::Result<Self> {
                v.get()
            }
        }
        impl TryFrom<$crate::AnyView<'_>> for $t {
            type Error = $crate::Error;
            fn try_from(v: $crate::AnyView<'_>) -> $crate::Result<Self> {
                v.get()
            }
        }
    )*};
}

impl_try_from_any!(i64, i32, usize, f64, bool, (), String, Vec<u8>);
impl_try_from_any!(Option<i64>, Option<i32>, Option<f64>, Option<bool>, Option<String>);

macro_rules! from_scalar {
    ($($t:ty => $ctor:ident as $as:ty),* $(,)?) => {$(
        impl<const N: usize> From<$t> for AnyPad<N> {
            fn from(v: $t) -> Self {
                Self::$ctor(v as $as)
            }
        }
    )*};
}

from_scalar!(i64 => from_int as i64, i32 => from_int as i64, u32 => from_int as i64, i16 => from_int as i64,
    u16 => from_int as i64, i8 => from_int as i64, u8 => from_int as i64, f64 => from_float as f64,
    f32 => from_float as f64, bool => from_bool as bool);

impl<const N: usize> From<()> for AnyPad<N> {
    fn from(_: ()) -> Self {
        Self::none()
    }
}

impl<const N: usize> From<&str> for AnyPad<N> {
    fn from(s: &str) -> Self {
        Self::from_text(s)
    }
}

impl<const N: usize> From<String> for AnyPad<N> {
    fn from(s: String) -> Self {
        Self::from_text(&s)
    }
}

impl<const N: usize> From<&String> for AnyPad<N> {
    fn from(s: &String) -> Self {
        Self::from_text(s)
    }
}

impl<const N: usize> From<char> for AnyPad<N> {
    fn from(c: char) -> Self {
        Self::from_char(c)
    }
}

impl<const N: usize, T: ObjectType> From<ObjRef<T>> for AnyPad<N> {
    fn from(obj: ObjRef<T>) -> Self {
        Self::from_object(obj)
    }
}

impl<const N: usize, T: Into<AnyPad<N>>> From<Option<T>> for AnyPad<N> {
    fn from(v: Option<T>) -> Self {
        v.map_or_else(Self::none, Into::into)
    }
}

impl<const N: usize> From<AnyView<'_>> for AnyPad<N> {
    fn from(v: AnyView<'_>) -> Self {
        v.to_owned()
    }
}

macro_rules! narrowing {
    ($($from:literal => $to:literal),* $(,)?) => {$(
        impl From<AnyPad<$from>> for AnyPad<$to> {
            fn from(v: AnyPad<$from>) -> Self {
                v.resize()
            }
        }
    )*};
}

narrowing!(1 => 0, 2 => 0, 3 => 0, 4 => 0, 0 => 1, 0 => 2, 0 => 3, 0 => 4, 2 => 1, 1 => 2);

impl<'a, const N: usize> From<&'a AnyPad<N>> for AnyView<'a> {
    fn from(v: &'a AnyPad<N>) -> Self {
        v.view()
    }
}

impl<'a> From<&'a str> for AnyView<'a> {
    fn from(s: &'a str) -> Self {
        AnyView::from_text(s)
    }
}

impl<'a> From<&'a String> for AnyView<'a> {
    fn from(s: &'a String) -> Self {
        AnyView::from_text(s)
    }
}

macro_rules! view_from_scalar {
    ($($t:ty),*) => {$(
        impl From<$t> for AnyView<'_> {
            fn from(v: $t) -> Self {
                AnyView::from_scalar(AnyValue::from(v))
            }
        }
    )*};
}

view_from_scalar!(i64, i32, f64, bool, ());
