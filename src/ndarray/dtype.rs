//! Element types: named `DLDataType` constants, their names, sizes and `.npy` descriptors.

use super::dlpack::{DLDataType, type_code};
use crate::error::{Error, Result};

const fn dt(code: u8, bits: u8) -> DLDataType {
    DLDataType { code, bits, lanes: 1 }
}

impl DLDataType {
    /// `bool`, one byte per element.
    pub const BOOL: Self = dt(type_code::BOOL, 8);
    /// `int8`.
    pub const INT8: Self = dt(type_code::INT, 8);
    /// `int16`.
    pub const INT16: Self = dt(type_code::INT, 16);
    /// `int32`.
    pub const INT32: Self = dt(type_code::INT, 32);
    /// `int64`.
    pub const INT64: Self = dt(type_code::INT, 64);
    /// `uint8`.
    pub const UINT8: Self = dt(type_code::UINT, 8);
    /// `uint16`.
    pub const UINT16: Self = dt(type_code::UINT, 16);
    /// `uint32`.
    pub const UINT32: Self = dt(type_code::UINT, 32);
    /// `uint64`.
    pub const UINT64: Self = dt(type_code::UINT, 64);
    /// `float16`.
    pub const FLOAT16: Self = dt(type_code::FLOAT, 16);
    /// `float32`.
    pub const FLOAT32: Self = dt(type_code::FLOAT, 32);
    /// `float64`.
    pub const FLOAT64: Self = dt(type_code::FLOAT, 64);
    /// `bfloat16`.
    pub const BFLOAT16: Self = dt(type_code::BFLOAT, 16);

    /// Every element type an `NDArray` supports.
    pub const ALL: [Self; 13] = [
        Self::BOOL,
        Self::INT8,
        Self::INT16,
        Self::INT32,
        Self::INT64,
        Self::UINT8,
        Self::UINT16,
        Self::UINT32,
        Self::UINT64,
        Self::FLOAT16,
        Self::FLOAT32,
        Self::FLOAT64,
        Self::BFLOAT16,
    ];

    /// The type's name (`int64`, `float32`, `bool`, ...), or a description of an unsupported one.
    pub fn name(self) -> String {
        let base = match (self.code, self.bits) {
            (type_code::BOOL, 8) => "bool".to_string(),
            (type_code::INT, b) => format!("int{b}"),
            (type_code::UINT, b) => format!("uint{b}"),
            (type_code::FLOAT, b) => format!("float{b}"),
            (type_code::BFLOAT, b) => format!("bfloat{b}"),
            (type_code::COMPLEX, b) => format!("complex{b}"),
            (code, bits) => format!("dtype(code={code}, bits={bits})"),
        };
        if self.lanes == 1 { base } else { format!("{base}x{}", self.lanes) }
    }

    /// Parses a name such as `int64` or `float32`.
    pub fn parse(name: &str) -> Result<Self> {
        Self::ALL
            .into_iter()
            .find(|d| d.name() == name)
            .ok_or_else(|| Error::value(format!("unknown dtype {name:?} (expected one of: {})", Self::all_names())))
    }

    fn all_names() -> String {
        Self::ALL.iter().map(|d| d.name()).collect::<Vec<_>>().join(", ")
    }

    /// Whether an `NDArray` supports this type.
    pub fn is_supported(self) -> bool {
        Self::ALL.contains(&self)
    }

    /// Bytes per element.
    pub fn itemsize(self) -> usize {
        (self.bits as usize * self.lanes as usize).div_ceil(8)
    }

    /// The `.npy` descriptor (`<i8`, `|b1`, ...); bfloat16 has none in NumPy.
    pub fn npy_descr(self) -> Result<String> {
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

    /// The type of a `.npy` descriptor; big-endian data is refused.
    pub fn from_npy_descr(descr: &str) -> Result<Self> {
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

impl std::fmt::Display for DLDataType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
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
