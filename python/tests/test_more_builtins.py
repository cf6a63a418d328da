"""``pow``, ``divmod``, ``hex``, ``oct`` and ``bin``, and methods reached through their type as
function values (``key=str.lower``), in ``anyproc.script`` and in anyscript source: results,
exceptions and messages equal CPython's on real text."""

from __future__ import annotations

import collections
import re

import anyproc
import pytest
from conftest import corpus_lines
from test_formatting import check_all, outcome


def number_builtins(text):
    n, w = len(text), len(text.split())
    # divmod gives a tuple, which is a list in anyscript: list() makes both sides a list.
    return [pow(n, 3), pow(w + 1, n % 7, 97), pow(n + 2, -1, 101), pow(2, -w), pow(n, 2, -7), pow(-n, 3, 10),
            pow(base=w, exp=2), pow(w, 5, mod=13), list(divmod(n, w or 1)), list(divmod(-n, 7)),
            list(divmod(n / 3, -2.5)), list(divmod(-n, 0.5)), hex(n), oct(-n), bin(w), hex(-w), bin(n > 5)]


def modular_errors(text):
    # ValueError when the modulus is 0 or the base has no inverse; TypeError for a float.
    n = len(text)
    if n % 4 == 0:
        return pow(n, 2, 1.5)
    return pow(n, -1, n % 6)


def digit_errors(text):
    n = len(text)
    return [hex(n / 2), oct(text)][n % 2]


def divmod_errors(text):
    n = len(text.split())
    return list(divmod([1.5, n][n % 2], n % 3))


def divmod_of_a_str(text):
    return divmod(text, 2)


def method_values(text):
    words = text.split()
    upper = str.upper
    return [sorted(words, key=str.lower), max(words, key=str.casefold, default=""), list(map(str.title, words[:3])),
            [upper(w) for w in words[:3]], str.lower is str.lower, sorted(words, key=str.swapcase, reverse=True),
            list(filter(str.isalpha, words)), [f(text[:5]) for f in [str.strip, str.lower, str.isdigit]]]


def method_value_on_another_type(text):
    lower = str.lower
    return lower(len(text))


@pytest.mark.parametrize("fn", [number_builtins, modular_errors, digit_errors, divmod_errors, divmod_of_a_str,
                                method_values, method_value_on_another_type])
def test_matches_cpython(fn, lines):
    check_all(fn, [(t,) for t in lines[:300] + ["", "a", "ab cd", "1 2 3 4 5 6"]])


def test_printed_source_parses_back(lines):
    for fn in [number_builtins, method_values]:
        f = anyproc.script(fn)
        again = anyproc.script_source(f.source, fn.__name__)
        for line in lines[:50]:
            assert outcome(again, line) == outcome(f, line) == outcome(fn, line)


@pytest.mark.parametrize("call, message", [
    ("pow(1)", "pow() missing required argument 'exp' (pos 2)"),
    ("pow(1, 2, 3, 4)", "pow() takes at most 3 arguments (4 given)"),
    ("divmod(1)", "divmod expected 2 arguments, got 1"),
    ("hex()", "hex() takes exactly one argument (0 given)"),
    ("round()", "round() missing required argument 'number' (pos 1)"),
    ("sum()", "sum() takes at least 1 positional argument (0 given)"),
    ("enumerate()", "enumerate() missing required argument 'iterable'"),
])
def test_wrong_argument_counts_are_cpythons_messages(call, message):
    # Both raise them when the call runs (architecture.md): not in a branch not taken.
    with pytest.raises(TypeError) as cpython:
        eval(call)
    assert str(cpython.value) == message
    f = anyproc.script_source(f"def f(x):\n    if x:\n        return {call}\n    return 0\n", "f")
    assert f(0) == 0
    with pytest.raises(TypeError, match="line 3: " + re.escape(message)):
        f(1)


@pytest.fixture(scope="module")
def lines():
    return corpus_lines(400)


def test_an_unknown_name_is_a_name_error():
    # CPython raises NameError when the read runs; anyscript when it compiles, naming the line.
    with pytest.raises(NameError, match="line 3: name 'undefined_helper' is not defined"):
        anyproc.script_source("def f(x):\n    y = x\n    return undefined_helper(y)\n", "f")
    with pytest.raises(NameError, match="line 2: name 'nowhere' is not defined"):
        anyproc.script_source("def f(x):\n    return nowhere + x\n", "f")


def three_argument_pow(b, e, m):
    return pow(b, e, m)


def test_three_argument_pow_refuses_as_cpython_does():
    # A float anywhere refuses the modulus (CPython tries its __pow__); other types are unsupported.
    values = [2, -3, True, 2.5, -0.0, "a", None, [1], 0]
    check_all(three_argument_pow, [(b, e, m) for b in values for e in values for m in values[:6] + [7]])


def chr_of(i):
    return chr(i)


def test_chr_of_ints_past_a_c_int_is_cpythons_overflow():
    check_all(chr_of, [(i,) for i in [2**31, 2**31 - 1, -2**31, -2**31 - 1, 2**40, 2**62, -2**63, 0x10FFFF, 0x110000, -1]])


def hashes(xs):
    out = []
    for x in xs:
        try:
            out.append(hash(x))
        except TypeError as e:
            out.append(str(e))
    return out


def test_hash_is_this_pythons_own():
    # str and bytes hash with this process's secret (anyproc reads it at import), None with its
    # address, numbers and tuples as CPython does: `hash(w) % buckets` gives Python's buckets.
    words = [w for line in corpus_lines(60) for w in line.split()][:400]
    values = words + [w.encode("utf-8") for w in words[:50]] + [
        "", "é", "€x", "🎉", "naïve café", "a" * 100, b"", 0, 1, -1, 2**61 - 1, 2**61, -2**62, 1.5, -0.0, 1e300,
        float("inf"), float("-inf"), True, False, None, ("a", 1, (b"x", 2.5)), (), [1], {"k": 1}, {1}, ([1],),
        collections.Counter("ab"), collections.defaultdict(int), collections.OrderedDict(), collections.deque([1])]
    check_all(hashes, [(values,)])

    def buckets(ws, n):
        return [hash(w) % n for w in ws]

    check_all(buckets, [(words, n) for n in [2, 1024, 2**20]])
