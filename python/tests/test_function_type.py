"""``anyproc.Function``: the callable type, reached through vectorcall and through ``tp_call``."""

from __future__ import annotations

import bisect
import json
import re
import sys

import pytest

import anyproc


def test_vectorcall_and_tuple_call_give_the_same_results():
    lower = anyproc.get_global_func("text.lower")
    echo = anyproc.get_global_func("testing.echo")
    # `f(x)` goes through vectorcall; `type(f).__call__(f, x)` through the `tp_call` slot
    # with an argument tuple.
    assert lower("ÀBC") == "àbc" == type(lower).__call__(lower, "ÀBC")
    args = ([1, "x", None], 2, 3, 4, 5, 6, 7, 8)  # more arguments than fit on the stack
    assert echo(*args) == [1, "x", None] == type(echo).__call__(echo, *args)
    assert anyproc.get_global_func("testing.nop")() is None


def test_keyword_arguments_are_refused_by_an_op_without_parameter_names():
    lower = anyproc.get_global_func("text.lower")
    with pytest.raises(TypeError, match="keyword"):
        lower(text="A")
    with pytest.raises(TypeError, match="keyword"):
        type(lower).__call__(lower, text="A")


def test_ops_that_python_functions_stand_behind_take_their_keywords():
    # Bound as Python's own functions bind them, through both call paths, with their errors.
    sub = anyproc.get_global_func("re.sub")
    text = "a  b\tc d"
    assert sub(r"\s+", "_", text, count=2) == re.sub(r"\s+", "_", text, count=2)
    assert type(sub).__call__(sub, r"\s", "", text, count=1) == re.sub(r"\s", "", text, count=1)
    left = anyproc.get_global_func("bisect.bisect_left")
    a = [1, 2, 2, 3, 5]
    assert left(a, 2, lo=2) == bisect.bisect_left(a, 2, lo=2)
    assert left(a, 4, hi=3, lo=0) == bisect.bisect_left(a, 4, hi=3, lo=0)
    dumps = anyproc.get_global_func("json.dumps")
    value = {"b": [1, 2], "a": "é"}
    assert dumps(value, sort_keys=True, indent=1, ensure_ascii=False) == json.dumps(
        value, sort_keys=True, indent=1, ensure_ascii=False)
    for call in (lambda f: f(a, 1, foo=2), lambda f: f(a, 1, lo=0, x=2), lambda f: f(a, 1, 0, lo=1)):
        with pytest.raises(TypeError) as ours:
            call(left)
        with pytest.raises(TypeError) as theirs:
            call(bisect.bisect_left)
        assert str(ours.value) == str(theirs.value)
    # functools.partial keeps keywords that the call may set again.
    squash_once = anyproc.get_global_func("functools.partial")(sub, r"\s+", count=1)
    assert squash_once("-", text) == "a-b\tc d"
    assert squash_once("-", text, count=0) == "a-b-c-d"
    # Through the op namespace too.
    assert anyproc.ops.re.sub(r"\s+", "_", text, count=1) == re.sub(r"\s+", "_", text, count=1)
    with pytest.raises(TypeError, match="keyword"):
        anyproc.ops.text.lower(text="A")


def test_errors_name_the_op_through_both_paths():
    lower = anyproc.get_global_func("text.lower")
    with pytest.raises(TypeError, match=r"text\.lower: argument 0: expected str, got int"):
        lower(1)
    with pytest.raises(TypeError, match=r"text\.lower: argument 0: expected str, got int"):
        type(lower).__call__(lower, 1)


def test_cannot_be_created_directly_and_subclasses_wrap_a_function():
    with pytest.raises(TypeError, match="cannot be created directly"):
        anyproc.Function()
    sub = type("Sub", (anyproc.Function,), {})
    with pytest.raises(TypeError, match="made from an anyproc.Function"):
        sub()
    with pytest.raises(TypeError, match="made from an anyproc.Function"):
        sub(len)
    lower = anyproc.get_global_func("text.lower")
    s = sub(lower)
    assert isinstance(s, anyproc.Function) and s("ABC") == "abc" and s.name == "text.lower"
    assert s == lower and hash(s) == hash(lower)
    # One GIL setting for both; a subclass instance has a dict of its own.
    before = lower.release_gil
    s.release_gil = not before
    assert lower.release_gil is (not before)
    lower.release_gil = before
    s.note = "kept"
    assert s.note == "kept" and not hasattr(lower, "note")
    # Subclass instances are collected in cycles (the subclass adds a dict, hence the GC).
    import gc
    import weakref

    class Holder(anyproc.Function):
        pass

    h = Holder(lower)
    h.me = h
    gone = weakref.ref(h.__dict__.setdefault("probe", type("P", (), {})()))
    del h
    gc.collect()
    assert gone() is None


def test_attributes_repr_equality_hash():
    a = anyproc.get_global_func("text.lower")
    b = anyproc.get_global_func("text.lower")
    c = anyproc.get_global_func("text.upper")
    assert isinstance(a, anyproc.Function) and type(a).__name__ == "Function"
    assert a.name == "text.lower" and repr(a) == "<anyproc.Function text.lower>"
    assert a == b and hash(a) == hash(b) and a != c and a != "text.lower"
    assert len({a, b, c}) == 2
    with pytest.raises(TypeError):
        a.release_gil = "yes"
    with pytest.raises(TypeError):
        del a.release_gil
    with pytest.raises(AttributeError):
        a.name = "other"


def test_functions_do_not_leak_references():
    echo = anyproc.get_global_func("testing.echo")
    def token(x):
        return x

    before = sys.getrefcount(token)
    for _ in range(1000):
        # The callable becomes a PackedFunc holding it, and comes back as a new Function:
        # freeing that Function must release the callable.
        back = echo([token])[0]
        assert isinstance(back, anyproc.Function) and back(3) == 3
        del back
        anyproc.get_global_func("testing.nop")
    assert sys.getrefcount(token) == before
    # A function made in Rust and returned to Python (the callback wrapper) is freed with it.
    made = echo(lambda x: x)
    assert isinstance(made, anyproc.Function) and made.name is None
    assert made(5) == 5
