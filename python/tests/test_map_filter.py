"""``map`` and ``filter`` in ``anyproc.script`` and in anyscript source, run as the generator
expressions they are wherever a generator expression may go: results and errors equal CPython's
on real text (``any``/``all`` stop where Python's iterator would); a function that is made by a
call is made once, before the first item."""

from __future__ import annotations

import anyproc
import pytest
from conftest import corpus_lines
from test_formatting import check_all, check_printed_source


def shout(w):
    return w.upper() + "!"


def glue(text):
    words = text.split()
    lengths = list(map(len, words))
    return [lengths, sum(map(len, words)), " ".join(map(str, lengths)), sorted(map(str.lower, words))[:5],
            list(filter(None, [w.strip(".,") for w in words])), list(filter(str.isalpha, words)),
            list(map(lambda a, b: a + b, words, words[1:])), set(map(len, words)), list(map(shout, words[:2])),
            max(map(len, words), default=0), dict(map(lambda w: (w, len(w)), words[:3])),
            list(filter(lambda w: len(w) > 3, words)), min(filter(str.isdigit, words + ["9"]))]


def short_circuit(text):
    # int() of the first word that is no number raises, unless any()/all() stopped before it.
    words = text.split() + ["nan?"]
    return [any(map(lambda w: int(w) > 5, words)), all(map(lambda w: int(w) < 5, words))]


def errors(text):
    kind = len(text) % 3
    if kind == 0:
        return list(map(5, text))
    if kind == 1:
        return list(filter(len, [text, 5]))
    return sum(filter(len, text.split()))


CASES = [glue, short_circuit, errors]


@pytest.mark.parametrize("fn", CASES, ids=[f.__name__ for f in CASES])
def test_map_and_filter_match_cpython(fn, lines):
    check_all(fn, [(t,) for t in lines[:300] + ["", "9 x", "1 2", "7", "a"]])


def test_printed_source_parses_back(lines):
    check_printed_source(CASES, [(t,) for t in lines[:30] + ["", "9 x"]])


def kept_map(text):
    m = map(len, text.split())
    return list(m)


def map_of_a_call(text):
    counted = []

    def make():
        counted.append(1)
        return len

    return list(map(make(), text.split())), list(filter(make(), text)), len(counted)


def test_a_kept_map_runs_lazily(lines):
    check_all(kept_map, [(t,) for t in lines[:40] + [""]])


def test_a_map_of_a_call_evaluates_the_call_once(lines):
    # The function is made before the first item, once, as Python's map() takes it.
    check_all(map_of_a_call, [(t,) for t in lines[:10] + [""]])


@pytest.fixture(scope="module")
def lines():
    return corpus_lines(320)
