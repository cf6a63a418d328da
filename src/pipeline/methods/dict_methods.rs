//! `dict` methods and `dict.fromkeys`.

use super::Method;
use crate::container::{DictKind, DictObj, DictView, DictViewObj};
use crate::pipeline::Slot;
use crate::pipeline::value_ops::{check_hashable, check_key_hashable, dict_update_from, iter_items, key_error};
use crate::{AnyValue, AnyView, Dict, Result, Tuple};

/// `fromkeys(iterable, value=None)` of a dict class: a dict of `kind`, each key set in turn
/// (`what` names the call in a MemoryError).
pub(crate) fn fromkeys(kind: DictKind, args: &[AnyView<'_>], what: &str) -> Result<Slot> {
    let value = args.get(1).map_or_else(AnyValue::none, |a| a.to_owned());
    let mut out = Dict::with_kind(kind);
    for k in iter_items(args[0].value())? {
        check_hashable(k.value())?;
        out.try_set(k, value.clone(), what)?;
    }
    Ok(out.into())
}

/// `d.get(k[, default])` on the dict where it stands, with no handle made (two atomic counts
/// for a lookup that takes a lock of its own).
pub(super) fn dict_get(d: &DictObj, args: &[AnyView<'_>]) -> Result<Slot> {
    check_key_hashable(&args[0])?;
    Ok(match d.get(args[0]) {
        Some(found) => found.into(),
        None => args.get(1).map_or_else(Slot::none, |a| a.to_owned()),
    })
}

pub(super) fn dict_method(m: Method, mut d: Dict, args: &[AnyView<'_>]) -> Result<Slot> {
    use Method::*;
    // CPython's `dict.pop` answers an empty dict before it hashes the key: `{}.pop([])` is a
    // KeyError (or the default), not "unhashable type".
    if m == Pop && d.is_empty() {
        return match args.get(1) {
            Some(default) => Ok(default.to_owned()),
            None => Err(key_error(args[0])),
        };
    }
    if matches!(m, Get | Pop | Setdefault) {
        check_hashable(args[0].value())?;
    }
    let default = || args.get(1).map_or_else(Slot::none, |a| a.to_owned());
    match m {
        Get => Ok(d.get(args[0]).map_or_else(default, Slot::from)),
        Keys => Ok(DictViewObj::new_value(d, DictView::Keys).resize()),
        Values => Ok(DictViewObj::new_value(d, DictView::Values).resize()),
        Items => Ok(DictViewObj::new_value(d, DictView::Items).resize()),
        Popitem => match d.pop_last() {
            Some((k, v)) => Ok(Tuple::from_vec(vec![k, v]).into()),
            None => Err(key_error(AnyView::from("popitem(): dictionary is empty"))),
        },
        Pop => match d.remove(args[0]) {
            Some(v) => Ok(v.into()),
            None if args.len() > 1 => Ok(default()),
            None => Err(key_error(args[0])),
        },
        Setdefault => {
            if let Some(v) = d.get(args[0]) {
                return Ok(v.into());
            }
            let v = args.get(1).map_or_else(AnyValue::none, |a| a.to_owned());
            d.try_set(args[0].to_owned::<0>(), v.clone(), "dict.setdefault()")?;
            Ok(v.into())
        }
        Update => {
            if let Some(src) = args.first() {
                dict_update_from(&mut d, src.value())?;
            }
            Ok(Slot::none())
        }
        // A static method: the receiver only chose it (`dict.fromkeys(xs)` or `{}.fromkeys(xs)`).
        Fromkeys => fromkeys(DictKind::Plain, args, "dict.fromkeys()"),
        // A Counter's or defaultdict's copy is one too (with the same factory).
        Copy => {
            let mut copy = Dict::with_kind(d.kind().clone());
            copy.extend(d.items());
            Ok(copy.into())
        }
        Clear => {
            d.clear();
            Ok(Slot::none())
        }
        _ => unreachable!("spec admits only dict methods"),
    }
}
