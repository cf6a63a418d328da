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

    # `sep=None` with `bytes_per_sep` is left out: anyproc binds `hex(bytes_per_sep=2)` as
    # `hex(None, 2)`, which gives the digits alone, where CPython's explicit `hex(None, 2)` is a
    # TypeError (the one documented difference of bytes' methods).
    cases = [(b"abcde", sep, per) for sep in [":", b"-", "::", "é", b"", 1] for per in [1, 2, -2, 0, 9, "x"]]
    check_all(hexes, cases + [(b"", ":", 2)])

    def one_separator(data, sep):
        return data.hex(sep)

    check_all(one_separator, [(b"abc", sep) for sep in [None, ":", b"", 0]])

    def keywords(data, sep, per):
        return [data.hex(bytes_per_sep=per), data.hex(sep=sep), data.hex(sep=sep, bytes_per_sep=per),
                data.hex(sep, bytes_per_sep=per)]

    check_all(keywords, [(b"abcde", sep, per) for sep in [":", b"-", "", None] for per in [1, 3, -2, "x"]])


def test_a_str_method_keeps_its_name_in_errors():
    def join_keyword(s):
        return s.join(iterable=[s])

    with pytest.raises(TypeError) as theirs:
        join_keyword(",")
    with pytest.raises(TypeError) as ours:
        anyproc.script(join_keyword)(",")
    assert str(ours.value).endswith(str(theirs.value))


def pad(data, method, width, fill):
    if fill == "None":
        return data.center(width, None)
    if method == "center":
        return data.center(width) if fill is None else data.center(width, fill)
    if method == "ljust":
        return data.ljust(width) if fill is None else data.ljust(width, fill)
    if method == "rjust":
        return data.rjust(width) if fill is None else data.rjust(width, fill)
    return data.zfill(width)


def test_padding_equal_cpython(samples):
    rng = random.Random(10)
    widths = [-1, 0, 1, 2, 5, 6, 7, 40, 81, "4", 2.0, None, True]
    fills = [None, b"*", b"\xc3", b"", b"ab", "*", 42, "None"]
    data = samples + [b"-12", b"+", b"-", b"+7a", b"--1"]
    cases = [(d, m, rng.choice(widths), rng.choice(fills)) for d in data for m in ["center", "ljust", "rjust", "zfill"]
             for _ in range(4)]
    check_all(pad, cases)


def test_case_changes_equal_cpython(samples):
    def cases_of(data):
        return [data.title(), data.capitalize(), data.swapcase(), data.istitle(), data.title().istitle(),
                data.upper().istitle(), data[:1].istitle()]

    edge = [b"they're bill's", b"\xe9a b\xe9A", b"hELLO wORLD", b"A", b"a", b"1A", b"A1a", b"Ab Cd", b"Ab cd", b"\x7fz"]
    check_all(cases_of, [(d,) for d in samples + edge])


def partitions(data, sep, affix):
    return [data.partition(sep), data.rpartition(sep), data.removeprefix(affix), data.removesuffix(affix)]


def test_partitions_and_affixes_equal_cpython(samples):
    rng = random.Random(11)
    seps = [b" ", b"e", b"the", b"\xc3", b"zz", b"", " ", 1, None]
    affixes = [b"", b"T", b"Th", b".", b"\n", b"zz", "T", None]
    cases = [(d, rng.choice(seps), rng.choice(affixes)) for d in samples for _ in range(5)]
    check_all(partitions, cases)


def lines_and_tabs(data, keepends, tabsize):
    return [data.splitlines(), data.splitlines(keepends), data.splitlines(keepends=keepends), data.expandtabs(),
            data.expandtabs(tabsize), data.expandtabs(tabsize=tabsize)]


def test_splitlines_and_expandtabs_equal_cpython(samples):
    rng = random.Random(12)
    texts = [b"a\nb\r\nc\rd\x0be\x0cf\x1cg\x85h", b"\n\n\r\r\n", b"x\r", b"\ta\tbc\td\n\tef\r\t", b"no breaks"]
    joined = [b"\n".join(samples[i:i + 3]) + b"\r\n\t" + samples[i] for i in range(0, 20, 3)]
    keepends = [False, True, 0, 1, 2, -1, "x", None, 2.5]
    tabsizes = [8, 0, 1, 4, -3, "4", None]
    cases = [(d, rng.choice(keepends), rng.choice(tabsizes)) for d in texts + joined + samples for _ in range(3)]
    check_all(lines_and_tabs, cases)


def test_fromhex_equal_cpython(samples):
    def parse(text):
        return [bytes.fromhex(text), b"".fromhex(text).hex()]

    texts = [d.hex() for d in samples] + [d.hex(" ", 2) for d in samples[:8]] + [
        "", " ", "0", "0a", "0A ff", " 0a\t0b\n", "0 a", "zz", "ab\u00e9", "\u00e9", "abc", "ab cd e", "a b",
        "ABCDEF", "0x00", "\x0b00\x0c", "00\x1c", b"00", 1, None]
    check_all(parse, [(t,) for t in texts])


def translations(data, frm, to, delete):
    table = bytes.maketrans(frm, to)
    return [data.translate(table), data.translate(None, delete), data.translate(table, delete),
            data.translate(table, delete=delete), len(table)]


def test_translate_and_maketrans_equal_cpython(samples):
    rng = random.Random(13)
    pairs = [(b"", b""), (b"abc", b"xyz"), (b"aeiou", b"AEIOU"), (b"\xc3", b"?"), (b"ab", b"x"), ("a", "b"),
             (b" ", b"_"), (b"aa", b"xy")]
    deletes = [b"", b" ", b"aeiou", b"\xc3\xa9", "e", None, 5]
    cases = [(d, *rng.choice(pairs), rng.choice(deletes)) for d in samples for _ in range(4)]
    check_all(translations, cases)

    def odd_tables(data, table):
        return data.translate(table)

    check_all(odd_tables, [(b"abc", t) for t in [bytes(range(256)), bytes(255), b"x", "x" * 256, None, 3,
                                                  bytes(range(255, -1, -1))]])


def test_hex_takes_the_length_of_any_sized_separator_first():
    def hexes(data, sep):
        return data.hex(sep)

    check_all(hexes, [(b"ab", sep) for sep in [[], [1], (1, 2), {1, 2}, {"k": 1}, 5, 2.5, None, "", "ab", ":"]])
