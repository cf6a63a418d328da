//! Sets in anyscript: `{a, b}`, `set(...)`, the operators `| & - ^` and their augmented forms,
//! the subset comparisons and the methods of `set`, with CPython 3.11's results, iteration
//! order and errors (the order is the table's: see `container/set_table.rs`).

use super::Slot;
use super::ast::{BinOp, CmpOp};
use super::methods::Method;
use super::value_ops::{dict_of, iter_items, key_error};
use crate::container::SetOperand;
use crate::{AnyValue, AnyView, Error, ErrorKind, FromAny, Result, Set, Value};

/// The set behind a value, if it is one.
pub(crate) fn set_of(v: Value<'_>) -> Option<Set> {
    Set::from_value(v)
}

/// Whether `v` is a frozenset, read where it stands (no handle made: `Recv::of` asks it of the
/// receiver of every set method call).
pub(crate) fn is_frozenset(v: Value<'_>) -> bool {
    v.as_obj()
        .and_then(|o| o.downcast_ref::<crate::container::SetObj>())
        .is_some_and(crate::container::SetObj::is_frozen)
}

/// The other operand of a set method, read from a value: a set, a dict's keys (CPython sizes
/// some results by a dict's length) or any other iterable's items.
pub(crate) enum Operand {
    /// A set.
    Set(Set),
    /// A dict's keys.
    DictKeys(Vec<AnyValue>),
    /// An iterable's items.
    Items(Vec<AnyValue>),
}

impl Operand {
    /// Reads `v`; CPython's `TypeError` when it is not iterable.
    pub(crate) fn of(v: Value<'_>) -> Result<Operand> {
        if let Some(s) = set_of(v) {
            return Ok(Operand::Set(s));
        }
        if let Some(d) = dict_of(v) {
            return Ok(Operand::DictKeys(d.keys()));
        }
        iter_items(v).map(Operand::Items)
    }

    /// The operand as the set algorithms read it.
    pub(crate) fn get(&self) -> SetOperand<'_> {
        match self {
            Operand::Set(s) => SetOperand::Set(s),
            Operand::DictKeys(keys) => SetOperand::DictKeys(keys),
            Operand::Items(items) => SetOperand::Items(items),
        }
    }
}

/// How CPython lays out a set display's table, which depends on how its compiler built it:
/// each rebuild can move keys that collide, and so their iteration order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetLayout {
    /// Items added one by one (`BUILD_SET`): a display with an item that is not a constant, or
    /// of at most two constants outside a loop's iterable.
    Added,
    /// The frozenset CPython's optimizer makes of a display of constants that a `for` or a
    /// comprehension iterates (`fold_iter`), rebuilt once by its compiler from its own
    /// iteration order (`merge_consts_recursive`); the loop iterates that constant itself.
    Frozen,
    /// A display of more than two constants anywhere else: the same rebuilt frozenset, merged
    /// into a new set (`BUILD_SET 0; LOAD_CONST; SET_UPDATE`).
    Copied,
}

impl SetLayout {
    /// How the IR listing marks the layout (nothing for the plain one).
    pub(crate) fn suffix(self) -> &'static str {
        match self {
            SetLayout::Added => "",
            SetLayout::Frozen => " frozen",
            SetLayout::Copied => " folded",
        }
    }
}

/// `{a, b, ...}` laid out as CPython lays out the display `layout` names.
pub(crate) fn build_set(items: impl Iterator<Item = AnyValue>, layout: SetLayout) -> Result<Set> {
    let mut set = Set::new();
    for item in items {
        set.add(item)?;
    }
    if layout == SetLayout::Added {
        return Ok(set);
    }
    let mut constant = Set::new();
    constant.extend(&set.items())?;
    if layout == SetLayout::Frozen {
        return Ok(constant);
    }
    let mut merged = Set::new();
    merged.update(&SetOperand::Set(&constant))?;
    Ok(merged)
}

/// `set()` and `set(iterable)`.
pub(crate) fn set_builtin(arg: Option<&AnyView<'_>>) -> Result<Slot> {
    let mut set = Set::new();
    if let Some(a) = arg {
        set.update(&Operand::of(a.value())?.get())?;
    }
    Ok(set.into())
}

/// `frozenset()` and `frozenset(iterable)`: laid out as `set(iterable)`, and a frozenset
/// itself, as CPython returns it.
pub(crate) fn frozenset_builtin(arg: Option<&AnyView<'_>>) -> Result<Slot> {
    if let Some(s) = arg.and_then(|a| set_of(a.value())).filter(Set::is_frozen) {
        return Ok(s.into());
    }
    let mut set = Set::new();
    if let Some(a) = arg {
        set.update(&Operand::of(a.value())?.get())?;
    }
    Ok(set.into_frozen().into())
}

/// A new set made from `like`'s keys: a frozenset when `like` is one, as CPython makes the
/// result of an operation of the left operand's type.
fn like(like: &Set, made: Set) -> Set {
    if like.is_frozen() { made.into_frozen() } else { made }
}

/// `x op y` when both are sets; `None` otherwise (the caller's error).
pub(crate) fn binary(op: BinOp, x: Value<'_>, y: Value<'_>) -> Option<Result<Slot>> {
    let (a, b) = (set_of(x)?, set_of(y)?);
    let b = SetOperand::Set(&b);
    let result = match op {
        BinOp::BitOr => a.union(&b),
        BinOp::BitAnd => a.intersection(&b),
        BinOp::Sub => a.difference(&b),
        BinOp::BitXor => a.symmetric_difference(&b),
        _ => return None,
    };
    Some(result.map(|made| like(&a, made).into()))
}

/// `x op= y` done on the set `x` itself, as CPython does; false when `x` or `y` is not a set,
/// or `x` is a frozenset (then `x op y` runs, with its error, and `x` is bound to its result).
pub(crate) fn update_in_place(op: BinOp, x: Value<'_>, y: Value<'_>) -> Result<bool> {
    let (Some(mut a), Some(b)) = (set_of(x), set_of(y)) else { return Ok(false) };
    if a.is_frozen() {
        return Ok(false);
    }
    let b = SetOperand::Set(&b);
    match op {
        BinOp::BitOr => a.update(&b)?,
        BinOp::BitAnd => a.intersection_update(&b)?,
        BinOp::Sub => a.difference_update(&b)?,
        BinOp::BitXor => a.symmetric_difference_update(&b)?,
        _ => return Ok(false),
    }
    Ok(true)
}

/// `x < y` (and `<=`, `>`, `>=`) as subset tests when both are sets; `None` otherwise.
pub(crate) fn order(op: CmpOp, x: Value<'_>, y: Value<'_>) -> Option<bool> {
    let (a, b) = (set_of(x)?, set_of(y)?);
    Some(match op {
        CmpOp::LtE => a.is_subset(&b),
        CmpOp::Lt => a.len() < b.len() && a.is_subset(&b),
        CmpOp::GtE => b.is_subset(&a),
        CmpOp::Gt => a.len() > b.len() && b.is_subset(&a),
        _ => return None,
    })
}

/// `s.method(*args)` for a frozenset `s` (the argument count already checked): `copy` is `s`
/// itself, and a new set is a frozenset.
pub(crate) fn frozenset_method(method: Method, s: Set, args: &[AnyView<'_>]) -> Result<Slot> {
    if method == Method::Copy {
        return Ok(s.into());
    }
    let result = set_method(method, s.clone(), args)?;
    let Some(made) = set_of(result.value()) else { return Ok(result) };
    // Its only handle, so that it is marked frozen where it stands.
    drop(result);
    Ok(like(&s, made).into())
}

/// `s.method(*args)` for a set `s` (the argument count already checked).
pub(crate) fn set_method(method: Method, mut s: Set, args: &[AnyView<'_>]) -> Result<Slot> {
    use Method::*;
    let none = || Ok(Slot::none());
    let operands = || args.iter().map(|a| Operand::of(a.value())).collect::<Result<Vec<_>>>();
    match method {
        Add => {
            s.add(args[0].to_owned::<0>())?;
            none()
        }
        Discard => {
            s.discard(args[0])?;
            none()
        }
        Remove => match s.discard(args[0])? {
            true => none(),
            false => Err(key_error(args[0])),
        },
        Pop => s.pop().map(AnyValue::resize).ok_or_else(|| key_error(AnyView::from("pop from an empty set"))),
        Clear => {
            s.clear();
            none()
        }
        Copy => Ok(s.copy()?.into()),
        Update => {
            // Each in turn, as CPython adds them; a generator's items as far as it got.
            for a in args {
                match crate::pipeline::generator::generator_of(a.value()) {
                    Some(g) => {
                        let (items, failed) = g.drain_until_error();
                        s.update(&SetOperand::Items(&items))?;
                        failed.map_or(Ok(()), Err)?;
                    }
                    None => s.update(&Operand::of(a.value())?.get())?,
                }
            }
            none()
        }
        Union => {
            let mut result = s.copy()?;
            for o in operands()? {
                if !matches!(&o, Operand::Set(t) if t.ptr_eq(&s)) {
                    result.update(&o.get())?;
                }
            }
            Ok(result.into())
        }
        Intersection => Ok(intersection(&s, &operands()?)?.into()),
        IntersectionUpdate => {
            let result = intersection(&s, &operands()?)?;
            s.take_keys(&result);
            none()
        }
        Difference => {
            let others = operands()?;
            let Some((first, rest)) = others.split_first() else { return Ok(s.copy()?.into()) };
            let mut result = s.difference(&first.get())?;
            for o in rest {
                result.difference_update(&o.get())?;
            }
            Ok(result.into())
        }
        DifferenceUpdate => {
            for o in operands()? {
                s.difference_update(&o.get())?;
            }
            none()
        }
        SymmetricDifference => Ok(s.symmetric_difference(&Operand::of(args[0].value())?.get())?.into()),
        SymmetricDifferenceUpdate => {
            s.symmetric_difference_update(&Operand::of(args[0].value())?.get())?;
            none()
        }
        Issubset => Ok(Slot::from_bool(match Operand::of(args[0].value())? {
            Operand::Set(t) => s.is_subset(&t),
            other => {
                let mut t = Set::new();
                t.update(&other.get())?;
                s.is_subset(&t)
            }
        })),
        Issuperset => Ok(Slot::from_bool(match Operand::of(args[0].value())? {
            Operand::Set(t) => t.is_subset(&s),
            Operand::DictKeys(items) | Operand::Items(items) => s.contains_all(&items)?,
        })),
        Isdisjoint => Ok(Slot::from_bool(s.is_disjoint(&Operand::of(args[0].value())?.get())?)),
        _ => Err(Error::new(ErrorKind::Attribute, format!("'set' object has no attribute '{}'", method.name()))),
    }
}

/// `s.intersection(*others)`: each other in turn intersected with the result so far; a copy
/// when there is none.
fn intersection(s: &Set, others: &[Operand]) -> Result<Set> {
    if others.is_empty() {
        return s.copy();
    }
    let mut result = s.clone();
    for o in others {
        result = result.intersection(&o.get())?;
    }
    Ok(result)
}

/// CPython's error for `for x in s` when `s` changed size since the loop started.
pub(crate) fn changed_size_error() -> Error {
    Error::runtime("Set changed size during iteration")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;

    fn ints(xs: &[i64]) -> Vec<AnyValue> {
        xs.iter().map(|&x| AnyValue::from(x)).collect()
    }

    fn order_of(s: &Set) -> Vec<i64> {
        s.items().iter().map(|x| x.value().as_int().unwrap()).collect()
    }

    // Expected orders: what CPython 3.11 prints for `list({16, 0, 32, 1, 2})` (a literal of
    // constants, compiled fresh) and for the same keys added one by one.
    #[test]
    fn a_folded_literal_is_laid_out_as_cpython_lays_it_out() {
        let keys = [16, 0, 32, 1, 2];
        assert_eq!(order_of(&build_set(ints(&keys).into_iter(), SetLayout::Copied).unwrap()), [0, 1, 32, 2, 16]);
        assert_eq!(order_of(&build_set(ints(&keys).into_iter(), SetLayout::Added).unwrap()), [0, 32, 2, 1, 16]);
    }

    #[test]
    fn unhashable_keys_are_type_errors() {
        let err = build_set(vec![AnyValue::from(crate::Dict::new())].into_iter(), SetLayout::Added).unwrap_err();
        assert_eq!((err.kind(), err.message()), (ErrorKind::Type, "unhashable type: 'dict'"));
    }
}
