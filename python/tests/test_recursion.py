"""Recursion in ``anyproc.script``: a recursive helper nests as deep as CPython's default
recursion limit (1000), and past the limit raises CPython's ``RecursionError`` (a
``RuntimeError``), which a script's ``except RecursionError`` or ``except RuntimeError`` catches
as CPython's does. Expected values are CPython 3.11's, run on the same inputs."""

from __future__ import annotations

import pytest

import anyproc
from conftest import corpus_lines
from test_formatting import check_all

LINES = corpus_lines(60)


def parse_brackets(text):
    # A recursive-descent reader of nested brackets, as a tree-bank or S-expression loader is.
    def node(i):
        children = []
        word = ""
        while i < len(text):
            c = text[i]
            if c == "(":
                child, i = node(i + 1)
                children.append(child)
            elif c == ")":
                if word:
                    children.append(word)
                return children, i + 1
            elif c == " ":
                if word:
                    children.append(word)
                word = ""
                i += 1
                continue
            else:
                word += c
            i += 1 if c not in "()" else 0
        if word:
            children.append(word)
        return children, i

    def depth(tree):
        if not isinstance(tree, list):
            return 0
        return 1 + max([depth(t) for t in tree], default=0)

    try:
        tree, _ = node(0)
        return [depth(tree), len(tree)]
    except RecursionError as e:
        return ["RecursionError", isinstance(e, RuntimeError), "maximum recursion depth" in str(e)]


def flatten(tokens, n):
    # Wraps the line's tokens n levels deep, then flattens them back recursively.
    nested = tokens
    for _ in range(n):
        nested = [nested, len(nested)]

    def walk(x, out):
        if isinstance(x, list):
            for y in x:
                walk(y, out)
        else:
            out.append(x)
        return out

    try:
        return walk(nested, [])
    except RuntimeError as e:
        return type(e).__name__


def countdown(n):
    return 0 if n <= 0 else 1 + countdown(n - 1)


def test_recursive_descent_over_nested_brackets_equals_cpython():
    texts = [f"({line})" for line in LINES] + ["(a (b (c d) e) (f))", "", "((((x))))"]
    # 450 levels: past anyscript's old limit of 200, within CPython's 1000 (`depth` takes two
    # CPython frames a level, one of them its list comprehension's, where anyscript takes one).
    texts += ["(" * k + "w" + ")" * k for k in (199, 201, 450)]
    # Far past any limit: CPython's RecursionError, caught in the script on both sides.
    texts += ["(" * 5000 + "w" + ")" * 5000]
    check_all(parse_brackets, [(t,) for t in texts])


def test_recursive_flatten_equals_cpython_and_fails_alike_past_the_limit():
    cases = [(line.split(), n) for line, n in zip(LINES, range(0, 600, 10))]
    cases += [(["a", "b"], 800), (["a"], 50_000)]
    check_all(flatten, cases)


def test_recursion_past_the_limit_reaches_python_as_recursion_error():
    f = anyproc.script(countdown)
    assert f(900) == countdown(900) == 900
    # CPython's message; where it happened, with how many times the line repeated, precedes it.
    with pytest.raises(RecursionError, match=r"line \d+ \(1000 times\): maximum recursion depth exceeded$"):
        f(100_000)
    with pytest.raises(RecursionError, match=r"\(50 times\): maximum recursion depth exceeded$"):
        anyproc.script(countdown, max_depth=50)(60)
    # A pipeline file's functions take the same default (docs: pipelines/README.md).
    spec = anyproc.Pipeline.from_str(
        "functions = '''\n"
        "def countdown(n):\n    return 0 if n <= 0 else 1 + countdown(n - 1)\n'''\n"
        "[[steps]]\nname = \"c\"\nout = \"n\"\ncall = \"countdown(len(text))\"\n"
        "[[outputs]]\nname = \"n\"\nfrom = \"n\"\nlayout = \"list\"\n")
    assert list(spec(["x" * 990])["n"]) == [990]
    with pytest.raises(RecursionError):
        spec(["x" * 1001])
