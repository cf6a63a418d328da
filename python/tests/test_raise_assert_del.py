"""``raise``, ``assert`` and ``del`` in ``anyproc.script`` and in anyscript source: the same
exceptions and messages as CPython on real text, what a pipeline's error policy sees, and the
forms anyscript refuses."""

from __future__ import annotations

import collections

import anyproc
import pytest
from conftest import corpus_lines
from raising_cases import validate
from test_formatting import check_all, outcome


def deletes(text):
    counts = {}
    for w in text.split():
        counts[w] = counts.get(w, 0) + 1
    for w in list(counts):
        if counts[w] == 1 and len(w) < 4:
            del counts[w]
    chars = list(text[:12])
    del chars[0], chars[-1]
    if len(chars) > 3:
        del chars[len(chars) // 2]
    table = [[1, 2], [3, 4]]
    del table[1][0]
    return [counts, chars, table]


def bad_deletes(text, key):
    chars = list(text)
    d = {"a": 1}
    if key == "list":
        del chars[len(text) + 1]
    if key == "str":
        del text[0]
    if key == "dict":
        del d[text]
    if key == "int":
        n = 3
        del n[0]
    if key == "index":
        del chars["x"]
    return [chars, d]


def test_raise_and_assert_match_cpython(lines):
    check_all(validate, [(t,) for t in lines[:400] + ["", " ", "12 a", "a (b", "a b)", "x,", "y."]])


def test_del_matches_cpython(lines):
    check_all(deletes, [(t,) for t in lines[:300] + ["", "a", "ab"]])
    keys = ["list", "str", "dict", "int", "index", "none"]
    check_all(bad_deletes, [(t, k) for t in ["", "ab", "a"] for k in keys])


def test_a_pipeline_skips_the_records_a_script_rejects(tmp_path):
    source = ("def check(text):\n    if not text.strip():\n        raise ValueError('blank line')\n"
              "    assert len(text) < 40, 'too long'\n    return len(text)\n")
    p = anyproc.Pipeline.from_str(
        "functions = '''\n" + source + "'''\n[[steps]]\nout = \"n\"\ncall = \"check(text)\"\n"
        "[[outputs]]\nname = \"n\"\nfrom = \"n\"\nlayout = \"list\"\n")
    with pytest.raises(ValueError, match="blank line"):
        p(["ok", "  "])
    with pytest.raises(AssertionError, match="too long"):
        p(["x" * 50])


def in_place_messages(d, n):
    out = []
    for step in range(4):
        try:
            if step == 0:
                d *= []
            elif step == 1:
                n -= 1.5
            elif step == 2:
                n **= "x"
            else:
                n = n ** "x"
        except TypeError as e:
            out.append(str(e))
    return out


def test_augmented_assignment_errors_name_the_augmented_operator():
    # Not in the differential test: its CPython side checks every `*=` with a `*` first.
    check_all(in_place_messages, [({"a": 1}, [1]), ({}, "s")])


def raise_other(text):
    raise Exception(text)


def test_unsupported_forms_are_refused():
    with pytest.raises(SyntaxError, match="raising this exception"):
        anyproc.script(raise_other)
    with pytest.raises(SyntaxError, match="line 2.*deleting a variable"):
        anyproc.script_source("def f(x):\n    del x\n    return 1\n", "f")
    with pytest.raises(SyntaxError, match="line 2.*raise Exception"):
        anyproc.script_source("def f(x):\n    raise Exception('a')\n", "f")


SOURCE = '''
def f(text):
    d = {w: len(w) for w in text.split()}
    if "der" in d:
        del d["der"]
    assert len(d) < 12, "many: " + str(len(d))
    if not d:
        raise ValueError("no words in " + repr(text))
    return d
'''


def test_source_with_raise_assert_del_matches_cpython(lines):
    ns: dict = {}
    exec(SOURCE, ns)
    ours = anyproc.script_source(SOURCE, "f")
    for line in lines[:300] + [""]:
        assert outcome(ours, line) == outcome(ns["f"], line)


def test_printed_source_parses_back(lines):
    f = anyproc.script(validate)
    again = anyproc.script_source(f.source, "validate")
    for line in lines[:100]:
        assert outcome(again, line) == outcome(f, line) == outcome(validate, line)


@pytest.fixture(scope="module")
def lines():
    return corpus_lines(400)


def not_implemented(words, which):
    try:
        if which == 0:
            raise NotImplementedError(f"no rule for {words[0]}")
        if which == 1:
            return collections.Counter(words).fromkeys(words)
        if which == 2:
            raise NotImplementedError
        return len(words)
    except NotImplementedError as e:
        return ["NotImplementedError", str(e), isinstance(e, RuntimeError)]


def caught_as_runtime_error(words):
    try:
        raise NotImplementedError(words[0])
    except RuntimeError as e:
        return [type(e).__name__, e.args]


def test_not_implemented_error_is_a_runtime_error_as_in_cpython():
    words = ["tokens", "and", "more"]
    check_all(not_implemented, [(words, which) for which in range(4)])
    check_all(caught_as_runtime_error, [(words,)])
    # It reaches Python as itself.
    with pytest.raises(NotImplementedError, match="tokens"):
        anyproc.script(raise_it)(words)


def raise_it(words):
    raise NotImplementedError(words[0])
