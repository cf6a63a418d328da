"""Lambdas and generator expressions given to a call that is done with them when it returns
(``out.extend(g)``, ``counts.update(g)``, ``re.sub(p, lambda m: ..., s)``,
``heapq.nsmallest(k, xs, key=lambda ...)``, ``functools.reduce``) may read variables a loop
around them changes: they are made with the values Python reads. The results, and what a call
that fails part way has taken, equal CPython's; elsewhere such a lambda is still refused, naming
the variable that changes."""

from __future__ import annotations

import bisect
import collections
import functools
import heapq
import re

import anyproc
import pytest
from conftest import corpus_lines
from test_formatting import check_all

LINES = corpus_lines(60) + ["", "a", "the the cat", "x y z w"]


def ngrams(line):
    # The n-grams of every order, gathered in one list and counted, as n-gram features are built.
    toks = line.lower().split()
    grams = []
    counts = collections.Counter()
    lengths = set()
    window = collections.deque(maxlen=5)
    for n in range(1, 4):
        grams.extend(" ".join(toks[i:i + n]) for i in range(len(toks) - n + 1))
        counts.update(t[:n] for t in toks)
        lengths.update(len(t) % (n + 1) for t in toks)
        window.extend(t * n for t in toks[:2])
        lengths = lengths.union(n * len(t) for t in toks[:2])
    return grams[:8], len(grams), counts.most_common(4), sorted(lengths), list(window)


def nearest(line):
    toks = line.split()
    out = []
    for w in ["the", "a", "und"]:
        out.append(heapq.nsmallest(2, toks, key=lambda t: (abs(len(t) - len(w)), t)))
        out.append(heapq.nlargest(1, toks, key=lambda t: t.count(w[0])))
        out.append(re.sub(r"\w+", lambda m: m.group(0)[: len(w)], line[:30]))
        out.append(re.compile(r"[aeiou]").subn(lambda m: w[0].upper(), line[:30]))
        out.append(functools.reduce(lambda acc, t: acc + (w in t), toks, 0))
        out.append(collections.Counter(t for t in toks if w[0] in t).most_common(1))
        out.append(bisect.bisect_left(sorted(toks, key=len), len(w), key=lambda t: len(t) + len(w) - len(w)))
    return out


def partial_failure(line):
    # A call that fails part way has taken the items before the failure, as CPython's has.
    toks = line.split()
    got = []
    seen = set()
    counts = collections.Counter()
    window = collections.deque(maxlen=6)
    pairs = {}
    for k in range(3):
        try:
            got.extend(10 // (len(t) - k) for t in toks[:6])
        except ZeroDivisionError as e:
            got.append(str(e))
        try:
            seen.update(10 // (len(t) - k - 1) for t in toks[:6])
        except ZeroDivisionError:
            seen.add(-k)
        try:
            counts.update(t[10 // (len(t) - k - 2):] for t in toks[:6])
        except ZeroDivisionError:
            window.append(k)
        try:
            window.extend(10 // (len(t) - k) for t in toks[:4])
        except ZeroDivisionError:
            window.append(-k)
        try:
            pairs.update((t, 10 // (len(t) - k)) for t in toks[:6])
        except ZeroDivisionError:
            pairs[k] = None
    return got, sorted(seen), sorted(counts.items()), list(window), pairs


def test_calls_done_with_their_arguments_equal_cpython():
    check_all(ngrams, [(line,) for line in LINES])
    check_all(nearest, [(line,) for line in LINES])
    check_all(partial_failure, [(line,) for line in LINES])


def kept_generator(xs):
    out = []
    for w in "ab":
        g = (len(x) + len(w) for x in xs)
        out.append(g)
    return [list(g) for g in out]


def kept_lambda(xs):
    keys = []
    for w in "ab":
        keys.append(lambda x: x + w)
    return [k("-") for k in keys]


@pytest.mark.parametrize("fn", [kept_generator, kept_lambda])
def test_a_kept_lambda_or_generator_is_refused_naming_the_changing_variable(fn):
    with pytest.raises(SyntaxError, match="variable 'w'"):
        anyproc.script(fn)


def test_an_unknown_function_or_method_is_a_syntax_error():
    def from_bytes(b):
        return int.from_bytes(b, "big") + b.nope()

    with pytest.raises(SyntaxError):
        anyproc.script(from_bytes)
