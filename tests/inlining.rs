//! Calls of small leaf functions run inlined in their callers: same results, same errors.

use anyproc::pipeline::json::any_to_json;
use anyproc::pipeline::{script, script_listing};
use anyproc::{AnyView, ErrorKind};

/// Leaves with an early return from inside a loop, a `+=` on a str parameter (which must not
/// change the caller's string), a list parameter appended to (which must), and a parameter
/// returned as it is (which must not empty the caller's variable).
const LEAVES: &str = r#"
def first_long(words, n):
    for w in words:
        if len(w) > n:
            return w
    return ""

def shout(s):
    s += "!"
    return s

def push(xs, x):
    xs.append(x)
    return len(xs)

def ident(x):
    return x

def main(text):
    words = text.split()
    out = []
    for n in range(4):
        out.append(first_long(words, n))
    w = words[0]
    loud = shout(w)
    acc = []
    sizes = [push(acc, w), push(acc, loud)]
    same = ident(w)
    return [out, w, loud, acc, sizes, same, ident(words)[1]]
"#;

#[test]
fn inlined_leaves_give_what_cpython_gives() {
    let listing = script_listing(LEAVES, "main").unwrap();
    let main = listing.split("\nfn#1 ").next().unwrap();
    // main, the entry, is fn#0 (it swaps places with first_long, now fn#4); shout, push and
    // ident are fn#1 to fn#3. Every call site is inlined (push twice, ident twice), no call is left.
    for (func, sites) in [(4, 1), (1, 1), (2, 2), (3, 2)] {
        assert_eq!(main.matches(&format!("(fn#{func} inlined at ")).count(), sites, "fn#{func}:\n{main}");
    }
    assert!(!main.contains("= call fn#"), "{main}");
    let f = script(LEAVES, "main").unwrap();
    let got = any_to_json(&f.call(&[AnyView::from("a bb ccc dddd")]).unwrap()).unwrap();
    // CPython 3.11: json.dumps(main('a bb ccc dddd')).
    let want = serde_json::json!([["a", "bb", "ccc", "dddd"], "a", "a!", ["a", "a!"], [1, 2], "a", "bb"]);
    assert_eq!(got, want);
    // Called again, the inlined bodies start from fresh registers and loop states.
    let again = any_to_json(&f.call(&[AnyView::from("xyz q")]).unwrap()).unwrap();
    assert_eq!(
        again,
        serde_json::json!([["xyz", "xyz", "xyz", ""], "xyz", "xyz!", ["xyz", "xyz!"], [1, 2], "xyz", "q"])
    );
}

/// A leaf that fails on a str; `direct` calls it (inlined), `by_value` through a function value
/// (a real call), so both messages can be compared.
const FAILING: &str = r#"
def bump(x):
    y = x + 1
    return y

def direct(v):
    return bump(v)

def by_value(v):
    f = bump
    return f(v)
"#;

#[test]
fn errors_in_inlined_code_name_the_callee_and_the_call() {
    assert!(script_listing(FAILING, "direct").unwrap().contains("(fn#1 inlined at "));
    let inlined = script(FAILING, "direct").unwrap().call(&[AnyView::from("a")]).unwrap_err();
    let called = script(FAILING, "by_value").unwrap().call(&[AnyView::from("a")]).unwrap_err();
    assert_eq!(inlined.kind(), ErrorKind::Type);
    let text = inlined.to_string();
    assert!(text.starts_with("function 'direct', line 7: function 'bump', line 3: "), "{text}");
    // The same frames as the real call, but for the caller's name and line.
    let tail = |e: &anyproc::Error| e.to_string().split_once("function 'bump'").unwrap().1.to_string();
    assert_eq!(tail(&inlined), tail(&called));
    assert_eq!(inlined.frames().count(), called.frames().count());
}

#[test]
fn recursive_and_large_functions_are_called() {
    let src = "def fact(n):\n    if n < 2:\n        return 1\n    return n * fact(n - 1)\n\ndef main(n):\n    return fact(n)\n";
    let listing = script_listing(src, "main").unwrap();
    assert!(!listing.contains("inlined"), "fact calls itself, so it is no leaf:\n{listing}");
    let f = script(src, "main").unwrap();
    assert_eq!(any_to_json(&f.call(&[AnyView::from(10i64)]).unwrap()).unwrap(), serde_json::json!(3628800));
}
