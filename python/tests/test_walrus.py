"""Assignment expressions (``:=``) in ``anyproc.script`` and anyscript source: in conditions of
``if`` and ``while``, in comprehensions (where the variable is the function's), in call
arguments and displays, on real text and against CPython, the cases where the variable is
never assigned included."""

from __future__ import annotations

import re

import anyproc
import pytest
from conftest import corpus_lines
from test_formatting import check_all, check_printed_source, outcome

WORD = re.compile(r"[A-Za-z]+")


def first_long_words(text):
    out = []
    for token in text.split():
        if (n := len(token)) > 6:
            out.append((token, n))
    return out


def matched_words(text):
    # The match object of the condition, used in the comprehension's element.
    return [m.group(0).lower() for t in text.split() if (m := WORD.match(t))]


def read_chunks(text):
    chunks = []
    pos = 0
    while (chunk := text[pos:pos + 7]):
        chunks.append(chunk)
        pos += 7
    return chunks, pos


def running_totals(text):
    total = 0
    sums = [total := total + len(w) for w in text.split()]
    # The comprehension's assignment is the function's variable, seen after it.
    return sums, total


def last_seen(text):
    lengths = [last := w for w in text.split()]
    return len(lengths), last  # an UnboundLocalError, as in CPython, when there are no words


def in_calls_and_displays(text):
    words = text.split()
    top = max((k := len(words)), 1)
    pair = [(head := text[:3]), head.upper()]
    return top, k, pair, {(c := text[-1:]) or "-"}, c


def nested_conditions(text):
    out = []
    for line in text.split("."):
        if (stripped := line.strip()) and (first := stripped.split()[0]).istitle():
            out.append(first)
        elif stripped:
            out.append(stripped[:5])
    return out


FUNCTIONS = [first_long_words, matched_words, read_chunks, running_totals, last_seen, in_calls_and_displays,
             nested_conditions]
TEXTS = ["", "One.", "the cat sat on the mat. The end! Or is it? no", "Ünïcödé wörds. x", "a"]


def test_assignment_expressions_equal_cpython_on_real_text():
    lines = corpus_lines(200)
    for fn in FUNCTIONS:
        check_all(fn, [(t,) for t in TEXTS + lines[:80]])
    assert outcome(anyproc.script(last_seen), "")[0] == "UnboundLocalError"


def test_printed_source_and_the_text_front_end():
    check_printed_source(FUNCTIONS, [(t,) for t in TEXTS])
    source = """
def main(text):
    out = []
    words = text.split()
    while (w := words.pop() if words else None) is not None:
        out.append(w)
    return out, [y := len(x) for x in text.split()], y
"""
    assert anyproc.script_source(source, "main")("ab c") == (["c", "ab"], [2, 1], 1)


@pytest.mark.parametrize("source, message", [
    ("def f(x):\n    y := x\n", "line 2.*needs parentheses"),
    ("def f(x):\n    y = z := x\n", "line 2.*needs parentheses"),
    ("def f(x):\n    if (None := x):\n        pass\n", "line 2.*assignment expressions with None"),
])
def test_where_python_refuses_it_anyscript_does(source, message):
    with pytest.raises(SyntaxError, match=message):
        anyproc.script_source(source, "f")
