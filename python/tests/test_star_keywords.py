"""The keyword-only parameters after ``*args`` of ``itertools.product(repeat=)``,
``itertools.zip_longest(fillvalue=)`` and ``heapq.merge(key=, reverse=)`` in ``anyproc.script``:
CPython's results and errors on real text, with spread arguments, in CPython's evaluation
order, and through the text front end."""

from __future__ import annotations

import heapq
import itertools
import math
from heapq import merge
from itertools import product, zip_longest

import anyproc
from conftest import corpus_lines
from test_formatting import check_all, check_printed_source, check_source

LINES = corpus_lines(150) + ["", "a", "a b", "a a b b", "x\ty\nz"]


def pad_batch(line):
    # Token ids of each word, padded to the longest with 0 and transposed back: a batch's padding.
    ids = [[ord(c) % 97 for c in w] for w in line.split()[:6]]
    columns = list(zip_longest(*ids, fillvalue=0))
    rows = [list(r) for r in zip(*columns)] if columns else []
    return rows, list(itertools.zip_longest(line[:4], line[4:6], fillvalue="<pad>")), list(zip_longest(fillvalue=1))


def grouper(line):
    # The itertools recipe: one iterator given n times, so each row takes n consecutive words.
    words = iter(line.split())
    chars = iter(line)
    return (list(zip_longest(words, words, words, fillvalue="")), list(zip_longest(*[chars] * 4)),
            list(zip_longest(iter(line[:3]), line[:5])))


def char_grams(line):
    # Every two-letter string over the line's vowels: the n-gram vocabulary of a hashing trick.
    vowels = sorted(set(c for c in line.lower() if c in "aeiou"))
    grams = ["".join(p) for p in product(vowels, repeat=2)]
    return (grams, list(itertools.product(line.split()[:2], "xy", repeat=2))[:7], list(product(repeat=0)),
            list(product("", repeat=2)), list(product(vowels[:2], repeat=True)), list(product(repeat=3)))


def merged_runs(line):
    # Sorted runs of words merged as an external sort merges them, then by length, then descending.
    words = line.split()
    runs = [sorted(words[i:i + 4]) for i in range(0, len(words), 4)]
    by_len = [sorted(words[i:i + 3], key=len) for i in range(0, len(words), 3)]
    down = [sorted(r, reverse=True) for r in runs]
    return (list(merge(*runs)), list(heapq.merge(*by_len, key=len)), list(merge(*down, reverse=True)),
            list(merge(*by_len, key=lambda w: -len(w), reverse=True)), list(merge([], *runs[:1], [])),
            list(merge(runs[0] if runs else [], ["m"], key=None, reverse=0)))


def mixed_merges(n):
    floats = [0.5, 1.0, 1, True, float("nan"), 2]
    return (list(merge([1, 1.0, 2], [True, 1.5], [0])), repr(list(merge(floats[:3], floats[3:]))),
            list(merge([3, 2, 1], [n, 0], reverse=True)), list(merge("ace", "bdf")),
            list(merge([(1, "b"), (1, "a")], [(0, "z")], key=lambda t: t[0])))


def keyword_errors(case):
    words = ["b", "a"]
    calls = [
        lambda: list(product(words, repeat=-1)),
        lambda: list(product(words, repeat="2")),
        lambda: list(product(words, repeat=2.0)),
        lambda: list(itertools.product(words, rep=2)),
        lambda: list(product(words, repeat=1, rep=2)),
        lambda: list(product(words, repeat=2 ** 62)),
        lambda: list(product(words, repeat=2 ** 59)),
        lambda: list(product(words, case, repeat=2)),
        lambda: list(zip_longest(words, fill=0)),
        lambda: list(zip_longest(words, fillvalue=0, x=1)),
        lambda: list(zip_longest(words, case, fillvalue=0)),
        lambda: list(merge(words, keys=len)),
        lambda: list(merge([2, 1], [3], key=case)),
        lambda: list(merge([1, "a"], [case])),
        lambda: list(merge([[1]], [case], key=None)),
        lambda: list(merge(words, case, reverse=True)),
    ]
    out = []
    for call in calls:
        try:
            out.append(repr(call()))
        except (TypeError, ValueError, OverflowError) as e:
            out.append(f"{type(e).__name__}: {e}")
        except MemoryError:
            out.append("MemoryError")
    return out


def evaluation_order(line):
    seen = []

    def note(tag, value):
        seen.append(tag)
        return value

    words = line.split()[:3]
    a = list(product(note("iterable", words), repeat=note("repeat", 2)))
    b = list(zip_longest(note("first", words), *note("rest", [line[:2]]), fillvalue=note("fill", "")))
    c = list(merge(note("run", sorted(words)), reverse=note("reverse", False), key=note("key", len)))
    return a, b, c, seen


def test_product_repeat_zip_longest_fillvalue_and_merge_equal_cpython():
    for fn in (pad_batch, grouper, char_grams, merged_runs, evaluation_order):
        check_all(fn, [(line,) for line in LINES])


def test_merge_of_mixed_numbers_compares_as_cpython():
    check_all(mixed_merges, [(n,) for n in (5, 1, 0.5, -1, math.inf)])


def test_errors_are_cpythons():
    check_all(keyword_errors, [(5,), ("ab",), ((1, 2),), (None,)])


def test_merge_without_keywords_is_an_op_python_can_call():
    f = anyproc.get_global_func("heapq.merge")
    runs = [sorted(line.split()) for line in LINES[:20]]
    assert f(*runs) == list(heapq.merge(*runs))


def test_text_front_end_and_printed_source():
    source = (
        "def f(line):\n"
        "    words = line.split()\n"
        "    rows = [list(w) for w in words[:4]]\n"
        "    return (list(itertools.zip_longest(*rows, fillvalue='.')), list(itertools.product('ab', repeat=2)),\n"
        "            list(heapq.merge(*[sorted(r) for r in rows], key=str.lower, reverse=False)))\n")
    check_source(source, "f", [(line,) for line in LINES[:60]], {"itertools": itertools, "heapq": heapq})
    check_printed_source([pad_batch, char_grams, merged_runs], [(line,) for line in LINES[:30]])
