//! Equality and hashing by value, across representations (inline, borrowed, heap; UTF-8 and UCS4).
//!
//! Numbers follow Python: `1 == 1.0 == True` and they hash alike. NaN equals NaN
//! here, so that `Eq` stays reflexive and NaN keys can be found in a dict.

use super::pad::AnyPad;
use super::value_ref::Value;
use super::view::AnyView;
use crate::object::{MAX_DEPTH, hooks_of};
use std::hash::{Hash, Hasher};

/// Whether two decoded values are equal; `depth` is how deep in containers we are.
pub fn values_equal(a: Value<'_>, b: Value<'_>, depth: usize) -> bool {
    use Value::*;
    match (a, b) {
        (None, None) => true,
        (Int(_) | Bool(_) | Float(_), Int(_) | Bool(_) | Float(_)) => numbers_equal(a, b),
        (Str(x), Str(y)) => x == y,
        (UStr(x), UStr(y)) => x == y,
        (Str(x), UStr(y)) | (UStr(y), Str(x)) => x.chars().eq(y.iter().copied()),
        (Bytes(x), Bytes(y)) => x == y,
        // A bytearray equals bytes of the same bytes, as in Python.
        (Bytes(x), Object(o)) | (Object(o), Bytes(x)) => {
            crate::container::byte_array_obj(o).is_some_and(|b| b.with_bytes(|y| y == x))
        }
        (Pod(t1, b1), Pod(t2, b2)) => t1 == t2 && b1 == b2,
        (Object(x), Object(y)) => {
            if x == y {
                return true;
            }
            if x.type_index() != y.type_index() || depth >= MAX_DEPTH {
                return false;
            }
            match hooks_of(x.type_index()) {
                Some(h) => (h.eq)(x, y, depth + 1),
                Option::None => false,
            }
        }
        _ => false,
    }
}

fn numbers_equal(a: Value<'_>, b: Value<'_>) -> bool {
    match (a.as_int(), b.as_int()) {
        (Some(x), Some(y)) => x == y,
        _ => match (a, b) {
            (Value::Float(x), Value::Float(y)) => x == y || (x.is_nan() && y.is_nan()),
            (Value::Float(f), other) | (other, Value::Float(f)) => {
                other.as_int().is_some_and(|i| float_as_exact_int(f) == Some(i))
            }
            _ => false,
        },
    }
}

/// `f` as an i64 when it is integral and in range, so that `2.0` hashes like `2`.
fn float_as_exact_int(f: f64) -> Option<i64> {
    // 2^63 is exactly representable; i64 covers [-2^63, 2^63).
    const LIMIT: f64 = 9_223_372_036_854_775_808.0;
    (f.fract() == 0.0 && (-LIMIT..LIMIT).contains(&f)).then_some(f as i64)
}

/// Feeds a decoded value into `state`, consistently with [`values_equal`].
///
/// Generic over the hasher so that a dict's hasher is called directly, not through a
/// `dyn Hasher` per character; only an object's hook takes the hasher as a trait object.
pub fn hash_value<H: Hasher + ?Sized>(v: Value<'_>, state: &mut H, depth: usize) {
    match v {
        Value::None => state.write_u8(0),
        Value::Int(_) | Value::Bool(_) => {
            state.write_u8(1);
            state.write_i64(v.as_int().unwrap_or_default());
        }
        Value::Float(f) => match float_as_exact_int(f) {
            Some(i) => {
                state.write_u8(1);
                state.write_i64(i);
            }
            None => {
                state.write_u8(2);
                state.write_u64(if f.is_nan() { f64::NAN.to_bits() } else { f.to_bits() });
            }
        },
        Value::Str(s) => hash_utf8(s, state),
        // Equal text hashes alike in either encoding: UCS4 hashes as its UTF-8.
        Value::UStr(u) => with_utf8(u, |s| hash_utf8(s, state)),
        Value::Bytes(b) => {
            state.write_u8(4);
            state.write(b);
            state.write_usize(b.len());
        }
        Value::Pod(t, bits) => {
            state.write_u8(5);
            state.write_i32(t);
            state.write_u64(bits);
        }
        Value::Object(o) => {
            state.write_u8(6);
            match hooks_of(o.type_index()) {
                // Past the depth limit equality is identity, and a constant keeps hashing consistent with it.
                Some(h) if depth < MAX_DEPTH => {
                    // `&mut H` is a sized hasher even when `H` is a trait object.
                    let mut sized = &mut *state;
                    (h.hash)(o, &mut sized, depth + 1)
                }
                Some(_) => state.write_i32(o.type_index()),
                None => state.write_usize(o.as_raw().as_ptr() as usize),
            }
        }
    }
}

/// Text as `str`'s own `Hash` writes it: its bytes in one call into the hasher (not one per
/// character), ended by 0xFF, which no UTF-8 byte is. No type tag: bytes hash with one and
/// a length after, and a collision with them would only cost a comparison.
fn hash_utf8<H: Hasher + ?Sized>(s: &str, state: &mut H) {
    state.write(s.as_bytes());
    state.write_u8(0xff);
}

/// Runs `f` on the UTF-8 form of UCS4 text, encoded on the stack when it is short.
pub(crate) fn with_utf8<R>(chars: &[char], f: impl FnOnce(&str) -> R) -> R {
    let mut short = arrayvec::ArrayString::<256>::new();
    if chars.iter().all(|&c| short.try_push(c).is_ok()) { f(&short) } else { f(&chars.iter().collect::<String>()) }
}

impl<const N: usize, const M: usize> PartialEq<AnyPad<M>> for AnyPad<N> {
    fn eq(&self, other: &AnyPad<M>) -> bool {
        text_first_equal(self.as_str(), other.as_str(), || values_equal(self.value(), other.value(), 0))
    }
}

impl<const N: usize> Eq for AnyPad<N> {}

impl<const N: usize> Hash for AnyPad<N> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        match self.as_str() {
            Some(s) => hash_utf8(s, state),
            None => hash_value(self.value(), state, 0),
        }
    }
}

impl PartialEq for AnyView<'_> {
    fn eq(&self, other: &Self) -> bool {
        text_first_equal(self.as_str(), other.as_str(), || values_equal(self.value(), other.value(), 0))
    }
}

impl Eq for AnyView<'_> {}

impl Hash for AnyView<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        match self.as_str() {
            Some(s) => hash_utf8(s, state),
            None => hash_value(self.value(), state, 0),
        }
    }
}

impl<const N: usize> PartialEq<AnyView<'_>> for AnyPad<N> {
    fn eq(&self, other: &AnyView<'_>) -> bool {
        text_first_equal(self.as_str(), other.as_str(), || values_equal(self.value(), other.value(), 0))
    }
}

/// Equality with the common case of keys first: two UTF-8 strings compare as bytes, with no
/// decoding; anything else (UCS4 text included, which may equal UTF-8) takes `general`.
#[inline(always)]
pub(crate) fn text_first_equal(a: Option<&str>, b: Option<&str>, general: impl FnOnce() -> bool) -> bool {
    match (a, b) {
        (Some(x), Some(y)) => x == y,
        _ => general(),
    }
}

impl<const N: usize> PartialEq<str> for AnyPad<N> {
    fn eq(&self, other: &str) -> bool {
        values_equal(self.value(), Value::Str(other), 0)
    }
}

impl<const N: usize> PartialEq<&str> for AnyPad<N> {
    fn eq(&self, other: &&str) -> bool {
        values_equal(self.value(), Value::Str(other), 0)
    }
}

impl<const N: usize> PartialEq<i64> for AnyPad<N> {
    fn eq(&self, other: &i64) -> bool {
        values_equal(self.value(), Value::Int(*other), 0)
    }
}
