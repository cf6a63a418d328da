use super::*;
use crate::pipeline::Slot;
use crate::pipeline::ast::{BinOp, CmpOp, UnaryOp};
use crate::pipeline::test_values::*;
use crate::{AnyValue, Dict, List};
use std::fmt;

fn bin(op: BinOp, x: &Slot, y: &Slot) -> Result<Slot> {
    binary(op, x.view(), y.view())
}
fn rep(x: &Slot) -> String {
    repr_value(x.value())
}
fn err<T: fmt::Debug>(r: Result<T>) -> (ErrorKind, String) {
    let e = r.expect_err("expected an error");
    (e.kind(), e.message().to_owned())
}
/// Python's repr of the result of `x op y`.
fn br(op: BinOp, x: Slot, y: Slot) -> String {
    rep(&bin(op, &x, &y).unwrap())
}

#[test]
fn truthiness() {
    for v in [none(), b(false), i(0), f(0.0), f(-0.0), s(""), u(""), list(vec![]), dict(vec![])] {
        assert!(!truthy(v.view()), "{v:?}");
    }
    for v in [b(true), i(-1), f(f64::NAN), s("a"), u("é"), list(vec![none()]), dict(vec![(i(1), i(2))])] {
        assert!(truthy(v.view()), "{v:?}");
    }
    assert!(truthy(Slot::from_bytes(b"x").view()));
}

#[test]
fn unary_ops() {
    let un = |op, v: Slot| unary(op, v.view()).map(|r| rep(&r));
    assert_eq!(un(UnaryOp::Neg, b(true)).unwrap(), "-1");
    assert_eq!(un(UnaryOp::Invert, b(true)).unwrap(), "-2");
    assert_eq!(un(UnaryOp::Invert, i(5)).unwrap(), "-6");
    assert_eq!(un(UnaryOp::Pos, b(true)).unwrap(), "1");
    assert_eq!(un(UnaryOp::Neg, f(0.0)).unwrap(), "-0.0");
    assert_eq!(un(UnaryOp::Not, s("")).unwrap(), "True");
    assert_eq!(un(UnaryOp::Not, list(vec![i(0)])).unwrap(), "False");
    assert_eq!(err(un(UnaryOp::Neg, s("a"))), (ErrorKind::Type, "bad operand type for unary -: 'str'".into()));
    assert_eq!(err(un(UnaryOp::Invert, f(1.5))), (ErrorKind::Type, "bad operand type for unary ~: 'float'".into()));
    assert_eq!(err(un(UnaryOp::Neg, i(i64::MIN))).0, ErrorKind::Overflow);
}

#[test]
fn int_arithmetic() {
    use BinOp::*;
    assert_eq!(br(Add, i(2), i(3)), "5");
    assert_eq!(br(Sub, i(2), i(3)), "-1");
    assert_eq!(br(Mul, i(-4), i(3)), "-12");
    assert_eq!(br(Div, i(7), i(2)), "3.5");
    assert_eq!(br(Div, i(6), i(3)), "2.0");
    assert_eq!(br(FloorDiv, i(-7), i(2)), "-4");
    assert_eq!(br(FloorDiv, i(7), i(-2)), "-4");
    assert_eq!(br(FloorDiv, i(-7), i(-2)), "3");
    assert_eq!(br(Mod, i(-7), i(2)), "1");
    assert_eq!(br(Mod, i(7), i(-2)), "-1");
    assert_eq!(br(Mod, i(-6), i(3)), "0");
    assert_eq!(br(Mod, i(i64::MIN), i(-1)), "0");
    assert_eq!(br(Pow, i(2), i(10)), "1024");
    assert_eq!(br(Pow, i(0), i(0)), "1");
    assert_eq!(br(Pow, i(-1), i(1 << 40)), "1");
    assert_eq!(br(Pow, i(2), i(-1)), "0.5");
    assert_eq!(br(Pow, i(-2), i(-1)), "-0.5");
    assert_eq!(br(BitAnd, i(12), i(10)), "8");
    assert_eq!(br(BitOr, i(12), i(10)), "14");
    assert_eq!(br(BitXor, i(12), i(10)), "6");
    assert_eq!(br(LShift, i(1), i(62)), "4611686018427387904");
    assert_eq!(br(RShift, i(-9), i(1)), "-5");
    assert_eq!(br(RShift, i(-9), i(100)), "-1");
    assert_eq!(br(LShift, i(0), i(1000)), "0");
}

#[test]
fn bool_arithmetic() {
    use BinOp::*;
    assert_eq!(br(Add, b(true), b(true)), "2");
    assert_eq!(br(BitAnd, b(true), b(false)), "False");
    assert_eq!(br(BitOr, b(true), i(2)), "3");
    assert_eq!(br(BitXor, b(true), b(true)), "False");
    assert_eq!(br(LShift, b(true), i(2)), "4");
    assert_eq!(br(Div, b(true), i(2)), "0.5");
    assert_eq!(br(Mul, b(true), s("ab")), "'ab'");
}

#[test]
fn float_arithmetic() {
    use BinOp::*;
    assert_eq!(br(Add, i(1), f(2.5)), "3.5");
    assert_eq!(br(Add, f(0.1), f(0.2)), "0.30000000000000004");
    assert_eq!(br(FloorDiv, f(-7.5), i(2)), "-4.0");
    assert_eq!(br(Mod, f(-7.5), i(2)), "0.5");
    assert_eq!(br(Mod, f(7.5), i(-2)), "-0.5");
    assert_eq!(br(Mod, f(-0.0), i(5)), "0.0");
    assert_eq!(br(Mod, f(0.0), i(-5)), "-0.0");
    assert_eq!(br(Mod, i(5), f(f64::INFINITY)), "5.0");
    assert_eq!(br(Mod, i(-5), f(f64::INFINITY)), "inf");
    assert_eq!(br(Pow, i(2), f(0.5)), "1.4142135623730951");
    assert_eq!(br(Pow, f(-2.0), i(3)), "-8.0");
    assert_eq!(br(Pow, f(-1.0), f(f64::INFINITY)), "1.0");
    assert_eq!(br(Pow, f(f64::NAN), i(0)), "1.0");
    assert_eq!(br(Mul, f(1e308), i(10)), "inf");
}

#[test]
fn arithmetic_errors() {
    use BinOp::*;
    let e = |op, x: Slot, y: Slot| err(bin(op, &x, &y));
    let v = |m: &str| (ErrorKind::Value, m.to_owned());
    let t = |m: &str| (ErrorKind::Type, m.to_owned());
    // CPython's classes: ZeroDivisionError, and OverflowError for float overflow; an int
    // result past i64 (a big int in CPython) is an OverflowError here.
    let z = |m: &str| (ErrorKind::ZeroDivision, m.to_owned());
    let o = |m: &str| (ErrorKind::Overflow, m.to_owned());
    assert_eq!(e(Div, i(1), i(0)), z("division by zero"));
    assert_eq!(e(Div, f(1.0), i(0)), z("float division by zero"));
    assert_eq!(e(FloorDiv, i(1), i(0)), z("integer division or modulo by zero"));
    assert_eq!(e(Mod, i(1), i(0)), z("integer modulo by zero"));
    assert_eq!(e(FloorDiv, f(1.0), f(0.0)), z("float floor division by zero"));
    assert_eq!(e(Mod, f(1.0), f(0.0)), z("float modulo"));
    assert_eq!(e(Pow, i(0), i(-1)), z("0.0 cannot be raised to a negative power"));
    assert_eq!(e(Pow, f(10.0), i(400)), o("(34, 'Numerical result out of range')"));
    assert_eq!(e(Pow, i(2), i(64)), o("integer overflow in **"));
    assert_eq!(e(Add, i(i64::MAX), i(1)), o("integer overflow in +"));
    assert_eq!(e(Mul, i(i64::MAX), i(2)), o("integer overflow in *"));
    assert_eq!(e(FloorDiv, i(i64::MIN), i(-1)), o("integer overflow in //"));
    assert_eq!(e(LShift, i(1), i(63)), o("integer overflow in <<"));
    assert_eq!(e(LShift, i(1), i(-1)), v("negative shift count"));
    assert_eq!(e(Pow, i(-8), f(0.5)).0, ErrorKind::Value);
    assert_eq!(e(Add, i(1), s("a")), t("unsupported operand type(s) for +: 'int' and 'str'"));
    assert_eq!(e(Add, s("a"), i(1)), t("can only concatenate str (not \"int\") to str"));
    assert_eq!(e(Add, list(vec![]), i(1)), t("can only concatenate list (not \"int\") to list"));
    assert_eq!(e(Mul, s("a"), f(1.5)), t("can't multiply sequence by non-int of type 'float'"));
    assert_eq!(e(Mul, s("a"), s("b")), t("can't multiply sequence by non-int of type 'str'"));
    assert_eq!(e(Sub, s("a"), s("b")), t("unsupported operand type(s) for -: 'str' and 'str'"));
    assert_eq!(e(BitAnd, f(1.0), i(1)), t("unsupported operand type(s) for &: 'float' and 'int'"));
    assert_eq!(e(Add, none(), i(1)), t("unsupported operand type(s) for +: 'NoneType' and 'int'"));
}

#[test]
fn sequence_arithmetic() {
    use BinOp::*;
    assert_eq!(br(Add, s("ab"), s("cd")), "'abcd'");
    assert_eq!(br(Add, s("日本"), u("語")), "'日本語'");
    assert!(matches!(bin(Add, &s("a"), &u("b")).unwrap().value(), Value::UStr(_)));
    assert!(!bin(Add, &s("abcdefgh"), &s("ijklmnop")).unwrap().is_object());
    assert_eq!(
        br(Add, s("a".repeat(10).as_str()), s("b".repeat(10).as_str())),
        format!("'{}{}'", "a".repeat(10), "b".repeat(10))
    );
    assert_eq!(br(Mul, s("ab"), i(3)), "'ababab'");
    assert_eq!(br(Mul, i(2), s("é")), "'éé'");
    assert_eq!(br(Mul, s("a"), i(0)), "''");
    assert_eq!(br(Mul, s("a"), i(-1)), "''");
    assert_eq!(br(Mul, u("ü"), i(2)), "'üü'");
    assert_eq!(br(Add, list(vec![i(1)]), list(vec![s("a")])), "[1, 'a']");
    assert_eq!(br(Mul, list(vec![i(1), i(2)]), i(2)), "[1, 2, 1, 2]");
    assert_eq!(br(Mul, i(2), list(vec![i(1)])), "[1, 1]");
    assert_eq!(br(Mul, list(vec![i(1)]), i(-3)), "[]");
    // Empty sequences times a huge count are empty at once (the list one looped 2**62 times:
    // found by the differential test, seed 780).
    assert_eq!(br(Mul, i(1 << 62), list(vec![])), "[]");
    assert_eq!(br(Mul, s(""), i(i64::MAX)), "''");
    assert_eq!(br(Mul, u(""), i(i64::MAX)), "''");
    assert_eq!(br(Add, Slot::from_bytes(b"a"), Slot::from_bytes(b"b")), "b'ab'");
    assert_eq!(br(BitOr, dict(vec![(i(1), i(1)), (i(2), i(2))]), dict(vec![(i(2), i(3))])), "{1: 1, 2: 3}");
    // The inner list is shared, as in Python.
    let inner = list(vec![]);
    let outer = bin(Mul, &list(vec![inner.clone()]), &i(2)).unwrap();
    call_append(&inner);
    assert_eq!(rep(&outer), "[[0], [0]]");
}

fn call_append(l: &Slot) {
    list_of(l.value()).unwrap().push(AnyValue::from_int(0));
}

#[test]
fn comparisons() {
    use CmpOp::*;
    let c = |op, x: Slot, y: Slot| compare(op, x.view(), y.view()).unwrap();
    assert!(c(Eq, i(1), f(1.0)));
    assert!(c(Eq, b(true), i(1)));
    assert!(!c(Eq, f(f64::NAN), f(f64::NAN)));
    assert!(c(NotEq, f(f64::NAN), f(f64::NAN)));
    assert!(c(Eq, s("é"), u("é")));
    assert!(!c(Eq, s("1"), i(1)));
    assert!(c(Eq, list(vec![i(1), s("a")]), list(vec![f(1.0), u("a")])));
    assert!(!c(Eq, i((1 << 53) + 1), f(9007199254740992.0)));
    assert!(c(Gt, i((1 << 53) + 1), f(9007199254740992.0)));
    assert!(c(Lt, i(i64::MAX), f(9.3e18)));
    assert!(c(Lt, f(-0.5), i(0)));
    assert!(c(LtE, f(2.0), i(2)));
    assert!(!c(Lt, f(f64::NAN), i(1)) && !c(GtE, f(f64::NAN), i(1)));
    assert!(c(Lt, b(false), b(true)));
    assert!(c(Lt, s("a"), s("b")) && c(Lt, s("Z"), s("a")) && c(Lt, s("ab"), s("abc")));
    assert!(c(Lt, s("z"), u("é")) && c(Gt, u("日"), s("é")) && c(Lt, u("ab"), u("b")));
    assert!(c(Lt, s("\u{ffff}"), s("😀")));
    assert!(c(Lt, list(vec![i(1), i(2)]), list(vec![i(1), i(3)])));
    assert!(c(Lt, list(vec![i(1)]), list(vec![i(1), i(0)])));
    assert!(c(GtE, list(vec![i(2)]), list(vec![i(1), s("x")])));
    assert!(c(LtE, list(vec![]), list(vec![])));
    assert!(c(Lt, Slot::from_bytes(b"a"), Slot::from_bytes(b"b")));
    assert!(c(In, s("bc"), s("abcd")) && c(In, s(""), s("")) && c(In, u("本"), s("日本")) && c(In, s("b"), u("abc")));
    assert!(c(NotIn, s("x"), u("abc")));
    assert!(c(In, f(2.0), list(vec![i(1), i(2)])));
    assert!(c(In, s("k"), dict(vec![(u("k"), i(1))])) && c(NotIn, s("v"), dict(vec![(s("k"), s("v"))])));
    assert!(c(In, i(97), Slot::from_bytes(b"a")));
    assert!(c(Is, none(), none()) && c(IsNot, i(1), b(true)) && c(Is, b(true), b(true)));
    let l = list(vec![]);
    assert!(c(Is, l.clone(), l.clone()) && c(IsNot, l.clone(), list(vec![])));
}

#[test]
fn comparison_errors() {
    use CmpOp::*;
    let e = |op, x: Slot, y: Slot| err(compare(op, x.view(), y.view()));
    let t = |m: &str| (ErrorKind::Type, m.to_owned());
    assert_eq!(e(Lt, s("a"), i(1)), t("'<' not supported between instances of 'str' and 'int'"));
    assert_eq!(e(GtE, i(1), s("a")), t("'>=' not supported between instances of 'int' and 'str'"));
    assert_eq!(e(Lt, none(), none()), t("'<' not supported between instances of 'NoneType' and 'NoneType'"));
    assert_eq!(
        e(Lt, list(vec![i(1)]), list(vec![s("a")])),
        t("'<' not supported between instances of 'int' and 'str'")
    );
    assert_eq!(e(Lt, dict(vec![]), dict(vec![])), t("'<' not supported between instances of 'dict' and 'dict'"));
    assert_eq!(e(In, i(1), i(1)), t("argument of type 'int' is not iterable"));
    assert_eq!(e(In, i(1), s("a")), t("'in <string>' requires string as left operand, not int"));
    assert_eq!(e(In, dict(vec![]), dict(vec![])), t("unhashable type: 'dict'"));
}

#[test]
fn indexing_strings() {
    let g = |o: &Slot, k: i64| get_item(o.view(), i(k).view()).map(|r| rep(&r));
    for word in [s("héllo日本😀"), u("héllo日本😀")] {
        assert_eq!(g(&word, 0).unwrap(), "'h'");
        assert_eq!(g(&word, 1).unwrap(), "'é'");
        assert_eq!(g(&word, 5).unwrap(), "'日'");
        assert_eq!(g(&word, 7).unwrap(), "'😀'");
        assert_eq!(g(&word, -1).unwrap(), "'😀'");
        assert_eq!(g(&word, -3).unwrap(), "'日'");
        assert_eq!(g(&word, -8).unwrap(), "'h'");
        assert_eq!(err(g(&word, 8)), (ErrorKind::Index, "string index out of range".into()));
        assert_eq!(err(g(&word, -9)), (ErrorKind::Index, "string index out of range".into()));
        assert_eq!(err(g(&word, i64::MIN)).0, ErrorKind::Index);
        assert_eq!(len(word.view()).unwrap(), 8);
    }
    let ascii = s("abcdefghijklmnopqrstuvwxyz");
    assert_eq!(g(&ascii, 25).unwrap(), "'z'");
    assert_eq!(g(&ascii, -26).unwrap(), "'a'");
    assert_eq!(get_item(s("ab").view(), b(true).view()).unwrap(), "b");
    assert_eq!(
        err(get_item(s("abc").view(), s("a").view())),
        (ErrorKind::Type, "string indices must be integers, not 'str'".into())
    );
    assert_eq!(err(get_item(u("abc").view(), f(1.0).view())).0, ErrorKind::Type);
    // The UCS4 receiver keeps its encoding; the UTF-8 one gives UTF-8.
    assert!(matches!(get_item(u("ab").view(), i(0).view()).unwrap().value(), Value::UStr(_)));
    assert!(matches!(get_item(s("ab").view(), i(0).view()).unwrap().value(), Value::Str(_)));
}

#[test]
fn str_item_is_inline() {
    let long = Slot::from_text("a long utf-8 word, with é and 日本 and 😀 in it");
    assert!(long.is_object());
    for k in [0, 20, -1, -5] {
        let slot = get_item(long.view(), i(k).view()).unwrap();
        assert!(!slot.is_object());
    }
    let slot = get_item(s("é").view(), i(0).view()).unwrap();
    assert!(!slot.is_object());
    assert_eq!(slot, "é");
}

#[test]
fn indexing_containers() {
    let l = list(vec![i(10), s("x"), none()]);
    assert_eq!(get_item(l.view(), i(-2).view()).unwrap(), "x");
    assert_eq!(get_item(l.view(), b(false).view()).unwrap(), 10);
    assert_eq!(err(get_item(l.view(), i(3).view())), (ErrorKind::Index, "list index out of range".into()));
    assert_eq!(
        err(get_item(l.view(), s("a").view())),
        (ErrorKind::Type, "list indices must be integers or slices, not str".into())
    );
    let d = dict(vec![(s("a"), i(1)), (tuple(vec![i(1), i(2)]), i(2))]);
    assert_eq!(get_item(d.view(), u("a").view()).unwrap(), 1);
    assert_eq!(get_item(d.view(), tuple(vec![i(1), i(2)]).view()).unwrap(), 2);
    assert_eq!(err(get_item(d.view(), list(vec![i(1)]).view())), (ErrorKind::Type, "unhashable type: 'list'".into()));
    assert_eq!(err(get_item(d.view(), s("zz").view())), (ErrorKind::Key, "'zz'".into()));
    assert_eq!(err(get_item(d.view(), i(3).view())), (ErrorKind::Key, "3".into()));
    assert_eq!(err(get_item(d.view(), dict(vec![]).view())), (ErrorKind::Type, "unhashable type: 'dict'".into()));
    assert_eq!(err(get_item(i(1).view(), i(0).view())), (ErrorKind::Type, "'int' object is not subscriptable".into()));
    assert_eq!(get_item(Slot::from_bytes(b"ab").view(), i(-1).view()).unwrap(), 98);
}

#[test]
fn item_assignment() {
    let l = list(vec![i(1), i(2)]);
    let alias = l.clone();
    set_item(l.view(), i(-1).view(), s("z").view()).unwrap();
    assert_eq!(rep(&alias), "[1, 'z']");
    assert_eq!(
        err(set_item(l.view(), i(2).view(), i(0).view())),
        (ErrorKind::Index, "list assignment index out of range".into())
    );
    let d = dict(vec![]);
    set_item(d.view(), s("k").view(), i(1).view()).unwrap();
    set_item(d.view(), u("k").view(), i(2).view()).unwrap();
    set_item(d.view(), f(1.0).view(), i(3).view()).unwrap();
    set_item(d.view(), i(1).view(), i(4).view()).unwrap();
    assert_eq!(rep(&d), "{'k': 2, 1.0: 4}");
    assert_eq!(
        err(set_item(s("a").view(), i(0).view(), s("b").view())),
        (ErrorKind::Type, "'str' object does not support item assignment".into())
    );
    assert_eq!(
        err(set_item(i(1).view(), i(0).view(), i(1).view())),
        (ErrorKind::Type, "'int' object does not support item assignment".into())
    );
}

fn sl(o: &Slot, lo: Slot, hi: Slot, st: Slot) -> Result<String> {
    slice(o.view(), lo.view(), hi.view(), st.view()).map(|r| rep(&r))
}

#[test]
fn slices() {
    let n = none;
    for w in [s("héllo日本😀"), u("héllo日本😀")] {
        assert_eq!(sl(&w, i(1), i(3), n()).unwrap(), "'él'");
        assert_eq!(sl(&w, i(-3), n(), n()).unwrap(), "'日本😀'");
        assert_eq!(sl(&w, n(), n(), i(-1)).unwrap(), "'😀本日olléh'");
        assert_eq!(sl(&w, n(), n(), i(2)).unwrap(), "'hlo本'");
        assert_eq!(sl(&w, i(-2), i(0), i(-2)).unwrap(), "'本ol'");
        assert_eq!(sl(&w, i(100), i(200), n()).unwrap(), "''");
        assert_eq!(sl(&w, i(-100), i(2), n()).unwrap(), "'hé'");
        assert_eq!(sl(&w, i(5), i(1), n()).unwrap(), "''");
    }
    let a = s("abcdef");
    assert_eq!(sl(&a, n(), n(), i(-2)).unwrap(), "'fdb'");
    assert_eq!(sl(&a, i(4), i(1), i(-1)).unwrap(), "'edc'");
    assert_eq!(sl(&a, i(-1), i(-100), i(-3)).unwrap(), "'fc'");
    assert_eq!(sl(&a, n(), n(), i(i64::MIN)).unwrap(), "'f'");
    assert_eq!(sl(&a, n(), n(), i(i64::MAX)).unwrap(), "'a'");
    let l = list(vec![i(0), i(1), i(2), i(3), i(4)]);
    assert_eq!(sl(&l, i(1), i(-1), n()).unwrap(), "[1, 2, 3]");
    assert_eq!(sl(&l, n(), n(), i(-2)).unwrap(), "[4, 2, 0]");
    assert_eq!(sl(&l, i(3), n(), i(-1)).unwrap(), "[3, 2, 1, 0]");
    assert_eq!(sl(&Slot::from_bytes(b"abc"), i(1), n(), n()).unwrap(), "b'bc'");
    assert_eq!(err(sl(&a, n(), n(), i(0))), (ErrorKind::Value, "slice step cannot be zero".into()));
    assert_eq!(
        err(sl(&a, f(1.5), n(), n())),
        (ErrorKind::Type, "slice indices must be integers or None or have an __index__ method".into())
    );
    assert_eq!(err(sl(&i(1), n(), n(), n())), (ErrorKind::Type, "'int' object is not subscriptable".into()));
    // CPython 3.11 looks a slice of a dict up as a key, and cannot hash it.
    assert_eq!(err(sl(&dict(vec![]), n(), i(2), n())), (ErrorKind::Type, "unhashable type: 'slice'".into()));
    // A slice of a tuple is a tuple.
    assert_eq!(sl(&tuple(vec![i(1), i(2), i(3)]), i(1), n(), n()).unwrap(), "(2, 3)");
    // A short slice of a long string is inline again.
    let long = s("abcdefghijklmnopqrstuvwxyz");
    assert!(!slice(long.view(), i(0).view(), i(16).view(), n().view()).unwrap().is_object());
}

#[test]
fn lengths() {
    assert_eq!(len(s("日本").view()).unwrap(), 2);
    assert_eq!(len(list(vec![i(1)]).view()).unwrap(), 1);
    assert_eq!(len(dict(vec![(i(1), i(1)), (i(2), i(1))]).view()).unwrap(), 2);
    assert_eq!(len(Slot::from_bytes(b"abc").view()).unwrap(), 3);
    assert_eq!(err(len(i(1).view())), (ErrorKind::Type, "object of type 'int' has no len()".into()));
    assert_eq!(err(len(none().view())), (ErrorKind::Type, "object of type 'NoneType' has no len()".into()));
}

#[test]
fn str_and_repr() {
    let cases: [(f64, &str); 12] = [
        (1e16, "1e+16"),
        (1.5e-7, "1.5e-07"),
        (1e-5, "1e-05"),
        (0.0001, "0.0001"),
        (123456789012345678.0, "1.2345678901234568e+17"),
        (1e22, "1e+22"),
        (-0.0, "-0.0"),
        (9999999999999998.0, "9999999999999998.0"),
        (1.5e300, "1.5e+300"),
        (5e-324, "5e-324"),
        (f64::NEG_INFINITY, "-inf"),
        (f64::NAN, "nan"),
    ];
    for (x, want) in cases {
        assert_eq!(to_str(f(x).view()).unwrap(), want);
    }
    assert_eq!(to_str(s("a'b").view()).unwrap(), "a'b");
    assert_eq!(to_str(u("日本").view()).unwrap(), "日本");
    assert_eq!(to_str(none().view()).unwrap(), "None");
    assert_eq!(to_str(b(true).view()).unwrap(), "True");
    assert_eq!(rep(&s("a'b")), "\"a'b\"");
    assert_eq!(rep(&s("a\"b")), "'a\"b'");
    assert_eq!(rep(&s("a'\"b")), "'a\\'\"b'");
    assert_eq!(
        rep(&s("\u{85}\u{a0}\u{200b}\u{3000} é😀\0\x7f\u{d7ff}\t")),
        "'\\x85\\xa0\\u200b\\u3000 é😀\\x00\\x7f\\ud7ff\\t'"
    );
    assert_eq!(rep(&u("\u{e0001}")), "'\\U000e0001'");
    assert_eq!(rep(&Slot::from_bytes(b"a'\x00\xff")), "b\"a'\\x00\\xff\"");
    let l = list(vec![f(1e16), s("x"), none(), list(vec![])]);
    assert_eq!(to_str(l.view()).unwrap(), "[1e+16, 'x', None, []]");
    list_of(l.value()).unwrap().push(l.clone().resize::<0>());
    assert_eq!(to_str(l.view()).unwrap(), "[1e+16, 'x', None, [], [...]]");
    // Break the cycle: reference counting cannot free a list that contains itself.
    list_of(l.value()).unwrap().pop().unwrap();
    assert_eq!(to_str(dict(vec![(s("a"), f(0.5)), (i(1), list(vec![]))]).view()).unwrap(), "{'a': 0.5, 1: []}");
    assert_eq!(type_name(u("x").view()), "str");
    assert_eq!(type_name(none().view()), "NoneType");
    assert_eq!(type_name(b(true).view()), "bool");
    assert_eq!(type_name(dict(vec![]).view()), "dict");
}

#[test]
fn sorting() {
    let sorted = |items: Vec<Slot>| {
        let mut items: Vec<AnyValue> = items.into_iter().map(|x| x.resize::<0>()).collect();
        sort_values(&mut items).map(|()| repr_value(List::from_vec(items).into_any().value()))
    };
    assert_eq!(sorted(vec![i(3), b(true), i(-2)]).unwrap(), "[-2, True, 3]");
    assert_eq!(sorted(vec![s("b"), s("B"), s("a")]).unwrap(), "['B', 'a', 'b']");
    assert_eq!(sorted(vec![u("é"), s("z"), s("a")]).unwrap(), "['a', 'z', 'é']");
    assert_eq!(sorted(vec![f(2.5), i(1), b(false), f(1.0)]).unwrap(), "[False, 1, 1.0, 2.5]");
    assert_eq!(sorted(vec![f(1.0), i(1), b(true)]).unwrap(), "[1.0, 1, True]");
    assert_eq!(sorted(vec![list(vec![i(2)]), list(vec![i(1), i(5)])]).unwrap(), "[[1, 5], [2]]");
    assert_eq!(
        err(sorted(vec![i(1), s("a")])),
        (ErrorKind::Type, "'<' not supported between instances of 'str' and 'int'".into())
    );
}

#[test]
fn python_whitespace_in_dict_update() {
    let mut d = Dict::new();
    dict_update_from(&mut d, list(vec![list(vec![i(1), i(2)]), s("ab")]).value()).unwrap();
    assert_eq!(format!("{d:?}"), "{1: 2, 'a': 'b'}");
    assert_eq!(
        err(dict_update_from(&mut d, list(vec![list(vec![i(1), i(2), i(3)])]).value())),
        (ErrorKind::Value, "dictionary update sequence element #0 has length 3; 2 is required".into())
    );
    assert_eq!(
        err(dict_update_from(&mut d, list(vec![i(1)]).value())),
        (ErrorKind::Type, "cannot convert dictionary update sequence element #0 to a sequence".into())
    );
}
