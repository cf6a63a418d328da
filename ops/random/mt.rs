//! MT19937, the Mersenne Twister of Python's `random`, with its state readable and writable as
//! CPython's `getstate()`/`setstate()` give it (624 words and a position), so that a generator
//! can cross to and from Python at the place it stands.
//!
//! Rationale: `rand_mt` (a dev-dependency, which the tests compare with) keeps its state
//! private, and a Python `random.Random` handed to a script must continue where Python left it
//! and hand its state back; it also reads no more than 624 words of a key, where CPython's
//! `init_by_array` reads them all (a str seed longer than about 2,400 bytes).

/// Words of state.
pub const N: usize = 624;
const M: usize = 397;
const MATRIX_A: u32 = 0x9908_b0df;
const UPPER_MASK: u32 = 0x8000_0000;
const LOWER_MASK: u32 = 0x7fff_ffff;

/// A Mersenne Twister generator: `mt19937ar.c`'s `init_by_array` and `genrand_uint32`.
#[derive(Clone)]
pub struct Mt19937 {
    state: Box<[u32; N]>,
    /// The next word to temper; `N` when the state must be regenerated first.
    index: usize,
    /// The second normal deviate of `gauss`'s last pair, which its next call returns (part of
    /// CPython's `getstate()`; seeding clears it).
    pub gauss_next: Option<f64>,
}

impl Mt19937 {
    /// A generator seeded with `key` (`init_by_array`), as CPython's `seed` seeds it.
    pub fn with_key(key: &[u32]) -> Self {
        let mut mt = Mt19937 { state: Box::new([0; N]), index: N, gauss_next: None };
        mt.seed_with_key(key);
        mt
    }

    /// A generator at CPython's state: its 624 words, position (`0..=624`) and `gauss_next`.
    pub fn from_state(words: &[u32; N], index: usize, gauss_next: Option<f64>) -> Option<Self> {
        (index <= N).then(|| Mt19937 { state: Box::new(*words), index, gauss_next })
    }

    /// The 624 words and position, as CPython's `getstate()` lists them.
    pub fn state(&self) -> (&[u32; N], usize) {
        (&self.state, self.index)
    }

    fn seed_with_u32(&mut self, seed: u32) {
        let mt = &mut self.state;
        mt[0] = seed;
        for i in 1..N {
            mt[i] = 1_812_433_253u32.wrapping_mul(mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_add(i as u32);
        }
        self.index = N;
    }

    /// Reseeds with `key` (`init_by_array`; an empty key is `[0]`, as CPython never passes one).
    pub fn seed_with_key(&mut self, key: &[u32]) {
        self.gauss_next = None;
        let key = if key.is_empty() { &[0][..] } else { key };
        self.seed_with_u32(19_650_218);
        let mt = &mut self.state;
        let (mut i, mut j) = (1usize, 0usize);
        for _ in 0..N.max(key.len()) {
            let prev = mt[i - 1] ^ (mt[i - 1] >> 30);
            mt[i] = (mt[i] ^ prev.wrapping_mul(1_664_525)).wrapping_add(key[j]).wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
            if j >= key.len() {
                j = 0;
            }
        }
        for _ in 0..N - 1 {
            let prev = mt[i - 1] ^ (mt[i - 1] >> 30);
            mt[i] = (mt[i] ^ prev.wrapping_mul(1_566_083_941)).wrapping_sub(i as u32);
            i += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
        }
        // The most significant bit is 1: a state that is not all zeros.
        mt[0] = 0x8000_0000;
    }

    /// The next 32 random bits (`genrand_uint32`).
    pub fn next_u32(&mut self) -> u32 {
        if self.index >= N {
            self.regenerate();
        }
        let mut y = self.state[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// The next 624 words of state, all at once.
    fn regenerate(&mut self) {
        let mt = &mut self.state;
        let twist = |upper: u32, lower: u32| {
            let y = (upper & UPPER_MASK) | (lower & LOWER_MASK);
            (y >> 1) ^ if y & 1 == 1 { MATRIX_A } else { 0 }
        };
        for k in 0..N {
            mt[k] = mt[(k + M) % N] ^ twist(mt[k], mt[(k + 1) % N]);
        }
        self.index = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first outputs of `mt19937ar.c`'s own test (`init_by_array({0x123, 0x234, 0x345,
    /// 0x456})`), from its published `mt19937ar.out`.
    #[test]
    fn the_reference_outputs() {
        let mut mt = Mt19937::with_key(&[0x123, 0x234, 0x345, 0x456]);
        let first: Vec<u32> = (0..5).map(|_| mt.next_u32()).collect();
        assert_eq!(first, [1_067_595_299, 955_945_823, 477_289_528, 4_107_218_783, 4_228_976_476]);
    }

    /// The same words as `rand_mt`, an independent implementation, for keys of several lengths,
    /// across several regenerations; and a state read and written back continues alike.
    #[test]
    fn agrees_with_rand_mt() {
        for key in [vec![0u32], vec![42], vec![1, 2], (0..624).collect::<Vec<u32>>()] {
            let mut ours = Mt19937::with_key(&key);
            let mut theirs = rand_mt::Mt::new_with_key(key.iter().copied());
            for i in 0..2000 {
                assert_eq!(ours.next_u32(), theirs.next_u32(), "key of {} words, draw {i}", key.len());
            }
            let (words, index) = ours.state();
            let mut copy = Mt19937::from_state(words, index, None).unwrap();
            assert_eq!(
                (0..700).map(|_| copy.next_u32()).collect::<Vec<_>>(),
                (0..700).map(|_| ours.next_u32()).collect::<Vec<_>>()
            );
        }
        assert!(Mt19937::from_state(&[0; N], N + 1, None).is_none());
    }

    /// A key longer than the state (a long str seed) is read to its end, as `init_by_array`
    /// reads it (`rand_mt` stops at 624 words): CPython's
    /// `Random(sum(i << 32 * i for i in range(700))).getrandbits(32)`.
    #[test]
    fn a_key_longer_than_the_state_is_read_whole() {
        let mut mt = Mt19937::with_key(&(0..700).collect::<Vec<u32>>());
        assert_eq!(mt.next_u32(), 3_727_595_200);
    }
}
