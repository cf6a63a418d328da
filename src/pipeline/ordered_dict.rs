//! Python's `collections.OrderedDict`: a dict of [`DictKind::Ordered`], with the methods,
//! equality, repr and errors CPython 3.11's C implementation (`odictobject.c`) gives it.
//!
//! It is a dict everywhere else (`len`, `in`, `.get`, iteration, `isinstance(od, dict)`), as it
//! is a Python subclass of `dict`. What differs: `move_to_end`, `popitem(last=)`, equality
//! between two of them minds the order, its repr lists pairs, and the methods it overrides
//! (`pop`, `setdefault`, `update`, `fromkeys`) check their arguments as Argument Clinic does.

use super::Slot;
use super::methods::{Method, fromkeys, keywords_count_error};
use super::value_ops::{check_hashable, dict_obj, dict_of, iter_items, key_error, truthy, type_error, value_error};
use crate::container::DictKind;
use crate::{AnyValue, AnyView, Dict, Result, Tuple, Value};

/// Whether `v` is an OrderedDict, read where it stands.
pub(crate) fn is_ordered(v: Value<'_>) -> bool {
    dict_obj(v).is_some_and(|d| *d.kind() == DictKind::Ordered)
}

/// `collections.OrderedDict(mapping_or_pairs=None)`.
pub fn new_ordered_dict(args: &[AnyView<'_>]) -> Result<AnyValue> {
    if args.len() > 1 {
        return Err(type_error(format!("expected at most 1 arguments, got {}", args.len())));
    }
    let mut d = Dict::with_kind(DictKind::Ordered);
    if let Some(src) = args.first() {
        update(&mut d, src.value())?;
    }
    Ok(d.into_any())
}

/// `MutableMapping.update(src)`, which OrderedDict's construction and `update` run: a dict's
/// entries, or an iterable of pairs, each unpacked as `for k, v in src` would unpack it (so
/// its errors are an unpacking's, not `dict.update`'s).
fn update(d: &mut Dict, src: Value<'_>) -> Result<()> {
    const WHAT: &str = "OrderedDict.update()";
    if let Some(other) = dict_of(src) {
        for (k, v) in other.items() {
            d.try_set(k, v, WHAT)?;
        }
        return Ok(());
    }
    for pair in iter_items(src)? {
        let [k, v] = <[AnyValue; 2]>::try_from(iter_items(pair.value())?).map_err(|items| match items.len() {
            0 => value_error("need more than 0 values to unpack"),
            1 => value_error("need more than 1 value to unpack"),
            _ => value_error("too many values to unpack (expected 2)"),
        })?;
        check_hashable(k.value())?;
        d.try_set(k, v, WHAT)?;
    }
    Ok(())
}

/// The argument counts of the methods OrderedDict defines with Argument Clinic, checked with
/// its messages; `None` for a method whose count the dict's check covers.
pub(crate) fn check_arity(method: Method, n: usize) -> Option<Result<()>> {
    let (names, required): (&[&str], usize) = match method {
        Method::Pop | Method::Setdefault => (&["key", "default"], 1),
        Method::MoveToEnd => (&["key", "last"], 1),
        Method::Fromkeys => (&["iterable", "value"], 1),
        Method::Popitem => (&["last"], 0),
        Method::Update if n > 1 => {
            return Some(Err(type_error(format!("update() takes at most 1 positional argument ({n} given)"))));
        }
        _ => return None,
    };
    let fits = (required..=names.len()).contains(&n);
    Some(if fits { Ok(()) } else { Err(keywords_count_error(method.name(), names, required, 0, n)) })
}

/// A method OrderedDict defines itself, on `d`; `None` for one it takes from dict.
pub(crate) fn method(method: Method, d: &mut Dict, args: &[AnyView<'_>]) -> Option<Result<Slot>> {
    let last = || args.get(1).is_none_or(|a| truthy(*a));
    Some(match method {
        Method::MoveToEnd => move_to_end(d, args[0], last()),
        Method::Popitem => {
            let popped = if args.first().is_none_or(|a| truthy(*a)) { d.pop_last() } else { d.pop_first() };
            popped
                .map(|(k, v)| Tuple::from_vec(vec![k, v]).into())
                .ok_or_else(|| key_error(AnyView::from("dictionary is empty")))
        }
        // Unlike dict's, OrderedDict's `pop` hashes the key even when it is empty.
        Method::Pop => check_hashable(args[0].value()).and_then(|()| match d.remove(args[0]) {
            Some(v) => Ok(v.into()),
            None => args.get(1).map(|a| a.to_owned()).ok_or_else(|| key_error(args[0])),
        }),
        Method::Update => args.first().map_or(Ok(()), |src| update(d, src.value())).map(|()| Slot::none()),
        Method::Fromkeys => fromkeys(DictKind::Ordered, args, "OrderedDict.fromkeys()"),
        _ => return None,
    })
}

/// `od.move_to_end(key, last=True)`.
fn move_to_end(d: &mut Dict, key: AnyView<'_>, last: bool) -> Result<Slot> {
    check_hashable(key.value())?;
    if d.move_to_end(key, last) { Ok(Slot::none()) } else { Err(key_error(key)) }
}

/// `collections.OrderedDict.fromkeys(iterable, value=None)`, the class method called through
/// the class.
pub fn class_fromkeys(args: &[AnyView<'_>]) -> Result<AnyValue> {
    check_arity(Method::Fromkeys, args.len()).unwrap_or(Ok(()))?;
    fromkeys(DictKind::Ordered, args, "OrderedDict.fromkeys()").map(Slot::resize)
}

/// The kind `a | b` of two dicts gives: an OrderedDict or a defaultdict on the left keeps its
/// kind (their `__or__`); else one on the right gives its own (their `__ror__`, which Python
/// tries first for a subclass on the right, and after a Counter's `__or__` declines); else a
/// dict.
pub(crate) fn union_kind(a: &DictKind, b: &DictKind) -> DictKind {
    let keeps = |k: &DictKind| matches!(k, DictKind::Ordered | DictKind::Default(_));
    if keeps(a) {
        a.clone()
    } else if keeps(b) {
        b.clone()
    } else {
        DictKind::Plain
    }
}

#[cfg(test)]
mod tests {
    // Each expected value below was worked out by hand from `odictobject.c` (and agrees with
    // CPython 3.11).
    use crate::pipeline::test_values::run_main as run;

    #[test]
    fn entries_move_to_either_end_and_pop_from_either() {
        let setup = "od = collections.OrderedDict.fromkeys('abcd', 0)\n";
        let cases = [
            ("od.move_to_end('b')", "OrderedDict([('a', 0), ('c', 0), ('d', 0), ('b', 0)])"),
            ("od.move_to_end('c', False)", "OrderedDict([('c', 0), ('a', 0), ('b', 0), ('d', 0)])"),
            ("od.popitem(False)", "OrderedDict([('b', 0), ('c', 0), ('d', 0)])"),
            ("od.popitem()", "OrderedDict([('a', 0), ('b', 0), ('c', 0)])"),
        ];
        for (step, want) in cases {
            assert_eq!(run(&format!("{setup}{step}\nreturn repr(od)")), want, "{step}");
        }
        assert_eq!(run(&format!("{setup}return repr(od.move_to_end('z'))")), "Key: 'z'");
        assert_eq!(run("return repr(collections.OrderedDict().popitem())"), "Key: 'dictionary is empty'");
    }

    #[test]
    fn equality_minds_order_only_between_two_ordered_dicts() {
        let setup =
            "a = collections.OrderedDict([(1, 'x'), (2, 'y')])\nb = collections.OrderedDict([(2, 'y'), (1, 'x')])\n";
        assert_eq!(
            run(&format!("{setup}return repr((a == b, a == dict(b), dict(a) == b, a == a.copy()))")),
            "(False, True, True, True)"
        );
        assert_eq!(
            run(&format!("{setup}return repr((a | {{3: 'z'}}, {{0: 'w'}} | b))")),
            "(OrderedDict([(1, 'x'), (2, 'y'), (3, 'z')]), OrderedDict([(0, 'w'), (2, 'y'), (1, 'x')]))"
        );
        assert_eq!(
            run("od = collections.OrderedDict()\nod['me'] = od\nr = repr(od)\nod.clear()\nreturn r"),
            "OrderedDict([('me', ...)])"
        );
    }

    #[test]
    fn construction_unpacks_pairs_as_a_for_loop_does() {
        assert_eq!(run("return repr(collections.OrderedDict(['ab', (1, 2)]))"), "OrderedDict([('a', 'b'), (1, 2)])");
        assert_eq!(run("return repr(collections.OrderedDict([[1]]))"), "Value: need more than 1 value to unpack");
        assert_eq!(
            run("return repr(collections.OrderedDict(['abc']))"),
            "Value: too many values to unpack (expected 2)"
        );
    }
}
