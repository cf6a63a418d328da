"""``try``/``except``/``else`` in ``anyproc.script`` and in anyscript source: the same results,
exceptions and messages as CPython on real text (the functions are in ``try_cases.py``), and
the forms anyscript refuses."""

from __future__ import annotations

import anyproc
import pytest
import try_cases
from conftest import corpus_lines
from test_formatting import check_all, outcome

CASES = ["parse_numbers", "lookups", "arithmetic", "nested_and_reraised", "handler_fails", "loop_control",
         "unbound_after", "clause_left_by_an_error"]
EXTRA = ["", "a", "12", "1.5 x 7", "inf -3 1e5", "abc def", "Debian 12 x"]


@pytest.mark.parametrize("name", CASES)
def test_try_matches_cpython(name, lines):
    check_all(getattr(try_cases, name), [(t,) for t in lines[:300] + EXTRA])


def test_printed_source_parses_back(lines):
    for name in CASES:
        f = anyproc.script(getattr(try_cases, name))
        again = anyproc.script_source(f.source, f.sources[0][0])
        for line in lines[:60] + EXTRA:
            assert outcome(again, line) == outcome(f, line), (name, line)


def _parse_positive(text):
    """A Python callback: ``int(text)``, a KeyError for what is not positive."""
    n = int(text)  # ValueError for what is not a number
    if n <= 0:
        raise KeyError(f"not positive: {n}")
    return n


class _Unnamed(Exception):
    """An exception class no anyscript clause can name."""


def _unnamed(text):
    raise _Unnamed(text)


CALLBACK_CLAUSES = [
    "except ValueError as e:\n        return 'value: ' + str(e)\n    except LookupError as e:\n        return 'lookup: ' + str(e)",
    "except Exception as e:\n        return 'caught ' + str(e)",
    "except (KeyError, ValueError) as e:\n        return str(e)",
    "except KeyError:\n        return 'key'",
]


@pytest.mark.parametrize("clauses", CALLBACK_CLAUSES)
def test_a_python_callback_error_is_caught_as_cpython_catches_it(clauses, lines):
    # The same function run by CPython (calling the callback) and by anyproc (calling it as an
    # op): a callback's exception of a class anyscript names is caught by the clauses CPython's
    # would catch it with, `as e` binding its str; one no clause names reaches the caller as is.
    anyproc.register_func("testing.try_parse", _parse_positive, override=True)
    body = "def f(text):\n    try:\n        return {call}(text)\n    " + clauses + "\n"
    namespace = {"parse": _parse_positive}
    exec(body.format(call="parse"), namespace)  # noqa: S102 - the test's own source
    ours = anyproc.script_source(body.format(call="testing.try_parse"), "f")
    words = [w for line in lines[:100] for w in line.split()] + ["12", "-3", "0", " 7 ", "x"]
    for w in words:
        assert outcome(ours, w) == outcome(namespace["f"], w), w


def test_a_callback_error_no_clause_can_name_passes_through():
    anyproc.register_func("testing.try_unnamed", _unnamed, override=True)
    source = "def f(x):\n    try:\n        return testing.try_unnamed(x)\n    except Exception:\n        return 0\n"
    with pytest.raises(_Unnamed, match="boom") as info:
        anyproc.script_source(source, "f")("boom")
    # The exception is the callback's own object, with its traceback.
    assert any(frame.name == "_unnamed" for frame in info.traceback)


def test_unknown_exception_names_are_refused():
    with pytest.raises(SyntaxError, match="line 4.*except EOFError"):
        anyproc.script_source("def f(x):\n    try:\n        return 1\n    except EOFError:\n        return 0\n", "f")


@pytest.fixture(scope="module")
def lines():
    return corpus_lines(400)
