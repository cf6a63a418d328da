//! Recursion in scripts ends in an error at `max_depth`, whatever path it takes, and never
//! overflows the stack, even when a pipeline raises the limit far above the default.
//!
//! Expected values are hand-derived: `count(n)` returns `n`, and the error names the
//! recursive call's line with how many times it repeated (the default limit, CPython's 1000).
//! Before these checks, recursion through a function value (`g = f; g(n - 1)`) started a
//! fresh count at each level and aborted the process with a stack overflow.

use anyproc::pipeline::{ErrorPolicy, Pipeline, script};
use anyproc::{AnyValue, AnyView, ErrorKind, List};
use std::path::Path;

const DIRECT: &str = "def count(n):\n    if n == 0:\n        return 0\n    return count(n - 1) + 1\n";
const THROUGH_A_VALUE: &str =
    "def count(n):\n    g = count\n    if n == 0:\n        return 0\n    return g(n - 1) + 1\n";

/// Runs `body` on a thread with a 256 KiB stack, far less than 100,000 interpreter frames need.
fn on_small_stack<R: Send + 'static>(body: impl FnOnce() -> R + Send + 'static) -> R {
    std::thread::Builder::new().stack_size(256 * 1024).spawn(body).expect("spawn").join().expect("no overflow")
}

fn count(source: &'static str, n: i64) -> anyproc::Result<AnyValue> {
    let f = script(source, "count").expect("compiles");
    on_small_stack(move || f.call(&[AnyView::from(n)]))
}

#[test]
fn recursion_within_the_limit_returns() {
    assert_eq!(count(DIRECT, 999).expect("999 calls deep").value().as_int(), Some(999));
    assert_eq!(count(THROUGH_A_VALUE, 999).expect("999 calls deep").value().as_int(), Some(999));
}

#[test]
fn recursion_past_the_limit_is_an_error_naming_the_line() {
    let e = count(DIRECT, 1_000_000).expect_err("past 1000");
    assert_eq!(e.kind(), ErrorKind::Recursion);
    assert_eq!(e.to_string(), "function 'count', line 4 (1000 times): maximum recursion depth exceeded");
}

#[test]
fn recursion_through_a_function_value_counts_every_level() {
    let e = count(THROUGH_A_VALUE, 1_000_000).expect_err("past 1000");
    assert_eq!(e.to_string(), "function 'count', line 5 (1000 times): maximum recursion depth exceeded");
}

#[test]
fn a_raised_limit_recurses_that_deep_on_a_small_stack() {
    let text = format!(
        "functions = '''\n{DIRECT}'''\n[options]\nmax_depth = 200000\n\
         [[steps]]\nname = \"count\"\nout = \"n\"\ncall = \"count(len(text))\"\n\
         [[outputs]]\nname = \"n\"\nfrom = \"n\"\nlayout = \"list\"\n"
    );
    let pipeline =
        Pipeline::from_text(&text, anyproc::pipeline::Format::Toml, Path::new("."), "deep.toml").expect("loads");
    let record = AnyValue::from("x".repeat(100_000));
    let out = on_small_stack(move || pipeline.run_batch(&[record], ErrorPolicy::Fail).expect("runs"));
    let n: List = out.get("n").expect("output n").get().expect("a list");
    assert_eq!(n.get(0).expect("one record").value().as_int(), Some(100_000));
}
