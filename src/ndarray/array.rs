//! `NDArray`: an n-dimensional array object that owns an aligned buffer or borrows a DLPack tensor.

use super::dlpack::{DLDataType, DLDevice, DLManagedTensor, DLManagedTensorVersioned, DLTensor, device_type};
use super::dtype::Element;
use crate::any::type_index::NDARRAY;
use crate::any::{AnyPad, AnyValue, FromAny, Value};
use crate::error::{Error, Result};
use crate::object::{ObjPtr, ObjRef, Object, ObjectType, TypeHooks};
use std::fmt;
use std::hash::Hasher;
use std::ptr::NonNull;

use super::buffer::{ALIGNMENT, Buffer};

/// Who keeps an array's memory alive.
pub(crate) enum Storage {
    /// A buffer this array allocated.
    Owned(Buffer),
    /// An imported legacy DLPack tensor; its deleter runs when the array dies.
    Legacy(NonNull<DLManagedTensor>),
    /// An imported versioned DLPack tensor; its deleter runs when the array dies.
    Versioned(NonNull<DLManagedTensorVersioned>),
    /// A view into another array's memory.
    Parent(ObjRef<NDArrayObj>),
}

impl Drop for Storage {
    fn drop(&mut self) {
        match *self {
            // The buffer frees (or recycles) itself.
            Storage::Owned(_) => {}
            // SAFETY: we took ownership of the managed tensor on import; its deleter runs once, here.
            Storage::Legacy(m) => unsafe {
                if let Some(d) = (*m.as_ptr()).deleter {
                    d(m.as_ptr())
                }
            },
            // SAFETY: as above.
            Storage::Versioned(m) => unsafe {
                if let Some(d) = (*m.as_ptr()).deleter {
                    d(m.as_ptr())
                }
            },
            Storage::Parent(_) => {}
        }
    }
}

/// The heap object behind an `NDArray`.
#[repr(C)]
pub struct NDArrayObj {
    header: Object,
    /// `data` points at the first element; `byte_offset` is always 0; shape and
    /// strides point into the boxes below.
    pub(crate) tensor: DLTensor,
    shape: Box<[i64]>,
    strides: Box<[i64]>,
    read_only: bool,
    storage: Storage,
}

// SAFETY: the raw pointers refer to memory owned (or kept alive) by `storage`; shared
// access only reads, and writes need a unique handle (`NDArray::as_mut_slice`).
unsafe impl Send for NDArrayObj {}
// SAFETY: as above.
unsafe impl Sync for NDArrayObj {}

static NDARRAY_HOOKS: TypeHooks = TypeHooks { eq: ndarray_eq, hash: ndarray_hash, repr: ndarray_repr };

// SAFETY: repr(C) with the header first.
unsafe impl ObjectType for NDArrayObj {
    const TYPE_KEY: &'static str = "object.NDArray";
    const HOOKS: Option<&'static TypeHooks> = Some(&NDARRAY_HOOKS);
    fn type_index() -> i32 {
        NDARRAY
    }
}

/// Row-major strides (in elements) for `shape`.
pub fn compact_strides(shape: &[i64]) -> Vec<i64> {
    let mut strides = vec![1i64; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        strides[i] = strides[i + 1].saturating_mul(shape[i + 1].max(1));
    }
    strides
}

/// The element count of `shape`, or an error naming a negative or overflowing extent.
pub fn checked_numel(shape: &[i64]) -> Result<usize> {
    shape.iter().enumerate().try_fold(1usize, |acc, (i, &d)| {
        let d = usize::try_from(d).map_err(|_| Error::value(format!("shape {shape:?}: extent {i} is negative")))?;
        acc.checked_mul(d).ok_or_else(|| Error::value(format!("shape {shape:?} overflows the address space")))
    })
}

fn device_name(d: DLDevice) -> String {
    let kind = match d.device_type {
        device_type::CPU => "cpu",
        device_type::CUDA => "cuda",
        device_type::CUDA_HOST => "cuda_host",
        device_type::ROCM => "rocm",
        device_type::CUDA_MANAGED => "cuda_managed",
        _ => "device",
    };
    format!("{kind}:{}", d.device_id)
}

/// An n-dimensional array; clones share the object (and its memory).
#[derive(Clone)]
pub struct NDArray(pub(crate) ObjRef<NDArrayObj>);

impl NDArray {
    fn from_parts(
        data: *mut u8,
        device: DLDevice,
        dtype: DLDataType,
        shape: Vec<i64>,
        strides: Vec<i64>,
        read_only: bool,
        storage: Storage,
    ) -> Self {
        let mut shape = shape.into_boxed_slice();
        let mut strides = strides.into_boxed_slice();
        let tensor = DLTensor {
            data: data.cast(),
            device,
            ndim: shape.len() as i32,
            dtype,
            shape: shape.as_mut_ptr(),
            strides: strides.as_mut_ptr(),
            byte_offset: 0,
        };
        NDArray(ObjRef::new(NDArrayObj { header: Object::blank(), tensor, shape, strides, read_only, storage }))
    }

    /// A zero-filled CPU array; errors name a negative or overflowing shape or an unsupported dtype.
    pub fn zeros(shape: &[i64], dtype: DLDataType) -> Result<Self> {
        Self::owned(shape, dtype, Buffer::zeroed)
    }

    /// A CPU array whose elements are unspecified (zeros, or stale values of a recycled
    /// buffer of the same size), for producers that write every element.
    ///
    /// Bool arrays are always zeroed: a stale byte may not be a valid `bool`.
    pub(crate) fn scratch(shape: &[i64], dtype: DLDataType) -> Result<Self> {
        if dtype == DLDataType::BOOL {
            return Self::zeros(shape, dtype);
        }
        Self::owned(shape, dtype, Buffer::scratch)
    }

    fn owned(shape: &[i64], dtype: DLDataType, make: fn(usize) -> Option<Buffer>) -> Result<Self> {
        if !dtype.is_supported() {
            return Err(Error::value(format!("unsupported dtype {}", dtype.name())));
        }
        if shape.len() > i32::MAX as usize {
            return Err(Error::value("too many dimensions"));
        }
        let numel = checked_numel(shape)?;
        let too_large = || Error::value(format!("shape {shape:?} of {dtype} is too large"));
        let bytes = numel
            .checked_mul(dtype.itemsize())
            .filter(|&b| b <= isize::MAX as usize - ALIGNMENT)
            .ok_or_else(too_large)?;
        // The size can be laid out (checked above), so `None` means the allocator refused it.
        let buf = make(bytes).ok_or_else(|| Error::out_of_memory(&format!("shape {shape:?} of {dtype}"), bytes))?;
        let strides = compact_strides(shape);
        Ok(Self::from_parts(
            buf.ptr().as_ptr(),
            DLDevice::CPU,
            dtype,
            shape.to_vec(),
            strides,
            false,
            Storage::Owned(buf),
        ))
    }

    /// A CPU array holding a copy of `data` with the given shape.
    pub fn from_slice<T: Element>(data: &[T], shape: &[i64]) -> Result<Self> {
        let numel = checked_numel(shape)?;
        if numel != data.len() {
            return Err(Error::value(format!("shape {shape:?} needs {numel} elements, got {}", data.len())));
        }
        let mut out = Self::zeros(shape, T::DTYPE)?;
        out.as_mut_slice::<T>()?.copy_from_slice(data);
        Ok(out)
    }

    fn obj(&self) -> &NDArrayObj {
        &self.0
    }

    /// The extents.
    pub fn shape(&self) -> &[i64] {
        &self.obj().shape
    }

    /// The strides, in elements (always filled).
    pub fn strides(&self) -> &[i64] {
        &self.obj().strides
    }

    /// Number of dimensions.
    pub fn ndim(&self) -> usize {
        self.obj().shape.len()
    }

    /// Number of elements.
    pub fn numel(&self) -> usize {
        // Validated when the array was made.
        self.shape().iter().map(|&d| d as usize).product()
    }

    /// The element type.
    pub fn dtype(&self) -> DLDataType {
        self.obj().tensor.dtype
    }

    /// Where the memory lives.
    pub fn device(&self) -> DLDevice {
        self.obj().tensor.device
    }

    /// Whether writes are forbidden (an imported read-only tensor).
    pub fn is_read_only(&self) -> bool {
        self.obj().read_only
    }

    /// Address of the first element.
    pub fn data_ptr(&self) -> *const u8 {
        self.obj().tensor.data.cast()
    }

    /// The DLPack description of this array (valid while the array lives).
    pub fn dl_tensor(&self) -> &DLTensor {
        &self.obj().tensor
    }

    /// Whether the elements are dense and row-major.
    pub fn is_contiguous(&self) -> bool {
        let compact = compact_strides(self.shape());
        self.shape().iter().zip(self.strides().iter().zip(&compact)).all(|(&d, (&s, &c))| d <= 1 || s == c)
    }

    fn check_host(&self) -> Result<()> {
        if self.device().is_host_accessible() {
            Ok(())
        } else {
            Err(Error::value(format!("array is on {}; copy it to the CPU first", device_name(self.device()))))
        }
    }

    /// The elements' bytes, for a contiguous host array.
    pub fn bytes(&self) -> Result<&[u8]> {
        self.check_host()?;
        if !self.is_contiguous() {
            return Err(Error::value("array is not contiguous"));
        }
        let len = self.numel() * self.dtype().itemsize();
        if len == 0 {
            return Ok(&[]);
        }
        // SAFETY: host memory of `len` bytes from the first element, kept alive by `self`.
        Ok(unsafe { std::slice::from_raw_parts(self.data_ptr(), len) })
    }

    /// The elements as `&[T]`, for a contiguous host array of `T`'s dtype.
    pub fn as_slice<T: Element>(&self) -> Result<&[T]> {
        if self.dtype() != T::DTYPE {
            return Err(Error::type_mismatch(&T::DTYPE.name(), &self.dtype().name()).context("ndarray dtype"));
        }
        let bytes = self.bytes()?;
        if bytes.is_empty() {
            return Ok(&[]);
        }
        if (bytes.as_ptr() as usize) % std::mem::align_of::<T>() != 0 {
            return Err(Error::value("array data is not aligned for its element type"));
        }
        if !T::validate(bytes) {
            return Err(Error::value(format!("array holds invalid {} values", T::DTYPE.name())));
        }
        // SAFETY: dtype, size, alignment and validity were checked above.
        Ok(unsafe { std::slice::from_raw_parts(bytes.as_ptr().cast::<T>(), self.numel()) })
    }

    /// The elements as `&mut [T]`; only for an owned array with no other handle, view or export.
    pub fn as_mut_slice<T: Element>(&mut self) -> Result<&mut [T]> {
        if self.dtype() != T::DTYPE {
            return Err(Error::type_mismatch(&T::DTYPE.name(), &self.dtype().name()).context("ndarray dtype"));
        }
        let numel = self.numel();
        let obj = self.0.get_mut().ok_or_else(|| Error::value("array is shared; cannot write to it"))?;
        let Storage::Owned(buf) = &obj.storage else {
            return Err(Error::value("array does not own its memory; cannot write to it"));
        };
        // SAFETY: an owned, 64-byte aligned, initialised buffer of `numel` T (sized at creation;
        // bool buffers are always zeroed, so every byte is a valid T); the unique handle
        // guarantees no other reader; owned arrays are contiguous.
        Ok(unsafe { std::slice::from_raw_parts_mut(buf.ptr().as_ptr().cast::<T>(), numel) })
    }

    fn element_offset(&self, index: &[i64]) -> Result<isize> {
        if index.len() != self.ndim() {
            return Err(Error::value(format!("index has {} dimensions, array has {}", index.len(), self.ndim())));
        }
        let mut off = 0isize;
        for (axis, ((&i, &d), &s)) in index.iter().zip(self.shape()).zip(self.strides()).enumerate() {
            let j = if i < 0 { i + d } else { i };
            if !(0..d).contains(&j) {
                return Err(Error::index_out_of_range(i, d as usize).context(format!("axis {axis}")));
            }
            off += (j * s) as isize;
        }
        Ok(off * self.dtype().itemsize() as isize)
    }

    /// The element at `index` (one entry per axis, negatives from the end), boxed.
    pub fn get(&self, index: &[i64]) -> Result<AnyValue> {
        self.check_host()?;
        let off = self.element_offset(index)?;
        // SAFETY: the offset was bounds-checked against shape and strides; host memory.
        unsafe { read_element(self.data_ptr().offset(off), self.dtype()) }
    }

    /// The bytes of the element at `index` (one entry per axis, negatives from the end).
    pub fn element_bytes(&self, index: &[i64]) -> Result<&[u8]> {
        self.check_host()?;
        let off = self.element_offset(index)?;
        // SAFETY: the offset was bounds-checked against shape and strides; host memory kept alive by `self`.
        Ok(unsafe { std::slice::from_raw_parts(self.data_ptr().offset(off), self.dtype().itemsize()) })
    }

    /// Row `i` of the first axis as a zero-copy view.
    pub fn row(&self, i: i64) -> Result<NDArray> {
        let Some(&n) = self.shape().first() else { return Err(Error::value("a 0-d array has no rows")) };
        let j = if i < 0 { i + n } else { i };
        if !(0..n).contains(&j) {
            return Err(Error::index_out_of_range(i, n as usize).context("row"));
        }
        let offset = j as isize * self.strides()[0] as isize * self.dtype().itemsize() as isize;
        // Views point at the owner, not at another view, so chains never form.
        let owner = match &self.obj().storage {
            Storage::Parent(p) => p.clone(),
            _ => self.0.clone(),
        };
        let obj = self.obj();
        Ok(Self::from_parts(
            // SAFETY: row j lies inside the parent's memory (bounds checked above).
            unsafe { self.data_ptr().offset(offset) as *mut u8 },
            obj.tensor.device,
            obj.tensor.dtype,
            self.shape()[1..].to_vec(),
            self.strides()[1..].to_vec(),
            obj.read_only,
            Storage::Parent(owner),
        ))
    }

    /// The whole array as nested `List`s of boxed elements.
    pub fn to_list(&self) -> Result<AnyValue> {
        self.check_host()?;
        let mut index = vec![0i64; self.ndim()];
        self.to_list_from(&mut index, 0)
    }

    fn to_list_from(&self, index: &mut Vec<i64>, axis: usize) -> Result<AnyValue> {
        if axis == self.ndim() {
            return self.get(index);
        }
        let mut out = crate::List::with_capacity(self.shape()[axis] as usize);
        for i in 0..self.shape()[axis] {
            index[axis] = i;
            out.push(self.to_list_from(index, axis + 1)?);
        }
        Ok(out.into_any())
    }

    /// Takes ownership of an imported versioned DLPack tensor; its deleter runs exactly once.
    ///
    /// On error the deleter has already run.
    ///
    /// # Safety
    /// `managed` must point to a valid `DLManagedTensorVersioned` that the caller owns.
    pub unsafe fn from_dlpack_versioned(managed: NonNull<DLManagedTensorVersioned>) -> Result<Self> {
        // Take ownership first, so every error path below runs the deleter.
        let storage = Storage::Versioned(managed);
        // SAFETY: valid per the caller's contract.
        let m = unsafe { managed.as_ref() };
        if m.version.major != 1 {
            return Err(Error::value(format!("unsupported DLPack version {}.{}", m.version.major, m.version.minor)));
        }
        let read_only = m.flags & super::dlpack::DLPACK_FLAG_BITMASK_READ_ONLY != 0;
        // SAFETY: the tensor belongs to the managed tensor we own.
        unsafe { Self::import(&m.dl_tensor, read_only, storage) }
    }

    /// Takes ownership of an imported legacy DLPack tensor; its deleter runs exactly once.
    ///
    /// # Safety
    /// `managed` must point to a valid `DLManagedTensor` that the caller owns.
    pub unsafe fn from_dlpack(managed: NonNull<DLManagedTensor>) -> Result<Self> {
        let storage = Storage::Legacy(managed);
        // SAFETY: valid per the caller's contract.
        let m = unsafe { managed.as_ref() };
        // SAFETY: the tensor belongs to the managed tensor we own.
        unsafe { Self::import(&m.dl_tensor, false, storage) }
    }

    /// # Safety
    /// `t` must be a valid tensor kept alive by `storage`.
    unsafe fn import(t: &DLTensor, read_only: bool, storage: Storage) -> Result<Self> {
        if t.ndim < 0 {
            return Err(Error::value(format!("DLPack tensor has negative ndim {}", t.ndim)));
        }
        if !t.dtype.is_supported() {
            return Err(Error::value(format!("DLPack tensor has unsupported dtype {}", t.dtype.name())));
        }
        let ndim = t.ndim as usize;
        if ndim > 0 && t.shape.is_null() {
            return Err(Error::value("DLPack tensor has a null shape"));
        }
        // SAFETY: a valid tensor has `ndim` extents (and strides, when not null).
        let shape = if ndim == 0 { vec![] } else { unsafe { std::slice::from_raw_parts(t.shape, ndim) }.to_vec() };
        let numel = checked_numel(&shape)?;
        let strides = if t.strides.is_null() || ndim == 0 {
            compact_strides(&shape)
        } else {
            // SAFETY: as above.
            unsafe { std::slice::from_raw_parts(t.strides, ndim) }.to_vec()
        };
        if numel > 0 && t.data.is_null() {
            return Err(Error::value("DLPack tensor has null data"));
        }
        let data = (t.data as *mut u8).wrapping_add(t.byte_offset as usize);
        Ok(Self::from_parts(data, t.device, t.dtype, shape, strides, read_only, storage))
    }

    /// Exports as a versioned DLPack tensor that keeps this array alive until its deleter runs.
    pub fn to_dlpack_versioned(&self) -> NonNull<DLManagedTensorVersioned> {
        let flags = if self.is_read_only() { super::dlpack::DLPACK_FLAG_BITMASK_READ_ONLY } else { 0 };
        let ctx = Box::new(Export {
            managed: DLManagedTensorVersioned {
                version: super::dlpack::DLPACK_VERSION,
                manager_ctx: std::ptr::null_mut(),
                deleter: Some(delete_export::<DLManagedTensorVersioned>),
                flags,
                dl_tensor: self.obj().tensor,
            },
            _owner: self.clone(),
        });
        // SAFETY: Box::into_raw is never null; `managed` is the first field of the repr(C) Export.
        unsafe { NonNull::new_unchecked(Box::into_raw(ctx)).cast() }
    }

    /// Exports as a legacy DLPack tensor that keeps this array alive until its deleter runs.
    pub fn to_dlpack(&self) -> NonNull<DLManagedTensor> {
        let ctx = Box::new(Export {
            managed: DLManagedTensor {
                dl_tensor: self.obj().tensor,
                manager_ctx: std::ptr::null_mut(),
                deleter: Some(delete_export::<DLManagedTensor>),
            },
            _owner: self.clone(),
        });
        // SAFETY: as in `to_dlpack_versioned`.
        unsafe { NonNull::new_unchecked(Box::into_raw(ctx)).cast() }
    }

    /// Whether two handles share one array object.
    pub fn ptr_eq(&self, other: &NDArray) -> bool {
        self.0.ptr_eq(&other.0)
    }

    /// The array as an any-value.
    pub fn into_any(self) -> AnyValue {
        self.into()
    }
}

/// An exported tensor and the array it keeps alive; `managed` first, so its address is the context's.
#[repr(C)]
struct Export<M> {
    managed: M,
    _owner: NDArray,
}

unsafe extern "C" fn delete_export<M>(managed: *mut M) {
    if !managed.is_null() {
        // SAFETY: `managed` came from `Box<Export<M>>::into_raw` in an export function; runs once.
        drop(unsafe { Box::from_raw(managed.cast::<Export<M>>()) });
    }
}

/// Reads one element of `dtype` at `p` as an any-value.
///
/// # Safety
/// `p` must point to a readable element of `dtype` in host memory.
pub(crate) unsafe fn read_element(p: *const u8, dtype: DLDataType) -> Result<AnyValue> {
    // SAFETY: per the contract; unaligned reads because imported data may be unaligned.
    unsafe {
        Ok(match dtype {
            DLDataType::BOOL => AnyValue::from_bool(p.read() != 0),
            DLDataType::INT8 => AnyValue::from_int(p.cast::<i8>().read_unaligned() as i64),
            DLDataType::INT16 => AnyValue::from_int(p.cast::<i16>().read_unaligned() as i64),
            DLDataType::INT32 => AnyValue::from_int(p.cast::<i32>().read_unaligned() as i64),
            DLDataType::INT64 => AnyValue::from_int(p.cast::<i64>().read_unaligned()),
            DLDataType::UINT8 => AnyValue::from_int(p.read() as i64),
            DLDataType::UINT16 => AnyValue::from_int(p.cast::<u16>().read_unaligned() as i64),
            DLDataType::UINT32 => AnyValue::from_int(p.cast::<u32>().read_unaligned() as i64),
            DLDataType::UINT64 => {
                let v = p.cast::<u64>().read_unaligned();
                AnyValue::from_int(i64::try_from(v).map_err(|_| Error::value(format!("uint64 value {v} exceeds int")))?)
            }
            DLDataType::FLOAT16 => AnyValue::from_float(p.cast::<half::f16>().read_unaligned().to_f64()),
            DLDataType::BFLOAT16 => AnyValue::from_float(p.cast::<half::bf16>().read_unaligned().to_f64()),
            DLDataType::FLOAT32 => AnyValue::from_float(p.cast::<f32>().read_unaligned() as f64),
            DLDataType::FLOAT64 => AnyValue::from_float(p.cast::<f64>().read_unaligned()),
            other => return Err(Error::value(format!("unsupported dtype {}", other.name()))),
        })
    }
}

fn ndarray_eq(a: ObjPtr<'_>, b: ObjPtr<'_>, _depth: usize) -> bool {
    let (Some(a), Some(b)) = (a.to_owned_as::<NDArrayObj>(), b.to_owned_as::<NDArrayObj>()) else { return false };
    let (a, b) = (NDArray(a), NDArray(b));
    a.dtype() == b.dtype() && a.shape() == b.shape() && matches!((a.bytes(), b.bytes()), (Ok(x), Ok(y)) if x == y)
}

fn ndarray_hash(o: ObjPtr<'_>, state: &mut dyn Hasher, _depth: usize) {
    if let Some(a) = o.to_owned_as::<NDArrayObj>().map(NDArray) {
        state.write_u32(a.dtype().code as u32 | (a.dtype().bits as u32) << 8);
        a.shape().iter().for_each(|&d| state.write_i64(d));
        if let Ok(b) = a.bytes() {
            state.write(b);
        }
    }
}

fn ndarray_repr(o: ObjPtr<'_>, f: &mut fmt::Formatter<'_>, _depth: usize) -> fmt::Result {
    match o.to_owned_as::<NDArrayObj>().map(NDArray) {
        Some(a) => fmt::Debug::fmt(&a, f),
        None => f.write_str("NDArray(?)"),
    }
}

impl fmt::Debug for NDArray {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "NDArray(shape={:?}, dtype={}, device={}", self.shape(), self.dtype(), device_name(self.device()))?;
        if self.numel() <= 32 && self.device().is_host_accessible() {
            if let Ok(list) = self.to_list() {
                write!(f, ", data={list:?}")?;
            }
        }
        f.write_str(")")
    }
}

impl PartialEq for NDArray {
    fn eq(&self, other: &Self) -> bool {
        ndarray_eq(self.0.as_obj_ptr(), other.0.as_obj_ptr(), 0)
    }
}

impl FromAny for NDArray {
    fn type_name() -> String {
        "ndarray".into()
    }
    fn from_value(v: Value<'_>) -> Option<Self> {
        v.as_obj().and_then(|o| o.to_owned_as::<NDArrayObj>()).map(NDArray)
    }
}
crate::impl_try_from_any!(NDArray, Option<NDArray>);

impl<const N: usize> From<NDArray> for AnyPad<N> {
    fn from(a: NDArray) -> Self {
        AnyPad::from_object(a.0)
    }
}
