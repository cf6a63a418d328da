"""``*iterable`` arguments in calls (``zip(*rows)``, ``f(first, *rest)``, ``print(*words, sep=", ")``,
``d.get(*pair)``)
in ``anyproc.script`` and anyscript source: the same results, output and errors as CPython on real
text, and the forms refused."""

from __future__ import annotations

import anyproc
import pytest
from conftest import corpus_lines
from test_formatting import check_all, outcome
from test_print import check_random_programs, printed

LINES = corpus_lines(300)


def weighted(first, second="", third="", weight=1):
    return (len(first) * 100 + len(second) * 10 + len(third)) * weight


def columns(line):
    words = line.split()
    rows = [words[i:i + 3] for i in range(0, len(words) - 2, 3)]
    return list(zip(*rows))


def spread_calls(line):
    words = line.split()
    out = []
    if words:
        out.append(max(*[len(w) for w in words], 0))
        out.append(weighted(*words[:3]))
        out.append(weighted(words[0], *words[1:2]))
        out.append(weighted(*(w.lower() for w in words[:2]), *words[2:3]))
        out.append(list(range(*[len(words), 40, 7])))
        out.append("{}|{}".format(words[0], *words[-1:]))
        pick = weighted
        out.append(pick(*words[:2], *[], *()))
    return out


def method_spread(line):
    words = line.split()
    counts = {}
    found = []
    for w in words:
        counts[w] = counts.get(*[w, 0]) + 1
        found.append(*[w.lower()])
    found.extend(*[words[:2]])
    parts = line.split(*[None, 2])
    return ["-".join(*[words[:3]]), line.replace(*"ae"), parts, found, counts, str.upper(*words[:1])]


def wrong_method_count(line):
    xs = []
    xs.append(*line.split()[:2])
    return xs


def nested_spread(line):
    def pair(a, b="-"):
        return a + b
    words = line.split()
    return [pair(*words[i:i + 2]) for i in range(0, len(words), 2)]


def printing(line):
    words = line.split()
    print(*words)
    print(*words[:3], sep=" | ", end=".\n")
    print("count", *[len(w) for w in words[:4]], *"ab", sep=",")
    return len(words)


def wrong_count(line):
    # More than `weighted` takes: CPython's TypeError, at the call.
    return weighted(*line.split())


def not_iterable(line):
    return max(*len(line))


@pytest.mark.parametrize("fn", [columns, spread_calls, method_spread, wrong_method_count, nested_spread, wrong_count,
                                not_iterable])
def test_spread_calls_match_cpython(fn):
    check_all(fn, [(t,) for t in LINES + ["", "one", "a b", "x y z w v"]])


def test_print_spreads_its_arguments():
    ours = anyproc.script(printing)
    for line in LINES[:100] + ["", "é"]:
        assert printed(ours, line) == printed(printing, line)


def test_text_front_end_and_printed_source():
    source = (
        "def f(words):\n"
        "    rows = [words[:2], words[2:4]]\n"
        "    return [list(zip(*rows)), max(*[len(w) for w in words], 0), g(*words[:1], *words[1:2])]\n"
        "def g(a, b='?'):\n"
        "    return a + b\n"
    )
    ours = anyproc.script_source(source, "f")
    namespace = {}
    exec(source, namespace)  # noqa: S102 - the test's own source
    for line in LINES[:50] + ["", "a"]:
        assert outcome(ours, line.split()) == outcome(namespace["f"], line.split())
    for fn in (columns, spread_calls, printing):
        f = anyproc.script(fn)
        again = anyproc.script_source(f.source, f.sources[0][0])
        for line in LINES[:20]:
            assert printed(again, line) == printed(f, line)


def aligned(line):
    """Tokens and labels zipped with ``strict=`` (a length check in one call), spread or not."""
    words = line.split()
    labels = [w.isupper() for w in words]
    out = []
    for pair in [(words, labels), (words, labels[1:]), (words[1:], labels), ([], [])]:
        try:
            out.append(list(zip(*pair, strict=True)))
        except ValueError as e:
            out.append(repr(e))
    for rows in [(words, words, words[:-1]), (words, words[:1], words), (words, words, words + ["x"])]:
        try:
            out.append(list(zip(rows[0], rows[1], rows[2], strict=len(line) % 2 == 0)))
        except ValueError as e:
            out.append(str(e))
    out.append(list(zip(words, strict=False)))
    out.append(list(zip(strict=True)))
    return out


def test_zip_strict_matches_cpython():
    check_all(aligned, [(t,) for t in LINES + ["", "one", "a b", "x y z w v", "A b C"]])
    source = "def f(xs, ys):\n    return list(zip(xs, ys, strict=True))\n"
    ours, namespace = anyproc.script_source(source, "f"), {}
    exec(source, namespace)  # noqa: S102 - the test's own source
    for xs, ys in [([1, 2], "ab"), ([1], "ab"), ("abc", [1, 2]), ([], "")]:
        assert outcome(ours, xs, ys) == outcome(namespace["f"], xs, ys)


def test_what_is_refused():
    with pytest.raises(SyntaxError, match="keyword arguments beside"):
        anyproc.script_source("def f(xs):\n    return sorted(*xs, key=len)\n", "f")
    with pytest.raises(SyntaxError, match="starred argument after a keyword"):
        anyproc.script_source("def f(xs):\n    return g(a=1, *xs)\n", "f")
    many = ", ".join(["xs"] * 15)
    with pytest.raises(SyntaxError, match="zip with"):
        anyproc.script_source(f"def f(xs):\n    return zip({many}, *xs, strict=True)\n", "f")
    with pytest.raises(SyntaxError, match=r"'\*\*' arguments"):
        anyproc.script_source("def f(xs):\n    return g(**xs)\n", "f")


def _random_spread_program(rng):
    """A function of ``words`` making random calls with ``*`` arguments (iterable or not)."""
    # `pick = helper` is left out: a message about its `*` argument would say `pick()` where
    # CPython names the function it holds (see pipelines/README.md).
    callees = ["zip", "max", "min", "range", "len", "sum", "divmod", "helper", "'-'.join", "d.get",
               "str.upper", "sorted", "print", "tuple", "list", "enumerate"]
    spreads = ["words", "words[:2]", "words[:1]", "[]", "(1, 2)", "[3]", "'ab'", "range(3)", "lens", "lens[:2]",
               "(w for w in words[:2])", "len(words)", "None", "[[1, 2], [3, 4]]", "d"]
    plains = ["1", "words[0] if words else 'x'", "lens", "0", "'z'"]
    lines = ["def f(words):", "    lens = [len(w) for w in words]", "    d = {'a': 1}", "    pick = helper",
             "    out = []"]
    for _ in range(rng.randrange(1, 6)):
        args = []
        for _ in range(rng.randrange(1, 4)):
            args.append("*" + rng.choice(spreads) if rng.random() < 0.6 else rng.choice(plains))
        if not any(a.startswith("*") for a in args):
            args.append("*" + rng.choice(spreads))
        callee = rng.choice(callees)
        call = f"{callee}({', '.join(args)})"
        # anyscript's range, zip and enumerate give lists (pipelines/README.md): compared as lists.
        lines.append(f"    out.append(list({call}))" if callee in ("range", "zip", "enumerate") else f"    out.append({call})")
    lines.append("    return out")
    return "\n".join(lines) + "\ndef helper(a, b=2, c=3):\n    return [a, b, c]\n"


def test_random_spread_calls_equal_cpython():
    check_random_programs(_random_spread_program, 1608, 400, max_words=5)
