"""Every kind of value through ``testing.echo`` and back: the conversions of the boundary."""

from __future__ import annotations

import gc
import math

import numpy as np
import pytest

import anyproc

echo = anyproc.get_global_func("testing.echo")


@pytest.mark.parametrize(
    "value",
    [
        None, True, False, 0, 1, -1, 7, 2**31, -(2**31), 2**62, 2**63 - 1, -(2**63),
        0.0, -0.0, 1.5, -2.25, 1e300, 5e-324, math.pi,
        "", "a", "héllo", "sixteen bytes ok", "x" * 1000, "日本語テキスト", "emoji 🎉👍🏽", "\x00nul\x00",
        "mixed ascii and ünïcödé " * 50,
        b"", b"\x00\xff\x80bytes", bytes(range(256)) * 10,
        [], [1, "a", None, 2.5, True], [[1, [2, [3, [4]]]], []], {"a": 1, "b": [1, 2], "c": {"d": None}},
        {}, {1: "one", "two": 2}, [{"k": [b"x", "y"]}],
    ],
    ids=repr,
)
def test_round_trip(value):
    out = echo(value)
    assert out == value
    assert type(out) is type(value)
    if isinstance(value, float):
        assert math.copysign(1.0, out) == math.copysign(1.0, value)


def test_bool_stays_bool():
    assert echo(True) is True
    assert echo(False) is False
    assert echo(None) is None
    assert type(echo(1)) is int


def test_special_floats():
    assert math.isnan(echo(float("nan")))
    assert echo(float("inf")) == float("inf")
    assert echo(float("-inf")) == float("-inf")


def test_tuple_round_trips_as_a_tuple():
    back = echo((1, "a", (2, 3), [4]))
    assert back == (1, "a", (2, 3), [4])
    assert type(back) is tuple and type(back[2]) is tuple and type(back[3]) is list
    assert echo(()) == () and type(echo(())) is tuple
    # A tuple key stays a tuple key.
    assert echo({(1, "a"): 2}) == {(1, "a"): 2}


def test_int_edges_and_overflow():
    assert echo(2**63 - 1) == 2**63 - 1
    assert echo(-(2**63)) == -(2**63)
    for bad in (2**63, -(2**63) - 1, 2**100, -(2**100)):
        with pytest.raises(OverflowError):
            echo(bad)
    with pytest.raises(OverflowError):
        echo([1, 2, 2**64])


def test_dict_order_kept():
    d = {f"k{i}": i for i in range(100)}
    assert list(echo(d).items()) == list(d.items())


def test_callable_round_trip():
    def add(a, b):
        return a + b

    f = echo(add)
    assert callable(f)
    assert f(2, 3) == 5
    lower = anyproc.get_global_func("text.lower")
    g = echo(lower)
    assert g("ABC") == "abc"
    assert g == lower  # same function object behind both


def test_callable_in_containers():
    fs = echo([len, {"f": str.upper}])
    assert fs[0]("abcd") == 4
    assert fs[1]["f"]("abc") == "ABC"


DTYPES = [
    np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
    np.float16, np.float32, np.float64,
    # DLPack has kDLComplex; anyproc's NDArray does not take it yet.
    pytest.param(np.complex64, marks=pytest.mark.xfail(raises=ValueError, reason="complex dtypes not supported")),
    pytest.param(np.complex128, marks=pytest.mark.xfail(raises=ValueError, reason="complex dtypes not supported")),
]


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_numpy_dtypes(dtype):
    a = (np.arange(24) % 7).astype(dtype).reshape(2, 3, 4)
    out = echo(a)
    assert isinstance(out, anyproc.NDArray)
    assert tuple(out.shape) == a.shape
    b = np.from_dlpack(out)
    assert b.dtype == a.dtype
    np.testing.assert_array_equal(b, a)
    assert np.shares_memory(a, b), "arrays cross the boundary without a copy"


def test_numpy_shapes_and_strides():
    for a in [np.zeros((0,), np.int64), np.array(5, np.int32), np.arange(20, dtype=np.float64)[::3],
              np.arange(12, dtype=np.int64).reshape(3, 4).T]:
        b = np.from_dlpack(echo(a))
        assert b.shape == a.shape
        np.testing.assert_array_equal(b, a)


def test_ndarray_methods():
    a = np.arange(6, dtype=np.int64).reshape(2, 3)
    nd = echo(a)
    assert nd.tolist() == a.tolist()
    np.testing.assert_array_equal(nd.numpy(), a)
    assert "int64" in str(nd.dtype)
    nd2 = anyproc.NDArray.from_dlpack(a)
    np.testing.assert_array_equal(np.from_dlpack(nd2), a)
    assert nd.__dlpack_device__()[0] == 1  # kDLCPU


def test_unconvertible_type():
    with pytest.raises(TypeError):
        echo(object())
    with pytest.raises(TypeError):
        echo(Ellipsis)


def test_sets_round_trip():
    # A frozenset comes back as a frozenset; tuples inside a set come back as tuples (lists
    # would be unhashable in Python).
    assert echo({1, 2.5, "a", None}) == {1, 2.5, "a", None}
    assert echo(frozenset({"x"})) == {"x"} and type(echo(frozenset())) is frozenset
    assert echo({(1, ("a", 2))}) == {(1, ("a", 2))}
    inner = echo({frozenset({1})})
    assert inner == {frozenset({1})} and type(next(iter(inner))) is frozenset


def test_one_character_strings_of_every_width():
    # One-character results are made from their code point (cached by CPython below 256); the
    # expected values are Python's own one-character strings.
    chars = ["a", "\x00", "\x7f", "é", "ÿ", "Ā", "€", "日", "😀", "\U0010ffff"]
    out = echo(chars)
    assert out == chars
    assert all(type(c) is str and len(c) == 1 for c in out)
    assert anyproc.script(split_chars)("aé€😀") == ["a", "é", "€", "😀"]


def split_chars(word):
    out = []
    for c in word:
        out.append(c)
    return out


class Shrinking:
    """An int-like item whose conversion empties the list it sits in."""

    def __init__(self, owner):
        self.owner = owner

    def __index__(self):
        self.owner.clear()
        return 7


def test_list_items_converted_while_the_list_changes():
    class Text(str):
        pass

    # A str subclass and an item whose conversion runs Python code go the general way; the
    # list is read again after each item, so emptying it ends the conversion without a crash.
    items = ["plain", Text("sub"), 1]
    items.append(Shrinking(items))
    items.append("never read")
    assert echo(items) == ["plain", "sub", 1, 7]
    assert items == []


def test_tuple_items_outlive_code_run_during_conversion():
    # The tuple's items are read through borrowed references. An item whose conversion drops
    # every other reference to its neighbours (held only in `owner`) cannot free them: the
    # tuple holds its own, so they are read intact after it.
    owner = ["a heap string longer than sixteen bytes", [1, 2], "é" * 40]
    items = (Shrinking(owner), *owner, ("nested", Shrinking(owner)))
    assert echo(items) == (7, "a heap string longer than sixteen bytes", [1, 2], "é" * 40, ("nested", 7))
    assert owner == []


def _collections_during(fn):
    """How many collections Python's cycle collector started while ``fn`` ran, collecting as
    often as it can (a threshold of one allocation), and what ``fn`` returned."""
    started = []
    callback = lambda phase, info: started.append(info["generation"]) if phase == "start" else None  # noqa: E731
    old = gc.get_threshold()
    # From empty generations: what earlier tests left in them would change how often each
    # generation's collection comes.
    gc.collect()
    gc.callbacks.append(callback)
    gc.set_threshold(1)
    try:
        out = fn()
    finally:
        gc.set_threshold(*old)
        gc.callbacks.remove(callback)
    return len(started), out


@pytest.mark.parametrize("make", [lambda n: [[i, str(i)] for i in range(n)], lambda n: {str(i): [i] for i in range(n)}],
                         ids=["list of lists", "dict of lists"])
def test_large_results_convert_with_the_collector_paused_and_restored(make):
    big, small = make(5000), make(100)
    assert gc.isenabled()
    # Each list made counts towards a collection: converting the small result back collects
    # about once per list; the large one is converted with the collector paused.
    n_small, out_small = _collections_during(lambda: echo(small))
    n_big, out_big = _collections_during(lambda: echo(big))
    assert out_small == small and out_big == big
    assert n_small >= 50
    assert n_big <= 5
    assert gc.isenabled()
    # A collector the caller turned off stays off.
    gc.disable()
    try:
        assert echo(big) == big
        assert not gc.isenabled()
    finally:
        gc.enable()
