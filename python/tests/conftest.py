"""Paths and data shared by the Python tests.

The repository root is the parent of ``python/``. Real data comes from the
shared data folder (``$ANYPROC_SHARED_DATA``, else ``<repo>/../shared/data``)
when it is there, and from the small samples in ``<repo>/tests/data``
otherwise, so the tests run in a plain checkout too.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
from pathlib import Path
from typing import List, Optional

import pytest

REPO = Path(__file__).resolve().parents[2]
PIPELINES = REPO / "pipelines"
ASSETS = PIPELINES / "assets"
TEST_DATA = REPO / "tests" / "data"


def shared_data() -> Path:
    """The shared data folder (it may not exist)."""
    env = os.environ.get("ANYPROC_SHARED_DATA")
    return Path(env) if env else REPO.parent / "shared" / "data"


def corpus_path() -> Path:
    """``dev_sample.txt`` (150k lines) if present, else the 3,000-line head shipped in the repo."""
    full = shared_data() / "corpus" / "dev_sample.txt"
    return full if full.is_file() else TEST_DATA / "dev_sample_head.txt"


def words_path() -> Path:
    """``words_1m.txt`` if present, else the 20,000-word sample shipped in the repo."""
    full = shared_data() / "corpus" / "words_1m.txt"
    return full if full.is_file() else TEST_DATA / "words_sample.txt"


def corpus_lines(limit: Optional[int] = None) -> List[str]:
    """Lines of the corpus (without their newline), at most ``limit``."""
    with open(corpus_path(), encoding="utf-8") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines[:limit] if limit is not None else lines


def load_cases():
    """``tests/data/anyscript_cases.py`` as a module (functions run by both CPython and anyproc)."""
    spec = importlib.util.spec_from_file_location("anyscript_cases", TEST_DATA / "anyscript_cases.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


def cli_command() -> Optional[List[str]]:
    """How to run the ``anyproc`` CLI: ``$ANYPROC_CLI``, a built release binary, or ``cargo run``."""
    env = os.environ.get("ANYPROC_CLI")
    if env:
        return [env]
    binary = REPO / "target" / "release" / ("anyproc.exe" if os.name == "nt" else "anyproc")
    if binary.is_file():
        return [str(binary)]
    if shutil.which("cargo"):
        return ["cargo", "run", "--release", "-q", "--"]
    return None


def run_cli(args: List[str], timeout: float = 900) -> subprocess.CompletedProcess:
    cmd = cli_command()
    if cmd is None:
        pytest.skip("neither the anyproc binary nor cargo is available")
    return subprocess.run(cmd + args, cwd=REPO, capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="session")
def lines_small() -> List[str]:
    """A few hundred real corpus lines."""
    return corpus_lines(400)
