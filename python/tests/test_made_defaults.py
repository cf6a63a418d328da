"""Defaults evaluated where a lambda or nested function is made: ``lambda w, i=i: ...`` (the
idiom that keeps a loop variable's value), ``def add(x, seen=[])`` (a list made anew each
time the ``def`` runs, shared by the calls of that function), ``def f(x, n=len(words))``;
on real text, through both front ends, against CPython 3.11."""

from __future__ import annotations

import anyproc
from conftest import corpus_lines
from test_formatting import check_all, check_printed_source, check_source


def tagged(text):
    """Functions made in a loop, each keeping its own index through a default."""
    taggers = []
    for i, tag in enumerate(["a", "b", "c"]):
        taggers.append(lambda w, i=i, tag=tag.upper(): f"{tag}{i}:{w}")
    words = text.split()[:4]
    return [[t(w) for w in words] for t in taggers], [t("x", 9) for t in taggers]


def ranked(text):
    n = len(text)
    return sorted(text.split(), key=lambda w, n=n: (n - len(w), w))[:5]


def grouped(text):
    """A nested function whose defaults are made each time its `def` runs."""
    out = []
    for line in text.split(".")[:4]:
        def collect(word, bucket=[], limit=len(line) // 4):
            if len(bucket) < limit:
                bucket.append(word)
            return bucket
        for w in line.split():
            collect(w)
        out.append(collect("<end>"))
    return out


def counted(text):
    words = text.split()
    total = len(words)

    def share(w, total=total, digits=2):
        return round(words.count(w) / total, digits) if total else 0.0

    total = -1  # the default keeps the value it had when the `def` ran
    return [share(w) for w in words[:5]], share("the", digits=4), share("x", 10)


def fact_with_default(n):
    def fact(m, acc=n * 0 + 1):
        return acc if m <= 1 else fact(m - 1, acc * m)
    return fact(n), fact(3, 10)


def fresh_set_default(text):
    # `seen=set()` is made each time the `def` runs, as a list or dict display default is.
    def first_time(w, seen=set(), frozen=frozenset()):
        new = w not in seen and w not in frozen
        seen.add(w)
        return new

    return [first_time(w) for w in text.split()[:6]]


def calls_of_fresh_set_default(text):
    return [fresh_set_default(text), fresh_set_default(text)]


TEXTS = ["", "a", "the cat sat on the mat. the end. Or is it", "ünï cödé. x 12 -3"]


def test_made_defaults_equal_cpython_on_real_text():
    lines = corpus_lines(120)
    for fn in (tagged, ranked, grouped, counted, calls_of_fresh_set_default):
        check_all(fn, [(t,) for t in TEXTS + lines])
    check_all(fact_with_default, [(n,) for n in range(7)])


def test_printed_source_and_the_text_front_end():
    check_printed_source([tagged, ranked, grouped, counted], [(t,) for t in TEXTS])
    source = """
def f(n):
    fs = [lambda x, i=i: x * i for i in range(n)]
    def add(x, acc=[]):
        acc.append(x)
        return acc
    return [g(2) for g in fs], add(1), add(2)
"""
    check_source(source, "f", [(0,), (3,)])


def test_a_function_made_with_defaults_crosses_to_python():
    def maker(k):
        return lambda x, k=k * 2: x + k

    made = anyproc.script(maker)(5)
    assert made(1) == 11 and made(1, 0) == 1
