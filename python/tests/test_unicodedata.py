"""Python's ``unicodedata`` (``normalize``, ``is_normalized``, ``category``, ``combining``) in
``anyproc.script`` and anyscript source: CPython's results on real text and on every code
point CPython's tables assign, and its messages."""

from __future__ import annotations

import sys
import unicodedata

import anyproc
from conftest import corpus_lines
from test_formatting import check_all, check_printed_source, outcome


def strip_accents(text):
    return "".join(c for c in unicodedata.normalize("NFD", text) if unicodedata.category(c) != "Mn")


def drop_punctuation(text):
    return "".join(" " if unicodedata.category(c).startswith("P") else c for c in text)


def forms(text):
    return [unicodedata.normalize(f, text) for f in ("NFC", "NFD", "NFKC", "NFKD")] + [
        unicodedata.is_normalized("NFC", text), unicodedata.is_normalized("NFKD", text)]


def marks(text):
    return [(c, unicodedata.combining(c)) for c in unicodedata.normalize("NFD", text) if unicodedata.combining(c)]


def errors(text):
    kind = len(text) % 5
    try:
        if kind == 0:
            return unicodedata.normalize("NFX", text)
        if kind == 1:
            return unicodedata.category(text + "x")
        if kind == 2:
            return unicodedata.normalize("NFC", len(text))
        if kind == 3:
            return unicodedata.is_normalized("NFY", text)
        return unicodedata.combining(5)
    except ValueError as e:
        return "ValueError: " + str(e)
    except TypeError as e:
        return "TypeError: " + str(e)


TEXTS = ["", "café", "cafe\u0301", "ﬁne ² ½ Å Ω", "Straße", "한국어", "¿Qué? ¡Sí!", "x\u0300\u0301\u0302y"]
FUNCTIONS = [strip_accents, drop_punctuation, forms, marks]


def test_functions_equal_cpython_on_real_text():
    for fn in FUNCTIONS:
        check_all(fn, [(t,) for t in TEXTS + corpus_lines(300)])


def test_errors_equal_cpython():
    check_all(errors, [(t,) for t in ["", "a", "ab", "abc", "abcd", "abcde", "abcdef", "abcdefgh"]])


def every_char(chars):
    return [[unicodedata.category(c) for c in chars], [unicodedata.combining(c) for c in chars]]


def test_every_assigned_code_point_equals_cpython():
    # Characters assigned after CPython 3.11's Unicode 14.0 are left out: CPython calls them Cn.
    chars = "".join(chr(c) for c in range(sys.maxunicode + 1)
                    if not 0xD800 <= c < 0xE000 and unicodedata.category(chr(c)) != "Cn")
    ours = anyproc.script(every_char)
    assert ours(chars) == every_char(chars)


def test_printed_source_runs_the_same():
    check_printed_source(FUNCTIONS, [(t,) for t in TEXTS])


def test_name_of_every_code_point_equals_cpythons():
    # CPython 3.11 has Unicode 14's names; the table here is newer, so a character assigned
    # since (CPython's category Cn) has a name here only. Every other name is CPython's.
    ours = anyproc.script_source("def f(c):\n    return unicodedata.name(c, None)\n", "f")
    newer = 0
    for cp in range(0x110000):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        c = chr(cp)
        want, got = unicodedata.name(c, None), ours(c)
        if want is None and got is not None and unicodedata.category(c) == "Cn":
            newer += 1
            continue
        assert got == want, (hex(cp), want, got)
    assert 0 < newer < 20000, newer


def name_errors(which):
    calls = [lambda: unicodedata.name("ab"), lambda: unicodedata.name(1), lambda: unicodedata.name("\n"),
             lambda: unicodedata.name(), lambda: unicodedata.name("a", "b", "c"), lambda: unicodedata.name("\n", 0),
             lambda: unicodedata.name("🎉", "?")]
    try:
        return calls[which]()
    except (TypeError, ValueError) as e:
        return type(e).__name__, str(e)


def test_name_errors_equal_cpythons():
    check_all(name_errors, [(k,) for k in range(7)])
