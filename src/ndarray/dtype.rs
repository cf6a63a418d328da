//! Element types: `.npy` descriptors of `DLDataType`s and the `Element` trait of Rust element types.

use super::dlpack::{DLDataType, type_code};
use crate::error::{Error, Result};

/// `.npy` descriptors of element types; the layout itself is in `anyproc_abi::dlpack`.
pub(crate) trait NpyDescr: Sized {
    /// The `.npy` descriptor (`<i8`, `|b1`, ...); bfloat16 has none in NumPy.
    fn npy_descr(self) -> Result<String>;
    /// The type of a `.npy` descriptor; big-endian data is refused.
    fn from_npy_descr(descr: &str) -> Result<Self>;
}

const fn dt(code: u8, bits: u8) -> DLDataType {
    DLDataType { code, bits, lanes: 1 }
}

impl NpyDescr for DLDataType {
    fn npy_descr(self) -> Result<String> {
        let kind = match self.code {
            type_code::BOOL => 'b',
            type_code::INT => 'i',
            type_code::UINT => 'u',
            type_code::FLOAT => 'f',
            _ => return Err(Error::value(format!("{} has no NumPy dtype", self.name()))),
        };
        if !self.is_supported() {
            return Err(Error::value(format!("{} has no NumPy dtype", self.name())));
        }
        let order = if self.itemsize() == 1 { '|' } else { '<' };
        Ok(format!("{order}{kind}{}", self.itemsize()))
    }

    fn from_npy_descr(descr: &str) -> Result<Self> {
        let bad = || Error::value(format!("unsupported .npy dtype descriptor {descr:?}"));
        let mut chars = descr.chars();
        let order = chars.next().ok_or_else(bad)?;
        let kind = chars.next().ok_or_else(bad)?;
        let size: u8 = chars.as_str().parse().map_err(|_| bad())?;
        if order == '>' && size > 1 {
            return Err(Error::value(format!("big-endian .npy data ({descr:?}) is not supported")));
        }
        if !matches!(order, '<' | '|' | '=') {
            return Err(bad());
        }
        let code = match kind {
            'b' => type_code::BOOL,
            'i' => type_code::INT,
            'u' => type_code::UINT,
            'f' => type_code::FLOAT,
            _ => return Err(bad()),
        };
        let d = dt(code, size.checked_mul(8).ok_or_else(bad)?);
        if d.is_supported() { Ok(d) } else { Err(bad()) }
    }
}

/// A Rust type that is the element type of an `NDArray`.
///
/// # Safety
/// `DTYPE` must describe `Self` exactly (size and bit pattern), and every bit
/// pattern of that size must be a valid `Self` unless `validate` says otherwise.
pub unsafe trait Element: Copy + Send + Sync + 'static {
    /// The matching DLPack type.
    const DTYPE: DLDataType;
    /// Whether `bytes` (a whole buffer of this type) holds only valid values.
    fn validate(_bytes: &[u8]) -> bool {
        true
    }
}

macro_rules! element {
    ($($t:ty => $d:ident),* $(,)?) => {$(
        // SAFETY: the dtype matches the Rust type's size and every bit pattern is valid.
        unsafe impl Element for $t {
            const DTYPE: DLDataType = DLDataType::$d;
        }
    )*};
}

element!(i8 => INT8, i16 => INT16, i32 => INT32, i64 => INT64, u8 => UINT8, u16 => UINT16, u32 => UINT32,
    u64 => UINT64, f32 => FLOAT32, f64 => FLOAT64, half::f16 => FLOAT16, half::bf16 => BFLOAT16);

// SAFETY: bool is one byte; `validate` rejects any byte other than 0 or 1.
unsafe impl Element for bool {
    const DTYPE: DLDataType = DLDataType::BOOL;
    fn validate(bytes: &[u8]) -> bool {
        bytes.iter().all(|&b| b <= 1)
    }
}
