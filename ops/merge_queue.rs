//! The priority queue of the large-piece BPE merge: a radix heap on `(rank, position)` keys.
//!
//! BPE pops candidate pairs in increasing key order, and a trained vocabulary only ever
//! creates pairs that rank after the merge that made them (a token's parts exist before
//! it), so the keys pushed are almost always at least the last key popped. A radix heap
//! uses exactly that: it files keys into 65 buckets by the highest bit in which they differ
//! from the last key popped and moves them down in sequential passes, so a megabyte piece
//! costs streaming memory traffic instead of a binary heap's random accesses per level.
//!
//! A key below the last popped one (a rank file whose ranks do not follow the merge
//! order) goes to a small binary heap that is always drained first: every key in it is
//! below every key in the radix heap, so the pop order stays exactly increasing.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// A min-queue of `u64` keys, fastest when keys pushed are never below the last popped.
pub struct MergeQueue {
    /// The last key popped from the radix part; every key in `buckets` is at least this.
    last: u64,
    /// Bucket 0 holds keys equal to `last`; bucket `i > 0` keys whose highest bit that
    /// differs from `last` is bit `i - 1`.
    buckets: [Vec<u64>; 65],
    /// Keys in `buckets`.
    len: usize,
    /// Keys pushed below `last`; all of them are below every key in `buckets`.
    early: BinaryHeap<Reverse<u64>>,
}

impl MergeQueue {
    /// A queue holding `keys` (any order).
    pub fn from_keys(keys: Vec<u64>) -> MergeQueue {
        let mut buckets: [Vec<u64>; 65] = std::array::from_fn(|_| Vec::new());
        let len = keys.len();
        // With `last` = 0 a key's bucket is its bit length; the first pop sorts them out.
        for k in keys {
            buckets[bucket_of(0, k)].push(k);
        }
        MergeQueue { last: 0, buckets, len, early: BinaryHeap::new() }
    }

    /// Adds `key`.
    #[inline]
    pub fn push(&mut self, key: u64) {
        if key < self.last {
            self.early.push(Reverse(key));
        } else {
            self.buckets[bucket_of(self.last, key)].push(key);
            self.len += 1;
        }
    }

    /// Removes and returns the smallest key.
    #[inline]
    pub fn pop(&mut self) -> Option<u64> {
        if let Some(Reverse(k)) = self.early.pop() {
            return Some(k);
        }
        if self.len == 0 {
            return None;
        }
        if self.buckets[0].is_empty() {
            self.refill();
        }
        self.len -= 1;
        self.buckets[0].pop()
    }

    /// Makes the smallest key the new `last` and moves the keys of the lowest non-empty
    /// bucket down: each lands in a lower bucket (they agree with the new `last` on more
    /// high bits), the smallest ones in bucket 0.
    fn refill(&mut self) {
        let Some(i) = (1..self.buckets.len()).find(|&i| !self.buckets[i].is_empty()) else { return };
        let mut moving = std::mem::take(&mut self.buckets[i]);
        self.last = moving.iter().copied().min().expect("the bucket is not empty");
        for &k in &moving {
            self.buckets[bucket_of(self.last, k)].push(k);
        }
        // Keep the allocation for the keys that will land here again.
        moving.clear();
        self.buckets[i] = moving;
    }
}

/// The bucket of `key` relative to `last`: 0 if equal, else one more than the index of
/// the highest bit in which they differ.
#[inline]
fn bucket_of(last: u64, key: u64) -> usize {
    (u64::BITS - (key ^ last).leading_zeros()) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pops everything, pushing `extra(k)` after each pop, against a sorted reference.
    fn drain(keys: Vec<u64>, extra: impl Fn(u64) -> Option<u64>) -> Vec<u64> {
        let mut q = MergeQueue::from_keys(keys);
        let mut out = Vec::new();
        while let Some(k) = q.pop() {
            out.push(k);
            if let Some(e) = extra(k) {
                q.push(e);
            }
        }
        out
    }

    #[test]
    fn pops_in_increasing_order_with_duplicates() {
        let keys: Vec<u64> = (0..2000u64).map(|i| (i * 7919) % 613 + (i % 3) * (1 << 40)).collect();
        let mut want = keys.clone();
        want.sort_unstable();
        assert_eq!(drain(keys, |_| None), want);
    }

    #[test]
    fn monotone_pushes_interleave_correctly() {
        // Each pop of k < 5000 pushes k + 5000: still increasing order overall.
        let keys: Vec<u64> = (0..5000u64).rev().collect();
        let out = drain(keys, |k| (k < 5000).then_some(k + 5000));
        let want: Vec<u64> = (0..10_000).collect();
        assert_eq!(out, want);
    }

    #[test]
    fn keys_below_the_last_pop_still_come_out_first() {
        // After popping 100, push 50 and 60: they must come next, before 101.
        let mut q = MergeQueue::from_keys(vec![100, 101, 102]);
        assert_eq!(q.pop(), Some(100));
        q.push(60);
        q.push(50);
        q.push(100);
        assert_eq!(
            [q.pop(), q.pop(), q.pop(), q.pop(), q.pop(), q.pop()],
            [Some(50), Some(60), Some(100), Some(101), Some(102), None]
        );
    }
}
