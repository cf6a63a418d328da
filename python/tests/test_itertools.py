"""``itertools.chain``, ``chain.from_iterable``, ``islice``, ``pairwise``, ``accumulate``,
``product`` and ``functools.reduce`` in ``anyproc.script``: CPython's results and errors on real
text, and ``islice`` takes from a generator exactly the items CPython's takes."""

from __future__ import annotations

import functools
import itertools
from functools import reduce
from itertools import chain, islice

import pytest
from conftest import corpus_lines
from test_formatting import check_all

LINES = corpus_lines(250) + ["", "a", "a b", "one two three four five six seven eight nine ten"]


def chained(line):
    words = line.split()
    return (list(chain(words[:2], line[:3], (len(w) for w in words[:3]))),
            list(itertools.chain.from_iterable([w[:2] for w in words[:4]])),
            [w for w in chain.from_iterable(words[-2:])], list(chain()))


def sliced(line):
    words = line.split()
    g = (w.upper() for w in words)
    first = list(islice(g, 1, 4))
    middle = list(islice(g, 0, 5, 2))
    rest = list(g)
    return (first, middle, rest, list(islice(words, 3)), list(islice(words, None)),
            list(islice(line, 2, None, 3)), list(islice(words, 1, 1)), list(islice(range(10), 2, 9, 4)))


def pairs(line):
    words = line.split()
    return ([a + "|" + b for a, b in itertools.pairwise(words)], list(itertools.pairwise(line[:4])),
            list(itertools.pairwise([])))


def reduced(line):
    words = line.split()
    lens = [len(w) for w in words]
    return (reduce(lambda a, b: a + b, lens, 0), functools.reduce(max, lens, -1),
            reduce(lambda acc, w: acc + w[:1], words, ""), reduce(lambda a, b: b + a, line[:6] or "x"))


def accumulated(line):
    words = line.split()
    lens = [len(w) for w in words]
    starts = [0] + list(itertools.accumulate(lens))
    return (starts, list(itertools.accumulate(words[:4])), list(itertools.accumulate(lens, max)),
            list(itertools.accumulate(lens, lambda a, b: a * 2 + b)), list(itertools.accumulate(line[:5], None)),
            list(itertools.accumulate([])), [x for x in itertools.accumulate(w[:1] for w in words[:6])])


def producted(line):
    words = line.split()[:4]
    return (list(itertools.product(words[:2], "ab")), list(itertools.product()), list(itertools.product([])),
            list(itertools.product(words, [])), [a + b + c for a, b, c in itertools.product("xy", words[:2], "12")],
            len(list(itertools.product(range(3), range(4), words))))


def accumulated_from(line):
    # Running totals from a given start, by name and beside a function.
    lengths = [len(w) for w in line.split()]
    return (list(itertools.accumulate(lengths, initial=100)), list(itertools.accumulate(lengths, max, initial=3)),
            list(itertools.accumulate(lengths, func=lambda a, b: a * 2 + b, initial=0)),
            list(itertools.accumulate([], initial="x")), list(itertools.accumulate(line.split()[:3], initial=None)),
            list(itertools.accumulate(iterable=lengths[:4])), list(itertools.accumulate(line.split()[:4], initial="")))


def accumulate_keyword_errors(line):
    words = line.split()
    out = []
    for call in [lambda: itertools.accumulate(words, None, 3), lambda: itertools.accumulate(words, foo=1),
                 lambda: itertools.accumulate(words, initial=5), lambda: itertools.accumulate(len(words), initial=5),
                 lambda: itertools.accumulate(initial=5), lambda: itertools.accumulate(words, 5, initial=1),
                 lambda: itertools.accumulate(words, iterable=words)]:
        try:
            out.append(list(call()))
        except TypeError as e:
            out.append(str(e))
    return out


def accumulate_and_product_errors(line):
    words = line.split()
    out = []
    for step in range(7):
        try:
            if step == 0:
                out.append(list(itertools.accumulate([len(w) for w in words] + ["x"])))
            elif step == 1:
                out.append(list(itertools.accumulate(words[:1], 5)))
            elif step == 2:
                out.append(list(itertools.accumulate(words[:2], 5)))
            elif step == 3:
                out.append(list(itertools.accumulate(len(words))))
            elif step == 4:
                out.append(list(itertools.product(words, len(words))))
            elif step == 5:
                out.append(list(itertools.accumulate(words, None, 3)))
            else:
                out.append(list(itertools.accumulate()))
        except TypeError as e:
            out.append(str(e))
    return out


def bad_calls(line):
    words = line.split()
    out = []
    for step in range(9):
        try:
            if step == 0:
                out.append(reduce(lambda a, b: a + b, words))
            elif step == 1:
                out.append(list(islice(words, -1)))
            elif step == 2:
                out.append(list(islice(words, 1, 3, 0)))
            elif step == 3:
                out.append(list(islice(words, "2")))
            elif step == 4:
                out.append(reduce(len(line), [1, 2]))
            elif step == 5:
                out.append(list(chain(words, len(words))))
            elif step == 6:
                out.append(reduce(max, len(line)))
            elif step == 7:
                out.append(list(islice(words)))
            else:
                out.append(list(islice(words, -2, 3)))
        except (TypeError, ValueError) as e:
            out.append((type(e).__name__, str(e)))
    # CPython checks the stop first (a stop of -1 or no int is the stop's error), then both bounds.
    for bounds in [(0, "a"), (0, -1), (-1, "a"), (-5,), (1.5,), (0, 2, "x"), (True, 3), (None, None, None),
                   (2, None, 2), (-1,), (0, -2)]:
        try:
            out.append(list(islice(words, *bounds)))
        except ValueError as e:
            out.append(str(e))
    return out


@pytest.mark.parametrize("fn", [chained, sliced, pairs, reduced, bad_calls, accumulated, producted,
                                accumulate_and_product_errors, accumulated_from, accumulate_keyword_errors])
def test_iterator_helpers_match_cpython(fn):
    check_all(fn, [(t,) for t in LINES])
