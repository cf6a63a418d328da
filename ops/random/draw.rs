//! The draws every method is made of, as `_randommodule.c` and `random.py` make them:
//! `random()`'s 53 bits from two words, `getrandbits`' words from the least significant, and
//! `_randbelow`'s rejection loop.

use super::mt::Mt19937 as Mt;
use parking_lot::Mutex;

/// `random()`: 53 random bits from two draws, as `_randommodule.c` makes them.
pub(super) fn next_float(mt: &Mutex<Mt>) -> f64 {
    let mut mt = mt.lock();
    let a = mt.next_u32() >> 5;
    let b = mt.next_u32() >> 6;
    (f64::from(a) * 67_108_864.0 + f64::from(b)) * (1.0 / 9_007_199_254_740_992.0)
}

/// `getrandbits(k)` for `k <= 64`: whole words from the least significant, the last one cut
/// to its top bits.
pub(super) fn bits(mt: &Mutex<Mt>, k: u32) -> u64 {
    let mut mt = mt.lock();
    match k {
        0 => 0,
        1..=32 => u64::from(mt.next_u32() >> (32 - k)),
        _ => {
            let low = u64::from(mt.next_u32());
            let high = mt.next_u32() >> (64 - k);
            low | (u64::from(high) << 32)
        }
    }
}

/// `_randbelow(n)` for `n > 0`: `n.bit_length()` bits, drawn again until below `n`.
pub(super) fn below(mt: &Mutex<Mt>, n: u64) -> u64 {
    let k = 64 - n.leading_zeros();
    loop {
        let r = bits(mt, k);
        if r < n {
            return r;
        }
    }
}

/// [`below`] of a length.
pub(super) fn below_len(mt: &Mutex<Mt>, n: usize) -> usize {
    below(mt, n as u64) as usize
}
