//! `List`: a growable list of `AnyValue`, shared by reference like a Python list.

use super::ListCursor;
use crate::any::type_index::{LIST, TUPLE};
use crate::any::{AnyPad, AnyValue, AnyView, FromAny, Value, clear_values, hash_value, values_equal, write_repr};
use crate::error::{Result, ResultExt};
use crate::object::{ObjPtr, ObjRef, Object, ObjectType, Recycle, RecycleBin, TypeHooks};
use crate::string::{normalize_index, normalize_range};
use parking_lot::{RwLock, RwLockWriteGuard};
use std::fmt;
use std::hash::Hasher;
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread::LocalKey;

/// The heap object behind a `List`.
#[repr(C)]
pub struct ListObj {
    header: Object,
    // Rationale: lists are shared across threads (rayon workers), so mutation through a
    // shared handle needs a lock; unshared handles bypass it (see `List::push`).
    items: RwLock<Vec<AnyValue>>,
    /// Moves on with every write through the lock, so that a reader holding copies of items
    /// read ahead (a [`ListCursor`](super::ListCursor)) can tell they are still current without
    /// taking the lock again.
    version: AtomicU64,
}

static LIST_HOOKS: TypeHooks = TypeHooks { eq: list_eq, hash: list_hash, repr: list_repr };

// SAFETY: repr(C) with the header first.
unsafe impl ObjectType for ListObj {
    const TYPE_KEY: &'static str = "object.List";
    const HOOKS: Option<&'static TypeHooks> = Some(&LIST_HOOKS);
    fn type_index() -> i32 {
        LIST
    }
}

/// Lists kept per thread for reuse; buffers larger than this are freed instead.
const RECYCLED_LISTS: usize = 256;
const RECYCLED_MAX_CAPACITY: usize = 1024;

impl Recycle for ListObj {
    #[inline]
    fn reset(&mut self) -> bool {
        let items = self.items.get_mut();
        clear_values(items);
        items.capacity() <= RECYCLED_MAX_CAPACITY
    }
    fn bin() -> &'static LocalKey<RecycleBin<Self>> {
        thread_local! {
            static BIN: RecycleBin<ListObj> = const { RecycleBin::new(RECYCLED_LISTS) };
        }
        &BIN
    }
}

impl ListObj {
    pub(super) fn holding(items: Vec<AnyValue>) -> Self {
        ListObj { header: Object::blank(), items: RwLock::new(items), version: AtomicU64::new(0) }
    }

    /// The items under the write lock, the version moved on first.
    ///
    /// Writes through the unshared path (`get_mut`) leave the version alone: a cursor holds a
    /// handle of its own, so while one exists the list is never unshared.
    #[inline]
    fn write(&self) -> RwLockWriteGuard<'_, Vec<AnyValue>> {
        let guard = self.items.write();
        // Writers are serialized by the lock, so a load and a store are enough.
        self.version.store(self.version.load(Ordering::Relaxed) + 1, Ordering::Relaxed);
        guard
    }

    /// The number of writes through the lock so far (see [`Self::write`]).
    #[inline(always)]
    pub(super) fn version(&self) -> u64 {
        self.version.load(Ordering::Relaxed)
    }

    /// Runs `f` over the items and the version they are at, under a read lock.
    #[inline]
    pub(super) fn with_versioned_items<R>(&self, f: impl FnOnce(&[AnyValue], u64) -> R) -> R {
        let items = self.items.read_recursive();
        f(&items, self.version())
    }

    /// Number of items.
    pub fn len(&self) -> usize {
        self.items.read_recursive().len()
    }

    /// Whether there are no items.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Runs `f` over the items under a read lock.
    pub fn with_items<R>(&self, f: impl FnOnce(&[AnyValue]) -> R) -> R {
        f(&self.items.read_recursive())
    }
}

pub(super) fn list_eq(a: ObjPtr<'_>, b: ObjPtr<'_>, depth: usize) -> bool {
    let (Some(a), Some(b)) = (a.downcast_ref::<ListObj>(), b.downcast_ref::<ListObj>()) else { return false };
    a.with_items(|xs| {
        b.with_items(|ys| {
            xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| values_equal(x.value(), y.value(), depth))
        })
    })
}

pub(super) fn list_hash(o: ObjPtr<'_>, state: &mut dyn Hasher, depth: usize) {
    if let Some(l) = o.downcast_ref::<ListObj>() {
        l.with_items(|xs| {
            state.write_usize(xs.len());
            xs.iter().for_each(|x| hash_value(x.value(), state, depth));
        })
    }
}

fn list_repr(o: ObjPtr<'_>, f: &mut fmt::Formatter<'_>, depth: usize) -> fmt::Result {
    let Some(l) = o.downcast_ref::<ListObj>() else { return f.write_str("[]") };
    l.with_items(|xs| write_items(xs, f, depth, ["[", "]"]))
}

/// Writes `items` as Python's repr does between `brackets`, `", "` apart.
pub(super) fn write_items(
    items: &[AnyValue],
    f: &mut fmt::Formatter<'_>,
    depth: usize,
    [open, close]: [&str; 2],
) -> fmt::Result {
    f.write_str(open)?;
    for (i, x) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write_repr(x.value(), f, depth)?;
    }
    f.write_str(close)
}

/// Runs `f` on the items of the list held in `slot`, lock-free when the slot holds the only
/// reference; `None` when the slot holds no list (a tuple is not one here: it cannot change).
///
/// This is how the interpreter changes a list in a register (`list.append`, an append loop run
/// as one extend): it works on the register itself, so it costs no reference-count traffic.
/// When the list is shared, `f` runs under its write lock, so it must not read this list
/// through another handle.
#[inline]
pub fn items_in_slot<const N: usize, R>(slot: &mut AnyPad<N>, f: impl FnOnce(&mut Vec<AnyValue>) -> R) -> Option<R> {
    Some(match list_in_slot(slot, false)? {
        SlotList::Only(items) => f(items),
        SlotList::Shared(list) => f(&mut list.write()),
    })
}

/// The length of the list held in `slot`, lock-free when the slot holds the only reference
/// (`len(f(x))` of a list `f` just made); `None` when the slot holds no list.
#[inline]
pub fn list_len_in_slot<const N: usize>(slot: &mut AnyPad<N>) -> Option<usize> {
    Some(match list_in_slot(slot, true)? {
        SlotList::Only(items) => items.len(),
        SlotList::Shared(list) => list.len(),
    })
}

/// The list a slot holds: its items when the slot holds the only reference, else the list.
enum SlotList<'s> {
    Only(&'s mut Vec<AnyValue>),
    Shared(&'s ListObj),
}

/// The list held in `slot`, if any (see [`SlotList`]); a tuple too when `tuples` (for what only
/// reads it: a tuple must not change).
#[inline(always)]
fn list_in_slot<const N: usize>(slot: &mut AnyPad<N>, tuples: bool) -> Option<SlotList<'_>> {
    let obj = slot.as_obj()?;
    // The exact type first: a range check through the type registry costs more than a push.
    let list_like = match obj.type_index() {
        LIST => true,
        TUPLE => tuples,
        _ => obj.is::<ListObj>(),
    };
    if !list_like {
        return None;
    }
    let ptr = obj.as_raw().cast::<ListObj>();
    // Acquire pairs with the Release of other handles' drops, as in `ObjRef::get_mut`.
    if obj.header().ref_count.load(Ordering::Acquire) == 1 {
        // SAFETY: the object is a `ListObj` (checked above); the slot holds the only reference and
        // we borrow the slot mutably for as long as the result lives, so no other handle or
        // borrow of the list exists (the same argument as `ObjRef::get_mut`).
        Some(SlotList::Only(unsafe { (*ptr.as_ptr()).items.get_mut() }))
    } else {
        // SAFETY: the object is a `ListObj` (checked above), kept alive by the slot, which is
        // borrowed for as long as the result lives.
        Some(SlotList::Shared(unsafe { ptr.as_ref() }))
    }
}

/// Makes room in `items` for `additional` more, growing geometrically as `Vec::reserve` does,
/// or a `MemoryError` naming `what` and the bytes asked for when the allocator refuses.
///
/// Rationale: a list a script grows without bound (a loop of appends, `xs += xs`) must end in
/// Python's `MemoryError`, not in the abort that `Vec`'s infallible growth takes on refusal.
#[inline]
pub fn try_reserve_items<T>(items: &mut Vec<T>, additional: usize, what: &str) -> Result<()> {
    if items.capacity() - items.len() >= additional {
        return Ok(());
    }
    items.try_reserve(additional).map_err(|_| {
        // What amortized growth asks for: the larger of double the room and what is needed.
        let wanted = items.len().saturating_add(additional).max(items.capacity().saturating_mul(2));
        crate::Error::out_of_memory(what, wanted.saturating_mul(std::mem::size_of::<T>()))
    })
}

/// A shared, growable list of any-values.
#[derive(Clone)]
pub struct List(pub(super) ObjRef<ListObj>);

impl List {
    /// An empty list.
    pub fn new() -> Self {
        Self::from_vec(Vec::new())
    }

    /// An empty list with room for `n` items (reusing a recycled buffer when one is at hand).
    #[inline]
    pub fn with_capacity(n: usize) -> Self {
        List(ObjRef::new_recycled(|| ListObj::holding(Vec::with_capacity(n)), |o| o.items.get_mut().reserve(n)))
    }

    /// A list owning `items`.
    pub fn from_vec(items: Vec<AnyValue>) -> Self {
        // Exactly one of the two closures runs, and takes the vector.
        let items = std::cell::Cell::new(items);
        List(ObjRef::new_recycled(|| ListObj::holding(items.take()), |o| *o.items.get_mut() = items.take()))
    }

    /// Runs `f` with mutable access to the items: lock-free when this handle is the only one.
    ///
    /// The way to fill a list in a loop: one ownership check for the whole loop instead of one
    /// per `push`. When the list is shared, `f` runs under its write lock, so it must not read
    /// the list through another handle (it would wait for itself).
    #[inline]
    pub fn with_items_mut<R>(&mut self, f: impl FnOnce(&mut Vec<AnyValue>) -> R) -> R {
        match self.0.get_mut() {
            Some(obj) => f(obj.items.get_mut()),
            None => self.with_items_locked(f),
        }
    }

    /// `with_items_mut` for a shared list; out of line, so that the owned path is the only
    /// place `f` is inlined into (a fill loop then compiles into its caller).
    #[inline(never)]
    fn with_items_locked<R>(&self, f: impl FnOnce(&mut Vec<AnyValue>) -> R) -> R {
        f(&mut self.0.write())
    }

    /// Number of items.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are no items.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The item at `index` (negative counts from the end).
    pub fn get(&self, index: i64) -> Result<AnyValue> {
        self.0.with_items(|xs| Ok(xs[normalize_index(index, xs.len())?].clone()))
    }

    /// Replaces the item at `index` (negative counts from the end).
    pub fn set(&mut self, index: i64, value: impl Into<AnyValue>) -> Result<()> {
        let value = value.into();
        // The old item is dropped after the lock is released, in case it is a list too.
        let old = self.with_items_mut(|xs| {
            let i = normalize_index(index, xs.len())?;
            Ok::<_, crate::Error>(std::mem::replace(&mut xs[i], value))
        })?;
        drop(old);
        Ok(())
    }

    /// Appends an item; a wide `AnyPad` moves to the heap only if its string does not fit.
    #[inline(always)]
    pub fn push(&mut self, value: impl Into<AnyValue>) {
        let value = value.into();
        // Written out rather than through `with_items_mut`: this is the inner loop of list building,
        // and the closure kept it from inlining across crates.
        match self.0.get_mut() {
            Some(obj) => obj.items.get_mut().push(value),
            None => self.push_shared(value),
        }
    }

    #[inline(never)]
    fn push_shared(&self, value: AnyValue) {
        self.0.write().push(value)
    }

    /// Removes and returns the last item.
    pub fn pop(&mut self) -> Result<AnyValue> {
        self.with_items_mut(|xs| xs.pop())
            .ok_or_else(|| crate::Error::index_out_of_range(-1, 0).context("pop from empty list"))
    }

    /// Inserts `value` before `index` (clamped, as Python's `list.insert`).
    pub fn insert(&mut self, index: i64, value: impl Into<AnyValue>) {
        let value = value.into();
        self.with_items_mut(|xs| {
            let at = normalize_range(Some(index), None, xs.len()).start;
            xs.insert(at, value)
        })
    }

    /// As [`push`](Self::push), but a `MemoryError` naming `what` when the allocator refuses
    /// the list's growth, for lists that grow as input directs (`xs.append(x)` in a script).
    pub fn try_push(&mut self, value: AnyValue, what: &str) -> Result<()> {
        self.with_items_mut(|items| {
            try_reserve_items(items, 1, what)?;
            items.push(value);
            Ok(())
        })
    }

    /// As [`insert`](Self::insert), but a `MemoryError` naming `what` when the list cannot grow.
    pub fn try_insert(&mut self, index: i64, value: AnyValue, what: &str) -> Result<()> {
        self.with_items_mut(|xs| {
            try_reserve_items(xs, 1, what)?;
            let at = normalize_range(Some(index), None, xs.len()).start;
            xs.insert(at, value);
            Ok(())
        })
    }

    /// Appends `items`, or a `MemoryError` naming `what` (the list unchanged) when the allocator
    /// refuses the room for them.
    pub fn try_extend(&mut self, items: Vec<AnyValue>, what: &str) -> Result<()> {
        self.with_items_mut(|xs| {
            try_reserve_items(xs, items.len(), what)?;
            xs.extend(items);
            Ok(())
        })
    }

    /// Appends every item of `iter`.
    pub fn extend<T: Into<AnyValue>>(&mut self, iter: impl IntoIterator<Item = T>) {
        match self.0.get_mut() {
            // The only handle: the iterator cannot reach this list, so it fills it directly.
            Some(obj) => obj.items.get_mut().extend(iter.into_iter().map(Into::into)),
            // Shared: the iterator might read this list, so it runs before the write lock.
            None => {
                let items: Vec<AnyValue> = iter.into_iter().map(Into::into).collect();
                self.0.write().extend(items)
            }
        }
    }

    /// Removes every item.
    pub fn clear(&mut self) {
        let old = self.with_items_mut(std::mem::take);
        drop(old);
    }

    /// Whether some item equals `needle` (by value).
    pub fn contains<'a>(&self, needle: impl Into<AnyView<'a>>) -> bool {
        self.index_of(needle).is_some()
    }

    /// The position of the first item equal to `needle`.
    pub fn index_of<'a>(&self, needle: impl Into<AnyView<'a>>) -> Option<usize> {
        let needle = needle.into();
        self.0.with_items(|xs| xs.iter().position(|x| values_equal(x.value(), needle.value(), 0)))
    }

    /// A new list with the items `start..stop` (Python slice rules, step 1).
    pub fn slice(&self, start: Option<i64>, stop: Option<i64>) -> List {
        self.0.with_items(|xs| List::from_vec(xs[normalize_range(start, stop, xs.len())].to_vec()))
    }

    /// A snapshot of the items.
    pub fn to_vec(&self) -> Vec<AnyValue> {
        self.0.with_items(<[AnyValue]>::to_vec)
    }

    /// The items unboxed as `T`; the error names the first bad index.
    pub fn to_vec_of<T: FromAny>(&self) -> Result<Vec<T>> {
        self.0.with_items(|xs| {
            xs.iter().enumerate().map(|(i, x)| x.get::<T>().with_context(|| format!("list item {i}"))).collect()
        })
    }

    /// Iterates over clones of the items, by index (so concurrent pushes are seen, as in Python).
    pub fn iter(&self) -> ListCursor {
        ListCursor::new(self.clone())
    }

    /// Runs `f` over the items under a read lock, without cloning them.
    pub fn with_items<R>(&self, f: impl FnOnce(&[AnyValue]) -> R) -> R {
        self.0.with_items(f)
    }

    /// How many handles (and values) hold this list now; racy unless it is 1 or the
    /// caller knows every other holder.
    pub fn handle_count(&self) -> u32 {
        self.0.strong_count()
    }

    /// Whether two handles share one list.
    pub fn ptr_eq(&self, other: &List) -> bool {
        self.0.ptr_eq(&other.0)
    }

    /// The list as an any-value.
    pub fn into_any(self) -> AnyValue {
        self.into()
    }
}

impl Default for List {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Into<AnyValue>> FromIterator<T> for List {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        List::from_vec(iter.into_iter().map(Into::into).collect())
    }
}

impl<T: Into<AnyValue>> From<Vec<T>> for List {
    fn from(v: Vec<T>) -> Self {
        v.into_iter().collect()
    }
}

impl FromAny for List {
    fn type_name() -> String {
        "list".into()
    }
    fn from_value(v: Value<'_>) -> Option<Self> {
        v.as_obj().and_then(|o| o.to_owned_as::<ListObj>()).map(List)
    }
}
crate::impl_try_from_any!(List, Option<List>);

impl<const N: usize> From<List> for AnyPad<N> {
    fn from(l: List) -> Self {
        AnyPad::from_object(l.0)
    }
}

impl<'a> From<&'a List> for AnyView<'a> {
    fn from(l: &'a List) -> Self {
        AnyView::from_obj(&l.0)
    }
}

impl PartialEq for List {
    fn eq(&self, other: &Self) -> bool {
        list_eq(self.0.as_obj_ptr(), other.0.as_obj_ptr(), 0)
    }
}

impl fmt::Debug for List {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        list_repr(self.0.as_obj_ptr(), f, 0)
    }
}
