//! Functions whose body is one op call run without a frame (`pipeline::direct`); they must give
//! the same values and the same located errors as the interpreter gives for the same call.
//!
//! Each case is written twice: as a single call (run directly) and with a `Move` in between
//! (`y = y`), which keeps it in the interpreter. Values are also checked by hand.

use anyproc::pipeline::{Format, Pipeline, script};
use anyproc::{AnyValue, AnyView, List, PackedFunc};

/// `body` as the direct form and as an interpreted twin that computes the same thing.
fn both(params: &str, call: &str) -> (PackedFunc, PackedFunc) {
    let direct = format!("def f({params}):\n    return {call}\n");
    let interpreted = format!("def f({params}):\n    y = {call}\n    y = y\n    return y\n");
    (script(&direct, "f").expect("direct compiles"), script(&interpreted, "f").expect("interpreted compiles"))
}

fn load(toml: &str) -> Pipeline {
    Pipeline::from_text(toml, Format::Toml, std::path::Path::new("."), "test.toml").expect("pipeline loads")
}

fn call(f: &PackedFunc, args: &[AnyValue]) -> Result<AnyValue, String> {
    let views: Vec<AnyView<'_>> = args.iter().map(AnyValue::view).collect();
    f.call(&views).map_err(|e| e.to_string())
}

#[test]
fn direct_and_interpreted_calls_agree_with_parameters_and_constants() {
    let (direct, interpreted) = both("s", "text.lower(s)");
    let got = call(&direct, &["HeLLo Wörld, a longer text than sixteen bytes".into()]).unwrap();
    assert_eq!(got, AnyValue::from("hello wörld, a longer text than sixteen bytes"));
    assert_eq!(got, call(&interpreted, &["HeLLo Wörld, a longer text than sixteen bytes".into()]).unwrap());

    // A constant argument next to a parameter, and parameters out of order.
    let (direct, interpreted) = both("a, b", "text.replace(b, a, \"-\")");
    let args: [AnyValue; 2] = [" ".into(), "a b c".into()];
    assert_eq!(call(&direct, &args).unwrap(), AnyValue::from("a-b-c"));
    assert_eq!(call(&direct, &args), call(&interpreted, &args));
}

#[test]
fn an_op_error_names_the_function_line_op_and_argument_in_both_forms() {
    let (direct, interpreted) = both("s", "text.lower(s)");
    let d = call(&direct, &[AnyValue::from(5i64)]).unwrap_err();
    let i = call(&interpreted, &[AnyValue::from(5i64)]).unwrap_err();
    assert!(d.contains("function 'f', line 2") && d.contains("text.lower") && d.contains("argument 0"), "{d}");
    // Same message; only the line differs (the twin's call is on line 2 too).
    assert_eq!(d, i);
}

#[test]
fn arity_is_still_checked_for_direct_functions() {
    let (direct, _) = both("s", "text.lower(s)");
    let e = call(&direct, &[]).unwrap_err();
    assert!(e.contains("f() missing 1 required positional argument: 's'"), "{e}");
}

#[test]
fn only_single_call_bodies_run_directly() {
    let listing = |src: &str| load(src).program.to_string();
    let single = "inputs = [\"text\"]\n[[steps]]\nout = \"low\"\ncall = \"ops.text.lower(text)\"\n[[outputs]]\nname = \"low\"\nfrom = \"low\"\nlayout = \"list\"\n";
    assert!(listing(single).contains("direct call of text.lower"), "{}", listing(single));
    let two = "inputs = [\"text\"]\n[[steps]]\nout = \"low\"\ncall = \"ops.text.lower(text)\"\n[[steps]]\nout = \"up\"\ncall = \"ops.text.upper(low)\"\n[[outputs]]\nname = \"up\"\nfrom = \"up\"\nlayout = \"list\"\n";
    assert!(!listing(two).contains("direct call"), "{}", listing(two));
}

#[test]
fn a_direct_pipeline_keeps_other_records_when_one_fails() {
    let src = "inputs = [\"text\"]\n[[steps]]\nout = \"ids\"\ncall = \"ops.text.chars(text)\"\n[[outputs]]\nname = \"chars\"\nfrom = \"ids\"\nlayout = \"list\"\n";
    let p = load(src);
    let records = [AnyValue::from("ab"), AnyValue::from(3i64), AnyValue::from("c")];
    let out = p.run_batch(&records, anyproc::pipeline::ErrorPolicy::Skip).expect("skip policy");
    assert_eq!(out.skipped.len(), 1, "{:?}", out.skipped);
    assert_eq!(out.skipped[0].0, 1);
    let chars: List = out.get("chars").expect("output").get().expect("a list");
    assert_eq!(chars.len(), 2);
}
