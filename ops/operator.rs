//! Python's `operator` module: the operators as functions (`operator.add`, `operator.lt`, ...)
//! and the function makers `itemgetter` and `methodcaller`, with CPython 3.11's results and
//! errors. `anyproc.script` maps Python's `operator.x` to the op of the same dotted name, so
//! `sorted(counts.items(), key=operator.itemgetter(1))` and `functools.reduce(operator.mul,
//! xs, 1)` run as they do in CPython.
//!
//! Rationale: each is the interpreter's own operation (`value_ops`), so `operator.add(a, b)` is
//! exactly what `a + b` is in a script, errors included.

use crate::error::{Error, Result};
use crate::func::{OpEntry, Registry};
use crate::pipeline::ast::{BinOp, CmpOp, UnaryOp};
use crate::pipeline::methods::{Method, call_method};
use crate::pipeline::value_ops::{
    binary, compare, contains, get_item, index_arg, iter_items, py_eq, truthy, type_error, unary, value_error, vname,
};
use crate::{AnyValue, AnyView, PackedFunc, Tuple};

/// Registers the `operator.*` ops.
pub fn register(reg: &Registry) -> Result<()> {
    let ops: &[OpEntry] = &[
        ("operator.add", "(*a_b) -> value", "a + b, as operator.add.", |a| bin("add", BinOp::Add, a)),
        ("operator.sub", "(*a_b) -> value", "a - b, as operator.sub.", |a| bin("sub", BinOp::Sub, a)),
        ("operator.mul", "(*a_b) -> value", "a * b, as operator.mul.", |a| bin("mul", BinOp::Mul, a)),
        ("operator.truediv", "(*a_b) -> value", "a / b, as operator.truediv.", |a| bin("truediv", BinOp::Div, a)),
        ("operator.floordiv", "(*a_b) -> value", "a // b, as operator.floordiv.", |a| {
            bin("floordiv", BinOp::FloorDiv, a)
        }),
        ("operator.mod", "(*a_b) -> value", "a % b, as operator.mod.", |a| bin("mod", BinOp::Mod, a)),
        ("operator.pow", "(*a_b) -> value", "a ** b, as operator.pow.", |a| bin("pow", BinOp::Pow, a)),
        ("operator.and_", "(*a_b) -> value", "a & b, as operator.and_.", |a| bin("and_", BinOp::BitAnd, a)),
        ("operator.or_", "(*a_b) -> value", "a | b, as operator.or_.", |a| bin("or_", BinOp::BitOr, a)),
        ("operator.xor", "(*a_b) -> value", "a ^ b, as operator.xor.", |a| bin("xor", BinOp::BitXor, a)),
        ("operator.lshift", "(*a_b) -> value", "a << b, as operator.lshift.", |a| bin("lshift", BinOp::LShift, a)),
        ("operator.rshift", "(*a_b) -> value", "a >> b, as operator.rshift.", |a| bin("rshift", BinOp::RShift, a)),
        ("operator.concat", "(*a_b) -> value", "a + b of two sequences, as operator.concat.", concat),
        ("operator.eq", "(*a_b) -> value", "a == b, as operator.eq.", |a| cmp("eq", CmpOp::Eq, a)),
        ("operator.ne", "(*a_b) -> value", "a != b, as operator.ne.", |a| cmp("ne", CmpOp::NotEq, a)),
        ("operator.lt", "(*a_b) -> value", "a < b, as operator.lt.", |a| cmp("lt", CmpOp::Lt, a)),
        ("operator.le", "(*a_b) -> value", "a <= b, as operator.le.", |a| cmp("le", CmpOp::LtE, a)),
        ("operator.gt", "(*a_b) -> value", "a > b, as operator.gt.", |a| cmp("gt", CmpOp::Gt, a)),
        ("operator.ge", "(*a_b) -> value", "a >= b, as operator.ge.", |a| cmp("ge", CmpOp::GtE, a)),
        ("operator.is_", "(*a_b) -> bool", "a is b, as operator.is_.", |a| cmp("is_", CmpOp::Is, a)),
        ("operator.is_not", "(*a_b) -> bool", "a is not b, as operator.is_not.", |a| cmp("is_not", CmpOp::IsNot, a)),
        ("operator.contains", "(*a_b) -> bool", "b in a, as operator.contains.", |a| {
            two("contains", a)?;
            Ok(contains(a[0], a[1])?.into())
        }),
        ("operator.getitem", "(*a_b) -> value", "a[b], as operator.getitem.", |a| {
            two("getitem", a)?;
            Ok(get_item(a[0], a[1])?.resize::<0>())
        }),
        ("operator.countOf", "(*a_b) -> int", "How many items of a equal b, as operator.countOf.", count_of),
        (
            "operator.indexOf",
            "(*a_b) -> int",
            "The index of the first item of a equal to b, as operator.indexOf.",
            index_of,
        ),
        ("operator.neg", "(*a) -> value", "-a, as operator.neg.", |a| un("neg", UnaryOp::Neg, a)),
        ("operator.pos", "(*a) -> value", "+a, as operator.pos.", |a| un("pos", UnaryOp::Pos, a)),
        ("operator.invert", "(*a) -> value", "~a, as operator.invert.", |a| un("invert", UnaryOp::Invert, a)),
        ("operator.inv", "(*a) -> value", "~a, as operator.inv.", |a| un("inv", UnaryOp::Invert, a)),
        ("operator.not_", "(*a) -> bool", "not a, as operator.not_.", |a| un("not_", UnaryOp::Not, a)),
        ("operator.truth", "(*a) -> bool", "bool(a), as operator.truth.", |a| {
            one("truth", a)?;
            Ok(truthy(a[0]).into())
        }),
        ("operator.abs", "(*a) -> value", "abs(a), as operator.abs.", |a| {
            one("abs", a)?;
            let abs = crate::pipeline::builtins::Builtin::from_name("abs").expect("abs is a built-in");
            Ok(crate::pipeline::builtins::call_builtin(abs, a)?.resize::<0>())
        }),
        ("operator.index", "(*a) -> int", "a as an int (its __index__), as operator.index.", |a| {
            one("index", a)?;
            Ok(index_arg(&a[0])?.into())
        }),
        (
            "operator.itemgetter",
            "(*items) -> function",
            "The function that gets items from its argument (a tuple of them for several), as operator.itemgetter.",
            itemgetter,
        ),
        (
            "operator.methodcaller",
            "(name, *args) -> function",
            "The function that calls its argument's method name with args, as operator.methodcaller.",
            methodcaller,
        ),
    ];
    reg.register_ops(ops)
}

/// CPython's count check of the two-argument functions (`add expected 2 arguments, got 1`).
fn two(name: &str, args: &[AnyView<'_>]) -> Result<()> {
    match args.len() {
        2 => Ok(()),
        n => Err(type_error(format!("{name} expected 2 arguments, got {n}"))),
    }
}

/// CPython's count check of the one-argument functions (`_operator.neg() takes exactly one
/// argument (2 given)`).
fn one(name: &str, args: &[AnyView<'_>]) -> Result<()> {
    match args.len() {
        1 => Ok(()),
        n => Err(type_error(format!("_operator.{name}() takes exactly one argument ({n} given)"))),
    }
}

fn bin(name: &str, op: BinOp, args: &[AnyView<'_>]) -> Result<AnyValue> {
    two(name, args)?;
    Ok(binary(op, args[0], args[1])?.resize::<0>())
}

fn cmp(name: &str, op: CmpOp, args: &[AnyView<'_>]) -> Result<AnyValue> {
    two(name, args)?;
    Ok(compare(op, args[0], args[1])?.into())
}

fn un(name: &str, op: UnaryOp, args: &[AnyView<'_>]) -> Result<AnyValue> {
    one(name, args)?;
    Ok(unary(op, args[0])?.resize::<0>())
}

/// `operator.concat(a, b)`: `a + b` where `a` is a sequence (str, bytes, list, tuple), else
/// CPython's error naming `a`'s type.
fn concat(args: &[AnyView<'_>]) -> Result<AnyValue> {
    two("concat", args)?;
    let a = args[0].value();
    let sequence = a.as_str().is_some() || crate::pipeline::str_codecs::bytes_of(a).is_some() || is_list_or_tuple(a);
    if !sequence {
        return Err(type_error(format!("'{}' object can't be concatenated", vname(a))));
    }
    Ok(binary(BinOp::Add, args[0], args[1])?.resize::<0>())
}

/// Whether `v` is a list or tuple (the sequences `concat` takes besides text).
fn is_list_or_tuple(v: crate::Value<'_>) -> bool {
    crate::pipeline::value_ops::seq_obj(v).is_some()
}

/// The items of `a`, or CPython's error of `countOf`/`indexOf` for a value that has none.
fn searched_items(a: AnyView<'_>) -> Result<Vec<AnyValue>> {
    iter_items(a.value()).map_err(|e| match e.kind() {
        crate::error::ErrorKind::Type => type_error(format!("argument of type '{}' is not iterable", vname(a.value()))),
        _ => e,
    })
}

fn count_of(args: &[AnyView<'_>]) -> Result<AnyValue> {
    two("countOf", args)?;
    let items = searched_items(args[0])?;
    let n = items.iter().filter(|x| py_eq(x.value(), args[1].value())).count();
    Ok((n as i64).into())
}

fn index_of(args: &[AnyView<'_>]) -> Result<AnyValue> {
    two("indexOf", args)?;
    let items = searched_items(args[0])?;
    match items.iter().position(|x| py_eq(x.value(), args[1].value())) {
        Some(i) => Ok((i as i64).into()),
        None => Err(value_error("sequence.index(x): x not in sequence")),
    }
}

/// `operator.itemgetter(*items)`: a function of one argument giving its item (or the tuple of
/// its items, for several).
fn itemgetter(args: &[AnyView<'_>]) -> Result<AnyValue> {
    if args.is_empty() {
        return Err(type_error("itemgetter expected 1 argument, got 0"));
    }
    let keys: Vec<AnyValue> = args.iter().map(AnyView::to_owned).collect();
    let getter = PackedFunc::new(move |call: &[AnyView<'_>]| {
        if call.len() != 1 {
            return Err(type_error(format!("itemgetter expected 1 argument, got {}", call.len())));
        }
        if let [key] = keys.as_slice() {
            return Ok(get_item(call[0], key.view())?.resize::<0>());
        }
        let items = keys.iter().map(|k| Ok(get_item(call[0], k.view())?.resize::<0>())).collect::<Result<Vec<_>>>()?;
        Ok(Tuple::from_vec(items).into())
    });
    Ok(getter.into())
}

/// `operator.methodcaller(name, *args)`: a function of one argument calling its method `name`
/// with `args`. A name no built-in type has a method of is CPython's AttributeError when the
/// function is called.
fn methodcaller(args: &[AnyView<'_>]) -> Result<AnyValue> {
    let Some(name) = args.first() else {
        return Err(type_error("methodcaller needs at least one argument, the method name"));
    };
    let Some(name) = name.value().as_str().map(str::to_string) else {
        return Err(type_error("method name must be a string"));
    };
    let method = Method::from_name(&name);
    let bound: Vec<AnyValue> = args[1..].iter().map(AnyView::to_owned).collect();
    let caller = PackedFunc::new(move |call: &[AnyView<'_>]| {
        if call.len() != 1 {
            return Err(type_error(format!("methodcaller expected 1 argument, got {}", call.len())));
        }
        let Some(method) = method else {
            return Err(no_attribute(call[0], &name));
        };
        let views: Vec<AnyView<'_>> = bound.iter().map(AnyValue::view).collect();
        Ok(call_method(method, call[0], &views)?.resize::<0>())
    });
    Ok(caller.into())
}

fn no_attribute(obj: AnyView<'_>, name: &str) -> Error {
    crate::pipeline::value_ops::no_attribute(obj.value(), name)
}
