"""Sorting equals CPython 3.11's ``list.sort`` exactly, also where Python's ``<`` is no total
order: with NaNs the result depends on which pairs the sort compares, and an incomparable pair
raises a TypeError naming the pair CPython compares first, leaving the list as far as CPython's
sort got. anyproc runs CPython's algorithm (``src/pipeline/timsort.rs``); these random lists
check it against CPython itself."""

from __future__ import annotations

import random

import anyproc
import pytest
from test_formatting import check_all, outcome


def sort_in_place(xs, rev):
    try:
        xs.sort(reverse=rev)
    except TypeError as e:
        return ["raised", str(e), xs]
    return ["ok", xs]


def sort_by_key(xs, rev):
    try:
        xs.sort(key=lambda x: x, reverse=rev)
    except TypeError as e:
        return ["raised", str(e), xs]
    return ["ok", xs]


def sorted_copy(xs, rev):
    # The key of a str or a list repeats it, of None raises (so the sort never starts).
    return [sorted(xs), sorted(xs, reverse=rev), sorted(xs, key=lambda x: x * 1)]


def random_list(rng: random.Random) -> list:
    """Lists short and long (binary insertion alone, then runs, merges and galloping), of
    ints, floats with NaNs, runs up and down, and a few items `<` refuses."""
    n = rng.choice([rng.randrange(0, 12), rng.randrange(0, 100), rng.randrange(0, 700)])
    r = rng.random()
    if r < 0.3:
        return [rng.choice([rng.random(), float("nan"), rng.randrange(5), -0.0]) for _ in range(n)]
    if r < 0.55:
        out: list = []
        while len(out) < n:
            k, s, d = rng.randrange(1, 60), rng.randrange(100), rng.choice([1, -1, 0])
            out += [float(s + d * j) if rng.random() < 0.05 else s + d * j for j in range(k)]
        if out and rng.random() < 0.5:
            out[rng.randrange(len(out))] = float("nan")
        return out[:n]
    out = [rng.randrange(0, 1000) / rng.choice([1, 4]) for _ in range(n)]
    for _ in range(rng.randrange(0, 3) if out else 0):
        out[rng.randrange(len(out))] = rng.choice(["x", None, [1]])
    return out


def same(a, b) -> bool:
    """Equal, NaN included (``nan != nan``, but both sides must hold a NaN in that place)."""
    if isinstance(a, float) and isinstance(b, float) and a != a and b != b:
        return True
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


@pytest.mark.parametrize("fn", [sort_in_place, sort_by_key, sorted_copy])
def test_sorting_random_lists_matches_cpython(fn):
    ours = anyproc.script(fn)
    rng = random.Random(fn.__name__)
    for _ in range(400):
        xs, rev = random_list(rng), rng.random() < 0.3
        want, got = outcome(fn, list(xs), rev), outcome(ours, list(xs), rev)
        assert same(list(want), list(got)), (xs, rev, want, got)


def random_rows(rng: random.Random) -> list:
    """Rows as ranking code builds them (``[-count, word]``): numbers and strs by position,
    with ties, ints equal to floats (whose order a stable sort keeps), -0.0, rows of other
    lengths, and now and then a row that mixes the columns or holds a NaN, which Python's own
    comparisons decide."""
    words = ["the", "a", "naïve", "Zebra", "zebra", "", "日本", "ab", "abc"]
    n = rng.choice([rng.randrange(0, 10), rng.randrange(0, 200)])
    rows = []
    for _ in range(n):
        count = rng.choice([rng.randrange(-3, 4), float(rng.randrange(-3, 4)), -0.0, True, rng.random()])
        row = [count, rng.choice(words)]
        if rng.random() < 0.1:
            row = row[:rng.randrange(0, 3)]
        elif rng.random() < 0.1:
            row.append(rng.randrange(3))
        rows.append(row)
    if rows and rng.random() < 0.15:
        rows[rng.randrange(len(rows))] = rng.choice([["x", 1], [float("nan"), "a"], [1, 2], [None, "a"]])
    return rows


@pytest.mark.parametrize("fn", [sort_in_place, sort_by_key, sorted_copy])
def test_sorting_rows_matches_cpython(fn):
    ours = anyproc.script(fn)
    rng = random.Random("rows " + fn.__name__)
    for _ in range(400):
        xs, rev = random_rows(rng), rng.random() < 0.4
        want, got = outcome(fn, [list(r) for r in xs], rev), outcome(ours, [list(r) for r in xs], rev)
        assert same(list(want), list(got)), (xs, rev, want, got)


def sort_reading_itself(given, which):
    # CPython empties the list while it sorts: the key function sees it so.
    words = list(given)

    def seen_len(w):
        return [len(words), len(w)]

    def grows(w):
        words.append(w)
        return len(w)

    def indexes(w):
        return words[0]

    key = [seen_len, grows, indexes][which]
    try:
        words.sort(key=key)
    except (ValueError, IndexError) as e:
        return [type(e).__name__, str(e), words]
    return words


def test_a_key_function_sees_the_list_empty_as_in_cpython():
    lines = ["héllo wörld", "hello", "3.25", "a"]
    check_all(sort_reading_itself, [(list(lines), which) for which in range(3)] + [([], 1), (["x"], 1)])
