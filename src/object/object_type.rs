//! The trait that ties a Rust struct to an object type index.

use super::header::Object;
use super::hooks::TypeHooks;

/// A Rust type laid out as a heap object.
///
/// # Safety
/// The implementing type must be `#[repr(C)]` with an [`Object`] header as its
/// first field, so that a pointer to it is also a valid `*mut Object`.
pub unsafe trait ObjectType: Send + Sync + Sized + 'static {
    /// The unique type key, such as `object.List`.
    const TYPE_KEY: &'static str;
    /// Value-semantics hooks (equality, hashing, printing), if the type has them.
    const HOOKS: Option<&'static TypeHooks> = None;
    /// The type's index: a constant for core types, registered on first use otherwise.
    fn type_index() -> i32;
    /// The object's header.
    fn header(&self) -> &Object {
        // SAFETY: the trait contract puts the header at offset 0 of a repr(C) struct.
        unsafe { &*(self as *const Self as *const Object) }
    }
}

/// Marks `Self` as a subtype whose layout begins with `Base`.
///
/// # Safety
/// `Self` must be `#[repr(C)]` with a `Base` as its first field.
pub unsafe trait SubObject<Base: ObjectType>: ObjectType {}

/// Declares a dynamically indexed object type: `declare_object_type!(MyNode, "my.Node", parent = Object, child_slots = 0);`,
/// with `hooks = Some(&HOOKS)` after the slots for a type that compares, hashes or prints by value.
///
/// The type must be `#[repr(C)]` with `header: Object` (or its parent type) first.
#[macro_export]
macro_rules! declare_object_type {
    ($ty:ty, $key:expr, parent = $parent:ty, child_slots = $slots:expr) => {
        $crate::declare_object_type!($ty, $key, parent = $parent, child_slots = $slots, hooks = None);
    };
    ($ty:ty, $key:expr, parent = $parent:ty, child_slots = $slots:expr, hooks = $hooks:expr) => {
        // SAFETY: the macro's contract requires a repr(C) type with its header first.
        unsafe impl $crate::object::ObjectType for $ty {
            const TYPE_KEY: &'static str = $key;
            const HOOKS: Option<&'static $crate::object::TypeHooks> = $hooks;
            fn type_index() -> i32 {
                static INDEX: std::sync::OnceLock<i32> = std::sync::OnceLock::new();
                *INDEX.get_or_init(|| {
                    $crate::object::register_type($key, <$parent as $crate::object::ObjectType>::type_index(), $slots)
                        .expect("declare_object_type: type registration failed")
                })
            }
        }
    };
}

/// The root object type: every heap object is an instance of it.
// SAFETY: `Object` is the header itself.
unsafe impl ObjectType for Object {
    const TYPE_KEY: &'static str = "object.Object";
    fn type_index() -> i32 {
        crate::any::type_index::OBJECT
    }
}
