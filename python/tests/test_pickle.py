"""Pipelines pickle (by their text) and run the same after unpickling, also in other processes."""

from __future__ import annotations

import multiprocessing
import os
import pickle

import numpy as np
import pytest

import anyproc
import mp_worker
from conftest import PIPELINES


def as_numpy(out):
    return {k: (np.from_dlpack(v) if isinstance(v, anyproc.NDArray) else list(v)) for k, v in out.items()}


@pytest.mark.parametrize("name", ["bert-base-uncased.toml", "gpt2.toml", "keywords.toml"])
def test_pickle_round_trip(name, lines_small):
    pipe = anyproc.Pipeline.load(str(PIPELINES / name))
    clone = pickle.loads(pickle.dumps(pipe))
    assert clone.spec_text == pipe.spec_text
    assert clone.inputs == pipe.inputs
    assert clone.name == pipe.name
    a, b = as_numpy(pipe(lines_small)), as_numpy(clone(lines_small))
    assert a.keys() == b.keys()
    for k in a:
        if isinstance(a[k], np.ndarray):
            np.testing.assert_array_equal(a[k], b[k])
        else:
            assert a[k] == b[k]


def test_unpickled_pipeline_leaves_no_files_and_pickles_again(lines_small):
    pipe = anyproc.Pipeline.load(str(PIPELINES / "bert-base-uncased.toml"))
    clone = pickle.loads(pickle.dumps(pipe))
    # The resources were written to a temporary directory to load them; it is gone already,
    # so a worker that never frees its pipeline leaves nothing in /tmp.
    assert "anyproc-pipeline-" in clone.base_dir
    assert not os.path.exists(clone.base_dir)
    again = pickle.loads(pickle.dumps(clone))
    a, b = as_numpy(pipe(lines_small)), as_numpy(again(lines_small))
    for k in a:
        np.testing.assert_array_equal(a[k], b[k])


def test_pickle_pipeline_from_string(tmp_path):
    text = ('inputs = ["text"]\n\n[[steps]]\nout = "u"\ncall = "ops.text.upper(text)"\n\n'
            '[[outputs]]\nname = "u"\nfrom = "u"\nlayout = "list"\n')
    pipe = anyproc.Pipeline.from_str(text, label="inline")
    clone = pickle.loads(pickle.dumps(pipe))
    assert list(clone(["ab"])["u"]) == ["AB"]


def test_multiprocessing_two_workers(lines_small):
    pipe = anyproc.Pipeline.load(str(PIPELINES / "bert-base-uncased.toml"))
    chunks = [lines_small[:200], lines_small[200:400]]
    ctx = multiprocessing.get_context("spawn")  # fork after Rust threads started is unsafe
    with ctx.Pool(2) as pool:
        results = pool.map(mp_worker.run_pipeline, [(pipe, c) for c in chunks])
    for chunk, res in zip(chunks, results):
        expected = as_numpy(pipe(chunk))
        for k, v in expected.items():
            np.testing.assert_array_equal(res[k], v)
