//! A variable shared between a function and the functions nested in it: CPython's cell.
//!
//! A variable that a nested function assigns (`nonlocal n`) or reads after the enclosing
//! function may have assigned it again lives in a cell, which the enclosing function and every
//! nested function made in it hold alike, so each sees the others' assignments, as in Python.
//! The compiler decides which variables need one (`compile/cells.rs`); the rest keep being
//! passed by value, which costs nothing at their reads.
//!
//! An empty cell holds the interpreter's unbound mark, copied in and out like any value, so a
//! read of it fails where a read of an unassigned register would.

use super::Slot;
use crate::object::{ObjRef, Object};
use parking_lot::Mutex;

/// The object a cell variable's register holds.
#[repr(C)]
pub struct CellObj {
    header: Object,
    /// The variable's value (a lock, since a closure may run on several threads at once).
    value: Mutex<Slot>,
}

crate::declare_object_type!(CellObj, "pipeline.Cell", parent = Object, child_slots = 0);

/// A new cell holding `value`.
pub(crate) fn new_cell(value: Slot) -> Slot {
    Slot::from_object(ObjRef::new(CellObj { header: Object::blank(), value: Mutex::new(value) }))
}

/// The cell `slot` holds, if it holds one.
fn cell_of(slot: &Slot) -> Option<&CellObj> {
    slot.as_obj()?.downcast_ref::<CellObj>()
}

/// The value in the cell `cell` holds; None when it holds no cell (a compiler bug).
pub(crate) fn cell_get(cell: &Slot) -> Option<Slot> {
    Some(cell_of(cell)?.value.lock().clone())
}

/// Puts `value` in the cell `cell` holds; false when it holds no cell (a compiler bug). The old
/// value is dropped after the lock is released: dropping it may run anything a value's drop runs.
pub(crate) fn cell_set(cell: &Slot, value: Slot) -> bool {
    let Some(c) = cell_of(cell) else { return false };
    let old = std::mem::replace(&mut *c.value.lock(), value);
    drop(old);
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cell_keeps_what_was_last_put_in_it() {
        let cell = new_cell(Slot::from(1i64));
        assert_eq!(cell_get(&cell).and_then(|v| v.value().as_int()), Some(1));
        let shared = cell.clone();
        assert!(cell_set(&shared, Slot::from(2i64)));
        assert_eq!(cell_get(&cell).and_then(|v| v.value().as_int()), Some(2));
        // Not a cell: refused, not a crash.
        assert!(cell_get(&Slot::from(3i64)).is_none());
        assert!(!cell_set(&Slot::from(3i64), Slot::from(4i64)));
    }
}
