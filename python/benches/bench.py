"""Benchmarks of the Python package; every figure is a ratio of two things timed in this process.

    python python/benches/bench.py [--quick] [--lines N] [--words N]

(a) call overhead: ``get_global_func("testing.nop")`` with one int, three ints
    and a short str, beside apache-tvm-ffi's ``testing.nop`` (if the
    ``apache-tvm-ffi`` package is installed) and a plain Python function;
(b) BERT end to end: a list of str to a padded int64 NumPy array, the shipped
    pipeline vs HF ``tokenizers`` ``encode_batch`` + ``np.array``, 1 and 2 threads;
(c) the seed's ``unicode_split_any`` through ``anyproc.script`` vs CPython on
    real words;
(d) string formatting in a script loop (``str(n)``, f-strings with and without
    specs, ``%``, ``str.format``) vs the same loop in CPython;
(e) glue code over real words: a stopword filter (``w not in STOPWORDS``, a set)
    and word counts (``counts.get(w, 0) + 1``, a dict), each returning its result
    to Python and, to show the loop alone, only its size; and the keywords
    pipeline (all anyscript glue) against its functions run by CPython.

Prints a markdown table. Absolute numbers move with machine load; compare ratios.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import os
import re
import sys
import time
import timeit
from pathlib import Path

# HF tokenizers sizes its rayon pool from RAYON_NUM_THREADS once, at first use:
# give it two threads and switch between 1 and 2 with TOKENIZERS_PARALLELISM.
os.environ.setdefault("RAYON_NUM_THREADS", "2")

import numpy as np  # noqa: E402

import anyproc  # noqa: E402

REPO = Path(__file__).resolve().parents[2]


def shared_data() -> Path:
    env = os.environ.get("ANYPROC_SHARED_DATA")
    return Path(env) if env else REPO.parent / "shared" / "data"


def data_file(shared: str, fallback: str) -> Path:
    full = shared_data() / shared
    return full if full.is_file() else REPO / "tests" / "data" / fallback


ROWS = []


def row(group: str, what: str, ours: str, ref: str, ratio: str) -> None:
    ROWS.append((group, what, ours, ref, ratio))
    print(f"  {group}: {what}: {ours} | {ref} | {ratio}", file=sys.stderr)


# ---- (a) call overhead -----------------------------------------------------------------------


def per_call_ns(f, args, number: int) -> float:
    """Best of 5 runs of ``f(*args)`` in a loop, ns per call (loop overhead included, as for every side)."""
    stmt = {0: "f()", 1: "f(a)", 3: "f(a, b, c)"}[len(args)]
    names = dict(zip("abc", args), f=f)
    t = timeit.Timer(stmt, globals=names)
    return min(t.repeat(5, number)) / number * 1e9


def bench_calls(quick: bool) -> None:
    number = 200_000 if quick else 1_000_000
    ours = anyproc.get_global_func("testing.nop")

    def py_nop(*args):
        return None

    try:
        import tvm_ffi

        theirs = tvm_ffi.get_global_func("testing.nop")
    except Exception as e:  # not installed, or no such function
        theirs = None
        print(f"  apache-tvm-ffi not available ({e.__class__.__name__}: {e}); its column is skipped", file=sys.stderr)
    # Both libraries release the GIL around a call by default; both let a function keep it
    # (`release_gil = False`), which is what a function that returns at once should do.
    for release in (True, False):
        ours.release_gil = release
        if theirs is not None:
            theirs.release_gil = release
        mode = "GIL released" if release else "GIL kept"
        for label, args in [("nop(1)", (1,)), ("nop(1, 2, 3)", (1, 2, 3)), ('nop("héllo")', ("héllo",))]:
            a = per_call_ns(ours, args, number)
            p = per_call_ns(py_nop, args, number)
            if theirs is not None:
                t = per_call_ns(theirs, args, number)
                row("call", f"{label}, {mode}", f"{a:.0f} ns", f"tvm-ffi {t:.0f} ns; Python fn {p:.0f} ns",
                    f"**{a / t:.2f}x** tvm-ffi's time; {p / a:.2f}x vs Python fn")
            else:
                row("call", f"{label}, {mode}", f"{a:.0f} ns", f"Python fn {p:.0f} ns (tvm-ffi not installed)",
                    f"{p / a:.2f}x vs Python fn")
    ours.release_gil = True


# ---- (b) BERT end to end ---------------------------------------------------------------------


def interleaved_best(variants: dict, repeat: int) -> dict:
    """The best time of each variant over ``repeat`` rounds in which every variant runs once."""
    best = dict.fromkeys(variants, float("inf"))
    for _ in range(repeat):
        for name, fn in variants.items():
            gc.collect()
            t0 = time.perf_counter()
            fn()
            best[name] = min(best[name], time.perf_counter() - t0)
    return best


def bench_bert(n_lines: int, quick: bool) -> None:
    with open(data_file("corpus/dev_sample.txt", "dev_sample_head.txt"), encoding="utf-8") as f:
        texts = f.read().split("\n")[:n_lines]
    mb = sum(len(t.encode("utf-8")) for t in texts) / 1e6
    pipe = anyproc.Pipeline.load(str(REPO / "pipelines" / "bert-base-uncased.toml"))
    try:
        import tokenizers
    except ImportError:
        row("bert", f"{len(texts)} lines", "", "HF tokenizers not installed", "skipped")
        return
    hf = tokenizers.Tokenizer.from_file(str(REPO / "pipelines" / "assets" / "bert-base-uncased" / "tokenizer.json"))

    def ours(threads):
        return pipe(texts, threads=threads)["input_ids"].numpy()

    def theirs():
        return np.array([e.ids for e in hf.encode_batch(texts)], dtype=np.int64)

    # Same output on both sides before anything is timed.
    np.testing.assert_array_equal(ours(1), theirs())
    repeat = 2 if quick else 3
    for threads in (1, 2):
        os.environ["TOKENIZERS_PARALLELISM"] = "true" if threads > 1 else "false"
        best = interleaved_best({"ours": lambda t=threads: ours(t), "theirs": theirs}, repeat)
        a, h = best["ours"], best["theirs"]
        row("bert", f"{len(texts):,} lines ({mb:.1f} MB) to int64 [n, 128], {threads} thread{'s' * (threads > 1)}",
            f"{mb / a:.1f} MB/s", f"HF {mb / h:.2f} MB/s", f"**{h / a:.1f}x**")
    os.environ.pop("TOKENIZERS_PARALLELISM", None)


# ---- (c) unicode_split_any -------------------------------------------------------------------


def load_seed_function():
    """The seed's function from ``tests/data/anyscript_cases.py``, the file the Rust bench compiles."""
    spec = importlib.util.spec_from_file_location("anyscript_cases", REPO / "tests" / "data" / "anyscript_cases.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.unicode_split_any


unicode_split_any = load_seed_function()


def split_all(words):
    n = 0
    for w in words:
        n += len(unicode_split_any(w))
    return n


def bench_split(n_words: int, quick: bool) -> None:
    with open(data_file("corpus/words_1m.txt", "words_sample.txt"), encoding="utf-8") as f:
        words = f.read().split()[:n_words]
    chars = sum(len(w) for w in words)
    split = anyproc.script(unicode_split_any)
    native = split.func
    batch = anyproc.script(split_all)
    assert batch(words) == split_all(words) == chars
    assert all(split(w) == unicode_split_any(w) for w in words[:10000])
    repeat = 2 if quick else 3

    def loop(f):
        def run():
            for w in words:
                f(w)
        return run

    def without_gc(fn):
        def run():
            gc.disable()
            try:
                fn()
            finally:
                gc.enable()
        return run

    # The sides take turns, pass by pass, and each keeps its best pass: on a shared machine the
    # speed drifts within a minute, and timing one side's passes after the other's would fold
    # that drift into the ratio.
    best = interleaved_best({
        "py": loop(unicode_split_any),
        "py_batch": lambda: split_all(words),
        "py_nogc": without_gc(lambda: split_all(words)),
        "per_word": loop(split),
        "per_word_native": loop(native),
        "whole": lambda: batch(words),
    }, repeat)
    py, py_batch, py_nogc, per_word, per_word_native, whole = (
        best[k] / chars * 1e9 for k in ("py", "py_batch", "py_nogc", "per_word", "per_word_native", "whole"))
    label = f"{len(words):,} words, {chars:,} chars"
    row("split", f"{label}: one call per word from Python", f"{per_word:.1f} ns/char",
        f"CPython {py:.1f} ns/char", f"**{py / per_word:.2f}x**")
    row("split", f"{label}: one call per word, bare native function (`.func`)", f"{per_word_native:.1f} ns/char",
        f"CPython {py:.1f} ns/char", f"**{py / per_word_native:.2f}x**")
    row("split", f"{label}: the loop over words inside anyscript", f"{whole:.1f} ns/char",
        f"CPython {py_batch:.1f} ns/char ({py_nogc:.1f} with GC off)",
        f"**{py_batch / whole:.2f}x** ({py_nogc / whole:.2f}x vs GC off)")


# ---- (d) string formatting ------------------------------------------------------------------
# Each loop sums the lengths of what it formats, so that only the formatting (and the loop)
# is timed on both sides, not handing a list of results back to Python.


def fmt_str(xs):
    n = 0
    for x in xs:
        n += len(str(x))
    return n


def fmt_fstring(xs):
    n = 0
    for x in xs:
        n += len(f"{x} {x}")
    return n


def fmt_fstring_spec(xs):
    n = 0
    for x in xs:
        n += len(f"{x:>6} {x:#x}")
    return n


def fmt_fstring_float(xs):
    n = 0
    for x in xs:
        n += len(f"{x / 7:.2f}")
    return n


def fmt_percent(xs):
    n = 0
    for x in xs:
        n += len("%5d %s" % (x, x))
    return n


def fmt_str_format(xs):
    n = 0
    for x in xs:
        n += len("{:>5} {}".format(x, x))
    return n


def bench_format(count: int, quick: bool) -> None:
    xs = list(range(count))
    # (No `|` in the labels: they go into a markdown table.)
    cases = [("str(n)", fmt_str), ('f"{n} {n}"', fmt_fstring), ('f"{n:>6} {n:#x}"', fmt_fstring_spec),
             ('f"{n / 7:.2f}"', fmt_fstring_float), ('"%5d %s" % (n, n)', fmt_percent),
             ('"{:>5} {}".format(n, n)', fmt_str_format)]
    for label, py in cases:
        ours = anyproc.script(py)
        assert ours(xs) == py(xs)
        best = interleaved_best({"py": lambda: py(xs), "ours": lambda: ours(xs)}, 3 if quick else 5)
        a, c = best["ours"] / count * 1e9, best["py"] / count * 1e9
        row("format", f"`{label}` over {count:,} ints, loop inside the script", f"{a:.0f} ns/item",
            f"CPython {c:.0f} ns/item", f"**{c / a:.2f}x**")


# ---- (e) glue code: sets and dicts keyed by words --------------------------------------------

STOPWORDS = {"the", "a", "an", "of", "and", "to", "in", "is", "it", "that", "for", "on", "was", "with", "as",
             "by", "at", "be", "this", "from", "or", "are", "his", "her", "he", "she", "they", "we", "you", "i"}


def drop_stopwords(words):
    kept = []
    for w in words:
        if w not in STOPWORDS:
            kept.append(w)
    return kept


def count_kept(words):
    kept = []
    for w in words:
        if w not in STOPWORDS:
            kept.append(w)
    return len(kept)


def word_counts(words):
    counts = {}
    for w in words:
        counts[w] = counts.get(w, 0) + 1
    return counts


def distinct_words(words):
    counts = {}
    for w in words:
        counts[w] = counts.get(w, 0) + 1
    return len(counts)


def bench_glue(n_words: int, quick: bool) -> None:
    with open(data_file("corpus/words_1m.txt", "words_sample.txt"), encoding="utf-8") as f:
        words = f.read().split()[:n_words]
    cases = [("stopword filter (set), kept words returned", drop_stopwords),
             ("the same, only their number returned", count_kept),
             ("word counts (dict), the dict returned", word_counts),
             ("the same, only its size returned", distinct_words)]
    for label, py in cases:
        ours = anyproc.script(py)
        assert ours(words) == py(words)
        best = interleaved_best({"py": lambda: py(words), "ours": lambda: ours(words)}, 3 if quick else 5)
        a, c = best["ours"] / len(words) * 1e9, best["py"] / len(words) * 1e9
        row("glue", f"{label}, {len(words):,} words, loop inside the script", f"{a:.0f} ns/word",
            f"CPython {c:.0f} ns/word", f"**{c / a:.2f}x**")


def bench_keywords(n_lines: int, quick: bool) -> None:
    """``pipelines/keywords.toml`` (stopwords, vocabulary ids, bigrams, character counts, all
    anyscript glue) over corpus lines, its outputs handed back to Python, against the same
    functions run by CPython on the same lines (the vocabulary lookup a dict)."""
    import tomllib

    spec_path = REPO / "pipelines" / "keywords.toml"
    with open(spec_path, "rb") as f:
        spec = tomllib.load(f)
    fns: dict = {}
    exec(spec["functions"], fns)
    stopwords = spec["constants"]["stopwords"]
    vocab_path = spec_path.parent / spec["resources"]["vocab_file"]["path"]
    with open(vocab_path, encoding="utf-8") as f:
        vocab = {line.rstrip("\n"): i for i, line in enumerate(f)}
    unk = vocab["[UNK]"]
    clean_words, bigrams, char_counts, most_frequent = (
        fns[k] for k in ("clean_words", "bigrams", "char_counts", "most_frequent"))
    with open(data_file("corpus/dev_sample.txt", "dev_sample_head.txt"), encoding="utf-8") as f:
        texts = f.read().split("\n")[:n_lines]

    def cpython():
        out = []
        for text in texts:
            words = clean_words(text, stopwords)
            out.append((words, [vocab.get(w, unk) for w in words], bigrams(words),
                        most_frequent(char_counts(words), 3)))
        return out

    pipeline = anyproc.Pipeline.load(str(spec_path))
    got = pipeline(texts[:2000])
    assert got["words"] == [clean_words(t, stopwords) for t in texts[:2000]]
    assert got["bigrams"] == [bigrams(clean_words(t, stopwords)) for t in texts[:2000]]
    variants = {"py": cpython, "1": lambda: pipeline(texts, threads=1), "2": lambda: pipeline(texts, threads=2)}
    best = interleaved_best(variants, 2 if quick else 3)
    for threads in ("1", "2"):
        row("glue", f"`pipelines/keywords.toml`, {len(texts):,} lines, outputs back in Python, {threads} "
            f"thread{'s' * (threads == '2')}", f"{best[threads]:.2f} s", f"CPython {best['py']:.2f} s",
            f"**{best['py'] / best[threads]:.2f}x**")


def words_by_find(text, made=False):
    # A hand-written tokenizer's loop: find the next space from where the last word ended.
    if made:
        text = text.encode("utf-8").decode("utf-8")  # a text made in the script: UTF-8 in anyproc
    words = []
    i = 0
    while True:
        j = text.find(" ", i)
        if j < 0:
            words.append(text[i:])
            return len(words)
        words.append(text[i:j])
        i = j + 1


def spaces_by_index(text, made=False):
    # Walking a text by index, its length read at every step.
    if made:
        text = text.encode("utf-8").decode("utf-8")
    n = 0
    i = 0
    while i < len(text):
        if text[i] == " ":
            n += 1
        i += 1
    return n


TOKEN = re.compile(r"\d+(?:\.\d+)?|\w+|[^\w\s]")


def lex_by_match(text, made=False):
    # A hand-written lexer: a token matched at each position, a character skipped where none starts.
    if made:
        text = text.encode("utf-8").decode("utf-8")
    n = 0
    pos = 0
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if m is None:
            pos += 1
            continue
        n += 1
        pos = m.end()
    return n


def bench_scan(quick: bool) -> None:
    """Loops that index a long text (``text.find(" ", i)``, ``text[i:j]``, ``text[i]``,
    ``len(text)``), linear in CPython: over the corpus as one text, its ASCII lines alone (a
    UTF-8 heap string in anyproc), all of it (UCS4, as it comes from Python) and all of it
    made again in the script (non-ASCII UTF-8, indexed through its code points' marks)."""
    with open(data_file("corpus/dev_sample.txt", "dev_sample_head.txt"), encoding="utf-8") as f:
        lines = f.read().split("\n")[: 20_000 if quick else 150_000]
    texts = {"ASCII lines": " ".join(line for line in lines if line.isascii()), "all lines": " ".join(lines)}
    for label, py in (("`text.find(' ', i)` and `text[i:j]` per word", words_by_find),
                      ("`while i < len(text): text[i]` per character", spaces_by_index),
                      ("`TOKEN.match(text, pos)` per token (a lexer)", lex_by_match)):
        ours = anyproc.script(py)
        for which, text, made in [(w, t, False) for w, t in texts.items()] + [("all lines made in the script",
                                                                               texts["all lines"], True)]:
            assert ours(text, made) == py(text, made)
            best = interleaved_best({"py": lambda: py(text, made), "ours": lambda: ours(text, made)},
                                    2 if quick else 3)
            row("scan", f"{label}, {which} ({len(text) / 1e6:.1f} M chars) as one text", f"{best['ours'] * 1e3:.0f} ms",
                f"CPython {best['py'] * 1e3:.0f} ms", f"**{best['py'] / best['ours']:.2f}x**")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="smaller inputs, fewer repeats")
    ap.add_argument("--lines", type=int, default=None, help="corpus lines for (b) (default 20,000; quick 3,000)")
    ap.add_argument("--words", type=int, default=None, help="words for (c), and for (e) up to 300,000 (default 1,000,000; quick 100,000)")
    ap.add_argument("--only", choices=["calls", "bert", "split", "format", "glue", "scan"], action="append",
                    help="run only these parts")
    args = ap.parse_args()
    only = set(args.only or ["calls", "bert", "split", "format", "glue", "scan"])
    lines = args.lines or (3_000 if args.quick else 20_000)
    words = args.words or (100_000 if args.quick else 1_000_000)
    print(f"anyproc {anyproc.__version__}, Python {sys.version.split()[0]}, {os.cpu_count()} CPUs", file=sys.stderr)
    if "calls" in only:
        bench_calls(args.quick)
    if "bert" in only:
        bench_bert(lines, args.quick)
    if "split" in only:
        bench_split(words, args.quick)
    if "format" in only:
        bench_format(50_000 if args.quick else 200_000, args.quick)
    if "glue" in only:
        bench_glue(min(words, 300_000), args.quick)
        bench_keywords(30_000 if args.quick else 150_000, args.quick)
    if "scan" in only:
        bench_scan(args.quick)
    print("Ratios are reference time / anyproc time: above 1 means anyproc is faster.\n")
    print("| what | anyproc | reference | ratio |")
    print("|---|---|---|---|")
    for group, what, ours, ref, ratio in ROWS:
        print(f"| {group}: {what} | {ours} | {ref} | {ratio} |")


if __name__ == "__main__":
    main()
