//! Malformed scripts and pipeline files never crash: thousands of mutants of the test corpus
//! (lines dropped, doubled, swapped or re-indented, fragments of syntax spliced in) are parsed,
//! compiled and run, and each must end in a value or an error, never a panic.
//!
//! The mutants come from a fixed seed, so every machine runs the same ones; a failure prints
//! the mutant's source. `fuzz/` holds the coverage-guided version of the same checks.

use anyproc::AnyView;
use anyproc::pipeline::compile::{Globals, Limits};
use anyproc::pipeline::parser::parse_module;
use anyproc::pipeline::script::script_module;
use anyproc::pipeline::{Format, Pipeline};
use proptest::prelude::RngCore;
use proptest::test_runner::{RngAlgorithm, TestRng};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

#[path = "support/call_with_everything.rs"]
mod call_with_everything;
use call_with_everything::call_with_everything;

const CASES: &str = include_str!("data/anyscript_cases.py");

/// Mutants made of each seed: `$ANYPROC_MUTANTS` (the sanitizer runs set a few), else
/// `default`.
fn mutants_per_seed(default: usize) -> usize {
    std::env::var("ANYPROC_MUTANTS").ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// Syntax spliced into seeds: the pieces a parser and compiler must reject or handle.
const FRAGMENTS: &[&str] = &[
    "for x in ",
    "while True:",
    "return",
    "break",
    "continue",
    "if ",
    "else:",
    "elif x:",
    "[",
    "]",
    "(",
    ")",
    "{",
    "}",
    ":",
    ",",
    ".",
    "'",
    "\"",
    "\\",
    "+=",
    "-=",
    "**",
    "//",
    "%",
    "not in",
    " in ",
    "and",
    "or",
    "not",
    "lambda",
    "del x",
    "0",
    "-1",
    "1.5e300",
    "None",
    "True",
    "'é'",
    "'\u{1F600}'",
    "[1, 'a', None]",
    "{'k': [1]}",
    "x[1:-1:0]",
    "x[::-1]",
    "len()",
    "range(3, 0, 0)",
    "text.split('')",
    "'a' * -3",
    "1 / 0",
    "1 // 0",
    "1 % 0",
    "9223372036854775807 + 1",
    "-9223372036854775808 // -1",
    "text[99]",
    "{}['k']",
    "[].pop()",
    "x.nope()",
    "\t",
    "    ",
    "\n",
    "\u{0}",
    "#",
    "def f(:",
    "=",
    "==",
    "is",
    "pass",
    "yield",
    "global x",
    "@",
    ";",
    "`",
];

/// A deterministic generator, so the mutants are the same on every run.
struct Rng(TestRng);

impl Rng {
    fn new() -> Rng {
        Rng(TestRng::deterministic_rng(RngAlgorithm::ChaCha))
    }

    /// A number below `n` (0 when `n` is 0).
    fn below(&mut self, n: usize) -> usize {
        (self.0.next_u64() % n.max(1) as u64) as usize
    }
}

/// Values put in place of a word: most keep the program valid, so the mutant runs.
const VALUES: &[&str] = &["0", "1", "-1", "2", "''", "' '", "'é'", "[]", "{}", "None", "True", "text", "3.5", "[1, 2]"];

/// One or two edits of `seed`: each replaces a word (a name or a number) with another word
/// of the seed or a value, drops, doubles, swaps or re-indents a line, or splices a fragment
/// into a line at a character boundary.
fn mutate(seed: &str, rng: &mut Rng) -> String {
    let mut lines: Vec<String> = seed.lines().map(str::to_owned).collect();
    let words: Vec<&str> = seed.split(|c: char| !c.is_alphanumeric() && c != '_').filter(|w| !w.is_empty()).collect();
    // Mostly one edit, so that many mutants still compile and the interpreter runs them.
    let edits = if rng.below(3) == 0 { 2 } else { 1 };
    for _ in 0..edits {
        if lines.len() < 2 {
            break;
        }
        // The `def` line is edited less often (a renamed function leaves no entry to run), and
        // never moved: line edits apply to the body.
        let at = if rng.below(8) == 0 { 0 } else { 1 + rng.below(lines.len() - 1) };
        let body_line = 1 + rng.below(lines.len() - 1);
        match rng.below(9) {
            0..=2 => {
                let replacement =
                    if rng.below(2) == 0 { words[rng.below(words.len())] } else { VALUES[rng.below(VALUES.len())] };
                let line = &lines[at];
                let spans: Vec<(usize, usize)> = word_spans(line);
                if let Some(&(start, end)) = spans.get(rng.below(spans.len())) {
                    lines[at] = format!("{}{replacement}{}", &line[..start], &line[end..]);
                }
            }
            3 => {
                lines.remove(body_line);
            }
            4 => lines.insert(body_line, lines[body_line].clone()),
            5 => {
                let other = 1 + rng.below(lines.len() - 1);
                lines.swap(body_line, other);
            }
            6 => {
                let line = lines[body_line].trim_start().to_owned();
                lines[body_line] = format!("{}{line}", " ".repeat(4 * rng.below(4)));
            }
            _ => {
                let line = &lines[at];
                let bounds: Vec<usize> = line.char_indices().map(|(i, _)| i).chain([line.len()]).collect();
                let cut = bounds[rng.below(bounds.len())];
                let fragment = FRAGMENTS[rng.below(FRAGMENTS.len())];
                lines[at] = format!("{}{fragment}{}", &line[..cut], &line[cut..]);
            }
        }
    }
    lines.join("\n") + "\n"
}

/// The byte ranges of the words (runs of letters, digits and `_`) of `line`.
fn word_spans(line: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut start = None;
    for (i, c) in line.char_indices().chain([(line.len(), ' ')]) {
        match (start, c.is_alphanumeric() || c == '_') {
            (None, true) => start = Some(i),
            (Some(s), false) => {
                spans.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    spans
}

/// The `def`s of the corpus, each with its body (the comment before them and the CPython
/// driver after them are left out).
fn seed_functions() -> Vec<(String, String)> {
    let defs = CASES.split("\nCASES = [").next().unwrap_or_default();
    defs.split("\ndef ")
        .filter_map(|chunk| {
            let chunk = chunk.strip_prefix("def ").unwrap_or(chunk);
            let name = chunk.split('(').next()?.trim();
            let is_name = !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_');
            is_name.then(|| (name.to_owned(), format!("def {chunk}\n")))
        })
        .collect()
}

/// Runs `f` and names the mutant if it panics.
fn must_not_panic(what: &str, source: &str, f: impl FnOnce()) {
    if let Err(panic) = catch_unwind(AssertUnwindSafe(f)) {
        let msg = anyproc::panic_message(&*panic);
        panic!("{what} panicked ({msg}) on this input:\n-----\n{source}-----");
    }
}

#[test]
fn mutated_scripts_end_in_a_value_or_an_error() {
    // Small caps keep each mutant quick: a doubled `while` line nests loops.
    let limits = Limits { while_limit: 200, max_depth: 32 };
    let mut rng = Rng::new();
    let (mut compiled, mut total) = (0, 0);
    for (name, seed) in seed_functions() {
        for _ in 0..mutants_per_seed(150) {
            let source = mutate(&seed, &mut rng);
            total += 1;
            must_not_panic("parse, compile or run", &source, || {
                let Ok(module) = parse_module(&source) else { return };
                let Ok(f) = script_module(module, &name, &Globals::new(), limits) else { return };
                compiled += 1;
                call_with_everything(&f);
            });
        }
    }
    // Many edits still compile, so the interpreter sees broken programs, not only the parser.
    assert!(compiled * 4 > total, "only {compiled} of {total} mutants compiled");
}

#[test]
fn mutated_pipeline_files_end_in_a_value_or_an_error() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("pipelines");
    let record = [AnyView::from("Hello wörld, the 3 quick foxes jumped. Ünïcode 日本 ok!")];
    let mut rng = Rng::new();
    let mut files = 0;
    for entry in std::fs::read_dir(&root).expect("pipelines/") {
        let path = entry.expect("entry").path();
        let format = match path.extension().and_then(|e| e.to_str()) {
            Some("toml") => Format::Toml,
            Some("json") => Format::Json,
            _ => continue,
        };
        let seed = std::fs::read_to_string(&path).expect("pipeline text");
        files += 1;
        // Fewer than for scripts: each load reads the pipeline's vocabularies again.
        for _ in 0..mutants_per_seed(50) {
            let text = mutate(&seed, &mut rng);
            must_not_panic("load or run", &text, || {
                if let Ok(pipeline) = Pipeline::from_text(&text, format, &root, "mutant.toml") {
                    let n = pipeline.inputs().len();
                    let _ = pipeline.run_record(&record[..n.min(1)]);
                }
            });
        }
    }
    assert!(files >= 4, "found {files} pipeline files");
}
