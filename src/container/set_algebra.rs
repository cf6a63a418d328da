//! Union, intersection, difference and the subset tests on set tables, each the algorithm of
//! CPython 3.11's `setobject.c` (which side it walks, when it copies first), since that decides
//! the order of the result.

use super::py_hash::py_hash;
use super::set_table::Table;
use crate::AnyValue;
use crate::error::Result;

/// The other operand of a set operation, read before the operation starts.
pub(crate) enum Other<'a> {
    /// Another set's table.
    Set(&'a Table),
    /// A dict's keys, in order (CPython sizes some results by a dict's length).
    Dict(&'a [AnyValue]),
    /// The items of any other iterable, in order.
    Items(&'a [AnyValue]),
}

/// The keys of `items` with their hashes; the first unhashable key's error.
fn hashed(items: &[AnyValue]) -> impl Iterator<Item = Result<(i64, &AnyValue)>> {
    items.iter().map(|k| Ok((py_hash(k.value())?, k)))
}

impl Table {
    /// `set(other)`: a new table holding the keys of `other`.
    pub(crate) fn from_other(other: &Other<'_>) -> Result<Table> {
        let mut t = Table::default();
        t.update(other)?;
        Ok(t)
    }

    /// `set.copy()`: a new table merged from this one (not a clone: CPython's copy may lay
    /// the keys out anew).
    pub(crate) fn copy(&self) -> Result<Table> {
        Table::from_other(&Other::Set(self))
    }

    /// `set.update(other)` (`set_update_internal`).
    pub(crate) fn update(&mut self, other: &Other<'_>) -> Result<()> {
        match other {
            Other::Set(t) => self.merge(t),
            Other::Dict(keys) => {
                self.reserve(keys.len())?;
                hashed(keys).try_for_each(|e| e.and_then(|(h, k)| self.add(k.clone(), h).map(drop)))
            }
            Other::Items(items) => {
                hashed(items).try_for_each(|e| e.and_then(|(h, k)| self.add(k.clone(), h).map(drop)))
            }
        }
    }

    /// `self & other` (`set_intersection`): walks the smaller set, or the iterable, keeping the
    /// keys found in the other.
    pub(crate) fn intersection(&self, other: &Other<'_>) -> Result<Table> {
        let mut result = Table::default();
        match other {
            Other::Set(t) => {
                let (big, small) = if t.len() > self.len() { (*t, self) } else { (self, *t) };
                for (h, k) in small.entries() {
                    if big.contains(k.value(), h) {
                        result.add(k.clone(), h)?;
                    }
                }
            }
            Other::Dict(items) | Other::Items(items) => {
                for entry in hashed(items) {
                    let (h, k) = entry?;
                    if self.contains(k.value(), h) {
                        result.add(k.clone(), h)?;
                    }
                }
            }
        }
        Ok(result)
    }

    /// `self - other` (`set_difference`): a copy with the other's keys removed when this set is
    /// more than four times the other's size (or the other is a plain iterable), else the keys
    /// of this set not in the other, added to a new table.
    pub(crate) fn difference(&self, other: &Other<'_>) -> Result<Table> {
        let dict_keys;
        let lookup = match other {
            Other::Set(t) if (self.len() >> 2) <= t.len() => *t,
            Other::Dict(keys) if (self.len() >> 2) <= keys.len() => {
                dict_keys = Table::from_other(&Other::Items(keys))?;
                &dict_keys
            }
            // Much larger than the other, or a plain iterable: a copy, with the other's keys removed.
            _ => {
                let mut result = self.copy()?;
                result.difference_update(other)?;
                return Ok(result);
            }
        };
        let mut result = Table::default();
        for (h, k) in self.entries() {
            if !lookup.contains(k.value(), h) {
                result.add(k.clone(), h)?;
            }
        }
        Ok(result)
    }

    /// `self -= other` (`set_difference_update_internal`), then dummies cleared out when they
    /// are more than a quarter of the table.
    pub(crate) fn difference_update(&mut self, other: &Other<'_>) -> Result<()> {
        match other {
            Other::Set(t) => {
                // A much larger other set is replaced by its intersection with this one.
                let small;
                let t = if (t.len() >> 3) > self.len() {
                    small = self.intersection(other)?;
                    &small
                } else {
                    *t
                };
                let keys: Vec<(i64, AnyValue)> = t.entries().map(|(h, k)| (h, k.clone())).collect();
                for (h, k) in keys {
                    self.discard(k.value(), h);
                }
            }
            Other::Dict(items) | Other::Items(items) => {
                for entry in hashed(items) {
                    let (h, k) = entry?;
                    self.discard(k.value(), h);
                }
            }
        }
        self.shrink_dummies()
    }

    /// `self ^= other` (`set_symmetric_difference_update`): each key of the other is removed
    /// when present and added when not; a plain iterable becomes a set first.
    pub(crate) fn symmetric_difference_update(&mut self, other: &Other<'_>) -> Result<()> {
        let toggle = |t: &mut Table, h: i64, k: &AnyValue| -> Result<()> {
            if t.discard(k.value(), h).is_none() {
                t.add(k.clone(), h)?;
            }
            Ok(())
        };
        match other {
            Other::Dict(keys) => hashed(keys).try_for_each(|e| e.and_then(|(h, k)| toggle(self, h, k))),
            Other::Set(t) => t.entries().try_for_each(|(h, k)| toggle(self, h, k)),
            Other::Items(items) => {
                let t = Table::from_other(&Other::Items(items))?;
                t.entries().try_for_each(|(h, k)| toggle(self, h, k))
            }
        }
    }

    /// `self ^ other` (`set_symmetric_difference`): a set of the other, toggled by this one.
    pub(crate) fn symmetric_difference(&self, other: &Other<'_>) -> Result<Table> {
        let mut result = Table::from_other(other)?;
        result.symmetric_difference_update(&Other::Set(self))?;
        Ok(result)
    }

    /// `self <= other` for another set's table (`set_issubset`).
    pub(crate) fn is_subset(&self, other: &Table) -> bool {
        self.is_subset_at(other, 0)
    }

    /// [`is_subset`](Self::is_subset) of tables `depth` containers deep in a comparison (a
    /// frozenset inside frozensets), whose keys are compared that deep: the depth caps the
    /// recursion as a list's comparison caps it.
    pub(crate) fn is_subset_at(&self, other: &Table, depth: usize) -> bool {
        self.len() <= other.len() && self.entries().all(|(h, k)| other.contains_at(k.value(), h, depth))
    }

    /// Whether no key is in both (`set_isdisjoint`): walks the smaller set, or the iterable.
    pub(crate) fn is_disjoint(&self, other: &Other<'_>) -> Result<bool> {
        match other {
            Other::Set(t) => {
                let (big, small) = if t.len() > self.len() { (*t, self) } else { (self, *t) };
                Ok(!small.entries().any(|(h, k)| big.contains(k.value(), h)))
            }
            Other::Dict(items) | Other::Items(items) => {
                for entry in hashed(items) {
                    let (h, k) = entry?;
                    if self.contains(k.value(), h) {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
        }
    }

    /// Whether every key of the iterable is in this set (`set_issuperset` of a non-set).
    pub(crate) fn contains_all(&self, items: &[AnyValue]) -> Result<bool> {
        for entry in hashed(items) {
            let (h, k) = entry?;
            if !self.contains(k.value(), h) {
                return Ok(false);
            }
        }
        Ok(true)
    }
}
