"""Dict comprehensions, generator expressions and comprehensions of several ``for`` clauses in
``anyproc.script`` and in anyscript source: results and errors equal CPython's on real text, ``any``/``all`` stop where the
generator would, and a generator anywhere but the argument of a call that takes all its
items is refused with the line."""

from __future__ import annotations

import anyproc
import pytest
from conftest import corpus_lines
from test_formatting import check_all, outcome


def vocabulary(text):
    words = text.lower().split()
    ids = {w: i for i, w in enumerate(sorted(words))}
    long_ones = {w: len(w) for w in words if len(w) > 3 if w.isalpha()}
    firsts = {w[:1]: w for w in words}
    pairs = {k: v * 2 for k, v in long_ones.items()}
    return [ids, long_ones, firsts, pairs, {c: n for c, n in zip(text[:4], range(9))}]


def generators(text):
    words = text.split()
    return [sum(len(w) for w in words), " ".join(w.upper() for w in words if w.isalpha()),
            "-".join(c for c in text[:8]), max((len(w) for w in words), default=-1),
            min(len(w) for w in words + ["x"]), sorted((w.lower() for w in words), key=len)[:5],
            list(w[:2] for w in words[:4]), [list(p) for p in dict((w, len(w)) for w in words[:3]).items()],
            sum((len(w) for w in words), 10), any(c.isdigit() for c in text), all(w.isalpha() for w in words),
            any(len(w) > 12 for w in words if w), all(c != "e" for c in text)]


def stops_early(text):
    # int() of the first word that is not a number raises; the generator never gets there
    # when an earlier item settles any()/all(), and neither must anyproc.
    words = text.split() + ["nan?"]
    return [any(int(w) > 5 for w in words), all(int(w) < 5 for w in words)]


def scoped(text):
    w = "outer"
    n = sum(len(w) for w in text.split())
    d = {w: 1 for w in text.split()[:2]}
    return [w, n, d]


def several_clauses(text):
    words = text.split()[:8]
    rows = [w.split("-") for w in words]
    flat = [part for row in rows for part in row if part]
    pairs = [[a, b] for a in words[:3] for b in words[:3] if a < b]
    chars = {c for w in words if w.isalpha() for c in w.lower() if c not in "aeiou"}
    bigrams = {w[i:i + 2]: i for w in words for i in range(len(w) - 1)}
    # A later clause reads the earlier clauses' variables; an inner variable hides an outer one.
    nested = [c + str(i) for i, w in enumerate(words) for c in w[:i]]
    shadow = [w for w in words for w in w[:2]]
    return [flat, pairs, sorted(chars), bigrams, nested, shadow, sum(len(p) for r in rows for p in r),
            max((len(p) for r in rows for p in r), default=0), "|".join(c for w in words[:2] for c in w)]


def several_clauses_stop_early(text):
    # any()/all() leave every clause's loop at the item that settles them; int() raises after.
    rows = [w.split(",") for w in text.split()] + [["x"]]
    return [any(int(p) > 5 for r in rows for p in r if p), all(int(p) < 5 for r in rows for p in r if p)]


def test_dict_comprehensions_match_cpython(lines):
    check_all(vocabulary, [(t,) for t in lines[:300] + ["", "a", "a a A"]])


def test_generator_expressions_match_cpython(lines):
    check_all(generators, [(t,) for t in lines[:300] + ["", "1 2", "é ü", "x"]])


def test_any_and_all_stop_where_the_generator_stops():
    check_all(stops_early, [("9 x",), ("1 2",), ("7",), ("",), ("3 9 y",), ("x 9",)])


def test_several_for_clauses_match_cpython(lines):
    check_all(several_clauses, [(t,) for t in lines[:300] + ["", "a-b c--d", "ab ab ba", "é-ü x"]])


def test_several_for_clauses_stop_where_the_generator_stops():
    check_all(several_clauses_stop_early, [("1,9 x",), ("1,2 3",), ("7",), ("",), ("3 2,9 y",), ("x 9",), ("1,,2",)])


def test_comprehension_variables_stay_inside(lines):
    check_all(scoped, [(t,) for t in lines[:50] + [""]])


def kept_generator(text):
    g = (w for w in text.split())
    return list(g)


def generator_to_a_function(text):
    return helper(w for w in text.split())


def helper(xs):
    return [x.upper() for x in xs]


def generator_to_enumerate(text):
    return list(enumerate(c for c in text))


@pytest.mark.parametrize("fn", [kept_generator, generator_to_a_function, generator_to_enumerate])
def test_generators_elsewhere_run_lazily(lines, fn):
    # Kept in a variable, given to a function of the module or to enumerate: a generator, as in
    # CPython (test_lazy_generators.py has more).
    check_all(fn, [(t,) for t in lines[:50] + ["", "a"]])


SOURCE = '''
def f(text):
    words = text.split()
    ids = {w: i for i, w in enumerate(words) if w}
    return [ids, sum(len(w) for w in words), "".join(sorted((c for c in text if c.isalpha()), reverse=True)),
            any(w == "the" for w in words), {k: v for k, v in ids.items() if v % 2}]
'''


def test_source_with_comprehensions_matches_cpython(lines):
    ns: dict = {}
    exec(SOURCE, ns)
    ours = anyproc.script_source(SOURCE, "f")
    for line in lines[:200] + ["", "the"]:
        assert outcome(ours, line) == outcome(ns["f"], line)


def test_source_refuses_a_generator_that_reads_a_variable_changed_later():
    with pytest.raises(SyntaxError, match="line 3: a generator expression that reads the enclosing function's "
                                          "variable 'x', which may be assigned again"):
        anyproc.script_source("def f(t):\n    x = 1\n    g = (c * x for c in t)\n    x = 2\n    return g\n", "f")


@pytest.mark.parametrize("fn", [generators, several_clauses])
def test_printed_source_of_comprehensions_parses_back(lines, fn):
    f = anyproc.script(fn)
    again = anyproc.script_source(f.source, fn.__name__)
    for line in lines[:100]:
        assert again(line) == f(line) == fn(line)


@pytest.fixture(scope="module")
def lines():
    return corpus_lines(400)
