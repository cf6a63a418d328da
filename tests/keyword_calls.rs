//! Keyword arguments, default parameter values and lambdas seen from Rust: a scripted function
//! with defaults called with fewer arguments, lambdas as values, and the errors a caller gets
//! (CPython 3.11's wording, hand-checked). `python/tests/test_keywords.py` compares the same
//! features with CPython on real text.

use anyproc::pipeline::{Format, Pipeline, script};
use anyproc::{AnyValue, AnyView, PackedFunc};

fn call(f: &PackedFunc, args: &[AnyView<'_>]) -> Result<String, String> {
    f.call(args).map(|v| v.to_string()).map_err(|e| e.to_string())
}

const GREET: &str = "def greet(name, greeting=\"hi\", times=1):\n    return (greeting + \" \") * times + name\n";

#[test]
fn a_caller_from_rust_may_leave_out_parameters_with_defaults() {
    let f = script(GREET, "greet").expect("compiles");
    assert_eq!(call(&f, &[AnyView::from("ann")]).unwrap(), "hi ann");
    assert_eq!(call(&f, &[AnyView::from("ann"), AnyView::from("yo")]).unwrap(), "yo ann");
    assert_eq!(call(&f, &[AnyView::from("ann"), AnyView::from("yo"), AnyView::from(2i64)]).unwrap(), "yo yo ann");
    let e = call(&f, &[]).unwrap_err();
    assert!(e.contains("greet() missing 1 required positional argument: 'name'"), "{e}");
    let four = [AnyView::from("a"), AnyView::from("b"), AnyView::from(1i64), AnyView::from(0i64)];
    let e = call(&f, &four).unwrap_err();
    assert!(e.contains("greet() takes from 1 to 3 positional arguments but 4 were given"), "{e}");
}

#[test]
fn keyword_arguments_bind_by_name_in_pipeline_steps() {
    let toml = format!(
        "functions = '''\n{GREET}'''\n[[steps]]\nout = \"g\"\ncall = \"greet(text, times=2)\"\n\
         [[steps]]\nout = \"h\"\ncall = \"greet(greeting=text, name='x')\"\n\
         [[outputs]]\nname = \"g\"\nfrom = \"g\"\nlayout = \"list\"\n[[outputs]]\nname = \"h\"\nfrom = \"h\"\nlayout = \"list\"\n"
    );
    let p = Pipeline::from_text(&toml, Format::Toml, std::path::Path::new("."), "kw.toml").expect("loads");
    let out = p.run_record(&[AnyView::from("yo")]).expect("runs");
    assert_eq!(out.iter().map(ToString::to_string).collect::<Vec<_>>(), ["hi hi yo", "yo x"]);
}

#[test]
fn lambdas_are_function_values() {
    let src = "def f(xs):\n    key = lambda w: -len(w)\n    \
               return [sorted(xs, key=key), sorted(xs, key=lambda w: w[-1:], reverse=True), max(xs, key=len, default=0)]\n";
    let f = script(src, "f").expect("compiles");
    let xs: AnyValue = anyproc::List::from_vec(vec!["bb".into(), "a".into(), "ccc".into(), "ab".into()]).into();
    assert_eq!(call(&f, &[xs.view()]).unwrap(), "[['ccc', 'bb', 'ab', 'a'], ['ccc', 'bb', 'ab', 'a'], 'ccc']");
    // A lambda's defaults are evaluated where it is made (hand-computed: 3 * 2 and 3 * 5).
    let made = script("def make(n):\n    g = lambda a, b=n * 2: a * b\n    return [g(3), g(3, 5)]\n", "make");
    let made = made.expect("compiles");
    assert_eq!(call(&made, &[AnyView::from(1i64)]).unwrap(), "[6, 15]");
    // A default before a parameter without one is CPython's syntax error.
    let e = script("def make():\n    return lambda a=1, b: a\n", "make").unwrap_err().to_string();
    assert!(e.contains("non-default argument follows default argument"), "{e}");
}

#[test]
fn a_lambda_reading_a_variable_that_changes_is_only_a_key() {
    let ok = script("def f(xs, d):\n    return sorted(xs, key=lambda w: d[w])\n", "f");
    assert!(ok.is_ok(), "{:?}", ok.err().map(|e| e.to_string()));
    // Python's lambda reads x when it runs, after x changed: anyscript's would not see that.
    let e = script("def f(x):\n    g = lambda: x\n    x = 2\n    return g()\n", "f").unwrap_err().to_string();
    assert!(e.contains("line 2") && e.contains("enclosing function's variable 'x'"), "{e}");
    let e = script("def f(xs):\n    return [lambda: x for x in xs]\n", "f").unwrap_err().to_string();
    assert!(e.contains("line 2") && e.contains("enclosing function's variable 'x'"), "{e}");
    // One whose variables cannot change goes anywhere, made with their values.
    let g = script("def f(x):\n    g = lambda y: x + y\n    return g(1)\n", "f").expect("compiles");
    assert_eq!(g.call(&[AnyView::from(41i64)]).unwrap().get::<i64>().unwrap(), 42);
    let e = script("def f(x):\n    return (lambda a, b: a)(x)\n", "f").expect("compiles").call(&[AnyView::from(1i64)]);
    let e = e.unwrap_err().to_string();
    assert!(e.contains("f.<locals>.<lambda>() missing 1 required positional argument: 'b'"), "{e}");
}

#[test]
fn lambdas_nest_and_built_ins_are_one_object_each() {
    // The compiler kept its list of lambdas borrowed while it compiled one (a panic, reported
    // as an internal error) when a lambda held another.
    let f = script("def f(x):\n    return [(lambda p: (lambda q: q * 2)(p))(x), sorted([[3, 1], [2]], key=lambda p: sorted(p, key=lambda q: -q))]\n", "f")
        .expect("compiles");
    assert_eq!(call(&f, &[AnyView::from(4i64)]).unwrap(), "[8, [[2], [3, 1]]]");
    let f = script("def f(x):\n    k = len\n    return [k == len, k is len, k(x)]\n", "f").expect("compiles");
    assert_eq!(call(&f, &[AnyView::from("abc")]).unwrap(), "[True, True, 3]");
}
