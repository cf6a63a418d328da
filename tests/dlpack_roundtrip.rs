//! DLPack import/export: zero-copy round trips for every dtype, and foreign producers.
//!
//! References, all independent of the code under test:
//! - the DLPack 1.x spec (`dlpack.h`): struct layout, `kDLCPU = 1`, `kDLCUDA = 2`,
//!   `DLPACK_FLAG_BITMASK_READ_ONLY = 1 << 0`, strides counted in elements, a null
//!   `strides` meaning compact row-major, `byte_offset` in bytes, and the consumer
//!   calling the deleter exactly once when it is done (also when it rejects the tensor);
//! - the expected bytes of each array are `to_le_bytes` of the values written (std / `half`);
//! - element values of hand-built foreign tensors are worked out by hand from the
//!   buffer, strides and byte offset (comments derive each one).

mod common;

use anyproc::ndarray::dlpack::{
    DLPACK_FLAG_BITMASK_IS_COPIED, DLPACK_FLAG_BITMASK_READ_ONLY, DLPACK_VERSION, device_type, type_code,
};
use anyproc::ndarray::{DLDataType, DLDevice, DLManagedTensor, DLManagedTensorVersioned, DLPackVersion, DLTensor};
use anyproc::ndarray::{Element, NDArray};
use common::{J, err_text, ints2, j};
use half::{bf16, f16};
use std::ffi::c_void;
use std::ptr::{NonNull, null_mut};
use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// Little-endian bytes of one element, computed with std / `half`, not with anyproc.
trait LeBytes: Element {
    fn le(&self) -> Vec<u8>;
}

macro_rules! le_bytes {
    ($($t:ty),*) => {$(
        impl LeBytes for $t {
            fn le(&self) -> Vec<u8> {
                self.to_le_bytes().to_vec()
            }
        }
    )*};
}
le_bytes!(i8, i16, i32, i64, u8, u16, u32, u64, f32, f64, f16, bf16);

impl LeBytes for bool {
    fn le(&self) -> Vec<u8> {
        vec![*self as u8]
    }
}

/// What `get(&[1, 0])` (flat element 3) must return.
#[derive(Debug)]
enum Spot {
    Int(i64),
    Float(f64),
    Bool(bool),
}

impl Spot {
    fn j(&self) -> J {
        match *self {
            Spot::Int(i) => J::I(i),
            Spot::Float(f) => J::F(f.to_bits()),
            Spot::Bool(b) => J::B(b),
        }
    }
}

/// Checks an imported array against the exporter's array `a` holding `vals` in a [2, 3] shape.
fn check_import<T: LeBytes>(b: &NDArray, a_ptr: *const u8, vals: &[T; 6], spot: &Spot, what: &str) {
    let expected: Vec<u8> = vals.iter().flat_map(LeBytes::le).collect();
    assert_eq!(b.data_ptr(), a_ptr, "{what}: zero copy (same data pointer)");
    assert_eq!(b.shape(), &[2, 3], "{what}");
    assert_eq!(b.strides(), &[3, 1], "{what}");
    assert_eq!(b.dtype(), T::DTYPE, "{what}");
    assert_eq!(b.device(), DLDevice { device_type: 1, device_id: 0 }, "{what}");
    assert!(!b.is_read_only(), "{what}");
    assert!(b.is_contiguous(), "{what}");
    assert_eq!(b.bytes().unwrap(), &expected[..], "{what}: bytes");
    let typed: Vec<u8> = b.as_slice::<T>().unwrap().iter().flat_map(LeBytes::le).collect();
    assert_eq!(typed, expected, "{what}: as_slice");
    assert_eq!(j(&b.get(&[1, 0]).unwrap()), spot.j(), "{what}: get([1, 0])");
}

/// Export/import round trips of a [2, 3] array of `T` holding `vals`, through both DLPack ABIs.
fn roundtrip<T: LeBytes>(vals: [T; 6], spot: Spot) {
    let name = T::DTYPE.name();
    let item = std::mem::size_of::<T>();
    let expected: Vec<u8> = vals.iter().flat_map(LeBytes::le).collect();

    let mut a = NDArray::zeros(&[2, 3], T::DTYPE).unwrap();
    a.as_mut_slice::<T>().unwrap().copy_from_slice(&vals);
    assert_eq!(a.bytes().unwrap(), &expected[..], "{name}: written bytes");
    let ptr = a.data_ptr();

    // --- versioned (DLPack 1.x) ---
    let m = a.to_dlpack_versioned();
    {
        // SAFETY: a freshly exported, live managed tensor.
        let mt = unsafe { m.as_ref() };
        assert_eq!(mt.version, DLPackVersion { major: 1, minor: 0 }, "{name}");
        assert_eq!(mt.version, DLPACK_VERSION);
        assert_eq!(mt.flags, 0, "{name}: a writable owned array exports no flags");
        assert!(mt.deleter.is_some(), "{name}");
        let t = &mt.dl_tensor;
        assert_eq!(t.data.cast_const().cast::<u8>(), ptr, "{name}");
        assert_eq!(t.byte_offset, 0);
        assert_eq!(t.device, DLDevice { device_type: device_type::CPU, device_id: 0 });
        assert_eq!(t.ndim, 2);
        assert_eq!(t.dtype, T::DTYPE);
        assert_eq!(t.dtype.lanes, 1);
        assert_eq!(t.dtype.bits as usize, 8 * item);
        // SAFETY: ndim = 2 extents and strides, kept alive by the export.
        let (shape, strides) =
            unsafe { (std::slice::from_raw_parts(t.shape, 2), std::slice::from_raw_parts(t.strides, 2)) };
        assert_eq!(shape, &[2, 3]);
        assert_eq!(strides, &[3, 1]);
    }
    // The export holds a reference: the array is shared, so it cannot be written.
    assert!(a.as_mut_slice::<T>().is_err(), "{name}: exported array must not be writable");
    // SAFETY: we own the freshly exported tensor and hand it over.
    let b = unsafe { NDArray::from_dlpack_versioned(m) }.unwrap();
    check_import(&b, ptr, &vals, &spot, &format!("{name} versioned"));
    drop(b);
    // Dropping the import ran the export's deleter, which released its reference.
    assert!(a.as_mut_slice::<T>().is_ok(), "{name}: the deleter must release the exporter's reference");

    // --- legacy (DLPack 0.x) ---
    let m = a.to_dlpack();
    {
        // SAFETY: live managed tensor.
        let mt = unsafe { m.as_ref() };
        assert!(mt.deleter.is_some());
        assert_eq!(mt.dl_tensor.ndim, 2);
        assert_eq!(mt.dl_tensor.dtype, T::DTYPE);
        assert_eq!(mt.dl_tensor.data.cast_const().cast::<u8>(), ptr);
    }
    assert!(a.as_mut_slice::<T>().is_err());
    // SAFETY: as above.
    let b = unsafe { NDArray::from_dlpack(m) }.unwrap();
    check_import(&b, ptr, &vals, &spot, &format!("{name} legacy"));
    drop(b);
    assert!(a.as_mut_slice::<T>().is_ok(), "{name}: legacy deleter must release the exporter's reference");

    // --- the producer's handle dies first: the export keeps the memory alive ---
    let mv = a.to_dlpack_versioned();
    let ml = a.to_dlpack();
    drop(a);
    // SAFETY: as above.
    let (bv, bl) = unsafe { (NDArray::from_dlpack_versioned(mv).unwrap(), NDArray::from_dlpack(ml).unwrap()) };
    check_import(&bv, ptr, &vals, &spot, &format!("{name} versioned, producer dropped"));
    check_import(&bl, ptr, &vals, &spot, &format!("{name} legacy, producer dropped"));

    // --- a row view exports as its own 1-d tensor, still zero copy ---
    let r = bv.row(1).unwrap();
    drop(bv);
    // SAFETY: as above.
    let rb = unsafe { NDArray::from_dlpack_versioned(r.to_dlpack_versioned()) }.unwrap();
    assert_eq!(rb.shape(), &[3], "{name} row");
    assert_eq!(rb.strides(), &[1], "{name} row");
    assert_eq!(rb.data_ptr(), ptr.wrapping_add(3 * item), "{name} row: points into the parent");
    assert_eq!(rb.bytes().unwrap(), &expected[3 * item..], "{name} row bytes");
    assert_eq!(j(&rb.get(&[0]).unwrap()), spot.j(), "{name} row get([0])");
    drop(r);
    drop(bl);
    assert_eq!(rb.bytes().unwrap(), &expected[3 * item..], "{name} row bytes after the parents are gone");
}

#[test]
fn every_dtype_roundtrips_zero_copy() {
    let mut seen = Vec::new();
    for dt in DLDataType::ALL {
        seen.push(dt);
        match dt {
            DLDataType::BOOL => roundtrip([true, false, true, true, false, true], Spot::Bool(true)),
            DLDataType::INT8 => roundtrip::<i8>([-128, -1, 0, 1, 42, 127], Spot::Int(1)),
            DLDataType::INT16 => roundtrip::<i16>([i16::MIN, -2, 0, 3, 0x1234, i16::MAX], Spot::Int(3)),
            DLDataType::INT32 => roundtrip::<i32>([i32::MIN, -3, 0, 7, 0x1234_5678, i32::MAX], Spot::Int(7)),
            DLDataType::INT64 => roundtrip::<i64>([i64::MIN, -5, 0, 9, 0x0123_4567_89ab_cdef, i64::MAX], Spot::Int(9)),
            DLDataType::UINT8 => roundtrip::<u8>([0, 1, 2, 128, 200, 255], Spot::Int(128)),
            DLDataType::UINT16 => roundtrip::<u16>([0, 1, 0x8000, 0xabcd, 0x1234, 0xffff], Spot::Int(0xabcd)),
            DLDataType::UINT32 => {
                roundtrip::<u32>([0, 1, 0x8000_0000, 0xdead_beef, 0x1234_5678, u32::MAX], Spot::Int(0xdead_beef))
            }
            DLDataType::UINT64 => roundtrip::<u64>(
                [0, 1, 1 << 63, 0x0123_4567_89ab_cdef, 0xdead_beef_cafe_babe, u64::MAX],
                Spot::Int(0x0123_4567_89ab_cdef),
            ),
            // 0x0000 +0, 0x8000 -0, 0x3c00 1.0, 0x7bff 65504 (max), 0x0001 2^-24 (min subnormal), 0xfc00 -inf.
            DLDataType::FLOAT16 => {
                roundtrip([0x0000u16, 0x8000, 0x3c00, 0x7bff, 0x0001, 0xfc00].map(f16::from_bits), Spot::Float(65504.0))
            }
            // +0, -0, 1.0, f32::MAX, min subnormal, a NaN with a payload (bytes must survive).
            DLDataType::FLOAT32 => roundtrip(
                [0u32, 0x8000_0000, 0x3f80_0000, 0x7f7f_ffff, 1, 0x7fc0_0001].map(f32::from_bits),
                Spot::Float(f32::MAX as f64),
            ),
            DLDataType::FLOAT64 => roundtrip(
                [0u64, 1 << 63, 0x3ff0_0000_0000_0000, 0x4009_21fb_5444_2d18, 1, 0x7ff8_0000_0000_0001]
                    .map(f64::from_bits),
                // 0x400921fb54442d18 is the f64 nearest pi.
                Spot::Float(std::f64::consts::PI),
            ),
            // bf16 is the top half of an f32: 0x7f7f is (2 - 2^-7) * 2^127 = 3.3895313892515355e38.
            DLDataType::BFLOAT16 => roundtrip(
                [0x0000u16, 0x8000, 0x3f80, 0x7f7f, 0x0001, 0x7fc1].map(bf16::from_bits),
                Spot::Float(3.3895313892515355e38),
            ),
            other => panic!("DLDataType::ALL has a dtype this test does not know: {other}"),
        }
    }
    assert_eq!(seen.len(), 13, "all 13 dtypes, bool, float16 and bfloat16 included");
}

#[test]
fn uint64_above_i64_max_is_an_error_from_get_not_a_wrapped_value() {
    let a = NDArray::from_slice::<u64>(&[1 << 63, 5], &[2]).unwrap();
    // 2^63 = 9223372036854775808 has no i64 representation.
    let e = err_text(a.get(&[0]));
    assert!(e.contains("9223372036854775808"), "{e}");
    assert_eq!(j(&a.get(&[1]).unwrap()), J::I(5));
}

#[test]
fn readonly_arrays_export_the_read_only_flag() {
    static DELETES: AtomicUsize = AtomicUsize::new(0);
    let m = foreign_versioned(vec![1, 2, 3, 4], vec![2, 2], None, &DELETES, |m| {
        m.flags = DLPACK_FLAG_BITMASK_READ_ONLY;
    });
    // SAFETY: a valid tensor we own.
    let a = unsafe { NDArray::from_dlpack_versioned(m) }.unwrap();
    assert!(a.is_read_only());
    assert!(a.row(0).unwrap().is_read_only(), "views inherit read-only");
    // Re-exporting keeps the flag for the next consumer.
    let again = a.to_dlpack_versioned();
    // SAFETY: live export.
    assert_eq!(unsafe { again.as_ref() }.flags & DLPACK_FLAG_BITMASK_READ_ONLY, DLPACK_FLAG_BITMASK_READ_ONLY);
    // SAFETY: we own the export.
    let b = unsafe { NDArray::from_dlpack_versioned(again) }.unwrap();
    assert!(b.is_read_only());
    assert_eq!(j(&b.to_list().unwrap()), ints2(&[&[1, 2], &[3, 4]]));
    drop(a);
    assert_eq!(DELETES.load(SeqCst), 0, "the re-export still holds the import");
    drop(b);
    assert_eq!(DELETES.load(SeqCst), 1);
}

// ---------------------------------------------------------------------------------------------
// Foreign producers: managed tensors built by hand, as another library would.
// ---------------------------------------------------------------------------------------------

/// The producer's context: the managed struct plus everything its pointers point into.
struct Foreign<M> {
    managed: M,
    data: Vec<i32>,
    shape: Vec<i64>,
    strides: Option<Vec<i64>>,
    deletes: &'static AtomicUsize,
}

unsafe extern "C" fn delete_versioned(m: *mut DLManagedTensorVersioned) {
    // SAFETY: manager_ctx is the Box<Foreign> this managed tensor lives in; called once.
    unsafe {
        let ctx = (*m).manager_ctx.cast::<Foreign<DLManagedTensorVersioned>>();
        let b = Box::from_raw(ctx);
        b.deletes.fetch_add(1, SeqCst);
    }
}

unsafe extern "C" fn delete_legacy(m: *mut DLManagedTensor) {
    // SAFETY: as above.
    unsafe {
        let ctx = (*m).manager_ctx.cast::<Foreign<DLManagedTensor>>();
        let b = Box::from_raw(ctx);
        b.deletes.fetch_add(1, SeqCst);
    }
}

fn blank_tensor(ndim: usize) -> DLTensor {
    DLTensor {
        data: null_mut(),
        device: DLDevice { device_type: device_type::CPU, device_id: 0 },
        ndim: ndim as i32,
        dtype: DLDataType { code: type_code::INT, bits: 32, lanes: 1 },
        shape: null_mut(),
        strides: null_mut(),
        byte_offset: 0,
    }
}

fn point_tensor(t: &mut DLTensor, data: &mut [i32], shape: &mut [i64], strides: Option<&mut Vec<i64>>) {
    t.data = data.as_mut_ptr().cast::<c_void>();
    t.shape = shape.as_mut_ptr();
    t.strides = strides.map_or(null_mut(), |s| s.as_mut_ptr());
}

/// An int32 `DLManagedTensorVersioned` over `data`; `tweak` may then break or change any field.
fn foreign_versioned(
    data: Vec<i32>,
    shape: Vec<i64>,
    strides: Option<Vec<i64>>,
    deletes: &'static AtomicUsize,
    tweak: impl FnOnce(&mut DLManagedTensorVersioned),
) -> NonNull<DLManagedTensorVersioned> {
    let ndim = shape.len();
    let mut b = Box::new(Foreign {
        managed: DLManagedTensorVersioned {
            version: DLPackVersion { major: 1, minor: 0 },
            manager_ctx: null_mut(),
            deleter: Some(delete_versioned),
            flags: 0,
            dl_tensor: blank_tensor(ndim),
        },
        data,
        shape,
        strides,
        deletes,
    });
    let f = &mut *b;
    point_tensor(&mut f.managed.dl_tensor, &mut f.data, &mut f.shape, f.strides.as_mut());
    tweak(&mut f.managed);
    let raw = Box::into_raw(b);
    // SAFETY: raw is a live box; the managed struct points back at its context.
    unsafe {
        (*raw).managed.manager_ctx = raw.cast();
        NonNull::new_unchecked(&raw mut (*raw).managed)
    }
}

/// The legacy (`DLManagedTensor`) twin of `foreign_versioned`.
fn foreign_legacy(
    data: Vec<i32>,
    shape: Vec<i64>,
    strides: Option<Vec<i64>>,
    deletes: &'static AtomicUsize,
    tweak: impl FnOnce(&mut DLManagedTensor),
) -> NonNull<DLManagedTensor> {
    let ndim = shape.len();
    let mut b = Box::new(Foreign {
        managed: DLManagedTensor {
            dl_tensor: blank_tensor(ndim),
            manager_ctx: null_mut(),
            deleter: Some(delete_legacy),
        },
        data,
        shape,
        strides,
        deletes,
    });
    let f = &mut *b;
    point_tensor(&mut f.managed.dl_tensor, &mut f.data, &mut f.shape, f.strides.as_mut());
    tweak(&mut f.managed);
    let raw = Box::into_raw(b);
    // SAFETY: as in `foreign_versioned`.
    unsafe {
        (*raw).managed.manager_ctx = raw.cast();
        NonNull::new_unchecked(&raw mut (*raw).managed)
    }
}

/// Reads the [2, 3] foreign tensor holding 10..=15 and checks the deleter runs once, after the last view.
fn check_foreign_2x3(a: NDArray, deletes: &AtomicUsize) {
    // Row-major [2, 3] over [10, 11, 12, 13, 14, 15]: element (i, j) is 10 + 3i + j.
    assert_eq!(a.shape(), &[2, 3]);
    assert_eq!(a.strides(), &[3, 1], "null strides mean compact row-major");
    assert_eq!(a.dtype(), DLDataType::INT32);
    assert!(a.is_contiguous());
    assert!(!a.is_read_only());
    for i in 0..2 {
        for k in 0..3 {
            assert_eq!(j(&a.get(&[i, k]).unwrap()), J::I(10 + 3 * i + k), "({i}, {k})");
        }
    }
    // Negative indices count from the end: (-1, -1) is (1, 2) = 15.
    assert_eq!(j(&a.get(&[-1, -1]).unwrap()), J::I(15));
    assert_eq!(a.as_slice::<i32>().unwrap(), &[10, 11, 12, 13, 14, 15]);
    let mut a = a;
    assert!(a.as_mut_slice::<i32>().is_err(), "an imported tensor is not ours to write");

    let row = a.row(1).unwrap();
    assert_eq!(row.shape(), &[3]);
    assert_eq!(row.as_slice::<i32>().unwrap(), &[13, 14, 15]);
    assert_eq!(deletes.load(SeqCst), 0);
    drop(a);
    assert_eq!(deletes.load(SeqCst), 0, "the row view keeps the foreign tensor alive");
    // The view still reads the producer's memory.
    assert_eq!(j(&row.to_list().unwrap()), J::L(vec![J::I(13), J::I(14), J::I(15)]));
    drop(row);
    assert_eq!(deletes.load(SeqCst), 1, "deleter runs exactly once, after the array and the view are gone");
}

#[test]
fn foreign_versioned_tensor_is_read_and_released_once() {
    static DELETES: AtomicUsize = AtomicUsize::new(0);
    let m = foreign_versioned(vec![10, 11, 12, 13, 14, 15], vec![2, 3], None, &DELETES, |_| {});
    // SAFETY: a valid tensor we own.
    let a = unsafe { NDArray::from_dlpack_versioned(m) }.unwrap();
    check_foreign_2x3(a, &DELETES);
    assert_eq!(DELETES.load(SeqCst), 1);
}

#[test]
fn foreign_legacy_tensor_is_read_and_released_once() {
    static DELETES: AtomicUsize = AtomicUsize::new(0);
    let m = foreign_legacy(vec![10, 11, 12, 13, 14, 15], vec![2, 3], None, &DELETES, |_| {});
    // SAFETY: a valid tensor we own.
    let a = unsafe { NDArray::from_dlpack(m) }.unwrap();
    check_foreign_2x3(a, &DELETES);
    assert_eq!(DELETES.load(SeqCst), 1);
}

#[test]
fn read_only_flag_is_honoured_and_is_copied_is_not_read_only() {
    static DELETES: AtomicUsize = AtomicUsize::new(0);
    let m = foreign_versioned(vec![1, 2], vec![2], None, &DELETES, |m| m.flags = DLPACK_FLAG_BITMASK_READ_ONLY);
    // SAFETY: a valid tensor we own.
    let a = unsafe { NDArray::from_dlpack_versioned(m) }.unwrap();
    assert!(a.is_read_only());
    assert_eq!(a.as_slice::<i32>().unwrap(), &[1, 2], "read-only data is still readable");
    drop(a);
    let m = foreign_versioned(vec![1, 2], vec![2], None, &DELETES, |m| m.flags = DLPACK_FLAG_BITMASK_IS_COPIED);
    // SAFETY: as above.
    let a = unsafe { NDArray::from_dlpack_versioned(m) }.unwrap();
    assert!(!a.is_read_only(), "IS_COPIED is not READ_ONLY");
    drop(a);
    assert_eq!(DELETES.load(SeqCst), 2);
}

#[test]
fn transposed_strides_are_respected() {
    static DELETES: AtomicUsize = AtomicUsize::new(0);
    // The buffer is the row-major 2x3 matrix [[0, 1, 2], [3, 4, 5]]. Seen with shape [3, 2] and
    // strides [1, 3] (in elements), element (i, k) is buf[i * 1 + k * 3]: its transpose
    // [[0, 3], [1, 4], [2, 5]].
    for legacy in [false, true] {
        let (data, shape, strides) = (vec![0, 1, 2, 3, 4, 5], vec![3, 2], Some(vec![1, 3]));
        // SAFETY: valid tensors we own.
        let a = unsafe {
            if legacy {
                NDArray::from_dlpack(foreign_legacy(data, shape, strides, &DELETES, |_| {})).unwrap()
            } else {
                NDArray::from_dlpack_versioned(foreign_versioned(data, shape, strides, &DELETES, |_| {})).unwrap()
            }
        };
        assert_eq!(a.shape(), &[3, 2]);
        assert_eq!(a.strides(), &[1, 3]);
        assert!(!a.is_contiguous(), "strides [1, 3] for shape [3, 2] are not row-major ([2, 1])");
        let expect = [[0, 3], [1, 4], [2, 5]];
        for (i, row) in expect.iter().enumerate() {
            for (k, &v) in row.iter().enumerate() {
                assert_eq!(j(&a.get(&[i as i64, k as i64]).unwrap()), J::I(v), "({i}, {k})");
            }
        }
        assert_eq!(j(&a.to_list().unwrap()), ints2(&[&[0, 3], &[1, 4], &[2, 5]]));
        assert!(err_text(a.as_slice::<i32>()).contains("not contiguous"));
        // Row 1 is [1, 4]: starts at buf[1], stride 3.
        let r = a.row(1).unwrap();
        assert_eq!(r.strides(), &[3]);
        assert!(!r.is_contiguous());
        assert_eq!(j(&r.to_list().unwrap()), J::L(vec![J::I(1), J::I(4)]));
        drop(a);
        drop(r);
    }
    assert_eq!(DELETES.load(SeqCst), 2);

    // Explicit compact strides are the same as null strides.
    let m = foreign_versioned(vec![0, 1, 2, 3, 4, 5], vec![2, 3], Some(vec![3, 1]), &DELETES, |_| {});
    // SAFETY: as above.
    let a = unsafe { NDArray::from_dlpack_versioned(m) }.unwrap();
    assert!(a.is_contiguous());
    assert_eq!(a.as_slice::<i32>().unwrap(), &[0, 1, 2, 3, 4, 5]);
    drop(a);
    assert_eq!(DELETES.load(SeqCst), 3);
}

#[test]
fn byte_offset_is_applied() {
    static DELETES: AtomicUsize = AtomicUsize::new(0);
    // byte_offset 8 skips two int32s: the [2, 3] tensor starts at buf[2] = 10.
    let m = foreign_versioned(vec![9, 9, 10, 11, 12, 13, 14, 15], vec![2, 3], None, &DELETES, |m| {
        m.dl_tensor.byte_offset = 8;
    });
    // SAFETY: a valid tensor we own.
    let a = unsafe { NDArray::from_dlpack_versioned(m) }.unwrap();
    assert_eq!(j(&a.to_list().unwrap()), ints2(&[&[10, 11, 12], &[13, 14, 15]]));
    assert_eq!(a.as_slice::<i32>().unwrap(), &[10, 11, 12, 13, 14, 15]);
    drop(a);

    // byte_offset 2 is misaligned for int32. Little-endian buffer bytes:
    // 01 02 03 04 | 05 06 07 08; the element at byte 2 is bytes 03 04 05 06 = 0x06050403 = 100992003.
    let m = foreign_versioned(vec![0x0403_0201, 0x0807_0605], vec![1], None, &DELETES, |m| {
        m.dl_tensor.byte_offset = 2;
    });
    // SAFETY: as above.
    let a = unsafe { NDArray::from_dlpack_versioned(m) }.unwrap();
    assert_eq!(j(&a.get(&[0]).unwrap()), J::I(0x0605_0403));
    assert_eq!(j(&a.get(&[0]).unwrap()), J::I(100_992_003));
    assert!(err_text(a.as_slice::<i32>()).contains("aligned"), "a misaligned &[i32] must be refused");
    drop(a);
    assert_eq!(DELETES.load(SeqCst), 2);
}

#[test]
fn zero_d_and_empty_foreign_tensors() {
    static DELETES: AtomicUsize = AtomicUsize::new(0);
    // ndim 0 with a null shape is a scalar: the single element buf[0].
    let m = foreign_versioned(vec![42], vec![], None, &DELETES, |m| m.dl_tensor.shape = null_mut());
    // SAFETY: a valid tensor we own.
    let a = unsafe { NDArray::from_dlpack_versioned(m) }.unwrap();
    assert_eq!(a.ndim(), 0);
    assert_eq!(a.numel(), 1);
    assert_eq!(j(&a.get(&[]).unwrap()), J::I(42));
    assert_eq!(a.as_slice::<i32>().unwrap(), &[42]);
    drop(a);
    // An empty [0, 3] tensor may have a null data pointer.
    let m = foreign_legacy(vec![], vec![0, 3], None, &DELETES, |m| m.dl_tensor.data = null_mut());
    // SAFETY: as above.
    let a = unsafe { NDArray::from_dlpack(m) }.unwrap();
    assert_eq!(a.shape(), &[0, 3]);
    assert_eq!(a.numel(), 0);
    assert_eq!(a.as_slice::<i32>().unwrap(), &[] as &[i32]);
    assert_eq!(j(&a.to_list().unwrap()), J::L(vec![]));
    drop(a);
    assert_eq!(DELETES.load(SeqCst), 2);
}

#[test]
fn cuda_tensor_is_described_but_never_dereferenced() {
    static DELETES: AtomicUsize = AtomicUsize::new(0);
    let cuda = DLDevice { device_type: device_type::CUDA, device_id: 0 };
    assert_eq!(device_type::CUDA, 2, "kDLCUDA in dlpack.h");
    for legacy in [false, true] {
        // A dangling, non-null device pointer: any host read of it would crash or trip the sanitizers.
        let dangling = NonNull::<i32>::dangling().as_ptr().cast::<c_void>();
        let (data, shape) = (vec![], vec![2, 3]);
        // SAFETY: a tensor we own; its data is never read on the host.
        let a = unsafe {
            if legacy {
                NDArray::from_dlpack(foreign_legacy(data, shape, None, &DELETES, |m| {
                    m.dl_tensor.data = dangling;
                    m.dl_tensor.device = cuda;
                }))
            } else {
                NDArray::from_dlpack_versioned(foreign_versioned(data, shape, None, &DELETES, |m| {
                    m.dl_tensor.data = dangling;
                    m.dl_tensor.device = cuda;
                }))
            }
        }
        .unwrap();
        assert_eq!(a.device(), cuda);
        assert_eq!(a.shape(), &[2, 3]);
        assert_eq!(a.dtype(), DLDataType::INT32);
        let e = err_text(a.get(&[0, 0]));
        assert!(e.contains("cuda:0"), "get: {e}");
        let e = err_text(a.as_slice::<i32>());
        assert!(e.contains("cuda:0"), "as_slice: {e}");
        let e = err_text(a.bytes());
        assert!(e.contains("cuda:0"), "bytes: {e}");
        let e = err_text(a.to_list());
        assert!(e.contains("cuda:0"), "to_list: {e}");
        let shown = format!("{a:?}");
        assert!(shown.contains("cuda:0") && !shown.contains("data="), "{shown}");
        drop(a);
    }
    assert_eq!(DELETES.load(SeqCst), 2);
}

#[test]
fn bad_versioned_imports_are_errors_and_still_run_the_deleter() {
    static DELETES: AtomicUsize = AtomicUsize::new(0);
    type Tweak = fn(&mut DLManagedTensorVersioned);
    let cases: &[(&str, Tweak, &str)] = &[
        ("ndim -1", |m| m.dl_tensor.ndim = -1, "negative ndim -1"),
        ("null shape with ndim 2", |m| m.dl_tensor.shape = null_mut(), "null shape"),
        (
            "complex64 (code 5, bits 64)",
            |m| m.dl_tensor.dtype = DLDataType { code: 5, bits: 64, lanes: 1 },
            "unsupported dtype",
        ),
        ("int32x4 (lanes 4)", |m| m.dl_tensor.dtype.lanes = 4, "unsupported dtype"),
        ("version 2.0", |m| m.version = DLPackVersion { major: 2, minor: 0 }, "version 2.0"),
        ("version 0.8", |m| m.version = DLPackVersion { major: 0, minor: 8 }, "version 0.8"),
        ("negative extent", |m| unsafe { *m.dl_tensor.shape.add(1) = -3 }, "negative"),
        ("null data", |m| m.dl_tensor.data = null_mut(), "null data"),
    ];
    for (n, &(what, tweak, msg)) in cases.iter().enumerate() {
        let m = foreign_versioned(vec![0; 6], vec![2, 3], None, &DELETES, tweak);
        // SAFETY: a tensor we own (possibly malformed, which the import must detect).
        let e = err_text(unsafe { NDArray::from_dlpack_versioned(m) });
        assert!(e.contains(msg), "{what}: {e}");
        assert_eq!(DELETES.load(SeqCst), n + 1, "{what}: the deleter must run exactly once on rejection");
    }
}

#[test]
fn bad_legacy_imports_are_errors_and_still_run_the_deleter() {
    static DELETES: AtomicUsize = AtomicUsize::new(0);
    type Tweak = fn(&mut DLManagedTensor);
    let cases: &[(&str, Tweak, &str)] = &[
        ("ndim -1", |m| m.dl_tensor.ndim = -1, "negative ndim -1"),
        ("null shape with ndim 2", |m| m.dl_tensor.shape = null_mut(), "null shape"),
        (
            "complex64 (code 5, bits 64)",
            |m| m.dl_tensor.dtype = DLDataType { code: 5, bits: 64, lanes: 1 },
            "unsupported dtype",
        ),
        ("negative extent", |m| unsafe { *m.dl_tensor.shape.add(0) = -1 }, "negative"),
        ("null data", |m| m.dl_tensor.data = null_mut(), "null data"),
    ];
    for (n, &(what, tweak, msg)) in cases.iter().enumerate() {
        let m = foreign_legacy(vec![0; 6], vec![2, 3], None, &DELETES, tweak);
        // SAFETY: as above.
        let e = err_text(unsafe { NDArray::from_dlpack(m) });
        assert!(e.contains(msg), "{what}: {e}");
        assert_eq!(DELETES.load(SeqCst), n + 1, "{what}: the deleter must run exactly once on rejection");
    }
}
