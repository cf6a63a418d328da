"""Starred assignment targets (``first, *rest = words``, ``for head, *tail in rows``) in
``anyproc.script`` and in anyscript source: the same values and exceptions as CPython on real
text, and the forms Python itself refuses."""

from __future__ import annotations

import anyproc
import pytest
from conftest import corpus_lines
from test_formatting import check_all, outcome


def first_and_rest(text):
    first, *rest = text.split() or ["-"]
    *init, last = text or "?"
    a, *mid, z = text + "xy"
    [b, *more] = text[:4] + "!"
    return [first, rest, init, last, a, mid, z, b, more]


def loop_heads(text):
    out = []
    for head, *tail in [w.split("-") for w in text.split()]:
        out.append([head, tail])
    return out


def too_few_values(text):
    # ValueError when the line has fewer than two words.
    a, b, *c = text.split()
    return [a, b, c]


def into_items(text):
    d = {}
    d["a"], *d["rest"] = text.split() + ["x"]
    return d


def star_of_a_dict(text):
    counts = {}
    for c in text:
        counts[c] = counts.get(c, 0) + 1
    first, *others = counts
    return [first, len(others)]


@pytest.mark.parametrize("fn", [first_and_rest, loop_heads, too_few_values, into_items, star_of_a_dict])
def test_matches_cpython(fn, lines):
    check_all(fn, [(t,) for t in lines[:300] + ["", "a", "a-b c--d -", "x y"]])


def test_printed_source_parses_back(lines):
    for fn in [first_and_rest, into_items]:
        f = anyproc.script(fn)
        assert "*" in f.source
        again = anyproc.script_source(f.source, fn.__name__)
        for line in lines[:50] + [""]:
            assert outcome(again, line) == outcome(f, line) == outcome(fn, line)


@pytest.mark.parametrize("source, message", [
    ("def f(x):\n    *b = x\n", "starred assignment target must be in a list or tuple"),
    ("def f(x):\n    a, *b, *c = x\n", "multiple starred expressions in assignment"),
])
def test_forms_python_refuses_are_refused(source, message):
    with pytest.raises(SyntaxError, match=message):
        compile(source, "<s>", "exec")
    with pytest.raises(SyntaxError, match="line 2.*" + message):
        anyproc.script_source(source, "f")


@pytest.fixture(scope="module")
def lines():
    return corpus_lines(400)
