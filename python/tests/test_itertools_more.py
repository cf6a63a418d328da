"""``itertools.combinations``, ``combinations_with_replacement``, ``permutations``,
``takewhile``, ``dropwhile``, ``filterfalse``, ``compress``, ``starmap`` and ``zip_longest`` in
``anyproc.script``: CPython's results (tuples in its order) and errors on real text, keyword
arguments included, and ``takewhile`` leaves a generator where CPython's leaves it."""

from __future__ import annotations

import itertools
from collections import Counter
from itertools import combinations, compress, dropwhile, permutations, starmap, takewhile, zip_longest

import anyproc
import pytest
from conftest import corpus_lines
from test_formatting import check_all, check_source

LINES = corpus_lines(200) + ["", "a", "a b", "a a b b", "# header", "# two\n"]


def cooccurrence(line):
    # Pairs of distinct words of a line, counted: the features of a co-occurrence matrix.
    words = sorted(set(line.lower().split()))[:12]
    pairs = Counter(combinations(words, 2))
    return len(pairs), sorted(pairs)[:5], list(combinations(words[:4], r=3)), list(combinations(words, 0))


def orderings(line):
    words = line.split()[:4]
    return (list(permutations(words)), list(permutations(words, 2)), list(permutations(words, r=None)),
            list(itertools.combinations_with_replacement(words[:3], 2)), list(permutations(words, 9)))


def selections(line):
    words = line.split()
    return (list(takewhile(lambda w: not w.endswith("."), words)),
            list(dropwhile(lambda w: len(w) < 4, words)),
            list(itertools.filterfalse(str.isalpha, words)), list(itertools.filterfalse(None, [0, "", line, 1])),
            list(compress(words, [len(w) % 2 for w in words])), list(compress(data=line, selectors=[1, 0] * 5)),
            list(starmap(lambda a, b: a + "-" + b, zip(words, words[1:]))), list(starmap(max, [(1, 5), (7, 2)])),
            list(zip_longest(words[:3], line[:5], range(2))), list(zip_longest()))


def header_and_body(lines):
    # Comment lines at the top skipped, the rest kept, as a file reader does.
    body = list(dropwhile(lambda l: l.startswith("#"), lines))
    header = list(takewhile(lambda l: l.startswith("#"), lines))
    return header, body[:3], len(body)


def lazy_takewhile(line):
    words = (w for w in line.split())
    first = list(takewhile(lambda w: len(w) > 2, words))
    return first, list(words)


def errors(case):
    calls = [
        lambda: combinations([1, 2]),
        lambda: combinations([1, 2], -1),
        lambda: combinations([1, 2], 1.5),
        lambda: combinations(5, 1),
        lambda: combinations([1], 1, 2),
        lambda: itertools.combinations_with_replacement("ab", -2),
        lambda: permutations([1], -1),
        lambda: permutations([1], 1.5),
        lambda: permutations([1], 1, 2),
        lambda: list(takewhile(None, [case])),
        lambda: list(dropwhile(len, [case, 5])),
        lambda: list(itertools.filterfalse(len, [5])),
        lambda: list(compress([1], 5)),
        lambda: list(starmap(pow, [case])),
        lambda: list(starmap(5, [(1,)])),
        lambda: list(zip_longest([1], case)),
    ]
    out = []
    for call in calls:
        try:
            out.append(repr(call()))
        except (TypeError, ValueError) as e:
            out.append(f"{type(e).__name__}: {e}")
    return out


@pytest.mark.parametrize("fn", [cooccurrence, orderings, selections, lazy_takewhile])
def test_results_equal_cpython_on_real_text(fn):
    check_all(fn, [(line,) for line in LINES])


def test_a_file_reader_skips_its_header():
    check_all(header_and_body, [(["# a", "# b", "x", "# c", "y"],), (LINES,), ([],), (["# only"],)])


def test_errors_equal_cpython():
    check_all(errors, [(5,), ("ab",), ((1, 2),)])


def test_wrong_counts_of_direct_calls():
    for name, args in [("combinations", ([1],)), ("permutations", ()), ("compress", ([1], [1], [1])),
                       ("takewhile", (len,)), ("zip_longest", (5,))]:
        ours = anyproc.get_global_func(f"itertools.{name}")
        with pytest.raises(TypeError) as theirs:
            getattr(itertools, name)(*args) if name != "zip_longest" else list(itertools.zip_longest(*args))
        with pytest.raises(TypeError, match=str(theirs.value).replace("(", r"\(").replace(")", r"\)")):
            ours(*args)


def test_the_text_front_end():
    source = """
def features(line):
    words = sorted(set(line.split()))[:6]
    return itertools.combinations(words, 2), itertools.permutations(words[:3]), itertools.zip_longest(words, line[:2])
"""
    check_source(source, "features", [(line,) for line in LINES[:30]], {"itertools": _ListingItertools()})


class _ListingItertools:
    """``itertools`` whose functions give lists, as anyscript's ops do, for CPython's side of a
    text-front-end comparison."""

    def __getattr__(self, name):
        f = getattr(itertools, name)
        return lambda *a, **k: list(f(*a, **k))
