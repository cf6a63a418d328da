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


def test_an_error_from_a_python_callback_is_not_caught():
    # anyscript cannot tell the class of a Python exception (it may be KeyboardInterrupt).
    @anyproc.register_func("testing.try_raises", override=True)
    def raises(x):
        raise ValueError("from Python")

    source = "def f(x):\n    try:\n        return testing.try_raises(x)\n    except Exception:\n        return 0\n"
    with pytest.raises(ValueError, match="from Python"):
        anyproc.script_source(source, "f")(1)


def test_unknown_exception_names_are_refused():
    with pytest.raises(SyntaxError, match="line 4.*except UnicodeError"):
        anyproc.script_source("def f(x):\n    try:\n        return 1\n    except UnicodeError:\n        return 0\n", "f")


@pytest.fixture(scope="module")
def lines():
    return corpus_lines(400)
