//! General boxing: rectangular, homogeneous nested `List`s of numbers to `NDArray`s and back.

use super::array::NDArray;
use super::dlpack::DLDataType;
use crate::any::FromAny;
use crate::any::{AnyValue, Value};
use crate::container::List;
use crate::error::{Error, Result};

/// The most dimensions `from_nested` makes, NumPy's limit; it also bounds the walk's recursion.
pub const MAX_NESTED_DIMS: usize = 64;

/// Leaves collected so far, promoted as NumPy does: bool < int < float.
enum Leaves {
    Bool(Vec<bool>),
    Int(Vec<i64>),
    Float(Vec<f64>),
}

impl Leaves {
    fn push(&mut self, v: Value<'_>, at: &[usize]) -> Result<()> {
        match (&mut *self, v) {
            (Leaves::Bool(b), Value::Bool(x)) => b.push(x),
            (Leaves::Bool(b), Value::Int(x)) => {
                let mut ints: Vec<i64> = b.iter().map(|&x| x as i64).collect();
                ints.push(x);
                *self = Leaves::Int(ints);
            }
            (Leaves::Bool(b), Value::Float(x)) => {
                let mut fs: Vec<f64> = b.iter().map(|&x| x as i64 as f64).collect();
                fs.push(x);
                *self = Leaves::Float(fs);
            }
            (Leaves::Int(i), Value::Int(_) | Value::Bool(_)) => i.push(v.as_int().unwrap_or_default()),
            (Leaves::Int(i), Value::Float(x)) => {
                let mut fs: Vec<f64> = i.iter().map(|&x| x as f64).collect();
                fs.push(x);
                *self = Leaves::Float(fs);
            }
            (Leaves::Float(f), Value::Int(_) | Value::Bool(_) | Value::Float(_)) => {
                f.push(v.as_float().unwrap_or_default())
            }
            _ => {
                return Err(
                    Error::type_mismatch("int, float or bool", &value_type_name(v)).context(format!("item {at:?}"))
                );
            }
        }
        Ok(())
    }
}

fn value_type_name(v: Value<'_>) -> String {
    match v {
        Value::None => "None".into(),
        Value::Str(_) | Value::UStr(_) => "str".into(),
        Value::Bytes(_) => "bytes".into(),
        Value::Object(o) => o.type_name(),
        _ => "value".into(),
    }
}

fn walk(
    v: &AnyValue,
    depth: usize,
    shape: &mut Vec<i64>,
    at: &mut Vec<usize>,
    leaves: &mut Option<Leaves>,
) -> Result<()> {
    // `from_view`, not `get`: a number is the common case here, and `get` would build
    // (and drop) a type-mismatch error for every one.
    let as_list = List::from_view(&v.view());
    if depth == shape.len() {
        // Leaf level, fixed by the first path walked.
        if as_list.is_some() {
            return Err(Error::value(format!("ragged list: item {at:?} is a list where a number was expected")));
        }
        let val = v.value();
        return match leaves {
            Some(l) => l.push(val, at),
            None => {
                let mut first = match val {
                    Value::Bool(_) => Leaves::Bool(vec![]),
                    Value::Int(_) => Leaves::Int(vec![]),
                    _ => Leaves::Float(vec![]),
                };
                first.push(val, at)?;
                *leaves = Some(first);
                Ok(())
            }
        };
    }
    let Some(list) = as_list else {
        return Err(Error::value(format!("ragged list: item {at:?} is a {} where a list was expected", v.type_name())));
    };
    if list.len() as i64 != shape[depth] {
        return Err(Error::value(format!(
            "ragged list: item {at:?} has length {}, expected {}",
            list.len(),
            shape[depth]
        )));
    }
    list.with_items(|items| {
        for (i, item) in items.iter().enumerate() {
            at.push(i);
            walk(item, depth + 1, shape, at, leaves)?;
            at.pop();
        }
        Ok(())
    })
}

/// The shape implied by following first elements down: `[[1, 2], [3, 4]]` gives `[2, 2]`.
fn probe_shape(v: &AnyValue) -> Vec<i64> {
    let mut shape = Vec::new();
    let mut cur = v.clone();
    while let Some(list) = List::from_view(&cur.view()) {
        shape.push(list.len() as i64);
        match list.get(0) {
            Ok(first) => cur = first,
            Err(_) => break,
        }
    }
    shape
}

impl NDArray {
    /// Converts nested lists of numbers (or a single number) into an array of the matching dtype.
    ///
    /// Ints give int64, floats (or ints mixed with floats) float64, bools bool; an
    /// empty list gives a float64 array, as in NumPy. A ragged or mixed list is an
    /// error naming the first offending index.
    pub fn from_nested(v: &AnyValue) -> Result<NDArray> {
        let mut shape = probe_shape(v);
        if shape.len() > MAX_NESTED_DIMS {
            return Err(Error::value(format!(
                "list nested {} levels deep: an array has at most {MAX_NESTED_DIMS} dimensions",
                shape.len()
            )));
        }
        let mut leaves = None;
        walk(v, 0, &mut shape, &mut Vec::new(), &mut leaves)?;
        match leaves {
            None => NDArray::zeros(&shape, DLDataType::FLOAT64),
            Some(Leaves::Bool(b)) => NDArray::from_slice(&b, &shape),
            Some(Leaves::Int(i)) => NDArray::from_slice(&i, &shape),
            Some(Leaves::Float(f)) => NDArray::from_slice(&f, &shape),
        }
    }

    /// Row `i` of a 2-d array as a `List` of boxed elements.
    pub fn row_to_list(&self, i: i64) -> Result<List> {
        self.row(i)?.to_list()?.get::<List>()
    }
}
