//! `Set`: a set of hashable any-values, shared like a Python set, laid out and iterated as
//! CPython 3.11 lays out the same set (see `set_table.rs`).

use super::py_hash::{py_hash, text_hash};
use super::set_algebra::Other;
use super::set_table::Table;
use crate::any::type_index::SET;
use crate::any::{AnyPad, AnyValue, AnyView, FromAny, Value, hash_value, values_equal, write_repr};
use crate::error::Result;
use crate::object::{ObjPtr, ObjRef, Object, ObjectType, TypeHooks};
use parking_lot::RwLock;
use std::fmt;
use std::hash::{BuildHasher, Hasher};

/// The heap object behind a `Set`.
#[repr(C)]
pub struct SetObj {
    header: Object,
    table: RwLock<Table>,
    /// A `frozenset`: hashable, and no method changes it (fixed once it is shared).
    frozen: bool,
}

static SET_HOOKS: TypeHooks = TypeHooks { eq: set_eq, hash: set_hash, repr: set_repr };

// SAFETY: repr(C) with the header first.
unsafe impl ObjectType for SetObj {
    const TYPE_KEY: &'static str = "object.Set";
    const HOOKS: Option<&'static TypeHooks> = Some(&SET_HOOKS);
    fn type_index() -> i32 {
        SET
    }
}

impl SetObj {
    /// Number of keys.
    pub fn len(&self) -> usize {
        self.table.read_recursive().len()
    }

    /// Whether there are no keys.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether `key` is present; a `TypeError` when it is unhashable. Reads the set where it
    /// stands, with no handle made (what `x in s` runs).
    pub fn contains(&self, key: AnyView<'_>) -> Result<bool> {
        if let Some(text) = key.as_str() {
            return Ok(self.table.read_recursive().contains_text(text, text_hash(text.as_bytes())));
        }
        self.contains_value(key.value())
    }

    /// [`contains`](Self::contains) for a key already decoded.
    pub fn contains_value(&self, key: Value<'_>) -> Result<bool> {
        let hash = lookup_hash(key)?;
        Ok(self.table.read_recursive().contains(key, hash))
    }

    /// Whether this is a `frozenset`.
    pub fn is_frozen(&self) -> bool {
        self.frozen
    }

    /// CPython's `frozenset.__hash__` of these keys, each hashed by `item_hash`: their shuffled
    /// hashes xor-ed (so the layout does not matter), then the count mixed in.
    pub fn frozen_hash(&self, item_hash: impl Fn(Value<'_>, i64) -> Result<i64>) -> Result<i64> {
        let t = self.table.read_recursive();
        let hashes = t.entries().map(|(h, k)| item_hash(k.value(), h)).collect::<Result<Vec<_>>>()?;
        Ok(super::py_hash::frozenset_hash(&hashes))
    }
}

/// The hash a key is looked up by. CPython looks a set up in a set (`x in s`, `discard`,
/// `remove`) as the frozenset of its keys, so a set's is its frozenset hash.
fn lookup_hash(key: Value<'_>) -> Result<i64> {
    match key.as_obj().filter(|o| o.type_index() == SET).and_then(|o| o.downcast_ref::<SetObj>()) {
        Some(s) => s.frozen_hash(|_, h| Ok(h)),
        None => py_hash(key),
    }
}

// Keys are hashable (no dict or set inside), so comparing them never reaches a set's lock again.
fn set_eq(a: ObjPtr<'_>, b: ObjPtr<'_>, depth: usize) -> bool {
    let (Some(a), Some(b)) = (a.downcast_ref::<SetObj>(), b.downcast_ref::<SetObj>()) else { return false };
    if TOO_DEEP.get() {
        return false;
    }
    if depth >= crate::object::MAX_DEPTH {
        // Frozensets nested past the cap: unequal, and so is every comparison around this one,
        // at once. A probe may meet the same key again after a failed comparison, so without
        // this each level would repeat the levels below it, as many times as its probe does.
        TOO_DEEP.set(true);
        return false;
    }
    let outermost = SET_COMPARISONS.replace(SET_COMPARISONS.get() + 1) == 0;
    let equal = {
        let (x, y) = (a.table.read_recursive(), b.table.read_recursive());
        x.len() == y.len() && x.is_subset_at(&y, depth)
    };
    SET_COMPARISONS.set(SET_COMPARISONS.get() - 1);
    if outermost {
        TOO_DEEP.set(false);
    }
    equal
}

thread_local! {
    /// How many set comparisons this thread is inside.
    static SET_COMPARISONS: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
    /// Set when a comparison of nested frozensets reached the depth cap, until the outermost
    /// set comparison ends.
    static TOO_DEEP: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

fn set_hash(o: ObjPtr<'_>, state: &mut dyn Hasher, depth: usize) {
    let Some(s) = o.downcast_ref::<SetObj>() else { return };
    // Order-independent, for the rare Rust caller that keys a dict by a set: equal sets may
    // lay their keys out differently.
    let fixed = foldhash::fast::FixedState::with_seed(5678);
    let t = s.table.read_recursive();
    let sum = t.entries().fold(0u64, |acc, (_, k)| {
        let mut h = fixed.build_hasher();
        hash_value(k.value(), &mut h, depth);
        acc.wrapping_add(h.finish())
    });
    state.write_usize(t.len());
    state.write_u64(sum);
}

fn set_repr(o: ObjPtr<'_>, f: &mut fmt::Formatter<'_>, depth: usize) -> fmt::Result {
    let Some(s) = o.downcast_ref::<SetObj>() else { return f.write_str("set()") };
    let t = s.table.read_recursive();
    if t.len() == 0 {
        return f.write_str(if s.frozen { "frozenset()" } else { "set()" });
    }
    let (open, close) = if s.frozen { ("frozenset(", ")") } else { ("", "") };
    write!(f, "{open}{{")?;
    for (i, (_, k)) in t.entries().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write_repr(k.value(), f, depth)?;
    }
    write!(f, "}}{close}")
}

/// A shared set of hashable any-values, in CPython's order.
#[derive(Clone)]
pub struct Set(ObjRef<SetObj>);

impl Set {
    /// An empty set.
    pub fn new() -> Self {
        Set::from_table(Table::default())
    }

    pub(crate) fn from_table(table: Table) -> Self {
        Set(ObjRef::new(SetObj { header: Object::blank(), table: RwLock::new(table), frozen: false }))
    }

    /// This set as a `frozenset`: marked in place when this handle is its only one (a set just
    /// built), else a copy of its table, so a set someone else holds never stops changing.
    pub fn into_frozen(mut self) -> Set {
        if let Some(obj) = self.0.get_mut() {
            obj.frozen = true;
            return self;
        }
        let table = self.read(Table::clone);
        Set(ObjRef::new(SetObj { header: Object::blank(), table: RwLock::new(table), frozen: true }))
    }

    /// Whether this is a `frozenset`.
    pub fn is_frozen(&self) -> bool {
        self.0.frozen
    }

    /// Runs `f` on the table, read-locked.
    pub(crate) fn read<R>(&self, f: impl FnOnce(&Table) -> R) -> R {
        f(&self.0.table.read_recursive())
    }

    /// Runs `f` on the table, write-locked (no lock when this handle is the only one).
    pub(crate) fn write<R>(&mut self, f: impl FnOnce(&mut Table) -> R) -> R {
        match self.0.get_mut() {
            Some(obj) => f(obj.table.get_mut()),
            None => f(&mut self.0.table.write()),
        }
    }

    /// Number of keys.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are no keys.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether `key` is present; a `TypeError` when it is unhashable.
    pub fn contains<'a>(&self, key: impl Into<AnyView<'a>>) -> Result<bool> {
        self.0.contains(key.into())
    }

    /// Adds `key`; true when it was not there. A `TypeError` when it is unhashable.
    pub fn add(&mut self, key: impl Into<AnyValue>) -> Result<bool> {
        let key = key.into();
        // Hash before locking: hashing a list reads its items.
        let hash = py_hash(key.value())?;
        self.write(|t| t.add(key, hash))
    }

    /// Removes `key`; true when it was there.
    pub fn discard<'a>(&mut self, key: impl Into<AnyView<'a>>) -> Result<bool> {
        let key = key.into();
        let hash = lookup_hash(key.value())?;
        // The removed key is dropped after the lock is released.
        let removed = self.write(|t| t.discard(key.value(), hash));
        Ok(removed.is_some())
    }

    /// Removes and returns the key CPython's `set.pop()` would, if any.
    pub fn pop(&mut self) -> Option<AnyValue> {
        self.write(Table::pop)
    }

    /// Removes every key.
    pub fn clear(&mut self) {
        let old = self.write(Table::clear);
        drop(old);
    }

    /// A snapshot of the keys, in iteration order.
    pub fn items(&self) -> Vec<AnyValue> {
        self.read(|t| t.entries().map(|(_, k)| k.clone()).collect())
    }

    /// The key at or after slot `pos` and the slot to resume from, for iterators that walk the
    /// live table as CPython's set iterator does.
    pub fn next_from(&self, pos: usize) -> Option<(usize, AnyValue)> {
        self.read(|t| t.next_from(pos).map(|(next, k)| (next, k.clone())))
    }

    /// Adds every item of `items` in order.
    pub fn extend(&mut self, items: &[AnyValue]) -> Result<()> {
        self.update(&SetOperand::Items(items))
    }

    /// A copy, laid out as CPython's `set.copy()` lays it out.
    pub fn copy(&self) -> Result<Set> {
        Ok(Set::from_table(self.read(Table::copy)?))
    }

    /// `self.update(other)`.
    pub fn update(&mut self, other: &SetOperand<'_>) -> Result<()> {
        if other.is(self) {
            return Ok(());
        }
        other.with_other(|o| self.write(|t| t.update(o)))
    }

    /// `self | other`: a copy of this set updated with the other (just the copy when the other
    /// is this set, as in CPython's `set_or`).
    pub fn union(&self, other: &SetOperand<'_>) -> Result<Set> {
        let mut result = self.copy()?;
        if !other.is(self) {
            result.update(other)?;
        }
        Ok(result)
    }

    /// `self & other`.
    pub fn intersection(&self, other: &SetOperand<'_>) -> Result<Set> {
        if other.is(self) {
            return self.copy();
        }
        Ok(Set::from_table(other.with_other(|o| self.read(|t| t.intersection(o)))?))
    }

    /// `self &= other`: this set becomes the intersection (CPython swaps the tables).
    pub fn intersection_update(&mut self, other: &SetOperand<'_>) -> Result<()> {
        let result = self.intersection(other)?;
        self.take_keys(&result);
        Ok(())
    }

    /// Takes `other`'s keys and their layout, keeping where this set's `pop` looks next, as
    /// CPython's `set_swap_bodies` does for `intersection_update`.
    pub fn take_keys(&mut self, other: &Set) {
        let table = other.read(Table::clone);
        // The old keys are dropped after the lock is released.
        let old = self.write(|t| t.replace_keys(table));
        drop(old);
    }

    /// `self - other`.
    pub fn difference(&self, other: &SetOperand<'_>) -> Result<Set> {
        if other.is(self) {
            return Ok(Set::new());
        }
        Ok(Set::from_table(other.with_other(|o| self.read(|t| t.difference(o)))?))
    }

    /// `self -= other`.
    pub fn difference_update(&mut self, other: &SetOperand<'_>) -> Result<()> {
        if other.is(self) {
            self.clear();
            return Ok(());
        }
        other.with_other(|o| self.write(|t| t.difference_update(o)))
    }

    /// `self ^ other`.
    pub fn symmetric_difference(&self, other: &SetOperand<'_>) -> Result<Set> {
        Ok(Set::from_table(other.with_other(|o| self.read(|t| t.symmetric_difference(o)))?))
    }

    /// `self ^= other`.
    pub fn symmetric_difference_update(&mut self, other: &SetOperand<'_>) -> Result<()> {
        if other.is(self) {
            self.clear();
            return Ok(());
        }
        other.with_other(|o| self.write(|t| t.symmetric_difference_update(o)))
    }

    /// `self <= other` for another set.
    pub fn is_subset(&self, other: &Set) -> bool {
        if self.ptr_eq(other) {
            return true;
        }
        let theirs = other.read(Table::clone);
        self.read(|t| t.is_subset(&theirs))
    }

    /// `self.isdisjoint(other)`.
    pub fn is_disjoint(&self, other: &SetOperand<'_>) -> Result<bool> {
        if other.is(self) {
            return Ok(self.is_empty());
        }
        other.with_other(|o| self.read(|t| t.is_disjoint(o)))
    }

    /// Whether every item of `items` is in this set (`issuperset` of a non-set).
    pub fn contains_all(&self, items: &[AnyValue]) -> Result<bool> {
        self.read(|t| t.contains_all(items))
    }

    /// Whether two handles share one set.
    pub fn ptr_eq(&self, other: &Set) -> bool {
        self.0.ptr_eq(&other.0)
    }

    /// The set as an any-value.
    pub fn into_any(self) -> AnyValue {
        self.into()
    }
}

/// The other operand of a set operation: a set, a dict's keys or an iterable's items.
pub enum SetOperand<'a> {
    /// A set.
    Set(&'a Set),
    /// A dict's keys, in order.
    DictKeys(&'a [AnyValue]),
    /// The items of any other iterable, in order.
    Items(&'a [AnyValue]),
}

impl SetOperand<'_> {
    fn is(&self, set: &Set) -> bool {
        matches!(self, SetOperand::Set(s) if s.ptr_eq(set))
    }

    /// Runs `f` on the operand as the table algorithms read it; another set's table is copied
    /// first, so that no two locks are ever held at once.
    fn with_other<R>(&self, f: impl FnOnce(&Other<'_>) -> R) -> R {
        match self {
            SetOperand::Set(s) => f(&Other::Set(&s.read(Table::clone))),
            SetOperand::DictKeys(keys) => f(&Other::Dict(keys)),
            SetOperand::Items(items) => f(&Other::Items(items)),
        }
    }
}

impl Default for Set {
    fn default() -> Self {
        Self::new()
    }
}

impl FromAny for Set {
    fn type_name() -> String {
        "set".into()
    }
    fn from_value(v: Value<'_>) -> Option<Self> {
        v.as_obj().and_then(|o| o.to_owned_as::<SetObj>()).map(Set)
    }
}
crate::impl_try_from_any!(Set, Option<Set>);

impl<const N: usize> From<Set> for AnyPad<N> {
    fn from(s: Set) -> Self {
        AnyPad::from_object(s.0)
    }
}

impl<'a> From<&'a Set> for AnyView<'a> {
    fn from(s: &'a Set) -> Self {
        AnyView::from_obj(&s.0)
    }
}

impl PartialEq for Set {
    fn eq(&self, other: &Self) -> bool {
        values_equal(AnyView::from(self).value(), AnyView::from(other).value(), 0)
    }
}

impl fmt::Debug for Set {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        set_repr(self.0.as_obj_ptr(), f, 0)
    }
}
