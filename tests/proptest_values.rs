//! Property tests: values survive every representation, and equality/hashing ignore representation.
//!
//! (a) Any `String` round-trips unchanged through `AnyValue`, `AnyPad<1>`,
//!     `AnyPad<2>`, the UCS4 forms, `Str`, `UStr` and a borrowed `AnyView`
//!     made owned again; and it lives inline exactly when the documented inline
//!     capacity (8 + 8N bytes, or 2 + 2N code points) holds it. The reference is
//!     the input `String` itself and Rust's own `len` / `chars().count()`.
//! (b) Any tree of ints, floats, strings, bools, `None`, lists and dicts (with
//!     unique keys) converts to an `AnyValue` and back into an identical tree
//!     (floats compared bit for bit, dict order preserved as Python's dicts keep
//!     insertion order). Two independently built copies compare equal and hash
//!     alike (Python: structurally equal lists/dicts are `==`).
//! (c) Every representation of one text (inline/heap UTF-8, inline/heap UCS4,
//!     `AnyPad<1>`, borrowed `AnyView`) is pairwise `==` with equal hashes, and
//!     different texts are unequal. Numbers follow Python: `i == float(i)`
//!     exactly when the conversion is exact (decided here with i128 arithmetic),
//!     and then their hashes agree; `True == 1`, `False == 0`.
//!
//! Case counts are proptest's default (256), so `PROPTEST_CASES` (set lower by
//! `scripts/sanitize.sh`) still applies.

use anyproc::any::heap_kinds::{StrObj, UStrObj};
use anyproc::{AnyPad, AnyValue, AnyView, Dict, List, Str, UStr, Value};
use proptest::collection::vec;
use proptest::prelude::*;
use std::hash::{DefaultHasher, Hash, Hasher};

fn hash_of<T: Hash + ?Sized>(v: &T) -> u64 {
    let mut h = DefaultHasher::new();
    v.hash(&mut h);
    h.finish()
}

/// Texts of every size class: arbitrary Unicode, very short strings, and mixed-width
/// strings around the inline limits.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        vec(any::<char>(), 0..6).prop_map(|cs| cs.into_iter().collect::<String>()),
        "[a-zé日🙂\u{0}]{0,20}",
    ]
}

// ---------------------------------------------------------------- (a) round trips

proptest! {
    #[test]
    fn strings_round_trip_through_every_form(s in text()) {
        let bytes = s.len();
        let chars = s.chars().count();

        let v0 = AnyValue::from(s.as_str());
        prop_assert_eq!(v0.get::<String>().unwrap(), s.as_str());
        prop_assert_eq!(v0.is_object(), bytes > 8);

        let v1 = AnyPad::<1>::from(s.as_str());
        prop_assert_eq!(v1.get::<String>().unwrap(), s.as_str());
        prop_assert_eq!(v1.is_object(), bytes > 16);

        let v2 = AnyPad::<2>::from(s.clone());
        prop_assert_eq!(v2.get::<String>().unwrap(), s.as_str());
        prop_assert_eq!(v2.is_object(), bytes > 24);

        let u0 = AnyValue::from_text_ucs4(&s);
        prop_assert_eq!(u0.get::<String>().unwrap(), s.as_str());
        prop_assert_eq!(u0.is_object(), chars > 2);
        let u1 = AnyPad::<1>::from_text_ucs4(&s);
        prop_assert_eq!(u1.get::<String>().unwrap(), s.as_str());
        prop_assert_eq!(u1.is_object(), chars > 4);
        let cs: Vec<char> = s.chars().collect();
        let u2 = AnyPad::<2>::from_chars(&cs);
        prop_assert_eq!(u2.get::<String>().unwrap(), s.as_str());
        prop_assert_eq!(u2.is_object(), chars > 6);

        // Narrowing and widening between pads keep the text.
        let narrowed: AnyValue = v2.clone().into();
        prop_assert_eq!(narrowed.get::<String>().unwrap(), s.as_str());
        prop_assert_eq!(narrowed.is_object(), bytes > 8);
        let widened: AnyPad<2> = AnyValue::from(s.as_str()).into();
        prop_assert_eq!(widened.get::<String>().unwrap(), s.as_str());
        let ucs_narrowed = u1.clone().resize::<0>();
        prop_assert_eq!(ucs_narrowed.get::<String>().unwrap(), s.as_str());

        let st = Str::new(&s);
        prop_assert_eq!(st.as_str(), s.as_str());
        prop_assert_eq!(st.is_inline(), bytes <= 8);
        let st_any: AnyValue = st.clone().into();
        prop_assert_eq!(st_any.get::<String>().unwrap(), s.as_str());
        prop_assert_eq!(st_any.get::<Str>().unwrap().as_str().to_owned(), s.as_str());

        let us = UStr::new(&s);
        prop_assert_eq!(us.len(), chars);
        prop_assert_eq!(us.as_chars(), &cs[..]);
        prop_assert_eq!(us.is_inline(), chars <= 2);
        let us_any: AnyValue = us.clone().into();
        prop_assert_eq!(us_any.get::<String>().unwrap(), s.as_str());
        prop_assert_eq!(us_any.get::<UStr>().unwrap().as_chars().to_vec(), cs.clone());
        // Cross-encoding unboxing: a UTF-8 value read as UStr and back.
        prop_assert_eq!(v0.get::<UStr>().unwrap().as_chars().to_vec(), cs.clone());
        prop_assert_eq!(u0.get::<Str>().unwrap().as_str().to_owned(), s.as_str());

        let view = AnyView::from(s.as_str());
        prop_assert_eq!(view.get::<String>().unwrap(), s.as_str());
        let owned: AnyValue = view.to_owned::<0>();
        prop_assert_eq!(owned.get::<String>().unwrap(), s.as_str());
        prop_assert_eq!(owned.is_object(), bytes > 8);
        let owned1: AnyPad<1> = view.to_owned::<1>();
        prop_assert_eq!(owned1.get::<String>().unwrap(), s.as_str());
        // A view of a wide pad's inline string, made owned in a narrow value.
        let from_pad_view: AnyValue = v1.view().to_owned::<0>();
        prop_assert_eq!(from_pad_view.get::<String>().unwrap(), s.as_str());
    }
}

// ---------------------------------------------------------------- (b) trees

#[derive(Debug, Clone)]
enum Tree {
    Int(i64),
    Float(f64),
    Str(String),
    Bool(bool),
    None,
    List(Vec<Tree>),
    Dict(Vec<(String, Tree)>),
}

/// Structural equality with floats compared bit for bit (so -0.0 != 0.0 and NaN == NaN
/// here: the round trip must not change a single bit).
impl PartialEq for Tree {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Tree::Int(a), Tree::Int(b)) => a == b,
            (Tree::Float(a), Tree::Float(b)) => a.to_bits() == b.to_bits(),
            (Tree::Str(a), Tree::Str(b)) => a == b,
            (Tree::Bool(a), Tree::Bool(b)) => a == b,
            (Tree::None, Tree::None) => true,
            (Tree::List(a), Tree::List(b)) => a == b,
            (Tree::Dict(a), Tree::Dict(b)) => a == b,
            _ => false,
        }
    }
}

fn tree() -> impl Strategy<Value = Tree> {
    let leaf = prop_oneof![
        any::<i64>().prop_map(Tree::Int),
        any::<f64>().prop_map(Tree::Float),
        text().prop_map(Tree::Str),
        any::<bool>().prop_map(Tree::Bool),
        Just(Tree::None),
    ];
    leaf.prop_recursive(4, 64, 6, |inner| {
        prop_oneof![
            vec(inner.clone(), 0..6).prop_map(Tree::List),
            vec((prop_oneof!["[a-c]{0,2}", text()], inner), 0..6).prop_map(|entries| {
                // Unique keys, first occurrence wins, order kept.
                let mut seen = std::collections::HashSet::new();
                Tree::Dict(entries.into_iter().filter(|(k, _)| seen.insert(k.clone())).collect())
            }),
        ]
    })
}

fn to_any(t: &Tree) -> AnyValue {
    match t {
        Tree::Int(i) => AnyValue::from(*i),
        Tree::Float(f) => AnyValue::from(*f),
        Tree::Str(s) => AnyValue::from(s.as_str()),
        Tree::Bool(b) => AnyValue::from(*b),
        Tree::None => AnyValue::none(),
        Tree::List(items) => List::from_vec(items.iter().map(to_any).collect()).into(),
        Tree::Dict(entries) => {
            let mut d = Dict::new();
            for (k, v) in entries {
                d.set(k.as_str(), to_any(v));
            }
            d.into()
        }
    }
}

fn from_any(v: &AnyValue) -> Tree {
    match v.value() {
        Value::None => Tree::None,
        Value::Bool(b) => Tree::Bool(b),
        Value::Int(i) => Tree::Int(i),
        Value::Float(f) => Tree::Float(f),
        Value::Str(s) => Tree::Str(s.to_owned()),
        Value::UStr(u) => Tree::Str(u.iter().collect()),
        Value::Object(_) => {
            if let Ok(l) = v.get::<List>() {
                Tree::List(l.iter().map(|x| from_any(&x)).collect())
            } else {
                let d = v.get::<Dict>().expect("only lists and dicts are built");
                Tree::Dict(
                    d.items()
                        .iter()
                        .map(|(k, x)| (k.get::<String>().expect("keys are strings"), from_any(x)))
                        .collect(),
                )
            }
        }
        other => panic!("unexpected value {other:?}"),
    }
}

fn has_nan(t: &Tree) -> bool {
    match t {
        Tree::Float(f) => f.is_nan(),
        Tree::List(xs) => xs.iter().any(has_nan),
        Tree::Dict(es) => es.iter().any(|(_, x)| has_nan(x)),
        _ => false,
    }
}

proptest! {
    #[test]
    fn trees_round_trip(t in tree()) {
        let v = to_any(&t);
        prop_assert_eq!(&from_any(&v), &t);
        // Through a wider pad and back.
        let wide: AnyPad<1> = v.clone().into();
        let back: AnyValue = wide.into();
        prop_assert_eq!(&from_any(&back), &t);
    }

    #[test]
    fn independently_built_equal_trees_are_equal_and_hash_alike(t in tree()) {
        // Python: [1, {'a': 2.0}] == [1, {'a': 2.0}] is True for two separate objects.
        // NaN is left out: the crate documents NaN == NaN, Python does not.
        prop_assume!(!has_nan(&t));
        let a = to_any(&t);
        let b = to_any(&t);
        prop_assert!(a == b);
        prop_assert_eq!(hash_of(&a), hash_of(&b));
    }
}

// ---------------------------------------------------------------- (c) equality across forms

/// Every owned representation of `s` that this crate can build, widened to an `AnyPad<1>`
/// only where noted; each paired with a label for failure messages.
type Labelled<T> = Vec<(&'static str, T)>;

fn forms(s: &str) -> (Labelled<AnyValue>, Labelled<AnyPad<1>>) {
    let chars: Vec<char> = s.chars().collect();
    let values = vec![
        ("utf8 (inline if it fits)", AnyValue::from(s)),
        ("utf8 heap", AnyValue::from_object(StrObj::from_slice(s.as_bytes()))),
        ("ucs4 (inline if it fits)", AnyValue::from_text_ucs4(s)),
        ("ucs4 heap", AnyValue::from_object(UStrObj::from_slice(&chars))),
        ("Str", Str::new(s).into()),
        ("UStr", UStr::new(s).into()),
    ];
    let pads = vec![("pad1 utf8", AnyPad::<1>::from(s)), ("pad1 ucs4", AnyPad::<1>::from_chars(&chars))];
    (values, pads)
}

fn all_views<'a>(
    s: &'a str,
    values: &'a [(&'static str, AnyValue)],
    pads: &'a [(&'static str, AnyPad<1>)],
) -> Vec<(&'static str, AnyView<'a>)> {
    let mut out: Vec<(&'static str, AnyView<'a>)> = vec![("borrowed &str", AnyView::from(s))];
    out.extend(values.iter().map(|(l, v)| (*l, v.view())));
    out.extend(pads.iter().map(|(l, v)| (*l, v.view())));
    out
}

proptest! {
    #[test]
    fn a_view_reads_as_str_exactly_when_it_holds_utf8(s in text()) {
        // The fast accessor against the full decode, and against the text itself: UTF-8 forms
        // (inline, borrowed, heap, pad) give `s`, UCS4 forms and non-strings give nothing.
        let (values, pads) = forms(&s);
        for (label, view) in all_views(&s, &values, &pads) {
            prop_assert_eq!(view.as_str(), view.value().as_str(), "{}", label);
            prop_assert_eq!(view.as_str().is_some(), !label.contains("ucs4") && !label.starts_with("UStr"), "{}", label);
            if let Some(text) = view.as_str() {
                prop_assert_eq!(text, s.as_str(), "{}", label);
            }
        }
        let others = [AnyValue::none(), AnyValue::from(7i64), AnyValue::from(1.5), AnyValue::from_bytes(s.as_bytes())];
        for v in &others {
            let view = v.view();
            prop_assert_eq!(view.as_str(), None);
        }
    }

    #[test]
    fn all_forms_of_a_text_are_equal_and_hash_alike(s in text()) {
        let (values, pads) = forms(&s);
        let views = all_views(&s, &values, &pads);
        let h = hash_of(&views[0].1);
        for (la, a) in &views {
            prop_assert_eq!(hash_of(a), h, "hash of {}", la);
            for (lb, b) in &views {
                prop_assert!(a == b, "{} != {} for {:?}", la, lb, s);
            }
        }
        // Owned values compare with each other across pad widths, and hash like their views.
        for (la, a) in &values {
            prop_assert_eq!(hash_of(a), h, "hash of owned {}", la);
            prop_assert!(*a == *s.as_str());
            for (lb, b) in &values {
                prop_assert!(a == b, "{} != {}", la, lb);
            }
            for (lb, b) in &pads {
                prop_assert!(a == b, "{} != {}", la, lb);
                prop_assert!(b == a, "{} != {}", lb, la);
            }
        }
        for (lb, b) in &pads {
            prop_assert_eq!(hash_of(b), h, "hash of owned {}", lb);
        }
    }

    #[test]
    fn different_texts_are_unequal(s in text(), t in text()) {
        prop_assume!(s != t);
        let (sv, sp) = forms(&s);
        let (tv, tp) = forms(&t);
        let a = all_views(&s, &sv, &sp);
        let b = all_views(&t, &tv, &tp);
        for (la, x) in &a {
            for (lb, y) in &b {
                prop_assert!(x != y, "{} of {:?} == {} of {:?}", la, s, lb, t);
            }
        }
    }

    #[test]
    fn ints_equal_floats_exactly_when_the_conversion_is_exact(i in prop_oneof![
        any::<i64>(),
        -(1i64 << 54)..(1i64 << 54),
        Just(i64::MAX), Just(i64::MIN), Just((1i64 << 53) + 1), Just(1i64 << 53),
    ]) {
        let f = i as f64;
        // Python compares int and float exactly; i128 holds both sides exactly
        // (f is integral with |f| <= 2^63 here).
        let exact = f as i128 == i as i128;
        let vi = AnyValue::from(i);
        let vf = AnyValue::from(f);
        prop_assert_eq!(vi == vf, exact);
        prop_assert_eq!(vf == vi, exact);
        if exact {
            prop_assert_eq!(hash_of(&vi), hash_of(&vf));
        }
        // A boxed int is the same number.
        let boxed = AnyValue::from_object(AnyValue::from(i).into_object_boxed().unwrap());
        prop_assert!(boxed.is_object());
        prop_assert!(boxed == vi);
        prop_assert_eq!(hash_of(&boxed), hash_of(&vi));
        prop_assert_eq!(boxed == vf, exact);
    }

    #[test]
    fn integral_floats_equal_their_int(f in -9.0e18f64..9.0e18) {
        let t = f.trunc();
        // |t| < 2^63, so the cast is exact for an integral float.
        let i = t as i64;
        prop_assert_eq!(i as f64, t);
        let (vt, vi, vf) = (AnyValue::from(t), AnyValue::from(i), AnyValue::from(f));
        prop_assert!(vt == vi);
        prop_assert_eq!(hash_of(&vt), hash_of(&vi));
        if f.fract() != 0.0 {
            // A float with a fraction equals no int: neither its truncation nor the next one.
            let next = AnyValue::from(i + f.signum() as i64);
            prop_assert!(vf != vi);
            prop_assert!(vf != next);
        }
    }
}

#[test]
fn bools_are_ints_as_in_python() {
    // Python: True == 1 == 1.0, False == 0 == 0.0, hash(True) == hash(1).
    let cases = [(true, 1i64, 1.0f64), (false, 0, 0.0)];
    for (b, i, f) in cases {
        let (vb, vi, vf) = (AnyValue::from(b), AnyValue::from(i), AnyValue::from(f));
        assert!(vb == vi && vi == vf && vb == vf);
        assert_eq!(hash_of(&vb), hash_of(&vi));
        assert_eq!(hash_of(&vb), hash_of(&vf));
    }
    let (t, two) = (AnyValue::from(true), AnyValue::from(2i64));
    assert!(t != two);
    // -0.0 == 0 in Python and hashes like 0.
    let (neg_zero, zero) = (AnyValue::from(-0.0f64), AnyValue::from(0i64));
    assert!(neg_zero == zero);
    assert_eq!(hash_of(&neg_zero), hash_of(&zero));
}
