"""Pipeline outputs reach NumPy through DLPack without a copy."""

from __future__ import annotations

import numpy as np
import pytest

import anyproc
from conftest import PIPELINES


@pytest.fixture(scope="module")
def bert():
    return anyproc.Pipeline.load(str(PIPELINES / "bert-base-uncased.toml"))


def test_two_views_share_memory(bert, lines_small):
    out = bert(lines_small[:64])
    ids = out["input_ids"]
    assert isinstance(ids, anyproc.NDArray)
    a = np.from_dlpack(ids)
    b = np.from_dlpack(ids)
    assert a.shape == (64, 128) and a.dtype == np.int64
    assert np.shares_memory(a, b)
    c = ids.numpy()
    assert np.shares_memory(a, c)


def test_writes_visible_through_the_other_view(bert, lines_small):
    ids = bert(lines_small[:8])["input_ids"]
    views = [np.from_dlpack(ids), np.from_dlpack(ids), ids.numpy()]
    writable = [v for v in views if v.flags.writeable]
    if not writable:
        pytest.skip("pipeline outputs are exported read-only")
    w = writable[0]
    others = [v for v in views if v is not w]
    w[0, 0] = 4242
    for v in others:
        assert v[0, 0] == 4242
    assert ids.tolist()[0][0] == 4242


def test_view_outlives_the_ndarray(bert, lines_small):
    expected = bert(lines_small[:16])["input_ids"].tolist()
    a = np.from_dlpack(bert(lines_small[:16])["input_ids"])  # the NDArray itself is gone at once
    import gc

    gc.collect()
    assert a.tolist() == expected


def test_numpy_in_is_zero_copy():
    a = np.arange(1000, dtype=np.int32)
    nd = anyproc.NDArray.from_dlpack(a)
    b = np.from_dlpack(nd)
    assert np.shares_memory(a, b)
    a[3] = -1
    assert b[3] == -1
