//! The object type registry: static indices for core types, dynamic ones by key.
//!
//! `is_instance` mixes seed 001's A1 and A2: each type reserves a range of child
//! indices, so most checks are a range test; children that did not fit in their
//! parent's range mark it overflowed, and then the ancestors table decides.

use crate::any::type_index::{
    DYNAMIC_BEGIN, LIST, OBJECT, OBJECT_BEGIN, STATIC_END, TUPLE, static_type_key, static_type_name,
};
use crate::error::{Error, ErrorKind, Result};
use ahash::AHashMap as HashMap;
use parking_lot::RwLock;
use std::sync::LazyLock;

/// What the registry knows about one object type.
#[derive(Debug, Clone)]
pub struct TypeInfo {
    /// The type's index.
    pub index: i32,
    /// The type's unique key.
    pub key: String,
    /// The parent type's index (`None` only for the root).
    pub parent: Option<i32>,
    /// Every ancestor, root first.
    pub ancestors: Vec<i32>,
    /// Indices reserved for descendants: `index + 1 ..= index + child_slots`.
    pub child_slots: i32,
    /// The next free index inside the reserved range.
    next_child: i32,
    /// Whether some descendant lives outside the reserved range.
    pub overflowed: bool,
}

impl TypeInfo {
    fn range_contains(&self, index: i32) -> bool {
        index > self.index && index <= self.index + self.child_slots
    }
}

struct Registry {
    by_index: HashMap<i32, TypeInfo>,
    by_key: HashMap<String, i32>,
    next_dynamic: i32,
}

static REGISTRY: LazyLock<RwLock<Registry>> = LazyLock::new(|| {
    let mut reg = Registry { by_index: HashMap::default(), by_key: HashMap::default(), next_dynamic: DYNAMIC_BEGIN };
    for index in OBJECT_BEGIN..STATIC_END {
        let key = static_type_key(index).expect("every static index has a key");
        let parent = static_parent(index);
        let info = TypeInfo {
            index,
            key: key.to_string(),
            parent,
            ancestors: parent.map_or(vec![], |p| if p == OBJECT { vec![OBJECT] } else { vec![OBJECT, p] }),
            child_slots: 0,
            next_child: index + 1,
            // A static type with a static child: the child lies outside its (empty) range.
            overflowed: index == LIST,
        };
        reg.by_key.insert(info.key.clone(), index);
        reg.by_index.insert(index, info);
    }
    RwLock::new(reg)
});

/// Registers (or looks up) the type `key` under `parent`, reserving `child_slots` indices for its descendants.
///
/// Registering the same key again returns its index; a different parent is an error.
pub fn register_type(key: &str, parent: i32, child_slots: u32) -> Result<i32> {
    let mut reg = REGISTRY.write();
    if let Some(&index) = reg.by_key.get(key) {
        let existing = &reg.by_index[&index];
        if existing.parent != Some(parent) {
            return Err(Error::new(
                ErrorKind::Duplicate,
                format!("type {key:?} is already registered with parent {:?}", existing.parent),
            ));
        }
        return Ok(index);
    }
    let child_slots = i32::try_from(child_slots).map_err(|_| Error::value("child_slots too large"))?;
    let needed = 1 + child_slots;
    let parent_info = reg
        .by_index
        .get(&parent)
        .ok_or_else(|| Error::new(ErrorKind::Key, format!("parent type index {parent} is not registered")))?;
    let mut ancestors = parent_info.ancestors.clone();
    ancestors.push(parent);

    let fits = parent_info.next_child + needed <= parent_info.index + 1 + parent_info.child_slots;
    let index = if fits {
        let index = parent_info.next_child;
        reg.by_index.get_mut(&parent).expect("looked up above").next_child += needed;
        index
    } else {
        let index = reg.next_dynamic;
        reg.next_dynamic = index.checked_add(needed).ok_or_else(|| Error::runtime("type indices exhausted"))?;
        index
    };
    // Every ancestor whose reserved range misses the new index must use the slow path.
    for a in &ancestors {
        let info = reg.by_index.get_mut(a).expect("ancestors are registered");
        if info.index != OBJECT && !info.range_contains(index) {
            info.overflowed = true;
        }
    }
    let info = TypeInfo {
        index,
        key: key.to_string(),
        parent: Some(parent),
        ancestors,
        child_slots,
        next_child: index + 1,
        overflowed: false,
    };
    reg.by_key.insert(key.to_string(), index);
    reg.by_index.insert(index, info);
    Ok(index)
}

/// The parent of a static object type: `object` for all but the tuple, a list's subtype.
fn static_parent(index: i32) -> Option<i32> {
    match index {
        OBJECT => None,
        TUPLE => Some(LIST),
        _ => Some(OBJECT),
    }
}

/// Whether an object of type `index` is an instance of type `target`.
pub fn is_instance(index: i32, target: i32) -> bool {
    if index == target {
        return true;
    }
    if target == OBJECT {
        return index >= OBJECT_BEGIN;
    }
    // Static types answer without the registry's lock: their only subtype link is tuple -> list.
    if (OBJECT_BEGIN..STATIC_END).contains(&target) && (OBJECT_BEGIN..STATIC_END).contains(&index) {
        return static_parent(index) == Some(target);
    }
    let reg = REGISTRY.read();
    let Some(target_info) = reg.by_index.get(&target) else { return false };
    if target_info.range_contains(index) {
        return true;
    }
    target_info.overflowed && reg.by_index.get(&index).is_some_and(|i| i.ancestors.contains(&target))
}

/// The index registered for `key`.
pub fn type_index_of(key: &str) -> Option<i32> {
    REGISTRY.read().by_key.get(key).copied()
}

/// A copy of what the registry knows about `index`.
pub fn type_info(index: i32) -> Option<TypeInfo> {
    REGISTRY.read().by_index.get(&index).cloned()
}

/// A type's name for messages: `int`, `list`, or the key of a dynamic type.
pub fn type_name(index: i32) -> String {
    if let Some(name) = static_type_name(index) {
        return name.to_string();
    }
    match REGISTRY.read().by_index.get(&index) {
        Some(info) => info.key.clone(),
        None => format!("<unknown type {index}>"),
    }
}
