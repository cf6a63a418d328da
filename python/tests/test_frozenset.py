"""``frozenset`` in ``anyproc.script`` and anyscript source: made by ``frozenset(...)`` or as a
module constant, hashable (CPython's ``frozenset.__hash__``, so a frozenset is a dict key or a
set member and ``hash()`` equals CPython's), never changed, its operations giving a frozenset
when it is the left operand, its repr, type and errors as CPython 3.11's; it crosses the
Python boundary as itself."""

from __future__ import annotations

import anyproc
from conftest import corpus_lines
from test_formatting import check_all, check_source

LINES = corpus_lines(80) + ["", "a", "the the a of", "x y z"]
STOP = frozenset({"the", "a", "of", "and", "to", "in"})
EMPTY = frozenset()


def vocabulary(line):
    words = line.lower().split()
    fs = frozenset(words)
    content = fs - STOP
    return [len(fs), sorted(content), "the" in fs, fs == set(words), fs <= STOP, sorted(fs & STOP),
            type(fs | {"x"}).__name__, type({"x"} | fs).__name__, type(fs ^ STOP).__name__,
            type(set(words) - fs).__name__, type(fs.union(words)).__name__, type(fs.difference()).__name__,
            type(fs.intersection(STOP, words)).__name__, type(fs.symmetric_difference(["x"])).__name__,
            fs.copy() is fs, frozenset(fs) is fs, fs.isdisjoint(STOP), fs.issubset(words), fs.issuperset(STOP),
            type(STOP).__name__, isinstance(fs, frozenset), isinstance(fs, set), type(fs) is frozenset,
            hash(fs) == hash(frozenset(set(words))), hash(fs), hash(EMPTY), len(EMPTY), bool(EMPTY)]


def as_keys(line):
    # Pairs that do not care about order, counted as dict keys and kept as set members.
    words = line.lower().split()
    pairs = {}
    seen = set()
    for a, b in zip(words, words[1:]):
        key = frozenset((a, b))
        pairs[key] = pairs.get(key, 0) + 1
        seen.add(key)
    both = [(sorted(k), n) for k, n in pairs.items()]
    return [sorted(both), len(seen), frozenset(words[:2]) in seen, set(words[:2]) in seen,
            {1, 2} in {frozenset([1, 2])}, [frozenset([1])] == [{1}]]


def layouts(n):
    # Sets of ints lay out and print as CPython's.
    fs = frozenset(range(0, n * 8, 8))
    out = [repr(fs), repr(frozenset([5, 13, 21, 3])), repr(fs - {8}), repr(fs | frozenset([1, 9])),
           repr(frozenset()), repr({frozenset([1]), frozenset([2, 10])}), repr(frozenset([frozenset([3])])),
           str(frozenset([2, 1])), f"{frozenset([4])}", hash(frozenset([1, 2, 3])), hash(frozenset([frozenset([1]), 2])),
           hash(frozenset([-1, 2**40, 7.5])), repr(list(frozenset([16, 0, 8])))]
    g = frozenset([1, 2])
    h = g
    g |= {3}
    g -= {1}
    out += [repr(g), repr(h), g is h]
    return out


def frozenset_errors(case):
    fs = frozenset([1, 2])
    calls = [
        lambda: fs.add(1),
        lambda: fs.pop(),
        lambda: fs.update([1]),
        lambda: fs.clear(),
        lambda: fs.discard(1),
        lambda: frozenset(case),
        lambda: frozenset([[1]]),
        lambda: frozenset(1, 2),
        lambda: {set(): 1},
        lambda: hash({1}),
        lambda: fs.copy(1),
        lambda: fs.issubset(),
        lambda: fs < [1],
        lambda: fs + fs,
        lambda: fs[0],
    ]
    out = []
    for call in calls:
        try:
            out.append(call())
        except (TypeError, AttributeError, KeyError) as e:
            out.append(f"{type(e).__name__}: {e}")
    return out


def test_frozensets_equal_cpython_on_real_text():
    check_all(vocabulary, [(line,) for line in LINES])
    check_all(as_keys, [(line,) for line in LINES])


def test_layouts_hashes_and_reprs_equal_cpython():
    check_all(layouts, [(n,) for n in range(0, 9)])


def test_errors_equal_cpython():
    check_all(frozenset_errors, [(5,), (None,), ("ab",), ([1, [2]],)])


def test_the_text_front_end_has_frozenset():
    source = ("KEEP = frozenset({'a', 'b'})\n"
              "def f(xs):\n"
              "    fs = frozenset(xs)\n"
              "    return [sorted(fs & KEEP), type(KEEP).__name__, repr(frozenset([9, 1])), hash(frozenset([3]))]\n")
    check_source(source, "f", [(["a", "c"],), ([],)])


def deep(n):
    f, g = frozenset(), frozenset()
    for _ in range(n):
        f, g = frozenset([f]), frozenset([g])
    out = []
    for call in [lambda: f == g, lambda: f in {g}, lambda: repr(f)[:30], lambda: hash(f) == hash(g)]:
        try:
            out.append(call())
        except RuntimeError as e:  # CPython's RecursionError is one
            out.append(type(e).__name__)
    return out


def test_frozensets_nested_without_bound_do_not_crash():
    # CPython raises RecursionError where its C stack would run out; anyscript caps its
    # comparison and repr depth as it does a list's (docs/architecture.md), and the process lives.
    assert anyproc.script(deep)(30) == deep(30)
    out = anyproc.script(deep)(200_000)
    assert out[0] is False and out[1] is False and out[2].startswith("frozenset({frozenset(") and out[3] == "RecursionError"


def test_frozensets_cross_the_boundary_as_themselves():
    def same(x, d):
        return x, d, x in d

    fs = frozenset({"a", 1})
    back, d, found = anyproc.script(same)(fs, {fs: 2, frozenset(): 3})
    assert type(back) is frozenset and back == fs
    assert d == {fs: 2, frozenset(): 3} and all(type(k) is frozenset for k in d) and found

    def echo(x):
        return x

    assert type(anyproc.script(echo)({1})) is set
