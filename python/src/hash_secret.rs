//! Hands the Python process's hash secret to anyproc, so that `hash()` in a script equals
//! `hash()` in Python (`anyproc::container::str_hash`).

use anyproc::container::{HashSecret, set_hash_secret, str_hash_keyed};
use pyo3::prelude::*;

/// Makes `k0`, `k1` (the first 16 bytes of `_Py_HashSecret`), `none_hash` (`hash(None)`) and
/// `algorithm` (`sys.hash_info.algorithm`: `siphash13` or `siphash24`) anyproc's hash secret,
/// if anyproc's hash of `probe` is then `probe_hash` (Python's): a Python that hashes otherwise
/// keeps anyproc's own key. Whether it took.
#[pyfunction]
pub fn _set_hash_secret(k0: u64, k1: u64, none_hash: i64, algorithm: &str, probe: &str, probe_hash: i64) -> bool {
    let siphash24 = match algorithm {
        "siphash13" => false,
        "siphash24" => true,
        _ => return false,
    };
    let secret = HashSecret { k0, k1, none_hash, siphash24 };
    str_hash_keyed(&secret, probe) == probe_hash && set_hash_secret(secret)
}
