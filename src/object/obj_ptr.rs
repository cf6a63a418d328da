//! `ObjPtr<'a>`: a non-owning pointer to an object that some owner keeps alive.

use super::header::Object;
use super::obj_ref::{ObjRef, inc_ref};
use super::object_type::ObjectType;
use super::type_registry::{is_instance, type_name};
use std::marker::PhantomData;
use std::ptr::NonNull;

/// A borrowed object: copying it never touches the count.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct ObjPtr<'a> {
    ptr: NonNull<Object>,
    _borrow: PhantomData<&'a Object>,
}

impl<'a> ObjPtr<'a> {
    /// Wraps a raw object pointer.
    ///
    /// # Safety
    /// The object must stay alive for `'a`.
    pub unsafe fn new(ptr: NonNull<Object>) -> Self {
        ObjPtr { ptr, _borrow: PhantomData }
    }

    /// The raw pointer.
    pub fn as_raw(self) -> NonNull<Object> {
        self.ptr
    }

    /// The object's header.
    pub fn header(self) -> &'a Object {
        // SAFETY: alive for 'a by construction.
        unsafe { self.ptr.as_ref() }
    }

    /// The object's type index.
    pub fn type_index(self) -> i32 {
        self.header().type_index()
    }

    /// The object's type name, for messages.
    pub fn type_name(self) -> String {
        type_name(self.type_index())
    }

    /// Whether the object is an instance of `T` (exactly or as a subtype).
    pub fn is<T: ObjectType>(self) -> bool {
        is_instance(self.type_index(), T::type_index())
    }

    /// A reference to the object as `T`, if it is one.
    pub fn downcast_ref<T: ObjectType>(self) -> Option<&'a T> {
        if self.is::<T>() {
            // SAFETY: the type check guarantees the layout; alive for 'a.
            Some(unsafe { self.ptr.cast::<T>().as_ref() })
        } else {
            None
        }
    }

    /// A new owning reference (increments the count).
    pub fn to_owned(self) -> ObjRef<Object> {
        // SAFETY: alive for 'a; the new count moves into the ObjRef.
        unsafe {
            inc_ref(self.ptr);
            ObjRef::from_raw(self.ptr)
        }
    }

    /// A new owning reference as `T`, if it is one.
    pub fn to_owned_as<T: ObjectType>(self) -> Option<ObjRef<T>> {
        if self.is::<T>() {
            // SAFETY: type checked; alive for 'a; the new count moves into the ObjRef.
            Some(unsafe {
                inc_ref(self.ptr);
                ObjRef::from_raw(self.ptr)
            })
        } else {
            None
        }
    }
}

impl std::fmt::Debug for ObjPtr<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "<{} at {:p}>", self.type_name(), self.ptr)
    }
}
