//! `Set` seen from Rust and from anyscript source: the order it iterates in, its algebra, its
//! errors, sharing across threads, and keys too deep to hash. Every expected order is what
//! CPython 3.11 prints for the same operations (`python/tests/test_sets.py` compares thousands
//! of random operation sequences with CPython itself).

use anyproc::container::SetOperand;
use anyproc::pipeline::script;
use anyproc::{AnyValue, AnyView, List, Set, Tuple};

fn ints(xs: &[i64]) -> Vec<AnyValue> {
    xs.iter().map(|&x| AnyValue::from(x)).collect()
}

fn order(s: &Set) -> String {
    format!("{:?}", List::from_vec(s.items()))
}

fn set_of(xs: &[i64]) -> Set {
    let mut s = Set::new();
    s.extend(&ints(xs)).unwrap();
    s
}

#[test]
fn keys_iterate_in_cpython_order() {
    let mut s = Set::new();
    let big = (1i64 << 61) + 5;
    for k in [AnyValue::from(5i64), 13i64.into(), 21i64.into(), 1i64.into(), big.into(), (-3i64).into(), 7.5.into()] {
        assert!(s.add(k).unwrap());
    }
    assert_eq!(order(&s), "[1, 5, 2305843009213693957, 7.5, 13, 21, -3]");
    // A removal leaves a dummy that the next insertion on that probe chain reuses.
    assert!(s.discard(AnyView::from(13i64)).unwrap());
    assert!(s.add(29i64).unwrap());
    assert_eq!(order(&s), "[1, 5, 2305843009213693957, 7.5, 29, 21, -3]");
    assert_eq!(s.pop().map(|k| k.to_string()), Some("1".into()));
    assert_eq!(s.pop().map(|k| k.to_string()), Some("5".into()));
    assert_eq!(order(&s), "[2305843009213693957, 7.5, 29, 21, -3]");
    // Equal numbers are one key: 1.0 is already there as 1 (and True too).
    let mut t = set_of(&[1]);
    assert!(!t.add(1.0).unwrap());
    assert!(!t.add(true).unwrap());
}

#[test]
fn the_algebra_orders_its_results_as_cpython_does() {
    let (a, b) = (set_of(&[1, 2, 3, 40, 41]), set_of(&[3, 40, 99]));
    let b = SetOperand::Set(&b);
    assert_eq!(order(&a.union(&b).unwrap()), "[1, 2, 3, 99, 40, 41]");
    assert_eq!(order(&a.intersection(&b).unwrap()), "[40, 3]");
    assert_eq!(order(&a.difference(&b).unwrap()), "[1, 2, 41]");
    assert_eq!(order(&a.symmetric_difference(&b).unwrap()), "[1, 2, 99, 41]");
    let sevens: Vec<i64> = (0..100).step_by(7).collect();
    let fives: Vec<i64> = (0..100).step_by(5).collect();
    let (x, y) = (set_of(&sevens), set_of(&fives));
    assert_eq!(order(&x.intersection(&SetOperand::Set(&y)).unwrap()), "[0, 35, 70]");
    let sym = x.symmetric_difference(&SetOperand::Set(&y)).unwrap();
    assert_eq!(
        format!("{:?}", List::from_vec(sym.items()[..12].to_vec())),
        "[65, 5, 7, 10, 75, 77, 14, 15, 80, 20, 85, 84]"
    );
    assert!(set_of(&[3, 40]).is_subset(&set_of(&[3, 40, 99])));
}

#[test]
fn dicts_and_sets_are_unhashable() {
    let mut s = Set::new();
    let e = s.add(anyproc::Dict::new()).unwrap_err();
    assert_eq!(e.message(), "unhashable type: 'dict'");
    let e = s.add(Set::new()).unwrap_err();
    assert_eq!(e.message(), "unhashable type: 'set'");
    assert!(s.is_empty());
}

#[test]
fn a_key_nested_too_deep_to_hash_is_an_error_not_a_crash() {
    // A tuple nested 100,000 deep would recurse past the stack.
    let mut key = Tuple::from_vec(vec![]);
    for _ in 0..100_000 {
        key = Tuple::from_vec(vec![key.into()]);
    }
    let e = Set::new().add(key).unwrap_err();
    assert!(e.message().contains("maximum recursion depth"), "{e}");
    assert_eq!(e.kind(), anyproc::ErrorKind::Recursion, "CPython's RecursionError");
}

#[test]
fn threads_read_one_set_at_once() {
    let shared = set_of(&(0..1000).collect::<Vec<_>>());
    std::thread::scope(|scope| {
        for t in 0..4i64 {
            let s = shared.clone();
            scope.spawn(move || {
                for k in 0..2000i64 {
                    assert_eq!(s.contains(AnyView::from(k + t)).unwrap(), k + t < 1000);
                }
                assert_eq!(s.len(), 1000);
            });
        }
    });
}

fn run(src: &str, arg: AnyView<'_>) -> Result<String, String> {
    let f = script(src, "f").map_err(|e| e.to_string())?;
    f.call(&[arg]).map(|v| v.to_string()).map_err(|e| e.to_string())
}

#[test]
fn scripts_build_and_query_sets() {
    let src = "def f(x):\n    s = {5, 13, 21, 1}\n    s |= {x, -3}\n    t = {c for c in 'abca'}\n    return [list(s), len(t), 'b' in t, s >= {1, 5}, repr(s - s), sorted(t)]\n";
    assert_eq!(
        run(src, AnyView::from(7.5)).unwrap(),
        "[[1, -3, 21, 5, 7.5, 13], 3, True, True, 'set()', ['a', 'b', 'c']]"
    );
    let e = run("def f(x):\n    s = {1}\n    for k in s:\n        s.add(k + 1)\n", AnyView::from(0i64)).unwrap_err();
    assert!(e.contains("line 3") && e.contains("Set changed size during iteration"), "{e}");
    let e = run("def f(x):\n    return set().pop()\n", AnyView::from(0i64)).unwrap_err();
    assert!(e.contains("pop from an empty set"), "{e}");
    // A set looked up in a set is the frozenset of its keys to CPython: never found here.
    let src = "def f(x):\n    s = {1, 2}\n    s.discard({1})\n    return [{1} in s, {x} not in s, len(s)]\n";
    assert_eq!(run(src, AnyView::from(1i64)).unwrap(), "[False, True, 2]");
    let e = run("def f(x):\n    {1}.remove({x})\n", AnyView::from(1i64)).unwrap_err();
    assert!(e.contains("KeyError") || e.contains("{1}"), "{e}");
    let e = run("def f(x):\n    return {1} | [x]\n", AnyView::from(0i64)).unwrap_err();
    assert!(e.contains("unsupported operand type(s) for |: 'set' and 'list'"), "{e}");
}

#[test]
fn module_constants_are_one_object_made_once() {
    let src = "STOP = {'a', 'the'}\nSEEN = []\n\ndef f(x):\n    SEEN.append(x)\n    return [x in STOP, len(SEEN), STOP is STOP]\n";
    let f = script(src, "f").unwrap();
    assert_eq!(f.call(&[AnyView::from("the")]).unwrap().to_string(), "[True, 1, True]");
    // The list is the module's: the second call sees the first call's append, as in Python.
    assert_eq!(f.call(&[AnyView::from("b")]).unwrap().to_string(), "[False, 2, True]");
    let e = script("N = len('ab')\n\ndef f(x):\n    return N\n", "f").unwrap_err().to_string();
    assert!(e.contains("line 1") && e.contains("module constant 'N' must be a constant"), "{e}");
    let e = script("N = 1\nN += 1\n", "f").unwrap_err().to_string();
    assert!(e.contains("line 2") && e.contains("only function definitions"), "{e}");
}

#[test]
fn text_keys_are_found_in_either_encoding_inline_or_heap() {
    // Inline, heap, and past the 256 bytes that UCS4 text is re-encoded on the stack for.
    let texts = ["the", "naïve", "a longer word than inline", &"日本語".repeat(40)];
    let mut s = Set::new();
    for t in texts {
        assert!(s.add(AnyValue::from_text(t)).unwrap());
    }
    for t in texts {
        let ucs4 = AnyValue::from_text_ucs4(t);
        assert!(s.contains(&ucs4).unwrap(), "UCS4 {t:?}");
        assert!(s.contains(t).unwrap(), "UTF-8 {t:?}");
        // Adding the other encoding finds the key that is there.
        assert!(!s.add(ucs4).unwrap());
    }
    assert_eq!(s.len(), texts.len());
    assert!(!s.contains("them").unwrap());
    // Bytes hash like the str of the same bytes but are never equal to it.
    assert!(!s.contains(&AnyValue::from_bytes(b"the")).unwrap());
    // A set of UCS4 keys finds UTF-8 text, through the text fast path of `x in s`.
    let mut wide = Set::new();
    wide.add(AnyValue::from_text_ucs4("naïve")).unwrap();
    assert!(wide.contains("naïve").unwrap());
}
