use super::*;
use crate::ErrorKind;
use crate::pipeline::test_values::*;

/// `repr(name(*args))`, or the error as (kind, message).
fn call(name: &str, args: &[Slot]) -> std::result::Result<String, (ErrorKind, String)> {
    let bi = Builtin::from_name(name).expect(name);
    let views: Vec<AnyView<'_>> = args.iter().map(|a| a.view()).collect();
    call_builtin(bi, &views).map(|r| repr_value(r.value())).map_err(|e| (e.kind(), e.message().into()))
}
fn ok(name: &str, args: &[Slot]) -> String {
    call(name, args).unwrap_or_else(|e| panic!("{name}: {e:?}"))
}
fn err_of(name: &str, args: &[Slot]) -> (ErrorKind, String) {
    call(name, args).expect_err(name)
}
fn te(m: &str) -> (ErrorKind, String) {
    (ErrorKind::Type, m.into())
}
/// CPython's OverflowError (an int past i64 is a big int in CPython, an overflow here).
fn oe(m: &str) -> (ErrorKind, String) {
    (ErrorKind::Overflow, m.to_owned())
}
fn ve(m: &str) -> (ErrorKind, String) {
    (ErrorKind::Value, m.into())
}

#[test]
fn names_and_arity() {
    for &bi in Builtin::ALL {
        assert_eq!(Builtin::from_name(bi.name()), Some(bi));
    }
    assert_eq!(Builtin::from_name("callable"), None);
    assert_eq!(Builtin::from_name("isinstance"), Some(Builtin::Isinstance));
    assert_eq!(Builtin::Range.arity(), (1, 3));
    assert_eq!(Builtin::Zip.arity(), (0, VARIADIC));
    assert_eq!(err_of("len", &[]), te("len() takes exactly one argument (0 given)"));
    assert_eq!(err_of("range", &[]), te("range expected at least 1 argument, got 0"));
    assert_eq!(err_of("range", &[i(1), i(2), i(3), i(4)]), te("range expected at most 3 arguments, got 4"));
    assert_eq!(err_of("int", &[i(1), i(2), i(3)]), te("int() takes at most 2 arguments (3 given)"));
    assert_eq!(err_of("min", &[]), te("min expected at least 1 argument, got 0"));
}

#[test]
fn len_range_bool_repr() {
    assert_eq!(ok("len", &[u("日本")]), "2");
    assert_eq!(err_of("len", &[i(1)]), te("object of type 'int' has no len()"));
    assert_eq!(ok("range", &[i(3)]), "[0, 1, 2]");
    assert_eq!(ok("range", &[i(1), i(7), i(2)]), "[1, 3, 5]");
    assert_eq!(ok("range", &[i(5), i(0), i(-2)]), "[5, 3, 1]");
    assert_eq!(ok("range", &[i(-2)]), "[]");
    assert_eq!(ok("range", &[b(true), i(3)]), "[1, 2]");
    assert_eq!(ok("range", &[i(i64::MAX - 1), i(i64::MAX)]), "[9223372036854775806]");
    assert_eq!(err_of("range", &[i(1), i(2), i(0)]), ve("range() arg 3 must not be zero"));
    assert_eq!(err_of("range", &[f(1.5)]), te("'float' object cannot be interpreted as an integer"));
    assert_eq!(err_of("range", &[i(i64::MIN), i(i64::MAX)]).0, ErrorKind::Value);
    assert_eq!(ok("bool", &[]), "False");
    assert_eq!(ok("bool", &[s("0")]), "True");
    assert_eq!(ok("bool", &[list(vec![])]), "False");
    assert_eq!(ok("repr", &[s("it's")]), "'\"it\\'s\"'");
    assert_eq!(ok("repr", &[f(1e16)]), "'1e+16'");
}

#[test]
fn str_conversion() {
    assert_eq!(ok("str", &[]), "''");
    assert_eq!(ok("str", &[f(1e16)]), "'1e+16'");
    assert_eq!(ok("str", &[f(1.5e-7)]), "'1.5e-07'");
    assert_eq!(ok("str", &[f(2.0)]), "'2.0'");
    assert_eq!(ok("str", &[i(-3)]), "'-3'");
    assert_eq!(ok("str", &[i(0)]), "'0'");
    assert_eq!(ok("str", &[i(i64::MIN)]), "'-9223372036854775808'");
    assert_eq!(ok("str", &[i(i64::MAX)]), "'9223372036854775807'");
    assert_eq!(ok("str", &[none()]), "'None'");
    assert_eq!(ok("str", &[b(false)]), "'False'");
    assert_eq!(ok("str", &[list(vec![s("a"), f(0.5)])]), "\"['a', 0.5]\"");
    assert!(matches!(call_builtin(Builtin::Str, &[u("é").view()]).unwrap().value(), Value::UStr(_)));
}

#[test]
fn int_conversion() {
    assert_eq!(ok("int", &[]), "0");
    assert_eq!(ok("int", &[b(true)]), "1");
    assert_eq!(ok("int", &[f(-3.9)]), "-3");
    assert_eq!(ok("int", &[f(-0.5)]), "0");
    assert_eq!(ok("int", &[s(" 1_0 ")]), "10");
    assert_eq!(ok("int", &[s("\x0b-5\x0c")]), "-5");
    assert_eq!(ok("int", &[s("+7")]), "7");
    assert_eq!(ok("int", &[s("-0")]), "0");
    assert_eq!(ok("int", &[s("007")]), "7");
    assert_eq!(ok("int", &[u("١٢")]), "12");
    assert_eq!(ok("int", &[s("\u{2003}5\u{3000}")]), "5");
    assert_eq!(ok("int", &[s("-9223372036854775808")]), "-9223372036854775808");
    assert_eq!(ok("int", &[s("z"), i(36)]), "35");
    assert_eq!(ok("int", &[s("0x1f"), i(16)]), "31");
    assert_eq!(ok("int", &[s("0x_1f"), i(16)]), "31");
    assert_eq!(ok("int", &[s("0x1f"), i(0)]), "31");
    assert_eq!(ok("int", &[s("0b101"), i(0)]), "5");
    assert_eq!(ok("int", &[s("0o17"), i(0)]), "15");
    assert_eq!(ok("int", &[s("  0_0  "), i(0)]), "0");
    assert_eq!(ok("int", &[s("0b1"), i(16)]), "177");
    assert_eq!(ok("int", &[s("ff"), i(16)]), "255");
    assert_eq!(ok("int", &[Slot::from_bytes(b"12")]), "12");
    let bad = |x: &str| ve(&format!("invalid literal for int() with base 10: {x}"));
    assert_eq!(err_of("int", &[s("x")]), bad("'x'"));
    assert_eq!(err_of("int", &[s("1_")]), bad("'1_'"));
    assert_eq!(err_of("int", &[s("_1")]), bad("'_1'"));
    assert_eq!(err_of("int", &[s("1__0")]), bad("'1__0'"));
    assert_eq!(err_of("int", &[s("")]), bad("''"));
    assert_eq!(err_of("int", &[s("1.5")]), bad("'1.5'"));
    assert_eq!(err_of("int", &[s("\x1c5")]), bad("'\\x1c5'"));
    assert_eq!(err_of("int", &[s("0x1f")]), bad("'0x1f'"));
    assert_eq!(err_of("int", &[s("010"), i(0)]), ve("invalid literal for int() with base 0: '010'"));
    // CPython's `%.200R`: the repr cut to 200 characters, its closing quote among those cut.
    let long = "x".repeat(300);
    assert_eq!(
        err_of("int", &[s(&long)]),
        ve(&format!("invalid literal for int() with base 10: '{}", "x".repeat(199)))
    );
    assert_eq!(err_of("int", &[s("1"), i(1)]), ve("int() base must be >= 2 and <= 36, or 0"));
    assert_eq!(err_of("int", &[f(1.5), i(10)]), te("int() can't convert non-string with explicit base"));
    assert_eq!(err_of("int", &[s("9223372036854775808")]), oe("integer overflow in int()"));
    assert_eq!(err_of("int", &[s("1".repeat(40).as_str())]), oe("integer overflow in int()"));
    assert_eq!(err_of("int", &[f(f64::NAN)]), ve("cannot convert float NaN to integer"));
    assert_eq!(err_of("int", &[f(f64::INFINITY)]), oe("cannot convert float infinity to integer"));
    assert_eq!(err_of("int", &[f(1e19)]), oe("integer overflow in int()"));
    assert_eq!(
        err_of("int", &[none()]),
        te("int() argument must be a string, a bytes-like object or a real number, not 'NoneType'")
    );
}

#[test]
fn float_conversion() {
    assert_eq!(ok("float", &[]), "0.0");
    assert_eq!(ok("float", &[i(3)]), "3.0");
    assert_eq!(ok("float", &[b(true)]), "1.0");
    assert_eq!(ok("float", &[s(" 1_0.5 ")]), "10.5");
    assert_eq!(ok("float", &[s(" -inf ")]), "-inf");
    assert_eq!(ok("float", &[s("Infinity")]), "inf");
    assert_eq!(ok("float", &[s("nan")]), "nan");
    assert_eq!(ok("float", &[s("-NaN")]), "nan");
    assert_eq!(ok("float", &[s("1e5")]), "100000.0");
    assert_eq!(ok("float", &[s(".5")]), "0.5");
    assert_eq!(ok("float", &[s("5.")]), "5.0");
    assert_eq!(ok("float", &[s("1e500")]), "inf");
    assert_eq!(ok("float", &[u("١.٥")]), "1.5");
    assert_eq!(ok("float", &[s("١_٢")]), "12.0");
    assert_eq!(ok("float", &[s("\u{2003}5")]), "5.0");
    let bad = |x: &str| ve(&format!("could not convert string to float: {x}"));
    for x in ["x", "1__0", "_1", "1_e5", "", "infinit", "0x10", "\x1c5", "1e", "."] {
        assert_eq!(err_of("float", &[s(x)]), bad(&repr_value(Value::Str(x))), "{x:?}");
    }
    assert_eq!(err_of("float", &[list(vec![])]), te("float() argument must be a string or a real number, not 'list'"));
}

#[test]
fn containers() {
    assert_eq!(ok("list", &[]), "[]");
    assert_eq!(ok("list", &[s("日本")]), "['日', '本']");
    assert_eq!(ok("tuple", &[list(vec![i(1)])]), "(1,)");
    assert_eq!(ok("tuple", &[]), "()");
    assert_eq!(ok("list", &[dict(vec![(s("a"), i(1))])]), "['a']");
    assert_eq!(err_of("list", &[i(1)]), te("'int' object is not iterable"));
    // list() copies.
    let l = list(vec![i(1)]);
    let c = call_builtin(Builtin::List, &[l.view()]).unwrap();
    assert!(!super::super::value_ops::compare(super::super::ast::CmpOp::Is, l.view(), c.view()).unwrap());
    assert_eq!(ok("dict", &[]), "{}");
    assert_eq!(ok("dict", &[list(vec![list(vec![s("a"), i(1)]), s("bc")])]), "{'a': 1, 'b': 'c'}");
    assert_eq!(ok("dict", &[dict(vec![(i(1), i(2))])]), "{1: 2}");
    assert_eq!(err_of("dict", &[list(vec![list(vec![i(1), i(2), i(3)])])]).0, ErrorKind::Value);
    assert_eq!(err_of("dict", &[list(vec![i(1)])]).0, ErrorKind::Type);
    assert_eq!(ok("sorted", &[s("bca")]), "['a', 'b', 'c']");
    assert_eq!(ok("sorted", &[list(vec![f(2.5), i(-1), b(true)])]), "[-1, True, 2.5]");
    assert_eq!(ok("sorted", &[dict(vec![(s("b"), i(1)), (s("a"), i(2))])]), "['a', 'b']");
    assert_eq!(
        err_of("sorted", &[list(vec![i(1), s("a")])]),
        te("'<' not supported between instances of 'str' and 'int'")
    );
    assert_eq!(ok("reversed", &[s("abc")]), "['c', 'b', 'a']");
    assert_eq!(ok("reversed", &[list(vec![i(1), i(2)])]), "[2, 1]");
    assert_eq!(err_of("reversed", &[i(1)]), te("'int' object is not reversible"));
    assert_eq!(ok("enumerate", &[s("ab"), i(1)]), "[(1, 'a'), (2, 'b')]");
    assert_eq!(ok("enumerate", &[list(vec![])]), "[]");
    assert_eq!(err_of("enumerate", &[list(vec![]), f(1.5)]), te("'float' object cannot be interpreted as an integer"));
    assert_eq!(ok("zip", &[list(vec![i(1), i(2), i(3)]), s("ab")]), "[(1, 'a'), (2, 'b')]");
    assert_eq!(ok("zip", &[list(vec![i(1)])]), "[(1,)]");
    assert_eq!(ok("zip", &[]), "[]");
    assert_eq!(err_of("zip", &[list(vec![]), i(1)]), te("'int' object is not iterable"));
    assert_eq!(ok("any", &[list(vec![i(0), s("")])]), "False");
    assert_eq!(ok("any", &[list(vec![i(0), s("x")])]), "True");
    assert_eq!(ok("all", &[list(vec![])]), "True");
    assert_eq!(ok("all", &[list(vec![i(1), none()])]), "False");
}

#[test]
fn min_max_sum_abs() {
    assert_eq!(ok("min", &[s("bca")]), "'a'");
    assert_eq!(ok("max", &[dict(vec![(s("a"), i(1)), (s("b"), i(2))])]), "'b'");
    assert_eq!(ok("max", &[i(1), f(2.0), i(2)]), "2.0");
    assert_eq!(ok("min", &[list(vec![i(3), f(1.0), i(1)])]), "1.0");
    assert_eq!(ok("max", &[list(vec![f(f64::NAN), i(1)])]), "nan");
    assert_eq!(ok("max", &[list(vec![i(1), f(f64::NAN)])]), "1");
    assert_eq!(ok("min", &[u("日本"), s("z")]), "'z'");
    assert_eq!(err_of("min", &[list(vec![])]), ve("min() arg is an empty sequence"));
    assert_eq!(err_of("max", &[s("")]), ve("max() arg is an empty sequence"));
    assert_eq!(err_of("min", &[i(1)]), te("'int' object is not iterable"));
    assert_eq!(err_of("max", &[i(1), s("a")]), te("'>' not supported between instances of 'str' and 'int'"));
    assert_eq!(ok("sum", &[list(vec![i(1), f(2.5)])]), "3.5");
    assert_eq!(ok("sum", &[list(vec![f(0.1); 10])]), "0.9999999999999999");
    assert_eq!(ok("sum", &[list(vec![f(1e100), f(1.0), f(-1e100)])]), "0.0");
    assert_eq!(ok("sum", &[list(vec![list(vec![i(1)]), list(vec![i(2)])]), list(vec![])]), "[1, 2]");
    assert_eq!(ok("sum", &[list(vec![]), i(5)]), "5");
    assert_eq!(ok("sum", &[list(vec![b(true), b(true)])]), "2");
    assert_eq!(err_of("sum", &[list(vec![s("a")]), s("")]), te("sum() can't sum strings [use ''.join(seq) instead]"));
    assert_eq!(err_of("sum", &[list(vec![s("a")])]), te("unsupported operand type(s) for +: 'int' and 'str'"));
    assert_eq!(err_of("sum", &[list(vec![i(i64::MAX), i(1)])]), oe("integer overflow in +"));
    assert_eq!(ok("abs", &[i(-3)]), "3");
    assert_eq!(ok("abs", &[f(-0.0)]), "0.0");
    assert_eq!(ok("abs", &[b(true)]), "1");
    assert_eq!(err_of("abs", &[s("a")]), te("bad operand type for abs(): 'str'"));
    assert_eq!(err_of("abs", &[i(i64::MIN)]), oe("integer overflow in abs()"));
}

#[test]
fn ord_chr() {
    assert_eq!(ok("ord", &[s("é")]), "233");
    assert_eq!(ok("ord", &[u("😀")]), "128512");
    assert_eq!(ok("ord", &[Slot::from_bytes(b"a")]), "97");
    assert_eq!(err_of("ord", &[s("ab")]), te("ord() expected a character, but string of length 2 found"));
    assert_eq!(err_of("ord", &[s("")]), te("ord() expected a character, but string of length 0 found"));
    assert_eq!(err_of("ord", &[i(1)]), te("ord() expected string of length 1, but int found"));
    assert_eq!(ok("chr", &[i(26085)]), "'日'");
    assert_eq!(ok("chr", &[i(0)]), "'\\x00'");
    assert!(!call_builtin(Builtin::Chr, &[i(0x1F600).view()]).unwrap().is_object());
    assert_eq!(err_of("chr", &[i(-1)]), ve("chr() arg not in range(0x110000)"));
    assert_eq!(err_of("chr", &[i(0x110000)]), ve("chr() arg not in range(0x110000)"));
    assert_eq!(err_of("chr", &[i(0xD800)]).0, ErrorKind::Value);
    assert_eq!(err_of("chr", &[f(1.5)]), te("'float' object cannot be interpreted as an integer"));
}

#[test]
fn rounding() {
    assert_eq!(ok("round", &[f(2.5)]), "2");
    assert_eq!(ok("round", &[f(0.5)]), "0");
    assert_eq!(ok("round", &[f(1.5)]), "2");
    assert_eq!(ok("round", &[f(-0.5)]), "0");
    assert_eq!(ok("round", &[f(-2.5)]), "-2");
    assert_eq!(ok("round", &[f(2.7), none()]), "3");
    assert_eq!(ok("round", &[f(2.675), i(2)]), "2.67");
    assert_eq!(ok("round", &[f(0.125), i(2)]), "0.12");
    assert_eq!(ok("round", &[f(0.375), i(2)]), "0.38");
    assert_eq!(ok("round", &[f(2.5), i(0)]), "2.0");
    assert_eq!(ok("round", &[f(-0.4), i(0)]), "-0.0");
    assert_eq!(ok("round", &[f(-0.0), i(1)]), "-0.0");
    assert_eq!(ok("round", &[f(1234.5678), i(-2)]), "1200.0");
    assert_eq!(ok("round", &[f(-1234.5), i(-1)]), "-1230.0");
    assert_eq!(ok("round", &[f(150.0), i(-2)]), "200.0");
    assert_eq!(ok("round", &[f(250.0), i(-2)]), "200.0");
    assert_eq!(ok("round", &[f(250.0000001), i(-2)]), "300.0");
    assert_eq!(ok("round", &[f(49.0), i(-2)]), "0.0");
    assert_eq!(ok("round", &[f(951.0), i(-3)]), "1000.0");
    assert_eq!(ok("round", &[f(1.23456), i(10)]), "1.23456");
    assert_eq!(ok("round", &[f(1.5), i(400)]), "1.5");
    assert_eq!(ok("round", &[f(123.0), i(-400)]), "0.0");
    assert_eq!(ok("round", &[f(5e-324), i(400)]), "5e-324");
    assert_eq!(ok("round", &[f(1e308), i(-308)]), "1e+308");
    assert_eq!(err_of("round", &[f(1.7976931348623157e308), i(-308)]), ve("rounded value too large to represent"));
    assert_eq!(ok("round", &[f(f64::INFINITY), i(2)]), "inf");
    assert_eq!(ok("round", &[i(15), i(-1)]), "20");
    assert_eq!(ok("round", &[i(25), i(-1)]), "20");
    assert_eq!(ok("round", &[i(-25), i(-1)]), "-20");
    assert_eq!(ok("round", &[i(1), i(2)]), "1");
    assert_eq!(ok("round", &[b(true)]), "1");
    assert_eq!(ok("round", &[b(true), i(1)]), "1");
    assert_eq!(ok("round", &[i(i64::MAX), i(-40)]), "0");
    assert_eq!(err_of("round", &[i(i64::MAX), i(-1)]), oe("integer overflow in round()"));
    assert_eq!(err_of("round", &[f(f64::NAN)]), ve("cannot convert float NaN to integer"));
    assert_eq!(err_of("round", &[f(f64::INFINITY)]), oe("cannot convert float infinity to integer"));
    assert_eq!(err_of("round", &[f(1.5), f(1.5)]), te("'float' object cannot be interpreted as an integer"));
    assert_eq!(err_of("round", &[s("a")]), te("type str doesn't define __round__ method"));
}
