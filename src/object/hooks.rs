//! Per-type value hooks: how objects of a type compare, hash and print by value.
//!
//! Rationale: equality lives with the value, but the value layer must not import
//! the containers above it, so containers register these hooks instead.

use super::obj_ptr::ObjPtr;
use crate::any::type_index::{DYNAMIC_BEGIN, OBJECT_BEGIN};
use ahash::AHashMap as HashMap;
use parking_lot::RwLock;
use std::fmt;
use std::hash::Hasher;
use std::sync::atomic::{AtomicPtr, Ordering};

/// Deepest nesting that equality, hashing and printing follow before stopping.
///
/// Rationale: lists may contain themselves; past this depth equality falls back to
/// identity and hashing stops, which keeps both consistent and the stack bounded.
pub const MAX_DEPTH: usize = 256;

/// Value-semantics functions of an object type.
pub struct TypeHooks {
    /// Equality of two objects of this type; `depth` counts nesting so far.
    pub eq: fn(ObjPtr<'_>, ObjPtr<'_>, usize) -> bool,
    /// Feeds the object's value into `state`.
    pub hash: fn(ObjPtr<'_>, &mut dyn Hasher, usize),
    /// Writes the object as Python's `repr` would.
    pub repr: fn(ObjPtr<'_>, &mut fmt::Formatter<'_>, usize) -> fmt::Result,
}

/// Type indices whose hooks live in an array, read with one load: the static types and the
/// first dynamic ones (a `re.Match` is made once per token of a lexer, and a map lookup under a
/// lock for each was a fifth of its cost). Later dynamic types use the map.
const FAST_SLOTS: usize = (DYNAMIC_BEGIN - OBJECT_BEGIN) as usize + 1024;

static FAST_HOOKS: [AtomicPtr<TypeHooks>; FAST_SLOTS] = [const { AtomicPtr::new(std::ptr::null_mut()) }; FAST_SLOTS];
static DYNAMIC_HOOKS: RwLock<Option<HashMap<i32, &'static TypeHooks>>> = RwLock::new(None);

/// Installs `hooks` for `type_index` unless some are there already.
#[inline]
pub fn ensure_hooks(type_index: i32, hooks: &'static TypeHooks) {
    let slot = type_index.wrapping_sub(OBJECT_BEGIN) as usize;
    // Relaxed is enough: the hooks are 'static and immutable. This runs on every
    // object creation, so the installed case is one load and one compare.
    if slot < FAST_SLOTS && !FAST_HOOKS[slot].load(Ordering::Relaxed).is_null() {
        return;
    }
    install_hooks(type_index, hooks)
}

#[cold]
#[inline(never)]
fn install_hooks(type_index: i32, hooks: &'static TypeHooks) {
    let slot = type_index.wrapping_sub(OBJECT_BEGIN) as usize;
    if slot < FAST_SLOTS {
        let new = hooks as *const _ as *mut _;
        // The first hooks installed stay, as in the map.
        let _ = FAST_HOOKS[slot].compare_exchange(std::ptr::null_mut(), new, Ordering::Relaxed, Ordering::Relaxed);
    } else if hooks_of(type_index).is_none() {
        let mut map = DYNAMIC_HOOKS.write();
        map.get_or_insert_with(HashMap::default).entry(type_index).or_insert(hooks);
    }
}

/// The hooks of `type_index`, if installed.
pub fn hooks_of(type_index: i32) -> Option<&'static TypeHooks> {
    let slot = type_index.wrapping_sub(OBJECT_BEGIN) as usize;
    if slot < FAST_SLOTS {
        let p = FAST_HOOKS[slot].load(Ordering::Relaxed);
        // SAFETY: only `&'static TypeHooks` are ever stored in the slots.
        return unsafe { p.as_ref() };
    }
    DYNAMIC_HOOKS.read().as_ref().and_then(|m| m.get(&type_index).copied())
}
