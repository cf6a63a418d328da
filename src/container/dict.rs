//! `Dict`: an insertion-ordered map from any-value to any-value, shared like a Python dict.

use crate::any::type_index::DICT;
use crate::any::{AnyPad, AnyValue, AnyView, FromAny, Value, hash_value, values_equal, write_repr};
use crate::error::{Error, ErrorKind, Result};
use crate::object::{ObjPtr, ObjRef, Object, ObjectType, TypeHooks};
use indexmap::map::RawEntryApiV1;
use indexmap::map::raw_entry_v1::RawEntryMut;
use indexmap::{Equivalent, IndexMap};
use parking_lot::RwLock;
use std::cell::Cell;
use std::fmt;
use std::hash::{BuildHasher, Hasher};

type Map = IndexMap<AnyValue, AnyValue, foldhash::fast::RandomState>;

/// The heap object behind a `Dict`.
#[repr(C)]
pub struct DictObj {
    header: Object,
    /// The map's hasher, also kept outside the lock so keys are hashed before locking.
    hasher: foldhash::fast::RandomState,
    map: RwLock<Map>,
    /// Which of Python's dict types this is; fixed when the dict is made.
    kind: DictKind,
}

/// Python's dict and its subclasses from `collections`, which differ in what a missing key
/// gives (`__missing__`), in their repr and in a few methods.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum DictKind {
    /// `dict`.
    #[default]
    Plain,
    /// `collections.Counter`: a missing key counts 0, and is not added.
    Counter,
    /// `collections.defaultdict(factory)`: a missing key is added with `factory()`; a factory
    /// of `None` leaves it a `KeyError`.
    Default(AnyValue),
    /// `collections.OrderedDict`: equality between two of them minds the order, and entries
    /// can be moved to either end.
    Ordered,
}

thread_local! {
    /// The dict this thread holds the write lock of, if any.
    static WRITING: Cell<usize> = const { Cell::new(0) };
}

/// Marks a dict as write-locked by this thread for the guard's lifetime.
///
/// Rationale: comparing keys under the write lock can reach the same dict again
/// (a key that contains the dict); the hooks then treat it as opaque instead of
/// taking its lock a second time, which would deadlock.
struct WritingGuard(usize);

impl WritingGuard {
    fn enter(obj: &DictObj) -> Self {
        let prev = WRITING.with(|w| w.replace(obj as *const DictObj as usize));
        WritingGuard(prev)
    }
}

impl Drop for WritingGuard {
    fn drop(&mut self) {
        WRITING.with(|w| w.set(self.0));
    }
}

fn written_by_this_thread(obj: &DictObj) -> bool {
    WRITING.with(|w| w.get() == obj as *const DictObj as usize)
}

static DICT_HOOKS: TypeHooks = TypeHooks { eq: dict_eq, hash: dict_hash, repr: dict_repr };

// SAFETY: repr(C) with the header first.
unsafe impl ObjectType for DictObj {
    const TYPE_KEY: &'static str = "object.Dict";
    const HOOKS: Option<&'static TypeHooks> = Some(&DICT_HOOKS);
    fn type_index() -> i32 {
        DICT
    }
}

/// Lets a borrowed view look up an owned key without building one.
impl Equivalent<AnyValue> for AnyView<'_> {
    fn equivalent(&self, key: &AnyValue) -> bool {
        key == self
    }
}

impl DictObj {
    /// Which of Python's dict types this is.
    pub fn kind(&self) -> &DictKind {
        &self.kind
    }

    fn with_map<R>(&self, f: impl FnOnce(&Map) -> R) -> R {
        f(&self.map.read_recursive())
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.with_map(Map::len)
    }

    /// Whether there are no entries.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether `key` is present, read where the dict stands, with no handle made.
    pub fn contains_key(&self, key: AnyView<'_>) -> bool {
        self.with_map(|m| m.contains_key(&key))
    }

    /// The value for `key`, read where the dict stands, with no handle made (`d.get(k)`).
    pub fn get(&self, key: AnyView<'_>) -> Option<AnyValue> {
        self.with_map(|m| m.get(&key).cloned())
    }

    /// [`Dict::try_set`] on the dict where it stands, under its write lock, with no handle
    /// made (`d[k] = v`); returns the value replaced, to be dropped once the lock is released.
    pub fn try_set(&self, key: AnyValue, value: AnyValue, what: &str) -> Result<Option<AnyValue>> {
        let hash = self.hasher.hash_one(&key);
        // Only an object key can reach this dict again while compared (see `mutate_for_key`).
        let _writing = key.value().as_obj().is_some().then(|| WritingGuard::enter(self));
        try_insert(&mut self.map.write(), hash, key, value, what)
    }
}

/// Inserts or replaces `key` (of `hash`) in `m`: a `MemoryError` naming `what`, the map
/// unchanged, when the allocator refuses the room for a new entry.
fn try_insert(m: &mut Map, hash: u64, key: AnyValue, value: AnyValue, what: &str) -> Result<Option<AnyValue>> {
    if m.len() == m.capacity() {
        m.try_reserve(1).map_err(|_| {
            // An entry and its index slot: the table doubles, as amortized growth does.
            let per_entry = std::mem::size_of::<(u64, AnyValue, AnyValue)>() + std::mem::size_of::<usize>();
            Error::out_of_memory(what, m.capacity().max(1).saturating_mul(2).saturating_mul(per_entry))
        })?;
    }
    Ok(match m.raw_entry_mut_v1().from_hash(hash, |k| k == &key) {
        RawEntryMut::Occupied(mut e) => Some(e.insert(value)),
        RawEntryMut::Vacant(e) => {
            e.insert_hashed_nocheck(hash, key, value);
            None
        }
    })
}

fn dict_eq(a: ObjPtr<'_>, b: ObjPtr<'_>, depth: usize) -> bool {
    let (Some(a), Some(b)) = (a.downcast_ref::<DictObj>(), b.downcast_ref::<DictObj>()) else { return false };
    if written_by_this_thread(a) || written_by_this_thread(b) {
        // Distinct objects (identity was checked first), one of them mid-update: not equal.
        return false;
    }
    if a.kind == DictKind::Counter && b.kind == DictKind::Counter {
        return a.with_map(|x| b.with_map(|y| counts_equal(x, y, depth) && counts_equal(y, x, depth)));
    }
    if a.kind == DictKind::Ordered && b.kind == DictKind::Ordered {
        // `OrderedDict.__eq__`: the same entries in the same order.
        return a.with_map(|x| {
            b.with_map(|y| {
                x.len() == y.len()
                    && x.iter().zip(y.iter()).all(|((k, v), (l, w))| {
                        values_equal(k.value(), l.value(), depth) && values_equal(v.value(), w.value(), depth)
                    })
            })
        });
    }
    a.with_map(|x| {
        b.with_map(|y| {
            x.len() == y.len()
                && x.iter().all(|(k, v)| y.get(&k.view()).is_some_and(|w| values_equal(v.value(), w.value(), depth)))
        })
    })
}

/// Whether every count of `x` is the same in `y`, a missing one counting 0: two Counters are
/// equal when they agree on every key of either (Python 3.10's `Counter.__eq__`).
fn counts_equal(x: &Map, y: &Map, depth: usize) -> bool {
    let zero = AnyValue::from_int(0);
    x.iter().all(|(k, v)| values_equal(v.value(), y.get(&k.view()).unwrap_or(&zero).value(), depth))
}

fn dict_hash(o: ObjPtr<'_>, state: &mut dyn Hasher, depth: usize) {
    let Some(d) = o.downcast_ref::<DictObj>() else { return };
    if written_by_this_thread(d) {
        state.write_u8(0xd1);
        return;
    }
    // Order-independent: equal dicts may list their entries in different orders.
    // A fixed-key hasher per entry keeps the sum deterministic across dicts.
    let fixed = foldhash::fast::FixedState::with_seed(1234);
    // A Counter's zero counts do not take part in its equality, so not in its hash either.
    let counted = |v: &AnyValue| d.kind != DictKind::Counter || !values_equal(v.value(), Value::Int(0), depth);
    d.with_map(|m| {
        let sum = m.iter().filter(|(_, v)| counted(v)).fold(0u64, |acc, (k, v)| {
            let mut h = fixed.build_hasher();
            hash_value(k.value(), &mut h, depth);
            hash_value(v.value(), &mut h, depth);
            acc.wrapping_add(h.finish())
        });
        state.write_usize(m.values().filter(|v| counted(v)).count());
        state.write_u64(sum);
    })
}

fn dict_repr(o: ObjPtr<'_>, f: &mut fmt::Formatter<'_>, depth: usize) -> fmt::Result {
    let Some(d) = o.downcast_ref::<DictObj>() else { return f.write_str("{}") };
    if written_by_this_thread(d) {
        return f.write_str("{...}");
    }
    d.with_map(|m| {
        f.write_str("{")?;
        for (i, (k, v)) in m.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write_repr(k.value(), f, depth)?;
            f.write_str(": ")?;
            write_repr(v.value(), f, depth)?;
        }
        f.write_str("}")
    })
}

/// A shared, insertion-ordered dict of any-values.
#[derive(Clone)]
pub struct Dict(ObjRef<DictObj>);

impl Dict {
    /// An empty dict.
    pub fn new() -> Self {
        Self::with_kind(DictKind::Plain)
    }

    /// An empty dict of the given kind (a `Counter`, a `defaultdict`).
    pub fn with_kind(kind: DictKind) -> Self {
        let hasher = foldhash::fast::RandomState::default();
        let map = RwLock::new(Map::with_hasher(hasher.clone()));
        Dict(ObjRef::new(DictObj { header: Object::blank(), hasher, map, kind }))
    }

    /// Which of Python's dict types this is.
    pub fn kind(&self) -> &DictKind {
        &self.0.kind
    }

    #[inline]
    fn mutate<R>(&mut self, f: impl FnOnce(&mut Map) -> R) -> R {
        match self.0.get_mut() {
            Some(obj) => f(obj.map.get_mut()),
            None => {
                let _writing = WritingGuard::enter(&self.0);
                f(&mut self.0.map.write())
            }
        }
    }

    /// [`mutate`](Self::mutate) for a change that compares a key with the keys: only an
    /// object key can reach this dict again while compared (values of different kinds are
    /// unequal without a hook), so any other key skips the guard's thread-local.
    #[inline]
    fn mutate_for_key<R>(&mut self, object_key: bool, f: impl FnOnce(&mut Map) -> R) -> R {
        if object_key {
            return self.mutate(f);
        }
        match self.0.get_mut() {
            Some(obj) => f(obj.map.get_mut()),
            None => f(&mut self.0.map.write()),
        }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are no entries.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The value for `key`, if present.
    pub fn get<'a>(&self, key: impl Into<AnyView<'a>>) -> Option<AnyValue> {
        let key = key.into();
        self.0.with_map(|m| m.get(&key).cloned())
    }

    /// The `index`-th entry in insertion order, if there is one.
    pub fn item_at(&self, index: usize) -> Option<(AnyValue, AnyValue)> {
        self.0.with_map(|m| m.get_index(index).map(|(k, v)| (k.clone(), v.clone())))
    }

    /// The value for `key`, or a key error naming it.
    pub fn get_item<'a>(&self, key: impl Into<AnyView<'a>>) -> Result<AnyValue> {
        let key = key.into();
        self.get(key).ok_or_else(|| Error::new(ErrorKind::Key, format!("key {key:?} not found")))
    }

    /// Inserts or replaces; a new key goes last, a replaced one keeps its place.
    pub fn set(&mut self, key: impl Into<AnyValue>, value: impl Into<AnyValue>) -> Option<AnyValue> {
        let (key, value) = (key.into(), value.into());
        // Hash before locking: hashing may read other containers, even this one.
        let hash = self.0.hasher.hash_one(&key);
        self.mutate_for_key(key.value().as_obj().is_some(), |m| {
            match m.raw_entry_mut_v1().from_hash(hash, |k| k == &key) {
                RawEntryMut::Occupied(mut e) => Some(e.insert(value)),
                RawEntryMut::Vacant(e) => {
                    e.insert_hashed_nocheck(hash, key, value);
                    None
                }
            }
        })
    }

    /// As [`set`](Self::set), but a `MemoryError` naming `what` (the dict unchanged) when the
    /// allocator refuses the room for a new entry, for dicts that grow as input directs.
    pub fn try_set(&mut self, key: AnyValue, value: AnyValue, what: &str) -> Result<Option<AnyValue>> {
        let hash = self.0.hasher.hash_one(&key);
        self.mutate_for_key(key.value().as_obj().is_some(), |m| try_insert(m, hash, key, value, what))
    }

    /// Removes `key`, keeping the order of the rest; returns its value.
    pub fn remove<'a>(&mut self, key: impl Into<AnyView<'a>>) -> Option<AnyValue> {
        let key = key.into();
        let hash = self.0.hasher.hash_one(key);
        self.mutate_for_key(key.value().as_obj().is_some(), |m| {
            match m.raw_entry_mut_v1().from_hash(hash, |k| key.equivalent(k)) {
                RawEntryMut::Occupied(e) => Some(e.shift_remove()),
                RawEntryMut::Vacant(_) => None,
            }
        })
    }

    /// Removes the entry added last and returns it (`dict.popitem()`), if there is one.
    pub fn pop_last(&mut self) -> Option<(AnyValue, AnyValue)> {
        self.mutate(|m| m.pop())
    }

    /// Removes the entry added first and returns it (`OrderedDict.popitem(last=False)`), if
    /// there is one; O(n), as the rest shift down.
    pub fn pop_first(&mut self) -> Option<(AnyValue, AnyValue)> {
        self.mutate(|m| m.shift_remove_index(0))
    }

    /// Moves `key`'s entry to the end, or to the front when `last` is false
    /// (`OrderedDict.move_to_end`); false when `key` is absent. O(n), as the entries between
    /// shift.
    pub fn move_to_end<'a>(&mut self, key: impl Into<AnyView<'a>>, last: bool) -> bool {
        let key = key.into();
        let hash = self.0.hasher.hash_one(key);
        self.mutate_for_key(key.value().as_obj().is_some(), |m| {
            let Some(from) = m.raw_entry_v1().index_from_hash(hash, |k| key.equivalent(k)) else { return false };
            let to = if last { m.len() - 1 } else { 0 };
            m.move_index(from, to);
            true
        })
    }

    /// Removes every entry.
    pub fn clear(&mut self) {
        // The old entries are dropped after the lock is released; the map keeps its hasher,
        // which must stay the one `set` hashes with.
        let old: Vec<(AnyValue, AnyValue)> = self.mutate(|m| m.drain(..).collect());
        drop(old);
    }

    /// Whether `key` is present.
    pub fn contains_key<'a>(&self, key: impl Into<AnyView<'a>>) -> bool {
        let key = key.into();
        self.0.with_map(|m| m.contains_key(&key))
    }

    /// A snapshot of the keys, in insertion order.
    pub fn keys(&self) -> Vec<AnyValue> {
        self.0.with_map(|m| m.keys().cloned().collect())
    }

    /// A snapshot of the values, in insertion order.
    pub fn values(&self) -> Vec<AnyValue> {
        self.0.with_map(|m| m.values().cloned().collect())
    }

    /// A snapshot of the entries, in insertion order.
    pub fn items(&self) -> Vec<(AnyValue, AnyValue)> {
        self.0.with_map(|m| m.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
    }

    /// Inserts every entry of `iter`.
    pub fn extend<K: Into<AnyValue>, V: Into<AnyValue>>(&mut self, iter: impl IntoIterator<Item = (K, V)>) {
        for (k, v) in iter {
            self.set(k, v);
        }
    }

    /// Whether two handles share one dict.
    pub fn ptr_eq(&self, other: &Dict) -> bool {
        self.0.ptr_eq(&other.0)
    }

    /// The dict as an any-value.
    pub fn into_any(self) -> AnyValue {
        self.into()
    }
}

impl Default for Dict {
    fn default() -> Self {
        Self::new()
    }
}

impl<K: Into<AnyValue>, V: Into<AnyValue>> FromIterator<(K, V)> for Dict {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        let mut d = Dict::new();
        d.extend(iter);
        d
    }
}

impl FromAny for Dict {
    fn type_name() -> String {
        "dict".into()
    }
    fn from_value(v: Value<'_>) -> Option<Self> {
        v.as_obj().and_then(|o| o.to_owned_as::<DictObj>()).map(Dict)
    }
}
crate::impl_try_from_any!(Dict, Option<Dict>);

impl<const N: usize> From<Dict> for AnyPad<N> {
    fn from(d: Dict) -> Self {
        AnyPad::from_object(d.0)
    }
}

impl<'a> From<&'a Dict> for AnyView<'a> {
    fn from(d: &'a Dict) -> Self {
        AnyView::from_obj(&d.0)
    }
}

impl PartialEq for Dict {
    fn eq(&self, other: &Self) -> bool {
        dict_eq(self.0.as_obj_ptr(), other.0.as_obj_ptr(), 0)
    }
}

impl fmt::Debug for Dict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        dict_repr(self.0.as_obj_ptr(), f, 0)
    }
}
