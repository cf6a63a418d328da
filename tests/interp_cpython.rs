//! The interpreter against CPython: the functions of `tests/data/anyscript_cases.py`
//! (plain Python in the anyscript subset) run on real corpus lines in both, results equal.
//!
//! CPython is the one named by `ANYPROC_PYTHON` (CI sets it); without it the comparison
//! is skipped, but a few hand-computed cases below still run.

mod common;

use anyproc::pipeline::json::any_to_json;
use anyproc::pipeline::script;
use anyproc::{AnyView, List};
use common::{corpus, root};
use std::io::Write;

/// The file of functions most tests here use.
const CASES_FILE: &str = "tests/data/anyscript_cases.py";

fn source_of(file: &str) -> String {
    std::fs::read_to_string(root().join(file)).unwrap()
}

/// The script's functions up to the `CASES` list (the `__main__` driver is not anyscript).
fn functions_of(file: &str) -> String {
    let src = source_of(file);
    src[..src.find("CASES = [").unwrap()].to_string()
}

fn functions() -> String {
    functions_of(CASES_FILE)
}

fn case_names_of(file: &str) -> Vec<String> {
    let src = source_of(file);
    let list = &src[src.find("CASES = [").unwrap() + 9..];
    let list = &list[..list.find(']').unwrap()];
    list.split(',').map(|s| s.trim().trim_matches('"').to_string()).filter(|s| !s.is_empty()).collect()
}

fn call(name: &str, arg: &str) -> serde_json::Value {
    let f = script(&functions(), name).unwrap_or_else(|e| panic!("{name}: {e}"));
    any_to_json(&f.call(&[AnyView::from(arg)]).unwrap_or_else(|e| panic!("{name}({arg:?}): {e}"))).unwrap()
}

#[test]
fn hand_computed_cases() {
    let json = |s: &str| serde_json::from_str::<serde_json::Value>(s).unwrap();
    assert_eq!(call("unicode_split_any", "añ😀b"), json(r#"["a","ñ","😀","b"]"#));
    assert_eq!(call("count_vowels", "Éa xyz"), json("2"));
    assert_eq!(call("collatz_steps", "abcdef"), json("16")); // n = 7: 7 22 11 34 17 52 26 13 40 20 10 5 16 8 4 2 1
    assert_eq!(
        call("fizz", "abcdefghijklmno"),
        json(r#"["1","2","Fizz","4","Buzz","Fizz","7","8","Fizz","Buzz","11","Fizz","13","14","FizzBuzz","16"]"#)
    );
    assert_eq!(call("reverse_words", "one two three"), json(r#""three two one|eerht owt |three|ewte""#));
    assert_eq!(call("first_long_word", "short words only"), json("null"));
    // Vowels skipped, stop at "z"; then j = 0: 0 2 4, j = 1 skipped, j = 2: 22 24, j = 3: 33.
    assert_eq!(call("skip_and_stop", "bad zoo"), json(r#""bd 024222433""#));
    assert_eq!(call("numbers", "a1b2"), json("[5, 40.0, true, -4, 2, 1024, 3.5]"));
}

#[test]
fn every_case_equals_cpython_on_corpus_lines() {
    compare_with_cpython(CASES_FILE, 400, 10);
}

#[test]
fn loops_over_a_list_they_change_equal_cpython() {
    compare_with_cpython("tests/data/list_mutation_cases.py", 100, 2);
}

/// Runs every case of `file` on the first `n_lines` corpus lines (and a few edge cases) in
/// CPython and in anyproc, and asserts the results are equal; `min_cases` guards the parse
/// of the file's `CASES` list.
fn compare_with_cpython(file: &str, n_lines: usize, min_cases: usize) {
    let Some(python) = std::env::var_os("ANYPROC_PYTHON") else {
        eprintln!("ANYPROC_PYTHON not set; skipping the CPython comparison");
        return;
    };
    let (_, lines) = corpus();
    let mut lines: Vec<String> = lines.into_iter().take(n_lines).collect();
    // Edge cases beside the corpus: empty, spaces only, non-BMP, combining marks.
    lines.extend(["".into(), "   ".into(), "😀 emoji 😀 e".into(), "e\u{301}te\u{301} (a, b, , c)".into()]);
    let mut child = std::process::Command::new(python)
        .arg(root().join(file))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python runs");
    child.stdin.take().unwrap().write_all(lines.join("\n").as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "CPython failed");
    let theirs: Vec<serde_json::Value> =
        String::from_utf8(output.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let names = case_names_of(file);
    assert!(names.len() >= min_cases);
    assert_eq!(theirs.len(), names.len() * lines.len());
    let src = functions_of(file);
    let mut failures = Vec::new();
    for (k, name) in names.iter().enumerate() {
        let f = script(&src, name).unwrap_or_else(|e| panic!("{name}: {e}"));
        for (i, line) in lines.iter().enumerate() {
            let ours = f.call(&[AnyView::from(line.as_str())]).map(|v| any_to_json(&v).unwrap());
            let want = &theirs[k * lines.len() + i];
            match ours {
                Ok(v) if &v == want => {}
                other => failures.push(format!("{name}({line:?}): anyproc {other:?}, CPython {want}")),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} mismatches; first 5:\n{}",
        failures.len(),
        failures[..failures.len().min(5)].join("\n")
    );
}

#[test]
fn the_seed_function_keeps_characters_inline() {
    let f = script(&functions(), "unicode_split_any").unwrap();
    let out: List = f.call(&[AnyView::from("añ😀日")]).unwrap().get().unwrap();
    assert_eq!(out.len(), 4);
    out.with_items(|items| assert!(items.iter().all(|v| !v.is_object()), "one-character strings stay inline"));
}

/// Calls `name` of a scratch script on `args`.
fn run_script(src: &str, name: &str, args: &[AnyView<'_>]) -> anyproc::Result<serde_json::Value> {
    let f = script(src, name)?;
    f.call(args).map(|v| any_to_json(&v).unwrap())
}

#[test]
fn append_loops_run_as_one_extend_and_leave_the_loop_variables() {
    // The seed's loop and its relatives compile to the fused extend (the listing shows it) ...
    // (The entry function is listed first, as fn#0.)
    let entry = |name: &str| {
        let listing = anyproc::pipeline::script_listing(&functions(), name).unwrap();
        listing.split("fn#1 ").next().unwrap().to_string()
    };
    let program = entry("append_loops");
    // Nine append loops; the one appending a list to itself is left as written.
    assert_eq!(program.matches(".extend(").count(), 8, "{program}");
    let seed = entry("unicode_split_any");
    assert_eq!(seed.matches(".extend(").count(), 1, "{seed}");
    // ... and give what CPython gives (hand-computed from CPython 3.11's output).
    let want = serde_json::json!([
        ["a", "b", " ", "c", "é"],
        ["a", "b", " ", "c", "é"],
        ["a", "b", " ", "c", "é"],
        ["ab", "cé"],
        ["ab", "cé"],
        ["ab", "cé", "ab", "cé"],
        ["b", "a"],
        ["a", "b", " ", "c", "é"],
        ["a", "b", " ", "c", "é"],
        4,
        "é",
        4,
        "é",
        "cé",
        1
    ]);
    assert_eq!(call("append_loops", "ab cé"), want);
    let empty = serde_json::json!([[], [], [], [], [], [], ["b", "a"], [], [], -1, "", -1, "", "", -1]);
    assert_eq!(call("append_loops", ""), empty);
}

#[test]
fn append_loops_that_do_not_fit_run_as_written() {
    let src = "
def into_text(s):
    out = \"\"
    for c in s:
        out.append(c)
    return out

def over_dict(d):
    out = []
    for k in d:
        out.append(k)
    return out

def over_int(n):
    out = []
    for i in range(len(n)):
        out.append(n[i])
    return out

def nested(xs):
    out = []
    for x in xs:
        out.append(x)
    out[0].append(9)
    return [out, xs]
";
    // Not a list to append to: the loop runs and fails as CPython does.
    let e = run_script(src, "into_text", &[AnyView::from("ab")]).unwrap_err().to_string();
    assert!(e.contains("'str' object has no attribute 'append'"), "{e}");
    // An empty sequence never reaches the append, as in CPython.
    assert_eq!(run_script(src, "into_text", &[AnyView::from("")]).unwrap(), serde_json::json!(""));
    // A dict is iterated by its keys.
    let d = anyproc::Dict::new();
    let mut d2 = d.clone();
    d2.set("k", 1i64);
    let dv = anyproc::AnyValue::from(d);
    assert_eq!(run_script(src, "over_dict", &[dv.view()]).unwrap(), serde_json::json!(["k"]));
    // len() of an int is CPython's TypeError.
    let e = run_script(src, "over_int", &[AnyView::from(5i64)]).unwrap_err().to_string();
    assert!(e.contains("len()"), "{e}");
    // Elements are shared, not copied: appending to the inner list shows through both.
    let inner = List::from_vec(vec![1i64.into()]);
    let xs = List::from_vec(vec![anyproc::AnyValue::from(inner)]);
    let xs = anyproc::AnyValue::from(xs);
    assert_eq!(run_script(src, "nested", &[xs.view()]).unwrap(), serde_json::json!([[[1, 9]], [[1, 9]]]));
}
