//! Bad pipelines and bad input: each gives a located message, and nothing else is lost.
//!
//! Pipelines are written inline (resources resolve against `pipelines/`); the input
//! cases run the real `anyproc` binary, since reading input is the CLI's job.

mod common;

use anyproc::pipeline::{ErrorPolicy, Format, Pipeline};
use anyproc::{AnyValue, List, NDArray};
use common::{err_text, root};
use std::process::Command;

fn load(text: &str) -> anyproc::Result<Pipeline> {
    Pipeline::from_text(text, Format::Toml, &root().join("pipelines"), "test.toml")
}

fn assert_contains(text: &str, parts: &[&str]) {
    for p in parts {
        assert!(text.contains(p), "expected {p:?} in:\n{text}");
    }
}

#[test]
fn malformed_toml_names_line_and_column() {
    let msg = err_text(load("name = \"x\"\ninputs = [\"text\"]\nsteps = 3 4\n"));
    assert!(msg.starts_with("test.toml: line 3, column 9:"), "{msg}");
    let msg = err_text(load("name = \"x\"\n[[steps]]\nout = \"a\"\ncall = \"text\"\nwhen = 3\n"));
    assert_contains(&msg, &["test.toml: line 5, column 1", "unknown field `when`"]);
}

#[test]
fn json_pipelines_parse_and_report_lines_too() {
    let ok = r#"{"name": "j", "inputs": ["text"], "steps": [{"out": "n", "call": "len(text)"}],
                 "outputs": [{"name": "n", "from": "n", "layout": "list"}]}"#;
    let p = Pipeline::from_text(ok, Format::Json, root(), "j.json").unwrap();
    let out = p.run_batch(&[AnyValue::from("héllo")], ErrorPolicy::Fail).unwrap();
    assert_eq!(out.get("n").unwrap().get::<List>().unwrap().to_vec_of::<i64>().unwrap(), vec![5]);
    let msg = err_text(Pipeline::from_text("{\"name\": \"j\",\n \"steps\": [}", Format::Json, root(), "j.json"));
    assert_contains(&msg, &["j.json: line 2, column"]);
}

#[test]
fn unknown_op_suggests_the_nearest_name() {
    let msg = err_text(load("[[steps]]\nname = \"lower\"\nout = \"a\"\ncall = \"text.lowr(text)\"\n"));
    // `text` is the input here, so the dotted name needs the explicit `ops.` prefix to be an op.
    assert_contains(&msg, &["unknown method 'lowr'"]);
    let msg = err_text(load("[[steps]]\nname = \"lower\"\nout = \"a\"\ncall = \"ops.text.lowr(text)\"\n"));
    assert_contains(&msg, &["test.toml: step 'lower': line 1:", "\"text.lowr\"", "did you mean \"text.lower\""]);
}

#[test]
fn wrong_arity_is_caught_at_load() {
    let msg = err_text(load("[[steps]]\nname = \"lower\"\nout = \"a\"\ncall = \"ops.text.lower(text, text)\"\n"));
    assert_contains(&msg, &["step 'lower'", "text.lower takes 1 arguments, 2 given"]);
    let msg = err_text(load(
        "functions = '''\ndef f(a, b):\n    return a\n'''\n[[steps]]\nout = \"x\"\ncall = \"f(text)\"\n",
    ));
    assert_contains(&msg, &["f() missing 1 required positional argument: 'b'"]);
}

#[test]
fn missing_and_mismatched_resources_are_named() {
    let msg = err_text(load("[resources.vocab]\npath = \"assets/nope.txt\"\n"));
    assert_contains(&msg, &["test.toml: resource 'vocab': cannot read", "assets/nope.txt"]);
    let msg =
        err_text(load("[resources.vocab]\npath = \"assets/bert-base-uncased/vocab.txt\"\nsha256 = \"00112233\"\n"));
    assert_contains(&msg, &["resource 'vocab'", "sha256 is 07eced375cec144d", "expected 00112233"]);
}

#[test]
fn undefined_names_are_load_errors() {
    let msg = err_text(load("[[steps]]\nname = \"s\"\nout = \"a\"\ncall = \"len(nothing)\"\n"));
    assert_contains(&msg, &["step 's'", "name 'nothing' is not defined"]);
    let msg = err_text(load(
        "[[steps]]\nname = \"first\"\nout = \"a\"\ncall = \"b\"\n[[steps]]\nout = \"b\"\ncall = \"text\"\n",
    ));
    assert_contains(&msg, &["step 'first' (line 1): 'b' is read before any step defines it"]);
    let msg = err_text(load("[[outputs]]\nname = \"o\"\nfrom = \"ghost\"\n"));
    assert_contains(&msg, &["output 'o': no input or step defines 'ghost'"]);
}

#[test]
fn syntax_errors_in_functions_name_the_file_line() {
    let msg = err_text(load("name = \"x\"\nfunctions = '''\ndef f(x):\n    return x +\n'''\n"));
    assert_contains(&msg, &["test.toml: line 4"]);
}

const TO_INT: &str = "[[steps]]\nname = \"parse\"\nout = \"n\"\ncall = \"[int(text)]\"\n\
                      [[outputs]]\nname = \"n\"\nfrom = \"n\"\nattention_mask = \"mask\"\n";

#[test]
fn a_failing_record_fails_the_batch_or_is_skipped() {
    let p = load(TO_INT).unwrap();
    let records: Vec<AnyValue> = ["1", "x", "3"].iter().map(|s| AnyValue::from(*s)).collect();
    let msg = err_text(p.run_batch(&records, ErrorPolicy::Fail).map(|o| o.records));
    assert_contains(
        &msg,
        &["test.toml: record 1: step 'parse' (line 1)", "invalid literal for int() with base 10: 'x'"],
    );
    let out = p.run_batch(&records, ErrorPolicy::Skip).unwrap();
    assert_eq!(out.records, 2);
    assert_eq!(out.skipped.len(), 1);
    assert_eq!(out.skipped[0].0, 1);
    let ids = out.get("n").unwrap().get::<NDArray>().unwrap();
    assert_eq!(ids.as_slice::<i64>().unwrap(), &[1, 3]);
}

#[test]
fn run_batches_keeps_each_batch_and_its_failure_apart() {
    let p = load(TO_INT).unwrap();
    let batch = |texts: &[&str]| texts.iter().map(|s| AnyValue::from(*s)).collect::<Vec<_>>();
    let batches = [batch(&["1", "2"]), batch(&["3", "x", "5"]), batch(&["6"])];
    let pool = anyproc::pipeline::batch::thread_pool(2).unwrap();
    let ids = |out: &anyproc::pipeline::BatchOutput| {
        out.get("n").unwrap().get::<NDArray>().unwrap().as_slice::<i64>().unwrap().to_vec()
    };
    let results = pool.install(|| p.run_batches(&batches, ErrorPolicy::Fail));
    assert_eq!(results.len(), 3);
    assert_eq!(ids(results[0].as_ref().unwrap()), [1, 2]);
    let msg = err_text(results[1].as_ref().map(|o| o.records).map_err(Clone::clone));
    assert_contains(&msg, &["test.toml: record 1: step 'parse'", "'x'"]);
    assert_eq!(ids(results[2].as_ref().unwrap()), [6]);
    let skipped = pool.install(|| p.run_batches(&batches, ErrorPolicy::Skip));
    let kept: Vec<Vec<i64>> = skipped.iter().map(|r| ids(r.as_ref().unwrap())).collect();
    assert_eq!(kept, [vec![1, 2], vec![3, 5], vec![6]]);
    assert_eq!(skipped[1].as_ref().unwrap().skipped[0].0, 1);
}

#[test]
fn endless_while_is_stopped_by_the_cap() {
    let text = "functions = '''\ndef spin(x):\n    n = 0\n    while True:\n        n += 1\n    return n\n'''\n[options]\nwhile_limit = 1000\n\
                [[steps]]\nname = \"spin\"\nout = \"n\"\ncall = \"spin(text)\"\n[[outputs]]\nname = \"n\"\nfrom = \"n\"\nlayout = \"list\"\n";
    let p = load(text).unwrap();
    let msg = err_text(p.run_batch(&[AnyValue::from("a")], ErrorPolicy::Fail).map(|o| o.records));
    assert_contains(
        &msg,
        &["record 0", "step 'spin' (line 10): function 'spin', line 4:", "while loop stopped after 1000 iterations"],
    );
}

#[test]
fn a_list_its_loop_keeps_growing_is_stopped_by_the_cap() {
    // `grow` never ends (each step appends); `queue` appends 999 items and then stops, the most
    // the cap of 999 added items allows: a worklist within the limit runs as in Python.
    let text = "functions = '''\ndef grow(x):\n    xs = [x]\n    for y in xs:\n        xs.append(y)\n    return len(xs)\n\n\
                def queue(x):\n    xs = [0]\n    for y in xs:\n        if y < 999:\n            xs.append(y + 1)\n    return len(xs)\n'''\n\
                [options]\nwhile_limit = 999\n\
                [[steps]]\nname = \"queue\"\nout = \"q\"\ncall = \"queue(text)\"\n\
                [[steps]]\nname = \"grow\"\nout = \"n\"\ncall = \"grow(text)\"\n\
                [[outputs]]\nname = \"q\"\nfrom = \"q\"\nlayout = \"list\"\n\
                [[outputs]]\nname = \"n\"\nfrom = \"n\"\nlayout = \"list\"\n";
    let p = load(text).unwrap();
    let msg = err_text(p.run_batch(&[AnyValue::from("a")], ErrorPolicy::Fail).map(|o| o.records));
    assert_contains(
        &msg,
        &[
            "record 0",
            "step 'grow'",
            "function 'grow', line 4:",
            "for loop stopped after 999 items added to its list while it ran",
        ],
    );
    // Without the endless step, the worklist's 999 added items all run: 1,000 in all.
    let bounded = text.replace("[[steps]]\nname = \"grow\"\nout = \"n\"\ncall = \"grow(text)\"\n", "");
    let bounded = bounded.replace("[[outputs]]\nname = \"n\"\nfrom = \"n\"\nlayout = \"list\"\n", "");
    let p = load(&bounded).unwrap();
    let out = p.run_batch(&[AnyValue::from("a")], ErrorPolicy::Fail).expect("the worklist runs");
    let q = out.get("q").expect("output q");
    assert_eq!(format!("{q:?}"), "[1000]");
}

#[test]
fn runtime_type_errors_name_step_op_and_argument() {
    let p = load("[[steps]]\nname = \"lower\"\nout = \"a\"\ncall = \"ops.text.lower(len(text))\"\n").unwrap();
    let msg = err_text(p.run_batch(&[AnyValue::from("abc")], ErrorPolicy::Fail).map(|o| o.records));
    assert_contains(
        &msg,
        &["test.toml: record 0: step 'lower' (line 1): text.lower: argument 0: expected str, got int"],
    );
}

fn anyproc(args: &[&str], stdin: Option<&[u8]>) -> (bool, String, String) {
    use std::io::Write;
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_anyproc"));
    cmd.args(args).current_dir(root()).stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::piped());
    cmd.stdin(std::process::Stdio::piped());
    let mut child = cmd.spawn().expect("anyproc runs");
    if let Some(input) = stdin {
        child.stdin.take().unwrap().write_all(input).unwrap();
    } else {
        drop(child.stdin.take());
    }
    let out = child.wait_with_output().unwrap();
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

/// A fresh temporary directory, removed when the test drops it.
fn temp_dir() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

#[test]
fn cli_reports_an_empty_input() {
    let (ok, _, err) = anyproc(&["run", "pipelines/bert-base-uncased.toml", "--input", "-"], Some(b""));
    assert!(!ok);
    assert_contains(&err, &["anyproc: the input holds no records"]);
    assert_eq!(err.lines().count(), 1, "one line: {err}");
}

#[test]
fn cli_non_utf8_line_fails_or_is_skipped() {
    let input = b"hello world\n\xff\xfe bad bytes\nlast line\n";
    let (ok, _, err) = anyproc(&["run", "pipelines/bert-base-uncased.toml", "--input", "-"], Some(input));
    assert!(!ok);
    // The input's line, not the pipeline file's: the message must not read as a TOML error.
    assert_contains(&err, &["bert-base-uncased.toml: input line 2: not valid UTF-8 (at byte 0)"]);
    let dir = temp_dir();
    let out = dir.path().join("skip.jsonl");
    let out_s = out.to_str().unwrap();
    let (ok, _, err) = anyproc(
        &["run", "pipelines/bert-base-uncased.toml", "--input", "-", "--skip-errors", "--output", out_s],
        Some(input),
    );
    assert!(ok, "{err}");
    assert_contains(&err, &["skipped input line 2: not valid UTF-8 (at byte 0)", "2 records (1 skipped)"]);
    let written = std::fs::read_to_string(&out).unwrap();
    let rows: Vec<serde_json::Value> = written.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows.len(), 2);
    // [CLS] hello world [SEP] and [CLS] last line [SEP], ids from the BERT vocab.
    assert_eq!(rows[0]["input_ids"].as_array().unwrap()[..4], [101, 7592, 2088, 102]);
    assert_eq!(rows[1]["input_ids"].as_array().unwrap()[..4], [101, 2197, 2240, 102]);
}

#[test]
fn cli_malformed_jsonl_records_name_their_input_line_and_column() {
    let dir = temp_dir();
    let input = dir.path().join("records.jsonl");
    // Line 2 ends inside a value (column 9 is one past its last byte); line 3 is not an object.
    std::fs::write(&input, "{\"text\": \"a\"}\n{\"text\": \n[1]\n{\"text\": \"b\"}\n").unwrap();
    let args = ["run", "pipelines/gpt2.toml", "--input", input.to_str().unwrap()];
    let (ok, _, err) = anyproc(&args, None);
    assert!(!ok);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert_contains(&err, &["gpt2.toml: input line 2: invalid JSON at column 9: EOF while parsing a value"]);
    let (ok, _, err) = anyproc(&[&args[..], &["--skip-errors"]].concat(), None);
    assert!(ok, "{err}");
    assert_contains(
        &err,
        &[
            "skipped input line 2: invalid JSON at column 9",
            "skipped input line 3: a .jsonl record must be a JSON object",
            "2 records (2 skipped)",
        ],
    );
}

#[test]
fn cli_errors_are_one_located_line() {
    let dir = temp_dir();
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "name = \"bad\"\n[[steps]]\nout = \"a\"\ncall = \"ops.text.lowr(text)\"\n").unwrap();
    let (ok, _, err) = anyproc(&["check", bad.to_str().unwrap()], None);
    assert!(!ok);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert_contains(&err, &["bad.toml: step 'a': line 2:", "did you mean \"text.lower\""]);
    let (ok, _, err) = anyproc(&["run", "pipelines/nope.toml"], None);
    assert!(!ok);
    assert_contains(&err, &["cannot read pipeline pipelines/nope.toml"]);
}

#[test]
fn cli_check_prints_the_program() {
    let (ok, out, err) = anyproc(&["check", "pipelines/keywords.toml"], None);
    assert!(ok, "{err}");
    assert_contains(&out, &["ok: inputs [\"text\"]", "function 'unicode_split_any'", "range(", ".append("]);
}

#[test]
fn cli_streams_batches_in_input_order() {
    // Batches of one record on two threads: four in flight, finishing in any order, written in
    // input order.
    let dir = temp_dir();
    let p = dir.path().join("to_int_windows.toml");
    std::fs::write(&p, TO_INT).unwrap();
    let input = b"1\n2\n3\n4\n5\n6\nx\n8\n9\n10\n";
    let args = ["run", p.to_str().unwrap(), "--input", "-", "--batch-size", "1", "--threads", "2"];
    let (ok, _, err) = anyproc(&args, Some(input));
    assert!(!ok);
    assert_contains(&err, &["to_int_windows.toml: input line 7: step 'parse' (line 1):"]);
    let out = dir.path().join("to_int_windows.npz");
    let mut skip = args.to_vec();
    skip.extend(["--skip-errors", "--output", out.to_str().unwrap()]);
    let (ok, _, err) = anyproc(&skip, Some(input));
    assert!(ok, "{err}");
    assert_contains(&err, &["skipped input line 7:", "9 records (1 skipped)"]);
    let arrays = anyproc::ndarray::npy::read_npz(&out).unwrap();
    let n = &arrays.iter().find(|(k, _)| k == "n").unwrap().1;
    assert_eq!(n.as_slice::<i64>().unwrap(), &[1, 2, 3, 4, 5, 6, 8, 9, 10]);
}

#[test]
fn cli_failing_record_names_its_input_line() {
    let dir = temp_dir();
    let p = dir.path().join("to_int.toml");
    std::fs::write(&p, TO_INT).unwrap();
    let (ok, _, err) = anyproc(&["run", p.to_str().unwrap(), "--input", "-"], Some(b"1\nx\n3\n"));
    assert!(!ok);
    assert_contains(&err, &["to_int.toml: input line 2: step 'parse' (line 1):", "invalid literal for int()"]);
    let out = dir.path().join("to_int.npz");
    let (ok, _, err) = anyproc(
        &["run", p.to_str().unwrap(), "--input", "-", "--skip-errors", "--output", out.to_str().unwrap()],
        Some(b"1\nx\n3\n"),
    );
    assert!(ok, "{err}");
    assert_contains(&err, &["skipped input line 2:", "2 records (1 skipped)"]);
    let arrays = anyproc::ndarray::npy::read_npz(&out).unwrap();
    let n = &arrays.iter().find(|(k, _)| k == "n").unwrap().1;
    assert_eq!(n.as_slice::<i64>().unwrap(), &[1, 3]);
}

#[test]
fn errors_in_nested_blocks_name_the_file_line() {
    // The function's source starts on line 2 of the file; every block's lines move with it:
    // an `except` clause (line 6) and a loop's `else:` block (line 10).
    let text = "functions = '''\ndef f(x):\n    try:\n        n = int(x)\n    except ValueError:\n        n = 1 // 0\n\
                \x20   for c in x:\n        pass\n    else:\n        n = x[10]\n    return n\n'''\n\
                [[steps]]\nname = \"f\"\nout = \"n\"\ncall = \"f(text)\"\n[[outputs]]\nname = \"n\"\nfrom = \"n\"\nlayout = \"list\"\n";
    let p = load(text).unwrap();
    let run = |x: &str| err_text(p.run_batch(&[AnyValue::from(x)], ErrorPolicy::Fail).map(|o| o.records));
    assert_contains(&run("a"), &["function 'f', line 6:", "integer division or modulo by zero"]);
    assert_contains(&run("12"), &["function 'f', line 10:", "string index out of range"]);
}
