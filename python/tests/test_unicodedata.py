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


def every_class(chars):
    return [[unicodedata.category(c) for c in chars], [unicodedata.bidirectional(c) for c in chars],
            [unicodedata.mirrored(c) for c in chars]]


def test_category_bidirectional_and_mirrored_of_every_code_point_equal_cpython():
    # Unassigned ones too: CPython 3.11's tables (Unicode 14) are the ones here.
    chars = "".join(chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c < 0xE000)
    ours = anyproc.script(every_class)
    assert ours(chars) == every_class(chars)


def class_errors(which):
    calls = [lambda: unicodedata.bidirectional("ab"), lambda: unicodedata.mirrored(5), lambda: unicodedata.mirrored(),
             lambda: unicodedata.bidirectional("a", "b"), lambda: unicodedata.bidirectional(None)]
    try:
        return calls[which]()
    except TypeError as e:
        return str(e)


def test_class_errors_equal_cpythons():
    check_all(class_errors, [(k,) for k in range(5)])


def test_printed_source_runs_the_same():
    check_printed_source(FUNCTIONS, [(t,) for t in TEXTS])


def test_name_of_every_code_point_equals_cpythons():
    # CPython 3.11 has Unicode 14's names: a character assigned since has none here either.
    ours = anyproc.script_source("def f(c):\n    return unicodedata.name(c, None)\n", "f")
    for cp in range(0x110000):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        c = chr(cp)
        assert ours(c) == unicodedata.name(c, None), hex(cp)


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


def widths_and_numbers(chars):
    return ([unicodedata.east_asian_width(c) for c in chars], [unicodedata.numeric(c, None) for c in chars],
            [unicodedata.digit(c, None) for c in chars], [unicodedata.decimal(c, -1) for c in chars])


def test_width_and_numeric_values_of_every_code_point_equal_cpythons():
    # Surrogates included: CPython answers for them too (N, no value).
    chars = "".join(chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c < 0xE000)
    assert anyproc.script(widths_and_numbers)(chars) == widths_and_numbers(chars)


def display_width(text, limit):
    # What a CJK-aware truncation does: wide and full-width characters take two columns.
    out, used = [], 0
    for c in unicodedata.normalize("NFC", text):
        w = 2 if unicodedata.east_asian_width(c) in ("W", "F") else 1
        if used + w > limit:
            break
        out.append(c)
        used += w
    digits = [unicodedata.digit(c) for c in text if unicodedata.digit(c, None) is not None]
    return "".join(out), used, digits, sum(unicodedata.numeric(c, 0) for c in text)


def numeric_errors(which):
    calls = [lambda: unicodedata.numeric("a"), lambda: unicodedata.digit("½"), lambda: unicodedata.decimal("²"),
             lambda: unicodedata.numeric("ab"), lambda: unicodedata.digit(1), lambda: unicodedata.decimal(),
             lambda: unicodedata.numeric("1", 2, 3), lambda: unicodedata.east_asian_width("ab"),
             lambda: unicodedata.east_asian_width(), lambda: unicodedata.east_asian_width(5)]
    try:
        return calls[which]()
    except (TypeError, ValueError) as e:
        return type(e).__name__, str(e)


def test_display_width_and_numeral_errors_equal_cpython():
    texts = ["", "abc", "日本語のテキスト", "ｶﾀｶﾅ and ＦＵＬＬ", "٣٤ ½ ⅔ 五 ² ⑦ 𝟘", "Héllo wörld"] + corpus_lines(40)
    check_all(display_width, [(t, k) for t in texts for k in (0, 5, 12)])
    check_all(numeric_errors, [(k,) for k in range(10)])
