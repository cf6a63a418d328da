"""``anyproc.trace``: op calls recorded into a pipeline file that the CLI runs unchanged."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

import anyproc
from anyproc import Collate, ops
from conftest import ASSETS, corpus_lines, load_cases, run_cli

try:
    import tomllib
except ImportError:  # Python < 3.11
    tomllib = None

TOKENIZER = str(ASSETS / "bert-base-uncased" / "tokenizer.json")
VOCAB = str(ASSETS / "bert-base-uncased" / "vocab.txt")
ENCODER = str(ASSETS / "gpt2" / "encoder.json")
MERGES = str(ASSETS / "gpt2" / "vocab.bpe")

count_vowels = anyproc.script(load_cases().count_vowels)


def tensors(text):
    """BERT ids (fixed 32), GPT-2 ids (longest), ragged vocabulary ids of the words, vowel counts."""
    bert = ops.tok.bert.from_file(TOKENIZER)
    gpt2 = ops.tok.bpe.from_gpt2(ENCODER, MERGES)
    lookup = ops.vocab.lookup.new(VOCAB, "[UNK]")
    words = ops.text.split_whitespace(ops.text.lower(text))
    return {
        "input_ids": Collate(bert(text, False), padding="max_length", max_length=32,
                             special_tokens={"cls": 101, "sep": 102}, attention_mask=True, token_type_ids=True),
        "gpt2_ids": Collate(gpt2(text), pad_id=50256, attention_mask="gpt2_mask"),
        "word_ids": Collate(lookup(words), layout="ragged"),
        "vowels": count_vowels(text),
    }


def lists(text):
    words = ops.text.split_whitespace(text)
    return {
        "words": words,
        "bigrams": ops.seq.ngrams(words, 2, " "),
        "upper": text.upper(),
        "head": text[:5],
        "stop": ops.seq.filter_stopwords(words, ["the", "a", "an", "of", "and", "to", "in", "is", "it", "that"]),
    }


@pytest.fixture(scope="module")
def lines():
    return [line for line in corpus_lines(300)]


def as_numpy(value):
    if isinstance(value, anyproc.NDArray):
        return np.from_dlpack(value)
    return np.asarray(value)


def test_toml_shape(tmp_path):
    traced = anyproc.trace(tensors)
    path = traced.save(tmp_path / "tensors.toml")
    text = open(path, encoding="utf-8").read()
    assert 'bert = "tok.bert.from_file(tokenizer)"' in text
    assert "ops.text.lower(text)" in text, "an op whose root is a variable name is spelled ops.*"
    assert "def count_vowels(text):" in text
    if tomllib is not None:
        spec = tomllib.loads(text)
        res = spec["resources"]["tokenizer"]
        assert (tmp_path / res["path"]).resolve() == (ASSETS / "bert-base-uncased" / "tokenizer.json").resolve()
        assert len(res["sha256"]) == 64
        assert spec["inputs"] == ["text"]
        names = [o["name"] for o in spec["outputs"]]
        assert names == ["input_ids", "gpt2_ids", "word_ids", "vowels"]
        assert spec["outputs"][0]["special_tokens"] == {"cls": 101, "sep": 102}


def test_traced_pipeline_equals_eager_ops(lines):
    out = anyproc.trace(lists).pipeline()(lines)
    assert list(out["words"]) == [ops.text.split_whitespace(t) for t in lines]
    assert list(out["bigrams"]) == [ops.seq.ngrams(t.split(), 2, " ") for t in lines]
    assert list(out["upper"]) == [t.upper() for t in lines]
    assert list(out["head"]) == [t[:5] for t in lines]


def test_traced_tensors_equal_eager_ops(lines):
    out = anyproc.trace(tensors)(lines)
    bert = ops.tok.bert.from_file(TOKENIZER)
    ids = as_numpy(out["input_ids"])
    for i, t in enumerate(lines[:50]):
        row = bert(t, True)
        if len(row) > 32:
            row = row[:31] + [102]
        assert ids[i, : len(row)].tolist() == row
    assert as_numpy(out["vowels"]).tolist() == [count_vowels(t) for t in lines]


def test_cli_runs_saved_file_unchanged(tmp_path, lines):
    traced = anyproc.trace(tensors)
    saved = traced.save(tmp_path / "saved.toml")
    src = tmp_path / "lines.txt"
    src.write_text("\n".join(lines) + "\n", encoding="utf-8")
    npz = tmp_path / "out.npz"
    proc = run_cli(["run", str(saved), "--input", str(src), "--output", str(npz), "--batch-size", "64"])
    assert proc.returncode == 0, proc.stderr
    expected = traced.pipeline()(lines)
    got = np.load(npz)
    assert set(got.files) == set(expected), (got.files, list(expected))
    for name in got.files:
        np.testing.assert_array_equal(got[name], as_numpy(expected[name]), err_msg=name)


def test_cli_runs_saved_lists_unchanged(tmp_path, lines):
    traced = anyproc.trace(lists)
    saved = traced.save(tmp_path / "lists.toml")
    src = tmp_path / "lines.txt"
    src.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    proc = run_cli(["run", str(saved), "--input", str(src), "--output", str(out), "--batch-size", "50"])
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(r) for r in out.read_text(encoding="utf-8").splitlines()]
    expected = traced.pipeline()(lines)
    assert len(rows) == len(lines)
    for name in expected:
        assert [r[name] for r in rows] == list(expected[name]), name


def test_saved_file_loads_from_elsewhere(tmp_path, lines):
    traced = anyproc.trace(tensors)
    sub = tmp_path / "deep" / "er"
    sub.mkdir(parents=True)
    saved = traced.save(sub / "p.toml")
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        pipe = anyproc.Pipeline.load(saved)
    finally:
        os.chdir(cwd)
    np.testing.assert_array_equal(as_numpy(pipe(lines[:20])["input_ids"]),
                                  as_numpy(traced(lines[:20])["input_ids"]))


def test_multiple_inputs():
    def pair(question, context):
        return {"joined": ops.text.lower(question), "ctx": ops.text.upper(context)}

    traced = anyproc.trace(pair, inputs=("question", "context"))
    out = traced.pipeline()([{"question": "Why?", "context": "Because."}])
    assert list(out["joined"]) == ["why?"]
    assert list(out["ctx"]) == ["BECAUSE."]


def test_init_values_are_evaluated_at_trace_time():
    seen = {}

    def f(text):
        size = ops.vocab.size(VOCAB)
        seen["size"] = size.value
        return {"lower": ops.text.lower(text)}

    traced = anyproc.trace(f)
    assert seen["size"] == 30522
    text = traced.to_toml()
    # The file's stem would shadow the op namespace `vocab`, so the resource is called vocab_txt.
    assert 'size = "vocab.size(vocab_txt)"' in text
    assert "[resources.vocab_txt]" in text


def test_errors():
    with pytest.raises(TypeError, match="did you mean 'max_length'"):
        Collate(None, max_lenght=3)
    with pytest.raises(TypeError):
        anyproc.trace(lambda text: ops.text.lower(text))  # not a dict
    with pytest.raises(TypeError, match="Python control flow"):
        anyproc.trace(lambda text: {"x": text} if ops.text.lower(text) else {})
    with pytest.raises(OSError, match="tokenizer.json"):  # init calls run at trace time
        anyproc.trace(lambda text: {"x": ops.tok.bert.from_file("/no/such/tokenizer.json")(text)})
    with pytest.raises(ValueError):
        anyproc.trace(lambda text: {"x": text}, inputs=("not valid",))


def test_string_escaping_survives(tmp_path):
    tricky = 'quote " backslash \\ tab \t newline \n unicode é 🎉 \'single\''

    def f(text):
        return {"out": ops.text.replace_literal(text, "x", tricky)}

    traced = anyproc.trace(f)
    saved = traced.save(tmp_path / "esc.toml")
    out = anyproc.Pipeline.load(saved)(["axb"])
    assert list(out["out"]) == ["a" + tricky + "b"]


def test_trace_state_is_restored_after_an_error():
    def broken(text):
        ops.text.lower(text)
        raise RuntimeError("inside the traced function")

    with pytest.raises(RuntimeError):
        anyproc.trace(broken)
    assert ops.text.lower("AB") == "ab"  # eager again: no trace left active
    assert count_vowels("aeX") == 2


def test_nested_traces_are_independent():
    def inner(text):
        return {"u": ops.text.upper(text)}

    def outer(text):
        nested = anyproc.trace(inner)
        assert "ops.text.upper(text)" in nested.to_toml()
        return {"l": ops.text.lower(text)}

    traced = anyproc.trace(outer)
    assert list(traced(["Ab"])["l"]) == ["ab"]
    assert "text.upper" not in traced.to_toml()


def test_script_functions_record_only_while_tracing():
    # Outside traces a ScriptFunction is called natively (no Python __call__ on the class);
    # a trace gives the class one that records calls on symbols, and takes it away after.
    assert "__call__" not in anyproc.ScriptFunction.__dict__
    seen = []

    def record(text):
        seen.append("__call__" in anyproc.ScriptFunction.__dict__)
        return {"vowels": count_vowels(text)}

    traced = anyproc.trace(record, "text")
    assert seen == [True]
    assert "__call__" not in anyproc.ScriptFunction.__dict__
    assert "count_vowels" in traced.to_toml()
    assert count_vowels("aeb") == load_cases().count_vowels("aeb") == 2


def test_script_functions_with_keywords_and_defaults_trace_and_run_in_the_cli(tmp_path):
    top_words = anyproc.script(load_cases().top_words)

    def keyed(text):
        return {"top": top_words(text=text, k=2), "all": top_words(text, min_len=3)}

    traced = anyproc.trace(keyed, "text")
    lines = corpus_lines(50)
    expected = {"top": [load_cases().top_words(t, k=2) for t in lines],
                "all": [load_cases().top_words(t, min_len=3) for t in lines]}
    path = tmp_path / "keyed.toml"
    traced.save(str(path))
    out = traced(lines)
    assert {k: [list(x) for x in out[k]] for k in out} == expected
    src = tmp_path / "in.txt"
    src.write_text("\n".join(lines) + "\n", encoding="utf-8")
    dst = tmp_path / "out.jsonl"
    proc = run_cli(["run", str(path), "--input", str(src), "--output", str(dst)])
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(r) for r in dst.read_text(encoding="utf-8").splitlines()]
    assert [r["top"] for r in rows] == expected["top"] and [r["all"] for r in rows] == expected["all"]
