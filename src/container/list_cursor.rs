//! `ListCursor`: walks a list by index, taking its lock once per few items instead of once each.
//!
//! A loop over a list reads its items by index, so that changes made while it runs are seen
//! as in Python (`for x in xs: xs.append(...)` goes on over the new items). Reading each item
//! under the list's read lock cost two atomic read-modify-writes, 7 of the 18 ns a step of
//! `for w in words: n += 1` took. The cursor copies the next [`READ_AHEAD`] items under one
//! lock, with the list's version (which every write through the lock moves on), and hands
//! them out while the version stays the same; after a write it reads again from where it is.
//! What each step returns is therefore the list's item at that index as of that step, exactly
//! as reading it under the lock would give.

use super::List;
use crate::AnyValue;

/// Items read under one lock: enough to make the lock's cost small beside a step, few enough
/// that a loop slot stays small (a frame on the stack holds several).
pub const READ_AHEAD: usize = 8;

/// An iterator over a list's items (clones), by index, seeing every change made while it runs.
pub struct ListCursor {
    list: List,
    /// The index of the next item to return.
    index: usize,
    /// Copies of the items from `index - taken` on; those before `taken` are handed out already.
    ahead: [AnyValue; READ_AHEAD],
    /// How many of `ahead` are handed out.
    taken: usize,
    /// How many of `ahead` hold copies (fewer than [`READ_AHEAD`] at the end of the list).
    read: usize,
    /// The list's version when `ahead` was read.
    version: u64,
    /// The list's length when the walk started.
    start_len: usize,
}

impl ListCursor {
    /// A cursor at the start of `list`.
    pub fn new(list: List) -> Self {
        ListCursor { list, index: 0, ahead: Default::default(), taken: 0, read: 0, version: 0, start_len: 0 }
    }

    /// How many items this walk has handed out past the list's length when it started: the
    /// items it took that were added while it ran.
    #[inline]
    pub fn past_start(&self) -> usize {
        self.index.saturating_sub(self.start_len)
    }

    /// Copies the items from `index` on, and the version they are at; false at the end.
    #[cold]
    #[inline(never)]
    fn read_ahead(&mut self) -> bool {
        let index = self.index;
        let (ahead, read, version, len) = self.list.0.with_versioned_items(|items, version| {
            let window = items.get(index..).unwrap_or_default();
            let ahead: [AnyValue; READ_AHEAD] = std::array::from_fn(|i| window.get(i).cloned().unwrap_or_default());
            (ahead, window.len().min(READ_AHEAD), version, items.len())
        });
        // The copies left over are dropped here, after the lock: they may be the last handles
        // of lists, whose freeing must not happen under this list's lock.
        self.ahead = ahead;
        (self.taken, self.read, self.version) = (0, read, version);
        // The first read is the walk's start: nothing has run between the cursor's making and it.
        if index == 0 {
            self.start_len = len;
        }
        read > 0
    }
}

impl Iterator for ListCursor {
    type Item = AnyValue;

    #[inline(always)]
    fn next(&mut self) -> Option<AnyValue> {
        // A write since the copies were made (by the loop's own body, or another thread) may
        // have changed any of them: they are read again.
        if (self.taken >= self.read || self.list.0.version() != self.version) && !self.read_ahead() {
            return None;
        }
        let item = std::mem::take(self.ahead.get_mut(self.taken)?);
        self.taken += 1;
        self.index += 1;
        Some(item)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ints(xs: &[i64]) -> List {
        xs.iter().copied().collect()
    }

    fn as_ints(items: impl Iterator<Item = AnyValue>) -> Vec<i64> {
        items.map(|x| x.value().as_int().expect("an int")).collect()
    }

    #[test]
    fn walks_every_item_in_order_across_several_read_aheads() {
        let xs: Vec<i64> = (0..3 * READ_AHEAD as i64 + 1).collect();
        assert_eq!(as_ints(ListCursor::new(ints(&xs))), xs);
        assert_eq!(as_ints(ListCursor::new(List::new())), Vec::<i64>::new());
    }

    #[test]
    fn sees_items_appended_while_it_walks() {
        // Python: xs = [0, 1, 2]; for x in xs: (x < 2 and xs.append(x + 10)) gives 0 1 2 10 11.
        let mut xs = ints(&[0, 1, 2]);
        let mut seen = Vec::new();
        for x in ListCursor::new(xs.clone()) {
            let x = x.value().as_int().expect("an int");
            seen.push(x);
            if x < 2 {
                xs.push(x + 10);
            }
        }
        assert_eq!(seen, [0, 1, 2, 10, 11]);
    }

    #[test]
    fn sees_items_replaced_and_removed_after_they_were_read_ahead() {
        // Python: xs = [0, 1, 2, 3, 4]; for x in xs: (x == 0 and (xs.__setitem__(2, 20), xs.pop()))
        // gives 0 1 20 3.
        let mut xs = ints(&[0, 1, 2, 3, 4]);
        let mut cursor = ListCursor::new(xs.clone());
        let first = cursor.next().and_then(|x| x.value().as_int());
        assert_eq!(first, Some(0));
        xs.set(2, 20i64).expect("in range");
        xs.pop().expect("not empty");
        assert_eq!(as_ints(cursor), [1, 20, 3]);
    }

    #[test]
    fn counts_the_items_taken_past_the_starting_length() {
        let mut xs = ints(&[1, 2, 3]);
        let mut cursor = ListCursor::new(xs.clone());
        // One item added per step, as `for x in xs: xs.append(0)` does: from the fourth step on,
        // each item taken is one the walk added.
        for expected_past in [0, 0, 0, 1, 2] {
            assert!(cursor.next().is_some());
            assert_eq!(cursor.past_start(), expected_past);
            xs.push(0i64);
        }
    }

    #[test]
    fn a_cleared_list_ends_the_walk() {
        let mut xs = ints(&[1, 2, 3]);
        let mut cursor = ListCursor::new(xs.clone());
        assert!(cursor.next().is_some());
        xs.clear();
        assert!(cursor.next().is_none());
    }
}
