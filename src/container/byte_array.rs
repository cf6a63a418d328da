//! `ByteArray`: Python's `bytearray`, a shared, mutable run of bytes.
//!
//! Rationale: `bytes` are immutable values (inline when short), so a buffer that `append` and
//! `b[i] = x` change in place, seen through every handle, is an object of its own: a vector of
//! bytes behind a lock, as a list's items are.

use crate::any::AnyValue;
use crate::object::{ObjPtr, ObjRef, Object, TypeHooks};
use parking_lot::RwLock;

/// The heap object behind a `ByteArray`.
#[repr(C)]
pub struct ByteArrayObj {
    header: Object,
    bytes: RwLock<Vec<u8>>,
}

crate::declare_object_type!(ByteArrayObj, "bytearray", parent = Object, child_slots = 0, hooks = Some(&HOOKS));

static HOOKS: TypeHooks = TypeHooks {
    eq: |a, b, _| match (a.downcast_ref::<ByteArrayObj>(), b.downcast_ref::<ByteArrayObj>()) {
        (Some(x), Some(y)) => x.to_vec() == y.to_vec(),
        _ => false,
    },
    // Unhashable to Python (`check_hashable` refuses it first); by identity where a hash is
    // needed anyway.
    hash: |p, state, _| state.write_usize(p.as_raw().as_ptr() as usize),
    repr: |p, f, _| match p.downcast_ref::<ByteArrayObj>() {
        Some(b) => write_repr(f, &b.to_vec()),
        None => f.write_str("bytearray(?)"),
    },
};

/// CPython's `bytearray.__repr__`: as bytes' repr, but for `'`, which it escapes even inside
/// double quotes (`bytearray(b"it\'s")`).
fn write_repr(f: &mut std::fmt::Formatter<'_>, bytes: &[u8]) -> std::fmt::Result {
    use std::fmt::Write;
    let quote = if bytes.contains(&b'\'') && !bytes.contains(&b'"') { '"' } else { '\'' };
    write!(f, "bytearray(b{quote}")?;
    for &c in bytes {
        match c {
            b'\'' | b'\\' => write!(f, "\\{}", c as char)?,
            b'\t' => f.write_str("\\t")?,
            b'\n' => f.write_str("\\n")?,
            b'\r' => f.write_str("\\r")?,
            0x20..0x7f => f.write_char(c as char)?,
            _ => write!(f, "\\x{c:02x}")?,
        }
    }
    write!(f, "{quote})")
}

impl ByteArrayObj {
    /// The number of bytes.
    pub fn len(&self) -> usize {
        self.bytes.read().len()
    }

    /// Whether there are no bytes.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// A copy of the bytes, taken under the lock.
    pub fn to_vec(&self) -> Vec<u8> {
        self.bytes.read().clone()
    }

    /// Runs `f` on the bytes under the read lock (`f` must not reach this bytearray again).
    pub fn with_bytes<R>(&self, f: impl FnOnce(&[u8]) -> R) -> R {
        f(&self.bytes.read())
    }

    /// Runs `f` on the bytes under the write lock (`f` must not reach this bytearray again).
    pub fn with_bytes_mut<R>(&self, f: impl FnOnce(&mut Vec<u8>) -> R) -> R {
        f(&mut self.bytes.write())
    }
}

/// A shared handle to a bytearray.
#[derive(Clone)]
pub struct ByteArray(ObjRef<ByteArrayObj>);

impl ByteArray {
    /// A bytearray holding `bytes`.
    pub fn new(bytes: Vec<u8>) -> Self {
        ByteArray(ObjRef::new(ByteArrayObj { header: Object::blank(), bytes: RwLock::new(bytes) }))
    }

    /// The bytearray as a value.
    pub fn into_any(self) -> AnyValue {
        AnyValue::from_object(self.0)
    }
}

/// The bytearray behind `o`, if it is one.
pub fn byte_array_obj<'a>(o: ObjPtr<'a>) -> Option<&'a ByteArrayObj> {
    o.downcast_ref::<ByteArrayObj>()
}
