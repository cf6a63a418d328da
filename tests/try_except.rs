//! `try`/`except`/`else`/`finally` and bare `raise` seen from Rust: which errors each clause
//! catches, what `as e` holds, how a `finally:` block runs, and that errors a clause does not
//! catch leave with their location (checked against CPython 3.11; `python/tests/test_try.py`
//! and `test_finally.py` compare more with CPython on real text).

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
fn unknown_exception_names_and_stray_bare_raises_are_refused() {
    let e = run("def f(x):\n    try:\n        pass\n    except EOFError:\n        pass\n", AnyView::from(0i64))
        .unwrap_err();
    assert!(e.contains("line 4") && e.contains("except EOFError"), "{e}");
    let e = run("def f(x):\n    if x:\n        raise\n    return x\n", AnyView::from(0i64)).unwrap_err();
    assert!(e.contains("line 3") && e.contains("bare 'raise'"), "{e}");
}

// Each expected value is what CPython 3.11 returns for the same function and argument.
const FINALLY: &str = "def f(x):\n    out = []\n    for i in range(4):\n        try:\n            if i == x:\n                continue\n            if i == x + 2:\n                break\n            out.append(10 // (i - 1))\n        except ZeroDivisionError:\n            out.append('z')\n        finally:\n            out.append(i)\n    return out\n";

#[test]
fn a_finally_block_runs_however_its_try_ends() {
    assert_eq!(run(FINALLY, AnyView::from(0i64)).unwrap(), "[0, 'z', 1, 2]");
    assert_eq!(run(FINALLY, AnyView::from(3i64)).unwrap(), "[-10, 0, 'z', 1, 10, 2, 3]");
    assert_eq!(run(FINALLY, AnyView::from(1i64)).unwrap(), "[-10, 0, 1, 10, 2, 3]");
    // A `return` runs the block first; a `return` in the block wins; nested blocks run inside out.
    let src = "def f(x):\n    log = []\n    try:\n        try:\n            return log\n        finally:\n            log.append('inner')\n    finally:\n        log.append('outer')\n        if x:\n            return 'outer wins'\n";
    assert_eq!(run(src, AnyView::from(0i64)).unwrap(), "['inner', 'outer']");
    assert_eq!(run(src, AnyView::from(1i64)).unwrap(), "outer wins");
}

#[test]
fn an_error_leaves_after_the_finally_block_with_its_own_location() {
    let src = "def f(x):\n    try:\n        return 1 // x\n    finally:\n        y = 2\n";
    let e = run(src, AnyView::from(0i64)).unwrap_err();
    assert!(e.contains("line 3") && e.contains("integer division or modulo by zero"), "{e}");
    // An error in the block replaces the one in flight; a `return` in it drops it.
    let src = "def f(x):\n    try:\n        try:\n            return 1 // x\n        finally:\n            if x == 0:\n                return 'dropped'\n            [][x]\n    except IndexError as e:\n        return str(e)\n";
    assert_eq!(run(src, AnyView::from(0i64)).unwrap(), "dropped");
    assert_eq!(run(src, AnyView::from(1i64)).unwrap(), "list index out of range");
}

#[test]
fn a_bare_raise_raises_the_clause_s_error_again() {
    let src = "def f(x):\n    try:\n        try:\n            return {}[x]\n        except KeyError:\n            try:\n                int(x)\n            except ValueError:\n                pass\n            raise\n    except KeyError as e:\n        return 'again ' + str(e)\n";
    assert_eq!(run(src, AnyView::from("k")).unwrap(), "again 'k'");
    let e = run("def f(x):\n    try:\n        return {}[x]\n    except KeyError:\n        raise\n", AnyView::from("k"))
        .unwrap_err();
    assert!(e.contains("line 3") && e.contains("'k'"), "{e}");
}

#[test]
fn an_op_s_error_is_caught_too() {
    // A function whose body is one op call used to run as a direct call, past its clauses.
    let src = "def f(x):\n    try:\n        return math.sqrt(x)\n    except ValueError as e:\n        return str(e)\n";
    assert_eq!(run(src, AnyView::from(-1i64)).unwrap(), "math domain error");
    let src = "def f(x):\n    try:\n        return text.lower(x)\n    except TypeError:\n        return 'caught'\n";
    assert_eq!(run(src, AnyView::from(1i64)).unwrap(), "caught");
}

#[test]
fn finally_blocks_nested_deep_in_finally_blocks_are_refused_not_multiplied() {
    // Each level compiles its block several times: 200 levels would be 2**200 copies.
    let nest = |depth: usize| {
        let mut src = String::from("def f(x):\n");
        for level in 0..depth {
            let pad = "    ".repeat(level * 2 + 1);
            src.push_str(&format!("{pad}try:\n{pad}    x = x + 1\n{pad}finally:\n"));
        }
        src.push_str(&format!("{}x = x * 2\n", "    ".repeat(depth * 2 + 1)));
        src.push_str("    return x\n");
        src
    };
    // Four levels compile and run as CPython does: each body adds one, the innermost block doubles.
    assert_eq!(run(&nest(4), AnyView::from(0i64)).unwrap(), "8");
    let e = run(&nest(5), AnyView::from(0i64)).unwrap_err();
    assert!(e.contains("nested more than 4 deep"), "{e}");
    let e = run(&nest(150), AnyView::from(0i64)).unwrap_err();
    assert!(e.contains("nested more than 4 deep"), "{e}");
}
