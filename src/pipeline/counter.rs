//! Python's `collections.Counter` and `collections.defaultdict`: dicts whose [`DictKind`] says
//! what a missing key gives, with the methods, operators and repr CPython 3.11 gives them.
//!
//! Both are dicts everywhere else (`len`, `in`, `.get`, iteration, `isinstance(c, dict)`), as
//! they are Python subclasses of `dict`. What differs is written here as `collections.py`
//! writes it, so that results agree with CPython also for counts that are not ints.

use super::Slot;
use super::ast::{BinOp, CmpOp, UnaryOp};
use super::value_ops::{
    binary, check_hashable, compare, dict_obj, dict_of, index_arg, iter_items_until_error, repr_value,
    sort_by_python_lt, type_error, vname,
};
use crate::container::DictKind;
use crate::{AnyValue, AnyView, Dict, FromAny, List, PackedFunc, Result, Tuple, Value};

/// Whether `v` is a Counter, read where it stands (no handle is made: method calls on every
/// dict ask this).
pub(crate) fn is_counter(v: Value<'_>) -> bool {
    dict_obj(v).is_some_and(|d| *d.kind() == DictKind::Counter)
}

/// The dict of `v` if it is a Counter.
pub(crate) fn counter_of(v: Value<'_>) -> Option<Dict> {
    if is_counter(v) { dict_of(v) } else { None }
}

/// What `d[key]` gives when `d` lacks `key`: 0 for a Counter (not added), `factory()` for a
/// defaultdict (added, as `__missing__` adds it); `None` for a dict, or a defaultdict whose
/// factory is `None`, where it is a `KeyError`.
pub(crate) fn missing(d: &Dict, key: AnyView<'_>) -> Result<Option<AnyValue>> {
    match d.kind() {
        DictKind::Plain | DictKind::Ordered => Ok(None),
        DictKind::Counter => Ok(Some(AnyValue::from_int(0))),
        DictKind::Default(factory) => {
            let Some(f) = PackedFunc::from_view(&factory.view()) else { return Ok(None) };
            let value = f.call(&[])?;
            d.clone().try_set(key.to_owned::<0>(), value.clone(), "defaultdict item")?;
            Ok(Some(value))
        }
    }
}

/// `d[key]` with the dict's own rule for a missing key.
fn item(d: &Dict, key: AnyView<'_>) -> Result<AnyValue> {
    match d.get(key) {
        Some(v) => Ok(v),
        None => missing(d, key)?.ok_or_else(|| super::value_ops::key_error(key)),
    }
}

/// `collections.Counter(iterable=None)`: the counts of an iterable's items, or a copy of a
/// mapping's counts.
pub fn new_counter(args: &[AnyView<'_>]) -> Result<AnyValue> {
    if args.len() > 1 {
        return Err(type_error(format!(
            "Counter.__init__() takes from 1 to 2 positional arguments but {} were given",
            args.len() + 1
        )));
    }
    let mut d = Dict::with_kind(DictKind::Counter);
    if let Some(src) = args.first() {
        update(&mut d, src.value(), false)?;
    }
    Ok(d.into_any())
}

/// `collections.defaultdict(default_factory=None, [mapping or iterable of pairs])`.
pub fn new_defaultdict(args: &[AnyView<'_>]) -> Result<AnyValue> {
    let factory = args.first().map_or_else(AnyValue::none, |f| f.to_owned::<0>());
    if !matches!(factory.value(), Value::None) && PackedFunc::from_view(&factory.view()).is_none() {
        return Err(type_error("first argument must be callable or None"));
    }
    if args.len() > 2 {
        return Err(type_error(format!("dict expected at most 1 argument, got {}", args.len() - 1)));
    }
    let mut d = Dict::with_kind(DictKind::Default(factory));
    if let Some(src) = args.get(1) {
        super::value_ops::dict_update_from(&mut d, src.value())?;
    }
    Ok(d.into_any())
}

/// `Counter.update(src)` (counts added) or `Counter.subtract(src)`: from a mapping of counts or
/// an iterable of items (each counting one); `None` changes nothing.
pub(crate) fn update(d: &mut Dict, src: Value<'_>, subtract: bool) -> Result<()> {
    if matches!(src, Value::None) {
        return Ok(());
    }
    let what = if subtract { "Counter.subtract()" } else { "Counter.update()" };
    if let Some(other) = dict_of(src) {
        if !subtract && d.is_empty() {
            // CPython's shortcut for an empty Counter: the mapping's values as they are.
            for (k, v) in other.items() {
                d.try_set(k, v, what)?;
            }
            return Ok(());
        }
        for (k, count) in other.items() {
            let old = d.get(k.view()).unwrap_or_else(|| AnyValue::from_int(0));
            // `count + self_get(elem, 0)` and `self_get(elem, 0) - count`, in that order.
            let new = match subtract {
                true => binary(BinOp::Sub, old.view(), count.view())?,
                false => binary(BinOp::Add, count.view(), old.view())?,
            };
            d.try_set(k, new.resize(), what)?;
        }
        return Ok(());
    }
    // A generator's items as far as it got are counted, as CPython's loop counts them.
    let (items, failed) = iter_items_until_error(src)?;
    count_items(d, items, subtract, what)?;
    failed.map_or(Ok(()), Err)
}

/// Adds one to (or, `subtract`, takes one from) the count of each of `items`.
fn count_items(d: &mut Dict, items: Vec<AnyValue>, subtract: bool, what: &str) -> Result<()> {
    let one = AnyValue::from_int(1);
    for elem in items {
        check_hashable(elem.value())?;
        let op = if subtract { BinOp::Sub } else { BinOp::Add };
        let new = match d.get(elem.view()) {
            Some(old) => binary(op, old.view(), one.view())?.resize(),
            None => AnyValue::from_int(if subtract { -1 } else { 1 }),
        };
        d.try_set(elem, new, what)?;
    }
    Ok(())
}

/// The entries, most common first (ties in insertion order), as CPython's `sorted(...,
/// reverse=True)` orders them; the first `n` of them when `n` is given.
fn by_count(d: &Dict, n: Option<i64>) -> Result<Vec<(AnyValue, AnyValue)>> {
    let mut items = d.items();
    if n.is_some_and(|n| n <= 0) {
        return Ok(Vec::new());
    }
    sort_by_python_lt(&mut items, |(_, count)| count.value(), true)?;
    if let Some(n) = n {
        items.truncate(n as usize);
    }
    Ok(items)
}

/// `Counter.most_common(n=None)`: a list of `(item, count)` tuples.
pub(crate) fn most_common(d: &Dict, n: Option<&AnyView<'_>>) -> Result<Slot> {
    let n = match n {
        None => None,
        Some(v) if matches!(v.value(), Value::None) => None,
        Some(v) if matches!(v.value(), Value::Int(_) | Value::Bool(_)) => Some(index_arg(v)?),
        Some(v) => {
            let message = format!("'>=' not supported between instances of '{}' and 'int'", vname(v.value()));
            return Err(type_error(message));
        }
    };
    let pairs = by_count(d, n)?.into_iter().map(|(k, v)| Tuple::from_vec(vec![k, v]).into_any()).collect();
    Ok(List::from_vec(pairs).into())
}

/// `Counter.elements()`: each item repeated by its count (none for a count below one), as a
/// list where CPython gives an iterator over the same items.
pub(crate) fn elements(d: &Dict) -> Result<Slot> {
    let mut out = Vec::new();
    for (k, count) in d.items() {
        let times = usize::try_from(index_arg(&count.view())?).unwrap_or(0);
        crate::container::try_reserve_items(&mut out, times, "Counter.elements()")?;
        out.extend(std::iter::repeat_n(k, times));
    }
    Ok(List::from_vec(out).into())
}

/// `Counter.total()`: the sum of the counts.
pub(crate) fn total(d: &Dict) -> Result<Slot> {
    let mut sum = Slot::from_int(0);
    for count in d.values() {
        sum = binary(BinOp::Add, sum.view(), count.view())?;
    }
    Ok(sum)
}

fn positive(count: &Slot) -> Result<bool> {
    compare(CmpOp::Gt, count.view(), AnyView::from(0i64))
}

/// `a + b`, `a - b`, `a | b`, `a & b` of two Counters, as `collections.py` computes them (only
/// positive counts are kept); `None` for any other operands or operator.
pub(crate) fn counter_binary(op: BinOp, x: Value<'_>, y: Value<'_>) -> Option<Result<Slot>> {
    if !matches!(op, BinOp::Add | BinOp::Sub | BinOp::BitOr | BinOp::BitAnd) {
        return None;
    }
    let (a, b) = (counter_of(x)?, counter_of(y)?);
    Some(combine(op, &a, &b).map(|d| d.into_any().into()))
}

fn combine(op: BinOp, a: &Dict, b: &Dict) -> Result<Dict> {
    let mut out = Dict::with_kind(DictKind::Counter);
    let zero = AnyValue::from_int(0);
    for (k, count) in a.items() {
        let other = b.get(k.view()).unwrap_or_else(|| zero.clone());
        let new = match op {
            BinOp::Add | BinOp::Sub => binary(op, count.view(), other.view())?,
            // `|`: the larger; `&`: the smaller (the first on a tie, as `<` decides).
            BinOp::BitOr if compare(CmpOp::Lt, count.view(), other.view())? => other.into(),
            BinOp::BitAnd if !compare(CmpOp::Lt, count.view(), other.view())? => other.into(),
            _ => count.into(),
        };
        if positive(&new)? {
            out.try_set(k, new.resize(), "Counter")?;
        }
    }
    if op == BinOp::BitAnd {
        return Ok(out);
    }
    for (k, count) in b.items() {
        if a.contains_key(k.view()) {
            continue;
        }
        let count: Slot = count.into();
        let new = match op {
            // An item only `b` has: `0 - count` when that is positive.
            BinOp::Sub if compare(CmpOp::Lt, count.view(), AnyView::from(0i64))? => {
                binary(BinOp::Sub, AnyView::from(0i64), count.view())?
            }
            BinOp::Sub => continue,
            _ if positive(&count)? => count,
            _ => continue,
        };
        out.try_set(k, new.resize(), "Counter")?;
    }
    Ok(out)
}

/// `+c` (the positive counts) and `-c` (the negated negative ones) of a Counter; `None` for
/// any other operand or operator.
pub(crate) fn counter_unary(op: UnaryOp, x: Value<'_>) -> Option<Result<Slot>> {
    if !matches!(op, UnaryOp::Pos | UnaryOp::Neg) {
        return None;
    }
    let d = counter_of(x)?;
    let keep = |count: &AnyValue| -> Result<Option<Slot>> {
        let zero = AnyView::from(0i64);
        Ok(match op {
            UnaryOp::Pos => compare(CmpOp::Gt, count.view(), zero)?.then(|| count.clone().into()),
            _ if compare(CmpOp::Lt, count.view(), zero)? => Some(binary(BinOp::Sub, zero, count.view())?),
            _ => None,
        })
    };
    let run = || {
        let mut out = Dict::with_kind(DictKind::Counter);
        for (k, count) in d.items() {
            if let Some(v) = keep(&count)? {
                out.try_set(k, v.resize(), "Counter")?;
            }
        }
        Ok(out.into_any().into())
    };
    Some(run())
}

/// `a <= b` and its kin between two Counters, as multiset inclusion (Python 3.10): every
/// count of either compared, a missing one as 0; `<` and `>` also ask that they differ.
/// `None` for any other operands.
pub(crate) fn counter_order(op: CmpOp, x: Value<'_>, y: Value<'_>) -> Option<Result<bool>> {
    let (a, b) = (counter_of(x)?, counter_of(y)?);
    let each = match op {
        CmpOp::Lt | CmpOp::LtE => CmpOp::LtE,
        CmpOp::Gt | CmpOp::GtE => CmpOp::GtE,
        _ => return None,
    };
    let included = || -> Result<bool> {
        for key in a.keys().into_iter().chain(b.keys()) {
            if !compare(each, item(&a, key.view())?.view(), item(&b, key.view())?.view())? {
                return Ok(false);
            }
        }
        Ok(!matches!(op, CmpOp::Lt | CmpOp::Gt) || a != b)
    };
    Some(included())
}

/// `c += x`, `c -= x`, `c |= x`, `c &= x` on a Counter `c`, in place, as `collections.py`'s
/// `__iadd__` and its kin: `x` may be any dict. False when `c` is not a Counter or `x` not a
/// dict, for the ordinary path (and its error).
pub(crate) fn update_in_place(op: BinOp, x: Value<'_>, y: Value<'_>) -> Result<bool> {
    if !matches!(op, BinOp::Add | BinOp::Sub | BinOp::BitOr | BinOp::BitAnd) {
        return Ok(false);
    }
    let (Some(mut c), Some(other)) = (counter_of(x), dict_of(y)) else { return Ok(false) };
    match op {
        BinOp::Add | BinOp::Sub => {
            for (k, count) in other.items() {
                let new = binary(op, item(&c, k.view())?.view(), count.view())?;
                c.try_set(k, new.resize(), "Counter")?;
            }
        }
        BinOp::BitOr => {
            for (k, other_count) in other.items() {
                if compare(CmpOp::Gt, other_count.view(), item(&c, k.view())?.view())? {
                    c.try_set(k, other_count, "Counter")?;
                }
            }
        }
        _ => {
            for (k, count) in c.items() {
                let other_count = item(&other, k.view())?;
                if compare(CmpOp::Lt, other_count.view(), count.view())? {
                    c.try_set(k, other_count, "Counter")?;
                }
            }
        }
    }
    // `_keep_positive`: the items whose count is not above zero are removed.
    for (k, count) in c.items() {
        if !positive(&count.into())? {
            c.remove(k.view());
        }
    }
    Ok(true)
}

/// What a Counter's or defaultdict's repr writes before its entries (then `)`), and the dict
/// whose entries it shows in their order (a Counter's, most common first); `None` for a plain
/// dict.
pub(crate) fn repr_prefix_and_entries(d: &Dict) -> Option<(String, Dict)> {
    match d.kind() {
        DictKind::Plain | DictKind::Ordered => None,
        DictKind::Counter => {
            // `dict(self.most_common())`, or the dict as it is when the counts do not order.
            let ordered = match by_count(d, None) {
                Ok(items) => items.into_iter().collect::<Dict>(),
                Err(_) => d.items().into_iter().collect::<Dict>(),
            };
            Some(("Counter(".to_string(), ordered))
        }
        DictKind::Default(factory) => Some((format!("defaultdict({}, ", factory_repr(factory.value())), d.clone())),
    }
}

/// `repr(factory)` as a defaultdict shows it: a built-in type as `<class 'int'>`.
fn factory_repr(f: Value<'_>) -> String {
    match PackedFunc::from_value(f).and_then(|p| super::builtins::Builtin::of_func(&p)) {
        Some(b) => b.repr(),
        None => repr_value(f),
    }
}

#[cfg(test)]
mod tests {
    // Each expected value below was worked out by hand from `collections.py` (and agrees with
    // CPython 3.11).
    use crate::pipeline::test_values::run_main as run;

    #[test]
    fn counts_missing_keys_and_most_common_order() {
        // a:5 b:2 r:2 c:1 d:1, ties in first-seen order.
        assert_eq!(
            run("c = collections.Counter('abracadabra')\nreturn repr(c)"),
            "Counter({'a': 5, 'b': 2, 'r': 2, 'c': 1, 'd': 1})"
        );
        assert_eq!(
            run("c = collections.Counter('abracadabra')\nreturn repr(c.most_common(2))"),
            "[('a', 5), ('b', 2)]"
        );
        assert_eq!(
            run("c = collections.Counter()\nc['x'] += 1\nreturn repr((c['y'], 'y' in c, c))"),
            "(0, False, Counter({'x': 1}))"
        );
        assert_eq!(
            run("c = collections.Counter('aab')\nc.update({'b': 2})\nc.subtract('aaa')\nreturn repr(c)"),
            "Counter({'b': 3, 'a': -1})"
        );
        assert_eq!(run("return repr((collections.Counter(), collections.Counter('ab').total()))"), "(Counter(), 2)");
        assert_eq!(run("return repr(collections.Counter({'a': 2, 'b': 0, 'c': -1}).elements())"), "['a', 'a']");
    }

    #[test]
    fn arithmetic_keeps_positive_counts() {
        let setup = "a = collections.Counter({'x': 3, 'y': 1})\nb = collections.Counter({'x': 1, 'y': 2, 'z': 1})\n";
        let cases = [
            ("a + b", "Counter({'x': 4, 'y': 3, 'z': 1})"),
            ("a - b", "Counter({'x': 2})"),
            ("b - a", "Counter({'y': 1, 'z': 1})"),
            ("a | b", "Counter({'x': 3, 'y': 2, 'z': 1})"),
            ("a & b", "Counter({'x': 1, 'y': 1})"),
            ("-collections.Counter({'x': -2, 'y': 1})", "Counter({'x': 2})"),
            ("(a <= a + b, a < a, a == collections.Counter({'x': 3, 'y': 1, 'q': 0}))", "(True, False, True)"),
        ];
        for (expr, want) in cases {
            assert_eq!(run(&format!("{setup}return repr({expr})")), want, "{expr}");
        }
        assert_eq!(run(&format!("{setup}a -= b\nreturn repr(a)")), "Counter({'x': 2})");
    }

    #[test]
    fn defaultdicts_add_the_factorys_value() {
        assert_eq!(
            run(
                "d = collections.defaultdict(list)\nd['a'].append(1)\nd['a'].append(2)\nreturn repr((d, d.get('b'), len(d)))"
            ),
            "(defaultdict(<class 'list'>, {'a': [1, 2]}), None, 1)"
        );
        assert_eq!(
            run("d = collections.defaultdict(lambda: 7)\nreturn repr((d['k'], d))").split(", {").nth(1),
            Some("'k': 7}))")
        );
        assert_eq!(run("d = collections.defaultdict(None)\nreturn d['k']"), "Key: 'k'");
        assert_eq!(run("return repr(collections.defaultdict(5))"), "Type: first argument must be callable or None");
    }
}
