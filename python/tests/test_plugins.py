"""Plugins from Python: the C example plugin (examples/plugin-c) built with the system C
compiler, loaded with ``anyproc.load_module``, and its ops called directly, through
``anyproc.ops``, inside a pipeline, and with their outputs handed to NumPy."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import anyproc

from conftest import REPO


def build_c(tmp_dir: Path, source: str, name: str, *defines: str) -> Path:
    cc = os.environ.get("CC", "cc")
    if shutil.which(cc) is None:
        pytest.skip(f"no C compiler ({cc})")
    out = tmp_dir / f"lib{name}.so"
    cmd = [cc, "-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-O1", "-shared", "-fPIC",
           "-I", str(REPO / "include"), *[f"-D{d}" for d in defines], "-o", str(out), str(REPO / source)]
    subprocess.run(cmd, check=True)
    return out


@pytest.fixture(scope="module")
def plugin_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("plugins")


@pytest.fixture(scope="module")
def c_plugin(plugin_dir) -> anyproc.Module:
    path = build_c(plugin_dir, "examples/plugin-c/anyproc_example.c", "anyproc_example_c")
    return anyproc.load_module(path)


def test_c_plugin_ops_are_callable_from_python(c_plugin):
    assert "example_c.upper_ascii" in c_plugin.functions
    assert anyproc.ops.example_c.upper_ascii("abc") == "ABC"
    assert anyproc.ops.example_c.upper_ascii("a longer string, wörld") == "A LONGER STRING, WöRLD"
    hist = anyproc.get_global_func("example_c.char_histogram")("abcab")
    assert dict(hist) == {"a": 2, "b": 2, "c": 1}
    iota = anyproc.ops.example_c.iota(6)
    assert np.from_dlpack(iota).tolist() == list(range(6))


def test_plugin_errors_become_python_exceptions(c_plugin):
    with pytest.raises(ValueError, match="example_c.fail was asked to fail on 'boom'"):
        anyproc.ops.example_c.fail("boom")
    with pytest.raises(TypeError, match="expected str, got int"):
        anyproc.ops.example_c.upper_ascii(3)


def test_plugin_ops_run_in_pipelines(c_plugin, tmp_path):
    toml = tmp_path / "upper.toml"
    toml.write_text(
        'name = "upper"\ninputs = ["text"]\n[[steps]]\nout = "u"\ncall = "example_c.upper_ascii(text)"\n'
        '[[outputs]]\nname = "u"\nfrom = "u"\nlayout = "list"\n'
    )
    out = anyproc.Pipeline.load(str(toml))(["one", "two three"])
    assert list(out["u"]) == ["ONE", "TWO THREE"]


def test_loading_twice_is_harmless_and_bad_plugins_are_refused(c_plugin, plugin_dir):
    again = anyproc.load_module(c_plugin.path)
    assert again.functions == c_plugin.functions
    bad = build_c(plugin_dir, "tests/capi/bad_plugin.c", "bad_abi", "BAD_ABI_VERSION")
    with pytest.raises(ValueError, match="was built for ABI version 2.0"):
        anyproc.load_module(bad)
    with pytest.raises(OSError, match="no-such-plugin.so"):
        anyproc.load_module(plugin_dir / "no-such-plugin.so")
    dup = build_c(plugin_dir, "tests/capi/bad_plugin.c", "bad_dup", "BAD_DUPLICATE")
    with pytest.raises(ValueError, match="already registered"):
        anyproc.load_module(dup)
    # The process goes on, and the example's op is untouched.
    assert anyproc.ops.example_c.upper_ascii("still here") == "STILL HERE"
