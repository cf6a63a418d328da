//! The hash table behind `Set`: CPython 3.11's `setobject.c` algorithm, step for step, so that a
//! set iterates in the order CPython's would (checked against CPython by
//! `python/tests/test_sets.py`).
//!
//! Open addressing over a power-of-two table: a probe looks at ten neighbouring slots from the
//! home slot `hash & mask` (nine "linear probes" past it) before jumping on with the perturbed
//! recurrence `i = 5 * i + 1 + perturb`. A removed key leaves a dummy that keeps probe chains
//! intact; an insertion reuses the last dummy its probe passed. The table grows when it is
//! three-fifths full, dummies counted, to the power of two above four times the keys.

use crate::any::{text_first_equal, values_equal};
use crate::error::{Error, Result};
use crate::{AnyValue, Value};

/// Smallest table (`PySet_MINSIZE`).
const MIN_SIZE: usize = 8;
/// Slots probed one after another before the perturbed jump (`LINEAR_PROBES`).
const LINEAR_PROBES: usize = 9;
/// Shift applied to `perturb` at each jump (`PERTURB_SHIFT`).
const PERTURB_SHIFT: u32 = 5;

/// One slot of the table.
#[derive(Clone, Default)]
pub(crate) enum Slot {
    /// Never used since the table was made.
    #[default]
    Unused,
    /// Held a key that was removed.
    Dummy,
    /// Holds a key and its hash.
    Active(i64, AnyValue),
}

/// CPython's set table: the slots, how many are not unused (`fill`) and how many hold a key
/// (`used`), and where `pop` looks next (`finger`).
#[derive(Clone)]
pub(crate) struct Table {
    slots: Vec<Slot>,
    fill: usize,
    used: usize,
    finger: usize,
}

impl Default for Table {
    fn default() -> Self {
        Table { slots: vec![Slot::Unused; MIN_SIZE], fill: 0, used: 0, finger: 0 }
    }
}

/// Where a probe for a key ended.
enum Probe {
    /// The key is in this slot.
    Found(usize),
    /// The key is absent; an insertion goes to this slot, which is a dummy (`true`) or unused.
    Absent(usize, bool),
}

impl Table {
    /// Number of keys.
    pub(crate) fn len(&self) -> usize {
        self.used
    }

    fn mask(&self) -> usize {
        self.slots.len() - 1
    }

    /// The keys with their hashes, in table order (the order CPython iterates).
    pub(crate) fn entries(&self) -> impl Iterator<Item = (i64, &AnyValue)> {
        self.slots.iter().filter_map(|s| match s {
            Slot::Active(h, k) => Some((*h, k)),
            _ => None,
        })
    }

    /// The first key at or after slot `pos`, and the slot after it, for iterators that walk
    /// the live table as CPython's set iterator does.
    pub(crate) fn next_from(&self, pos: usize) -> Option<(usize, &AnyValue)> {
        self.slots.get(pos..)?.iter().enumerate().find_map(|(i, s)| match s {
            Slot::Active(_, k) => Some((pos + i + 1, k)),
            _ => None,
        })
    }

    /// Probes for `key` (`set_lookkey` and the search of `set_add_entry`).
    fn probe(&self, key: Value<'_>, hash: i64) -> Probe {
        let mut free: Option<usize> = None;
        for run in probe_runs(self.mask(), hash) {
            for j in run {
                match &self.slots[j] {
                    Slot::Unused => return free.map_or(Probe::Absent(j, false), |f| Probe::Absent(f, true)),
                    Slot::Dummy => free = Some(j),
                    Slot::Active(h, k) => {
                        if *h == hash && values_equal(k.value(), key, 0) {
                            return Probe::Found(j);
                        }
                    }
                }
            }
        }
        unreachable!("the probe sequence never ends")
    }

    /// Whether `key` (with its hash) is present.
    pub(crate) fn contains(&self, key: Value<'_>, hash: i64) -> bool {
        self.contains_at(key, hash, 0)
    }

    /// [`contains`](Self::contains) of a key `depth` containers deep in a comparison.
    pub(crate) fn contains_at(&self, key: Value<'_>, hash: i64, depth: usize) -> bool {
        self.find(hash, |k| values_equal(k.value(), key, depth))
    }

    /// Whether UTF-8 text (with its hash) is present, comparing text keys as bytes.
    pub(crate) fn contains_text(&self, text: &str, hash: i64) -> bool {
        self.find(hash, |k| text_first_equal(k.as_str(), Some(text), || values_equal(k.value(), Value::Str(text), 0)))
    }

    /// Whether a key with `hash` that `eq` accepts is present: [`probe`](Self::probe)'s walk
    /// without the bookkeeping an insertion needs, over a slice so that no slot is
    /// bounds-checked (the hot path of `x in s`).
    #[inline(always)]
    fn find(&self, hash: i64, eq: impl Fn(&AnyValue) -> bool) -> bool {
        for run in probe_runs(self.mask(), hash) {
            for slot in &self.slots[run] {
                match slot {
                    Slot::Unused => return false,
                    Slot::Active(h, k) if *h == hash && eq(k) => return true,
                    _ => {}
                }
            }
        }
        unreachable!("the probe sequence never ends")
    }

    /// Adds `key` unless an equal key is present (`set_add_entry`); true when it was added.
    pub(crate) fn add(&mut self, key: AnyValue, hash: i64) -> Result<bool> {
        match self.probe(key.value(), hash) {
            Probe::Found(_) => Ok(false),
            Probe::Absent(j, true) => {
                self.slots[j] = Slot::Active(hash, key);
                self.used += 1;
                Ok(true)
            }
            Probe::Absent(j, false) => {
                self.slots[j] = Slot::Active(hash, key);
                self.used += 1;
                self.fill += 1;
                if self.fill * 5 >= self.mask() * 3 {
                    self.resize(self.growth())?;
                }
                Ok(true)
            }
        }
    }

    /// The size `resize` is asked for when the table fills up.
    fn growth(&self) -> usize {
        if self.used > 50_000 { self.used * 2 } else { self.used * 4 }
    }

    /// Removes `key` (`set_discard_entry`), leaving a dummy; the key, when it was present.
    pub(crate) fn discard(&mut self, key: Value<'_>, hash: i64) -> Option<AnyValue> {
        let Probe::Found(j) = self.probe(key, hash) else { return None };
        self.used -= 1;
        match std::mem::replace(&mut self.slots[j], Slot::Dummy) {
            Slot::Active(_, k) => Some(k),
            _ => None,
        }
    }

    /// Removes and returns a key, scanning on from where the last `pop` stopped (`set_pop`).
    pub(crate) fn pop(&mut self) -> Option<AnyValue> {
        if self.used == 0 {
            return None;
        }
        let mask = self.mask();
        let mut j = self.finger & mask;
        while !matches!(self.slots[j], Slot::Active(..)) {
            j = if j == mask { 0 } else { j + 1 };
        }
        self.used -= 1;
        self.finger = j + 1;
        match std::mem::replace(&mut self.slots[j], Slot::Dummy) {
            Slot::Active(_, k) => Some(k),
            _ => None,
        }
    }

    /// Empties the table to its smallest size (`set_clear_internal`; `pop`'s finger stays);
    /// the old slots, for the caller to drop where it chooses.
    pub(crate) fn clear(&mut self) -> Vec<Slot> {
        self.fill = 0;
        self.used = 0;
        std::mem::replace(&mut self.slots, vec![Slot::Unused; MIN_SIZE])
    }

    /// Takes `other`'s keys and layout, keeping this table's `pop` finger (CPython's
    /// `set_swap_bodies`); the old slots, for the caller to drop.
    pub(crate) fn replace_keys(&mut self, other: Table) -> Vec<Slot> {
        self.fill = other.fill;
        self.used = other.used;
        std::mem::replace(&mut self.slots, other.slots)
    }

    /// Rebuilds the table at the smallest power of two above `min_used` (`set_table_resize`),
    /// dropping dummies; a `MemoryError` when the allocator refuses the new table.
    pub(crate) fn resize(&mut self, min_used: usize) -> Result<()> {
        let mut size = MIN_SIZE;
        while size <= min_used {
            size = size.checked_mul(2).ok_or_else(|| too_large(min_used))?;
        }
        let mut slots = Vec::new();
        slots.try_reserve_exact(size).map_err(|_| too_large(size))?;
        slots.resize(size, Slot::Unused);
        let old = std::mem::replace(&mut self.slots, slots);
        self.fill = self.used;
        for slot in old {
            if let Slot::Active(h, k) = slot {
                insert_clean(&mut self.slots, h, k);
            }
        }
        Ok(())
    }

    /// Grows the table once ahead of adding about `incoming` keys, as CPython does before
    /// merging a set or a dict into a set.
    pub(crate) fn reserve(&mut self, incoming: usize) -> Result<()> {
        if (self.fill + incoming) * 5 >= self.mask() * 3 {
            self.resize((self.used + incoming) * 2)?;
        }
        Ok(())
    }

    /// Adds every key of `other` (`set_merge`): a table copied slot for slot when this one is
    /// empty and the sizes agree, reinserted without comparisons when this one is empty, added
    /// one by one otherwise.
    pub(crate) fn merge(&mut self, other: &Table) -> Result<()> {
        if other.used == 0 {
            return Ok(());
        }
        self.reserve(other.used)?;
        if self.fill == 0 && self.mask() == other.mask() && other.fill == other.used {
            self.slots.clone_from(&other.slots);
            self.fill = other.fill;
            self.used = other.used;
            return Ok(());
        }
        if self.fill == 0 {
            self.fill = other.used;
            self.used = other.used;
            for (h, k) in other.entries() {
                insert_clean(&mut self.slots, h, k.clone());
            }
            return Ok(());
        }
        for (h, k) in other.entries() {
            self.add(k.clone(), h)?;
        }
        Ok(())
    }

    /// After removals: rebuilds the table when more than a quarter of it is dummies, as
    /// `set_difference_update` does.
    pub(crate) fn shrink_dummies(&mut self) -> Result<()> {
        if self.fill - self.used <= self.mask() / 4 {
            return Ok(());
        }
        self.resize(self.growth())
    }
}

/// Puts a key known to be absent into the first unused slot of its probe chain, with no
/// comparison (`set_insert_clean`); the table has no dummies.
fn insert_clean(slots: &mut [Slot], hash: i64, key: AnyValue) {
    for mut run in probe_runs(slots.len() - 1, hash) {
        if let Some(j) = run.find(|&j| matches!(slots[j], Slot::Unused)) {
            slots[j] = Slot::Active(hash, key);
            return;
        }
    }
}

/// The slots a probe for `hash` looks at in a table of `mask + 1` slots, run by run, without
/// end: the home slot `hash & mask` and the nine after it (fewer near the table's end: just
/// the one), then the same from `5 * i + 1 + perturb`, `perturb` shifted down each time.
fn probe_runs(mask: usize, hash: i64) -> impl Iterator<Item = std::ops::RangeInclusive<usize>> {
    let mut perturb = hash as u64;
    let mut i = hash as usize & mask;
    std::iter::from_fn(move || {
        let run = i..=if i + LINEAR_PROBES <= mask { i + LINEAR_PROBES } else { i };
        perturb >>= PERTURB_SHIFT;
        i = (i.wrapping_mul(5).wrapping_add(1).wrapping_add(perturb as usize)) & mask;
        Some(run)
    })
}

#[cold]
fn too_large(slots: usize) -> Error {
    Error::out_of_memory("set", slots.saturating_mul(std::mem::size_of::<Slot>()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::container::py_hash::py_hash;

    fn table_of(keys: &[i64]) -> Table {
        let mut t = Table::default();
        for &k in keys {
            let v = AnyValue::from(k);
            t.add(v.clone(), py_hash(v.value()).unwrap()).unwrap();
        }
        t
    }

    fn order(t: &Table) -> Vec<i64> {
        t.entries().map(|(_, k)| k.value().as_int().unwrap()).collect()
    }

    // The expected orders are what CPython 3.11 prints for the same operations.
    #[test]
    fn iterates_in_cpython_order() {
        assert_eq!(order(&table_of(&[3, 1, 2])), [1, 2, 3]);
        assert_eq!(order(&table_of(&[100, 7, 64, 1000, 9])), [64, 100, 7, 1000, 9]);
        assert_eq!(order(&table_of(&[-1, -2, 2])), [2, -1, -2]);
    }

    #[test]
    fn insertion_reuses_the_last_dummy_it_passed() {
        // s = {4, 36, 5, 37, 6}; s.discard(36); s.discard(5); s.add(68) -> [4, 37, 68, 6]...
        let mut t = table_of(&[4, 36, 5, 37, 6]);
        for k in [36i64, 5] {
            let v = AnyValue::from(k);
            assert!(t.discard(v.value(), py_hash(v.value()).unwrap()).is_some());
        }
        let v = AnyValue::from(68i64);
        t.add(v.clone(), py_hash(v.value()).unwrap()).unwrap();
        assert_eq!(order(&t), [4, 37, 68, 6]);
    }

    #[test]
    fn pop_walks_on_from_its_finger() {
        let mut t = table_of(&[5, 1, 9, 3]);
        let popped: Vec<i64> = std::iter::from_fn(|| t.pop()).map(|k| k.value().as_int().unwrap()).collect();
        assert_eq!(popped, [1, 3, 5, 9]);
    }
}
