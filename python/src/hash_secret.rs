//! Hands the Python process's hash secret to anyproc, so that `hash()` in a script equals
//! `hash()` in Python (`anyproc::container::str_hash`).

use anyproc::container::{HashSecret, set_hash_secret, str_hash_keyed};
use pyo3::prelude::*;

/// Makes `k0`, `k1` (the first 16 bytes of `_Py_HashSecret`) and `none_hash` (`hash(None)`)
/// anyproc's hash secret, if anyproc's hash of `probe` is then `probe_hash` (Python's): a Python
/// whose hash is not SipHash-1-3 over that key keeps anyproc's own. Whether it took.
#[pyfunction]
pub fn _set_hash_secret(k0: u64, k1: u64, none_hash: i64, probe: &str, probe_hash: i64) -> bool {
    let secret = HashSecret { k0, k1, none_hash };
    str_hash_keyed(&secret, probe) == probe_hash && set_hash_secret(secret)
}
