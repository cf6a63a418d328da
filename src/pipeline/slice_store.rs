//! `xs[a:b] = items` and `del xs[a:b]`, steps included, for lists and bytearrays, with CPython 3.11's results
//! and errors: the bounds are checked before the items are read, a slice of step 1 takes any
//! number of items, an extended slice exactly as many as it selects.

use super::bytearray_ops::{assigned_bytes, byte_array_of};
use super::value_ops::{
    SliceSpan, dict_obj, is_iterable, iter_items, list_of, slice_arg, type_error, value_error, vname,
};
use crate::container::{ByteArrayObj, try_reserve_items};
use crate::{AnyValue, AnyView, List, Result, Value};

/// The list behind `obj`, or CPython's error for what cannot take a slice store: a dict hashes
/// the slice as a key, which 3.11 cannot; other types lack item assignment (`verb`).
fn target_list(obj: Value<'_>, verb: &str) -> Result<List> {
    list_of(obj).ok_or_else(|| match dict_obj(obj) {
        Some(_) => type_error("unhashable type: 'slice'"),
        None => type_error(format!("'{}' object does not support item {verb}", vname(obj))),
    })
}

/// The bounds `[lower:upper:step]` resolved against `len` items: the step is read first, then
/// the bounds, as `PySlice_Unpack` reads them.
fn span(lower: AnyView<'_>, upper: AnyView<'_>, step: AnyView<'_>, len: usize) -> Result<SliceSpan> {
    let step = slice_arg(&step)?.unwrap_or(1);
    if step == 0 {
        return Err(value_error("slice step cannot be zero"));
    }
    let (lo, hi) = (slice_arg(&lower)?, slice_arg(&upper)?);
    Ok(SliceSpan::new(lo, hi, step, len))
}

/// `obj[lower:upper:step] = value`; `None` bounds are omitted ones.
pub fn set_slice(
    obj: AnyView<'_>,
    lower: AnyView<'_>,
    upper: AnyView<'_>,
    step: AnyView<'_>,
    value: AnyView<'_>,
) -> Result<()> {
    if let Some(b) = byte_array_of(obj.value()) {
        // The value is read first and the bounds after, against the length it left, as
        // CPython's `bytearray_ass_subscript` does (a generator may change `b`).
        let bytes = assigned_bytes(value)?;
        return set_byte_slice(b, span(lower, upper, step, b.len())?, bytes);
    }
    let mut list = target_list(obj.value(), "assignment")?;
    let at = span(lower, upper, step, list.len())?;
    let v = value.value();
    if !is_iterable(v) {
        return Err(type_error(match at.step {
            1 => "can only assign an iterable",
            _ => "must assign iterable to extended slice",
        }));
    }
    // The items are read first (a copy when `value` is the list itself, as `xs[:] = xs`).
    let items = iter_items(v)?;
    let removed = list.with_items_mut(|xs| -> Result<Vec<AnyValue>> {
        if at.step == 1 {
            // Reading the items may have run a generator that changed the list: CPython clamps
            // the bounds it resolved before to the list's length now.
            let start = (at.start as usize).min(xs.len());
            let end = (start + at.count).min(xs.len());
            try_reserve_items(xs, items.len().saturating_sub(end - start), "list slice assignment")?;
            return Ok(xs.splice(start..end, items).collect());
        }
        if items.len() != at.count {
            return Err(value_error(format!(
                "attempt to assign sequence of size {} to extended slice of size {}",
                items.len(),
                at.count
            )));
        }
        let mut out = Vec::with_capacity(items.len());
        for (i, x) in at.indices().zip(items) {
            match xs.get_mut(i) {
                Some(slot) => out.push(std::mem::replace(slot, x)),
                None => return Err(value_error("list changed size during slice assignment")),
            }
        }
        Ok(out)
    })?;
    // The replaced items are dropped after the list's lock is released: one may be a list too.
    drop(removed);
    Ok(())
}

/// `del obj[lower:upper:step]`.
pub fn del_slice(obj: AnyView<'_>, lower: AnyView<'_>, upper: AnyView<'_>, step: AnyView<'_>) -> Result<()> {
    if let Some(b) = byte_array_of(obj.value()) {
        let at = span(lower, upper, step, b.len())?;
        b.with_bytes_mut(|xs| delete_bytes(xs, &at));
        return Ok(());
    }
    let mut list = target_list(obj.value(), "deletion")?;
    let removed = list.with_items_mut(|xs| -> Result<Vec<AnyValue>> {
        let at = span(lower, upper, step, xs.len())?;
        if at.step == 1 {
            let start = at.start as usize;
            return Ok(xs.drain(start..start + at.count).collect());
        }
        // Marks the selected indices, then keeps the others in order.
        let mut gone = vec![false; xs.len()];
        at.indices().for_each(|i| gone[i] = true);
        let mut out = Vec::with_capacity(at.count);
        let mut flags = gone.into_iter();
        let kept: Vec<AnyValue> = std::mem::take(xs)
            .into_iter()
            .filter_map(|x| match flags.next() {
                Some(true) => {
                    out.push(x);
                    None
                }
                _ => Some(x),
            })
            .collect();
        *xs = kept;
        Ok(out)
    })?;
    drop(removed);
    Ok(())
}

/// Removes the bytes `at` selects (resolved against `xs`' length).
fn delete_bytes(xs: &mut Vec<u8>, at: &SliceSpan) {
    let mut gone = vec![false; xs.len()];
    at.indices().for_each(|i| gone[i] = true);
    let mut flags = gone.into_iter();
    xs.retain(|_| flags.next() != Some(true));
}

/// `b[at] = bytes` of a bytearray: any number of bytes for a step of 1, exactly as many as `at`
/// selects otherwise, or none, which deletes what `at` selects (CPython's quirk).
fn set_byte_slice(b: &ByteArrayObj, at: SliceSpan, bytes: Vec<u8>) -> Result<()> {
    b.with_bytes_mut(|xs| {
        if at.step == 1 {
            let start = (at.start as usize).min(xs.len());
            let end = (start + at.count).min(xs.len());
            xs.splice(start..end, bytes);
            return Ok(());
        }
        if bytes.is_empty() {
            delete_bytes(xs, &at);
            return Ok(());
        }
        if bytes.len() != at.count {
            let (n, count) = (bytes.len(), at.count);
            return Err(value_error(format!("attempt to assign bytes of size {n} to extended slice of size {count}")));
        }
        at.indices().zip(bytes).for_each(|(i, x)| xs[i] = x);
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::Slot;
    use crate::pipeline::test_values::*;
    use crate::pipeline::value_ops::repr_value;

    fn ints(xs: &[i64]) -> Slot {
        list(xs.iter().map(|&x| i(x)).collect())
    }

    /// The list after `xs[lower:upper:step] = value`, or the error's message.
    fn store(xs: &Slot, bounds: [Slot; 3], value: Slot) -> String {
        let [lo, hi, st] = bounds;
        match set_slice(xs.view(), lo.view(), hi.view(), st.view(), value.view()) {
            Ok(()) => repr_value(xs.value()),
            Err(e) => e.message().to_string(),
        }
    }

    fn delete(xs: &Slot, bounds: [Slot; 3]) -> String {
        let [lo, hi, st] = bounds;
        match del_slice(xs.view(), lo.view(), hi.view(), st.view()) {
            Ok(()) => repr_value(xs.value()),
            Err(e) => e.message().to_string(),
        }
    }

    // Expected values are CPython 3.11's for the same statements.
    #[test]
    fn a_simple_slice_takes_any_number_of_items() {
        assert_eq!(store(&ints(&[0, 1, 2, 3, 4]), [i(1), i(3), none()], s("ab")), "[0, 'a', 'b', 3, 4]");
        assert_eq!(store(&ints(&[1, 2, 3]), [i(1), i(1), none()], list(vec![])), "[1, 2, 3]");
        assert_eq!(store(&ints(&[1, 2]), [i(0), none(), i(1)], ints(&[5, 6, 7])), "[5, 6, 7]");
        assert_eq!(store(&ints(&[1, 2, 3]), [i(5), i(1), none()], ints(&[9])), "[1, 2, 3, 9]");
        assert_eq!(store(&ints(&[1, 2, 3]), [i(-10), i(1), none()], ints(&[])), "[2, 3]");
        let xs = ints(&[0, 1, 2, 3, 4]);
        assert_eq!(store(&xs, [i(1), i(3), none()], xs.clone()), "[0, 0, 1, 2, 3, 4, 3, 4]");
        assert_eq!(store(&ints(&[0, 1]), [i(1), i(3), none()], i(5)), "can only assign an iterable");
    }

    #[test]
    fn an_extended_slice_takes_exactly_its_size() {
        assert_eq!(store(&ints(&[0, 1, 2, 3, 4]), [none(), none(), i(-1)], ints(&[1, 2, 3, 4, 5])), "[5, 4, 3, 2, 1]");
        assert_eq!(store(&ints(&[1, 2, 3]), [i(-10), i(10), i(2)], ints(&[0, 0])), "[0, 2, 0]");
        assert_eq!(
            store(&ints(&[0, 1, 2, 3, 4]), [none(), none(), i(2)], ints(&[1])),
            "attempt to assign sequence of size 1 to extended slice of size 3"
        );
        assert_eq!(store(&ints(&[0, 1]), [none(), none(), i(2)], i(5)), "must assign iterable to extended slice");
    }

    #[test]
    fn bounds_are_checked_before_the_items() {
        assert_eq!(store(&ints(&[1]), [none(), none(), i(0)], i(5)), "slice step cannot be zero");
        assert_eq!(
            store(&ints(&[1]), [s("a"), none(), none()], i(5)),
            "slice indices must be integers or None or have an __index__ method"
        );
        assert_eq!(store(&s("abc"), [i(1), i(2), none()], s("z")), "'str' object does not support item assignment");
        assert_eq!(store(&dict(vec![]), [i(0), i(1), none()], ints(&[3])), "unhashable type: 'slice'");
    }

    #[test]
    fn deletion_removes_what_the_slice_selects() {
        assert_eq!(delete(&ints(&[1, 2, 3]), [none(), none(), i(2)]), "[2]");
        assert_eq!(delete(&ints(&[1, 2, 3]), [i(5), i(1), none()]), "[1, 2, 3]");
        assert_eq!(delete(&ints(&[0, 1, 2, 3, 4, 5]), [none(), none(), i(-2)]), "[0, 2, 4]");
        assert_eq!(delete(&ints(&[0, 1, 2, 3]), [i(1), i(-1), none()]), "[0, 3]");
        assert_eq!(delete(&ints(&[1]), [none(), none(), i(0)]), "slice step cannot be zero");
        assert_eq!(delete(&s("ab"), [i(0), i(1), none()]), "'str' object does not support item deletion");
        assert_eq!(delete(&dict(vec![]), [i(0), i(1), none()]), "unhashable type: 'slice'");
    }
}
