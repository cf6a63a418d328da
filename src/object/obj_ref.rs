//! `ObjRef<T>`: the owning, reference-counted pointer to a heap object.

use super::census;
use super::header::{Object, ObjectDeleter};
use super::hooks::ensure_hooks;
use super::obj_ptr::ObjPtr;
use super::object_type::{ObjectType, SubObject};
use super::release::run_deleter;
use super::type_registry::is_instance;
use std::marker::PhantomData;
use std::ptr::NonNull;
use std::sync::atomic::{Ordering, fence};

/// An owning pointer to a heap object of type `T`.
///
/// `Clone` increments the count; `Drop` decrements it and calls the object's
/// deleter at zero. One pointer wide, so an `AnyValue` payload holds it as is.
#[repr(transparent)]
pub struct ObjRef<T: ObjectType> {
    ptr: NonNull<T>,
    _owns: PhantomData<T>,
}

// SAFETY: `ObjectType: Send + Sync`, and the count is atomic.
unsafe impl<T: ObjectType> Send for ObjRef<T> {}
// SAFETY: as above; shared access only hands out `&T`.
unsafe impl<T: ObjectType> Sync for ObjRef<T> {}

unsafe extern "C" fn drop_boxed<T: ObjectType>(obj: *mut Object) {
    // SAFETY: installed only by `ObjRef::new`, which made `obj` with `Box<T>`.
    drop(unsafe { Box::from_raw(obj.cast::<T>()) });
}

impl<T: ObjectType> ObjRef<T> {
    /// Takes ownership of a dead object whose header was set by [`Self::adopt`]: its count
    /// starts again at 1.
    ///
    /// # Safety
    /// `ptr` is unshared, was set up by `adopt` for this `T`, and its count reached zero.
    #[inline]
    pub(crate) unsafe fn revive(ptr: NonNull<T>) -> Self {
        let header = ptr.as_ptr().cast::<Object>();
        // SAFETY: the caller guarantees `ptr` is valid and unshared; the header is at offset 0.
        unsafe { (*header).ref_count.store(1, Ordering::Relaxed) };
        census::on_birth();
        ObjRef { ptr, _owns: PhantomData }
    }

    /// Moves `value` to the heap as a new object with count 1.
    pub fn new(value: T) -> Self {
        let raw = Box::into_raw(Box::new(value));
        // SAFETY: `raw` is a fresh, unique Box allocation of T.
        unsafe { Self::adopt(NonNull::new_unchecked(raw), drop_boxed::<T>) }
    }

    /// Takes a freshly written object at `ptr` and makes it live with count 1.
    ///
    /// # Safety
    /// `ptr` must point to a valid, unshared `T`, and `deleter` must free it correctly.
    pub unsafe fn adopt(ptr: NonNull<T>, deleter: ObjectDeleter) -> Self {
        if let Some(hooks) = T::HOOKS {
            ensure_hooks(T::type_index(), hooks);
        }
        let header = ptr.as_ptr().cast::<Object>();
        // SAFETY: the caller guarantees `ptr` is valid and unshared; the header is at offset 0.
        unsafe {
            (*header).type_index = T::type_index() as u32;
            (*header).ref_count.store(1, Ordering::Relaxed);
            (*header).deleter = Some(deleter);
        }
        census::on_birth();
        ObjRef { ptr, _owns: PhantomData }
    }

    /// Takes over one count held by a raw object pointer.
    ///
    /// # Safety
    /// `ptr` must point to a live object whose type is `T` (or a subtype), and the
    /// caller must own one count, which moves into the result.
    pub unsafe fn from_raw(ptr: NonNull<Object>) -> Self {
        ObjRef { ptr: ptr.cast(), _owns: PhantomData }
    }

    /// Gives up ownership of one count and returns the raw pointer.
    pub fn into_raw(self) -> NonNull<Object> {
        let p = self.ptr.cast();
        std::mem::forget(self);
        p
    }

    /// The raw pointer, without touching the count.
    pub fn as_raw(&self) -> NonNull<Object> {
        self.ptr.cast()
    }

    /// A non-owning pointer bound to this reference's lifetime.
    pub fn as_obj_ptr(&self) -> ObjPtr<'_> {
        // SAFETY: `self` keeps the object alive for the borrow.
        unsafe { ObjPtr::new(self.ptr.cast()) }
    }

    /// The strong count (racy; for tests and copy-on-write decisions).
    pub fn strong_count(&self) -> u32 {
        self.header().ref_count.load(Ordering::Acquire)
    }

    /// Whether two references point to the same object.
    pub fn ptr_eq(&self, other: &ObjRef<T>) -> bool {
        self.ptr == other.ptr
    }

    /// Mutable access when this is the only reference, as `Arc::get_mut`.
    #[inline(always)]
    pub fn get_mut(&mut self) -> Option<&mut T> {
        // Acquire pairs with the Release of other handles' drops, so their writes are visible.
        if self.header().ref_count.load(Ordering::Acquire) == 1 {
            // SAFETY: count 1 and `&mut self` mean no other handle or borrow exists.
            Some(unsafe { self.ptr.as_mut() })
        } else {
            None
        }
    }

    /// Copy-on-write: mutable access, cloning the object first if it is shared.
    pub fn make_mut(&mut self) -> &mut T
    where
        T: Clone,
    {
        if self.strong_count() != 1 {
            *self = ObjRef::new((**self).clone());
        }
        // SAFETY: the count is 1 here (just checked or freshly made) and we hold `&mut self`.
        unsafe { self.ptr.as_mut() }
    }

    /// Views this reference as its base type.
    pub fn upcast<B: ObjectType>(self) -> ObjRef<B>
    where
        T: SubObject<B>,
    {
        // SAFETY: `SubObject` guarantees `B` is a layout prefix of `T`.
        unsafe { ObjRef::from_raw(self.into_raw()) }
    }
}

impl ObjRef<Object> {
    /// Downcasts to `T` if the object is an instance of it.
    pub fn downcast<T: ObjectType>(self) -> Result<ObjRef<T>, ObjRef<Object>> {
        if is_instance(self.type_index as i32, T::type_index()) {
            // SAFETY: the type check guarantees the layout of T.
            Ok(unsafe { ObjRef::from_raw(self.into_raw()) })
        } else {
            Err(self)
        }
    }
}

impl<T: ObjectType> std::ops::Deref for ObjRef<T> {
    type Target = T;
    fn deref(&self) -> &T {
        // SAFETY: we hold a count, so the object is alive.
        unsafe { self.ptr.as_ref() }
    }
}

impl<T: ObjectType> Clone for ObjRef<T> {
    fn clone(&self) -> Self {
        // SAFETY: we hold a count, so the object is alive.
        unsafe { inc_ref(self.ptr.cast()) };
        ObjRef { ptr: self.ptr, _owns: PhantomData }
    }
}

impl<T: ObjectType> Drop for ObjRef<T> {
    fn drop(&mut self) {
        // SAFETY: we own one count.
        unsafe { dec_ref(self.ptr.cast()) }
    }
}

impl<T: ObjectType + std::fmt::Debug> std::fmt::Debug for ObjRef<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (**self).fmt(f)
    }
}

/// Adds one count to a live object.
///
/// # Safety
/// `obj` must point to a live object.
#[inline]
pub unsafe fn inc_ref(obj: NonNull<Object>) {
    // Relaxed, as in `Arc`: a new count can only come from an existing one.
    // SAFETY: the caller guarantees `obj` is alive.
    let old = unsafe { obj.as_ref() }.ref_count.fetch_add(1, Ordering::Relaxed);
    if old > i32::MAX as u32 {
        // Rationale: overflow would free a live object; abort as `Arc` does.
        std::process::abort();
    }
}

/// Drops one count and runs the deleter when it reaches zero.
///
/// # Safety
/// `obj` must point to a live object and the caller must own the count it drops.
#[inline]
pub unsafe fn dec_ref(obj: NonNull<Object>) {
    // SAFETY: the caller guarantees `obj` is alive and owns a count.
    let header = unsafe { obj.as_ref() };
    // Fast path: a count of 1 means we are the only owner, and no one can gain a
    // count without one, so the locked decrement can be skipped. The Acquire load
    // sees every earlier Release decrement, as the fence below would.
    if header.ref_count.load(Ordering::Acquire) != 1 {
        if header.ref_count.fetch_sub(1, Ordering::Release) != 1 {
            return;
        }
        // Pairs with the Release decrements of other owners before the object is freed.
        fence(Ordering::Acquire);
    }
    // SAFETY: the count reached zero, so we are the last owner.
    unsafe { free_object(obj) }
}

/// Frees an object whose count reached zero: the deleter runs now or, under deeply nested
/// frees, from the outermost deleter's queue.
///
/// Rationale: out of line, so that the thread-locals the deleter runner reads are not looked up
/// in every function that drops a value. In a shared library (the Python extension) each
/// thread-local costs a `__tls_get_addr` call, and the compiler hoisted those to the top of
/// callers that merely might free something (two per call of a function from Python).
///
/// # Safety
/// `obj`'s count reached zero and the caller gives up its last handle to it.
#[inline(never)]
unsafe fn free_object(obj: NonNull<Object>) {
    census::on_free();
    // SAFETY: the caller's contract.
    unsafe { run_deleter(obj) }
}
