"""``str.maketrans``/``str.translate`` and ``dict.fromkeys`` in ``anyproc.script`` and in
anyscript source: the text-cleaning idioms give CPython's results and errors on real text."""

from __future__ import annotations

import string

import pytest
from conftest import corpus_lines
from test_formatting import check_all, check_printed_source

NO_PUNCT = str.maketrans("", "", string.punctuation)


def clean(text):
    table = str.maketrans("", "", string.punctuation)
    leet = str.maketrans("aeio", "4310", "!?")
    spaces = str.maketrans({"\t": " ", "-": None, "ü": "ue", 0xE4: "ae", "ß": 0x73})
    return [text.translate(table), text.lower().translate(leet), text.translate(spaces),
            text.translate(NO_PUNCT).split(), text.translate({ord(c): None for c in "aeiou"}),
            text[:20].translate("abcdefghijklmnopqrstuvwxyz" * 10), text.translate([]),
            "".maketrans("xy", "yx")]


def counts(text):
    words = text.lower().split()
    seen = dict.fromkeys(words)
    zero = dict.fromkeys(words, 0)
    for w in words:
        zero[w] += 1
    return [list(seen), zero, dict.fromkeys(set(len(w) for w in words), "n"), {}.fromkeys("ab", [])]


def translate_errors(text):
    kind = len(text) % 6
    if kind == 0:
        return str.maketrans("ab", "x")
    if kind == 1:
        return str.maketrans(text)
    if kind == 2:
        return text.translate({ord(c): 1.5 for c in text})
    if kind == 3:
        return str.maketrans({text: 1}) if len(text) != 1 else None
    if kind == 4:
        return text.translate(5) if text else None
    return dict.fromkeys(len(text))


CASES = [clean, counts, translate_errors]


@pytest.mark.parametrize("fn", CASES, ids=[f.__name__ for f in CASES])
def test_translate_matches_cpython(fn, lines):
    check_all(fn, [(t,) for t in lines[:300] + ["", "a", "x-y\tz!", "Grüße äöü", "a" * 7]])


def test_printed_source_parses_back(lines):
    check_printed_source(CASES, [(t,) for t in lines[:30] + ["", "Grüße"]])


@pytest.fixture(scope="module")
def lines():
    return corpus_lines(320)
