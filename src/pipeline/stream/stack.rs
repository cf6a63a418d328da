//! Joining one output of many batches into one tensor, for `.npz`.

use crate::ndarray::{DLDataType, Element};
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
    if let Some(stacked) = stack_int_matrices(name, &arrays, pad) {
        return stacked;
    }
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

/// The rows of 2-D int64 (or int32) tensors stacked, each padded with `pad` to the widest,
/// copied straight from memory; `None` when the parts are not all contiguous matrices of one of
/// those dtypes (the general path above takes them).
///
/// Rationale: boxing every element on the way, as the general path does, made writing the
/// `.npz` of the dev corpus (450 MB of ids, masks and type ids) take seconds.
fn stack_int_matrices(name: &str, arrays: &[NDArray], pad: Option<i64>) -> Option<Result<NDArray>> {
    let dtype = arrays.first()?.dtype();
    if !arrays.iter().all(|a| a.ndim() == 2 && a.dtype() == dtype && a.is_contiguous()) {
        return None;
    }
    let no_pad = || Error::new(ErrorKind::Value, format!("output '{name}': no padding value known"));
    match dtype {
        DLDataType::INT64 => Some(stack_rows::<i64>(arrays, || pad.ok_or_else(no_pad))),
        DLDataType::INT32 => Some(stack_rows::<i32>(arrays, || {
            let pad = pad.ok_or_else(no_pad)?;
            i32::try_from(pad).map_err(|_| Error::value(format!("output '{name}': pad id {pad} does not fit int32")))
        })),
        _ => None,
    }
}

/// Stacks the rows of `arrays` (contiguous matrices of `T`), padding narrower ones with the
/// value `pad` gives (asked for only when a part is narrower than the widest).
fn stack_rows<T: Element>(arrays: &[NDArray], pad: impl FnOnce() -> Result<T>) -> Result<NDArray> {
    let rows: i64 = arrays.iter().map(|a| a.shape()[0]).sum();
    let width = arrays.iter().map(|a| a.shape()[1]).max().unwrap_or(0);
    let pad = if arrays.iter().any(|a| a.shape()[1] < width) { Some(pad()?) } else { None };
    let mut out = NDArray::scratch(&[rows, width], T::DTYPE)?;
    let dst = out.as_mut_slice::<T>()?;
    let width = width as usize;
    let mut at = 0;
    for a in arrays {
        let src = a.as_slice::<T>()?;
        let w = a.shape()[1] as usize;
        match pad {
            Some(pad) if w < width => {
                for r in 0..a.shape()[0] as usize {
                    dst[at..at + w].copy_from_slice(&src[r * w..(r + 1) * w]);
                    dst[at + w..at + width].fill(pad);
                    at += width;
                }
            }
            _ => {
                dst[at..at + src.len()].copy_from_slice(src);
                at += src.len();
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(arrays: Vec<NDArray>) -> Vec<AnyValue> {
        arrays.into_iter().map(NDArray::into_any).collect()
    }

    fn joined<T: Element + std::fmt::Debug>(parts: &[AnyValue], pad: Option<i64>) -> (Vec<i64>, Vec<T>) {
        let refs: Vec<&AnyValue> = parts.iter().collect();
        let a = concat("ids", &refs, pad).unwrap();
        (a.shape().to_vec(), a.as_slice::<T>().unwrap().to_vec())
    }

    #[test]
    fn int_matrices_of_several_widths_are_padded_to_the_widest() {
        let p = parts(vec![
            NDArray::from_slice::<i64>(&[1, 2, 3, 4], &[2, 2]).unwrap(),
            NDArray::from_slice::<i64>(&[5, 6, 7], &[1, 3]).unwrap(),
            NDArray::from_slice::<i64>(&[], &[1, 0]).unwrap(),
        ]);
        assert_eq!(joined::<i64>(&p, Some(-1)), (vec![4, 3], vec![1, 2, -1, 3, 4, -1, 5, 6, 7, -1, -1, -1]));
        let p = parts(vec![
            NDArray::from_slice::<i32>(&[1, 2], &[1, 2]).unwrap(),
            NDArray::from_slice::<i32>(&[3], &[1, 1]).unwrap(),
        ]);
        assert_eq!(joined::<i32>(&p, Some(0)), (vec![2, 2], vec![1, 2, 3, 0]));
    }

    #[test]
    fn a_pad_is_needed_only_when_widths_differ() {
        let same = parts(vec![
            NDArray::from_slice::<i64>(&[1, 2], &[1, 2]).unwrap(),
            NDArray::from_slice::<i64>(&[3, 4], &[1, 2]).unwrap(),
        ]);
        assert_eq!(joined::<i64>(&same, None), (vec![2, 2], vec![1, 2, 3, 4]));
        let differ = parts(vec![
            NDArray::from_slice::<i32>(&[1, 2], &[1, 2]).unwrap(),
            NDArray::from_slice::<i32>(&[3], &[1, 1]).unwrap(),
        ]);
        let refs: Vec<&AnyValue> = differ.iter().collect();
        let e = concat("mask", &refs, None).unwrap_err().to_string();
        assert!(e.contains("output 'mask': no padding value known"), "{e}");
        let e = concat("mask", &refs, Some(1 << 40)).unwrap_err().to_string();
        assert!(e.contains("pad id 1099511627776 does not fit int32"), "{e}");
    }

    #[test]
    fn float_matrices_take_the_general_path() {
        let p = parts(vec![
            NDArray::from_slice::<f64>(&[0.5], &[1, 1]).unwrap(),
            NDArray::from_slice::<f64>(&[1.5, 2.5], &[1, 2]).unwrap(),
        ]);
        let refs: Vec<&AnyValue> = p.iter().collect();
        // The general path reads ids as ints: floats are not taken for ids silently.
        assert!(concat("x", &refs, Some(0)).is_err());
    }
}
