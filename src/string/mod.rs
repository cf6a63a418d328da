//! Typed string handles: `Str` (UTF-8), `UStr` (UCS4) and `Bytes`, each inline or on the heap.

mod bytes;
mod str;
mod ustr;

pub use self::bytes::Bytes;
pub use self::str::Str;
pub use self::ustr::UStr;

/// Python-style index normalisation: negative counts from the end.
#[inline]
pub(crate) fn normalize_index(index: i64, len: usize) -> crate::Result<usize> {
    let n = len as i64;
    let i = if index < 0 { index + n } else { index };
    if (0..n).contains(&i) { Ok(i as usize) } else { Err(crate::Error::index_out_of_range(index, len)) }
}

/// Python-style slice bounds (step 1): clamps `start..stop`, negatives counting from the end.
pub(crate) fn normalize_range(start: Option<i64>, stop: Option<i64>, len: usize) -> std::ops::Range<usize> {
    let n = len as i64;
    let clamp = |i: i64| if i < 0 { (i + n).max(0) } else { i.min(n) } as usize;
    let s = start.map_or(0, clamp);
    let e = stop.map_or(len, clamp);
    s..e.max(s)
}
