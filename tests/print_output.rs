//! `print()` in a pipeline's functions, run by the `anyproc` binary: the text reaches standard
//! output as CPython's `print` would write it, a line per call, and the tensors are unchanged.

use std::io::Write;
use std::process::{Command, Stdio};

const PIPELINE: &str = r#"name = "printing"
inputs = ["text"]
functions = '''
def words(text):
    ws = text.split()
    print(len(ws), ws, sep=" words: ")
    print("first", repr(ws[0]) if ws else None, end="!\n")
    return len(ws)
'''
[[steps]]
out = "n"
call = "words(text)"
[[outputs]]
name = "n"
from = "n"
layout = "list"
"#;

#[test]
fn print_writes_to_standard_output() {
    let dir = tempfile::tempdir().unwrap();
    let pipeline = dir.path().join("printing.toml");
    std::fs::write(&pipeline, PIPELINE).unwrap();
    let output = dir.path().join("out.jsonl");
    let mut child = Command::new(env!("CARGO_BIN_EXE_anyproc"))
        .args(["run", pipeline.to_str().unwrap(), "--input", "-", "--threads", "1"])
        .args(["--output", output.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("anyproc runs");
    child.stdin.take().unwrap().write_all("the cat sat\n\nnaïve café\n".as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // What CPython 3.11 prints for the same function on the same three lines.
    let expected = "3 words: ['the', 'cat', 'sat']\nfirst 'the'!\n\
                    0 words: []\nfirst None!\n\
                    2 words: ['naïve', 'café']\nfirst 'naïve'!\n";
    assert_eq!(String::from_utf8_lossy(&out.stdout), expected);
    let records = std::fs::read_to_string(&output).unwrap();
    assert_eq!(records.lines().collect::<Vec<_>>(), ["{\"n\":3}", "{\"n\":0}", "{\"n\":2}"]);
}
