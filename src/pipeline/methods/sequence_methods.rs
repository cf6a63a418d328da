//! `list` and `tuple` methods.

use super::Method;
use crate::any::values_equal;
use crate::container::ListObj;
use crate::pipeline::Slot;
use crate::pipeline::value_ops::{
    index_arg, index_error, iter_items_until_error, norm_index, repr_value, sort_values, type_error, value_error,
};
use crate::{AnyValue, AnyView, List, Result, Value};

/// Replaces the whole content of `l` (seen through every handle).
fn replace_items(l: &mut List, items: Vec<AnyValue>) {
    l.clear();
    l.extend(items);
}

/// `tuple.index` and `tuple.count`, the two methods of a tuple.
pub(super) fn tuple_method(m: Method, t: &ListObj, args: &[AnyView<'_>]) -> Result<Slot> {
    match m {
        Method::Index => {
            let found = t.with_items(|xs| index_of(xs, args))?;
            found.map(Slot::from_int).ok_or_else(|| value_error("tuple.index(x): x not in tuple"))
        }
        _ => Ok(t.with_items(|xs| count_of(xs, args[0].value()))),
    }
}

/// The first position of `args[0]` in `xs[start:stop]` (`args[1..]`), as `list.index` and
/// `tuple.index` find it.
pub(crate) fn index_of(xs: &[AnyValue], args: &[AnyView<'_>]) -> Result<Option<i64>> {
    let x = args[0].value();
    // Unlike `str.index`, these take no `None` bounds.
    let bound = |a: Option<&AnyView<'_>>| -> Result<Option<i64>> {
        a.map(|a| {
            a.value().as_int().ok_or_else(|| type_error("slice indices must be integers or have an __index__ method"))
        })
        .transpose()
    };
    let (start, stop) = (bound(args.get(1))?, bound(args.get(2))?);
    let n = xs.len() as i64;
    let clamp = |v: i64| if v < 0 { (v + n).max(0) } else { v.min(n) };
    let (st, en) = (start.map_or(0, clamp), stop.map_or(n, clamp));
    Ok((st..en).find(|&i| values_equal(xs[i as usize].value(), x, 0)))
}

/// How many items of `xs` equal `x`.
pub(crate) fn count_of(xs: &[AnyValue], x: Value<'_>) -> Slot {
    Slot::from_int(xs.iter().filter(|v| values_equal(v.value(), x, 0)).count() as i64)
}

pub(super) fn list_method(m: Method, mut l: List, args: &[AnyView<'_>]) -> Result<Slot> {
    use Method::*;
    let none = Ok(Slot::none());
    match m {
        Append => {
            l.try_push(args[0].to_owned::<0>(), "list.append()")?;
            none
        }
        Extend => {
            let (items, failed) = iter_items_until_error(args[0].value())?;
            l.try_extend(items, "list.extend()")?;
            failed.map_or(none, Err)
        }
        Insert => {
            let i = index_arg(&args[0])?;
            l.try_insert(i, args[1].to_owned::<0>(), "list.insert()")?;
            none
        }
        Pop => {
            // The argument's type is checked first, as CPython does: `[].pop('x')` is a TypeError.
            let i = args.first().map(index_arg).transpose()?.unwrap_or(-1);
            let n = l.len();
            if n == 0 {
                return Err(index_error("pop from empty list"));
            }
            let i = norm_index(i, n).ok_or_else(|| index_error("pop index out of range"))?;
            if i == n - 1 {
                return l.pop().map(Slot::from);
            }
            let mut items = l.to_vec();
            let item = items.remove(i);
            replace_items(&mut l, items);
            Ok(item.into())
        }
        Index => {
            let found = l.with_items(|xs| index_of(xs, args))?;
            found
                .map(Slot::from_int)
                .ok_or_else(|| value_error(format!("{} is not in list", repr_value(args[0].value()))))
        }
        Count => Ok(l.with_items(|xs| count_of(xs, args[0].value()))),
        Copy => Ok(List::from_vec(l.to_vec()).into()),
        Reverse => {
            let mut items = l.to_vec();
            items.reverse();
            replace_items(&mut l, items);
            none
        }
        Sort => {
            // A failed comparison leaves the list as far as the sort got, as CPython's does.
            let mut items = l.to_vec();
            let sorted = sort_values(&mut items);
            replace_items(&mut l, items);
            sorted?;
            none
        }
        Remove => {
            let Some(i) = l.index_of(args[0]) else {
                return Err(value_error("list.remove(x): x not in list"));
            };
            let mut items = l.to_vec();
            items.remove(i);
            replace_items(&mut l, items);
            none
        }
        Clear => {
            l.clear();
            none
        }
        _ => unreachable!("spec admits only list methods"),
    }
}
