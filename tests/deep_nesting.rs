//! Containers nested a million levels deep are built, used and freed without overflowing the stack.
//!
//! Freeing a list frees its items, so a naive free of `x = [x]` repeated a million
//! times recurses a million frames and aborts the process. Each level here also
//! holds a function whose closure owns a drop counter, so the count of closures
//! dropped proves every level was really freed, exactly once; the threads that free
//! run on a 256 KiB stack, far less than a recursive free of these depths needs.

use anyproc::pipeline::script;
use anyproc::{AnyValue, AnyView, Dict, List, PackedFunc};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

const DEPTH: usize = 1_000_000;

/// Counts its own drops.
struct DropCounter(Arc<AtomicUsize>);

impl Drop for DropCounter {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::Relaxed);
    }
}

/// A function whose closure owns a `DropCounter` on `drops`.
fn counted_func(drops: &Arc<AtomicUsize>) -> PackedFunc {
    let counter = DropCounter(drops.clone());
    PackedFunc::new(move |_| {
        let _keep = &counter;
        Ok(AnyValue::none())
    })
}

/// Runs `body` on a thread with a small stack, as a deep recursion would overflow it.
fn on_small_stack(body: impl FnOnce() + Send + 'static) {
    on_stack_of(256 * 1024, body)
}

/// Runs `body` on a thread with a stack of `bytes`.
fn on_stack_of(bytes: usize, body: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(bytes)
        .spawn(body)
        .expect("spawn")
        .join()
        .expect("the thread finished without overflowing its stack");
}

#[test]
fn a_list_nested_a_million_levels_deep_is_freed_level_by_level() {
    let drops = Arc::new(AtomicUsize::new(0));
    let seen = drops.clone();
    on_small_stack(move || {
        let mut x = List::new();
        for _ in 0..DEPTH {
            let mut outer = List::new();
            outer.push(x);
            outer.push(counted_func(&drops));
            x = outer;
        }
        assert_eq!(drops.load(Ordering::Relaxed), 0);
        drop(x);
    });
    assert_eq!(seen.load(Ordering::Relaxed), DEPTH);
}

#[test]
fn dicts_and_lists_nested_alternately_are_freed() {
    let drops = Arc::new(AtomicUsize::new(0));
    let seen = drops.clone();
    on_small_stack(move || {
        let mut x = AnyValue::from(List::new());
        for level in 0..DEPTH {
            x = if level % 2 == 0 {
                let mut d = Dict::new();
                d.set("inner", x);
                d.set("f", counted_func(&drops));
                d.into()
            } else {
                let mut l = List::new();
                l.push(counted_func(&drops));
                l.push(x);
                l.into()
            };
        }
        drop(x);
    });
    assert_eq!(seen.load(Ordering::Relaxed), DEPTH);
}

#[test]
fn a_script_building_a_million_levels_returns_and_frees_them() {
    on_small_stack(|| {
        let f = script("def nest(n):\n    x = []\n    for i in range(n):\n        x = [x, i]\n    return x\n", "nest")
            .expect("compiles");
        let x: List = f.call(&[AnyView::from(DEPTH as i64)]).and_then(|v| v.get()).expect("a list");
        // The outermost level holds the last index, as `x = [x, i]` leaves it in CPython.
        assert_eq!(x.len(), 2);
        assert_eq!(x.get(1).expect("item 1").value().as_int(), Some(DEPTH as i64 - 1));
        drop(x);
        // The script's own registers drop the structure when it is reassigned and at return.
        let g = script(
            "def depth(n):\n    x = []\n    for i in range(n):\n        x = [x]\n    x = None\n    return n\n",
            "depth",
        )
        .expect("compiles");
        let n = g.call(&[AnyView::from(DEPTH as i64)]).expect("runs");
        assert_eq!(n.value().as_int(), Some(DEPTH as i64));
    });
}

#[test]
fn too_deep_for_an_array_or_json_is_an_error_naming_the_limit() {
    // A rayon worker's stack (2 MiB): the limits keep the recursion well within it.
    on_stack_of(2 * 1024 * 1024, || {
        let mut x = AnyValue::from(List::new());
        for _ in 0..DEPTH {
            let mut outer = List::new();
            outer.push(x);
            x = outer.into();
        }
        let e = anyproc::NDArray::from_nested(&x).expect_err("a million dimensions");
        assert_eq!(e.to_string(), format!("list nested {} levels deep: an array has at most 64 dimensions", DEPTH + 1));
        let e = anyproc::pipeline::json::any_to_json(&x).expect_err("too deep for JSON");
        assert_eq!(e.to_string(), "value nested deeper than 127 levels cannot be written as JSON");
        // At the limits themselves both still work: 64 dimensions, 127 levels of JSON that
        // serde_json reads back.
        let mut y = AnyValue::from(1i64);
        for level in 1..=127 {
            let mut outer = List::new();
            outer.push(y);
            y = outer.into();
            if level == 64 {
                let arr = anyproc::NDArray::from_nested(&y).expect("64 dimensions");
                assert_eq!(arr.shape(), &[1i64; 64][..]);
            }
        }
        let json = anyproc::pipeline::json::any_to_json(&y).expect("127 levels");
        let text = json.to_string();
        assert_eq!(text, format!("{}1{}", "[".repeat(127), "]".repeat(127)));
        assert!(serde_json::from_str::<serde_json::Value>(&text).is_ok());
        let mut z = List::new();
        z.push(y);
        let e = anyproc::pipeline::json::any_to_json(&z.into()).expect_err("one level more");
        assert_eq!(e.to_string(), "value nested deeper than 127 levels cannot be written as JSON");
    });
}
