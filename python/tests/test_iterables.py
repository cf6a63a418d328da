"""Python iterables handed to scripts and ops: an iterator (a generator, a file, ``map(...)``,
``itertools``) is taken one item at a time as the script asks for it, as CPython takes it, and
goes back to Python as itself; other iterables (``range``, dict views, ``deque``) arrive as the
list of their items, a mapping as a dict. Compared with CPython on real text."""

from __future__ import annotations

import collections
import gc
import itertools
import sys
import threading
import types

import anyproc
import pytest
from conftest import corpus_lines, corpus_path

LINES = corpus_lines(2000)


def count_words(lines):
    counts = {}
    for line in lines:
        for w in line.split():
            counts[w] = counts.get(w, 0) + 1
    return counts


def first_long(words, n=12):
    for w in words:
        if len(w) >= n:
            return w
    return None


def longest_line(lines):
    best = ""
    for line in lines:
        if len(line) > len(best):
            best = line
    return best


def numbered(items):
    return [f"{i}:{x}" for i, x in enumerate(items)]


def pairs(g):
    return list(zip(g, g))


def two_then_rest(g):
    first = next(g)
    second = next(g, "none")
    return [first, second, sorted(g)]


def as_is(x):
    return x


def described(x):
    return [repr(x), type(x).__name__]


def scripted(fn):
    return anyproc.script(fn)


def both(fn, make, *args):
    """``fn`` run by CPython and by anyproc, each on an iterable of its own from ``make()``."""
    return fn(make(), *args), scripted(fn)(make(), *args)


def words():
    return [w for line in LINES for w in line.split()]


@pytest.mark.parametrize("make", [
    lambda: (line for line in LINES),
    lambda: iter(LINES),
    lambda: map(str.strip, LINES),
    lambda: filter(None, LINES),
    lambda: itertools.islice(LINES, 500, 1500),
    lambda: collections.deque(LINES),
    lambda: dict.fromkeys(LINES).keys(),
    lambda: reversed(LINES),
], ids=["genexpr", "list_iterator", "map", "filter", "islice", "deque", "dict_keys", "reversed"])
def test_loops_over_iterables_equal_cpython(make):
    for fn in (count_words, longest_line, numbered):
        want, got = both(fn, make)
        assert got == want, fn.__name__


def test_a_file_is_read_line_by_line():
    with open(corpus_path(), encoding="utf-8") as f:
        want = count_words(f)
    with open(corpus_path(), encoding="utf-8") as f:
        assert scripted(count_words)(f) == want
    # A loop that returns early leaves the rest of the file unread, as in Python.
    with open(corpus_path(), encoding="utf-8") as f, open(corpus_path(), encoding="utf-8") as g:
        assert scripted(first_long)(f, 40) == first_long(g, 40)
        assert f.readline() == g.readline() != ""


def test_items_are_taken_as_the_script_asks_for_them():
    # Each side's generator logs what it gives: the same items, in the same order, and the
    # same left over once the function returns early.
    def logged(log):
        for w in words():
            log.append(w)
            yield w

    want_log, got_log = [], []
    want_gen, got_gen = logged(want_log), logged(got_log)
    assert scripted(first_long)(got_gen, 15) == first_long(want_gen, 15)
    assert got_log == want_log and 0 < len(want_log) < len(words())
    assert list(got_gen) == list(want_gen)
    # An endless iterator is fine when the loop stops.
    assert scripted(first_long)(itertools.cycle(["ab", "abcdefghijklmn"])) == "abcdefghijklmn"
    assert scripted(first_long)(map(str, itertools.count(7)), 3) == "100"


def test_next_zip_and_sorted_take_what_cpython_takes():
    make = lambda: (w.lower() for w in words()[:999])  # noqa: E731
    assert both(pairs, make)[1] == both(pairs, make)[0]
    want, got = both(two_then_rest, make)
    assert got == want
    want, got = both(two_then_rest, lambda: iter(["only"]))
    assert got == want == ["only", "none", []]


def test_an_iterator_goes_back_to_python_as_itself():
    g = (w for w in LINES)
    assert scripted(as_is)(g) is g
    assert anyproc.get_global_func("testing.echo")(g) is g
    f = iter(LINES)
    assert scripted(as_is)([f, {"k": f}])[1]["k"] is f
    # A script sees Python's repr and type name, the object's address included.
    def gen():
        yield 1
    for it in (gen(), iter(LINES), map(len, LINES), itertools.count()):
        assert scripted(described)(it) == described(it)
    # Taken partly by the script, the rest is Python's.
    it = iter(range(10))
    assert scripted(two_then_rest)(iter([it])) == [it, "none", []]


def test_other_iterables_arrive_as_lists_and_mappings_as_dicts():
    assert scripted(as_is)(range(3, 9, 2)) == [3, 5, 7]
    # A dict view is a view of its dict (test_dict_views.py), no longer a list.
    back = scripted(as_is)({"a": 1, "b": 2}.items())
    assert type(back) is type({}.items()) and list(back) == [("a", 1), ("b", 2)]
    # A deque is a deque (test_deque.py), no longer a list.
    back = scripted(as_is)(collections.deque(["x", "y"]))
    assert type(back) is collections.deque and back == collections.deque(["x", "y"])
    proxy = types.MappingProxyType({"the": 3, "cat": 1})
    assert scripted(as_is)(proxy) == {"the": 3, "cat": 1}
    assert scripted(count_words)(types.MappingProxyType(dict.fromkeys(LINES[:50]))) == count_words(LINES[:50])
    # A bytearray is a bytearray (test_bytearray.py), not a list of ints.
    back = scripted(as_is)(bytearray(b"caf\xc3\xa9"))
    assert type(back) is bytearray and back == b"caf\xc3\xa9"


def test_an_exception_of_the_iterator_reaches_the_caller_unchanged():
    class Broken(Exception):
        pass

    def failing(n):
        yield from LINES[:n]
        raise Broken("line source failed")

    with pytest.raises(Broken, match="line source failed") as info:
        scripted(count_words)(failing(20))
    # The traceback goes through the generator's own frame.
    assert any(frame.name == "failing" for frame in info.traceback)
    with pytest.raises(ValueError, match="invalid literal"):
        scripted(longest_line)(map(int, ["x"]))
    # An object that cannot be iterated is still a TypeError naming its type.
    with pytest.raises(TypeError, match="cannot convert a Python object"):
        scripted(as_is)(object())


def caught_midway(g):
    got = []
    try:
        for x in g:
            got.append(int(x))
    except ValueError as e:
        got.append("caught: " + str(e))
    return [got, list(g)]


def test_an_exception_of_the_iterator_is_caught_as_cpython_catches_it():
    # int() of each word inside the generator: the first word that is not a number raises
    # ValueError in the generator's frame, which the script's clause catches; the generator
    # is then finished, on both sides.
    def as_ints(items):
        for w in items:
            yield int(w)

    for items in (["1", "2", "x3", "4"], ["7"], [w for line in LINES[:40] for w in line.split()]):
        assert scripted(caught_midway)(as_ints(items)) == caught_midway(as_ints(items))
    # A Python iterator that raises in `__next__` (not a generator) keeps going afterwards, as
    # `map` does: what `list(g)` gets after the clause is CPython's too.
    make = lambda: map(int, ["5", "six", "7"])  # noqa: E731
    assert scripted(caught_midway)(make()) == caught_midway(make())


def test_iterators_from_threads():
    results = {}

    def run(k):
        results[k] = scripted(count_words)(line for line in LINES[k * 100:(k + 1) * 100])

    threads = [threading.Thread(target=run, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(results[k] == count_words(LINES[k * 100:(k + 1) * 100]) for k in range(8))


def test_no_reference_to_the_iterator_is_kept():
    f = scripted(count_words)
    g = iter(LINES[:10])
    before = sys.getrefcount(g)
    for _ in range(1000):
        f(g)
        scripted(as_is)(g)
    # The last reference was dropped where the script ran, without the GIL: PyO3 gives it back
    # at the next point that takes the GIL (here, the next item the script asks for).
    f(iter(["x"]))
    gc.collect()
    assert sys.getrefcount(g) == before
