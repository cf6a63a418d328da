//! `.npy` and `.npz` files (NumPy's format, version 1.0/2.0), for the CLI and for tests with NumPy.
//!
//! The dtype descriptor comes from `DLDataType::npy_descr`, so the header derives
//! from the one DLPack definition rather than from a table of its own.

use super::array::{NDArray, checked_numel};
use super::dlpack::DLDataType;
use super::dtype::NpyDescr;
use crate::error::{Error, ErrorKind, Result, ResultExt};
use std::io::{Read, Seek, Write};
use std::path::Path;

const MAGIC: &[u8] = b"\x93NUMPY";

fn parse_error(msg: impl Into<String>) -> Error {
    Error::new(ErrorKind::Parse, msg)
}

/// The array's elements in row-major order, copying (bytes, exactly) only if it is not contiguous.
fn row_major_bytes(a: &NDArray) -> Result<std::borrow::Cow<'_, [u8]>> {
    if a.is_contiguous() {
        return a.bytes().map(std::borrow::Cow::Borrowed);
    }
    let mut out = Vec::with_capacity(a.numel() * a.dtype().itemsize());
    let mut index = vec![0i64; a.ndim()];
    for _ in 0..a.numel() {
        out.extend_from_slice(a.element_bytes(&index)?);
        // Odometer increment over the shape.
        for axis in (0..index.len()).rev() {
            index[axis] += 1;
            if index[axis] < a.shape()[axis] {
                break;
            }
            index[axis] = 0;
        }
    }
    Ok(std::borrow::Cow::Owned(out))
}

/// The `.npy` header of an array of `dtype` and `shape`: magic, version, length and the dict,
/// padded with spaces so that the data starts at a multiple of 64 bytes.
pub fn npy_header(dtype: DLDataType, shape: &[i64]) -> Result<Vec<u8>> {
    let descr = dtype.npy_descr()?;
    let shape = match shape {
        [] => "()".to_string(),
        [d] => format!("({d},)"),
        dims => format!("({})", dims.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")),
    };
    let mut header = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
    // Pad with spaces so that magic + version + length + header is a multiple of 64, ending in '\n'.
    let (version, len_bytes) = if header.len() + 11 < 65535 { (1u8, 2) } else { (2u8, 4) };
    let prefix = MAGIC.len() + 2 + len_bytes;
    let total = (prefix + header.len() + 1).div_ceil(64) * 64;
    header.extend(std::iter::repeat_n(' ', total - prefix - header.len() - 1));
    header.push('\n');
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&[version, 0]);
    if version == 1 {
        out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    } else {
        out.extend_from_slice(&(header.len() as u32).to_le_bytes());
    }
    out.extend_from_slice(header.as_bytes());
    Ok(out)
}

/// Writes `a` as a `.npy` stream.
pub fn write_npy(mut w: impl Write, a: &NDArray) -> Result<()> {
    w.write_all(&npy_header(a.dtype(), a.shape())?)?;
    w.write_all(&row_major_bytes(a)?)?;
    Ok(())
}

/// Options for an `.npz` entry of `size` bytes: stored, and zip64 when it needs it.
///
/// Rationale: the zip writer refuses an entry of 4 GiB or more unless told up front, and
/// a padded id tensor of a large corpus is that big (ten million lines of 128 int64 ids).
fn npz_entry_options(size: u64) -> zip::write::SimpleFileOptions {
    zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Stored)
        .large_file(size >= u64::from(u32::MAX))
}

/// The `.npy` encoding of `a`.
pub fn to_npy_bytes(a: &NDArray) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    write_npy(&mut out, a)?;
    Ok(out)
}

/// Finds `'key': value` in a header dict and returns the raw value text.
fn header_field<'h>(header: &'h str, key: &str) -> Result<&'h str> {
    let pat = format!("'{key}':");
    let start = header.find(&pat).ok_or_else(|| parse_error(format!("npy header has no {key:?}")))? + pat.len();
    let rest = header[start..].trim_start();
    let end = if rest.starts_with('(') {
        rest.find(')').map(|i| i + 1)
    } else if let Some(quoted) = rest.strip_prefix('\'') {
        quoted.find('\'').map(|i| i + 2)
    } else {
        rest.find([',', '}'])
    }
    .ok_or_else(|| parse_error(format!("npy header: unterminated {key:?}")))?;
    Ok(rest[..end].trim())
}

/// Reads a `.npy` stream.
pub fn read_npy(mut r: impl Read) -> Result<NDArray> {
    let mut magic = [0u8; 8];
    r.read_exact(&mut magic).map_err(|_| parse_error("file too short for a .npy header"))?;
    if &magic[..6] != MAGIC {
        return Err(parse_error("not a .npy file (bad magic)"));
    }
    let header_len = match magic[6] {
        1 => {
            let mut b = [0u8; 2];
            r.read_exact(&mut b)?;
            u16::from_le_bytes(b) as usize
        }
        2 | 3 => {
            let mut b = [0u8; 4];
            r.read_exact(&mut b)?;
            u32::from_le_bytes(b) as usize
        }
        v => return Err(parse_error(format!("unsupported .npy version {v}"))),
    };
    if header_len > 1 << 20 {
        return Err(parse_error(format!(".npy header of {header_len} bytes is implausibly large")));
    }
    let mut header = vec![0u8; header_len];
    r.read_exact(&mut header).map_err(|_| parse_error("truncated .npy header"))?;
    let header = String::from_utf8(header).map_err(|_| parse_error(".npy header is not text"))?;

    let descr = header_field(&header, "descr")?.trim_matches('\'');
    let dtype = DLDataType::from_npy_descr(descr)?;
    if header_field(&header, "fortran_order")? != "False" {
        return Err(parse_error("Fortran-ordered .npy arrays are not supported"));
    }
    let shape_text = header_field(&header, "shape")?;
    let shape: Vec<i64> = shape_text
        .trim_start_matches('(')
        .trim_end_matches(')')
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.trim_end_matches('L').parse::<i64>().map_err(|_| parse_error(format!("bad shape {shape_text}"))))
        .collect::<Result<_>>()?;
    let numel = checked_numel(&shape)?;
    let nbytes = numel.checked_mul(dtype.itemsize()).ok_or_else(|| parse_error("shape too large"))?;

    let mut a = NDArray::zeros(&shape, dtype)?;
    let truncated = || parse_error(format!("truncated .npy data: expected {nbytes} bytes"));
    if dtype == DLDataType::BOOL {
        // Bytes other than 0 and 1 are not valid `bool`s: check them before they become any.
        let mut raw = vec![0u8; nbytes];
        r.read_exact(&mut raw).map_err(|_| truncated())?;
        if let Some(i) = raw.iter().position(|&b| b > 1) {
            return Err(parse_error(format!(
                ".npy bool data holds {} at element {i} (only 0 and 1 are bools)",
                raw[i]
            )));
        }
        a.as_mut_slice::<bool>()?.iter_mut().zip(&raw).for_each(|(d, &b)| *d = b == 1);
    } else {
        r.read_exact(&mut bytes_mut(&mut a)?[..nbytes]).map_err(|_| truncated())?;
    }
    Ok(a)
}

/// The writable bytes of a freshly made array.
fn bytes_mut(a: &mut NDArray) -> Result<&mut [u8]> {
    macro_rules! as_bytes {
        ($t:ty) => {{
            let s = a.as_mut_slice::<$t>()?;
            let len = std::mem::size_of_val(s);
            // SAFETY: any initialised slice of plain numbers may be viewed as bytes.
            unsafe { std::slice::from_raw_parts_mut(s.as_mut_ptr().cast::<u8>(), len) }
        }};
    }
    Ok(match a.dtype() {
        DLDataType::UINT8 => as_bytes!(u8),
        DLDataType::INT8 => as_bytes!(i8),
        DLDataType::INT16 => as_bytes!(i16),
        DLDataType::INT32 => as_bytes!(i32),
        DLDataType::INT64 => as_bytes!(i64),
        DLDataType::UINT16 => as_bytes!(u16),
        DLDataType::UINT32 => as_bytes!(u32),
        DLDataType::UINT64 => as_bytes!(u64),
        DLDataType::FLOAT16 => as_bytes!(half::f16),
        DLDataType::BFLOAT16 => as_bytes!(half::bf16),
        DLDataType::FLOAT32 => as_bytes!(f32),
        DLDataType::FLOAT64 => as_bytes!(f64),
        other => return Err(Error::value(format!("unsupported dtype {other}"))),
    })
}

/// Writes named arrays into a `.npz` archive (what `np.load` returns as a dict).
pub fn write_npz(path: &Path, arrays: &[(&str, &NDArray)]) -> Result<()> {
    let ctx = || path.display().to_string();
    let file = std::fs::File::create(path).map_err(Error::from).with_context(ctx)?;
    let mut zip = zip::ZipWriter::new(file);
    for (name, a) in arrays {
        write_npz_entry(&mut zip, name, a).with_context(ctx)?;
    }
    zip.finish().map_err(|e| Error::new(ErrorKind::Io, e.to_string())).with_context(ctx)?;
    Ok(())
}

/// Starts the entry `NAME.npy` of `size` bytes in an open `.npz` archive; its bytes follow.
pub fn start_npz_entry<W: Write + Seek>(zip: &mut zip::ZipWriter<W>, name: &str, size: u64) -> Result<()> {
    zip.start_file(format!("{name}.npy"), npz_entry_options(size)).map_err(|e| Error::new(ErrorKind::Io, e.to_string()))
}

/// Writes `a` as the entry `NAME.npy` of an open `.npz` archive.
pub fn write_npz_entry<W: Write + Seek>(zip: &mut zip::ZipWriter<W>, name: &str, a: &NDArray) -> Result<()> {
    // The header is well under a kilobyte; only whether the entry reaches 4 GiB matters.
    start_npz_entry(zip, name, (a.numel() * a.dtype().itemsize()) as u64 + 1024)?;
    write_npy(zip, a).with_context(|| name.to_string())
}

/// Reads every array of a `.npz` archive, in archive order.
pub fn read_npz(path: &Path) -> Result<Vec<(String, NDArray)>> {
    let ctx = || path.display().to_string();
    let file = std::fs::File::open(path).map_err(Error::from).with_context(ctx)?;
    read_npz_from(file).with_context(ctx)
}

fn read_npz_from(r: impl Read + Seek) -> Result<Vec<(String, NDArray)>> {
    let mut zip = zip::ZipArchive::new(r).map_err(|e| parse_error(format!("not a .npz archive: {e}")))?;
    let mut out = Vec::with_capacity(zip.len());
    for i in 0..zip.len() {
        let entry = zip.by_index(i).map_err(|e| parse_error(e.to_string()))?;
        let name = entry.name().trim_end_matches(".npy").to_string();
        let a = read_npy(entry).with_context(|| name.clone())?;
        out.push((name, a));
    }
    Ok(out)
}
