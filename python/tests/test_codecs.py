"""``str.encode`` and ``bytes.decode`` (UTF-8, ASCII, Latin-1; ``strict``/``ignore``/``replace``)
in ``anyproc.script`` and in anyscript source: results and messages equal CPython's on real
text. Codec errors are caught as ``ValueError`` (CPython's ``UnicodeError`` is one; their own
classes: ``test_unicode_errors.py``), unknown names as ``LookupError``."""

from __future__ import annotations

import anyproc
import pytest
from conftest import corpus_lines
from test_formatting import check_all, check_printed_source


def byte_budget(text):
    # Truncating to a byte budget, as tokenizer front ends do.
    data = text.encode("utf-8")
    out = [len(data), data[:16].decode("utf-8", "ignore"), data[:16].decode("utf-8", errors="replace"),
           text.encode("ascii", "replace"), text.encode(encoding="latin-1", errors="ignore"),
           text.encode().decode() == text]
    for n in (1, 3, 7):
        try:
            out.append(data[:n].decode())
        except ValueError as e:
            out.append(str(e))
    return out


def strict_errors(text):
    out = []
    for enc in ("ascii", "latin-1", "UTF_8", "latin1"):
        try:
            out.append(text.encode(enc))
        except ValueError as e:
            out.append(str(e))
        try:
            out.append(text.encode("utf-8").decode(enc))
        except ValueError as e:
            out.append(str(e))
    return out


def lookup_errors(text):
    out = []
    for enc, errors in (("utf-9", "strict"), ("ascii", "bogus"), ("latin-1", "bogus")):
        try:
            out.append(text.encode(enc, errors))
        except LookupError as e:
            out.append(str(e))
        except ValueError as e:
            out.append(str(e))
    return out


CASES = [byte_budget, strict_errors, lookup_errors]


@pytest.mark.parametrize("fn", CASES, ids=[f.__name__ for f in CASES])
def test_codecs_match_cpython(fn, lines):
    check_all(fn, [(t,) for t in lines[:300] + ["", "a", "é€😀 x", "日本語テキスト", "Grüße"]])


def test_printed_source_parses_back(lines):
    check_printed_source(CASES, [(t,) for t in lines[:30] + ["", "é€😀"]])


def test_argument_errors_are_cpython_s():
    f = anyproc.script_source("def f(s, e):\n    return s.encode(e)\n", "f")
    with pytest.raises(TypeError, match="encode\\(\\) argument 'encoding' must be str, not int"):
        f("x", 5)


@pytest.fixture(scope="module")
def lines():
    return corpus_lines(320)


def str_of_bytes(data, which, encoding, errors):
    if which == 0:
        return str(data, encoding)
    if which == 1:
        return str(data, encoding, errors)
    if which == 2:
        return str(data, errors=errors)
    if which == 3:
        return str(data, encoding=encoding, errors=errors)
    if which == 4:
        return str(encoding=encoding)
    return str(object=data)


def test_str_decodes_bytes_as_cpython_does(lines):
    # `str(b, encoding, errors)` is `b.decode(encoding, errors)`, with str()'s own errors for
    # what is not bytes and for arguments that are not str.
    data = [line.encode(enc, "replace") for line in lines[:12] for enc in ["utf-8", "latin-1"]]
    data += [b"", b"\xff\xfe", "text", 5, None, [1]]
    encodings = ["utf-8", "latin-1", "ascii", "utf-16", "bogus", None, 8]
    handlers = ["strict", "ignore", "replace", "backslashreplace", "bogus", None, 1.5]
    cases = [(d, which, encodings[(i + which) % len(encodings)], handlers[(i * 3 + which) % len(handlers)])
             for i, d in enumerate(data) for which in range(6)]
    check_all(str_of_bytes, cases)


def rounding(x, nd):
    return round(x, nd)


def test_round_checks_the_number_before_ndigits():
    check_all(rounding, [(x, nd) for x in [2.675, 7, True, "ab", None, [1]] for nd in [2, -1, None, "ab", 1.5]])
