//! `PackedFunc`: a function as an object, callable with any-values (seed 002).

use crate::any::type_index::FUNC;
use crate::any::{AnyPad, AnyValue, AnyView, FromAny, Value};
use crate::error::{Error, Result, panic_message};
use crate::object::{ObjPtr, ObjRef, Object, ObjectType, SubObject};
use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::ptr::NonNull;

type CallFn = unsafe fn(NonNull<Object>, &[AnyView<'_>]) -> Result<AnyValue>;

/// The heap object behind a `PackedFunc`: the header and a call entry.
///
/// Rationale: the callable itself sits after this head in the same allocation
/// (`FuncSub<F>`, seed 002's `PackedFuncSubObj`), so a call is one indirect jump
/// and there is one allocation per function.
#[repr(C)]
pub struct FuncObj {
    header: Object,
    call: CallFn,
}

#[repr(C)]
struct FuncSub<F> {
    base: FuncObj,
    f: F,
}

// SAFETY: repr(C) with the header first.
unsafe impl ObjectType for FuncObj {
    const TYPE_KEY: &'static str = "object.Func";
    fn type_index() -> i32 {
        FUNC
    }
}

// SAFETY: repr(C) with a FuncObj (and so the header) first.
unsafe impl<F: Fn(&[AnyView<'_>]) -> Result<AnyValue> + Send + Sync + 'static> ObjectType for FuncSub<F> {
    const TYPE_KEY: &'static str = "object.Func";
    fn type_index() -> i32 {
        FUNC
    }
}

// SAFETY: FuncObj is the first field of the repr(C) FuncSub.
unsafe impl<F: Fn(&[AnyView<'_>]) -> Result<AnyValue> + Send + Sync + 'static> SubObject<FuncObj> for FuncSub<F> {}

/// # Safety
/// `obj` must point to a live `FuncSub<F>`, with provenance over the whole allocation.
unsafe fn call_sub<F: Fn(&[AnyView<'_>]) -> Result<AnyValue>>(
    obj: NonNull<Object>,
    args: &[AnyView<'_>],
) -> Result<AnyValue> {
    // SAFETY: guaranteed by the caller; installed only by `PackedFunc::new` for this F.
    let sub = unsafe { obj.cast::<FuncSub<F>>().as_ref() };
    (sub.f)(args)
}

/// Calls the function object at `obj`, turning a panic inside it into an error.
fn call_raw(obj: NonNull<Object>, args: &[AnyView<'_>]) -> Result<AnyValue> {
    // SAFETY: `obj` is a live FuncObj (callers hold it); its entry matches its own layout.
    let entry = unsafe { obj.cast::<FuncObj>().as_ref() }.call;
    // SAFETY: the entry was installed for exactly this object's type.
    catch_unwind(AssertUnwindSafe(|| unsafe { entry(obj, args) }))
        .unwrap_or_else(|payload| Err(Error::runtime(format!("function panicked: {}", panic_message(&*payload)))))
}

/// A function object: takes `&[AnyView]`, returns an `AnyValue` or an error.
#[derive(Clone)]
pub struct PackedFunc(ObjRef<FuncObj>);

impl PackedFunc {
    /// Wraps a packed closure.
    pub fn new<F>(f: F) -> Self
    where
        F: Fn(&[AnyView<'_>]) -> Result<AnyValue> + Send + Sync + 'static,
    {
        let sub = FuncSub { base: FuncObj { header: Object::blank(), call: call_sub::<F> }, f };
        PackedFunc(ObjRef::new(sub).upcast())
    }

    /// Calls the function; a panic inside it comes back as an error.
    pub fn call(&self, args: &[AnyView<'_>]) -> Result<AnyValue> {
        call_raw(self.0.as_raw(), args)
    }

    /// Calls the function with owned values as arguments.
    pub fn call_values<const N: usize>(&self, args: &[AnyPad<N>]) -> Result<AnyValue> {
        let views: Vec<AnyView<'_>> = args.iter().map(AnyPad::view).collect();
        self.call(&views)
    }

    /// Whether two handles share one function.
    pub fn ptr_eq(&self, other: &PackedFunc) -> bool {
        self.0.ptr_eq(&other.0)
    }

    /// The function as an any-value.
    pub fn into_any(self) -> AnyValue {
        self.into()
    }
}

/// Calls a function object borrowed from a container, without taking a reference.
pub fn call_obj(obj: ObjPtr<'_>, args: &[AnyView<'_>]) -> Result<AnyValue> {
    if !obj.is::<FuncObj>() {
        return Err(Error::type_mismatch("func", &obj.type_name()));
    }
    call_raw(obj.as_raw(), args)
}

impl FromAny for PackedFunc {
    fn type_name() -> String {
        "func".into()
    }
    fn from_value(v: Value<'_>) -> Option<Self> {
        v.as_obj().and_then(|o| o.to_owned_as::<FuncObj>()).map(PackedFunc)
    }
}
crate::impl_try_from_any!(PackedFunc, Option<PackedFunc>);

impl<const N: usize> From<PackedFunc> for AnyPad<N> {
    fn from(f: PackedFunc) -> Self {
        AnyPad::from_object(f.0)
    }
}

impl<'a> From<&'a PackedFunc> for AnyView<'a> {
    fn from(f: &'a PackedFunc) -> Self {
        AnyView::from_obj(&f.0)
    }
}

impl fmt::Debug for PackedFunc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "<func at {:p}>", self.0.as_raw())
    }
}
