//! `AnyPad<N>`: an owning any-value with N extra words for longer inline strings; `AnyValue` is `AnyPad<0>`.
//!
//! All bit-level work on inline storage happens here, behind a safe API
//! (the shape of compact_str's `repr` module).

use super::heap_kinds::{BytesObj, StrObj, UStrObj, Utf8Kind};
use super::type_index::*;
use super::value_ref::{Value, decode};
use crate::object::{ObjPtr, ObjRef, ObjectType, dec_ref, inc_ref, tail_slice};
use anyproc_abi::{Payload, RawAny};
use std::ffi::c_void;
use std::ptr::NonNull;

/// An owning, dynamically typed value of 16 + 8N bytes.
///
/// Inline capacity: 8 + 8N UTF-8 bytes or 2 + 2N UCS4 code points. Anything
/// larger lives in a reference-counted heap object.
#[repr(C)]
pub struct AnyPad<const N: usize> {
    raw: RawAny,
    // Rationale: u64 words keep the inline area 8-aligned for UCS4 and contiguous
    // with the payload, so one pointer walks payload and padding alike.
    pad: [u64; N],
}

/// The default 16-byte owning value (seed 000, D0a).
pub type AnyValue = AnyPad<0>;

const _: () = {
    assert!(std::mem::size_of::<AnyPad<0>>() == 16);
    assert!(std::mem::size_of::<AnyPad<1>>() == 24);
    assert!(std::mem::size_of::<AnyPad<2>>() == 32);
    assert!(std::mem::offset_of!(AnyPad<1>, pad) == 16);
};

// SAFETY: objects are Send + Sync by the `ObjectType` contract; everything else is plain data.
unsafe impl<const N: usize> Send for AnyPad<N> {}
// SAFETY: as above; shared access never mutates.
unsafe impl<const N: usize> Sync for AnyPad<N> {}

impl<const N: usize> AnyPad<N> {
    /// Bytes of UTF-8 (or raw bytes) that fit inline.
    pub const INLINE_BYTES: usize = 8 + 8 * N;
    /// UCS4 code points that fit inline.
    pub const INLINE_CHARS: usize = Self::INLINE_BYTES / 4;

    const fn from_raw(raw: RawAny) -> Self {
        AnyPad { raw, pad: [0; N] }
    }

    /// A value from raw bits that own nothing.
    ///
    /// # Safety
    /// `raw` must be plain data: not an object, not a string, not a borrowed pointer.
    pub(crate) const unsafe fn from_raw_plain(raw: RawAny) -> Self {
        Self::from_raw(raw)
    }

    /// The `None` value.
    pub const fn none() -> Self {
        Self::from_raw(RawAny::with_type(NONE))
    }

    /// An int.
    pub const fn from_int(v: i64) -> Self {
        Self::from_raw(RawAny { type_index: INT, small_len: 0, payload: Payload { v_int64: v } })
    }

    /// A float.
    pub const fn from_float(v: f64) -> Self {
        Self::from_raw(RawAny { type_index: FLOAT, small_len: 0, payload: Payload { v_float64: v } })
    }

    /// A bool.
    pub const fn from_bool(v: bool) -> Self {
        Self::from_raw(RawAny { type_index: BOOL, small_len: 0, payload: Payload { v_int64: v as i64 } })
    }

    /// An opaque pointer; the value does not own what it points to.
    pub fn from_opaque_ptr(p: *mut c_void) -> Self {
        Self::from_raw(RawAny::with_ptr(OPAQUE_PTR, 0, p))
    }

    /// A UTF-8 string: inline when it fits, else a heap `Str` object.
    pub fn from_text(s: &str) -> Self {
        if s.len() <= Self::INLINE_BYTES {
            // SAFETY: the length fits the inline area and the bytes are valid UTF-8.
            unsafe { Self::inline_bytes(SMALL_STR, s.as_bytes()) }
        } else {
            Self::from_object(StrObj::from_slice(s.as_bytes()))
        }
    }

    /// The UTF-8 strings `a` and `b` joined, inline when it fits, else in one allocation;
    /// `None` when the allocator refuses it.
    pub fn try_concat_text(a: &str, b: &str) -> Option<Self> {
        let n = a.len().checked_add(b.len())?;
        if n <= Self::INLINE_BYTES.min(64) {
            // Assembled on the stack and stored inline: no allocation.
            let mut buf = [0u8; 64];
            buf[..a.len()].copy_from_slice(a.as_bytes());
            buf[a.len()..n].copy_from_slice(b.as_bytes());
            return Some(Self::from_text(std::str::from_utf8(&buf[..n]).unwrap_or_default()));
        }
        if n <= Self::INLINE_BYTES {
            return Some(Self::from_text(&[a, b].concat()));
        }
        // Valid UTF-8 strings joined are valid UTF-8.
        StrObj::try_concat(&[a.as_bytes(), b.as_bytes()]).map(Self::from_object)
    }

    /// The byte strings `parts` joined, inline when it fits, else in one allocation; `None` when
    /// the allocator refuses it.
    pub fn try_concat_bytes(parts: &[&[u8]]) -> Option<Self> {
        let total = parts.iter().try_fold(0usize, |n, p| n.checked_add(p.len()))?;
        if total <= Self::INLINE_BYTES {
            return Some(Self::from_bytes(&parts.concat()));
        }
        BytesObj::try_concat(parts).map(Self::from_object)
    }

    /// A UCS4 string of the `n` characters `chars` yields, inline when it fits, else in one
    /// allocation; `None` when the allocator refuses it.
    pub fn try_from_char_iter(n: usize, chars: impl Iterator<Item = char>) -> Option<Self> {
        if n <= Self::INLINE_CHARS.min(64) {
            return Some(Self::inline_chars(chars));
        }
        UStrObj::try_from_iter_exact(n, chars).map(Self::from_object)
    }

    /// The characters `chars` yields (at most 64, and few enough to fit inline: the caller
    /// checks) as an inline UCS4 string, gathered on the stack.
    fn inline_chars(chars: impl Iterator<Item = char>) -> Self {
        let mut buf = ['\0'; 64];
        let mut len = 0;
        for (slot, c) in buf.iter_mut().zip(chars) {
            *slot = c;
            len += 1;
        }
        Self::from_chars(&buf[..len])
    }

    /// `text` repeated `n` times, built in one allocation; `None` when the allocator refuses it.
    pub fn try_repeat_text(text: &str, n: usize) -> Option<Self> {
        let total = text.len().checked_mul(n)?;
        if total <= Self::INLINE_BYTES {
            return Some(Self::from_text(&text.repeat(n)));
        }
        // Repeating valid UTF-8 gives valid UTF-8.
        StrObj::try_repeat(text.as_bytes(), n).map(Self::from_object)
    }

    /// `chars` repeated `n` times as a UCS4 string, built in one allocation; `None` when the
    /// allocator refuses it.
    pub fn try_repeat_chars(chars: &[char], n: usize) -> Option<Self> {
        let total = chars.len().checked_mul(n)?;
        if total <= Self::INLINE_CHARS {
            return Some(Self::from_chars(&chars.repeat(n)));
        }
        UStrObj::try_repeat(chars, n).map(Self::from_object)
    }

    /// `bytes` repeated `n` times, built in one allocation; `None` when the allocator refuses it.
    pub fn try_repeat_bytes(bytes: &[u8], n: usize) -> Option<Self> {
        let total = bytes.len().checked_mul(n)?;
        if total <= Self::INLINE_BYTES {
            return Some(Self::from_bytes(&bytes.repeat(n)));
        }
        BytesObj::try_repeat(bytes, n).map(Self::from_object)
    }

    /// Appends `text` where this UTF-8 string stands: inline while it fits, else in a heap
    /// string that only this value refers to, grown geometrically, so that building a string a
    /// piece at a time (`out += c`) costs amortized O(1) per byte, as in CPython.
    ///
    /// False, with nothing changed, when this is no UTF-8 string, a shared one, or the
    /// allocator refuses; the caller then concatenates the ordinary way.
    pub fn try_append_text(&mut self, text: &str) -> bool {
        if let Some(current) = self.inline_text() {
            let (len, total) = (current.len(), current.len() + text.len());
            if total <= Self::INLINE_BYTES {
                // SAFETY: the inline area holds INLINE_BYTES bytes and `total` fits; bytes past the
                // old text were zero and are overwritten with valid UTF-8 that follows it.
                unsafe {
                    std::ptr::copy_nonoverlapping(text.as_ptr(), self.inline_ptr_mut().add(len), text.len());
                }
                self.raw.small_len = total as u32;
                return true;
            }
            let bytes = current.bytes().chain(text.bytes());
            return match StrObj::try_from_iter_exact(total, bytes) {
                Some(obj) => {
                    *self = Self::from_object(obj);
                    true
                }
                None => false,
            };
        }
        if self.raw.type_index != STR {
            return false;
        }
        // Taken out of `self` for the call, and put back whatever happens.
        let obj = match std::mem::take(self).into_object() {
            Ok(obj) => obj,
            Err(value) => {
                *self = value;
                return false;
            }
        };
        let string = match obj.downcast::<StrObj>() {
            Ok(string) => string,
            Err(other) => {
                *self = Self::from_object(other);
                return false;
            }
        };
        let (appended, string) = match StrObj::append_unique(string, text.as_bytes()) {
            Ok(grown) => (true, grown),
            Err(unchanged) => (false, unchanged),
        };
        *self = Self::from_object(string);
        appended
    }

    /// A byte string: inline when it fits, else a heap `Bytes` object.
    pub fn from_bytes(b: &[u8]) -> Self {
        if b.len() <= Self::INLINE_BYTES {
            // SAFETY: the length fits the inline area.
            unsafe { Self::inline_bytes(SMALL_BYTES, b) }
        } else {
            Self::from_object(BytesObj::from_slice(b))
        }
    }

    /// A UCS4 string from code points: inline when it fits, else a heap `UStr` object.
    pub fn from_chars(chars: &[char]) -> Self {
        if chars.len() <= Self::INLINE_CHARS {
            let mut v = Self::from_raw(RawAny::with_type(SMALL_USTR));
            v.raw.small_len = chars.len() as u32;
            let dst = v.inline_ptr_mut().cast::<char>();
            // SAFETY: the inline area is 8-aligned and holds INLINE_CHARS chars.
            unsafe { std::ptr::copy_nonoverlapping(chars.as_ptr(), dst, chars.len()) };
            v
        } else {
            Self::from_object(UStrObj::from_slice(chars))
        }
    }

    /// A UCS4 string holding the text of `s` (O(1) indexing by code point).
    pub fn from_text_ucs4(s: &str) -> Self {
        let n = s.chars().count();
        // The stack buffer bounds very wide pads; their longer strings go through the heap path.
        if n <= Self::INLINE_CHARS.min(64) {
            Self::inline_chars(s.chars())
        } else {
            Self::from_object(UStrObj::from_iter_exact(n, s.chars()))
        }
    }

    /// A one-character UTF-8 string; always inline.
    #[inline(always)]
    pub fn from_char(c: char) -> Self {
        // The UTF-8 bytes are computed straight into the payload word (first byte lowest),
        // with no buffer and no copy: this is the inner loop of unicode_split.
        let v = c as u32 as u64;
        let (word, len) = if v < 0x80 {
            (v, 1)
        } else if v < 0x800 {
            ((0xC0 | v >> 6) | (0x80 | v & 0x3F) << 8, 2)
        } else if v < 0x1_0000 {
            ((0xE0 | v >> 12) | (0x80 | v >> 6 & 0x3F) << 8 | (0x80 | v & 0x3F) << 16, 3)
        } else {
            (
                (0xF0 | v >> 18)
                    | (0x80 | v >> 12 & 0x3F) << 8
                    | (0x80 | v >> 6 & 0x3F) << 16
                    | (0x80 | v & 0x3F) << 24,
                4,
            )
        };
        let payload = Payload { v_bytes: word.to_le_bytes() };
        Self::from_raw(RawAny { type_index: SMALL_STR, small_len: len, payload })
    }

    /// The one-character string of an ASCII byte; always inline.
    ///
    /// A byte of 0x80 or above is masked to its low seven bits, so the value is valid UTF-8
    /// whatever it is given; callers pass bytes of text they checked is ASCII.
    #[inline(always)]
    pub fn from_ascii_byte(b: u8) -> Self {
        debug_assert!(b.is_ascii(), "from_ascii_byte({b:#x})");
        let payload = Payload { v_int64: (b & 0x7F) as i64 };
        Self::from_raw(RawAny { type_index: SMALL_STR, small_len: 1, payload })
    }

    /// The one-character string of byte `b`, unmasked: invalid UTF-8 when `b` is not ASCII.
    ///
    /// # Safety
    /// `b` is ASCII, or the value is never read as a value: it is only written to a vector's
    /// spare capacity that the caller leaves spare (dropping it would be harmless: it holds no
    /// object).
    #[inline(always)]
    pub(crate) unsafe fn from_byte_unmasked(b: u8) -> Self {
        let payload = Payload { v_int64: b as i64 };
        Self::from_raw(RawAny { type_index: SMALL_STR, small_len: 1, payload })
    }

    /// A one-code-point UCS4 string; always inline.
    #[inline]
    pub fn from_char_ucs4(c: char) -> Self {
        let mut v = Self::from_raw(RawAny::with_type(SMALL_USTR));
        v.raw.small_len = 1;
        v.raw.payload.v_char32 = [c as u32, 0];
        v
    }

    /// Holds an object; the value takes over the reference.
    pub fn from_object<T: ObjectType>(obj: ObjRef<T>) -> Self {
        let ty = obj.header().type_index();
        Self::from_raw(RawAny::with_ptr(ty, 0, obj.into_raw().as_ptr().cast()))
    }

    /// # Safety
    /// `bytes.len() <= INLINE_BYTES`, and for `SMALL_STR` the bytes are valid UTF-8.
    unsafe fn inline_bytes(type_index: i32, bytes: &[u8]) -> Self {
        let mut v = Self::from_raw(RawAny::with_type(type_index));
        v.raw.small_len = bytes.len() as u32;
        // SAFETY: the caller guarantees the length fits the inline area.
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), v.inline_ptr_mut(), bytes.len()) };
        v
    }

    /// Start of the inline area (payload then padding).
    ///
    /// Derived from the whole struct, not from the payload field, so that its
    /// provenance covers the padding words too.
    pub(crate) fn inline_ptr(&self) -> *const u8 {
        // SAFETY: offset 8 is inside `self` (the payload starts there).
        unsafe { (self as *const Self).cast::<u8>().add(8) }
    }

    fn inline_ptr_mut(&mut self) -> *mut u8 {
        // SAFETY: as in `inline_ptr`.
        unsafe { (self as *mut Self).cast::<u8>().add(8) }
    }

    /// The raw head (type index, small length, payload).
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

    /// Whether the value lives in a heap object.
    pub fn is_object(&self) -> bool {
        self.raw.type_index >= OBJECT_BEGIN
    }

    /// The value, decoded into a borrowed enum.
    #[inline]
    pub fn value(&self) -> Value<'_> {
        // SAFETY: by construction the inline area holds `small_len` valid units,
        // and object payloads are live objects we own a count of.
        unsafe { decode(&self.raw, self.inline_ptr()) }
    }

    /// The text, if this holds a UTF-8 string (inline or heap).
    ///
    /// Rationale: the same as `value().as_str()`, with two cases instead of a full decode:
    /// dict and set keys are hashed and compared this way first.
    #[inline(always)]
    pub fn as_str(&self) -> Option<&str> {
        let len = self.raw.small_len as usize;
        // SAFETY: inline UTF-8 is valid for `small_len` bytes of the inline area, and a `STR`
        // object is alive (we own a count of it) with its text after its head.
        unsafe {
            let bytes = match self.raw.type_index {
                SMALL_STR => std::slice::from_raw_parts(self.inline_ptr(), len),
                STR => tail_slice::<Utf8Kind>(NonNull::new_unchecked(self.raw.payload.v_ptr.cast())),
                _ => return None,
            };
            Some(std::str::from_utf8_unchecked(bytes))
        }
    }

    /// The object, if this holds one.
    #[inline]
    pub fn as_obj(&self) -> Option<ObjPtr<'_>> {
        if self.is_object() {
            // SAFETY: object payloads are non-null pointers to live objects we hold a count of.
            Some(unsafe { ObjPtr::new(NonNull::new_unchecked(self.raw.payload.v_ptr.cast())) })
        } else {
            None
        }
    }

    /// Moves the held object out as an `ObjRef`, if this holds one.
    pub fn into_object(self) -> Result<ObjRef<crate::object::Object>, Self> {
        if self.is_object() {
            // SAFETY: object values keep their pointer in `v_ptr`.
            let ptr = unsafe { self.raw.payload.v_ptr };
            std::mem::forget(self);
            // SAFETY: we owned one count of this live object and hand it over.
            Ok(unsafe { ObjRef::from_raw(NonNull::new_unchecked(ptr.cast())) })
        } else {
            Err(self)
        }
    }

    /// A non-owning view of this value.
    pub fn view(&self) -> super::view::AnyView<'_> {
        super::view::AnyView::of_pad(self)
    }

    /// The bool, if this is an inline bool (what a comparison leaves): the interpreter's
    /// fast path for a conditional jump.
    #[inline(always)]
    pub fn inline_bool(&self) -> Option<bool> {
        if self.raw.type_index != BOOL {
            return None;
        }
        // SAFETY: a `BOOL` value keeps 0 or 1 in `v_int64`.
        Some(unsafe { self.raw.payload.v_int64 } != 0)
    }

    /// The int, if this is an inline int: the interpreter's fast path, without a full decode.
    #[inline(always)]
    pub fn inline_int(&self) -> Option<i64> {
        if self.raw.type_index != INT {
            return None;
        }
        // SAFETY: an `INT` value keeps its number in `v_int64`.
        Some(unsafe { self.raw.payload.v_int64 })
    }

    /// The text, if this is an inline UTF-8 string: the interpreter's fast path.
    #[inline(always)]
    pub fn inline_text(&self) -> Option<&str> {
        if self.raw.type_index != SMALL_STR {
            return None;
        }
        let bytes = std::ptr::slice_from_raw_parts(self.inline_ptr(), self.raw.small_len as usize);
        // SAFETY: a `SMALL_STR` holds `small_len` (<= INLINE_BYTES) valid UTF-8 bytes inline.
        Some(unsafe { std::str::from_utf8_unchecked(&*bytes) })
    }

    /// The bytes, if this is an inline UTF-8 string of ASCII characters only, where a
    /// character index is a byte index: the interpreter's `text[i]` and `len(text)`.
    ///
    /// The test is O(1), on whole words: bytes past the text are zero.
    #[inline(always)]
    pub fn inline_ascii(&self) -> Option<&[u8]> {
        let text = self.inline_text()?;
        // SAFETY: a `SMALL_STR` (checked by `inline_text`) keeps its first 8 bytes in the payload word.
        let mut bits = unsafe { self.raw.payload.v_int64 } as u64;
        for w in &self.pad {
            bits |= w;
        }
        (bits & 0x8080_8080_8080_8080 == 0).then_some(text.as_bytes())
    }

    /// Moves this value into an `AnyPad<M>`; an inline string that does not fit moves to the heap then.
    #[inline]
    pub fn resize<const M: usize>(self) -> AnyPad<M> {
        let len = self.raw.small_len as usize;
        let fits = match self.raw.type_index {
            SMALL_STR | SMALL_BYTES => len <= AnyPad::<M>::INLINE_BYTES,
            SMALL_USTR => len <= AnyPad::<M>::INLINE_CHARS,
            _ => true,
        };
        if !fits {
            return self.resize_to_heap();
        }
        // The inline area is the payload word plus the padding words. Padding is always
        // initialised (zero past the text), so copying a fixed number of whole words is
        // exact and compiles to a few moves instead of a variable-length copy.
        let mut out = AnyPad::<M>::from_raw(self.raw);
        let words = N.min(M);
        out.pad[..words].copy_from_slice(&self.pad[..words]);
        // The reference (if any) moved into `out`.
        std::mem::forget(self);
        out
    }

    /// The slow half of `resize`: an inline string too long for `AnyPad<M>` becomes a heap string.
    #[cold]
    fn resize_to_heap<const M: usize>(self) -> AnyPad<M> {
        match self.value() {
            Value::Str(s) => AnyPad::<M>::from_text(s),
            Value::UStr(c) => AnyPad::<M>::from_chars(c),
            Value::Bytes(b) => AnyPad::<M>::from_bytes(b),
            _ => unreachable!("only inline strings can fail to fit"),
        }
    }

    /// This value as an object: scalars are boxed, inline strings move to the heap (seed 000, R0).
    ///
    /// `None` and pointers have no object form and come back unchanged as `Err`.
    pub fn into_object_boxed(self) -> Result<ObjRef<crate::object::Object>, Self> {
        use super::heap_kinds::Boxed;
        if self.is_object() {
            return self.into_object();
        }
        let boxed: AnyValue = match self.value() {
            Value::Int(i) => AnyValue::from_object(Boxed::new(i)),
            Value::Float(f) => AnyValue::from_object(Boxed::new(f)),
            Value::Bool(b) => AnyValue::from_object(Boxed::new(b)),
            Value::Str(s) => AnyValue::from_object(StrObj::from_slice(s.as_bytes())),
            Value::UStr(c) => AnyValue::from_object(UStrObj::from_slice(c)),
            Value::Bytes(b) => AnyValue::from_object(BytesObj::from_slice(b)),
            _ => return Err(self),
        };
        boxed.into_object().map_err(|_| self)
    }
}

impl<const N: usize> Clone for AnyPad<N> {
    #[inline]
    fn clone(&self) -> Self {
        if let Some(obj) = self.as_obj() {
            // SAFETY: the object is alive (we hold a count); the clone owns the new count.
            unsafe { inc_ref(obj.as_raw()) };
        }
        AnyPad { raw: self.raw, pad: self.pad }
    }
}

/// Empties `items`, skipping the per-item drop when none of them holds an object.
///
/// Rationale: a recycled list of one-character strings is cleared once per word, and dropping
/// it item by item (a compare and branch each) cost more than filling it. A list of at most
/// eight items (most words) is scanned by eight reads of `items[min(i, len - 1)]`, with no
/// loop exit to mispredict: list lengths are as random as word lengths.
#[inline]
pub fn clear_values<const N: usize>(items: &mut Vec<AnyPad<N>>) {
    let n = items.len();
    let holds_object = if n.wrapping_sub(1) < 8 {
        let last = n - 1;
        (0..8).fold(0u32, |acc, i| acc | items[i.min(last)].raw.type_index as u32) >= OBJECT_BEGIN as u32
    } else {
        any_object(items)
    };
    if holds_object {
        items.clear();
    } else {
        // SAFETY: no item holds an object, so dropping an item is a no-op and forgetting
        // them leaks nothing; length 0 is always within capacity.
        unsafe { items.set_len(0) }
    }
}

/// Whether any of `items` holds an object, by one branch-free scan of their type indices.
///
/// Or-ing the type indices, four at a time, gives a value below `OBJECT_BEGIN` exactly when
/// every index is (any index at or above it, or negative, sets a higher bit).
#[inline]
pub(crate) fn any_object<const N: usize>(items: &[AnyPad<N>]) -> bool {
    let tag = |v: &AnyPad<N>| v.raw.type_index as u32;
    let chunks = items.chunks_exact(4);
    let rest = chunks.remainder().iter().fold(0u32, |acc, v| acc | tag(v));
    let tags = chunks.fold(rest, |acc, c| acc | tag(&c[0]) | tag(&c[1]) | tag(&c[2]) | tag(&c[3]));
    tags >= OBJECT_BEGIN as u32
}

impl<const N: usize> Drop for AnyPad<N> {
    #[inline]
    fn drop(&mut self) {
        if let Some(obj) = self.as_obj() {
            // SAFETY: we own one count of this live object.
            unsafe { dec_ref(obj.as_raw()) }
        }
    }
}

impl<const N: usize> Default for AnyPad<N> {
    fn default() -> Self {
        Self::none()
    }
}

/// Crossing the C ABI: a plain `AnyValue`'s 16-byte head is the whole value.
impl AnyPad<0> {
    /// Hands the value over to foreign code, which now owns the held object reference.
    pub fn into_raw(self) -> RawAny {
        let raw = self.raw;
        std::mem::forget(self);
        raw
    }

    /// Takes over a value head that foreign code owned (the inverse of `into_raw`).
    ///
    /// # Safety
    /// `raw` must be a valid owned value head: inline strings within 8 bytes (2 code
    /// points) and valid, no borrowed (`RAW_*`) type, and an object pointer that is a
    /// live object whose reference the caller hands over.
    pub unsafe fn from_raw_owned(raw: RawAny) -> Self {
        Self::from_raw(raw)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::container::List;

    #[test]
    fn clear_values_drops_an_object_at_any_position_of_short_and_long_vectors() {
        // Both scans (the fixed eight reads and the loop) must see an object wherever it is.
        for n in 1..=12usize {
            for at in 0..n {
                let list = List::new();
                let mut items: Vec<AnyValue> = (0..n as i64).map(AnyValue::from).collect();
                items[at] = AnyValue::from(list.clone());
                assert_eq!(list.handle_count(), 2);
                clear_values(&mut items);
                assert!(items.is_empty());
                assert_eq!(list.handle_count(), 1, "object at {at} of {n} was not dropped");
            }
        }
        let mut inline: Vec<AnyValue> = ["a", "b", "c"].into_iter().map(AnyValue::from).collect();
        clear_values(&mut inline);
        assert!(inline.is_empty());
    }
}
