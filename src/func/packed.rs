//! `PackedFunc`: a function as an object, callable with any-values (seed 002).

use crate::any::type_index::FUNC;
use crate::any::{AnyPad, AnyValue, AnyView, FromAny, Value};
use crate::error::{Error, Result, panic_message};
use crate::object::{ObjPtr, ObjRef, Object, ObjectType, SubObject};
use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::ptr::NonNull;

type CallFn = unsafe fn(NonNull<Object>, &[AnyView<'_>]) -> Result<AnyValue>;
type KeywordsFn = unsafe fn(NonNull<Object>, &CallArgs<'_>) -> Result<AnyValue>;

/// The heap object behind a `PackedFunc`: the header, a call entry and, for a function that
/// binds arguments by name, a keyword-call entry.
///
/// Rationale: the callable itself sits after this head in the same allocation
/// (`FuncSub<F>`, seed 002's `PackedFuncSubObj`), so a call is one indirect jump
/// and there is one allocation per function.
#[repr(C)]
pub struct FuncObj {
    header: Object,
    call: CallFn,
    keywords: Option<KeywordsFn>,
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
unsafe impl<F: Send + Sync + 'static> ObjectType for FuncSub<F> {
    const TYPE_KEY: &'static str = "object.Func";
    fn type_index() -> i32 {
        FUNC
    }
}

// SAFETY: FuncObj is the first field of the repr(C) FuncSub.
unsafe impl<F: Send + Sync + 'static> SubObject<FuncObj> for FuncSub<F> {}

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

/// A function that takes keyword arguments: its state and its two forms, which read the state.
struct WithKeywords<S> {
    state: S,
    positional: PositionalForm<S>,
    keywords: KeywordForm<S>,
}

/// A function's positional form, given its state.
pub type PositionalForm<S> = fn(&S, &[AnyView<'_>]) -> Result<AnyValue>;

/// A function's keyword form, given its state: a call's arguments as the call wrote them.
pub type KeywordForm<S> = fn(&S, &CallArgs<'_>) -> Result<AnyValue>;

/// A call's arguments as written: positional ones, some of them `*iterable`, and keyword ones,
/// some of them `**mapping`. The callee spreads and merges them, so that their errors name it.
#[derive(Clone, Copy, Debug)]
pub struct CallArgs<'a> {
    /// The positional arguments.
    pub positional: &'a [AnyView<'a>],
    /// One bit per positional argument (the first 16), set for a `*iterable` one.
    pub starred: u16,
    /// The keyword arguments' names; [`CallArgs::MAPPING`] marks a `**mapping` one.
    pub names: &'a [&'a str],
    /// The keyword arguments' values, one per name.
    pub values: &'a [AnyView<'a>],
}

impl CallArgs<'_> {
    /// The name that marks a `**mapping` keyword argument.
    pub const MAPPING: &'static str = "**";

    /// Whether every argument is a plain one (no `*iterable`, no `**mapping`).
    pub fn is_plain(&self) -> bool {
        self.starred == 0 && !self.names.contains(&Self::MAPPING)
    }
}

/// # Safety
/// `obj` must point to a live `FuncSub<WithKeywords<S>>`, with provenance over the whole allocation.
unsafe fn call_positional_form<S>(obj: NonNull<Object>, args: &[AnyView<'_>]) -> Result<AnyValue> {
    // SAFETY: guaranteed by the caller; installed only by `PackedFunc::with_keywords` for this S.
    let sub = unsafe { obj.cast::<FuncSub<WithKeywords<S>>>().as_ref() };
    (sub.f.positional)(&sub.f.state, args)
}

/// # Safety
/// As [`call_positional_form`].
unsafe fn call_keyword_form<S>(obj: NonNull<Object>, args: &CallArgs<'_>) -> Result<AnyValue> {
    // SAFETY: guaranteed by the caller; installed only by `PackedFunc::with_keywords` for this S.
    let sub = unsafe { obj.cast::<FuncSub<WithKeywords<S>>>().as_ref() };
    (sub.f.keywords)(&sub.f.state, args)
}

/// Runs a function's entry, turning a panic inside it into an error.
fn caught(entry: impl FnOnce() -> Result<AnyValue>) -> Result<AnyValue> {
    catch_unwind(AssertUnwindSafe(entry))
        .unwrap_or_else(|payload| Err(Error::runtime(format!("function panicked: {}", panic_message(&*payload)))))
}

/// Calls the function object at `obj`, turning a panic inside it into an error.
fn call_raw(obj: NonNull<Object>, args: &[AnyView<'_>]) -> Result<AnyValue> {
    // SAFETY: `obj` is a live FuncObj (callers hold it); its entry matches its own layout.
    let entry = unsafe { obj.cast::<FuncObj>().as_ref() }.call;
    // SAFETY: the entry was installed for exactly this object's type.
    caught(|| unsafe { entry(obj, args) })
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
        let sub = FuncSub { base: FuncObj { header: Object::blank(), call: call_sub::<F>, keywords: None }, f };
        PackedFunc(ObjRef::new(sub).upcast())
    }

    /// Wraps a function that also binds arguments by name (a script's own functions): `state`
    /// is what both forms read, `positional` serves plain calls, `keywords` calls with keyword
    /// arguments.
    pub fn with_keywords<S: Send + Sync + 'static>(
        state: S,
        positional: PositionalForm<S>,
        keywords: KeywordForm<S>,
    ) -> Self {
        let base = FuncObj {
            header: Object::blank(),
            call: call_positional_form::<S>,
            keywords: Some(call_keyword_form::<S>),
        };
        let sub = FuncSub { base, f: WithKeywords { state, positional, keywords } };
        PackedFunc(ObjRef::new(sub).upcast())
    }

    /// Whether the function binds keyword arguments (made by [`PackedFunc::with_keywords`]).
    pub fn takes_keywords(&self) -> bool {
        // SAFETY: `self` holds the function object alive.
        unsafe { self.0.as_raw().cast::<FuncObj>().as_ref() }.keywords.is_some()
    }

    /// Calls the function's keyword form with `args`; an error if it has none (see
    /// [`PackedFunc::takes_keywords`]).
    pub fn call_keywords(&self, args: &CallArgs<'_>) -> Result<AnyValue> {
        call_keywords_raw(self.0.as_raw(), args)
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

/// Calls the function object at `obj` by its keyword entry, turning a panic into an error.
fn call_keywords_raw(obj: NonNull<Object>, args: &CallArgs<'_>) -> Result<AnyValue> {
    // SAFETY: `obj` is a live FuncObj (callers hold it).
    let Some(entry) = unsafe { obj.cast::<FuncObj>().as_ref() }.keywords else {
        let first = args.names.first().copied().unwrap_or_default();
        let message = format!("the function takes no keyword arguments (got '{first}')");
        return Err(Error::new(crate::error::ErrorKind::Type, message));
    };
    // SAFETY: the entry was installed for exactly this object's type.
    caught(|| unsafe { entry(obj, args) })
}

/// Calls a function object borrowed from a container, without taking a reference.
pub fn call_obj(obj: ObjPtr<'_>, args: &[AnyView<'_>]) -> Result<AnyValue> {
    if !obj.is::<FuncObj>() {
        return Err(Error::type_mismatch("func", &obj.type_name()));
    }
    call_raw(obj.as_raw(), args)
}

/// [`PackedFunc::call_keywords`] on a function object borrowed from a container.
pub fn call_obj_keywords(obj: ObjPtr<'_>, args: &CallArgs<'_>) -> Result<AnyValue> {
    if !obj.is::<FuncObj>() {
        return Err(Error::type_mismatch("func", &obj.type_name()));
    }
    call_keywords_raw(obj.as_raw(), args)
}

/// Whether a function object borrowed from a container binds keyword arguments.
pub fn obj_takes_keywords(obj: ObjPtr<'_>) -> bool {
    // SAFETY: checked to be a live FuncObj first; the borrow keeps it alive.
    obj.is::<FuncObj>() && unsafe { obj.as_raw().cast::<FuncObj>().as_ref() }.keywords.is_some()
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

#[cfg(test)]
mod tests {
    use super::*;

    /// `f(a, b=10)` as a state-carrying function: `a * scale + b`.
    fn scaled(scale: i64) -> PackedFunc {
        fn int(v: &AnyView<'_>) -> i64 {
            v.value().as_int().expect("an int")
        }
        PackedFunc::with_keywords(
            scale,
            |scale, args| Ok(AnyValue::from_int(int(&args[0]) * scale + args.get(1).map_or(10, int))),
            |scale, call| {
                let mut a = call.positional.first().map(int);
                let mut b = call.positional.get(1).map_or(10, int);
                for (name, value) in call.names.iter().zip(call.values) {
                    match *name {
                        "a" => a = Some(int(value)),
                        "b" => b = int(value),
                        other => {
                            return Err(Error::new(crate::error::ErrorKind::Type, format!("unexpected '{other}'")));
                        }
                    }
                }
                Ok(AnyValue::from_int(a.expect("a given") * scale + b))
            },
        )
    }

    #[test]
    fn keyword_form_reads_the_state_and_the_names() {
        let f = scaled(3);
        assert!(f.takes_keywords());
        let (two, five) = (AnyValue::from_int(2), AnyValue::from_int(5));
        assert_eq!(f.call(&[two.view()]).unwrap().value().as_int(), Some(16));
        let call = CallArgs { positional: &[two.view()], starred: 0, names: &["b"], values: &[five.view()] };
        assert_eq!(f.call_keywords(&call).unwrap().value().as_int(), Some(11));
        let call = CallArgs { positional: &[], starred: 0, names: &["b", "a"], values: &[two.view(), five.view()] };
        assert_eq!(f.call_keywords(&call).unwrap().value().as_int(), Some(17));
        let call = CallArgs { positional: &[], starred: 0, names: &["c"], values: &[two.view()] };
        assert_eq!(f.call_keywords(&call).unwrap_err().message(), "unexpected 'c'");
        assert!(!CallArgs { positional: &[], starred: 0, names: &["**"], values: &[two.view()] }.is_plain());
    }

    #[test]
    fn a_plain_function_has_no_keyword_form() {
        let f = PackedFunc::new(|args| Ok(AnyValue::from_int(args.len() as i64)));
        assert!(!f.takes_keywords());
        let call = CallArgs { positional: &[], starred: 0, names: &[], values: &[] };
        assert!(f.call_keywords(&call).unwrap_err().message().contains("takes no keyword arguments"));
    }
}
