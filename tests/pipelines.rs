//! The shipped pipelines against their references, on every corpus line.
//!
//! - `bert-base-uncased.toml` equals HF tokenizers loading the shipped `tokenizer.json`
//!   as it is (truncation and padding at 128): ids, attention mask, type ids.
//! - `gpt2.toml` and `cl100k_base.toml` equal tiktoken-rs (built from the shipped rank
//!   files by the test) row by row, padding marked by the mask.
//! - Each pipeline equals its ops chained directly in Rust.
//! - `keywords.toml` equals a hand-computed record, and CPython running the same
//!   functions (when `ANYPROC_PYTHON` names a Python, as CI does).

mod common;

use anyproc::ndarray::collate::{CollateOptions, Padding, SpecialTokens, Truncation, collate};
use anyproc::pipeline::ordered::run_ordered;
use anyproc::pipeline::{BatchOutput, ErrorPolicy, Pipeline};
use anyproc::{AnyValue, AnyView, List, NDArray, get_global_func};
use common::{asset, corpus, root};
use std::ops::ControlFlow;
use std::sync::LazyLock;
use tokenizers::Tokenizer;

static LINES: LazyLock<Vec<String>> = LazyLock::new(|| {
    let (path, lines) = corpus();
    eprintln!("corpus: {} ({} lines)", path.display(), lines.len());
    lines
});

fn pipeline(name: &str) -> Pipeline {
    Pipeline::load(root().join("pipelines").join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Runs `p` over all lines in batches of 2048, streamed on two threads as `anyproc run
/// --threads 2` runs them (`run_ordered`, four in flight, most batches on one worker each);
/// returns each batch with its first line.
fn run_all(p: &Pipeline) -> Vec<(usize, BatchOutput)> {
    let batches: Vec<Vec<AnyValue>> =
        LINES.chunks(2048).map(|chunk| chunk.iter().map(|l| AnyValue::from(l.as_str())).collect()).collect();
    let pool = anyproc::pipeline::batch::thread_pool(2).expect("a pool");
    let mut out = Vec::new();
    let run = |(i, b): (usize, &Vec<AnyValue>), spread| (i, b.len(), p.run_batch_spread(b, ErrorPolicy::Fail, spread));
    run_ordered(&pool, batches.iter().enumerate(), Pipeline::batches_in_flight(2), run, |(i, n, r)| {
        let batch = r.expect("batch runs");
        assert_eq!(batch.records, n, "batch {i}: every record, in its batch");
        assert_eq!(i, out.len(), "batches in input order");
        out.push((i * 2048, batch));
        ControlFlow::<()>::Continue(())
    });
    assert_eq!(out.len(), batches.len(), "one result per batch");
    out
}

fn tensor(b: &BatchOutput, name: &str) -> NDArray {
    b.get(name).unwrap_or_else(|| panic!("no output {name}")).get::<NDArray>().unwrap()
}

fn rows(a: &NDArray) -> Vec<Vec<i64>> {
    let width = a.shape()[1] as usize;
    a.as_slice::<i64>().unwrap().chunks(width.max(1)).map(<[i64]>::to_vec).take(a.shape()[0] as usize).collect()
}

#[test]
fn bert_pipeline_equals_hf_with_the_shipped_tokenizer_json() {
    let hf = Tokenizer::from_file(asset("bert-base-uncased/tokenizer.json")).unwrap();
    let p = pipeline("bert-base-uncased.toml");
    let mut diffs = Vec::new();
    for (start, batch) in run_all(&p) {
        let n = batch.records;
        let texts: Vec<&str> = LINES[start..start + n].iter().map(String::as_str).collect();
        let encs = hf.encode_batch(texts, true).unwrap();
        let (ids, mask, types) = (
            rows(&tensor(&batch, "input_ids")),
            rows(&tensor(&batch, "attention_mask")),
            rows(&tensor(&batch, "token_type_ids")),
        );
        for (i, e) in encs.iter().enumerate() {
            let as_i64 = |v: &[u32]| v.iter().map(|&x| x as i64).collect::<Vec<_>>();
            if ids[i] != as_i64(e.get_ids())
                || mask[i] != as_i64(e.get_attention_mask())
                || types[i] != as_i64(e.get_type_ids())
            {
                diffs.push(start + i + 1);
            }
        }
        assert_eq!(tensor(&batch, "input_ids").shape(), &[n as i64, 128]);
    }
    assert!(diffs.is_empty(), "{} lines differ from HF, first: {:?}", diffs.len(), &diffs[..diffs.len().min(10)]);
}

/// The BERT pipeline's ops chained by hand: the tokenizer func, then `collate`.
#[test]
fn bert_pipeline_equals_its_ops_chained() {
    let path = asset("bert-base-uncased/tokenizer.json");
    let bert = get_global_func("tok.bert.from_file").unwrap().call(&[AnyView::from(path.to_str().unwrap())]).unwrap();
    let bert: anyproc::PackedFunc = bert.get().unwrap();
    let opts = CollateOptions {
        padding: Padding::MaxLength,
        max_length: Some(128),
        truncation: Truncation::LongestFirst,
        attention_mask: true,
        token_type_ids: true,
        special_tokens: Some(SpecialTokens::bert(101, 102)),
        ..CollateOptions::default()
    };
    let p = pipeline("bert-base-uncased.toml");
    let lines = &LINES[..LINES.len().min(5000)];
    let records: Vec<AnyValue> = lines.iter().map(|l| AnyValue::from(l.as_str())).collect();
    let out = p.run_batch(&records, ErrorPolicy::Fail).unwrap();
    let ids: Vec<Vec<i64>> = lines
        .iter()
        .map(|l| {
            bert.call(&[AnyView::from(l.as_str()), AnyView::from(false)])
                .unwrap()
                .get::<List>()
                .unwrap()
                .to_vec_of()
                .unwrap()
        })
        .collect();
    let refs: Vec<&Vec<i64>> = ids.iter().collect();
    let want = collate(&refs, None, &opts).unwrap();
    assert_eq!(rows(&tensor(&out, "input_ids")), rows(&want.input_ids));
    assert_eq!(rows(&tensor(&out, "attention_mask")), rows(want.attention_mask.as_ref().unwrap()));
    assert_eq!(rows(&tensor(&out, "token_type_ids")), rows(want.token_type_ids.as_ref().unwrap()));
    assert_eq!(out.tokens, ids.iter().map(Vec::len).sum::<usize>());
}

fn check_bpe_pipeline(file: &str, reference: &tiktoken_rs::CoreBPE, pad: i64) {
    let p = pipeline(file);
    let mut diffs = Vec::new();
    for (start, batch) in run_all(&p) {
        let ids = rows(&tensor(&batch, "input_ids"));
        let mask = rows(&tensor(&batch, "attention_mask"));
        let width = ids.first().map_or(0, Vec::len);
        let mut longest = 0;
        for (i, (row, m)) in ids.iter().zip(&mask).enumerate() {
            let want: Vec<i64> = reference.encode_ordinary(&LINES[start + i]).into_iter().map(|x| x as i64).collect();
            longest = longest.max(want.len());
            let n = m.iter().filter(|&&x| x == 1).count();
            let padded_ok = row[n..].iter().all(|&x| x == pad) && m[..n].iter().all(|&x| x == 1);
            if row[..n] != want[..] || !padded_ok {
                diffs.push(start + i + 1);
            }
        }
        assert_eq!(width, longest, "{file}: padded to the longest row of the batch");
    }
    assert!(
        diffs.is_empty(),
        "{file}: {} lines differ from tiktoken, first: {:?}",
        diffs.len(),
        &diffs[..diffs.len().min(10)]
    );
}

#[test]
fn gpt2_pipeline_equals_tiktoken_r50k() {
    check_bpe_pipeline("gpt2.toml", &common::tiktoken_r50k(), 50256);
}

#[test]
fn cl100k_pipeline_equals_tiktoken_cl100k() {
    check_bpe_pipeline("cl100k_base.toml", &common::tiktoken_cl100k(), 100257);
}

fn strings(v: &AnyValue) -> Vec<String> {
    v.get::<List>().unwrap().iter().map(|x| x.to_string()).collect()
}

#[test]
fn keywords_pipeline_matches_a_hand_computed_record() {
    let p = pipeline("keywords.toml");
    let text = "The cat sat on the mat, and the cat was happy in 2024!";
    let out = p.run_batch(&[AnyValue::from(text)], ErrorPolicy::Fail).unwrap();
    let words = out.get("words").unwrap().get::<List>().unwrap().get(0).unwrap();
    // Stopwords (the, on, and, was, in), numbers and one-letter words go; punctuation is stripped.
    assert_eq!(strings(&words), ["cat", "sat", "mat", "cat", "happy"]);
    let bigrams = out.get("bigrams").unwrap().get::<List>().unwrap().get(0).unwrap();
    assert_eq!(strings(&bigrams), ["cat sat", "sat mat", "mat cat", "cat happy"]);
    // Letters of "catsatmatcathappy": a ×5, t ×4, then c/p ×2 (c < p).
    let top = out.get("top_chars").unwrap().get::<List>().unwrap().get(0).unwrap();
    assert_eq!(strings(&top), ["a", "t", "c"]);
    // BERT vocab ids: cat 4937, sat 2938, mat 13523, happy 3407.
    let ids = tensor(&out, "word_ids");
    assert_eq!(ids.as_slice::<i64>().unwrap(), &[4937, 2938, 13523, 4937, 3407]);
}

#[test]
fn keywords_pipeline_equals_cpython_running_the_same_functions() {
    let Some(python) = std::env::var_os("ANYPROC_PYTHON") else {
        eprintln!("ANYPROC_PYTHON not set; skipping the CPython comparison");
        return;
    };
    let p = pipeline("keywords.toml");
    let lines = &LINES[..LINES.len().min(3000)];
    let records: Vec<AnyValue> = lines.iter().map(|l| AnyValue::from(l.as_str())).collect();
    let out = p.run_batch(&records, ErrorPolicy::Fail).unwrap();
    let ours: Vec<serde_json::Value> = (0..lines.len())
        .map(|i| {
            let get = |name: &str| {
                let v = out.get(name).unwrap().get::<List>().unwrap().get(i as i64).unwrap();
                anyproc::pipeline::json::any_to_json(&v).unwrap()
            };
            serde_json::json!({"words": get("words"), "bigrams": get("bigrams"), "top_chars": get("top_chars")})
        })
        .collect();
    let spec = &p.spec;
    let stopwords = serde_json::to_string(&spec.constants["stopwords"]).unwrap();
    let program = format!(
        "import json, sys\n{}\nstopwords = json.loads({stopwords:?})\nfor line in sys.stdin.read().split('\\n')[:{}]:\n    words = clean_words(line, stopwords)\n    print(json.dumps({{'words': words, 'bigrams': bigrams(words), 'top_chars': most_frequent(char_counts(words), 3)}}))\n",
        spec.functions,
        lines.len()
    );
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("keywords.py");
    std::fs::write(&script, program).unwrap();
    let mut child = std::process::Command::new(python)
        .arg(&script)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python runs");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(lines.join("\n").as_bytes()).unwrap();
    }
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    let theirs: Vec<serde_json::Value> =
        String::from_utf8(output.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(theirs.len(), ours.len());
    for (i, (a, b)) in ours.iter().zip(&theirs).enumerate() {
        assert_eq!(a, b, "line {}: {:?}", i + 1, lines[i]);
    }
}
