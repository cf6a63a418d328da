"""``anyproc.ops``: registered functions by attribute chain."""

from __future__ import annotations

import pickle

import pytest

import anyproc


def test_ops_call():
    assert anyproc.ops.text.lower("ABC") == "abc"
    assert anyproc.ops.text.split_whitespace(" a  b ") == ["a", "b"]
    assert anyproc.ops.testing.echo([1, "x"]) == [1, "x"]


def test_ops_nodes_are_cached():
    assert anyproc.ops.text is anyproc.ops.text
    assert anyproc.ops.text.lower is anyproc.ops.text.lower
    f = anyproc.ops.text.upper
    f("x")
    assert f._func is not None  # looked up once, then kept
    assert "lower" in vars(anyproc.ops.text)  # later lookups are plain attribute reads


def test_ops_dir_and_repr():
    assert "text" in dir(anyproc.ops)
    assert "lower" in dir(anyproc.ops.text)
    assert "text.lower" in repr(anyproc.ops.text.lower)


def test_ops_private_attributes_are_not_ops():
    with pytest.raises(AttributeError):
        anyproc.ops._private  # noqa: B018
    with pytest.raises(AttributeError):
        anyproc.ops.text.__wrapped__  # noqa: B018


def test_ops_unknown():
    with pytest.raises(KeyError):
        anyproc.ops.text.no_such_op("x")
    with pytest.raises(TypeError):
        anyproc.ops("x")


def test_ops_pickle():
    node = pickle.loads(pickle.dumps(anyproc.ops.text.lower))
    assert node is anyproc.ops.text.lower


def test_stateful_op_returns_function():
    from conftest import ASSETS

    bert = anyproc.ops.tok.bert.from_file(str(ASSETS / "bert-base-uncased" / "tokenizer.json"))
    assert isinstance(bert, anyproc.Function)
    assert bert("Hello world!", True) == [101, 7592, 2088, 999, 102]
