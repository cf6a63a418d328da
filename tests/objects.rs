//! Heap objects: the type registry, custom object types, pools, copy-on-write and functions as objects.
//!
//! (a) The registry places children in their parent's reserved index range while
//!     it lasts and marks the parent overflowed after that; `is_instance` must
//!     agree with the declared hierarchy either way (true for children and
//!     grandchildren, false for siblings, parents and unrelated types, true
//!     against the root `OBJECT`). Expected indices are derived by hand from the
//!     documented rule "a type reserves `index + 1 ..= index + child_slots`".
//! (b) A user-defined `repr(C)` object type survives a trip through `AnyValue`
//!     and `List` and downcasts back, while a downcast to another type is `None`;
//!     its Rust destructor runs exactly once, when the last reference goes.
//! (c) `ObjectPool` reuses memory: 100 made, dropped, 100 made again is 100 fresh
//!     slots and 100 reuses, the second values are the new ones, and dropping the
//!     pool while objects live is safe.
//! (d) `ObjRef::make_mut` copies exactly when the object is shared (as
//!     `Arc::make_mut` does).
//! (e) `PackedFunc`s stored in lists and dicts are callable from there, and typed
//!     registration of closures with 0 to 6 mixed arguments computes the
//!     hand-computed results and reports signatures such as `(str, int) -> list`.
//! (f) Containers that contain themselves stay finite (docs/architecture.md:
//!     past `MAX_DEPTH` equality falls back to identity) and never hang: a list
//!     holding itself can be printed, hashed and compared, and a dict can take a
//!     key that holds the dict (Python would raise `TypeError` for such a key;
//!     here lists are hashable, so the insert must simply complete).
//!
//! The type registry is process-wide, so every key is prefixed with the test's name.

use anyproc::any::type_index::{LIST, OBJECT, STR};
use anyproc::container::ListObj;
use anyproc::func::{Registry, call_obj};
use anyproc::object::{ObjRef, ObjectPool, ObjectType, is_instance, register_type, type_info};
use anyproc::{AnyValue, AnyView, Dict, ErrorKind, List, Object, PackedFunc, Str, UStr};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

// ---------------------------------------------------------------- (a) type registry

#[test]
fn registry_ranges_overflow_and_is_instance() {
    let key = |name: &str| format!("objects_test.registry.{name}");
    let p = register_type(&key("Parent"), OBJECT, 2).unwrap();
    assert!(p >= anyproc::any::type_index::DYNAMIC_BEGIN);
    let c1 = register_type(&key("Child1"), p, 0).unwrap();
    let c2 = register_type(&key("Child2"), p, 0).unwrap();
    // The reserved range is p+1 ..= p+2, handed out in order.
    assert_eq!(c1, p + 1);
    assert_eq!(c2, p + 2);
    assert!(!type_info(p).unwrap().overflowed, "both children fit the range");
    // The third child (with one slot of its own) does not fit: it goes elsewhere.
    let c3 = register_type(&key("Child3"), p, 1).unwrap();
    assert!(!(p + 1..=p + 2).contains(&c3) && c3 != p, "c3 = {c3}, p = {p}");
    let info = type_info(p).unwrap();
    assert!(info.overflowed);
    assert_eq!(info.child_slots, 2);
    assert_eq!(info.parent, Some(OBJECT));
    // A grandchild through the overflowed child lands in that child's own range.
    let g3 = register_type(&key("Grandchild3"), c3, 0).unwrap();
    assert_eq!(g3, c3 + 1);
    assert_eq!(type_info(g3).unwrap().ancestors, vec![OBJECT, p, c3]);

    let unrelated = register_type(&key("Unrelated"), OBJECT, 4).unwrap();

    for c in [c1, c2, c3, g3] {
        assert!(is_instance(c, p), "{c} should be an instance of the parent {p}");
        assert!(is_instance(c, OBJECT));
        assert!(is_instance(c, c), "every type is an instance of itself");
        assert!(!is_instance(c, unrelated));
        assert!(!is_instance(c, LIST));
        assert!(!is_instance(p, c), "a parent is not an instance of its child");
    }
    assert!(is_instance(g3, c3));
    for (a, b) in [(c1, c2), (c2, c1), (c1, c3), (c3, c1), (c2, c3), (c3, c2), (g3, c1), (g3, c2), (c1, g3)] {
        assert!(!is_instance(a, b), "siblings {a} and {b}");
    }
    assert!(!is_instance(unrelated, p));
    assert!(!is_instance(LIST, p));
    assert!(!is_instance(STR, LIST));
    assert!(is_instance(p, OBJECT) && is_instance(unrelated, OBJECT) && is_instance(LIST, OBJECT));

    // Nested reservations: Q reserves 3; D (1 slot of its own) takes q+1 and reserves q+2,
    // its child E takes q+2; F takes q+3; G no longer fits.
    let q = register_type(&key("Q"), OBJECT, 3).unwrap();
    let d = register_type(&key("Q.D"), q, 1).unwrap();
    let e = register_type(&key("Q.D.E"), d, 0).unwrap();
    let f = register_type(&key("Q.F"), q, 0).unwrap();
    assert_eq!((d, e, f), (q + 1, q + 2, q + 3));
    assert!(!type_info(q).unwrap().overflowed);
    assert!(is_instance(e, q) && is_instance(e, d) && is_instance(f, q) && is_instance(d, q));
    assert!(!is_instance(f, d) && !is_instance(e, f) && !is_instance(d, e));
    let g = register_type(&key("Q.G"), q, 0).unwrap();
    assert!(!(q + 1..=q + 3).contains(&g));
    assert!(type_info(q).unwrap().overflowed);
    assert!(is_instance(g, q) && !is_instance(g, d) && !is_instance(e, g));
    // A grandchild that overflows D's single slot (already taken by E).
    let e2 = register_type(&key("Q.D.E2"), d, 0).unwrap();
    assert!(type_info(d).unwrap().overflowed);
    assert!(is_instance(e2, d) && is_instance(e2, q) && !is_instance(e2, e) && !is_instance(e, e2));
    // A child of a static type.
    let sub_list = register_type(&key("SubList"), LIST, 0).unwrap();
    assert!(is_instance(sub_list, LIST) && !is_instance(sub_list, STR) && !is_instance(sub_list, q));

    // Re-registering a key gives back its index; a different parent is refused.
    assert_eq!(register_type(&key("Child1"), p, 0).unwrap(), c1);
    assert_eq!(register_type(&key("Parent"), OBJECT, 2).unwrap(), p);
    assert_eq!(register_type(&key("Child1"), q, 0).unwrap_err().kind(), ErrorKind::Duplicate);
    // An unregistered parent is a key error.
    assert_eq!(register_type(&key("Orphan"), 1_000_000, 0).unwrap_err().kind(), ErrorKind::Key);
}

// ---------------------------------------------------------------- (b) custom object types

/// Counts drops, so tests can see a destructor run exactly once.
struct DropProbe(Arc<AtomicUsize>);
impl Drop for DropProbe {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

#[repr(C)]
struct Point {
    header: Object,
    x: i64,
    y: i64,
    probe: DropProbe,
}
anyproc::declare_object_type!(Point, "objects_test.Point", parent = Object, child_slots = 4);

#[repr(C)]
struct Point3 {
    base: Point,
    z: i64,
}
anyproc::declare_object_type!(Point3, "objects_test.Point3", parent = Point, child_slots = 0);

#[repr(C)]
#[derive(Debug)]
struct Other {
    header: Object,
    tag: u8,
}
anyproc::declare_object_type!(Other, "objects_test.Other", parent = Object, child_slots = 0);

fn point(x: i64, y: i64, drops: &Arc<AtomicUsize>) -> ObjRef<Point> {
    ObjRef::new(Point { header: Object::blank(), x, y, probe: DropProbe(drops.clone()) })
}

#[test]
fn custom_objects_in_values_and_lists() {
    let drops = Arc::new(AtomicUsize::new(0));
    let p = point(3, -4, &drops);
    assert_eq!(p.header().type_index(), Point::type_index());
    let v = AnyValue::from(p);
    assert!(v.is_object());
    assert_eq!(v.type_name(), "objects_test.Point");

    let back = v.as_obj().unwrap().downcast_ref::<Point>().unwrap();
    assert_eq!((back.x, back.y), (3, -4));
    assert!(v.as_obj().unwrap().downcast_ref::<Other>().is_none());
    assert!(v.as_obj().unwrap().downcast_ref::<Point3>().is_none(), "a base is not a subtype");
    assert!(v.as_obj().unwrap().downcast_ref::<ListObj>().is_none());
    assert!(v.as_obj().unwrap().downcast_ref::<Object>().is_some());
    let e = v.get::<ObjRef<Other>>().unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Type);
    assert_eq!(e.to_string(), "expected objects_test.Other, got objects_test.Point");
    assert!(v.get::<List>().is_err());

    let mut l = List::new();
    l.push(v.clone());
    l.push(AnyValue::from(ObjRef::new(Other { header: Object::blank(), tag: 9 })));
    let item = l.get(0).unwrap();
    let from_list = item.as_obj().unwrap().downcast_ref::<Point>().unwrap();
    assert_eq!(from_list.x * from_list.x + from_list.y * from_list.y, 25);
    l.with_items(|xs| {
        assert!(xs[1].as_obj().unwrap().downcast_ref::<Point>().is_none());
        assert_eq!(xs[1].as_obj().unwrap().downcast_ref::<Other>().unwrap().tag, 9);
    });
    // Typed unboxing shares the object.
    let owned: ObjRef<Point> = l.get(0).unwrap().get().unwrap();
    assert_eq!(owned.strong_count(), 4, "v, the list's copy, `item` and `owned`");
    // Objects without value hooks compare by identity.
    assert!(item == v);
    let twin = AnyValue::from(point(3, -4, &drops));
    assert!(twin != v);
    assert!(format!("{v:?}").starts_with("<objects_test.Point object at "), "{v:?}");

    // A subtype downcasts to its base and to itself.
    let p3 = AnyValue::from(ObjRef::new(Point3 {
        base: Point { header: Object::blank(), x: 1, y: 2, probe: DropProbe(drops.clone()) },
        z: 3,
    }));
    let o = p3.as_obj().unwrap();
    assert_eq!(o.downcast_ref::<Point>().unwrap().y, 2);
    assert_eq!(o.downcast_ref::<Point3>().unwrap().z, 3);
    assert!(o.downcast_ref::<Other>().is_none());
    let as_base: ObjRef<Point> = p3.get().unwrap();
    assert_eq!(as_base.x, 1);

    // Destructors run once each, when the last reference goes.
    drop(twin);
    assert_eq!(drops.load(Ordering::SeqCst), 1);
    drop((v, item, owned));
    assert_eq!(drops.load(Ordering::SeqCst), 1, "the list still holds the point");
    l.clear();
    assert_eq!(drops.load(Ordering::SeqCst), 2);
    drop(l);
    drop(as_base);
    assert_eq!(drops.load(Ordering::SeqCst), 2, "p3 still holds the Point3");
    drop(p3);
    assert_eq!(drops.load(Ordering::SeqCst), 3);
}

// ---------------------------------------------------------------- (c) pools

#[repr(C)]
struct PoolItem {
    header: Object,
    value: u64,
    probe: DropProbe,
}
anyproc::declare_object_type!(PoolItem, "objects_test.PoolItem", parent = Object, child_slots = 0);

#[test]
fn pool_reuses_memory_and_outlives_nothing() {
    let drops = Arc::new(AtomicUsize::new(0));
    let pool: ObjectPool<PoolItem> = ObjectPool::new();
    let item = |v: u64| PoolItem { header: Object::blank(), value: v, probe: DropProbe(drops.clone()) };

    let first: Vec<ObjRef<PoolItem>> = (0..100).map(|i| pool.make(item(i))).collect();
    let mut first_addrs: Vec<usize> = first.iter().map(|o| o.as_raw().as_ptr() as usize).collect();
    assert_eq!(pool.fresh_allocations(), 100);
    assert_eq!(pool.reuses(), 0);
    assert!(first.iter().enumerate().all(|(i, o)| o.value == i as u64));
    drop(first);
    assert_eq!(drops.load(Ordering::SeqCst), 100);
    assert_eq!(pool.free_slots(), 100);

    let second: Vec<ObjRef<PoolItem>> = (0..100).map(|i| pool.make(item(1000 + i))).collect();
    assert_eq!(pool.fresh_allocations(), 100);
    assert_eq!(pool.reuses(), 100);
    assert_eq!(pool.free_slots(), 0);
    assert!(second.iter().enumerate().all(|(i, o)| o.value == 1000 + i as u64));
    assert!(second.iter().all(|o| o.header().type_index() == PoolItem::type_index() && o.strong_count() == 1));
    // Reuse means the same memory: the second batch occupies exactly the first batch's slots.
    let mut second_addrs: Vec<usize> = second.iter().map(|o| o.as_raw().as_ptr() as usize).collect();
    first_addrs.sort();
    second_addrs.sort();
    assert_eq!(first_addrs, second_addrs);

    // Pooled objects work as values too.
    let v = AnyValue::from(second[7].clone());
    assert_eq!(v.as_obj().unwrap().downcast_ref::<PoolItem>().unwrap().value, 1007);

    // Dropping the pool while objects are alive: they stay valid, then free normally.
    drop(pool);
    assert_eq!(second[99].value, 1099);
    assert_eq!(drops.load(Ordering::SeqCst), 100);
    drop(second);
    assert_eq!(drops.load(Ordering::SeqCst), 199, "second[7] is still held by `v`");
    assert_eq!(v.get::<ObjRef<PoolItem>>().unwrap().value, 1007);
    drop(v);
    assert_eq!(drops.load(Ordering::SeqCst), 200);
}

// ---------------------------------------------------------------- (d) copy-on-write

#[repr(C)]
#[derive(Clone)]
struct Counter {
    header: Object,
    n: i64,
    history: Vec<i64>,
}
anyproc::declare_object_type!(Counter, "objects_test.Counter", parent = Object, child_slots = 0);

#[test]
fn make_mut_copies_only_when_shared() {
    let mut a = ObjRef::new(Counter { header: Object::blank(), n: 1, history: vec![1] });
    let b = a.clone();
    assert_eq!(a.strong_count(), 2);
    assert!(a.ptr_eq(&b));
    assert!(a.get_mut().is_none(), "shared: no direct mutable access");

    // Shared: make_mut clones into a new object, leaving `b` untouched.
    {
        let m = a.make_mut();
        m.n = 2;
        m.history.push(2);
    }
    assert!(!a.ptr_eq(&b));
    assert_eq!((a.n, b.n), (2, 1));
    assert_eq!((a.history.clone(), b.history.clone()), (vec![1, 2], vec![1]));
    assert_eq!((a.strong_count(), b.strong_count()), (1, 1));
    assert_eq!(a.header().type_index(), Counter::type_index(), "the copy is a proper object of the type");

    // Unique: make_mut mutates in place.
    let before = a.as_raw();
    a.make_mut().n = 3;
    assert_eq!(a.as_raw(), before);
    assert_eq!(a.n, 3);
    assert_eq!(a.strong_count(), 1);
    assert_eq!(a.get_mut().map(|c| c.n), Some(3));

    // Shared through an AnyValue counts as shared too.
    let held = AnyValue::from(a.clone());
    a.make_mut().n = 4;
    assert_eq!(held.get::<ObjRef<Counter>>().unwrap().n, 3);
    assert_eq!(a.n, 4);
}

// ---------------------------------------------------------------- (e) functions as objects

#[test]
fn functions_stored_in_containers_are_callable() {
    let add = PackedFunc::from_typed("objects_test.add", |a: i64, b: i64| a + b);
    // A closure capturing a List: calls append to it (reference semantics).
    let mut log = List::new();
    let captured = log.clone();
    let record = PackedFunc::new(move |args: &[AnyView<'_>]| {
        let mut l = captured.clone();
        for a in args {
            l.push(a.to_owned::<0>());
        }
        Ok(AnyValue::from(l.len() as i64))
    });

    let mut l = List::new();
    l.push(add.clone());
    l.push(record.clone());
    let mut d = Dict::new();
    d.set("add", add.clone());
    d.set("nested", List::from(vec![AnyValue::from(record.clone())]));

    // Borrowed call: no reference taken.
    let args = [AnyView::from(40i64), AnyView::from(2i64)];
    let r = l.with_items(|xs| call_obj(xs[0].as_obj().unwrap(), &args)).unwrap();
    assert!(r == 42i64);
    let r =
        l.with_items(|xs| call_obj(xs[1].as_obj().unwrap(), &[AnyView::from("héllo"), AnyView::from(1.5)])).unwrap();
    assert!(r == 2i64);
    // Unboxed call, from a list and from a dict.
    let f: PackedFunc = l.get(0).unwrap().get().unwrap();
    assert!(f.ptr_eq(&add));
    assert!(f.call(&[AnyView::from(-7i64), AnyView::from(7i64)]).unwrap() == 0i64);
    let g: PackedFunc = d.get("add").unwrap().get().unwrap();
    assert!(g.call_values(&[AnyValue::from(1i64 << 40), AnyValue::from(1i64)]).unwrap() == (1i64 << 40) + 1);
    let nested: List = d.get_item("nested").unwrap().get().unwrap();
    let h: PackedFunc = nested.get(0).unwrap().get().unwrap();
    assert!(h.call(&[AnyView::from(&d)]).unwrap() == 3i64);
    assert!(d.get("nested").unwrap().as_obj().is_some());
    d.get("nested").unwrap().get::<List>().unwrap().with_items(|xs| {
        assert!(call_obj(xs[0].as_obj().unwrap(), &[]).unwrap() == 3i64);
    });
    // The captured log saw every argument, in order.
    assert_eq!(log.len(), 3);
    assert!(log.get(0).unwrap() == "héllo");
    assert!(log.get(1).unwrap() == AnyValue::from(1.5));
    assert!(log.get(2).unwrap().get::<Dict>().unwrap().ptr_eq(&d));
    // A function's AnyValue is an object of type FUNC.
    assert_eq!(AnyValue::from(add).type_name(), "func");
    // `log` now holds `d`, which holds `record`, which captures `log`: break the cycle.
    log.clear();
}

#[test]
fn typed_registration_with_zero_to_six_mixed_arguments() {
    let reg = Registry::default();
    let sig = |name: &str| reg.info(name).unwrap().signature;
    let call = |name: &str, args: &[AnyView<'_>]| reg.get(name).unwrap().call(args).unwrap();

    reg.register_typed("t.zero", "", || 42i64, false).unwrap();
    assert_eq!(sig("t.zero"), "() -> int");
    assert!(call("t.zero", &[]) == 42i64);

    reg.register_typed("t.one", "", |s: String| s.chars().rev().collect::<String>(), false).unwrap();
    assert_eq!(sig("t.one"), "(str) -> str");
    assert!(call("t.one", &[AnyView::from("héllo")]) == "olléh");

    reg.register_typed(
        "t.repeat",
        "",
        |s: Str, n: i64| -> List { (0..n).map(|_| AnyValue::from(s.clone())).collect() },
        false,
    )
    .unwrap();
    assert_eq!(sig("t.repeat"), "(str, int) -> list");
    let out = call("t.repeat", &[AnyView::from("ab"), AnyView::from(3i64)]).get::<List>().unwrap();
    assert_eq!(out.to_vec_of::<String>().unwrap(), vec!["ab", "ab", "ab"]);

    reg.register_typed(
        "t.three",
        "",
        |a: f64, b: bool, c: Option<i64>| if b { a * c.unwrap_or(1) as f64 } else { -a },
        false,
    )
    .unwrap();
    assert_eq!(sig("t.three"), "(float, bool, int | None) -> float");
    assert!(call("t.three", &[1.5.into(), true.into(), 2i64.into()]) == AnyValue::from(3.0));
    assert!(call("t.three", &[1.5.into(), true.into(), AnyView::none()]) == AnyValue::from(1.5));
    assert!(call("t.three", &[1.5.into(), false.into(), 2i64.into()]) == AnyValue::from(-1.5));
    // An int is accepted where a float is wanted (Python's numeric tower): 2 * 4 = 8.0.
    assert!(call("t.three", &[2i64.into(), true.into(), 4i64.into()]) == AnyValue::from(8.0));

    reg.register_typed(
        "t.four",
        "",
        |u: UStr, l: List, d: Dict, x: AnyValue| -> Dict {
            let mut out = Dict::new();
            out.set("len", u.len() as i64);
            out.set("sum", l.to_vec_of::<i64>().map(|v| v.iter().sum::<i64>()).unwrap_or(-1));
            out.set("has_k", d.contains_key("k"));
            out.set("x", x);
            out
        },
        false,
    )
    .unwrap();
    assert_eq!(sig("t.four"), "(str, list, dict, any) -> dict");
    let l = List::from(vec![1i64, 2, 39]);
    let mut d = Dict::new();
    d.set("k", 0i64);
    let x = List::new();
    let out = call("t.four", &["日本語".into(), (&l).into(), (&d).into(), (&x).into()]).get::<Dict>().unwrap();
    assert!(out.get_item("len").unwrap() == 3i64);
    assert!(out.get_item("sum").unwrap() == 42i64);
    assert!(out.get_item("has_k").unwrap() == AnyValue::from(true));
    assert!(out.get_item("x").unwrap().get::<List>().unwrap().ptr_eq(&x), "`any` keeps the object");

    let add = PackedFunc::from_typed("t.add", |a: i64, b: i64| a + b);
    reg.register_typed(
        "t.five",
        "",
        |f: PackedFunc, a: i64, b: i64, s: String, o: Option<i64>| -> anyproc::Result<i64> {
            let sum = f.call(&[a.into(), b.into()])?.get::<i64>()?;
            Ok(sum + s.len() as i64 + o.unwrap_or(0))
        },
        false,
    )
    .unwrap();
    assert_eq!(sig("t.five"), "(func, int, int, str, int | None) -> int");
    // 2 + 3 + len("héllo") (6 bytes) + 0 = 11; with o = 10: 21.
    let f = AnyView::from(&add);
    assert!(call("t.five", &[f, 2i64.into(), 3i64.into(), "héllo".into(), AnyView::none()]) == 11i64);
    assert!(call("t.five", &[f, 2i64.into(), 3i64.into(), "héllo".into(), 10i64.into()]) == 21i64);

    reg.register_typed(
        "t.six",
        "",
        |a: i64, b: f64, c: bool, d: String, e: UStr, f: List| format!("{a}|{b}|{c}|{d}|{}|{}", e.len(), f.len()),
        false,
    )
    .unwrap();
    assert_eq!(sig("t.six"), "(int, float, bool, str, str, list) -> str");
    let four = List::from(vec![1i64, 2, 3, 4]);
    let r = call("t.six", &[1i64.into(), 2.5.into(), false.into(), "x".into(), "日本語".into(), (&four).into()]);
    assert!(r == "1|2.5|false|x|3|4", "{r:?}");

    // Wrong types are reported per argument, with the registered name.
    let e = reg.get("t.six").unwrap().call(&[
        1i64.into(),
        2.5.into(),
        false.into(),
        "x".into(),
        5i64.into(),
        (&four).into(),
    ]);
    assert_eq!(e.unwrap_err().to_string(), "t.six: argument 4: expected str, got int");
    let e = reg.get("t.five").unwrap().call(&[1i64.into(), 2i64.into(), 3i64.into(), "s".into(), AnyView::none()]);
    assert_eq!(e.unwrap_err().to_string(), "t.five: argument 0: expected func, got int");
    let e = reg.get("t.three").unwrap().call(&[1.5.into(), true.into(), "two".into()]);
    assert_eq!(e.unwrap_err().to_string(), "t.three: argument 2: expected int | None, got str");

    // Every registered function is listed, sorted by name.
    let names: Vec<String> = reg.list().into_iter().map(|i| i.name).collect();
    assert_eq!(names, ["t.five", "t.four", "t.one", "t.repeat", "t.six", "t.three", "t.zero"]);
}

// ---------------------------------------------------------------- (f) self-containing containers

/// Runs `f` on another thread and fails if it has not returned within `secs` seconds.
///
/// A hung `f` is left blocked on its thread; the test process still exits when the harness ends.
fn within<R: Send + 'static>(secs: u64, what: &str, f: impl FnOnce() -> R + Send + 'static) -> R {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    match rx.recv_timeout(Duration::from_secs(secs)) {
        Ok(r) => r,
        Err(_) => panic!("{what} did not return within {secs} s (deadlock)"),
    }
}

#[test]
fn a_list_containing_itself_stays_finite() {
    let (printed, hashed, equal_to_self, equal_to_other) = within(30, "self-containing list", || {
        let mut l = List::new();
        l.push(1i64);
        l.push(l.clone());
        let mut m = List::new();
        m.push(1i64);
        m.push(m.clone());
        let v = AnyValue::from(l.clone());
        let printed = format!("{v:?}");
        let mut h = std::collections::hash_map::DefaultHasher::new();
        std::hash::Hash::hash(&v, &mut h);
        let _ = std::hash::Hasher::finish(&h);
        let result = (printed.starts_with("[1, [1, ["), true, v == AnyValue::from(l.clone()), l == m);
        // Break the cycles so the lists can be freed.
        l.clear();
        m.clear();
        result
    });
    assert!(printed && hashed && equal_to_self);
    // Two distinct self-containing lists: equal down to MAX_DEPTH, then compared by identity.
    assert!(!equal_to_other);
}

#[test]
fn a_dict_accepts_a_key_that_contains_the_dict() {
    let len = within(10, "Dict::set with a key that contains the dict", || {
        let mut d = Dict::new();
        let key = List::from(vec![AnyValue::from(d.clone())]);
        d.set(key.clone(), 1i64);
        let n = d.len();
        // The key's value (and hash) changed when the dict came to contain it, so it can no
        // longer be found by value; `clear` breaks the reference cycle so both can be freed.
        d.clear();
        n
    });
    assert_eq!(len, 1);
}
