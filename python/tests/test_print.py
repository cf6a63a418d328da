"""``print()`` in ``anyproc.script`` and anyscript source: what it writes to ``sys.stdout`` (read
at each call, so ``redirect_stdout`` and pytest's capture see it) and what the function returns
equal CPython's, on real text; its errors and the forms refused."""

from __future__ import annotations

import contextlib
import io
import threading
from collections import Counter

import anyproc
import pytest
from conftest import corpus_lines
from test_formatting import outcome

LINES = corpus_lines(300)


def report(line):
    words = line.split()
    print(len(words), "words")
    for i, w in enumerate(words[:5]):
        print(i, w, sep=": ", end=" | ")
    print()
    print(words[:3], tuple(words[:2]), {w: len(w) for w in words[:2]}, sep="\n")
    return len(words)


def numbers(line):
    n = len(line)
    print(n / 7, n * 0.1, -n // 3, 2 ** (n % 40), float(n), 1e20 * n, None, True)
    print(f"{n:>6}", "%5.2f" % (n / 3), end="")
    print("", flush=True)
    return n


def counted(line):
    counts = Counter(line.lower().split())
    print(counts.most_common(2))
    print(sorted(set(line[:20])))
    return sum(counts.values())


def as_value(line):
    # print used as a value: each call prints, and returns None.
    return list(map(print, line.split()[:4]))


def in_generator(line):
    def noisy(words):
        for w in words:
            print("giving", w)
            yield w.upper()
    out = []
    for w in noisy(line.split()):
        if len(w) > 6:
            print("long:", w)
            break
        out.append(w)
    return out


def no_separators(line):
    words = line.split()[:4]
    print(sep="-")
    print(words[0] if words else "", end=None, sep=None)
    print("a", "b", sep="", end="")
    print("é", "ü", sep="→", end="\n\n")
    return words


def in_try(line):
    try:
        print("parsing", line[:10])
        n = int(line.split()[0]) if line.split() else 0
        print("number", n)
    except ValueError as e:
        print("not a number:", e)
        n = -1
    finally:
        print("done")
    return n


FUNCTIONS = [report, numbers, counted, as_value, in_generator, no_separators, in_try]


def printed(fn, *args):
    """What ``fn(*args)`` writes to ``sys.stdout``, and its outcome."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        result = outcome(fn, *args)
    return out.getvalue(), result


@pytest.mark.parametrize("fn", FUNCTIONS, ids=[f.__name__ for f in FUNCTIONS])
def test_print_writes_what_cpython_writes(fn):
    ours = anyproc.script(fn)
    for line in LINES + ["", "12 apples", "naïve café ünïcode"]:
        assert printed(ours, line) == printed(fn, line), line


def test_printed_source_parses_back():
    for fn in FUNCTIONS:
        f = anyproc.script(fn)
        again = anyproc.script_source(f.source, f.sources[0][0])
        for line in LINES[:20]:
            assert printed(again, line) == printed(f, line)


def test_pytest_capture_sees_it(capsys):
    anyproc.script(report)("one two")
    assert capsys.readouterr().out == "2 words\n0: one | 1: two | \n['one', 'two']\n('one', 'two')\n{'one': 3, 'two': 3}\n"


def bad_sep(x):
    print(x, sep=x)


def bad_end(x):
    print(x, end=[x])


def test_errors_equal_cpython():
    for fn, arg in [(bad_sep, 1), (bad_sep, None), (bad_sep, "-"), (bad_end, 2), (bad_end, "x")]:
        assert printed(anyproc.script(fn), arg) == printed(fn, arg), (fn.__name__, arg)


def test_what_is_refused():
    with pytest.raises(SyntaxError, match=r"print\(file=...\) is not supported") as info:
        anyproc.script_source("def f(x):\n    n = 1\n    print(x, file=None)\n", "f")
    assert "line 3" in str(info.value)
    with pytest.raises(TypeError, match=r"line 2: 'fle' is an invalid keyword argument for print\(\)"):
        anyproc.script_source("def f(x):\n    print(x, fle=None)\n", "f")(1)


def test_lines_of_threads_do_not_mix():
    f = anyproc.script_source("def f(k, n):\n    for i in range(n):\n        print('thread', k, 'line', i)\n", "f")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        threads = [threading.Thread(target=f, args=(k, 200)) for k in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    lines = out.getvalue().splitlines()
    assert sorted(lines) == sorted(f"thread {k} line {i}" for k in range(4) for i in range(200))


def _random_print_program(rng):
    """A function of ``words`` that prints random values with random ``sep``/``end``."""
    values = ["words", "words[:2]", "len(words)", "len(words) / 3", "None", "True", "(1, 'a')", "{'k': words[:1]}",
              "-0.0", "1e16", "float('inf')", "2 ** 40", "'ü\\t'", "''", "[[], {}]", "{1: 2.5}", "words[0] if words else 0"]
    seps = [None, "' '", "''", "', '", "'\\n'", "'é'", "None", "3", "[]"]
    lines = ["def f(words):"]
    for _ in range(rng.randrange(1, 6)):
        args = [rng.choice(values) for _ in range(rng.randrange(0, 4))]
        for key in ("sep", "end"):
            choice = rng.choice(seps)
            if choice is not None:
                args.append(f"{key}={choice}")
        if rng.random() < 0.2:
            args.append("flush=True")
        lines.append(f"    print({', '.join(args)})")
    lines.append("    return len(words)")
    return "\n".join(lines) + "\n"


def check_random_programs(make_program, seed, count, max_words=None):
    """``count`` programs from ``make_program(rng)`` (each a function ``f(words)``), run by
    CPython and by anyproc on a line of the corpus each: the same output and outcome."""
    import random

    rng = random.Random(seed)
    for k in range(count):
        source = make_program(rng)
        namespace = {}
        exec(source, namespace)  # noqa: S102 - the test's own generated source
        ours = anyproc.script_source(source, "f")
        words = LINES[k % len(LINES)].split()[:max_words]
        assert printed(ours, words) == printed(namespace["f"], words), source


def test_random_prints_equal_cpython():
    check_random_programs(_random_print_program, 1607, 300)
