"""``math.*`` in ``anyproc.script`` (Python's ``math`` functions become anyproc's ``math.*`` ops)
and in anyscript source: results and errors equal CPython's, the float functions to the last bit."""

from __future__ import annotations

import math
import random

import anyproc
import pytest
from conftest import corpus_lines
from test_formatting import check_all
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


def outcome_of(f, args):
    try:
        return f(*args)
    except (ValueError, OverflowError, TypeError, ZeroDivisionError) as e:
        return type(e).__name__ + ": " + str(e)


def isclose_half(x, y):
    return math.isclose(x, y, rel_tol=0.5)


def isclose_absolute(x, y):
    return math.isclose(x, y, abs_tol=1.0, rel_tol=0.0)


def more_floats(xs):
    # Positional encodings, smoothing and scores: the rest of math's float functions, each on
    # every value and on pairs of values.
    out = []
    for x in xs:
        row = []
        for f in (math.sin, math.cos, math.tan, math.asin, math.acos, math.atan, math.sinh, math.cosh, math.tanh,
                  math.expm1, math.log1p, math.exp2, math.degrees, math.radians):
            row.append(outcome_of(f, (x,)))
        for y in (0, 1, -1, 2, 0.5, -2.5, 3.0, 1e308, float("inf"), float("-inf"), float("nan"), x):
            for f in (math.pow, math.fmod, math.atan2, math.copysign, math.isclose, isclose_half, isclose_absolute):
                row.append(outcome_of(f, (x, y)))
                row.append(outcome_of(f, (y, x)))
        out.append(row)
    return out


def positional_encoding(n_pos, dim):
    return [[math.sin(p / math.pow(10000, 2 * (i // 2) / dim)) if i % 2 == 0 else
             math.cos(p / math.pow(10000, 2 * (i // 2) / dim)) for i in range(dim)] for p in range(n_pos)]


def test_more_float_functions_match_cpython():
    rng = random.Random(11)
    xs = [0, -0.0, 1, -1, 2, 0.5, -0.5, 1e-300, 5e-324, 710.0, -745.5, 1e308, float("inf"), float("-inf"), float("nan"),
          True, 2**62] + [rng.uniform(-20, 20) for _ in range(60)]
    assert same(more_floats(xs), anyproc.script(more_floats)(xs))
    assert same(positional_encoding(32, 16), anyproc.script(positional_encoding)(32, 16))


def prod_from_two(xs):
    return math.prod(xs, start=2)


def int_functions(ns):
    out = []
    for n in ns:
        for f, args in ((math.factorial, (n,)), (math.isqrt, (n,)), (math.comb, (n, 3)), (math.comb, (n, n // 2)),
                        (math.perm, (n,)), (math.perm, (n, 2)), (math.perm, (n, None)), (math.comb, (5, n)), (math.perm, (5, n)),
                        (math.lcm, (n, 6)), (math.lcm, (n, -4, 10)), (math.lcm, ()), (math.lcm, (n,)),
                        (math.prod, (range(1, n % 12 + 1),)), (prod_from_two, ([n, 0.5],)), (prod_from_two, ([],)),
                        (math.prod, (["ab", n % 4],)), (math.prod, (n,))):
            out.append(outcome_of(f, args))
    return out


def isclose_negative(x, y):
    return math.isclose(x, y, rel_tol=-1)


def int_errors(n):
    return [outcome_of(f, args) for f, args in (
        (math.factorial, (2.0,)), (math.comb, (n, 1.0)), (math.comb, (n,)), (math.perm, ()), (math.isqrt, ("4",)),
        (math.isclose, (1,)), (math.isclose, (1, 2, 3)), (math.pow, (1,)), (math.sin, ("x",)), (isclose_negative, (1, 2)),
        (math.prod, ()), (math.atan2, (1,)), (math.lcm, (1.5,)))]


def big_ints(ns):
    return [[outcome_of(math.isqrt, (n,)), outcome_of(math.lcm, (n, 3)), outcome_of(math.comb, (n, 2))] for n in ns]


def in_64_bits(results):
    # anyscript's ints are 64-bit: where CPython's result is bigger, anyscript raises instead.
    too_large = "OverflowError: int too large for a 64-bit int in anyscript"
    return [too_large if isinstance(r, int) and not -2**63 <= r < 2**63 else r for r in results]


def test_integer_functions_match_cpython():
    ns = [0, 1, 2, 3, 5, 10, 20, 21, 30, 34, 35, 62, 63, 66, 67, 100, 1000, -1, -5, True, False]
    assert anyproc.script(int_functions)(ns) == in_64_bits(int_functions(ns))
    assert anyproc.script(int_errors)(7) == int_errors(7)
    big = [2**31, 2**32 - 1, 2**62, 2**63 - 1, 10**18, 999999999999999999, 4611686014132420609, -2**63]
    assert anyproc.script(big_ints)(big) == [in_64_bits(row) for row in big_ints(big)]


def fsums(xs):
    return math.fsum(xs), math.fsum(x * 0.1 for x in xs), math.fsum([-x for x in xs] + [1e-300])


def test_fsum_is_cpythons_to_the_last_bit():
    rng = random.Random(7)
    cases = [([rng.uniform(-1, 1) * 10 ** rng.randint(-20, 20) for _ in range(rng.randint(0, 40))],)
             for _ in range(300)]
    cases += [([0.1] * 10,), ([1e100, 1.0, -1e100, 1e-100, 1e50, -1.0, -1e50],), ([2.0 ** 53, -0.5, -2.0 ** -54],),
              ([1, 2, True, 0.5],), ([len(w) / 7 for w in " ".join(corpus_lines(50)).split()],)]
    check_all(fsums, cases)


def fsum_errors(xs):
    try:
        return repr(math.fsum(xs))
    except (OverflowError, ValueError, TypeError) as e:
        return type(e).__name__, str(e)


def test_fsum_errors_are_cpythons():
    cases = [([1.7976931348623157e308] * 2,), ([float("inf"), float("-inf")],), ([float("inf"), 1.0],),
             ([float("nan"), 1.0],), ([float("-inf"), -1e308, -1e308],), (["1.0"],), (5,), ([1.0, None],),
             ([10 ** 18, 0.5],), ("",)]
    check_all(fsum_errors, cases)
