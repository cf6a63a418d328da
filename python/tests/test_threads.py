"""One Function or Pipeline shared by many Python threads."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np

import anyproc
from conftest import PIPELINES, corpus_lines


def test_function_shared_across_threads():
    lower = anyproc.get_global_func("text.lower")
    words = [f"WoRd{i}ÄÖ" for i in range(2000)]

    def work(offset):
        return [lower(w) for w in words[offset:] + words[:offset]]

    with ThreadPoolExecutor(8) as ex:
        results = list(ex.map(work, range(0, 800, 100)))
    for offset, res in zip(range(0, 800, 100), results):
        assert res == [w.lower() for w in words[offset:] + words[:offset]]


def test_scripted_function_shared_across_threads():
    def split(word):
        ret = []
        for i in range(len(word)):
            ret.append(word[i])
        return ret

    f = anyproc.script(split)
    words = corpus_lines(500)

    def work(_):
        return [f(w) for w in words]

    with ThreadPoolExecutor(4) as ex:
        for res in ex.map(work, range(8)):
            assert res == [list(w) for w in words]


def test_callback_shared_across_threads():
    echo = anyproc.get_global_func("testing.echo")
    f = echo(lambda x: x * 2)

    with ThreadPoolExecutor(4) as ex:
        assert list(ex.map(lambda i: f(i), range(1000))) == [2 * i for i in range(1000)]


def test_pipeline_shared_across_threads():
    pipe = anyproc.Pipeline.load(str(PIPELINES / "bert-base-uncased.toml"))
    lines = corpus_lines(800)
    chunks = [lines[i:i + 100] for i in range(0, 800, 100)]
    expected = [np.from_dlpack(pipe(c, threads=1)["input_ids"]).copy() for c in chunks]
    with ThreadPoolExecutor(4) as ex:
        got = list(ex.map(lambda c: np.from_dlpack(pipe(c)["input_ids"]), chunks))
    for e, g in zip(expected, got):
        np.testing.assert_array_equal(e, g)


def test_release_gil_is_per_function_and_results_do_not_change():
    lower = anyproc.get_global_func("text.lower")
    assert lower.release_gil is True
    held = anyproc.get_global_func("text.lower")
    held.release_gil = False
    assert held.release_gil is False and lower.release_gil is True
    # A Python callback run from Rust while the caller keeps the GIL: it must not deadlock.
    anyproc.register_func("testing.py_twice_gil", lambda x: x * 2, override=True)
    twice = anyproc.get_global_func("testing.py_twice_gil")
    twice.release_gil = False
    assert twice(21) == 42
    words = [f"ÄbC{i}" for i in range(100)]
    with ThreadPoolExecutor(4) as ex:
        assert list(ex.map(held, words)) == [w.lower() for w in words]


def test_release_gil_default_comes_from_the_environment():
    import os
    import subprocess
    import sys

    code = "import anyproc; print(anyproc.get_global_func('testing.nop').release_gil)"
    env = dict(os.environ, ANYPROC_RELEASE_GIL_BY_DEFAULT="0")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
    env["ANYPROC_RELEASE_GIL_BY_DEFAULT"] = "1"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"
