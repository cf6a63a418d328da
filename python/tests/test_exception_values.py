"""Exceptions as values in ``anyproc.script`` and anyscript source: what ``except E as e``
binds reads, names and compares as CPython's exception does (``repr(e)``, ``e.args``,
``type(e).__name__``, ``isinstance(e, LookupError)``), exception classes are values, ``raise e``
raises the same object, ``raise ... from`` works, and an exception a script returns reaches
Python as an instance of Python's class. The functions are in ``exception_cases.py``."""

from __future__ import annotations

import anyproc
import exception_cases
import pytest
from conftest import corpus_lines
from test_formatting import check_all, check_printed_source, check_source, outcome

CASES = ["parsed_numbers", "missing_keys", "runtime_errors", "classes_as_values", "reraised", "chained",
         "bad_raises", "empty_pops", "exceptions_returned"]
EXTRA = ["", " ", "12 x 3.5 -4 0x10 ٣", "the a of cat", "one two three four five", "1 2 3", "9" * 18,
         "é ü", "nan inf -inf 1e5", "x"]


@pytest.mark.parametrize("name", CASES)
def test_exception_values_match_cpython(name, lines_small):
    check_all(getattr(exception_cases, name), [(t,) for t in lines_small[:200] + EXTRA])


def test_printed_source_parses_back(lines_small):
    check_printed_source([getattr(exception_cases, n) for n in CASES], [(t,) for t in lines_small[:30] + EXTRA])


def test_an_exception_reaches_python_as_its_class():
    def collect(line):
        out = []
        for w in line.split():
            try:
                out.append({"k": 1}[w])
            except KeyError as e:
                out.append(e)
            try:
                out.append(int(w))
            except ValueError as e:
                out.append(e)
        out.append(TypeError(len(line)))
        out.append(IndexError())
        return out

    got, want = anyproc.script(collect)("k zz"), collect("k zz")
    assert [(type(x), getattr(x, "args", x)) for x in got] == [(type(x), getattr(x, "args", x)) for x in want]
    assert [str(x) for x in got] == [str(x) for x in want]


def test_the_text_front_end():
    source = (
        "def f(line):\n"
        "    try:\n"
        "        return {'a': 1}[line]\n"
        "    except LookupError as e:\n"
        "        if len(line) > 2:\n"
        "            raise ValueError(repr(e)) from e\n"
        "        err = e\n"
        "    return [repr(err), err.args, type(err).__name__, isinstance(err, KeyError), repr(KeyError)]\n"
    )
    check_source(source, "f", [("a",), ("b",), ("long",), ("",)])


def test_refusals_and_errors_name_the_line():
    def raises_a_group(line):
        raise Exception(line)

    with pytest.raises(SyntaxError, match="raising this exception"):
        anyproc.script(raises_a_group)

    def makes_a_group(line):
        return Exception(line)

    got = outcome(anyproc.script(makes_a_group), "x")
    assert got[0] == "TypeError" and "not of 'Exception'" in got[1]


def raises_os_and_syntax_errors(line):
    out = []
    for k in range(3):
        try:
            if k == 0:
                raise OSError(line[:5])
            if k == 1:
                raise SyntaxError(line[:3])
            raise OSError
        except OSError as e:
            out.append(("os", str(e), repr(e), type(e).__name__, isinstance(e, OSError), e.args))
        except Exception as e:
            out.append(("other", str(e), repr(e), type(e).__name__, isinstance(e, OSError), e.args))
    return out


def raises_syntax_error(line):
    raise SyntaxError(line[:4])


def test_os_and_syntax_errors_are_raised_as_cpython_raises_them():
    cases = [(line,) for line in corpus_lines(30) + ["", "abcdef"]]
    check_all(raises_os_and_syntax_errors, cases)
    check_all(raises_syntax_error, cases)
