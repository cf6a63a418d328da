//! Where batches go: streamed to `.jsonl`, or gathered and written as one `.npz`.

use crate::ndarray::DLDataType;
use crate::ndarray::npy::write_npz;
use crate::pipeline::BatchOutput;
use crate::pipeline::json::any_to_json;
use crate::{AnyValue, Error, ErrorKind, FromAny, List, NDArray, Result};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The output file of a run.
pub enum Sink {
    /// Nothing written; only the summary.
    None,
    /// One JSON object per record, written as batches finish.
    Jsonl(std::io::BufWriter<std::fs::File>),
    /// All batches gathered, written at the end.
    Npz { path: PathBuf, batches: Vec<BatchOutput>, pads: Vec<(String, i64)> },
}

impl Sink {
    /// A sink for `path` by its extension; `pads` gives the padding value of each padded tensor.
    pub fn open(path: Option<&Path>, pads: Vec<(String, i64)>) -> Result<Sink> {
        let Some(path) = path else { return Ok(Sink::None) };
        match path.extension().and_then(|e| e.to_str()) {
            Some("jsonl") => {
                let file = std::fs::File::create(path)
                    .map_err(|e| Error::from(e).context(format!("cannot create {}", path.display())))?;
                Ok(Sink::Jsonl(std::io::BufWriter::new(file)))
            }
            Some("npz") => Ok(Sink::Npz { path: path.to_path_buf(), batches: Vec::new(), pads }),
            _ => Err(Error::value(format!("output {}: the file name must end in .npz or .jsonl", path.display()))),
        }
    }

    /// Takes one finished batch.
    pub fn write(&mut self, batch: BatchOutput) -> Result<()> {
        match self {
            Sink::None => Ok(()),
            Sink::Jsonl(w) => write_jsonl(w, &batch),
            Sink::Npz { batches, .. } => {
                batches.push(batch);
                Ok(())
            }
        }
    }

    /// Flushes or writes the file.
    pub fn finish(self) -> Result<()> {
        match self {
            Sink::None => Ok(()),
            Sink::Jsonl(mut w) => w.flush().map_err(Error::from),
            Sink::Npz { path, batches, pads } => {
                let names: Vec<String> =
                    batches.first().map(|b| b.outputs.iter().map(|(k, _)| k.clone()).collect()).unwrap_or_default();
                let mut arrays = Vec::new();
                for name in &names {
                    let parts: Vec<&AnyValue> = batches.iter().filter_map(|b| b.get(name)).collect();
                    let pad = pads.iter().find(|(n, _)| n == name).map(|(_, p)| *p);
                    arrays.push((name.clone(), concat(name, &parts, pad)?));
                }
                let refs: Vec<(&str, &NDArray)> = arrays.iter().map(|(k, v)| (k.as_str(), v)).collect();
                write_npz(&path, &refs).map_err(|e| e.context(path.display().to_string()))
            }
        }
    }
}

/// Joins one output across batches: rows of padded tensors are re-padded to the widest batch,
/// ragged offsets are shifted, list outputs must be rectangular numbers.
fn concat(name: &str, parts: &[&AnyValue], pad: Option<i64>) -> Result<NDArray> {
    if parts.iter().all(|p| NDArray::from_view(&p.view()).is_none()) {
        let all: List = parts.iter().flat_map(|p| p.get::<List>().map(|l| l.to_vec()).unwrap_or_default()).collect();
        return NDArray::from_nested(&all.into_any()).map_err(|e| {
            e.context(format!(
                "output '{name}' holds values that are not a rectangular array of numbers; write .jsonl instead"
            ))
        });
    }
    let arrays: Vec<NDArray> = parts.iter().map(|p| p.get::<NDArray>()).collect::<Result<_>>()?;
    let rows: Vec<Vec<i64>> =
        arrays
            .iter()
            .flat_map(|a| (0..a.shape().first().copied().unwrap_or(0)).map(move |i| (a, i)))
            .map(|(a, i)| {
                if a.ndim() == 1 { Ok(vec![a.get(&[i])?.get::<i64>()?]) } else { a.row_to_list(i)?.to_vec_of::<i64>() }
            })
            .collect::<Result<_>>()?;
    let dtype = arrays[0].dtype();
    if arrays[0].ndim() == 1 {
        // Ragged values or offsets: flat; offsets continue from the previous batch's end.
        let mut flat = Vec::new();
        let is_offsets = name.ends_with(".offsets");
        for a in &arrays {
            let vals: Vec<i64> = a.to_list()?.get::<List>()?.to_vec_of()?;
            let base = if is_offsets { flat.last().copied().unwrap_or(0) } else { 0 };
            let skip = usize::from(is_offsets && !flat.is_empty());
            flat.extend(vals.into_iter().skip(skip).map(|v| v + base));
        }
        return typed(&flat, &[flat.len() as i64], dtype);
    }
    let width = rows.iter().map(Vec::len).max().unwrap_or(0);
    let pad = pad.ok_or_else(|| Error::new(ErrorKind::Value, format!("output '{name}': no padding value known")))?;
    let mut flat = Vec::with_capacity(rows.len() * width);
    for r in &rows {
        flat.extend_from_slice(r);
        flat.extend(std::iter::repeat_n(pad, width - r.len()));
    }
    typed(&flat, &[rows.len() as i64, width as i64], dtype)
}

fn typed(flat: &[i64], shape: &[i64], dtype: DLDataType) -> Result<NDArray> {
    if dtype == DLDataType::INT32 {
        let v: Vec<i32> = flat.iter().map(|&x| x as i32).collect();
        NDArray::from_slice(&v, shape)
    } else {
        NDArray::from_slice(flat, shape)
    }
}

fn write_jsonl(w: &mut impl Write, batch: &BatchOutput) -> Result<()> {
    let mut rows: Vec<serde_json::Map<String, serde_json::Value>> = vec![serde_json::Map::new(); batch.records];
    for (name, value) in &batch.outputs {
        if name.ends_with(".offsets") {
            continue;
        }
        if let Some(list) = List::from_view(&value.view()) {
            for (row, v) in rows.iter_mut().zip(list.iter()) {
                row.insert(name.clone(), any_to_json(&v)?);
            }
        } else if let Some(arr) = NDArray::from_view(&value.view()) {
            if arr.ndim() == 2 {
                for (i, row) in rows.iter_mut().enumerate() {
                    row.insert(name.clone(), any_to_json(&arr.row_to_list(i as i64)?.into_any())?);
                }
            } else if let Some(offsets) = batch.get(&format!("{name}.offsets")) {
                let values: Vec<i64> = arr.to_list()?.get::<List>()?.to_vec_of()?;
                let offsets: Vec<i64> = offsets.get::<NDArray>()?.to_list()?.get::<List>()?.to_vec_of()?;
                for (i, row) in rows.iter_mut().enumerate() {
                    let piece = &values[offsets[i] as usize..offsets[i + 1] as usize];
                    row.insert(name.clone(), serde_json::json!(piece));
                }
            }
        }
    }
    for row in rows {
        serde_json::to_writer(&mut *w, &row).map_err(|e| Error::runtime(e.to_string()))?;
        w.write_all(b"\n")?;
    }
    Ok(())
}
