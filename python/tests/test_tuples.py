"""Tuples in ``anyproc.script`` and in anyscript source: the same results (tuples, not lists),
errors and messages as CPython on real text (the functions are in ``tuple_cases.py``)."""

from __future__ import annotations

import inspect

import anyproc
import pytest
import tuple_cases
from conftest import corpus_lines
from test_formatting import check_all, outcome

CASES = [name for name, _ in inspect.getmembers(tuple_cases, inspect.isfunction)]
EXTRA = ["", "a", "e", "ee e", "the cat sat", "x 12 y", "zebra eel"]


def strict(value):
    """``value`` with each container's type kept beside it, so that a list never equals a tuple."""
    if isinstance(value, (list, tuple)):
        return type(value).__name__, [strict(v) for v in value]
    if isinstance(value, dict):
        return "dict", [(strict(k), strict(v)) for k, v in value.items()]
    return type(value).__name__, value


@pytest.mark.parametrize("name", CASES)
def test_tuples_match_cpython(name, lines):
    check_all(getattr(tuple_cases, name), [(t,) for t in lines[:300] + EXTRA])


@pytest.mark.parametrize("name", CASES)
def test_results_keep_their_types(name, lines):
    py = getattr(tuple_cases, name)
    ours = anyproc.script(py)
    for line in lines[:50] + EXTRA:
        want, got = outcome(py, line), outcome(ours, line)
        assert strict(got) == strict(want), (name, line)


def test_printed_source_parses_back(lines):
    for name in CASES:
        f = anyproc.script(getattr(tuple_cases, name))
        again = anyproc.script_source(f.source, f.sources[0][0])
        for line in lines[:40] + EXTRA:
            assert strict(outcome(again, line)) == strict(outcome(f, line)), (name, line)


def test_a_tuple_from_python_is_a_tuple_inside():
    f = anyproc.script_source(
        "def f(t):\n    return type(t) is tuple, t[1:], t + (0,), {t: 1}, repr(t)\n", "f")
    assert f((1, "a")) == (True, ("a",), (1, "a", 0), {(1, "a"): 1}, "(1, 'a')")


@pytest.fixture(scope="module")
def lines():
    return corpus_lines(400)
