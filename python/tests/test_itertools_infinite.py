"""``itertools.count``, ``cycle`` and ``repeat`` in ``anyproc.script``: lazy, as CPython's are
(``zip`` and ``islice`` take only what they need, a generator given to ``cycle`` runs as far as
CPython's), with CPython 3.11's items, reprs and errors on real text; and the limit that stops
an endless one where a ``while`` loop would stop."""

from __future__ import annotations

import itertools
from itertools import count, cycle, islice, repeat

import anyproc
import pytest
from conftest import corpus_lines
from test_formatting import check_all, outcome


def numbered(text):
    words = text.split()
    return list(zip(count(1), words)), list(zip(itertools.count(start=10, step=-2), words)), \
        list(zip(count(0.5, 0.25), words)), list(zip(count(step=3), words))


def colored(text, colors=("red", "green", "blue")):
    words = text.split()
    return [f"{c}:{w}" for w, c in zip(words, cycle(colors))], list(islice(cycle(text), 7)), \
        list(islice(itertools.cycle(words), 2, 9, 2))


def padded(text, width=6):
    words = text.split()[:width]
    return words + list(repeat("<pad>", width - len(words))), list(repeat(len(words), 2)), \
        list(itertools.repeat(text[:3], -1)), list(zip(words, repeat(0))), \
        list(repeat("<pad>", times=width - len(words))), list(repeat(object=text[:1], times=2))


def lazily_taken(text):
    taken = []

    def source():
        for w in text.split():
            taken.append(w)
            yield w

    first = list(islice(cycle(source()), 3))
    return first, taken


def by_hand(text):
    c = count(len(text))
    r = repeat(text[:2], 2)
    out = [next(c), next(c), next(r), next(r), next(r, "done")]
    ring = cycle(text[:2])
    out += [next(ring, None) for _ in range(5)]
    return out


def reprs(text):
    c = count(len(text), 2)
    next(c)
    return repr(c), repr(count()), repr(count(1.5)), repr(repeat(text[:2])), repr(repeat(1, 3))


def errors(which):
    calls = [lambda: count("a"), lambda: count(1, "a"), lambda: count(1, 2, 3), lambda: cycle(1), lambda: cycle(),
             lambda: cycle("a", "b"), lambda: repeat(), lambda: repeat(1, "a"), lambda: repeat(1, 2, 3),
             lambda: next(cycle("")), lambda: repeat(1, 2.5), lambda: repeat(1, x=2), lambda: repeat(times=3),
             lambda: repeat(1, 2, times=3), lambda: repeat(1, times="x"), lambda: repeat(1, times=2, object=0)]
    return calls[which]()


def error_case(which):
    try:
        return errors(which)
    except (TypeError, StopIteration) as e:
        return type(e).__name__, str(e)


def test_endless_iterators_equal_cpython_on_real_text():
    texts = ["", "a", "the cat sat on the mat", "ünï cödé x 12"] + corpus_lines(60)
    for fn in (numbered, colored, padded, lazily_taken, by_hand, reprs):
        check_all(fn, [(t,) for t in texts])
    check_all(error_case, [(k,) for k in range(16)])


def test_an_endless_iterator_reaches_python_as_a_lazy_iterator():
    def counter(start):
        return count(start, 2)

    it = anyproc.script(counter)(5)
    assert [next(it) for _ in range(3)] == [5, 7, 9]
    assert list(islice(it, 2)) == [11, 13]


def endless(n):
    total = 0
    for i in itertools.count():
        total += i
    return total


def test_a_loop_that_never_breaks_stops_at_the_limit():
    kind, message = outcome(anyproc.script(endless), 0)
    assert kind == "RuntimeError" and "itertools.count() stopped after 10000000 items" in message
