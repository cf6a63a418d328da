//! `.npy` / `.npz` interop, with NumPy as the reference implementation.
//!
//! Rust writes, NumPy reads: the expected dtype (NumPy's own `dtype.str`), shape and
//! values are written independently as JSON literals inside the Python script, which
//! compares them byte for byte with what `np.load` returns, and also checks the
//! header layout that NumPy's format spec asks for (data aligned to 64 bytes).
//! NumPy writes (`np.save`, `np.savez`, `np.savez_compressed`, `format.write_array`
//! with versions 2.0 and 3.0), Rust reads: the values are Rust literals.
//!
//! Python: `$ANYPROC_PYTHON`, else `python3`; it must have numpy. Without numpy the
//! tests fail, unless `ANYPROC_SKIP_NUMPY=1`, which skips them with a note.

use anyproc::ndarray::dlpack::{DLPackVersion, device_type};
use anyproc::ndarray::npy::{read_npy, read_npz, write_npy, write_npz};
use anyproc::ndarray::{DLDataType, DLDevice, DLManagedTensorVersioned, DLTensor, Element, NDArray};
use half::f16;
use std::ffi::c_void;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::ptr::{NonNull, null_mut};

// ---------------------------------------------------------------------------------------------
// Python and temp dirs
// ---------------------------------------------------------------------------------------------

/// The Python interpreter to use, or `None` (after a loud note) when skipping is allowed.
fn numpy_python() -> Option<String> {
    let py = std::env::var("ANYPROC_PYTHON").unwrap_or_else(|_| "python3".to_string());
    let ok = Command::new(&py).args(["-c", "import numpy"]).output().map(|o| o.status.success()).unwrap_or(false);
    if ok {
        return Some(py);
    }
    if std::env::var("ANYPROC_SKIP_NUMPY").as_deref() == Ok("1") {
        eprintln!();
        eprintln!("************************************************************************");
        eprintln!("* SKIPPED: `{py} -c 'import numpy'` failed and ANYPROC_SKIP_NUMPY=1.");
        eprintln!("* The .npy/.npz NumPy interop checks did NOT run.");
        eprintln!("************************************************************************");
        return None;
    }
    panic!(
        "`{py} -c 'import numpy'` failed: these tests need NumPy as the reference. Set ANYPROC_PYTHON \
         to an interpreter with numpy (e.g. `python3 -m venv .venv && .venv/bin/pip install numpy`, then \
         ANYPROC_PYTHON=$PWD/.venv/bin/python), or set ANYPROC_SKIP_NUMPY=1 to skip them."
    );
}

/// A fresh, unique directory under the system temp dir.
fn temp_dir(tag: &str) -> PathBuf {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
    let dir = std::env::temp_dir().join(format!("anyproc-npy-{tag}-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `script` with `dir` as `sys.argv[1]`; panics with Python's output unless it exits 0 and prints OK.
fn run_python(py: &str, script: &str, dir: &Path) {
    let out = Command::new(py).arg("-c").arg(script).arg(dir).output().expect("run python");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "python failed ({}):\n{stdout}\n{stderr}", out.status);
    assert_eq!(stdout.trim(), "OK", "python said:\n{stdout}\n{stderr}");
}

fn save(dir: &Path, name: &str, a: &NDArray) {
    let f = std::fs::File::create(dir.join(format!("{name}.npy"))).unwrap();
    write_npy(std::io::BufWriter::new(f), a).unwrap_or_else(|e| panic!("write_npy {name}: {e}"));
}

fn load(dir: &Path, name: &str) -> anyproc::Result<NDArray> {
    read_npy(std::io::BufReader::new(std::fs::File::open(dir.join(name)).unwrap()))
}

// ---------------------------------------------------------------------------------------------
// Non-contiguous arrays: a foreign DLPack tensor with hand-written strides.
// ---------------------------------------------------------------------------------------------

struct Strided<T> {
    managed: DLManagedTensorVersioned,
    data: Vec<T>,
    shape: Vec<i64>,
    strides: Vec<i64>,
}

unsafe extern "C" fn free_strided<T>(m: *mut DLManagedTensorVersioned) {
    // SAFETY: manager_ctx is the Box<Strided<T>> holding this managed tensor; called once.
    drop(unsafe { Box::from_raw((*m).manager_ctx.cast::<Strided<T>>()) });
}

/// A view of `data` with the given shape and strides (in elements), imported through DLPack.
fn strided<T: Element>(data: Vec<T>, shape: &[i64], strides: &[i64]) -> NDArray {
    let mut b = Box::new(Strided {
        managed: DLManagedTensorVersioned {
            version: DLPackVersion { major: 1, minor: 0 },
            manager_ctx: null_mut(),
            deleter: Some(free_strided::<T>),
            flags: 0,
            dl_tensor: DLTensor {
                data: null_mut(),
                device: DLDevice { device_type: device_type::CPU, device_id: 0 },
                ndim: shape.len() as i32,
                dtype: T::DTYPE,
                shape: null_mut(),
                strides: null_mut(),
                byte_offset: 0,
            },
        },
        data,
        shape: shape.to_vec(),
        strides: strides.to_vec(),
    });
    b.managed.dl_tensor.data = b.data.as_mut_ptr().cast::<c_void>();
    b.managed.dl_tensor.shape = b.shape.as_mut_ptr();
    b.managed.dl_tensor.strides = b.strides.as_mut_ptr();
    let raw = Box::into_raw(b);
    // SAFETY: raw is a live box; the tensor describes memory inside it, freed by the deleter.
    unsafe {
        (*raw).managed.manager_ctx = raw.cast();
        NDArray::from_dlpack_versioned(NonNull::new_unchecked(&raw mut (*raw).managed)).unwrap()
    }
}

// ---------------------------------------------------------------------------------------------
// Rust writes, NumPy reads
// ---------------------------------------------------------------------------------------------

/// The checker: for every `name` in `npy`, `name.npy` must load as exactly
/// `np.array(data, dtype).reshape(shape)` (same `dtype.str`, shape and bytes; with `"bits": true`
/// the data are the raw bit patterns, viewed as the dtype), with the
/// header padded so the data starts at a multiple of 64. For every archive in `npz`, the
/// keys must come in the given order and each array must match likewise.
const CHECKER: &str = r#"
import json, os, sys, zipfile
import numpy as np
from numpy.lib import format as fmt

spec = json.loads(SPEC)
d = sys.argv[1]
fails = []

def check(label, a, s):
    if s.get("bits"):
        # data holds the raw bit patterns as unsigned ints of the same width
        width = np.dtype(s["descr"]).itemsize
        exp = np.array(s["data"], dtype=f"<u{width}").view(s["descr"]).reshape(s["shape"])
    else:
        exp = np.array(s["data"], dtype=s["descr"]).reshape(s["shape"])
    if a.dtype.str != s["descr"]:
        fails.append(f"{label}: dtype {a.dtype.str} != {s['descr']}")
    elif a.shape != tuple(s["shape"]):
        fails.append(f"{label}: shape {a.shape} != {tuple(s['shape'])}")
    elif a.tobytes() != exp.tobytes():
        fails.append(f"{label}: values {a.tolist()!r} != {exp.tolist()!r} "
                     f"(bytes {a.tobytes().hex()} != {exp.tobytes().hex()})")

for name, s in spec["npy"].items():
    path = os.path.join(d, name + ".npy")
    with open(path, "rb") as f:
        major, minor = fmt.read_magic(f)
        if (major, minor) != (1, 0):
            fails.append(f"{name}: version {(major, minor)}")
        shape, fortran, dtype = fmt.read_array_header_1_0(f)
        if f.tell() % 64 != 0:
            fails.append(f"{name}: data starts at {f.tell()}, not a multiple of 64")
        if fortran:
            fails.append(f"{name}: fortran_order")
    check(name, np.load(path, allow_pickle=False), s)

for archive, arrays in spec["npz"].items():
    path = os.path.join(d, archive + ".npz")
    with zipfile.ZipFile(path) as z:
        names = [i.filename for i in z.infolist()]
        if names != [k + ".npy" for k in arrays]:
            fails.append(f"{archive}: members {names}")
    with np.load(path, allow_pickle=False) as z:
        if list(z.keys()) != list(arrays):
            fails.append(f"{archive}: keys {list(z.keys())} != {list(arrays)}")
        for k, s in arrays.items():
            check(f"{archive}[{k}]", z[k], s)

if fails:
    print("\n".join(fails))
    sys.exit(1)
print("OK")
"#;

fn checker(spec_json: &str) -> String {
    // Python's json module (which, unlike strict JSON, accepts NaN and Infinity) parses it.
    CHECKER.replace("SPEC", &format!("r'''{spec_json}'''"))
}

#[test]
fn rust_writes_numpy_reads() {
    let Some(py) = numpy_python() else { return };
    let dir = temp_dir("write");

    save(&dir, "i64_2d", &NDArray::from_slice::<i64>(&[1, -2, 3, i64::MAX, i64::MIN, 0], &[2, 3]).unwrap());
    save(&dir, "i32_1d", &NDArray::from_slice::<i32>(&[i32::MIN, -1, 0, 1, i32::MAX], &[5]).unwrap());
    save(&dir, "i16_1d", &NDArray::from_slice::<i16>(&[i16::MIN, -1, i16::MAX], &[3]).unwrap());
    save(&dir, "i8_1d", &NDArray::from_slice::<i8>(&[-128, -1, 127], &[3]).unwrap());
    save(&dir, "u8_1d", &NDArray::from_slice::<u8>(&[0, 1, 127, 128, 255], &[5]).unwrap());
    save(&dir, "u16_1d", &NDArray::from_slice::<u16>(&[0, 0x8000, 0xffff], &[3]).unwrap());
    save(&dir, "u32_1d", &NDArray::from_slice::<u32>(&[0, 0x8000_0000, u32::MAX], &[3]).unwrap());
    save(&dir, "u64_1d", &NDArray::from_slice::<u64>(&[0, 1 << 63, u64::MAX], &[3]).unwrap());
    let f32s = [1.5f32, -0.0, f32::INFINITY, f32::NAN, f32::MAX, f32::from_bits(1)];
    save(&dir, "f32_2d", &NDArray::from_slice(&f32s, &[2, 3]).unwrap());
    let f64s = [0.1f64, -1e300, f64::from_bits(1), std::f64::consts::PI, f64::NEG_INFINITY, f64::NAN];
    save(&dir, "f64_1d", &NDArray::from_slice(&f64s, &[6]).unwrap());
    let f16s = [1.0f32, -2.5, 65504.0, 5.9604645e-8, f32::NEG_INFINITY].map(f16::from_f32);
    save(&dir, "f16_1d", &NDArray::from_slice(&f16s, &[5]).unwrap());
    save(&dir, "bool_2d", &NDArray::from_slice(&[true, false, true, false, false, true], &[2, 3]).unwrap());
    save(&dir, "scalar_0d", &NDArray::from_slice::<i64>(&[42], &[]).unwrap());
    let halves: Vec<f64> = (0..12).map(|i| i as f64 * 0.5).collect();
    save(&dir, "f64_3d", &NDArray::from_slice(&halves, &[2, 2, 3]).unwrap());
    save(&dir, "empty_0x3", &NDArray::zeros(&[0, 3], DLDataType::INT32).unwrap());
    save(&dir, "empty_1d", &NDArray::zeros(&[0], DLDataType::FLOAT32).unwrap());

    // A row view: contiguous, but its data starts 3 elements into the parent's buffer.
    let parent = NDArray::from_slice::<i64>(&[1, 2, 3, 4, 5, 6], &[2, 3]).unwrap();
    save(&dir, "row_view", &parent.row(1).unwrap());
    // Non-contiguous: buffer [0..6) as shape [3, 2] with strides [1, 3] is the transpose of
    // [[0, 1, 2], [3, 4, 5]], i.e. [[0, 3], [1, 4], [2, 5]]; its row 1 is [1, 4] (stride 3).
    let t = strided::<i64>((0..6).collect(), &[3, 2], &[1, 3]);
    assert!(!t.is_contiguous());
    save(&dir, "transposed_i64", &t);
    save(&dir, "transposed_row", &t.row(1).unwrap());
    // The same for float16, bool and uint8 (the element-by-element path for each type).
    let th = strided([0.5f32, 1.0, 1.5, 2.0, 2.5, 3.0].map(f16::from_f32).to_vec(), &[3, 2], &[1, 3]);
    save(&dir, "transposed_f16", &th);
    let tb = strided(vec![true, false, false, true, true, false], &[3, 2], &[1, 3]);
    save(&dir, "transposed_bool", &tb);
    let tu = strided(vec![250u8, 251, 252, 253, 254, 255], &[3, 2], &[1, 3]);
    save(&dir, "transposed_u8", &tu);

    let npz_ids = NDArray::from_slice::<i64>(&[101, 7, 102, 0], &[2, 2]).unwrap();
    let npz_mask = NDArray::from_slice::<i32>(&[1, 1, 1, 0], &[2, 2]).unwrap();
    let npz_scalar = NDArray::from_slice::<f64>(&[2.5], &[]).unwrap();
    write_npz(
        &dir.join("batch.npz"),
        &[("input_ids", &npz_ids), ("attention_mask", &npz_mask), ("scale", &npz_scalar), ("transposed", &t)],
    )
    .unwrap();
    write_npz(&dir.join("empty_archive.npz"), &[]).unwrap();

    // Expected values, written independently of the arrays above. NumPy's dtype.str:
    // '<i8' int64, '|i1' int8, '|u1' uint8, '<f2' float16, '|b1' bool.
    let spec = r#"{
      "npy": {
        "i64_2d": {"descr": "<i8", "shape": [2, 3], "data": [1, -2, 3, 9223372036854775807, -9223372036854775808, 0]},
        "i32_1d": {"descr": "<i4", "shape": [5], "data": [-2147483648, -1, 0, 1, 2147483647]},
        "i16_1d": {"descr": "<i2", "shape": [3], "data": [-32768, -1, 32767]},
        "i8_1d": {"descr": "|i1", "shape": [3], "data": [-128, -1, 127]},
        "u8_1d": {"descr": "|u1", "shape": [5], "data": [0, 1, 127, 128, 255]},
        "u16_1d": {"descr": "<u2", "shape": [3], "data": [0, 32768, 65535]},
        "u32_1d": {"descr": "<u4", "shape": [3], "data": [0, 2147483648, 4294967295]},
        "u64_1d": {"descr": "<u8", "shape": [3], "data": [0, 9223372036854775808, 18446744073709551615]},
        "f32_2d": {"descr": "<f4", "shape": [2, 3],
                   "data": [1.5, -0.0, Infinity, NaN, 3.4028234663852886e38, 1.401298464324817e-45]},
        "f64_1d": {"descr": "<f8", "shape": [6],
                   "data": [0.1, -1e300, 5e-324, 3.141592653589793, -Infinity, NaN]},
        "f16_1d": {"descr": "<f2", "shape": [5], "data": [1.0, -2.5, 65504.0, 5.960464477539063e-08, -Infinity]},
        "bool_2d": {"descr": "|b1", "shape": [2, 3], "data": [true, false, true, false, false, true]},
        "scalar_0d": {"descr": "<i8", "shape": [], "data": 42},
        "f64_3d": {"descr": "<f8", "shape": [2, 2, 3],
                   "data": [0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 5.5]},
        "empty_0x3": {"descr": "<i4", "shape": [0, 3], "data": []},
        "empty_1d": {"descr": "<f4", "shape": [0], "data": []},
        "row_view": {"descr": "<i8", "shape": [3], "data": [4, 5, 6]},
        "transposed_i64": {"descr": "<i8", "shape": [3, 2], "data": [[0, 3], [1, 4], [2, 5]]},
        "transposed_row": {"descr": "<i8", "shape": [2], "data": [1, 4]},
        "transposed_f16": {"descr": "<f2", "shape": [3, 2], "data": [[0.5, 2.0], [1.0, 2.5], [1.5, 3.0]]},
        "transposed_bool": {"descr": "|b1", "shape": [3, 2], "data": [[true, true], [false, true], [false, false]]},
        "transposed_u8": {"descr": "|u1", "shape": [3, 2], "data": [[250, 253], [251, 254], [252, 255]]}
      },
      "npz": {
        "batch": {
          "input_ids": {"descr": "<i8", "shape": [2, 2], "data": [[101, 7], [102, 0]]},
          "attention_mask": {"descr": "<i4", "shape": [2, 2], "data": [[1, 1], [1, 0]]},
          "scale": {"descr": "<f8", "shape": [], "data": 2.5},
          "transposed": {"descr": "<i8", "shape": [3, 2], "data": [[0, 3], [1, 4], [2, 5]]}
        },
        "empty_archive": {}
      }
    }"#;
    run_python(&py, &checker(spec), &dir);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bfloat16_has_no_numpy_dtype() {
    let a = NDArray::zeros(&[2], DLDataType::BFLOAT16).unwrap();
    let e = write_npy(Vec::new(), &a).unwrap_err().to_string();
    assert!(e.contains("bfloat16") && e.contains("NumPy"), "{e}");
}

#[test]
fn noncontiguous_uint64_above_i64_max_is_written_exactly() {
    let Some(py) = numpy_python() else { return };
    let dir = temp_dir("u64");
    // Transposed [[0, 2^63], [u64::MAX, 1]] as stored: buffer [0, u64::MAX, 2^63, 1] with shape
    // [2, 2], strides [1, 2]: element (i, k) = buf[i + 2k] -> [[0, 2^63], [u64::MAX, 1]].
    let t = strided(vec![0u64, u64::MAX, 1 << 63, 1], &[2, 2], &[1, 2]);
    assert!(!t.is_contiguous());
    save(&dir, "transposed_u64", &t);
    let spec = r#"{
      "npy": {
        "transposed_u64": {"descr": "<u8", "shape": [2, 2],
                           "data": [[0, 9223372036854775808], [18446744073709551615, 1]]}
      },
      "npz": {}
    }"#;
    run_python(&py, &checker(spec), &dir);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn noncontiguous_float_bit_patterns_are_preserved() {
    let Some(py) = numpy_python() else { return };
    let dir = temp_dir("bits");
    // A .npy file stores raw bytes, so a strided copy must keep every bit, signalling NaNs included.
    // float32 buffer bits [0x7f800001 (sNaN), 0x3f800000 (1.0), 0xffbfffff (sNaN, sign set,
    // full payload), 0x00000001] as shape [2, 2] strides [1, 2]: (i, k) = buf[i + 2k], i.e.
    // [[0x7f800001, 0xffbfffff], [0x3f800000, 0x00000001]].
    let f = strided([0x7f80_0001u32, 0x3f80_0000, 0xffbf_ffff, 1].map(f32::from_bits).to_vec(), &[2, 2], &[1, 2]);
    save(&dir, "transposed_f32_bits", &f);
    // float16 [0x7c01 (sNaN), 0x3c00, 0xfd55 (sNaN, sign set), 0x0001], same layout.
    let h = strided([0x7c01u16, 0x3c00, 0xfd55, 0x0001].map(f16::from_bits).to_vec(), &[2, 2], &[1, 2]);
    save(&dir, "transposed_f16_bits", &h);
    let spec = r#"{
      "npy": {
        "transposed_f32_bits": {"descr": "<f4", "shape": [2, 2], "bits": true,
                                "data": [[2139095041, 4290772991], [1065353216, 1]]},
        "transposed_f16_bits": {"descr": "<f2", "shape": [2, 2], "bits": true,
                                "data": [[31745, 64853], [15360, 1]]}
      },
      "npz": {}
    }"#;
    run_python(&py, &checker(spec), &dir);
    std::fs::remove_dir_all(&dir).unwrap();
}

// ---------------------------------------------------------------------------------------------
// NumPy writes, Rust reads
// ---------------------------------------------------------------------------------------------

const WRITER: &str = r#"
import os, sys
import numpy as np
from numpy.lib import format as fmt
d = sys.argv[1]
p = lambda n: os.path.join(d, n)
np.save(p("i64_2d.npy"), np.array([[1, -2, 3], [2**63 - 1, -2**63, 0]], dtype=np.int64))
np.save(p("i32_1d.npy"), np.array([-2**31, -1, 0, 1, 2**31 - 1], dtype=np.int32))
np.save(p("i8_1d.npy"), np.array([-128, -1, 127], dtype=np.int8))
np.save(p("i16_1d.npy"), np.array([-32768, 5, 32767], dtype=np.int16))
np.save(p("u8_1d.npy"), np.array([0, 1, 128, 255], dtype=np.uint8))
np.save(p("u16_1d.npy"), np.array([0, 40000, 65535], dtype=np.uint16))
np.save(p("u32_1d.npy"), np.array([0, 3000000000, 2**32 - 1], dtype=np.uint32))
np.save(p("u64_1d.npy"), np.array([0, 2**63, 2**64 - 1], dtype=np.uint64))
np.save(p("f16_1d.npy"), np.array([1.0, -2.5, 65504.0, 2.0**-24, -np.inf], dtype=np.float16))
np.save(p("f32_1d.npy"), np.array([1.5, -0.0, np.inf, 2.0**-149], dtype=np.float32))
np.save(p("f64_1d.npy"), np.array([0.1, -1e300, 5e-324, np.pi], dtype=np.float64))
np.save(p("scalar_0d.npy"), np.array(42, dtype=np.int64))
np.save(p("empty_0x3.npy"), np.zeros((0, 3), dtype=np.int32))
np.save(p("f64_3d.npy"), np.arange(12, dtype=np.float64).reshape(2, 2, 3) * 0.5)
# A transposed (F-contiguous) array is saved with fortran_order=True; a C copy is not.
t = np.arange(6, dtype=np.int64).reshape(2, 3).T
np.save(p("fortran.npy"), t)
np.save(p("transposed_c.npy"), np.ascontiguousarray(t))
np.save(p("big_endian.npy"), np.array([1, 2], dtype=">i4"))
for v in [(2, 0), (3, 0)]:
    with open(p(f"v{v[0]}.npy"), "wb") as f:
        fmt.write_array(f, np.array([[7, 8], [9, 10]], dtype=np.int16), version=v)
arrays = dict(
    input_ids=np.array([[101, 7, 102], [101, 102, 0]], dtype=np.int64),
    attention_mask=np.array([[1, 1, 1], [1, 1, 0]], dtype=np.int64),
    scale=np.array(0.25),
    big=np.arange(10000, dtype=np.int64),
)
np.savez(p("stored.npz"), **arrays)
np.savez_compressed(p("compressed.npz"), **arrays)
print("OK")
"#;

fn bits32(a: &NDArray) -> Vec<u32> {
    a.as_slice::<f32>().unwrap().iter().map(|x| x.to_bits()).collect()
}

fn bits64(a: &NDArray) -> Vec<u64> {
    a.as_slice::<f64>().unwrap().iter().map(|x| x.to_bits()).collect()
}

fn check_batch(arrays: &[(String, NDArray)], what: &str) {
    let names: Vec<&str> = arrays.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["input_ids", "attention_mask", "scale", "big"], "{what}: names in archive order");
    let a = &arrays[0].1;
    assert_eq!((a.dtype(), a.shape()), (DLDataType::INT64, &[2i64, 3] as &[i64]), "{what}");
    assert_eq!(a.as_slice::<i64>().unwrap(), &[101, 7, 102, 101, 102, 0], "{what}");
    let m = &arrays[1].1;
    assert_eq!(m.as_slice::<i64>().unwrap(), &[1, 1, 1, 1, 1, 0], "{what}");
    let s = &arrays[2].1;
    assert_eq!((s.dtype(), s.shape()), (DLDataType::FLOAT64, &[] as &[i64]), "{what}");
    assert_eq!(s.as_slice::<f64>().unwrap(), &[0.25], "{what}");
    let big = &arrays[3].1;
    assert_eq!(big.shape(), &[10000], "{what}");
    let expect: Vec<i64> = (0..10000).collect();
    assert_eq!(big.as_slice::<i64>().unwrap(), &expect[..], "{what}");
}

#[test]
fn numpy_writes_rust_reads() {
    let Some(py) = numpy_python() else { return };
    let dir = temp_dir("read");
    run_python(&py, WRITER, &dir);

    let a = load(&dir, "i64_2d.npy").unwrap();
    assert_eq!((a.dtype(), a.shape()), (DLDataType::INT64, &[2i64, 3] as &[i64]));
    assert_eq!(a.as_slice::<i64>().unwrap(), &[1, -2, 3, i64::MAX, i64::MIN, 0]);
    let a = load(&dir, "i32_1d.npy").unwrap();
    assert_eq!(a.as_slice::<i32>().unwrap(), &[i32::MIN, -1, 0, 1, i32::MAX]);
    assert_eq!(load(&dir, "i8_1d.npy").unwrap().as_slice::<i8>().unwrap(), &[-128, -1, 127]);
    assert_eq!(load(&dir, "i16_1d.npy").unwrap().as_slice::<i16>().unwrap(), &[-32768, 5, 32767]);
    assert_eq!(load(&dir, "u8_1d.npy").unwrap().as_slice::<u8>().unwrap(), &[0, 1, 128, 255]);
    assert_eq!(load(&dir, "u16_1d.npy").unwrap().as_slice::<u16>().unwrap(), &[0, 40000, 65535]);
    assert_eq!(load(&dir, "u32_1d.npy").unwrap().as_slice::<u32>().unwrap(), &[0, 3_000_000_000, u32::MAX]);
    assert_eq!(load(&dir, "u64_1d.npy").unwrap().as_slice::<u64>().unwrap(), &[0, 1 << 63, u64::MAX]);
    // float16 bits: 1.0 = 0x3c00, -2.5 = 0xc100 (sign, exponent 16, mantissa 0x100), 65504 = 0x7bff,
    // 2^-24 = 0x0001, -inf = 0xfc00.
    let h = load(&dir, "f16_1d.npy").unwrap();
    assert_eq!(h.dtype(), DLDataType::FLOAT16);
    let hb: Vec<u16> = h.as_slice::<f16>().unwrap().iter().map(|x| x.to_bits()).collect();
    assert_eq!(hb, [0x3c00, 0xc100, 0x7bff, 0x0001, 0xfc00]);
    // float32 bits: 1.5 = 0x3fc00000, -0.0 = 0x80000000, inf = 0x7f800000, 2^-149 = 0x00000001.
    assert_eq!(bits32(&load(&dir, "f32_1d.npy").unwrap()), [0x3fc0_0000, 0x8000_0000, 0x7f80_0000, 1]);
    let expect64 = [0.1f64, -1e300, f64::from_bits(1), std::f64::consts::PI].map(f64::to_bits);
    assert_eq!(bits64(&load(&dir, "f64_1d.npy").unwrap()), expect64);
    let s = load(&dir, "scalar_0d.npy").unwrap();
    assert_eq!(s.shape(), &[] as &[i64]);
    assert_eq!(s.as_slice::<i64>().unwrap(), &[42]);
    let e = load(&dir, "empty_0x3.npy").unwrap();
    assert_eq!((e.dtype(), e.shape(), e.numel()), (DLDataType::INT32, &[0i64, 3] as &[i64], 0));
    let c = load(&dir, "f64_3d.npy").unwrap();
    assert_eq!(c.shape(), &[2, 2, 3]);
    assert_eq!(c.as_slice::<f64>().unwrap(), &[0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 5.5]);
    // arange(6).reshape(2, 3).T = [[0, 3], [1, 4], [2, 5]], row-major after ascontiguousarray.
    let t = load(&dir, "transposed_c.npy").unwrap();
    assert_eq!(t.shape(), &[3, 2]);
    assert_eq!(t.as_slice::<i64>().unwrap(), &[0, 3, 1, 4, 2, 5]);
    // Header versions 2.0 and 3.0 (4-byte header length).
    for v in ["v2.npy", "v3.npy"] {
        let a = load(&dir, v).unwrap();
        assert_eq!((a.dtype(), a.shape()), (DLDataType::INT16, &[2i64, 2] as &[i64]), "{v}");
        assert_eq!(a.as_slice::<i16>().unwrap(), &[7, 8, 9, 10], "{v}");
    }
    // Refused, with a reason: Fortran order and big-endian data.
    let e = load(&dir, "fortran.npy").unwrap_err().to_string();
    assert!(e.contains("Fortran"), "{e}");
    let e = load(&dir, "big_endian.npy").unwrap_err().to_string();
    assert!(e.contains("big-endian"), "{e}");

    check_batch(&read_npz(&dir.join("stored.npz")).unwrap(), "np.savez");
    check_batch(&read_npz(&dir.join("compressed.npz")).unwrap(), "np.savez_compressed");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn numpy_bool_arrays_are_read() {
    let Some(py) = numpy_python() else { return };
    let dir = temp_dir("bool");
    let script = r#"
import os, sys
import numpy as np
d = sys.argv[1]
np.save(os.path.join(d, "bool_2d.npy"), np.array([[True, False, True], [False, False, True]]))
np.savez(os.path.join(d, "bools.npz"), mask=np.array([False, True]), flag=np.array(True))
print("OK")
"#;
    run_python(&py, script, &dir);
    let b = load(&dir, "bool_2d.npy").unwrap_or_else(|e| panic!("reading np.save's bool array: {e}"));
    assert_eq!((b.dtype(), b.shape()), (DLDataType::BOOL, &[2i64, 3] as &[i64]));
    assert_eq!(b.as_slice::<bool>().unwrap(), &[true, false, true, false, false, true]);
    let z = read_npz(&dir.join("bools.npz")).unwrap_or_else(|e| panic!("reading np.savez's bool arrays: {e}"));
    assert_eq!(z.len(), 2);
    assert_eq!(z[0].0, "mask");
    assert_eq!(z[0].1.as_slice::<bool>().unwrap(), &[false, true]);
    assert_eq!(z[1].0, "flag");
    assert_eq!((z[1].1.dtype(), z[1].1.shape()), (DLDataType::BOOL, &[] as &[i64]));
    assert_eq!(z[1].1.as_slice::<bool>().unwrap(), &[true]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A version 1.0 `.npy` stream with `header` (unpadded, which readers accept) and `data`.
fn npy_stream(header: &str, data: &[u8]) -> Vec<u8> {
    let mut file = b"\x93NUMPY\x01\x00".to_vec();
    file.extend((header.len() as u16).to_le_bytes());
    file.extend(header.as_bytes());
    file.extend(data);
    file
}

#[test]
fn bool_npy_is_read_and_validated() {
    // NumPy stores bool as one byte, 0 or 1 ('|b1').
    let file = npy_stream("{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }", &[1, 0, 1]);
    let a = read_npy(&file[..]).unwrap_or_else(|e| panic!("reading a bool .npy: {e}"));
    assert_eq!(a.dtype(), DLDataType::BOOL);
    assert_eq!(a.as_slice::<bool>().unwrap(), &[true, false, true]);
    // A byte other than 0 or 1 is not a bool.
    let file = npy_stream("{'descr': '|b1', 'fortran_order': False, 'shape': (2,), }", &[1, 2]);
    let e = read_npy(&file[..]).unwrap_err().to_string();
    assert!(e.contains("0 and 1"), "{e}");
}

#[test]
fn read_errors_name_the_problem() {
    // Independent of NumPy: malformed streams, built by hand from the format spec
    // (magic "\x93NUMPY", version bytes, little-endian u16 header length, header dict).
    let e = read_npy(&b"\x93NUMPX\x01\x00"[..]).unwrap_err().to_string();
    assert!(e.contains("magic"), "{e}");
    let e = read_npy(&b"\x93NU"[..]).unwrap_err().to_string();
    assert!(e.contains("too short"), "{e}");
    let header = b"{'descr': '<i8', 'fortran_order': False, 'shape': (2,), }";
    let mut file = b"\x93NUMPY\x01\x00".to_vec();
    file.extend((header.len() as u16).to_le_bytes());
    file.extend(header);
    file.extend(1i64.to_le_bytes()); // only 8 of the 16 data bytes
    let e = read_npy(&file[..]).unwrap_err().to_string();
    assert!(e.contains("truncated") && e.contains("16"), "{e}");
    // Unsupported descriptors.
    for descr in ["<c16", "<U5", "|O", "<i3"] {
        let header = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': (1,), }}");
        let mut file = b"\x93NUMPY\x01\x00".to_vec();
        file.extend((header.len() as u16).to_le_bytes());
        file.extend(header.as_bytes());
        file.extend([0u8; 16]);
        assert!(read_npy(&file[..]).is_err(), "{descr}");
    }
}
