"""``isinstance``, ``type`` and ``__name__`` in ``anyproc.script`` and in anyscript source: the same
answers and errors as CPython on real text. Types are the built-ins that make them, as in Python
(``type(3) is int``, ``type(s)(x)`` converts)."""

from __future__ import annotations

import pytest
from conftest import corpus_lines
from test_formatting import check_all, check_printed_source


def classify(text):
    n = len(text)
    out = []
    for x in [text, n, n / 3, n > 3, None, text.split(), {"k": text}, set(text), -n, (text, n)]:
        out.append([isinstance(x, str), isinstance(x, int), isinstance(x, (float, bool)),
                    isinstance(x, (list, (dict, set))), isinstance(x, type(None)), type(x) is int, isinstance(x, tuple),
                    type(x) == str, type(x) is type(None), type(x) is bool, type(x) is type(n),
                    isinstance(x, type(x)), type(x) in [list, dict]])
    return out


def convert(text):
    n = len(text)
    return [type(n)("7") + n, type(text)(n), type(text.split())(text[:3]), type(1.5)(n), type(True)(text)]


def dispatch(text):
    # Glue code that branches on what a value is.
    out = []
    for x in [text, text.split(), len(text), {"a": text}, None]:
        if isinstance(x, str):
            out.append(x.upper())
        elif isinstance(x, list):
            out.append(len(x))
        elif isinstance(x, (int, float)) and not isinstance(x, bool):
            out.append(x * 2)
        elif type(x) is dict:
            out.append(sorted(x))
        else:
            out.append("other")
    return out


def type_errors(text):
    kind = len(text) % 4
    if kind == 0:
        return isinstance(text, len)
    if kind == 1:
        return [type(None)(), type(None)(text)]
    if kind == 2:
        return isinstance(text, "str")
    return isinstance(text, (str, 5))


def checked(text):
    # Validation glue that names the type it got, as error messages do.
    out = []
    for x in [text, len(text), text.split(), None, (text,), {"k": 1}, 2.5, True, set(), text.encode()]:
        out.append(type(x).__name__)
        if not isinstance(x, str):
            out.append(f"expected str, got {type(x).__name__}")
    out.append([len.__name__, sorted.__name__, str.__name__, tuple.__name__])
    try:
        out.append(text.__name__)
    except Exception as e:
        out.append(str(e))
    return out


CASES = [classify, convert, dispatch, type_errors, checked]


@pytest.mark.parametrize("fn", CASES, ids=[f.__name__ for f in CASES])
def test_type_checks_match_cpython(fn, lines):
    check_all(fn, [(t,) for t in lines[:200] + ["", "a", "12", "x y z"]])


def test_printed_source_parses_back(lines):
    check_printed_source(CASES, [(t,) for t in lines[:30] + ["", "ab"]])


@pytest.fixture(scope="module")
def lines():
    return corpus_lines(250)
