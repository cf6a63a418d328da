"""The shipped pipelines from Python give the reference tokenizers' ids."""

from __future__ import annotations

import numpy as np
import pytest

import anyproc
from conftest import ASSETS, PIPELINES, corpus_lines

# Parity runs over this many corpus lines at most (the full 150k take long on the reference side).
CAP = 20_000

# tiktoken's own patterns, copied from tiktoken_ext/openai_public.py.
R50K_PAT = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
CL100K_PAT = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
CL100K_SPECIAL = {
    "<|endoftext|>": 100257, "<|fim_prefix|>": 100258, "<|fim_middle|>": 100259, "<|fim_suffix|>": 100260,
    "<|endofprompt|>": 100276,
}


@pytest.fixture(scope="module")
def lines():
    return corpus_lines(CAP)


def test_bert_equals_hf_tokenizers(lines):
    tokenizers = pytest.importorskip("tokenizers")
    hf = tokenizers.Tokenizer.from_file(str(ASSETS / "bert-base-uncased" / "tokenizer.json"))
    pipe = anyproc.Pipeline.load(str(PIPELINES / "bert-base-uncased.toml"))
    out = pipe(lines)
    ids = np.from_dlpack(out["input_ids"])
    mask = np.from_dlpack(out["attention_mask"])
    types = np.from_dlpack(out["token_type_ids"])
    assert ids.shape == (len(lines), 128) and ids.dtype == np.int64
    # The shipped tokenizer.json pads and truncates to 128 itself.
    enc = hf.encode_batch(lines)
    np.testing.assert_array_equal(ids, np.array([e.ids for e in enc], dtype=np.int64))
    np.testing.assert_array_equal(mask, np.array([e.attention_mask for e in enc], dtype=np.int64))
    np.testing.assert_array_equal(types, np.array([e.type_ids for e in enc], dtype=np.int64))


def tiktoken_encoding(name, rank_file, pattern, special):
    tiktoken = pytest.importorskip("tiktoken")
    load = pytest.importorskip("tiktoken.load")

    ranks = load.load_tiktoken_bpe(str(ASSETS / "gpt2" / rank_file))
    return tiktoken.Encoding(name, pat_str=pattern, mergeable_ranks=ranks, special_tokens=special)


def check_bpe(pipe_file, enc, pad_id, lines):
    pipe = anyproc.Pipeline.load(str(PIPELINES / pipe_file))
    batch = 1024  # padded to the longest row of each call, as the CLI batches
    for start in range(0, len(lines), batch):
        chunk = lines[start:start + batch]
        out = pipe(chunk)
        ids = np.from_dlpack(out["input_ids"])
        mask = np.from_dlpack(out["attention_mask"])
        expected = enc.encode_ordinary_batch(chunk)
        width = max((len(e) for e in expected), default=0)
        assert ids.shape == (len(chunk), width)
        for i, e in enumerate(expected):
            n = len(e)
            assert ids[i, :n].tolist() == e, chunk[i]
            assert (ids[i, n:] == pad_id).all()
            assert mask[i].tolist() == [1] * n + [0] * (width - n)


def test_gpt2_equals_tiktoken_r50k(lines):
    enc = tiktoken_encoding("r50k_base", "r50k_base.tiktoken", R50K_PAT, {"<|endoftext|>": 50256})
    check_bpe("gpt2.toml", enc, 50256, lines)


def test_cl100k_equals_tiktoken(lines):
    enc = tiktoken_encoding("cl100k_base", "cl100k_base.tiktoken", CL100K_PAT, CL100K_SPECIAL)
    check_bpe("cl100k_base.toml", enc, 100257, lines)


def test_threads_give_the_same_result(lines):
    pipe = anyproc.Pipeline.load(str(PIPELINES / "bert-base-uncased.toml"))
    one = np.from_dlpack(pipe(lines[:3000], threads=1)["input_ids"])
    two = np.from_dlpack(pipe(lines[:3000], threads=2)["input_ids"])
    np.testing.assert_array_equal(one, two)


def test_keywords_pipeline(lines):
    pipe = anyproc.Pipeline.load(str(PIPELINES / "keywords.toml"))
    out = pipe(lines[:200])
    assert len(out["words"]) == 200
    assert np.from_dlpack(out["word_ids"]).shape[0] == 200
    first = out["words"][0]
    assert all(w == w.lower() for w in first)


def test_records_as_dicts():
    text = ('inputs = ["a", "b"]\n\n[[steps]]\nout = "joined"\ncall = "a + \'|\' + b"\n\n'
            '[[outputs]]\nname = "joined"\nfrom = "joined"\nlayout = "list"\n')
    pipe = anyproc.Pipeline.from_str(text)
    assert pipe.inputs == ["a", "b"]
    assert list(pipe([{"a": "x", "b": "y"}, {"a": "1", "b": "2"}])["joined"]) == ["x|y", "1|2"]


def test_skip_errors():
    text = ('inputs = ["text"]\n\n[[steps]]\nout = "n"\ncall = "int(text)"\n\n'
            '[[outputs]]\nname = "n"\nfrom = "n"\nlayout = "list"\n')
    pipe = anyproc.Pipeline.from_str(text)
    with pytest.raises(ValueError):
        pipe(["1", "x", "3"])
    out = pipe(["1", "x", "3"], skip_errors=True)
    assert list(out["n"]) == [1, 3]


def test_run_file(tmp_path, lines):
    pipe = anyproc.Pipeline.load(str(PIPELINES / "bert-base-uncased.toml"))
    src = tmp_path / "in.txt"
    src.write_text("\n".join(lines[:100]) + "\n", encoding="utf-8")
    dst = tmp_path / "out.npz"
    summary = pipe.run_file(str(src), str(dst), batch_size=32)
    assert isinstance(summary, dict)
    saved = np.load(dst)
    expected = np.from_dlpack(pipe(lines[:100])["input_ids"])
    np.testing.assert_array_equal(saved["input_ids"], expected)
    # Batches of 7 on two threads: four in flight at a time, written in input order.
    pipe.run_file(str(src), str(dst), batch_size=7, threads=2)
    np.testing.assert_array_equal(np.load(dst)["input_ids"], expected)
