use anyproc::*;

#[test]
fn smoke() {
    let a = AnyValue::from("ab");
    let b = AnyValue::from_object(anyproc::any::heap_kinds::StrObj::from_slice(b"ab"));
    let c = AnyValue::from_chars(&['a', 'b']);
    assert_eq!(a, b);
    assert_eq!(a, c);
    assert_eq!(format!("{a:?} {b} {c:?}"), "'ab' ab 'ab'");
    let long = AnyValue::from("hello world, long");
    assert!(long.is_object());
    let p: AnyPad<1> = AnyPad::from("hello world, lon");
    assert!(!p.is_object());
    let v: AnyValue = p.clone().into();
    assert!(v.is_object());
    assert_eq!(v, p);
    let mut l = List::new();
    l.push(1i64);
    l.push("x");
    l.push(p);
    let mut d = Dict::new();
    d.set("k", l.clone());
    d.set(2i64, 2.5f64);
    l.push(AnyValue::from(d.clone()));
    println!("{:?}", l);
    assert_eq!(d.get("k").unwrap().get::<List>().unwrap().len(), 4);
    assert_eq!(d.get(2i64).unwrap(), AnyValue::from(2.5));
    let f = PackedFunc::from_typed("t.add", |a: i64, b: i64| a + b);
    assert_eq!(f.call(&[1i64.into(), 2i64.into()]).unwrap(), 3i64);
    let e = f.call(&[1i64.into(), "x".into()]).unwrap_err();
    assert_eq!(e.to_string(), "t.add: argument 1: expected int, got str");
    let e = f.call(&[1i64.into()]).unwrap_err();
    assert_eq!(e.to_string(), "t.add: expected 2 arguments, got 1");
    let nop = get_global_func("testing.nop").unwrap();
    assert!(nop.call(&[]).unwrap().is_none());
    let echo = get_global_func("testing.echo").unwrap();
    assert_eq!(echo.call(&["héllo wörld long".into()]).unwrap(), "héllo wörld long");
    assert!(get_global_func("testing.nap").unwrap_err().to_string().contains("did you mean \"testing.nop\""));
    let fl = List::from(vec![AnyValue::from(f.clone())]);
    let g: PackedFunc = fl.get(0).unwrap().get().unwrap();
    assert_eq!(g.call(&[5i64.into(), 6i64.into()]).unwrap(), 11i64);
    let boxed = AnyValue::from(7i64).into_object_boxed().unwrap();
    let bv = AnyValue::from_object(boxed);
    assert!(bv.is_object());
    let inc = PackedFunc::from_typed("inc", |x: i64| x + 1);
    assert_eq!(inc.call(&[bv.view()]).unwrap(), 8i64);
    assert_eq!(bv, 7.0f64.into_any());
    // `l` and `d` hold each other: a reference cycle, which (like `Rc`) is broken by hand.
    l.pop().unwrap();
}

trait IntoAny {
    fn into_any(self) -> AnyValue;
}
impl IntoAny for f64 {
    fn into_any(self) -> AnyValue {
        AnyValue::from(self)
    }
}

/// `AnyValue::from(char)` computes UTF-8 by hand; std's `encode_utf8` is the reference, for every char.
#[test]
fn one_char_strings_hold_the_utf8_of_every_char() {
    let mut buf = [0u8; 4];
    for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
        let want = c.encode_utf8(&mut buf);
        let v = AnyValue::from(c);
        assert!(!v.is_object());
        assert_eq!(v.value().as_str(), Some(&*want), "U+{:04X}", c as u32);
    }
}

#[test]
fn list_extend_and_with_items_mut_own_or_shared() {
    use anyproc::{AnyValue, List};
    // Owned: filled in place.
    let mut list: List = vec![1i64, 2].into();
    list.extend([3i64, 4]);
    list.with_items_mut(|items| items.push(AnyValue::from(5i64)));
    assert_eq!(list.to_vec_of::<i64>().unwrap(), vec![1, 2, 3, 4, 5]);
    // Shared: extending with the list's own items reads them before the write (no deadlock),
    // and both handles see the result.
    let other = list.clone();
    list.extend(other.iter());
    assert_eq!(other.to_vec_of::<i64>().unwrap(), vec![1, 2, 3, 4, 5, 1, 2, 3, 4, 5]);
    let mut shared = other.clone();
    shared.with_items_mut(|items| items.truncate(2));
    assert_eq!(list.to_vec_of::<i64>().unwrap(), vec![1, 2]);
}
