//! Python's `hash()` for the values a set holds, so that a set of numbers is laid out, and
//! iterates, exactly as CPython 3.11 lays out the same set.
//!
//! Ints, bools and floats hash as CPython hashes them (the value modulo the Mersenne prime
//! 2**61 - 1); tuples hash with CPython's tuple hash (xxHash lanes).
//! Strings and bytes hash with a key drawn once per process, as CPython's SipHash is: their
//! order in a set is arbitrary and differs between runs, as in CPython.

use crate::any::type_index as ti;
use crate::error::{Error, ErrorKind, Result};
use crate::object::MAX_DEPTH;
use crate::{AnyValue, FromAny, Value};
use std::hash::{BuildHasher, Hasher};
use std::sync::LazyLock;

/// CPython's hash modulus, the Mersenne prime 2**61 - 1 (`_PyHASH_MODULUS`).
const MODULUS: u64 = (1 << 61) - 1;
/// Bits of the modulus (`_PyHASH_BITS`).
const BITS: i32 = 61;
/// `hash(float('inf'))`.
const INF_HASH: i64 = 314_159;

/// The per-process key of str and bytes hashes.
static TEXT_KEY: LazyLock<foldhash::fast::RandomState> = LazyLock::new(foldhash::fast::RandomState::default);

/// `hash(v)` as CPython computes it for numbers and tuples; a `TypeError` for a list, a dict or
/// a set, which CPython refuses as unhashable.
pub fn py_hash(v: Value<'_>) -> Result<i64> {
    hash_at(v, 0, false)
}

/// `hash(v)` as the Python that runs the script computes it: [`py_hash`], but str, bytes and
/// None hash with the process's secret (`str_hash.rs`), as CPython's do.
pub fn python_hash(v: Value<'_>) -> Result<i64> {
    hash_at(v, 0, true)
}

/// [`py_hash`], or [`python_hash`] when `python`.
fn hash_at(v: Value<'_>, depth: usize, python: bool) -> Result<i64> {
    if python {
        match v {
            Value::None => return Ok(super::str_hash::none_hash()),
            Value::Str(s) => return Ok(super::str_hash::str_hash(s)),
            Value::UStr(u) => return Ok(super::str_hash::chars_hash(u.iter().copied())),
            Value::Bytes(b) => return Ok(super::str_hash::bytes_hash(b)),
            _ => {}
        }
    }
    Ok(match v {
        // The running Python's (CPython 3.11 hashes None by its address, whose low bits, those
        // a small set's layout reads, are the same in every process of one build), so a set
        // holding None iterates in CPython's order; a constant from the CLI (`str_hash.rs`).
        Value::None => super::str_hash::none_hash(),
        Value::Bool(b) => b as i64,
        Value::Int(i) => int_hash(i),
        Value::Float(f) => float_hash(f),
        // A str and bytes of the same bytes hash alike: they are never equal, so that costs at
        // most a comparison, and hashing the bytes alone is the fast path of `x in s`.
        Value::Str(s) => text_hash(s.as_bytes()),
        // The same code points must hash alike in either encoding.
        Value::UStr(u) => crate::any::with_utf8(u, |s| text_hash(s.as_bytes())),
        Value::Bytes(b) => text_hash(b),
        Value::Pod(t, bits) => avoid_minus_one(TEXT_KEY.hash_one((t, bits)) as i64),
        Value::Object(o) => match o.type_index() {
            ti::TUPLE => {
                if depth >= MAX_DEPTH {
                    return Err(too_deep_to_hash());
                }
                let items: Vec<AnyValue> = crate::List::from_value(v).map(|l| l.to_vec()).unwrap_or_default();
                tuple_hash(items.iter().map(|x| hash_at(x.value(), depth + 1, python)), items.len())?
            }
            ti::SET if let Some(s) = o.downcast_ref::<super::SetObj>().filter(|s| s.is_frozen()) => {
                if depth >= MAX_DEPTH {
                    return Err(too_deep_to_hash());
                }
                // The table's hashes are `py_hash`'s; Python's `hash()` hashes text its own way.
                return s.frozen_hash(|k, h| if python { hash_at(k, depth + 1, true) } else { Ok(h) });
            }
            ti::LIST | ti::DICT | ti::SET | ti::NDARRAY => {
                return Err(Error::new(ErrorKind::Type, format!("unhashable type: '{}'", o.type_name())));
            }
            _ if let Some(name) = unhashable_name(o) => {
                return Err(Error::new(ErrorKind::Type, format!("unhashable type: '{name}'")));
            }
            // Functions and other objects hash by identity, as CPython's default `__hash__` does.
            _ => pointer_hash(o.as_raw().as_ptr() as usize),
        },
    })
}

/// CPython's int hash: the value modulo 2**61 - 1, with the sign kept, and -1 (CPython's error
/// marker) replaced by -2.
pub fn int_hash(i: i64) -> i64 {
    // `%` keeps the dividend's sign, as CPython's reduction of |i| then negation does.
    avoid_minus_one(i % MODULUS as i64)
}

/// CPython's `_Py_HashDouble`: an integral float hashes as the int it equals; others reduce
/// their mantissa modulo 2**61 - 1, 28 bits at a time, and rotate by the exponent.
pub fn float_hash(v: f64) -> i64 {
    if v.is_nan() {
        // CPython hashes a NaN by its identity; anyscript treats every NaN as equal (as its
        // dicts do), so all NaNs hash alike.
        return 0;
    }
    if v.is_infinite() {
        return if v > 0.0 { INF_HASH } else { -INF_HASH };
    }
    let (mut m, mut e) = frexp(v);
    let sign: i64 = if m < 0.0 {
        m = -m;
        -1
    } else {
        1
    };
    let mut x: u64 = 0;
    while m != 0.0 {
        x = ((x << 28) & MODULUS) | (x >> (BITS - 28));
        m *= 268_435_456.0; // 2**28
        e -= 28;
        let y = m as u64; // the integer part
        m -= y as f64;
        x += y;
        if x >= MODULUS {
            x -= MODULUS;
        }
    }
    let e = if e >= 0 { e % BITS } else { BITS - 1 - ((-1 - e) % BITS) };
    x = ((x << e) & MODULUS) | (x >> (BITS - e));
    avoid_minus_one((x as i64).wrapping_mul(sign))
}

/// `(m, e)` with `v == m * 2**e` and `0.5 <= |m| < 1` (C's `frexp`), for finite nonzero `v`;
/// `(v, 0)` for zero.
fn frexp(v: f64) -> (f64, i32) {
    if v == 0.0 {
        return (v, 0);
    }
    let bits = v.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32;
    if exp == 0 {
        // Subnormal: scale into the normal range first.
        let (m, e) = frexp(v * 18_014_398_509_481_984.0); // 2**54
        return (m, e - 54);
    }
    let mantissa = f64::from_bits((bits & !(0x7ff << 52)) | (1022 << 52));
    (mantissa, exp - 1022)
}

/// CPython's tuple hash (3.8+): xxHash-style lanes, one per item's hash, then the length.
fn tuple_hash(lanes: impl Iterator<Item = Result<i64>>, len: usize) -> Result<i64> {
    const PRIME_1: u64 = 11_400_714_785_074_694_791;
    const PRIME_2: u64 = 14_029_467_366_897_019_727;
    const PRIME_5: u64 = 2_870_177_450_012_600_261;
    let mut acc = PRIME_5;
    for lane in lanes {
        acc = acc.wrapping_add((lane? as u64).wrapping_mul(PRIME_2));
        acc = acc.rotate_left(31);
        acc = acc.wrapping_mul(PRIME_1);
    }
    // The length, mangled to keep the historical value of `hash(())`.
    acc = acc.wrapping_add(len as u64 ^ (PRIME_5 ^ 3_527_539));
    Ok(if acc == u64::MAX { 1_546_275_796 } else { acc as i64 })
}

/// The type name in CPython's "unhashable type" error for `o` when it is one of the
/// containers beside lists, dicts and sets that define `==` by their contents and so have no
/// hash: a deque, a bytearray, and a dict's keys or items view.
pub fn unhashable_name(o: crate::object::ObjPtr<'_>) -> Option<&'static str> {
    if super::deque_obj(o).is_some() {
        return Some("collections.deque");
    }
    if super::byte_array_obj(o).is_some() {
        return Some("bytearray");
    }
    super::dict_view_obj(o).filter(|s| s.view() != super::DictView::Values).map(super::DictViewObj::type_name)
}

/// CPython's `frozenset.__hash__` of keys with these hashes: each hash's bits shuffled and
/// xor-ed in (the empty and removed slots CPython also walks cancel out), the count mixed in,
/// then the result dispersed.
pub(crate) fn frozenset_hash(hashes: &[i64]) -> i64 {
    let shuffle = |h: u64| ((h ^ 89_869_747) ^ (h << 16)).wrapping_mul(3_644_798_167);
    let mut hash = hashes.iter().fold(0u64, |acc, &h| acc ^ shuffle(h as u64));
    hash ^= (hashes.len() as u64 + 1).wrapping_mul(1_927_868_237);
    hash ^= (hash >> 11) ^ (hash >> 25);
    hash = hash.wrapping_mul(69_069).wrapping_add(907_133_923);
    if hash == u64::MAX { 590_923_713 } else { hash as i64 }
}

/// CPython's `_Py_HashPointer`: the address rotated by 4 bits (objects are aligned to 16).
fn pointer_hash(addr: usize) -> i64 {
    avoid_minus_one(addr.rotate_right(4) as i64)
}

/// The hash of str (and bytes) with these bytes, as [`py_hash`] gives it.
pub(crate) fn text_hash(bytes: &[u8]) -> i64 {
    // One write of the bytes: `hash_one(bytes)` would write their length first, a second
    // round of the hasher for every short word.
    let mut h = TEXT_KEY.build_hasher();
    h.write(bytes);
    avoid_minus_one(h.finish() as i64)
}

/// -1 marks an error (and a deleted set slot) in CPython, so no hash is -1.
fn avoid_minus_one(h: i64) -> i64 {
    if h == -1 { -2 } else { h }
}

/// CPython's `RecursionError` for a tuple or frozenset nested past [`MAX_DEPTH`], where its
/// hash would run out of C stack.
pub(crate) fn too_deep_to_hash() -> Error {
    Error::new(ErrorKind::Recursion, "maximum recursion depth exceeded while calling a Python object")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{AnyValue, List, Tuple};

    fn h(v: impl Into<AnyValue>) -> i64 {
        py_hash(v.into().value()).unwrap()
    }

    // Every expected value below is what CPython 3.11 prints for `hash(...)`.
    #[test]
    fn ints_and_bools_hash_as_cpython() {
        assert_eq!(h(0i64), 0);
        assert_eq!(h(-1i64), -2);
        assert_eq!(h((1i64 << 61) - 1), 0);
        assert_eq!(h(1i64 << 61), 1);
        assert_eq!(h((1i64 << 62) + 3), 5);
        assert_eq!(h(i64::MIN), -4);
        assert_eq!(h(i64::MAX), 3);
        assert_eq!(h(true), 1);
    }

    #[test]
    fn floats_hash_as_cpython() {
        assert_eq!(h(1.5), 1_152_921_504_606_846_977);
        assert_eq!(h(2.0), 2);
        assert_eq!(h(-2.0), -2);
        assert_eq!(h(-1.0), -2);
        assert_eq!(h(0.1), 230_584_300_921_369_408);
        assert_eq!(h(-0.1), -230_584_300_921_369_408);
        assert_eq!(h(1e300), 1_224_995_262_755_759_164);
        assert_eq!(h(5e-324), 16_777_216);
        assert_eq!(h(4_611_686_018_427_387_904.0), 2);
        assert_eq!(h(f64::INFINITY), 314_159);
        assert_eq!(h(f64::NEG_INFINITY), -314_159);
    }

    #[test]
    fn tuples_hash_as_cpython() {
        let pair = Tuple::from_vec(vec![1i64.into(), 2i64.into()]);
        assert_eq!(h(pair), -3_550_055_125_485_641_917);
        assert_eq!(h(Tuple::from_vec(vec![])), 5_740_354_900_026_072_187);
        let nested = Tuple::from_vec(vec![Tuple::from_vec(vec![1.5.into()]).into(), (-1i64).into()]);
        assert_eq!(h(nested), 6_176_228_376_641_690_589);
    }

    #[test]
    fn equal_text_hashes_alike_in_either_encoding() {
        assert_eq!(h(AnyValue::from_text("héllo")), h(AnyValue::from_text_ucs4("héllo")));
        assert_ne!(h(AnyValue::from_text("ab")), h(AnyValue::from_text("ba")));
    }

    #[test]
    fn lists_and_dicts_are_unhashable() {
        let err = py_hash(AnyValue::from(crate::Dict::new()).value()).unwrap_err();
        assert_eq!(err.message(), "unhashable type: 'dict'");
        let err = py_hash(AnyValue::from(List::from_vec(vec![1i64.into()])).value()).unwrap_err();
        assert_eq!(err.message(), "unhashable type: 'list'");
        let inner = Tuple::from_vec(vec![crate::Dict::new().into()]);
        assert!(py_hash(AnyValue::from(inner).value()).is_err());
    }

    #[test]
    fn frozensets_hash_as_cpython() {
        let frozen = |keys: &[i64]| {
            let mut s = crate::Set::new();
            for &k in keys {
                s.add(AnyValue::from(k)).unwrap();
            }
            h(s.into_frozen().into_any())
        };
        assert_eq!(frozen(&[]), 133_146_708_735_736);
        assert_eq!(frozen(&[1, 2, 3]), -272_375_401_224_217_160);
        assert_eq!(frozen(&[-1, 1 << 40]), 7_094_953_512_933_204_024);
        // A set that is not frozen has no hash.
        assert!(py_hash(crate::Set::new().into_any().value()).is_err());
    }

    #[test]
    fn frozensets_nested_past_the_cap_compare_unequal() {
        // Each level's probe may meet its one key twice; past the depth cap the comparison
        // must end at once rather than repeat the levels below (it took exponential time).
        let make = |n: usize| {
            let mut f = crate::Set::new().into_frozen();
            for _ in 0..n {
                let mut s = crate::Set::new();
                s.add(f.into_any()).unwrap();
                f = s.into_frozen();
            }
            f.into_any()
        };
        let equal = |n: usize| crate::any::values_equal(make(n).value(), make(n).value(), 0);
        assert!(equal(200));
        assert!(!equal(300));
        assert!(!equal(3000));
    }
}
