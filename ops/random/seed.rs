//! The key a seed becomes, as CPython's `Random.seed` makes it: an int's magnitude in 32-bit
//! words, a float's hash, a str's or bytes' `int.from_bytes(a + sha512(a))` (or `random.py`'s
//! old string hash for `version=1`), and the OS's entropy for `None`.

use crate::Value;
use crate::error::Result;
use crate::pipeline::value_ops::type_error;

/// A key from the OS (`seed(None)`), as CPython takes one from `urandom`; the time and an
/// address if the OS has none to give.
pub(super) fn entropy_key() -> Vec<u32> {
    use std::io::Read;
    let mut bytes = [0u8; 32];
    let read = std::fs::File::open("/dev/urandom").and_then(|mut f| f.read_exact(&mut bytes));
    if read.is_err() {
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
        bytes[..16].copy_from_slice(&now.as_nanos().to_le_bytes());
        let address = &bytes as *const _ as usize as u64;
        bytes[16..24].copy_from_slice(&address.to_le_bytes());
    }
    bytes.chunks(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

/// The key `init_by_array` takes for a non-negative int: its 32-bit words, least significant
/// first, as many as its bits need (one for 0).
pub(super) fn key_of_u64(n: u64) -> Vec<u32> {
    if n >> 32 == 0 { vec![n as u32] } else { vec![n as u32, (n >> 32) as u32] }
}

/// [`key_of_u64`] of the int whose big-endian bytes are `bytes` (`int.from_bytes(b)`).
pub(super) fn key_of_big_endian(bytes: &[u8]) -> Vec<u32> {
    let mut words: Vec<u32> =
        bytes.rchunks(4).map(|c| c.iter().fold(0u32, |acc, &b| (acc << 8) | u32::from(b))).collect();
    while words.len() > 1 && words.last() == Some(&0) {
        words.pop();
    }
    if words.is_empty() {
        words.push(0);
    }
    words
}

/// The key `Random.seed(a, version)` seeds with.
pub(super) fn seed_key(a: Value<'_>, version: Value<'_>) -> Result<Vec<u32>> {
    let text: Option<Vec<u32>> = match a {
        Value::Str(s) => Some(s.chars().map(u32::from).collect()),
        Value::UStr(u) => Some(u.iter().map(|&c| u32::from(c)).collect()),
        Value::Bytes(b) => Some(b.iter().map(|&x| u32::from(x)).collect()),
        _ => None,
    };
    let version = version.as_int();
    Ok(match a {
        Value::None => entropy_key(),
        Value::Int(i) => key_of_u64(i.unsigned_abs()),
        Value::Bool(b) => key_of_u64(u64::from(b)),
        // `_randommodule.c` seeds with `(size_t) hash(a)` for anything but an int.
        Value::Float(_) => key_of_u64(crate::container::py_hash(a)? as u64),
        _ if let Some(codes) = text.filter(|_| version == Some(1)) => key_of_u64(version_1_seed(&codes)),
        Value::Str(_) | Value::UStr(_) | Value::Bytes(_) if version == Some(2) => {
            use sha2::Digest;
            let mut bytes = match a {
                Value::Bytes(b) => b.to_vec(),
                _ => a.as_str().map_or_else(|| text_bytes(a), |s| s.as_bytes().to_vec()),
            };
            let digest = sha2::Sha512::digest(&bytes);
            bytes.extend_from_slice(&digest);
            key_of_big_endian(&bytes)
        }
        // Another version: CPython seeds a str with its hash, which differs from run to run.
        Value::Str(_) | Value::UStr(_) | Value::Bytes(_) => key_of_u64(crate::container::py_hash(a)? as u64),
        _ => {
            return Err(type_error("The only supported seed types are: None,\nint, float, str, bytes, and bytearray."));
        }
    })
}

/// The UTF-8 bytes of a str held as UCS4.
fn text_bytes(a: Value<'_>) -> Vec<u8> {
    match a {
        Value::UStr(u) => u.iter().collect::<String>().into_bytes(),
        _ => Vec::new(),
    }
}

/// `seed(a, version=1)` of a str or bytes: `random.py`'s old string hash.
fn version_1_seed(codes: &[u32]) -> u64 {
    let mut x: u64 = codes.first().map_or(0, |&c| u64::from(c) << 7);
    for &c in codes {
        x = x.wrapping_mul(1_000_003) ^ u64::from(c);
    }
    x ^ codes.len() as u64
}

#[cfg(test)]
mod tests {
    #[test]
    fn int_keys_are_the_words_of_the_magnitude() {
        assert_eq!(super::key_of_u64(0), vec![0]);
        assert_eq!(super::key_of_u64(1 << 32), vec![0, 1]);
        assert_eq!(super::key_of_big_endian(&[0, 0, 1, 2, 3, 4, 5]), vec![0x0203_0405, 0x1]);
    }
}
