"""``anyproc.script``: plain Python functions run by anyproc's interpreter give CPython's results."""

from __future__ import annotations

import collections
import inspect
import json
import re
import textwrap

import pytest

import anyproc
import unsupported_cases
from conftest import corpus_lines, load_cases, words_path

CASES = load_cases()


@pytest.fixture(scope="module")
def lines():
    return corpus_lines(10_000)


# The seed's untyped example, from the file the Rust tests and benches compile too.
unicode_split_any = CASES.unicode_split_any


def test_seed_unicode_split_any():
    f = anyproc.script(unicode_split_any)
    with open(words_path(), encoding="utf-8") as fh:
        words = fh.read().split()[:20000]
    for w in words:
        assert f(w) == unicode_split_any(w)
    assert f("héllo🎉") == ["h", "é", "l", "l", "o", "🎉"]
    assert f("") == []


def test_script_metadata():
    f = anyproc.script(unicode_split_any)
    assert f.__name__ == "unicode_split_any"
    assert f.__doc__ == unicode_split_any.__doc__
    assert f.__wrapped__ is unicode_split_any
    assert isinstance(f.func, anyproc.Function)
    assert json.loads(f.ast_json)["functions"][0]["name"] == "unicode_split_any"
    assert "def unicode_split_any(word):" in f.source


def test_script_as_decorator():
    @anyproc.script
    def double(x):
        return x * 2

    assert double(21) == 42
    assert double("ab") == "abab"
    assert anyproc.script(double) is double


@pytest.mark.parametrize("name", CASES.CASES)
def test_cases_equal_cpython(name, lines):
    py = getattr(CASES, name)
    f = anyproc.script(py)
    for line in lines:
        expected = py(line)
        got = f(line)
        assert got == expected, f"{name}({line!r})"
        if isinstance(expected, dict):
            assert list(got) == list(expected), "dict order"


def test_at_least_ten_cases():
    assert len(CASES.CASES) >= 10


def test_lowered_source_runs_in_cpython(lines):
    # What trace embeds in pipeline files: the lowered functions printed back as source.
    for name in CASES.CASES:
        f = anyproc.script(getattr(CASES, name))
        ns: dict = {}
        exec(f.source, ns)
        for line in lines[:200]:
            assert ns[name](line) == getattr(CASES, name)(line)


# ---- globals, helpers and ops ------------------------------------------------------------------

STOPWORDS = ["the", "a", "of"]
MIN_LEN = 2


def keep(word):
    return len(word) >= MIN_LEN and word not in STOPWORDS


def helper_alias(word):
    return word[::-1]


rev = helper_alias


def content_words(text):
    out = []
    for w in anyproc.ops.text.lower(text).split():
        if keep(w):
            out.append(rev(w))
    return out


def recursive_sum(n):
    if n <= 0:
        return 0
    return n + recursive_sum(n - 1)


def test_helpers_globals_and_ops(lines):
    f = anyproc.script(content_words)
    for line in lines[:500]:
        assert f(line) == content_words(line)
    names = [n for n, _ in f.sources]
    assert names[0] == "content_words" and "keep" in names and "helper_alias" in names
    assert "ops.text.lower" in f.source


def test_ops_spellings():
    from anyproc import ops

    lower = anyproc.ops.text.lower

    def spellings(text):
        return [ops.text.upper(text), lower(text), anyproc.ops.text.strip(text)]

    assert anyproc.script(spellings)("  MiXed ") == ["  MIXED ", "  mixed ", "MiXed"]


def test_recursion():
    assert anyproc.script(recursive_sum)(100) == 5050


def spin(n):
    k = 0
    while True:
        k += 1
    return k


def worklist(n):
    queue = [0]
    for x in queue:
        if x < n:
            queue.append(x + 1)
    return len(queue)


def f_strings(text):
    words = text.split()
    n = len(words)
    first = words[0] if words else None
    ratio = n / (len(text) + 1)
    return [f"{n} words", f"first={first!r}", f"{first}|{ratio}|{words[:2]}", f"{n=}", f"", f"plain",
            f"{{braces}} {n * 2}{text[:3]!s}"]


def test_f_strings_equal_cpython(lines):
    f = anyproc.script(f_strings)
    for line in lines[:2000] + ["", "é 🎉 x"]:
        assert f(line) == f_strings(line), line


def test_limits_stop_endless_loops_and_deep_recursion():
    # A while loop, a for loop over a list it keeps growing, and recursion past max_depth end
    # in RuntimeError (recursion in CPython's RecursionError, one of them) naming the limit;
    # within the limits the same functions run as in CPython.
    with pytest.raises(RuntimeError, match="while loop stopped after 50 iterations"):
        anyproc.script(spin, while_limit=50)(0)
    bounded = anyproc.script(worklist, while_limit=50)
    assert bounded(50) == worklist(50) == 51
    with pytest.raises(RuntimeError, match="for loop stopped after 50 items added to its list"):
        bounded(51)
    assert anyproc.script(worklist)(51) == 52  # the default limit is 10,000,000
    with pytest.raises(RecursionError, match=r"\(20 times\): maximum recursion depth exceeded$"):
        anyproc.script(recursive_sum, max_depth=20)(100)
    assert anyproc.script(recursive_sum, max_depth=200)(100) == 5050

    @anyproc.script(while_limit=10)
    def spin_decorated(n):
        k = 0
        while k < n:
            k += 1
        return k

    assert spin_decorated(10) == 10
    with pytest.raises(RuntimeError, match="while loop stopped after 10 iterations"):
        spin_decorated(11)
    source = anyproc._native.script_source("def f(xs):\n    for x in xs:\n        xs.append(x)\n", "f",
                                           while_limit=5)
    with pytest.raises(RuntimeError, match="for loop stopped after 5 items"):
        source([1])


def test_closure_constants():
    limit = 3

    def short(text):
        return [w for w in text.split() if len(w) <= limit]

    assert anyproc.script(short)("a bb cccc dd eeeee") == ["a", "bb", "dd"]


def test_int_edges():
    def edges(x):
        return [x, -9223372036854775808, 9223372036854775807, -x]

    assert anyproc.script(edges)(5) == [5, -(2**63), 2**63 - 1, -5]


def test_int_overflow_is_an_error():
    def grow(x):
        return x * 9223372036854775807

    # CPython would grow a big int; anyproc's ints are 64-bit, and the closest class is OverflowError.
    with pytest.raises(OverflowError, match=r"integer overflow in \*"):
        anyproc.script(grow)(3)


def test_scripted_function_calls_scripted_function():
    @anyproc.script
    def inner(x):
        return x + 1

    def outer(x):
        return inner(x) * 2

    assert anyproc.script(outer)(4) == 10


def test_annotations_and_docstrings_are_ignored():
    def annotated(text: str) -> int:
        """Counts words."""
        n: int = 0
        for _ in text.split():
            n += 1
        return n

    assert anyproc.script(annotated)("a b c") == 3


def test_not_a_function():
    with pytest.raises(TypeError):
        anyproc.script(len)
    with pytest.raises(TypeError):
        anyproc.script("def f(): pass")


# ---- unsupported syntax ------------------------------------------------------------------------


def unsupported():
    source, _ = inspect.getsourcelines(unsupported_cases)
    cases = []
    for name, fn in inspect.getmembers(unsupported_cases, inspect.isfunction):
        if not name.startswith("uses_"):
            continue
        lines, start = inspect.getsourcelines(fn)
        for i, text in enumerate(lines):
            m = re.search(r"# unsupported: (.+)$", text)
            if m:
                cases.append((name, m.group(1).strip(), start + i))
                break
    return cases


UNSUPPORTED = unsupported()


def test_unsupported_cases_found():
    assert len(UNSUPPORTED) >= 20


@pytest.mark.parametrize("name,construct,line", UNSUPPORTED, ids=[c[0] for c in UNSUPPORTED])
def test_unsupported_syntax(name, construct, line):
    fn = getattr(unsupported_cases, name)
    with pytest.raises(SyntaxError) as e:
        anyproc.script(fn)
    assert construct in str(e.value), str(e.value)
    assert e.value.lineno == line, f"{e.value} at line {e.value.lineno}, expected {line}"
    assert e.value.filename.endswith("unsupported_cases.py")


def test_a_library_function_that_cannot_be_lowered_names_its_caller():
    # `textwrap.wrap` is Python code anyscript cannot lower (it makes a `TextWrapper`): the
    # error says which function of the script calls it, beside the library line it stopped at.
    # (It was `collections.namedtuple` until that became an op, test_named_tuple.py.)
    def tokens(x):
        return textwrap.wrap(x, 5)

    with pytest.raises(SyntaxError, match=r"\(in textwrap\.wrap, which .*tokens calls\)"):
        anyproc.script(tokens)


def test_lambda_itself():
    with pytest.raises(SyntaxError, match="lambda"):
        anyproc.script(lambda x: x)


# ---- the printed source (embedded by trace) parses back the same ---------------------------------

BIG = 9223372036854775807
NEG_INF = float("-inf")
TABLE = {"k": [1, (2, 3)], "quote's": 'dq"', "nl": "a\nb\t\\c\x00é🎉"}


def tricky(text):
    pairs = [(i, c) for i, c in enumerate(text[:6])]
    out = []
    for i, (j, c) in enumerate(pairs):
        out.append([i == j, c * 2 if c != " " else "_", -2 ** 2, (-2) ** 2, 7 // -2, -7 % 3])
    s = text[::-2][1:9:2] + text[-3:] + TABLE["nl"] + TABLE["quote's"]
    ok = 0 < len(text) <= 1000 != 5 and not (text.startswith("x") or len(text) == 3)
    d = {"a": 1, "b": [2, 3]}
    d["b"][0] += 10
    x = y = len(out)
    big = BIG if len(text) > 1 else -9223372036854775808
    m = [n for n in range(10) if n % 2 if n > 2]
    inf = NEG_INF < -1e308
    return [pairs, out, s, ok, d, x + y, big, m, inf, TABLE["k"], ~len(text), +len(text), 1.5e-7, 2 ** -1]


def test_printed_source_parses_back(lines):
    f = anyproc.script(tricky)
    ns: dict = {}
    exec(f.source, ns)
    again = anyproc.script_source(f.source, "tricky")  # anyscript's own parser on the printed text
    for line in lines[:300] + ["", "x", "abc", "  spaced  "]:
        expected = tricky(line)
        assert f(line) == expected
        assert ns["tricky"](line) == expected
        assert again(line) == expected


def ops(words):
    # A function named like the root of op paths still reaches the ops it calls.
    return collections.Counter(words).most_common(2), collections.deque(words, 2)


def test_a_function_named_ops_reaches_the_ops_it_calls():
    words = "a b a c b a".split()
    assert anyproc.script(ops)(words) == ops(words)
