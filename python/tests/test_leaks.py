"""Repeated calls keep memory flat: nothing leaks per call on either side of the boundary."""

from __future__ import annotations

import functools
import gc
import os
import tracemalloc

import numpy as np
import pytest

import anyproc

N = 100_000
# RSS may grow a little as allocators settle; a leak of even 16 bytes a call is 1.6 MB here.
RSS_TOLERANCE = 1.5 * 1024 * 1024
PY_TOLERANCE = 64 * 1024
RSS_ROUNDS = 3


def rss() -> int:
    """Resident set size in bytes (Linux /proc; 0 where unavailable)."""
    try:
        with open(f"/proc/{os.getpid()}/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        return 0


def check_flat(fn, n=N):
    for _ in range(n // 10):  # warm-up: pools, caches and free lists reach their size
        fn()
    gc.collect()
    tracemalloc.start()
    before_py = tracemalloc.get_traced_memory()[0]
    for _ in range(n):
        fn()
    gc.collect()
    after_py = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    assert after_py - before_py < PY_TOLERANCE, f"Python heap grew by {after_py - before_py} bytes"
    # RSS is measured without tracemalloc (whose own tables take pages) and in up to three
    # rounds: an allocator that settles late (arenas, fragmentation under a loaded machine)
    # grows in one round, while a leak grows in every round, so one flat round clears it.
    growths = []
    for _ in range(RSS_ROUNDS):
        gc.collect()
        before_rss = rss()
        if not before_rss:
            return
        for _ in range(n):
            fn()
        gc.collect()
        growths.append(rss() - before_rss)
        if growths[-1] < RSS_TOLERANCE:
            return
    raise AssertionError(f"RSS grew in each of {RSS_ROUNDS} rounds of {n} calls: {growths} bytes")


echo = anyproc.get_global_func("testing.echo")
nop = anyproc.get_global_func("testing.nop")


@pytest.mark.parametrize(
    "value",
    [7, "short", "a longer string that lives on the heap: ünïcödé", b"bytes" * 10, [1, "x", [2.5, None]],
     {"k": [1, 2], "v": "w"}],
    ids=["int", "short-str", "long-str", "bytes", "list", "dict"],
)
def test_echo_does_not_leak(value):
    check_flat(lambda: echo(value))


def test_nop_does_not_leak():
    check_flat(lambda: nop(1, "two", 3.0))


def test_numpy_round_trip_does_not_leak():
    a = np.arange(100, dtype=np.int64)
    check_flat(lambda: np.from_dlpack(echo(a)), n=N // 2)


def test_callback_does_not_leak():
    f = echo(lambda s: s + "!")
    check_flat(lambda: f("abc"), n=N // 2)


def test_errors_do_not_leak():
    lower = anyproc.get_global_func("text.lower")

    def bad():
        try:
            lower(5)
        except TypeError:
            pass

    check_flat(bad, n=N // 5)


def test_pipeline_calls_do_not_leak(lines_small):
    from conftest import PIPELINES

    pipe = anyproc.Pipeline.load(str(PIPELINES / "bert-base-uncased.toml"))
    batch = lines_small[:32]
    check_flat(lambda: np.from_dlpack(pipe(batch, threads=1)["input_ids"]).sum(), n=2_000)


def test_script_does_not_leak():
    def split(word):
        ret = []
        for i in range(len(word)):
            ret.append(word[i])
        return ret

    f = anyproc.script(split)
    check_flat(lambda: f("héllo wörld"), n=N // 2)


def test_keyword_calls_do_not_leak():
    # From Python into an op's keyword form, and inside a script through function values'
    # keyword forms (a lambda, a bound method, functools.partial), errors included.
    sub = anyproc.get_global_func("re.sub")
    check_flat(lambda: sub(r"\s+", "_", "a b  c", count=1), n=N // 2)

    def glue(text):
        pad = lambda s, fill=".": s.ljust(8, fill)  # noqa: E731
        split = text.split
        once = functools.partial(str.split, maxsplit=1)
        try:
            pad(text, width=3)
        except TypeError:
            pass
        return [pad(w, fill="-") for w in split(sep=" ", maxsplit=2)] + once(text)

    f = anyproc.script(glue)
    check_flat(lambda: f("héllo wörld again"), n=N // 4)
