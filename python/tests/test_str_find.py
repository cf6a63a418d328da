"""Searching and indexing long texts: ``find``/``rfind``/``index``/``rindex``/``count`` and
``startswith``/``endswith`` with ``start`` and ``end``, slices, ``text[i]`` and ``len`` over the corpus joined into one text,
held each way anyproc holds text (an ASCII heap string, a UCS4 one from Python, a non-ASCII
UTF-8 one made in the script), against CPython 3.11; and the tokenizer loop that searches from
where its last word ended gives CPython's words."""

from __future__ import annotations

import random

from conftest import corpus_lines
from test_formatting import check_all

LINES = corpus_lines(400)
ASCII = " ".join(line for line in LINES if line.isascii())
MIXED = " ".join(LINES) + " é€😀 日本語"


def searches(text, utf8, probes):
    if utf8:
        text = text.encode("utf-8").decode("utf-8")  # a UTF-8 heap string in anyproc
    out = [len(text)]
    for sub, start, end in probes:
        out.append((text.find(sub, start, end), text.rfind(sub, start, end), text.count(sub, start, end),
                    text.find(sub, start), text[start:end][:12], text[start] if -len(text) <= start < len(text) else None,
                    text.startswith(sub, start, end), text.endswith(sub, start, end), text.startswith((sub, "e"), start),
                    text.endswith(sub, start)))
        for method in (text.index, text.rindex):
            try:
                out.append(method(sub, start, end))
            except ValueError as e:
                out.append(str(e))
    return out


def words_by_find(text, utf8):
    if utf8:
        text = text.encode("utf-8").decode("utf-8")
    words = []
    i = 0
    while True:
        j = text.find(" ", i)
        if j < 0:
            words.append(text[i:])
            return words
        words.append(text[i:j])
        i = j + 1


def probes(text, seed):
    rng = random.Random(seed)
    subs = [" ", "e", "the", "", "é", "😀", "zzz", text[100:103], text[-5:]]
    n = len(text)
    picks = []
    for _ in range(40):
        start, end = rng.randrange(-n - 5, n + 5), rng.randrange(-n - 5, n + 5)
        picks.append((rng.choice(subs), start, end))
    return picks


def test_searches_and_indexing_of_long_texts():
    cases = [(text, utf8, probes(text, seed)) for seed, text in enumerate([ASCII, MIXED]) for utf8 in (False, True)]
    check_all(searches, cases)


def test_the_find_loop_tokenizer():
    check_all(words_by_find, [(ASCII, False), (MIXED, False), (MIXED, True)])


def read_by_index(text, utf8, other):
    # Reads a long text a character at a time, with lookahead slices, and in between indexes
    # another text: each read of the first finds where its code points start again.
    if utf8:
        text = text.encode("utf-8").decode("utf-8")
        other = other.encode("utf-8").decode("utf-8")
    out = []
    i = len(text) - 1
    while i >= 0:
        out.append(text[i] + text[i - 3:i] + other[i % len(other)] + text[-i - 1])
        if text.startswith("é", i) or text.endswith("😀", 0, i):
            out.append(i)
        i -= 7
    return "".join(str(x) for x in out), text[len(text) // 3:len(text) // 2:5][:40]


def test_reading_a_long_non_ascii_text_by_index():
    check_all(read_by_index, [(MIXED, True, "日本語 é" * 200), (MIXED, False, "ab"), (ASCII, True, "é😀" * 300)])
