//! `NamedTupleClass`: what `collections.namedtuple(typename, field_names)` makes, the class a
//! named tuple ([`super::Tuple::named`]) points to: its name, its fields, their defaults, and
//! the function that makes its instances (the class as a value).
//!
//! Rationale: classes are interned, one per name, fields and defaults, and live as long as the
//! process. A class and its function refer to each other (the function makes tuples of the
//! class, a tuple's `type()` is the function), and the table keeps the pair reachable instead
//! of leaking it; a program defines a handful of these, at module level.

use crate::any::AnyValue;
use crate::func::PackedFunc;
use std::sync::{Arc, Mutex, OnceLock};

/// A `collections.namedtuple` class.
pub struct NamedTupleClass {
    /// The type name (`Point`).
    pub name: String,
    /// The field names, in order.
    pub fields: Vec<String>,
    /// The default values of the last `defaults.len()` fields.
    pub defaults: Vec<AnyValue>,
    /// The class as a function value (it makes an instance of its arguments).
    func: OnceLock<PackedFunc>,
    /// What the Python front end keeps with the class (the Python class it stands for).
    foreign: Mutex<Option<Arc<dyn std::any::Any + Send + Sync>>>,
}

/// Every class made so far, with the key it was interned under.
static CLASSES: Mutex<Vec<(String, Arc<NamedTupleClass>)>> = Mutex::new(Vec::new());

impl NamedTupleClass {
    /// The class of `name`, `fields` and `defaults` (`defaults_key` tells defaults apart: their
    /// reprs), made by `make_func` on first request and the same object after.
    pub fn intern(
        name: &str,
        fields: Vec<String>,
        defaults: Vec<AnyValue>,
        defaults_key: &str,
        make_func: impl FnOnce(Arc<NamedTupleClass>) -> PackedFunc,
    ) -> Arc<NamedTupleClass> {
        let key = format!("{name}\0{}\0{defaults_key}", fields.join(" "));
        let mut classes = CLASSES.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((_, class)) = classes.iter().find(|(k, _)| *k == key) {
            return class.clone();
        }
        let class = Arc::new(NamedTupleClass {
            name: name.to_string(),
            fields,
            defaults,
            func: OnceLock::new(),
            foreign: Mutex::new(None),
        });
        let _ = class.func.set(make_func(class.clone()));
        classes.push((key, class.clone()));
        class
    }

    /// The class as a function value.
    pub fn func(&self) -> PackedFunc {
        self.func.get().cloned().expect("set when the class is interned")
    }

    /// The class whose function value is `f`, if it is one.
    pub fn of_func(f: &PackedFunc) -> Option<Arc<NamedTupleClass>> {
        let classes = CLASSES.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        classes.iter().find(|(_, c)| c.func.get().is_some_and(|g| g.ptr_eq(f))).map(|(_, c)| c.clone())
    }

    /// The position of field `name`.
    pub fn field_index(&self, name: &str) -> Option<usize> {
        self.fields.iter().position(|f| f == name)
    }

    /// What the Python front end keeps with the class, if anything.
    pub fn foreign(&self) -> Option<Arc<dyn std::any::Any + Send + Sync>> {
        self.foreign.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone()
    }

    /// Keeps `value` with the class: in place of what was kept when `replace`, else only when
    /// nothing was. Returns what is kept now.
    pub fn set_foreign(
        &self,
        value: Arc<dyn std::any::Any + Send + Sync>,
        replace: bool,
    ) -> Arc<dyn std::any::Any + Send + Sync> {
        let mut kept = self.foreign.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if replace || kept.is_none() {
            *kept = Some(value);
        }
        kept.clone().expect("set above")
    }
}
