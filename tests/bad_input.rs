//! Bad input is an `Err` with the right kind and message, never a panic.
//!
//! Each case states the expected outcome from an independent reference: the
//! byte offsets of invalid UTF-8 are counted by hand (and agree with where
//! Python's `bytes.decode("utf-8")` reports the first bad byte), index rules
//! are Python's (`IndexError` for `l[3]` on a 3-list, negative indices count
//! from the end), and the message formats are the ones the crate documents:
//! `expected T, got U`, `NAME: expected 2 arguments, got 1`,
//! `NAME: argument I: expected T, got U`, `list item I: ...`.
//! A closure that panics inside a `PackedFunc` must come back as a runtime
//! error instead of unwinding into the caller.

use anyproc::func::Registry;
use anyproc::{AnyValue, AnyView, Dict, Error, ErrorKind, List, PackedFunc, Str, UStr, get_global_func, register_func};

fn err_of<T: std::fmt::Debug>(r: anyproc::Result<T>) -> Error {
    match r {
        Ok(v) => panic!("expected an error, got Ok({v:?})"),
        Err(e) => e,
    }
}

fn assert_err<T: std::fmt::Debug>(r: anyproc::Result<T>, kind: ErrorKind, shown: &str) {
    let e = err_of(r);
    assert_eq!(e.kind(), kind, "kind of {e}");
    assert_eq!(e.to_string(), shown);
}

#[test]
fn invalid_utf8_names_the_first_bad_byte() {
    // (input, offset of the first byte that is not part of a valid sequence, counted by hand)
    let cases: &[(&[u8], usize)] = &[
        (b"ab\xffcd", 2),      // 0xff never occurs in UTF-8
        (b"\xff", 0),          //
        (b"abc\xe6\x97", 3),   // a 3-byte lead (日 = e6 97 a5) cut short at the end
        (b"h\xc3\xa9\x80", 3), // "hé" then a stray continuation byte
        (b"\xc0\x80", 0),      // overlong encoding of U+0000
        (b"a\xed\xa0\x80", 1), // a UTF-16 surrogate (U+D800) encoded as UTF-8
    ];
    for &(bytes, offset) in cases {
        let e = err_of(Str::from_utf8(bytes));
        assert_eq!(e.kind(), ErrorKind::Value, "{bytes:?}");
        assert_eq!(e.message(), format!("invalid UTF-8 at byte {offset}"), "{bytes:?}");
    }
    // Valid input, including multi-byte text, is accepted unchanged.
    assert_eq!(Str::from_utf8(b"h\xc3\xa9llo").unwrap().as_str(), "héllo");
    assert_eq!(Str::from_utf8(b"").unwrap().as_str(), "");
}

#[test]
fn list_index_errors_follow_python() {
    let mut l: List = vec![10i64, 20, 30].into();
    // Valid indices first, so the error cases are not vacuous: l[-1] == 30, l[-3] == 10.
    assert!(l.get(-1).unwrap() == 30i64);
    assert!(l.get(-3).unwrap() == 10i64);
    assert!(l.get(2).unwrap() == 30i64);

    assert_err(l.get(3), ErrorKind::Index, "index 3 out of range for length 3");
    assert_err(l.get(i64::MAX), ErrorKind::Index, &format!("index {} out of range for length 3", i64::MAX));
    assert_err(l.get(-4), ErrorKind::Index, "index -4 out of range for length 3");
    assert_err(l.get(i64::MIN), ErrorKind::Index, &format!("index {} out of range for length 3", i64::MIN));
    assert_err(l.set(3, 1i64), ErrorKind::Index, "index 3 out of range for length 3");
    assert_err(l.set(-4, 1i64), ErrorKind::Index, "index -4 out of range for length 3");
    // A failed set changes nothing.
    assert_eq!(l.to_vec_of::<i64>().unwrap(), vec![10, 20, 30]);

    let mut empty = List::new();
    assert_err(empty.get(0), ErrorKind::Index, "index 0 out of range for length 0");
    assert_err(empty.get(-1), ErrorKind::Index, "index -1 out of range for length 0");
    let e = err_of(empty.pop());
    assert_eq!(e.kind(), ErrorKind::Index);
    // Python: `[].pop()` raises IndexError("pop from empty list").
    assert!(e.to_string().contains("pop from empty list"), "{e}");
    // Popping the last item of a 1-list works, and then the list is empty again.
    empty.push("x");
    assert!(empty.pop().unwrap() == "x");
    assert_eq!(err_of(empty.pop()).kind(), ErrorKind::Index);
}

#[test]
fn ustr_char_at_out_of_range() {
    let u = UStr::new("日本語");
    assert_eq!(u.char_at(0).unwrap(), '日');
    assert_eq!(u.char_at(-1).unwrap(), '語');
    assert_err(u.char_at(3), ErrorKind::Index, "index 3 out of range for length 3");
    assert_err(u.char_at(-4), ErrorKind::Index, "index -4 out of range for length 3");
    assert_err(UStr::new("").char_at(0), ErrorKind::Index, "index 0 out of range for length 0");
    // A heap UCS4 string (more than 2 code points in an AnyValue) behaves alike.
    let long = UStr::new("abcdefghij");
    assert!(!long.is_inline());
    assert_eq!(long.char_at(9).unwrap(), 'j');
    assert_err(long.char_at(10), ErrorKind::Index, "index 10 out of range for length 10");
}

#[test]
fn wrong_type_unbox_names_expected_and_actual() {
    assert_err(AnyValue::from("x").get::<i64>(), ErrorKind::Type, "expected int, got str");
    // The heap and UCS4 forms report their own names.
    assert_err(AnyValue::from("a heap string").get::<i64>(), ErrorKind::Type, "expected int, got str");
    assert_err(AnyValue::from_chars(&['a', 'b', 'c']).get::<i64>(), ErrorKind::Type, "expected int, got ustr");
    assert_err(AnyValue::from(5i64).get::<List>(), ErrorKind::Type, "expected list, got int");
    assert_err(AnyValue::from(List::new()).get::<Dict>(), ErrorKind::Type, "expected dict, got list");
    assert_err(AnyValue::none().get::<String>(), ErrorKind::Type, "expected str, got None");
    assert_err(AnyValue::from(1.5).get::<i64>(), ErrorKind::Type, "expected int, got float");
    // Python's bool is an int, but an int is not a bool.
    assert_eq!(AnyValue::from(true).get::<i64>().unwrap(), 1);
    assert_err(AnyValue::from(1i64).get::<bool>(), ErrorKind::Type, "expected bool, got int");
    assert_err(AnyValue::from(3i64).get::<PackedFunc>(), ErrorKind::Type, "expected func, got int");
    assert_err(AnyValue::from_bytes(b"x").get::<String>(), ErrorKind::Type, "expected str, got bytes");

    // i32 range is [-2^31, 2^31 - 1]: the bounds unbox, one past them does not.
    assert_eq!(AnyValue::from(2_147_483_647i64).get::<i32>().unwrap(), i32::MAX);
    assert_eq!(AnyValue::from(-2_147_483_648i64).get::<i32>().unwrap(), i32::MIN);
    // i32::MAX + 1, i32::MIN - 1 and 2^40 = 1099511627776 are ints, just too wide for an i32.
    assert_err(
        AnyValue::from(2_147_483_648i64).get::<i32>(),
        ErrorKind::Value,
        "int 2147483648 is out of range for int32",
    );
    assert_err(
        AnyValue::from(-2_147_483_649i64).get::<i32>(),
        ErrorKind::Value,
        "int -2147483649 is out of range for int32",
    );
    assert_err(
        AnyValue::from(1i64 << 40).get::<i32>(),
        ErrorKind::Value,
        "int 1099511627776 is out of range for int32",
    );
    assert_err(AnyValue::from("7").get::<i32>(), ErrorKind::Type, "expected int, got str");
    assert_err(
        AnyValue::from(-1i64).get::<usize>(),
        ErrorKind::Value,
        "int -1 is out of range for a non-negative size",
    );
}

#[test]
fn dict_missing_key_is_a_key_error() {
    let mut d = Dict::new();
    d.set("present", 1i64);
    assert!(d.get_item("present").unwrap() == 1i64);
    let e = err_of(d.get_item("missing"));
    assert_eq!(e.kind(), ErrorKind::Key);
    // Python's KeyError shows the key's repr: 'missing'.
    assert!(e.to_string().contains("'missing'"), "{e}");
    // An int key 1 is missing too: the dict holds the *string* "present" only.
    assert_eq!(err_of(d.get_item(1i64)).kind(), ErrorKind::Key);
    assert!(d.get("missing").is_none());
}

#[test]
fn typed_function_arity_and_argument_errors() {
    let add = PackedFunc::from_typed("bad.add", |a: i64, b: i64| a + b);
    assert!(add.call(&[2i64.into(), 3i64.into()]).unwrap() == 5i64);
    assert_err(add.call(&[1i64.into()]), ErrorKind::Arity, "bad.add: expected 2 arguments, got 1");
    assert_err(add.call(&[]), ErrorKind::Arity, "bad.add: expected 2 arguments, got 0");
    assert_err(
        add.call(&[1i64.into(), 2i64.into(), 3i64.into()]),
        ErrorKind::Arity,
        "bad.add: expected 2 arguments, got 3",
    );
    assert_err(add.call(&[1i64.into(), "x".into()]), ErrorKind::Type, "bad.add: argument 1: expected int, got str");
    assert_err(add.call(&["x".into(), 1i64.into()]), ErrorKind::Type, "bad.add: argument 0: expected int, got str");

    let neg = PackedFunc::from_typed("bad.neg", |a: i64| -a);
    assert_err(neg.call(&[]), ErrorKind::Arity, "bad.neg: expected 1 argument, got 0");

    // An error returned by the function itself carries the function's name as context.
    let checked = PackedFunc::from_typed("bad.checked", |a: i64| -> anyproc::Result<i64> {
        if a < 0 { Err(Error::value("negative input")) } else { Ok(a) }
    });
    assert!(checked.call(&[4i64.into()]).unwrap() == 4i64);
    assert_err(checked.call(&[(-1i64).into()]), ErrorKind::Value, "bad.checked: negative input");
}

#[test]
fn a_panic_inside_a_function_becomes_a_runtime_error() {
    // Literal message: the panic payload is a &'static str.
    let f = PackedFunc::new(|_| panic!("kaboom"));
    let e = err_of(f.call(&[]));
    assert_eq!(e.kind(), ErrorKind::Runtime);
    assert!(e.to_string().contains("kaboom"), "{e}");

    // Formatted message: the payload is a String.
    let g = PackedFunc::from_typed("bad.panics", |n: i64| -> i64 { panic!("bad value {n}") });
    let e = err_of(g.call(&[42i64.into()]));
    assert_eq!(e.kind(), ErrorKind::Runtime);
    assert!(e.to_string().contains("bad value 42"), "{e}");

    // A panic from std inside user code (slice index out of bounds).
    let h = PackedFunc::from_typed("bad.index", |i: i64| -> i64 {
        let v = [1i64, 2, 3];
        v[i as usize]
    });
    assert!(h.call(&[1i64.into()]).unwrap() == 2i64);
    assert_eq!(err_of(h.call(&[7i64.into()])).kind(), ErrorKind::Runtime);

    // The function is still usable after it panicked.
    assert!(h.call(&[2i64.into()]).unwrap() == 3i64);
}

#[test]
fn registry_duplicates_and_overrides() {
    let reg = Registry::default();
    reg.register("t.f", "() -> int", "first", PackedFunc::new(|_| Ok(1i64.into())), false).unwrap();
    let e = err_of(reg.register("t.f", "() -> int", "second", PackedFunc::new(|_| Ok(2i64.into())), false));
    assert_eq!(e.kind(), ErrorKind::Duplicate);
    assert!(e.to_string().contains("\"t.f\""), "{e}");
    // The failed registration left the first function in place.
    assert!(reg.get("t.f").unwrap().call(&[]).unwrap() == 1i64);

    reg.register("t.f", "() -> int", "second", PackedFunc::new(|_| Ok(2i64.into())), true).unwrap();
    assert!(reg.get("t.f").unwrap().call(&[]).unwrap() == 2i64);
    assert_eq!(reg.info("t.f").unwrap().doc, "second");

    // Typed registration follows the same rule.
    let e = err_of(reg.register_typed("t.f", "typed", |a: i64| a, false));
    assert_eq!(e.kind(), ErrorKind::Duplicate);
    reg.register_typed("t.f", "typed", |a: i64| a * 10, true).unwrap();
    assert!(reg.get("t.f").unwrap().call(&[3i64.into()]).unwrap() == 30i64);

    assert_eq!(
        err_of(reg.register("", "()", "", PackedFunc::new(|_| Ok(AnyValue::none())), false)).kind(),
        ErrorKind::Value
    );
}

#[test]
fn misspelled_names_get_a_suggestion() {
    let reg = Registry::default();
    for name in ["text.lower", "text.upper", "tok.split"] {
        reg.register(name, "(str) -> str", "", PackedFunc::new(|_| Ok(AnyValue::none())), false).unwrap();
    }
    let e = err_of(reg.get("text.lowr"));
    assert_eq!(e.kind(), ErrorKind::Key);
    assert!(e.to_string().contains("did you mean \"text.lower\"?"), "{e}");
    let e = err_of(reg.get("tok.splt"));
    assert!(e.to_string().contains("did you mean \"tok.split\"?"), "{e}");
    // Nothing is close to this one, so nothing is suggested.
    let e = err_of(reg.get("completely.different.name"));
    assert_eq!(e.kind(), ErrorKind::Key);
    assert!(!e.to_string().contains("did you mean"), "{e}");

    // And through the global registry, with a name unique to this test.
    register_func(
        "bad_input_test.normalize_text",
        "(str) -> str",
        "",
        PackedFunc::new(|_| Ok(AnyValue::none())),
        false,
    )
    .unwrap();
    let e = err_of(get_global_func("bad_input_test.normalise_text"));
    assert_eq!(e.kind(), ErrorKind::Key);
    assert!(e.to_string().contains("did you mean \"bad_input_test.normalize_text\"?"), "{e}");
}

#[test]
fn to_vec_of_names_the_bad_item() {
    let l = List::from(vec![AnyValue::from(1i64), AnyValue::from(2i64), AnyValue::from("x"), AnyValue::from(4i64)]);
    let e = err_of(l.to_vec_of::<i64>());
    assert_eq!(e.kind(), ErrorKind::Type);
    assert_eq!(e.to_string(), "list item 2: expected int, got str");
    assert_eq!(e.message(), "expected int, got str");
    assert_eq!(e.frames().collect::<Vec<_>>(), vec!["list item 2"]);
    // The first bad item is reported, not a later one.
    let l = List::from(vec![AnyValue::from(1i64), AnyValue::none(), AnyValue::from("x")]);
    assert_eq!(err_of(l.to_vec_of::<i64>()).to_string(), "list item 1: expected int, got None");
}

#[test]
fn calling_something_that_is_not_a_function() {
    let l = List::from(vec![1i64]);
    let v = AnyValue::from(l);
    let e = err_of(anyproc::func::call_obj(v.as_obj().unwrap(), &[AnyView::from(1i64)]));
    assert_eq!(e.kind(), ErrorKind::Type);
    assert_eq!(e.to_string(), "expected func, got list");
}
