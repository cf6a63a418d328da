"""``try ... finally`` and bare ``raise`` in ``anyproc.script`` and in anyscript source: the same
results, exceptions and messages as CPython on real text (the functions are in
``finally_cases.py``), a Python callback's exception passing through a ``finally:`` block, and
the errors' locations."""

from __future__ import annotations

import inspect

import anyproc
import finally_cases
import pytest
from conftest import corpus_lines
from test_formatting import check_all, outcome

CASES = [name for name, _ in inspect.getmembers(finally_cases, inspect.isfunction)]
EXTRA = ["", "a", "12 x", "zebra", "the cat sat", "1 2 3 4 5", "abc def ghi e", "z", "9 e 7 q"]


@pytest.mark.parametrize("name", CASES)
def test_finally_matches_cpython(name, lines):
    check_all(getattr(finally_cases, name), [(t,) for t in lines[:300] + EXTRA])


def test_printed_source_parses_back(lines):
    for name in CASES:
        f = anyproc.script(getattr(finally_cases, name))
        assert "finally:" in f.source or "raise\n" in f.source, name
        again = anyproc.script_source(f.source, f.sources[0][0])
        for line in lines[:60] + EXTRA:
            assert outcome(again, line) == outcome(f, line), (name, line)


def test_a_callback_exception_runs_the_finally_block_and_keeps_its_class():
    class Stop(Exception):
        pass

    calls = []

    @anyproc.register_func("testing.finally_stop", override=True)
    def stop(x):
        calls.append(x)
        raise Stop(f"stop at {x}")

    f = anyproc.script_source(
        "def f(xs):\n"
        "    out = []\n"
        "    for x in xs:\n"
        "        try:\n"
        "            out.append(testing.finally_stop(x))\n"
        "        except Exception:\n"
        "            out.append('caught')\n"
        "        finally:\n"
        "            out.append('finally')\n"
        "    return out\n", "f")
    # `except Exception` does not catch a Python exception of a class anyscript cannot name,
    # but the `finally:` block runs and the exception leaves with its own class.
    with pytest.raises(Stop, match="stop at 1"):
        f([1, 2])
    assert calls == [1]


def test_errors_name_the_line_that_raised():
    f = anyproc.script_source(
        "def f(t):\n    try:\n        return int(t)\n    finally:\n        t = t + '!'\n", "f")
    with pytest.raises(ValueError, match=r"line 3: invalid literal"):
        f("x")
    g = anyproc.script_source(
        "def g(t):\n    try:\n        return {}[t]\n    except KeyError:\n        x = 1\n        raise\n", "g")
    with pytest.raises(KeyError, match=r"line 3"):
        g("k")


def test_a_bare_raise_outside_a_clause_is_refused():
    with pytest.raises(SyntaxError, match="bare 'raise'"):
        anyproc.script_source("def f(t):\n    if t:\n        raise\n    return t\n", "f")


@pytest.fixture(scope="module")
def lines():
    return corpus_lines(400)
