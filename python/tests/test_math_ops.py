"""``math.*`` in ``anyproc.script`` (Python's ``math`` functions become anyproc's ``math.*`` ops)
and in anyscript source: results and errors equal CPython's, the float functions to the last bit."""

from __future__ import annotations

import math
import random

import anyproc
import pytest
from test_sort import same


def scores(xs):
    out = []
    for x in xs:
        row = []
        for f in (math.floor, math.ceil, math.trunc, math.sqrt, math.exp, math.log, math.log2, math.log10,
                  math.fabs, math.isnan, math.isinf, math.isfinite):
            try:
                row.append(f(x))
            except ValueError as e:
                row.append("ValueError: " + str(e))
            except OverflowError as e:
                row.append("OverflowError: " + str(e))
        try:
            row.append(math.log(x, 3))
        except ValueError as e:
            row.append("ValueError: " + str(e))
        row.append(math.gcd(int(x) if x == x and abs(x) < 1e18 else 0, 12))
        out.append(row)
    return [out, math.pi * 2, math.inf]


def idf(counts, n_docs):
    # tf-idf weights, as preprocessing code computes them.
    return {w: round(c * math.log((1 + n_docs) / (1 + c)) + 1, 6) for w, c in counts.items()}


def test_math_functions_match_cpython():
    rng = random.Random(7)
    # (No float beyond 2**63: floor of it is a big int in CPython, an OverflowError in anyscript.)
    xs = [0, 1, -1, 2, 10, 0.5, -2.5, 1e-300, 1e18, 709.0, 710.0, -745.5, float("inf"), float("-inf"), float("nan"),
          True, 2**62, -(2**62)] + [rng.uniform(-50, 50) for _ in range(200)] + [rng.randrange(-10**6, 10**6)
                                                                               for _ in range(50)]
    want, got = scores(xs), anyproc.script(scores)(xs)
    assert same(want, got)


def test_idf_weights_match_cpython():
    counts = {f"w{i}": i % 17 + 1 for i in range(300)}
    assert anyproc.script(idf)(counts, 1000) == idf(counts, 1000)


def test_math_ops_from_anyscript_source():
    f = anyproc.script_source("def f(x):\n    return [math.floor(x), math.sqrt(x), math.log(x, 2)]\n", "f")
    assert f(8.5) == [8, math.sqrt(8.5), math.log(8.5, 2)]
    with pytest.raises(ValueError, match="math domain error"):
        f(-1)
    with pytest.raises(TypeError, match="must be real number, not str"):
        f("a")
