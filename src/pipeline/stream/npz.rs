//! Gathering a run's batches into one `.npz` without holding their tensors in memory.
//!
//! Rationale: a `.npz` entry starts with its shape, known only once the last batch is in, so
//! the batches used to be kept until the end: two copies of every tensor in memory (the
//! batches, then the joined array), 3 KB per line for the BERT pipeline, which a corpus of ten
//! million lines cannot afford. The int matrices (padded ids, masks, type ids) are now appended
//! to an unnamed temporary file as each batch comes, row bytes as they lie, and copied into the
//! archive at the end, narrower batches re-padded on the way. Other outputs (ragged ids, lists)
//! are small and are still joined in memory.

use super::stack::concat;
use crate::error::ResultExt;
use crate::ndarray::DLDataType;
use crate::ndarray::npy::{npy_header, start_npz_entry, write_npz_entry};
use crate::pipeline::BatchOutput;
use crate::{AnyValue, Error, ErrorKind, FromAny, NDArray, Result};
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// One output's batches so far.
enum Gathered {
    /// 2-D int32/int64 tensors, their bytes in a temporary file.
    Spilled(Spill),
    /// Anything else, joined at the end.
    Kept(Vec<AnyValue>),
}

/// Row bytes of int matrices of one dtype, appended batch by batch.
struct Spill {
    file: BufWriter<File>,
    dtype: DLDataType,
    /// (rows, width) of each batch, in order.
    parts: Vec<(u64, u64)>,
}

/// A `.npz` being gathered: call [`NpzWriter::write`] per batch, then [`NpzWriter::finish`].
pub struct NpzWriter {
    path: PathBuf,
    /// The padding value of each padded tensor, for batches narrower than the widest.
    pads: Vec<(String, i64)>,
    /// The outputs in the first batch's order.
    outputs: Vec<(String, Gathered)>,
}

impl NpzWriter {
    /// A writer for `path`, which is created only by `finish`.
    pub fn new(path: &Path, pads: Vec<(String, i64)>) -> Self {
        NpzWriter { path: path.to_path_buf(), pads, outputs: Vec::new() }
    }

    /// Takes one batch: int matrices go to disk, the rest is kept.
    pub fn write(&mut self, batch: BatchOutput) -> Result<()> {
        if self.outputs.is_empty() {
            for (name, value) in &batch.outputs {
                let gathered = match int_matrix(value) {
                    Some(a) => Gathered::Spilled(Spill::new(a.dtype()).with_context(|| self.context(name))?),
                    None => Gathered::Kept(Vec::new()),
                };
                self.outputs.push((name.clone(), gathered));
            }
        }
        for (name, value) in batch.outputs {
            let Some(i) = self.outputs.iter().position(|(n, _)| *n == name) else {
                return Err(Error::value(format!("output '{name}' is not in the first batch")));
            };
            let context = self.context(&name);
            match &mut self.outputs[i].1 {
                Gathered::Spilled(spill) => spill.append(&name, &value).with_context(|| context)?,
                Gathered::Kept(values) => values.push(value),
            }
        }
        Ok(())
    }

    /// Writes the archive: every output joined across batches, in the first batch's order.
    pub fn finish(self) -> Result<()> {
        let ctx = || self.path.display().to_string();
        let file = File::create(&self.path).map_err(Error::from).with_context(ctx)?;
        let mut zip = zip::ZipWriter::new(BufWriter::with_capacity(1 << 20, file));
        for (name, gathered) in self.outputs {
            let pad = self.pads.iter().find(|(n, _)| *n == name).map(|(_, p)| *p);
            match gathered {
                Gathered::Spilled(spill) => {
                    let (header, rows, width) = spill.header()?;
                    let size = header.len() as u64 + rows * width * spill.dtype.itemsize() as u64;
                    start_npz_entry(&mut zip, &name, size).with_context(ctx)?;
                    zip.write_all(&header)?;
                    spill.copy_padded(&name, &mut zip, width, pad).with_context(ctx)?;
                }
                Gathered::Kept(values) => {
                    let parts: Vec<&AnyValue> = values.iter().collect();
                    let array = concat(&name, &parts, pad).with_context(ctx)?;
                    write_npz_entry(&mut zip, &name, &array).with_context(ctx)?;
                }
            }
        }
        let mut out = zip.finish().map_err(|e| Error::new(ErrorKind::Io, e.to_string())).with_context(ctx)?;
        out.flush().map_err(Error::from).with_context(ctx)
    }

    fn context(&self, name: &str) -> String {
        format!("{}: output '{name}'", self.path.display())
    }
}

/// `value` as a contiguous 2-D int32/int64 tensor, if it is one.
fn int_matrix(value: &AnyValue) -> Option<NDArray> {
    let a = NDArray::from_view(&value.view())?;
    let int = a.dtype() == DLDataType::INT64 || a.dtype() == DLDataType::INT32;
    (int && a.ndim() == 2 && a.is_contiguous()).then_some(a)
}

impl Spill {
    fn new(dtype: DLDataType) -> Result<Spill> {
        let file = tempfile::tempfile().map_err(|e| Error::from(e).context("cannot create a temporary file"))?;
        Ok(Spill { file: BufWriter::with_capacity(1 << 20, file), dtype, parts: Vec::new() })
    }

    /// Appends one batch's tensor, which must be an int matrix of the first batch's dtype.
    fn append(&mut self, name: &str, value: &AnyValue) -> Result<()> {
        let a = int_matrix(value).filter(|a| a.dtype() == self.dtype).ok_or_else(|| {
            Error::value(format!(
                "output '{name}' is a {} matrix in the first batch and something else in batch {}",
                self.dtype.name(),
                self.parts.len() + 1
            ))
        })?;
        self.file.write_all(a.bytes()?)?;
        self.parts.push((a.shape()[0] as u64, a.shape()[1] as u64));
        Ok(())
    }

    /// The `.npy` header of the joined tensor, with its rows and width.
    fn header(&self) -> Result<(Vec<u8>, u64, u64)> {
        let rows: u64 = self.parts.iter().map(|&(r, _)| r).sum();
        let width = self.parts.iter().map(|&(_, w)| w).max().unwrap_or(0);
        Ok((npy_header(self.dtype, &[rows as i64, width as i64])?, rows, width))
    }

    /// Copies the batches' rows into `out`, padding rows narrower than `width` with `pad`.
    fn copy_padded(self, name: &str, out: &mut impl Write, width: u64, pad: Option<i64>) -> Result<()> {
        let item = self.dtype.itemsize() as u64;
        let mut file = self.file.into_inner().map_err(|e| Error::from(e.into_error()))?;
        file.seek(SeekFrom::Start(0))?;
        let mut file = BufReader::with_capacity(1 << 20, file);
        let pad_row = |w: u64| -> Result<Vec<u8>> {
            let pad = pad.ok_or_else(|| Error::value(format!("output '{name}': no padding value known")))?;
            let missing = (width - w) as usize;
            // Native order, as the tensors' own bytes were written.
            if self.dtype == DLDataType::INT64 {
                Ok(pad.to_ne_bytes().repeat(missing))
            } else {
                let pad = i32::try_from(pad)
                    .map_err(|_| Error::value(format!("output '{name}': pad id {pad} does not fit int32")))?;
                Ok(pad.to_ne_bytes().repeat(missing))
            }
        };
        let mut row = Vec::new();
        for &(rows, w) in &self.parts {
            if w == width {
                let bytes = rows * w * item;
                let copied = std::io::copy(&mut (&mut file).take(bytes), out)?;
                if copied != bytes {
                    return Err(Error::runtime(format!("output '{name}': the temporary file ended early")));
                }
                continue;
            }
            let padding = pad_row(w)?;
            row.resize((w * item) as usize, 0);
            for _ in 0..rows {
                file.read_exact(&mut row)?;
                out.write_all(&row)?;
                out.write_all(&padding)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::List;
    use crate::ndarray::Element;
    use crate::ndarray::npy::read_npz;

    fn batch(outputs: Vec<(&str, AnyValue)>) -> BatchOutput {
        BatchOutput { outputs: outputs.into_iter().map(|(k, v)| (k.to_string(), v)).collect(), ..Default::default() }
    }

    fn matrix<T: Element>(values: &[T], rows: i64, width: i64) -> AnyValue {
        NDArray::from_slice(values, &[rows, width]).unwrap().into_any()
    }

    /// An array read back: name, shape, values as i64.
    type ReadBack = (String, Vec<i64>, Vec<i64>);

    /// Writes `batches` to a fresh `.npz` and reads it back.
    fn round_trip(batches: Vec<BatchOutput>, pads: Vec<(&str, i64)>) -> Result<Vec<ReadBack>> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.npz");
        let mut w = NpzWriter::new(&path, pads.into_iter().map(|(k, p)| (k.to_string(), p)).collect());
        for b in batches {
            w.write(b)?;
        }
        w.finish()?;
        let arrays = read_npz(&path)?;
        Ok(arrays
            .into_iter()
            .map(|(name, a)| {
                let values = match a.dtype() {
                    DLDataType::INT32 => a.as_slice::<i32>().unwrap().iter().map(|&x| i64::from(x)).collect(),
                    _ => a.as_slice::<i64>().unwrap().to_vec(),
                };
                (name, a.shape().to_vec(), values)
            })
            .collect())
    }

    #[test]
    fn int_matrices_of_several_widths_are_joined_and_padded_to_the_widest() {
        let batches = vec![
            batch(vec![("ids", matrix::<i64>(&[1, 2, 3, 4], 2, 2)), ("mask", matrix::<i32>(&[1, 1, 1, 0], 2, 2))]),
            batch(vec![("ids", matrix::<i64>(&[5, 6, 7], 1, 3)), ("mask", matrix::<i32>(&[1, 1, 1], 1, 3))]),
            batch(vec![("ids", matrix::<i64>(&[], 1, 0)), ("mask", matrix::<i32>(&[], 1, 0))]),
        ];
        let got = round_trip(batches, vec![("ids", -1), ("mask", 0)]).unwrap();
        // Written by hand: rows in order, each padded to width 3.
        assert_eq!(
            got,
            [
                ("ids".to_string(), vec![4, 3], vec![1, 2, -1, 3, 4, -1, 5, 6, 7, -1, -1, -1]),
                ("mask".to_string(), vec![4, 3], vec![1, 1, 0, 1, 0, 0, 1, 1, 1, 0, 0, 0]),
            ]
        );
    }

    #[test]
    fn a_pad_is_needed_only_when_widths_differ() {
        let same = vec![
            batch(vec![("ids", matrix::<i64>(&[1, 2], 1, 2))]),
            batch(vec![("ids", matrix::<i64>(&[3, 4], 1, 2))]),
        ];
        assert_eq!(round_trip(same, vec![]).unwrap(), [("ids".to_string(), vec![2, 2], vec![1, 2, 3, 4])]);
        let differ =
            || vec![batch(vec![("m", matrix::<i32>(&[1, 2], 1, 2))]), batch(vec![("m", matrix::<i32>(&[3], 1, 1))])];
        let e = round_trip(differ(), vec![]).unwrap_err().to_string();
        assert!(e.contains("output 'm': no padding value known"), "{e}");
        let e = round_trip(differ(), vec![("m", 1 << 40)]).unwrap_err().to_string();
        assert!(e.contains("pad id 1099511627776 does not fit int32"), "{e}");
    }

    #[test]
    fn ragged_ids_and_lists_are_joined_beside_the_matrices() {
        let ragged = |values: &[i64], offsets: &[i64]| {
            [
                NDArray::from_slice(values, &[values.len() as i64]).unwrap().into_any(),
                NDArray::from_slice(offsets, &[offsets.len() as i64]).unwrap().into_any(),
            ]
        };
        let numbers = |xs: &[i64]| xs.iter().map(|&x| AnyValue::from(x)).collect::<List>().into_any();
        let [v1, o1] = ragged(&[7, 8, 9], &[0, 2, 3]);
        let [v2, o2] = ragged(&[10], &[0, 1]);
        let batches = vec![
            batch(vec![("r", v1), ("r.offsets", o1), ("n", numbers(&[1, 2])), ("ids", matrix::<i64>(&[1, 2], 2, 1))]),
            batch(vec![("r", v2), ("r.offsets", o2), ("n", numbers(&[3])), ("ids", matrix::<i64>(&[3], 1, 1))]),
        ];
        let got = round_trip(batches, vec![]).unwrap();
        assert_eq!(
            got,
            [
                ("r".to_string(), vec![4], vec![7, 8, 9, 10]),
                ("r.offsets".to_string(), vec![4], vec![0, 2, 3, 4]),
                ("n".to_string(), vec![3], vec![1, 2, 3]),
                ("ids".to_string(), vec![3, 1], vec![1, 2, 3]),
            ]
        );
    }

    #[test]
    fn a_matrix_output_that_changes_type_is_named() {
        let batches =
            vec![batch(vec![("ids", matrix::<i64>(&[1], 1, 1))]), batch(vec![("ids", matrix::<i32>(&[1], 1, 1))])];
        let e = round_trip(batches, vec![]).unwrap_err().to_string();
        assert!(e.contains("output 'ids' is a int64 matrix in the first batch and something else in batch 2"), "{e}");
        let batches =
            vec![batch(vec![("a", matrix::<i64>(&[1], 1, 1))]), batch(vec![("b", matrix::<i64>(&[1], 1, 1))])];
        let e = round_trip(batches, vec![]).unwrap_err().to_string();
        assert!(e.contains("output 'b' is not in the first batch"), "{e}");
    }

    #[test]
    fn a_batch_is_not_held_once_written() {
        let dir = tempfile::tempdir().unwrap();
        let mut w = NpzWriter::new(&dir.path().join("out.npz"), vec![]);
        let ids = NDArray::from_slice::<i64>(&[1, 2], &[1, 2]).unwrap();
        w.write(batch(vec![("ids", ids.clone().into_any())])).unwrap();
        // Only this handle is left: the writer copied the tensor's bytes and let it go.
        assert_eq!(ids.0.strong_count(), 1);
    }
}
