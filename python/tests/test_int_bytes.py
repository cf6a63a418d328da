"""``int.from_bytes`` and ``int.to_bytes`` in ``anyproc.script`` and anyscript source: CPython
3.11's results for every byte order and sign over random values, and its errors; an int past
64 bits is anyscript's ``OverflowError``."""

from __future__ import annotations

import random

import anyproc
from test_formatting import check_all, check_source


def round_trip(n, length, order, signed):
    out = []
    try:
        data = n.to_bytes(length, order, signed=signed)
        out += [data, int.from_bytes(data, order, signed=signed), int.from_bytes(list(data), order, signed=signed),
                n.to_bytes(length=length, byteorder=order, signed=signed)]
        if n >= 0:
            # Read unsigned, a negative value's bytes are an int past 64 bits.
            out.append(int.from_bytes(data, byteorder=order))
    except OverflowError as e:
        out.append(f"OverflowError: {e}")
    return out


def defaults_and_errors(case):
    calls = [
        lambda: (5).to_bytes(),
        lambda: (5).to_bytes(2),
        lambda: int.from_bytes(b"\x01\x02"),
        lambda: int.from_bytes(b"\x01\x02", "little"),
        lambda: int.from_bytes(b"\x00" * 12 + b"\x07", "big"),
        lambda: int.from_bytes(b"\xff" * 12, "big", signed=True),
        lambda: int.from_bytes(case, "big"),
        lambda: int.from_bytes(b"\x01", case),
        lambda: (1).to_bytes(case, "big"),
        lambda: (1).to_bytes(1, case),
        lambda: (-1).to_bytes(1, "big"),
        lambda: (128).to_bytes(1, "big", signed=True),
        lambda: (-129).to_bytes(1, "big", signed=True),
        lambda: (1).to_bytes(-1, "big"),
        lambda: int.from_bytes([1, 256], "big"),
        lambda: int.from_bytes("ab", "big"),
        lambda: (0).to_bytes(0, "big"),
        lambda: (1).to_bytes(0, "big"),
        lambda: int.from_bytes(b"", "little", signed=True),
    ]
    out = []
    for call in calls:
        try:
            out.append(call())
        except (TypeError, ValueError, OverflowError) as e:
            out.append(f"{type(e).__name__}: {e}")
    return out


def test_round_trips_equal_cpython():
    rng = random.Random(20261129)
    cases = []
    for _ in range(400):
        bits = rng.randrange(0, 63)
        n = rng.randrange(-(2 ** bits), 2 ** bits)
        cases.append((n, rng.randrange(0, 11), rng.choice(["big", "little"]), rng.random() < 0.5))
    cases += [(2 ** 63 - 1, 8, "big", False), (-(2 ** 63), 8, "little", True), (0, 0, "big", False), (255, 1, "big", True)]
    check_all(round_trip, cases)


def test_defaults_and_errors_equal_cpython():
    # A byte order of None is taken for one left out ("big"), where CPython's is a TypeError.
    check_all(defaults_and_errors, [("big",), ("middle",), (3,), (b"\x80",), ([1, 2],), (2.5,)])


def test_ints_past_64_bits_are_overflow_errors():
    def wide(data):
        return int.from_bytes(data, "big")

    f = anyproc.script(wide)
    assert f(b"\x00" * 4 + b"\x7f" + b"\xff" * 7) == 2 ** 63 - 1
    try:
        f(b"\x01" + b"\x00" * 8)
    except OverflowError as e:
        assert "64 bits" in str(e)
    else:
        raise AssertionError("no OverflowError")


def test_the_text_front_end():
    source = "def f(n):\n    b = n.to_bytes(4, 'little', signed=True)\n    return [b, int.from_bytes(b, 'little', signed=True)]\n"
    check_source(source, "f", [(7,), (-7,), (2 ** 31 - 1,)])
