"""The methods of ``bytes`` (``find``, ``count``, ``startswith``, ``split``, ``strip``, ``replace``,
``join``, ``lower``, ``hex``, the ``is...`` tests) in ``anyproc.script``: results and errors equal
CPython 3.11's, over the UTF-8 of corpus lines and edge cases, each call's arguments drawn from
values of every kind, wrong ones included."""

from __future__ import annotations

import random

import anyproc
import pytest
from conftest import corpus_lines
from test_formatting import check_all

SUBS = [b"", b" ", b"e", b"th", b"\xc3", b"\xc3\xa9", b"zz", 101, 0, 300, -1, "e", None, 1.5, (b"a", b"t"), (b"x", "e"), ()]
BOUNDS = [None, 0, 1, 3, -1, -4, 100, "x"]


def search(data, method, sub, start, end):
    if method == "find":
        return data.find(sub, start, end)
    if method == "rfind":
        return data.rfind(sub, start, end)
    if method == "index":
        return data.index(sub, start, end)
    if method == "rindex":
        return data.rindex(sub, start, end)
    if method == "count":
        return data.count(sub, start, end)
    if method == "startswith":
        return data.startswith(sub, start, end)
    return data.endswith(sub, start, end)


def pieces(data, sep, maxsplit, chars):
    return [data.split(sep, maxsplit), data.rsplit(sep, maxsplit), data.split(), data.rsplit(maxsplit=maxsplit),
            data.strip(chars), data.lstrip(chars), data.rstrip(chars), data.split(sep=sep)]


def rewrite(data, old, new, count, sep):
    parts = data.split()
    return [data.replace(old, new, count), data.replace(old, new), sep.join(parts), sep.join(p for p in parts if p),
            data.lower(), data.upper(), data.hex(), data.hex(":"), data.hex("-", count), data.hex(b" ", -2)]


def ascii_classes(data):
    return [data.isdigit(), data.isalpha(), data.isalnum(), data.isspace(), data.islower(), data.isupper(),
            data.isascii(), data[:3].isdigit()]


@pytest.fixture(scope="module")
def samples():
    lines = corpus_lines(400)
    picked = [line.encode("utf-8") for line in lines[::20]]
    return picked + [b"", b"  ", b"abc", b"ABC", b"123", b"a1", b"\t\n\x0b\x0c\r ", b"a,b,,c", b"\x1c x \x85", b"aaaa"]


def test_searches_equal_cpython(samples):
    rng = random.Random(7)
    methods = ["find", "rfind", "index", "rindex", "count", "startswith", "endswith"]
    cases = [(d, m, rng.choice(SUBS), rng.choice(BOUNDS), rng.choice(BOUNDS)) for d in samples for m in methods
             for _ in range(6)]
    check_all(search, cases)


def test_splits_and_strips_equal_cpython(samples):
    rng = random.Random(8)
    seps = [None, b" ", b",", b"e ", b"", "x", 5]
    chars = [None, b" ", b"ae", b"", "x", 1]
    maxsplits = [-1, 0, 1, 2, 5, "1", None]
    cases = [(d, rng.choice(seps), rng.choice(maxsplits), rng.choice(chars)) for d in samples for _ in range(8)]
    check_all(pieces, cases)


def test_replace_join_case_and_hex_equal_cpython(samples):
    rng = random.Random(9)
    olds = [b"", b" ", b"e", b"the", b"\xc3", "e"]
    news = [b"", b"_", b"--", "x"]
    counts = [-1, 0, 1, 2, 3, "2"]
    cases = [(d, rng.choice(olds), rng.choice(news), rng.choice(counts), rng.choice([b" ", b"", b"|", "x", [b"a"]]))
             for d in samples for _ in range(6)]
    check_all(rewrite, cases)


def test_ascii_tests_equal_cpython(samples):
    check_all(ascii_classes, [(d,) for d in samples])


def test_hex_separators_equal_cpython():
    def hexes(data, sep, per):
        return data.hex(sep, per)

    cases = [(b"abcde", sep, per) for sep in [":", b"-", "::", "é", b"", 1, None] for per in [1, 2, -2, 0, 9, "x"]]
    check_all(hexes, cases + [(b"", ":", 2)])


def test_a_str_method_keeps_its_name_in_errors():
    def join_keyword(s):
        return s.join(iterable=[s])

    with pytest.raises(TypeError) as theirs:
        join_keyword(",")
    with pytest.raises(TypeError) as ours:
        anyproc.script(join_keyword)(",")
    assert str(ours.value).endswith(str(theirs.value))
