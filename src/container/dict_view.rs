//! `DictView`: what `d.keys()`, `d.values()` and `d.items()` return, a live window on a dict
//! as Python's `dict_keys`, `dict_values` and `dict_items` are.
//!
//! Rationale: a view holds the dict, not a copy of its entries, so that it sees later changes
//! (`ks = d.keys(); d["x"] = 1; "x" in ks`), costs nothing to make, and its `len` and `in`
//! read the dict's table rather than walk a list.

use super::{Dict, Tuple};
use crate::any::{AnyValue, values_equal};
use crate::object::{ObjPtr, ObjRef, Object, TypeHooks};

/// Which of a dict's three views this is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DictView {
    /// `d.keys()`: the keys.
    Keys,
    /// `d.values()`: each key's value.
    Values,
    /// `d.items()`: `(key, value)` tuples.
    Items,
}

/// The heap object behind a dict view.
#[repr(C)]
pub struct DictViewObj {
    header: Object,
    dict: Dict,
    view: DictView,
}

crate::declare_object_type!(DictViewObj, "dict_view", parent = Object, child_slots = 0, hooks = Some(&HOOKS));

static HOOKS: TypeHooks = TypeHooks {
    eq: |a, b, depth| {
        let (Some(x), Some(y)) = (dict_view_obj(a), dict_view_obj(b)) else { return false };
        // Values views have no equality of their own (identity was checked first); keys and
        // items views are equal as sets are.
        x.view == y.view && x.view != DictView::Values && x.len() == y.len() && x.all_in(y, depth)
    },
    // Keys and items views are unhashable to Python (`check_hashable` refuses them); a values
    // view hashes by identity, as CPython's does.
    hash: |p, state, _| state.write_usize(p.as_raw().as_ptr() as usize),
    repr: |p, f, depth| match dict_view_obj(p) {
        Some(v) => {
            write!(f, "{}(", v.type_name())?;
            super::list::write_items(&v.items(), f, depth, ["[", "])"])
        }
        None => write!(f, "<dict_view object at {:#x}>", p.as_raw().as_ptr() as usize),
    },
};

impl DictViewObj {
    /// A new view of `dict`, as a value.
    pub fn new_value(dict: Dict, view: DictView) -> AnyValue {
        AnyValue::from_object(ObjRef::new(DictViewObj { header: Object::blank(), dict, view }))
    }

    /// The dict it shows.
    pub fn dict(&self) -> &Dict {
        &self.dict
    }

    /// Which view it is.
    pub fn view(&self) -> DictView {
        self.view
    }

    /// The number of entries of its dict now.
    pub fn len(&self) -> usize {
        self.dict.len()
    }

    /// Whether its dict is empty now.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Python's name of its type: `dict_keys`, or `odict_keys` for an `OrderedDict`'s.
    pub fn type_name(&self) -> &'static str {
        let ordered = *self.dict.kind() == super::DictKind::Ordered;
        match (self.view, ordered) {
            (DictView::Keys, false) => "dict_keys",
            (DictView::Values, false) => "dict_values",
            (DictView::Items, false) => "dict_items",
            (DictView::Keys, true) => "odict_keys",
            (DictView::Values, true) => "odict_values",
            (DictView::Items, true) => "odict_items",
        }
    }

    /// Its items now, in the dict's order: keys, values or `(key, value)` tuples.
    pub fn items(&self) -> Vec<AnyValue> {
        match self.view {
            DictView::Keys => self.dict.keys(),
            DictView::Values => self.dict.values(),
            DictView::Items => {
                self.dict.items().into_iter().map(|(k, v)| Tuple::from_vec(vec![k, v]).into_any()).collect()
            }
        }
    }

    /// Whether every item of this keys or items view is in `other`'s dict (for items, with an
    /// equal value).
    fn all_in(&self, other: &DictViewObj, depth: usize) -> bool {
        self.dict.items().iter().all(|(k, v)| match other.dict.get(k) {
            Some(w) => self.view == DictView::Keys || values_equal(v.value(), w.value(), depth),
            None => false,
        })
    }
}

/// The dict view behind `o`, if it is one.
pub fn dict_view_obj<'a>(o: ObjPtr<'a>) -> Option<&'a DictViewObj> {
    o.downcast_ref::<DictViewObj>()
}
