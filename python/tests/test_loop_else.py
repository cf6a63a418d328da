"""``for ... else`` and ``while ... else`` in ``anyproc.script`` and in anyscript source: the
same results and exceptions as CPython on real text (the functions are in
``loop_else_cases.py``)."""

from __future__ import annotations

import inspect

import anyproc
import loop_else_cases
import pytest
from conftest import corpus_lines
from test_formatting import check_all, outcome

CASES = [name for name, _ in inspect.getmembers(loop_else_cases, inspect.isfunction)]
EXTRA = ["", "a", "12", "q", "x 12 y", "zebra", "the cat sat", "eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee"]


@pytest.mark.parametrize("name", CASES)
def test_loop_else_matches_cpython(name, lines):
    check_all(getattr(loop_else_cases, name), [(t,) for t in lines[:300] + EXTRA])


def test_printed_source_parses_back(lines):
    for name in CASES:
        f = anyproc.script(getattr(loop_else_cases, name))
        assert "else:" in f.source, name
        again = anyproc.script_source(f.source, f.sources[0][0])
        for line in lines[:60] + EXTRA:
            assert outcome(again, line) == outcome(f, line), (name, line)


@pytest.fixture(scope="module")
def lines():
    return corpus_lines(400)
