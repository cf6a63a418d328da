//! `AnyView<'a>`: the non-owning 16-byte value used for function arguments.

use super::heap_kinds::Utf8Kind;
use super::pad::AnyPad;
use super::type_index::*;
use super::value_ref::{Value, decode};
use crate::object::{ObjPtr, ObjRef, ObjectType, cached_count, tail_slice};
use anyproc_abi::RawAny;
use std::marker::PhantomData;
use std::ptr::NonNull;

/// A borrowed any-value: same layout as `AnyValue`, `Copy`, never touches a refcount.
///
/// A string too long for the view's 8 inline bytes is held as a pointer into
/// its owner (`RAW_STR`), so views of `AnyPad` strings and of `&str` never allocate.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct AnyView<'a> {
    raw: RawAny,
    _borrow: PhantomData<&'a ()>,
}

const _: () = assert!(std::mem::size_of::<AnyView<'static>>() == 16);

// SAFETY: a view only reads what it borrows, and objects are Send + Sync.
unsafe impl Send for AnyView<'_> {}
// SAFETY: as above.
unsafe impl Sync for AnyView<'_> {}

impl<'a> AnyView<'a> {
    const fn from_raw(raw: RawAny) -> Self {
        AnyView { raw, _borrow: PhantomData }
    }

    /// A view of `None`.
    pub const fn none() -> Self {
        Self::from_raw(RawAny::with_type(NONE))
    }

    /// A view of a scalar (None, int, float, bool), which borrows nothing.
    pub(crate) fn from_scalar(v: AnyPad<0>) -> Self {
        debug_assert!(matches!(v.type_index(), NONE | INT | FLOAT | BOOL));
        Self::from_raw(*v.raw())
    }

    #[inline]
    pub(crate) fn of_pad<const N: usize>(v: &'a AnyPad<N>) -> Self {
        let raw = *v.raw();
        if N == 0 {
            // A plain `AnyValue` holds inline text only up to its own 8 bytes, as a view does:
            // its head is the view, with no case to tell apart (a call converts each argument).
            return Self::from_raw(raw);
        }
        let len = raw.small_len as usize;
        // Inline strings longer than the view's own 8 bytes are borrowed in place.
        let borrowed = match raw.type_index {
            SMALL_STR if len > 8 => Some(RAW_STR),
            SMALL_BYTES if len > 8 => Some(RAW_BYTES),
            SMALL_USTR if len > 2 => Some(RAW_USTR),
            _ => None,
        };
        match borrowed {
            Some(t) => Self::from_raw(RawAny::with_ptr(t, raw.small_len, v.inline_ptr() as *mut _)),
            None => Self::from_raw(raw),
        }
    }

    /// A view of a value head that foreign code lends.
    ///
    /// # Safety
    /// `raw` must be a valid value head whose inline units, borrowed pointer or
    /// object stay valid for `'a` (the caller validates foreign input first).
    pub unsafe fn from_raw_borrowed(raw: RawAny) -> Self {
        Self::from_raw(raw)
    }

    /// A view of a string slice; never allocates.
    ///
    /// Strings of 4 GiB or more do not fit the 32-bit length and read as `None`.
    pub fn from_text(s: &'a str) -> Self {
        match u32::try_from(s.len()) {
            Ok(len) => Self::from_raw(RawAny::with_ptr(RAW_STR, len, s.as_ptr() as *mut _)),
            Err(_) => Self::none(),
        }
    }

    /// A view of a byte slice; never allocates. Slices of 4 GiB or more read as `None`.
    pub fn from_bytes(b: &'a [u8]) -> Self {
        match u32::try_from(b.len()) {
            Ok(len) => Self::from_raw(RawAny::with_ptr(RAW_BYTES, len, b.as_ptr() as *mut _)),
            Err(_) => Self::none(),
        }
    }

    /// A view of an object held elsewhere.
    pub fn from_obj<T: ObjectType>(obj: &'a ObjRef<T>) -> Self {
        Self::from_raw(RawAny::with_ptr(obj.header().type_index(), 0, obj.as_raw().as_ptr().cast()))
    }

    /// The raw head.
    pub fn raw(&self) -> &RawAny {
        &self.raw
    }

    /// The type index.
    pub fn type_index(&self) -> i32 {
        self.raw.type_index
    }

    /// The type's name, as used in messages.
    pub fn type_name(&self) -> String {
        crate::object::type_name(self.raw.type_index)
    }

    /// Whether this is `None`.
    pub fn is_none(&self) -> bool {
        self.raw.type_index == NONE
    }

    /// The value, decoded.
    pub fn value(&self) -> Value<'_> {
        // SAFETY: views are built only from valid owners (see the constructors), so
        // inline units, borrowed pointers and objects satisfy `decode`'s contract.
        unsafe { decode(&self.raw, (&raw const self.raw.payload).cast()) }
    }

    /// The text, if this views a UTF-8 string (inline, borrowed or heap).
    ///
    /// Rationale: the same as `value().as_str()`, but inlined and with three cases instead of
    /// a full decode: the frameless functions read their argument this way once per word.
    #[inline(always)]
    pub fn as_str(&self) -> Option<&str> {
        let len = self.raw.small_len as usize;
        // SAFETY: views are built only from valid owners (see the constructors): inline and
        // borrowed UTF-8 is valid for `small_len` bytes (inline bytes live in `self`, borrowed
        // ones for 'a), and a `STR` object is alive for 'a with its text after its head.
        unsafe {
            let bytes = match self.raw.type_index {
                SMALL_STR => std::slice::from_raw_parts((&raw const self.raw.payload).cast::<u8>(), len),
                RAW_STR => std::slice::from_raw_parts(self.raw.payload.v_ptr.cast::<u8>(), len),
                STR => tail_slice::<Utf8Kind>(NonNull::new_unchecked(self.raw.payload.v_ptr.cast())),
                _ => return None,
            };
            Some(std::str::from_utf8_unchecked(bytes))
        }
    }

    /// The number of characters of a UTF-8 string value (inline, borrowed or heap). A heap
    /// string counts them once and keeps the count, so that `len(s)` of a long text, and
    /// indexing one that is ASCII, cost O(1) after the first time, as they do in CPython.
    pub fn char_count(&self) -> Option<usize> {
        if self.raw.type_index == STR {
            // SAFETY: a `STR` view's object is a live heap UTF-8 string (see the constructors),
            // whose elements are valid UTF-8.
            let ptr = unsafe { NonNull::new_unchecked(self.raw.payload.v_ptr.cast()) };
            // SAFETY: as above. Each character has one byte that is not a continuation byte.
            return Some(unsafe {
                cached_count::<Utf8Kind>(ptr, |b| b.iter().filter(|&&c| (c as i8) >= -0x40).count())
            });
        }
        self.as_str().map(|s| s.chars().count())
    }

    /// The borrowed object, if this views one.
    pub fn as_obj(&self) -> Option<ObjPtr<'a>> {
        if self.raw.type_index >= OBJECT_BEGIN {
            // SAFETY: the owner keeps the object alive for 'a; object pointers are non-null.
            Some(unsafe { ObjPtr::new(NonNull::new_unchecked(self.raw.payload.v_ptr.cast())) })
        } else {
            None
        }
    }

    /// An owning copy: objects gain a count, borrowed strings are copied (inline when they fit).
    pub fn to_owned<const N: usize>(&self) -> AnyPad<N> {
        match self.value() {
            Value::Str(s) if !self.is_object() => AnyPad::from_text(s),
            Value::UStr(c) if !self.is_object() => AnyPad::from_chars(c),
            Value::Bytes(b) if !self.is_object() => AnyPad::from_bytes(b),
            _ => match self.as_obj() {
                Some(obj) => AnyPad::from_object(obj.to_owned()),
                // SAFETY: neither an object nor a string: the bits are the whole value.
                None => unsafe { AnyPad::from_raw_plain(self.raw) },
            },
        }
    }

    /// Whether the value lives in a heap object.
    pub fn is_object(&self) -> bool {
        self.raw.type_index >= OBJECT_BEGIN
    }
}

impl Default for AnyView<'_> {
    fn default() -> Self {
        Self::none()
    }
}
