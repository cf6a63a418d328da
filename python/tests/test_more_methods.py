"""``str.isprintable``/``isidentifier``, ``dict.popitem``, ``int.bit_length``/``bit_count`` and
``float.is_integer`` in ``anyproc.script``: CPython's results on real text, on every code point
CPython's tables assign, and CPython's errors."""

from __future__ import annotations

import sys
import unicodedata

import anyproc
from conftest import corpus_lines
from test_formatting import INTS, FLOATS, check_all, check_printed_source

LINES = corpus_lines(300)
TEXTS = LINES + ["", " ", "a\u200db", "a\u30fb", "a\tb", "x\u200by", "\x7f", "\u00a0", "é", "_x1", "1x", "class", "a-b", "ĳ", "ℕ", "x\u2028y",
                 "\ud7ff", "\ue000", "🎉"]


def printable_only(line):
    # Text cleaning: control, format and private-use characters dropped, the line kept if it all is.
    kept = "".join(c for c in line if c.isprintable())
    return [line.isprintable(), kept, len(line) - len(kept)]


def identifiers(line):
    return [w for w in line.split() if w.isidentifier()], [w.strip(".,;:()").isidentifier() for w in line.split()]


def drain_last(line):
    counts = {}
    for w in line.split():
        counts[w] = counts.get(w, 0) + 1
    taken = []
    while len(taken) < 3 and counts:
        taken.append(counts.popitem())
    return taken, counts


def pop_empty(line):
    return {}.popitem()


def popitem_with_argument(line):
    return {line: 1}.popitem(line)


def bits(n):
    return n.bit_length(), n.bit_count(), (n > 0).bit_length(), True.bit_count()


def integral(x):
    return x.is_integer(), (x * 2).is_integer()


def spread_of_failing_generator(line):
    # The generator's own error, not "must be an iterable", as in CPython.
    def words(text):
        for w in text.split():
            if len(w) > 12:
                raise ValueError("long word " + w)
            yield w
    return max(*words(line), "")


FUNCTIONS = [printable_only, identifiers, drain_last, pop_empty, popitem_with_argument, spread_of_failing_generator]


def test_methods_match_cpython_on_real_text():
    for fn in FUNCTIONS:
        check_all(fn, [(t,) for t in TEXTS])


def test_number_methods_match_cpython():
    check_all(bits, [(n,) for n in INTS])
    check_all(integral, [(x,) for x in FLOATS + [float("inf"), float("-inf"), float("nan"), -0.0, 1e300]])


def classify(chars):
    return [c.isprintable() for c in chars], [c.isidentifier() for c in chars], [("a" + c).isidentifier() for c in chars]


def test_every_assigned_code_point_equals_cpython():
    # Characters assigned after CPython 3.11's Unicode 14.0 are left out: CPython calls them Cn.
    chars = [chr(c) for c in range(sys.maxunicode + 1)
             if not 0xD800 <= c < 0xE000 and unicodedata.category(chr(c)) != "Cn"]
    assert anyproc.script(classify)(chars) == classify(chars)


def test_printed_source_runs_the_same():
    check_printed_source([printable_only, identifiers, drain_last, bits], [(t,) for t in TEXTS[:40]])
