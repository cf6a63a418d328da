//! CPython's `hash()` of str and bytes: SipHash-1-3 (3.11 on; SipHash-2-4 before) keyed with the process's secret, over a
//! str's code points in CPython's fixed-width form (one byte each when all are below 256, else
//! two, else four, little-endian), so that `hash(w)` in a script equals `hash(w)` in the Python
//! that runs it (feature hashing, `hash(w) % buckets`).
//!
//! The secret is the Python process's own when the Python package hands it over (it reads
//! `_Py_HashSecret` and checks a hash against Python's before it does); else the one CPython
//! derives from `PYTHONHASHSEED` when that is set (`0`, or a number); else a random one, as an
//! unseeded CPython's is.

use siphasher::sip::{SipHasher13, SipHasher24};
use std::hash::{BuildHasher, Hasher};
use std::sync::OnceLock;

/// The key of str and bytes hashes, and `hash(None)` (CPython 3.11 hashes None by its address).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HashSecret {
    /// SipHash's first key word.
    pub k0: u64,
    /// SipHash's second key word.
    pub k1: u64,
    /// `hash(None)`.
    pub none_hash: i64,
    /// Whether the rounds are SipHash-2-4's (CPython 3.10 and older), not SipHash-1-3's.
    pub siphash24: bool,
}

static SECRET: OnceLock<HashSecret> = OnceLock::new();

/// `hash(None)` where no Python process tells it: the constant CPython 3.12 adopted.
const NONE_HASH: i64 = 0xFCA8_6420;

/// Makes `secret` the process's, unless one is in use already; whether it is now.
pub fn set_hash_secret(secret: HashSecret) -> bool {
    *SECRET.get_or_init(|| secret) == secret
}

/// The secret in use, chosen at the first hash.
fn secret() -> &'static HashSecret {
    SECRET.get_or_init(|| {
        let seed = std::env::var("PYTHONHASHSEED").ok().and_then(|s| s.trim().parse::<u32>().ok());
        let (k0, k1) = match seed {
            Some(seed) => seeded_keys(seed),
            None => {
                let random = std::collections::hash_map::RandomState::new();
                (random.hash_one(0u8), random.hash_one(1u8))
            }
        };
        HashSecret { k0, k1, none_hash: NONE_HASH, siphash24: false }
    })
}

/// The keys CPython derives from `PYTHONHASHSEED=seed`: zero for 0, else the bytes of its
/// `lcg_urandom` (a linear congruential generator, one byte per step).
fn seeded_keys(seed: u32) -> (u64, u64) {
    if seed == 0 {
        return (0, 0);
    }
    let mut bytes = [0u8; 16];
    let mut x = seed;
    for b in &mut bytes {
        x = x.wrapping_mul(214_013).wrapping_add(2_531_011);
        *b = (x >> 16) as u8;
    }
    let word = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().expect("eight bytes"));
    (word(0), word(8))
}

/// `hash(None)` in this process.
pub fn none_hash() -> i64 {
    secret().none_hash
}

/// CPython's `_Py_HashBytes`: 0 for nothing, else SipHash-1-3 of the bytes (-1 made -2).
pub fn bytes_hash(bytes: &[u8]) -> i64 {
    keyed_bytes_hash(secret(), bytes)
}

/// [`bytes_hash`] under `secret`.
fn keyed_bytes_hash(secret: &HashSecret, bytes: &[u8]) -> i64 {
    if bytes.is_empty() {
        return 0;
    }
    let hash = if secret.siphash24 {
        let mut h = SipHasher24::new_with_keys(secret.k0, secret.k1);
        h.write(bytes);
        h.finish()
    } else {
        let mut h = SipHasher13::new_with_keys(secret.k0, secret.k1);
        h.write(bytes);
        h.finish()
    };
    match hash as i64 {
        -1 => -2,
        x => x,
    }
}

/// `hash(s)` of a str of these code points, as CPython hashes its fixed-width form.
pub fn chars_hash(chars: impl Iterator<Item = char> + Clone) -> i64 {
    keyed_chars_hash(secret(), chars)
}

/// [`chars_hash`] under `secret`.
fn keyed_chars_hash(secret: &HashSecret, chars: impl Iterator<Item = char> + Clone) -> i64 {
    let widest = chars.clone().map(u32::from).max().unwrap_or(0);
    let bytes: Vec<u8> = match widest {
        0..=0xFF => chars.map(|c| c as u8).collect(),
        0x100..=0xFFFF => chars.flat_map(|c| (c as u16).to_le_bytes()).collect(),
        _ => chars.flat_map(|c| u32::from(c).to_le_bytes()).collect(),
    };
    keyed_bytes_hash(secret, &bytes)
}

/// `hash(s)` of UTF-8 text, as CPython hashes the same str.
pub fn str_hash(s: &str) -> i64 {
    str_hash_keyed(secret(), s)
}

/// [`str_hash`] under `secret`, which need not be the process's (to check a secret first).
pub fn str_hash_keyed(secret: &HashSecret, s: &str) -> i64 {
    // ASCII is already its one-byte form.
    if s.is_ascii() { keyed_bytes_hash(secret, s.as_bytes()) } else { keyed_chars_hash(secret, s.chars()) }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Expected: CPython 3.11's `_Py_HashSecret` under PYTHONHASHSEED=1, read with ctypes.
    #[test]
    fn seeded_keys_are_cpythons() {
        assert_eq!(seeded_keys(0), (0, 0));
        let (k0, k1) = seeded_keys(1);
        let bytes: Vec<u8> = k0.to_le_bytes().into_iter().chain(k1.to_le_bytes()).collect();
        let cpython = [0x29, 0x23, 0xbe, 0x84, 0xe1, 0x6c, 0xd6, 0xae, 0x52, 0x90, 0x49, 0xf1, 0xf1, 0xbb, 0xe9, 0xeb];
        assert_eq!(bytes, cpython);
    }

    // Expected: CPython 3.11's `hash()` under PYTHONHASHSEED=0 (a zero key), one str of each
    // width: this process's secret is not touched (the hashes are keyed by hand).
    #[test]
    fn hashes_of_each_width_are_cpythons() {
        let zero = HashSecret { k0: 0, k1: 0, none_hash: 0, siphash24: false };
        let zero_key = |bytes: &[u8]| keyed_bytes_hash(&zero, bytes);
        assert_eq!(str_hash_keyed(&zero, "€x"), -483_395_623_852_268_653);
        assert_eq!(str_hash_keyed(&zero, ""), 0);
        assert_eq!(zero_key(b"abc"), -4_594_863_902_769_663_758);
        assert_eq!(zero_key(&[0xe9]), 6_047_309_291_227_476_195);
        assert_eq!(zero_key(&[0xac, 0x20, b'x', 0]), -483_395_623_852_268_653);
        assert_eq!(zero_key(&0x1F389u32.to_le_bytes()), -5_182_837_508_476_747_371);
    }

    // Expected: the SipHash paper's test vector (Aumasson and Bernstein, appendix A): key bytes
    // 00..0f, message bytes 00..0e, SipHash-2-4 of it 0xa129ca6149be45e5; what CPython 3.10 and
    // older use.
    #[test]
    fn siphash24_is_the_papers() {
        let secret = HashSecret { k0: 0x0706_0504_0302_0100, k1: 0x0f0e_0d0c_0b0a_0908, none_hash: 0, siphash24: true };
        let message: Vec<u8> = (0..15).collect();
        assert_eq!(keyed_bytes_hash(&secret, &message), 0xa129_ca61_49be_45e5_u64 as i64);
    }
}
