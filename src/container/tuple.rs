//! `Tuple`: Python's immutable sequence, laid out as a list under its own type index.
//!
//! Rationale: a tuple is a subtype of the list object (`TupleObj` starts with a `ListObj`, and
//! the registry makes `tuple` a child of `list`), so everything that only reads a sequence (a
//! loop, indexing, `len`, collation into a tensor) takes either without a second code path;
//! only what Python tells apart (the type's name, equality, hashing, printing, mutation) looks
//! at the type index.

use super::list::{ListObj, list_eq, list_hash, write_items};
use crate::any::type_index::TUPLE;
use crate::any::{AnyPad, AnyValue, AnyView, FromAny, Value};
use crate::object::{ObjPtr, ObjRef, ObjectType, SubObject, TypeHooks};
use std::fmt;
use std::sync::Arc;

pub use super::named_tuple::NamedTupleClass;

/// The heap object behind a `Tuple`: a list's layout, never changed once made.
#[repr(C)]
pub struct TupleObj {
    list: ListObj,
    /// The `collections.namedtuple` class of a named tuple; `None` for a plain tuple.
    class: Option<Arc<NamedTupleClass>>,
}

impl TupleObj {
    /// The named-tuple class of this tuple, if it is a named tuple's.
    pub fn named_class(&self) -> Option<&Arc<NamedTupleClass>> {
        self.class.as_ref()
    }
}

static TUPLE_HOOKS: TypeHooks = TypeHooks { eq: list_eq, hash: list_hash, repr: tuple_repr };

// SAFETY: repr(C) with a `ListObj` first, whose header is its first field.
unsafe impl ObjectType for TupleObj {
    const TYPE_KEY: &'static str = "object.Tuple";
    const HOOKS: Option<&'static TypeHooks> = Some(&TUPLE_HOOKS);
    fn type_index() -> i32 {
        TUPLE
    }
}

// SAFETY: repr(C) with a `ListObj` as its first field.
unsafe impl SubObject<ListObj> for TupleObj {}

impl std::ops::Deref for TupleObj {
    type Target = ListObj;
    fn deref(&self) -> &ListObj {
        &self.list
    }
}

/// Python's repr of a tuple: `()`, `(x,)`, `(x, y)`, and a named tuple's `Point(x=1, y=2)`.
fn tuple_repr(o: ObjPtr<'_>, f: &mut fmt::Formatter<'_>, depth: usize) -> fmt::Result {
    if let Some(class) = o.downcast_ref::<TupleObj>().and_then(TupleObj::named_class) {
        let items = o.downcast_ref::<ListObj>().map(|l| l.with_items(<[AnyValue]>::to_vec)).unwrap_or_default();
        write!(f, "{}(", class.name)?;
        for (i, (field, x)) in class.fields.iter().zip(&items).enumerate() {
            write!(f, "{}{field}=", if i > 0 { ", " } else { "" })?;
            write_items(std::slice::from_ref(x), f, depth, ["", ""])?;
        }
        return f.write_str(")");
    }
    let Some(t) = o.downcast_ref::<ListObj>() else { return f.write_str("()") };
    t.with_items(|xs| match xs.len() {
        1 => write_items(xs, f, depth, ["(", ",)"]),
        _ => write_items(xs, f, depth, ["(", ")"]),
    })
}

/// A shared tuple of any-values.
#[derive(Clone)]
pub struct Tuple(ObjRef<TupleObj>);

impl Tuple {
    /// A tuple of `items`.
    pub fn from_vec(items: Vec<AnyValue>) -> Self {
        Tuple(ObjRef::new(TupleObj { list: ListObj::holding(items), class: None }))
    }

    /// A named tuple of `class` holding `items` (one per field, which the caller checked).
    pub fn named(class: Arc<NamedTupleClass>, items: Vec<AnyValue>) -> Self {
        Tuple(ObjRef::new(TupleObj { list: ListObj::holding(items), class: Some(class) }))
    }

    /// Number of items.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are no items.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Runs `f` over the items, without cloning them.
    pub fn with_items<R>(&self, f: impl FnOnce(&[AnyValue]) -> R) -> R {
        self.0.with_items(f)
    }

    /// Clones of the items.
    pub fn to_vec(&self) -> Vec<AnyValue> {
        self.with_items(<[AnyValue]>::to_vec)
    }

    /// The tuple as an any-value.
    pub fn into_any(self) -> AnyValue {
        self.into()
    }
}

impl<T: Into<AnyValue>> FromIterator<T> for Tuple {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        Tuple::from_vec(iter.into_iter().map(Into::into).collect())
    }
}

impl FromAny for Tuple {
    fn type_name() -> String {
        "tuple".into()
    }
    fn from_value(v: Value<'_>) -> Option<Self> {
        v.as_obj().and_then(|o| o.to_owned_as::<TupleObj>()).map(Tuple)
    }
}
crate::impl_try_from_any!(Tuple, Option<Tuple>);

impl<const N: usize> From<Tuple> for AnyPad<N> {
    fn from(t: Tuple) -> Self {
        AnyPad::from_object(t.0)
    }
}

impl<'a> From<&'a Tuple> for AnyView<'a> {
    fn from(t: &'a Tuple) -> Self {
        AnyView::from_obj(&t.0)
    }
}

impl PartialEq for Tuple {
    fn eq(&self, other: &Self) -> bool {
        list_eq(self.0.as_obj_ptr(), other.0.as_obj_ptr(), 0)
    }
}

impl fmt::Debug for Tuple {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        tuple_repr(self.0.as_obj_ptr(), f, 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::List;

    fn ints(xs: &[i64]) -> Vec<AnyValue> {
        xs.iter().map(|&i| AnyValue::from_int(i)).collect()
    }

    #[test]
    fn prints_as_python_does() {
        assert_eq!(format!("{:?}", Tuple::from_vec(vec![])), "()");
        assert_eq!(format!("{:?}", Tuple::from_vec(ints(&[1]))), "(1,)");
        assert_eq!(format!("{:?}", Tuple::from_vec(ints(&[1, 2]))), "(1, 2)");
    }

    #[test]
    fn reads_as_a_list_but_never_equals_one() {
        let t = Tuple::from_vec(ints(&[1, 2])).into_any();
        let l = List::from_vec(ints(&[1, 2])).into_any();
        // A reader of lists takes the tuple (its subtype) ...
        assert_eq!(List::from_value(t.value()).map(|l| l.len()), Some(2));
        // ... but a tuple is never a list's equal, as in Python, and a list is not a tuple.
        assert_ne!(t, l);
        assert!(Tuple::from_value(l.value()).is_none());
        assert_eq!(t, Tuple::from_vec(ints(&[1, 2])).into_any());
    }
}
