"""CPython baseline for `benches/pipeline.rs` (b): the seed's `unicode_split_any` over a word list.

Usage: python3 benches/py/unicode_split.py WORDS_FILE [PASSES]

Reads one word per line, calls the function once per word, and prints the best of
PASSES (default 3) passes, timed with `time.perf_counter`, as one machine-readable line:

    RESULT ns_per_char=<float> chars=<int> words=<int> python=<version>

where chars counts code points (`len(word)`), the unit the Rust side divides by too.
"""

import importlib.util
import platform
import sys
import time
from pathlib import Path


def load_seed_function():
    """The seed's function from `tests/data/anyscript_cases.py`, the file the Rust side compiles."""
    path = Path(__file__).resolve().parents[2] / "tests" / "data" / "anyscript_cases.py"
    spec = importlib.util.spec_from_file_location("anyscript_cases", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.unicode_split_any


unicode_split_any = load_seed_function()


def read_words(path):
    """The lines of `path` split as Rust's `str::lines` does, so both sides see the same words."""
    with open(path, encoding="utf-8", newline="") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def one_pass(words):
    """Calls the function on every word; the result is dropped, as on the Rust side."""
    split = unicode_split_any
    for word in words:
        split(word)


def main():
    path = sys.argv[1]
    passes = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    words = read_words(path)
    chars = sum(len(w) for w in words)
    best = float("inf")
    for _ in range(passes):
        start = time.perf_counter()
        one_pass(words)
        best = min(best, time.perf_counter() - start)
    ns_per_char = best * 1e9 / max(chars, 1)
    print(f"RESULT ns_per_char={ns_per_char:.4f} chars={chars} words={len(words)} python={platform.python_version()}")


if __name__ == "__main__":
    main()
