//! `try`/`except`/`else` seen from Rust: which errors each clause catches, what `as e` holds,
//! and that errors a clause does not catch leave with their location (hand-checked against
//! CPython 3.11; `python/tests/test_try.py` compares more with CPython on real text).

use anyproc::AnyView;
use anyproc::pipeline::script;

fn run(src: &str, arg: AnyView<'_>) -> Result<String, String> {
    let f = script(src, "f").map_err(|e| e.to_string())?;
    f.call(&[arg]).map(|v| v.to_string()).map_err(|e| e.to_string())
}

const CATCH: &str = "def f(x):\n    try:\n        v = [10, 20][x]\n        w = 100 // x\n    except IndexError as e:\n        return 'index: ' + str(e)\n    except (ZeroDivisionError, TypeError) as e:\n        return 'math: ' + str(e)\n    else:\n        return v + w\n";

#[test]
fn clauses_catch_their_kinds_in_order() {
    assert_eq!(run(CATCH, AnyView::from(1i64)).unwrap(), "120");
    assert_eq!(run(CATCH, AnyView::from(5i64)).unwrap(), "index: list index out of range");
    assert_eq!(run(CATCH, AnyView::from(0i64)).unwrap(), "math: integer division or modulo by zero");
    assert_eq!(run(CATCH, AnyView::from("a")).unwrap(), "math: list indices must be integers or slices, not str");
}

#[test]
fn base_classes_catch_their_subclasses() {
    let src = "def f(x):\n    out = []\n    for k in [x, 'zz']:\n        try:\n            out.append({'a': 1}[k])\n        except LookupError as e:\n            out.append(str(e))\n    try:\n        out.append(1 / 0)\n    except ArithmeticError:\n        out.append('arith')\n    try:\n        out.append(int(x))\n    except Exception as e:\n        out.append(str(e))\n    return out\n";
    assert_eq!(
        run(src, AnyView::from("a")).unwrap(),
        "[1, \"'zz'\", 'arith', \"invalid literal for int() with base 10: 'a'\"]"
    );
}

#[test]
fn errors_not_caught_keep_their_location() {
    let src = "def g(x):\n    return x + 1\n\ndef f(x):\n    try:\n        return g(x)\n    except KeyError:\n        return 0\n";
    let e = run(src, AnyView::from("s")).unwrap_err();
    assert!(e.contains("line 6") && e.contains("line 2") && e.contains("can only concatenate str"), "{e}");
    // An error raised in a clause leaves too.
    let src = "def f(x):\n    try:\n        return int(x)\n    except ValueError:\n        return {}[x]\n";
    let e = run(src, AnyView::from("q")).unwrap_err();
    assert!(e.contains("line 5") && e.contains("'q'"), "{e}");
}

#[test]
fn the_as_variable_is_deleted_after_its_clause() {
    let src = "def f(x):\n    try:\n        x = 1 // x\n    except ZeroDivisionError as e:\n        x = 'caught'\n    return [x, e]\n";
    let e = run(src, AnyView::from(0i64)).unwrap_err();
    assert!(e.contains("cannot access local variable 'e' where it is not associated with a value"), "{e}");
}

#[test]
fn unknown_exception_names_and_finally_are_refused() {
    let e = run("def f(x):\n    try:\n        pass\n    except RecursionError:\n        pass\n", AnyView::from(0i64))
        .unwrap_err();
    assert!(e.contains("line 4") && e.contains("except RecursionError"), "{e}");
    let e = run("def f(x):\n    try:\n        pass\n    finally:\n        pass\n", AnyView::from(0i64)).unwrap_err();
    assert!(e.contains("'finally' is not supported"), "{e}");
}

#[test]
fn an_op_s_error_is_caught_too() {
    // A function whose body is one op call used to run as a direct call, past its clauses.
    let src = "def f(x):\n    try:\n        return math.sqrt(x)\n    except ValueError as e:\n        return str(e)\n";
    assert_eq!(run(src, AnyView::from(-1i64)).unwrap(), "math domain error");
    let src = "def f(x):\n    try:\n        return text.lower(x)\n    except TypeError:\n        return 'caught'\n";
    assert_eq!(run(src, AnyView::from(1i64)).unwrap(), "caught");
}
