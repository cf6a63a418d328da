//! The DLPack ABI (v1.x), defined once.
//!
//! Every other layout that mentions a tensor (the `.npy` header, the C header,
//! the Python capsules) derives from these definitions; the asserts below pin
//! each size and offset to the DLPack spec (seed 004: define a layout once).

use std::ffi::c_void;
use std::mem::{offset_of, size_of};

/// The DLPack version this crate produces.
pub const DLPACK_VERSION: DLPackVersion = DLPackVersion { major: 1, minor: 0 };

/// `DLManagedTensorVersioned::flags`: the consumer must not write to the data.
pub const DLPACK_FLAG_BITMASK_READ_ONLY: u64 = 1 << 0;
/// `DLManagedTensorVersioned::flags`: the producer copied the data for this export.
pub const DLPACK_FLAG_BITMASK_IS_COPIED: u64 = 1 << 1;

/// A DLPack version number.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DLPackVersion {
    /// Bumped on ABI-breaking changes.
    pub major: u32,
    /// Bumped on compatible additions.
    pub minor: u32,
}

/// Where a tensor's memory lives: device type (`kDLCPU = 1`, `kDLCUDA = 2`, ...) and ordinal.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DLDevice {
    /// `DLDeviceType`.
    pub device_type: i32,
    /// Device ordinal.
    pub device_id: i32,
}

/// Device types of `DLDevice::device_type`.
pub mod device_type {
    /// Host memory.
    pub const CPU: i32 = 1;
    /// CUDA device memory.
    pub const CUDA: i32 = 2;
    /// Pinned CUDA host memory.
    pub const CUDA_HOST: i32 = 3;
    /// ROCm device memory.
    pub const ROCM: i32 = 10;
    /// CUDA managed memory.
    pub const CUDA_MANAGED: i32 = 13;
}

impl DLDevice {
    /// The host CPU.
    pub const CPU: DLDevice = DLDevice { device_type: device_type::CPU, device_id: 0 };

    /// Whether the memory is readable from the host.
    pub fn is_host_accessible(self) -> bool {
        matches!(self.device_type, device_type::CPU | device_type::CUDA_HOST | device_type::CUDA_MANAGED)
    }
}

/// An element type: type code, bits per lane, lanes.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DLDataType {
    /// `DLDataTypeCode`.
    pub code: u8,
    /// Bits per lane.
    pub bits: u8,
    /// Lanes (1 for scalars).
    pub lanes: u16,
}

/// Type codes of `DLDataType::code`.
pub mod type_code {
    /// Signed integer.
    pub const INT: u8 = 0;
    /// Unsigned integer.
    pub const UINT: u8 = 1;
    /// IEEE float.
    pub const FLOAT: u8 = 2;
    /// Opaque handle.
    pub const OPAQUE_HANDLE: u8 = 3;
    /// bfloat16.
    pub const BFLOAT: u8 = 4;
    /// Complex float.
    pub const COMPLEX: u8 = 5;
    /// Boolean (8 bits per element).
    pub const BOOL: u8 = 6;
}

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

    /// The type named `name` (`int64`, `float32`, ...), if supported.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|d| d.name() == name)
    }

    /// Every supported type's name, comma-separated, for error messages.
    pub fn all_names() -> String {
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
}

impl std::fmt::Display for DLDataType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
    }
}

/// A non-owning tensor description.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct DLTensor {
    /// Start of the data (before `byte_offset`).
    pub data: *mut c_void,
    /// Where the data lives.
    pub device: DLDevice,
    /// Number of dimensions.
    pub ndim: i32,
    /// Element type.
    pub dtype: DLDataType,
    /// `ndim` extents.
    pub shape: *mut i64,
    /// `ndim` strides in elements, or null for compact row-major.
    pub strides: *mut i64,
    /// Bytes from `data` to the first element.
    pub byte_offset: u64,
}

/// A tensor plus the means to release it (DLPack 0.x, the legacy capsule `"dltensor"`).
#[repr(C)]
#[derive(Debug)]
pub struct DLManagedTensor {
    /// The tensor.
    pub dl_tensor: DLTensor,
    /// Producer's context.
    pub manager_ctx: *mut c_void,
    /// Called once by the consumer when done; may be null.
    pub deleter: Option<unsafe extern "C" fn(*mut DLManagedTensor)>,
}

/// A versioned managed tensor with flags (DLPack 1.x, the capsule `"dltensor_versioned"`).
#[repr(C)]
#[derive(Debug)]
pub struct DLManagedTensorVersioned {
    /// The producer's DLPack version.
    pub version: DLPackVersion,
    /// Producer's context.
    pub manager_ctx: *mut c_void,
    /// Called once by the consumer when done; may be null.
    pub deleter: Option<unsafe extern "C" fn(*mut DLManagedTensorVersioned)>,
    /// `DLPACK_FLAG_BITMASK_*`.
    pub flags: u64,
    /// The tensor.
    pub dl_tensor: DLTensor,
}

const _: () = {
    assert!(size_of::<DLPackVersion>() == 8);
    assert!(size_of::<DLDevice>() == 8);
    assert!(offset_of!(DLDevice, device_id) == 4);
    assert!(size_of::<DLDataType>() == 4);
    assert!(offset_of!(DLDataType, code) == 0);
    assert!(offset_of!(DLDataType, bits) == 1);
    assert!(offset_of!(DLDataType, lanes) == 2);
    assert!(size_of::<DLTensor>() == 48);
    assert!(offset_of!(DLTensor, data) == 0);
    assert!(offset_of!(DLTensor, device) == 8);
    assert!(offset_of!(DLTensor, ndim) == 16);
    assert!(offset_of!(DLTensor, dtype) == 20);
    assert!(offset_of!(DLTensor, shape) == 24);
    assert!(offset_of!(DLTensor, strides) == 32);
    assert!(offset_of!(DLTensor, byte_offset) == 40);
    assert!(size_of::<DLManagedTensor>() == 64);
    assert!(offset_of!(DLManagedTensor, manager_ctx) == 48);
    assert!(offset_of!(DLManagedTensor, deleter) == 56);
    assert!(size_of::<DLManagedTensorVersioned>() == 80);
    assert!(offset_of!(DLManagedTensorVersioned, manager_ctx) == 8);
    assert!(offset_of!(DLManagedTensorVersioned, deleter) == 16);
    assert!(offset_of!(DLManagedTensorVersioned, flags) == 24);
    assert!(offset_of!(DLManagedTensorVersioned, dl_tensor) == 32);
};
