//! The raw 16-byte layout shared by `AnyValue`, `AnyView` and the head of `AnyPad<N>`.

use std::ffi::c_void;

/// The 8-byte payload: what it holds depends on the type index.
#[repr(C)]
#[derive(Clone, Copy)]
pub union Payload {
    /// `INT`.
    pub v_int64: i64,
    /// `FLOAT`.
    pub v_float64: f64,
    /// Objects, borrowed strings and opaque pointers.
    pub v_ptr: *mut c_void,
    /// Inline UTF-8 and byte strings (continued into an `AnyPad`'s padding).
    pub v_bytes: [u8; 8],
    /// Inline UCS4 strings (continued into an `AnyPad`'s padding).
    pub v_char32: [u32; 2],
}

/// The common head of every any-value: type index, small length, payload (seed 000, D0).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct RawAny {
    /// Which kind of value this is; see `type_index`.
    pub type_index: i32,
    /// Length of an inline or borrowed string (bytes for UTF-8, code points for UCS4).
    pub small_len: u32,
    /// The value itself, or a pointer to it.
    pub payload: Payload,
}

const _: () = {
    assert!(std::mem::size_of::<RawAny>() == 16);
    assert!(std::mem::align_of::<RawAny>() == 8);
    assert!(std::mem::offset_of!(RawAny, type_index) == 0);
    assert!(std::mem::offset_of!(RawAny, small_len) == 4);
    assert!(std::mem::offset_of!(RawAny, payload) == 8);
    assert!(std::mem::size_of::<Payload>() == 8);
};

impl RawAny {
    /// A value of `type_index` with a zero payload.
    pub const fn with_type(type_index: i32) -> Self {
        RawAny { type_index, small_len: 0, payload: Payload { v_int64: 0 } }
    }

    /// A value of `type_index` whose payload is the pointer `ptr`.
    pub fn with_ptr(type_index: i32, small_len: u32, ptr: *mut c_void) -> Self {
        RawAny { type_index, small_len, payload: Payload { v_ptr: ptr } }
    }
}
