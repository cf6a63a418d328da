//! Functions whose body only builds a list of a parameter's elements run without a frame when
//! the parameter is a word (`pipeline::direct_extend`), and as interpreted for anything else;
//! either way they must give what the interpreter gives for the same code.
//!
//! Each shape is written twice: as is (run without a frame) and with `k = 0` first, which keeps
//! it in the interpreter. Values are also checked against `str::chars` and by hand.

use anyproc::pipeline::{script, script_listing};
use anyproc::{AnyValue, AnyView, Dict, ErrorKind, List, PackedFunc};

/// The three ways untyped code writes "the list of the elements of `s`".
const SHAPES: [&str; 3] = [
    // The seed's unicode_split_any, verbatim.
    "    ret = []\n    for i in range(len(s)):\n        res = s[i]\n        ret.append(res)\n    return ret\n",
    "    out = []\n    for c in s:\n        out.append(c)\n    return out\n",
    "    return [c for c in s]\n",
];

/// A shape as the frameless form and as an interpreted twin.
fn both(body: &str) -> (PackedFunc, PackedFunc) {
    let direct = format!("def f(s):\n{body}");
    let interpreted = format!("def f(s):\n    k = 0\n{body}");
    (script(&direct, "f").expect("direct compiles"), script(&interpreted, "f").expect("twin compiles"))
}

fn call(f: &PackedFunc, arg: &AnyValue) -> Result<AnyValue, String> {
    f.call(&[arg.view()]).map_err(|e| e.to_string())
}

/// The items of a list result as strings (their `str()`), to compare with expectations.
fn texts(v: &AnyValue) -> Vec<String> {
    let list: List = v.view().get().expect("a list");
    list.to_vec().iter().map(|x| x.to_string()).collect()
}

#[test]
fn each_shape_is_recognised_and_a_twin_with_one_more_statement_is_not() {
    for body in SHAPES {
        let direct = script_listing(&format!("def f(s):\n{body}"), "f").expect("compiles");
        let twin = script_listing(&format!("def f(s):\n    k = 0\n{body}"), "f").expect("compiles");
        assert!(direct.to_string().contains("runs without a frame"), "{direct}");
        assert!(!twin.to_string().contains("runs without a frame"), "{twin}");
    }
}

#[test]
fn text_of_every_kind_splits_into_its_characters_in_both_forms() {
    let words = [
        "",
        "a",
        "word",
        "eightchr",
        "ninechars",
        "héllo wörld",
        "日本語のテキスト",
        "emoji 😀 and combining e\u{301}",
        "a text longer than sixty-four bytes, which the interpreter may widen to UCS4 on indexing",
        // Past the frameless form's bound (4096 bytes): interpreted.
        &"é".repeat(3000),
    ];
    for body in SHAPES {
        let (direct, interpreted) = both(body);
        for w in words {
            let want: Vec<String> = w.chars().map(String::from).collect();
            let arg = AnyValue::from(w);
            let got = call(&direct, &arg).expect("splits");
            assert_eq!(texts(&got), want, "{w:?} in\n{body}");
            assert_eq!(Ok(got), call(&interpreted, &arg), "{w:?} in\n{body}");
        }
        // UCS4 text (a value from outside can arrive in that form).
        let chars: Vec<char> = "ça va".chars().collect();
        let arg = AnyValue::from_chars(&chars);
        assert_eq!(texts(&call(&direct, &arg).expect("splits")), ["ç", "a", " ", "v", "a"]);
        assert_eq!(call(&direct, &arg), call(&interpreted, &arg));
    }
}

#[test]
fn a_list_argument_is_copied_into_a_new_list() {
    for body in SHAPES {
        let (direct, interpreted) = both(body);
        let arg = AnyValue::from(List::from_iter([AnyValue::from(1i64), AnyValue::from("x"), AnyValue::none()]));
        let got = call(&direct, &arg).expect("copies");
        assert_eq!(texts(&got), ["1", "x", "None"]);
        assert_eq!(Ok(got.clone()), call(&interpreted, &arg));
        // A new list: appending to the result leaves the argument as it was.
        let mut out: List = got.view().get().expect("a list");
        out.push(AnyValue::from(2i64));
        assert_eq!(texts(&arg), ["1", "x", "None"]);
    }
}

#[test]
fn other_arguments_run_as_written_with_the_interpreters_results_and_errors() {
    let mut d = Dict::new();
    d.set(AnyValue::from("k"), AnyValue::from(1i64));
    let args = [AnyValue::from(5i64), AnyValue::none(), AnyValue::from(d)];
    for body in SHAPES {
        let (direct, interpreted) = both(body);
        for arg in &args {
            let (got, want) = (call(&direct, arg), call(&interpreted, arg));
            // The twin's lines are one further down; otherwise the same message.
            let shift = |r: Result<AnyValue, String>| r.map_err(|e| bump_lines(&e));
            assert_eq!(shift(got), want, "{arg} in\n{body}");
        }
    }
    // By hand: an int is not iterable; a dict's loop gives its keys (the seed's `s[i]` looks
    // up key 0 instead, a KeyError).
    let (for_each, _) = both(SHAPES[1]);
    let e = call(&for_each, &AnyValue::from(5i64)).unwrap_err();
    assert!(e.contains("function 'f', line 3") && e.contains("'int' object is not iterable"), "{e}");
    assert_eq!(texts(&call(&for_each, &args[2]).expect("keys")), ["k"]);
    let (seed, _) = both(SHAPES[0]);
    let e = seed.call(&[args[2].view()]).unwrap_err();
    assert_eq!((e.kind(), e.to_string().as_str()), (ErrorKind::Key, "function 'f', line 4: 0"));
}

/// `e` with each `line N` read as `line N+1`.
fn bump_lines(e: &str) -> String {
    let mut out = String::new();
    let mut rest = e;
    while let Some(at) = rest.find("line ") {
        out.push_str(&rest[..at + 5]);
        rest = &rest[at + 5..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        match rest[..digits].parse::<u32>() {
            Ok(n) => out.push_str(&(n + 1).to_string()),
            Err(_) => out.push_str(&rest[..digits]),
        }
        rest = &rest[digits..];
    }
    out.push_str(rest);
    out
}

#[test]
fn arity_is_still_checked() {
    let (direct, _) = both(SHAPES[0]);
    let e = direct.call(&[]).unwrap_err().to_string();
    assert!(e.contains("f() missing 1 required positional argument: 's'"), "{e}");
    let e = direct.call(&[AnyView::from("a"), AnyView::from("b")]).unwrap_err().to_string();
    assert!(e.contains("f() takes 1 positional argument but 2 were given"), "{e}");
}

#[test]
fn a_caller_in_the_same_program_gets_the_same_lists() {
    // Called from script code, the function is inlined or framed, not frameless: same result.
    let src = format!("def f(s):\n{}\ndef g(words):\n    return [f(w) for w in words]\n", SHAPES[0]);
    let g = script(&src, "g").expect("compiles");
    let words = AnyValue::from(List::from_iter([AnyValue::from("ab"), AnyValue::from("é")]));
    let got = call(&g, &words).expect("runs");
    assert_eq!(texts(&got), ["['a', 'b']", "['é']"]);
}

#[test]
fn a_caller_in_the_same_program_gets_the_same_errors() {
    // From script code the frameless form runs too (no frame for the callee), and an argument
    // it does not apply to runs the callee in a frame: errors name both lines either way.
    for body in SHAPES {
        let program = |callee: String| format!("{callee}\ndef g(x):\n    return f(x)\n");
        let direct = script(&program(format!("def f(s):\n{body}")), "g").expect("compiles");
        let twin = script(&program(format!("def f(s):\n    k = 0\n{body}")), "g").expect("compiles");
        let arg = AnyValue::from(5i64);
        let (got, want) = (call(&direct, &arg).unwrap_err(), call(&twin, &arg).unwrap_err());
        assert_eq!(bump_lines(&got), want, "{body}");
        assert!(got.contains("'int' object is not iterable") || got.contains("has no len()"), "{got}");
        let word = AnyValue::from("héllo");
        assert_eq!(call(&direct, &word), call(&twin, &word));
    }
}
