//! Joining one output of many batches into one tensor in memory, for the `.npz` outputs that
//! are not int matrices (those are gathered on disk, `npz.rs`): ragged ids, lists of numbers.

use crate::ndarray::DLDataType;
use crate::{AnyValue, Error, ErrorKind, FromAny, List, NDArray, Result};

/// Joins one output across batches: rows of padded tensors are re-padded to the widest batch,
/// ragged offsets are shifted, list outputs must be rectangular numbers.
pub fn concat(name: &str, parts: &[&AnyValue], pad: Option<i64>) -> Result<NDArray> {
    if parts.iter().all(|p| NDArray::from_view(&p.view()).is_none()) {
        let all: List = parts.iter().flat_map(|p| p.get::<List>().map(|l| l.to_vec()).unwrap_or_default()).collect();
        return NDArray::from_nested(&all.into_any()).map_err(|e| {
            e.context(format!(
                "output '{name}' holds values that are not a rectangular array of numbers; write .jsonl instead"
            ))
        });
    }
    let arrays: Vec<NDArray> = parts.iter().map(|p| p.get::<NDArray>()).collect::<Result<_>>()?;
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
    // Rows of matrices (a 1-D part among them gives one-element rows), re-padded to the widest.
    let rows: Vec<Vec<i64>> =
        arrays
            .iter()
            .flat_map(|a| (0..a.shape().first().copied().unwrap_or(0)).map(move |i| (a, i)))
            .map(|(a, i)| {
                if a.ndim() == 1 { Ok(vec![a.get(&[i])?.get::<i64>()?]) } else { a.row_to_list(i)?.to_vec_of::<i64>() }
            })
            .collect::<Result<_>>()?;
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
