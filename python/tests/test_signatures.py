"""Scripted functions with ``*args``, keyword-only, ``**kwargs`` and positional-only parameters:
called from Python (by position and by keyword), from other scripted functions (bound where
the call is compiled), through a function value and with ``*iterable`` and ``**mapping``
arguments beside keywords (bound when the call runs). Results and errors are CPython's, on real text and on every call
form of several signatures, through both front ends."""

from __future__ import annotations

import functools
import json
import re

import pytest

import anyproc
from conftest import corpus_lines, run_cli
from test_formatting import check_printed_source, check_source, outcome

LINES = corpus_lines(120) + ["", "a", "Hello, World!", "x\ty  z", "ÀÉÎ ñ ü"]


# ---- preprocessing functions with keyword options --------------------------------------------


def normalize(text, *, lower=True, collapse=True, max_chars=None):
    # A normalizer's options are keyword-only, so that a call says which one it sets.
    if lower:
        text = text.lower()
    if collapse:
        text = " ".join(text.split())
    if max_chars is not None:
        text = text[:max_chars]
    return text


def join_fields(*fields, sep="\t", end=""):
    return sep.join(str(f) for f in fields) + end


def tokenize(text, /, pattern=r"\w+|[^\w\s]", *, lower=True, **options):
    words = re.findall(pattern, normalize(text, lower=lower, collapse=False))
    if options.get("dedupe"):
        seen = set()
        words = [w for w in words if not (w in seen or seen.add(w))]
    if "limit" in options:
        words = words[:options["limit"]]
    return words


def count_kinds(*words, **kinds):
    # Counts the words each predicate named by a keyword accepts, in the keywords' order.
    return {name: sum(1 for w in words if test(w)) for name, test in kinds.items()}


def is_title(w):
    return w.istitle()


def is_digit(w):
    return w.isdigit()


def options_for(line):
    opts = {"lower": len(line) % 2 == 0}
    if len(line) > 40:
        opts["max_chars"] = 40
    return opts


def forward(text, *args, **kwargs):
    # A wrapper that hands its options on, as glue code around a normalizer does.
    return normalize(text, *args, **kwargs)


def featurize(line):
    toks = tokenize(line, lower=False, dedupe=True, limit=12)
    short = normalize(line, max_chars=20)
    row = join_fields(len(toks), *toks[:3], short, sep="|", end=";")
    kinds = count_kinds(*toks, title=is_title, digit=is_digit)
    spread = join_fields(*toks[:2], *[short], sep=" ")
    forwarded = forward(line, **options_for(line)), forward(line, **{"collapse": False}, max_chars=9)
    return row, kinds, spread, tokenize(line, r"\S+", limit=3), normalize(text=line, collapse=False), forwarded


def test_preprocessing_with_keyword_options_matches_cpython():
    ours = anyproc.script(featurize)
    for line in LINES:
        assert outcome(ours, line) == outcome(featurize, line), line


@pytest.mark.parametrize("kwargs", [{}, {"lower": False}, {"collapse": False, "max_chars": 7},
                                    {"max_chars": 0, "lower": True}])
def test_keywords_from_python(kwargs):
    ours, forwarded = anyproc.script(normalize), anyproc.script(forward)
    for line in LINES[:40]:
        assert ours(line, **kwargs) == normalize(line, **kwargs)
        assert forwarded(line, **kwargs) == forward(line, **kwargs)
    joined = anyproc.script(join_fields)
    for line in LINES[:40]:
        words = line.split()
        assert joined(*words) == join_fields(*words)
        assert joined(*words, sep=",", end="!") == join_fields(*words, sep=",", end="!")
    tok = anyproc.script(tokenize)
    for line in LINES[:40]:
        assert tok(line, r"\w+", limit=4, dedupe=1) == tokenize(line, r"\w+", limit=4, dedupe=1)


# ---- every call form of several signatures, from Python -------------------------------------


def sig_kwonly(a, b=2, *, c, d=4):
    return (a, b, c, d)


def sig_varargs(*args, sep=" "):
    return (args, sep)


def sig_posonly_kwargs(a, /, b, **kw):
    return (a, b, kw)


def sig_all(a, /, b=2, *args, c, d=4, **kw):
    return (a, b, args, c, d, kw)


def sig_bare_star(*, k):
    return k


def sig_args_after(a, *args):
    return (a, args)


SIGNATURES = [sig_kwonly, sig_varargs, sig_posonly_kwargs, sig_all, sig_bare_star, sig_args_after]

CALLS = [
    ((), {}), ((1,), {}), ((1, 2), {}), ((1, 2, 3), {}), ((1, 2, 3, 4, 5), {}), ((), {"a": 1}),
    ((1,), {"b": 2}), ((1,), {"c": 3}), ((1, 2), {"c": 3, "d": 5}), ((1, 2, 3), {"c": 3}),
    ((), {"c": 1, "a": 2}), ((1,), {"k": 2}), ((), {"k": 2}), ((1,), {"a": 1}), ((1, 2), {"sep": "-"}),
    ((1,), {"b": 2, "z": 9}), ((1,), {"c": 1, "c2": 2}), ((1, 2, 3), {"c": 1, "d": 2}),
    ((), {"b": 1, "a": 2}), (("x", "y"), {"sep": "", "k": 1}),
]


@pytest.mark.parametrize("fn", SIGNATURES, ids=[f.__name__ for f in SIGNATURES])
def test_calls_from_python_bind_as_cpython_binds(fn):
    ours = anyproc.script(fn)
    for args, kwargs in CALLS:
        assert outcome(lambda: ours(*args, **kwargs)) == outcome(lambda: fn(*args, **kwargs)), (args, kwargs)


# ---- every call form, from scripted code -----------------------------------------------------

TARGETS = [
    "def t(a, b=2, *, c, d=4):\n    return (a, b, c, d)\n",
    "def t(*args, sep=' '):\n    return (args, sep)\n",
    "def t(a, /, b, **kw):\n    return (a, b, kw)\n",
    "def t(a, /, b=2, *args, c, d=4, **kw):\n    return (a, b, args, c, d, kw)\n",
    "def t(*, k):\n    return k\n",
    "def t(a, *args):\n    return (a, args)\n",
    # A mutable default is one list for every call, however the call is bound.
    "def t(a, b=[]):\n    if type(b) is list:\n        b.append(a)\n    return (a, b)\n",
]

CALL_FORMS = [
    "t()", "t(1)", "t(1, 2)", "t(1, 2, 3)", "t(1, 2, 3, 4, 5)", "t(a=1)", "t(1, b=2)", "t(1, c=3)",
    "t(1, 2, c=3, d=5)", "t(1, 2, 3, c=3)", "t(c=1, a=2)", "t(1, k=2)", "t(k=2)", "t(1, a=1)", "t(1, 2, sep='-')",
    "t(1, b=2, z=9)", "t(b=1, a=2)", "t(*xs)", "t(*xs, c=1)", "t(1, *xs, k=0)", "t(*xs, sep='+')",
    "t(*xs, b=5, c=6)", "t(0, *xs, *xs, c=1, z=2)", "h(1, 2, 3)", "h(*xs)", "list(map(h, xs))",
    # `**mapping` arguments, merged with the keywords around them, then bound.
    "t(1, **{'c': 3})", "t(*xs, **{'c': 1, 'z': 2})", "t(**{'a': 1, 'c': 2})", "t(1, c=1, **{'c': 2})",
    "t(**{'c': 2}, c=1)", "t(**{1: 2})", "t(**xs)", "t(1, **{'k': 5}, **{'d': 6, 'c': 0})", "t(**{})",
    "t(0, **{'b': 1}, **{'b': 2})", "t(0, **dict(zip(['c', 'e'], xs)))",
]


@pytest.mark.parametrize("target", TARGETS, ids=[t.split(":")[0] for t in TARGETS])
def test_calls_from_scripts_bind_as_cpython_binds(target):
    callers = "".join(f"def call_{i}(xs):\n    h = t\n    return {form}\n" for i, form in enumerate(CALL_FORMS))
    source = target + callers
    for i in range(len(CALL_FORMS)):
        check_source(source, f"call_{i}", [([],), ([1],), ([1, 2, 3],), (["x", "y"],)])


def test_printed_source_parses_back():
    check_printed_source([featurize, sig_all, sig_kwonly, sig_bare_star],
                         [(line,) for line in LINES[:20]] + [(1,), (1, 2, 3)])


# ---- the text front end's parameter lists --------------------------------------------------


@pytest.mark.parametrize("params", ["*", "*, ", "a, *", "*a, *b", "*, *a", "a, /, /", "/, a", "*a, /",
                                    "**k, a", "a=1, b", "a, *, b=1, c", "a, a", "*a, a", "a, **a"])
def test_bad_parameter_lists_are_refused_as_cpython_refuses_them(params):
    source = f"def f({params}):\n    return 1\n"
    try:
        compile(source, "<test>", "exec")
    except SyntaxError as e:
        expected = e.msg
    else:
        expected = None
    if expected is None:
        # Valid to CPython: anyscript takes it too, and binds as CPython does.
        check_source(source, "f", [(1,), (1, 2), ()])
        return
    with pytest.raises(SyntaxError) as e:
        anyproc.script_source(source, "f")
    message = str(e.value)
    # CPython names a repeated name 'argument'; anyscript says 'parameter'.
    assert expected.replace("argument", "parameter") in message or expected in message, (message, expected)


def test_shaped_functions_trace_save_and_run_in_the_cli(tmp_path):
    # The saved pipeline embeds the functions' signatures as anyscript source, which the CLI
    # parses back.
    feats = anyproc.script(featurize)

    def pipeline(text):
        out = feats(text)
        return {"row": out[0], "spread": out[2], "head": out[3]}

    traced = anyproc.trace(pipeline, "text")
    path = tmp_path / "shaped.toml"
    traced.save(str(path))
    lines = [line for line in LINES if line and "\t" not in line][:60]
    src = tmp_path / "in.txt"
    src.write_text("\n".join(lines) + "\n", encoding="utf-8")
    dst = tmp_path / "out.jsonl"
    proc = run_cli(["run", str(path), "--input", str(src), "--output", str(dst)])
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(r) for r in dst.read_text(encoding="utf-8").splitlines()]
    expected = [featurize(line) for line in lines]
    assert [r["row"] for r in rows] == [e[0] for e in expected]
    assert [r["spread"] for r in rows] == [e[2] for e in expected]
    assert [r["head"] for r in rows] == [e[3] for e in expected]


# ---- what stays refused ------------------------------------------------------------------------


def traced(text, *, lower=True):
    return text.lower() if lower else text


def test_trace_refuses_keywords_of_a_shaped_function():
    f = anyproc.script(traced)
    with pytest.raises(TypeError, match="positional arguments only"):
        anyproc.trace(lambda text: f(text, lower=False), inputs=["text"])


@functools.lru_cache(maxsize=None)
def cached_kwonly(text, *, lower=True):
    return text.lower() if lower else text


def test_lru_cache_of_a_shaped_function_is_refused():
    with pytest.raises(SyntaxError, match="lru_cache of a function with") as e:
        anyproc.script(cached_kwonly)
    assert e.value.filename.endswith("test_signatures.py")


# ---- nested functions ----------------------------------------------------------------------


def nested_shapes(line):
    sep = "-"

    def join(*parts, end="", **opts):
        # Reads the enclosing function's `sep`, as a closure does.
        return sep.join(parts) + end + ",".join(sorted(opts))

    def count(n, /, *, acc=0):
        return acc if n == 0 else count(n - 1, acc=acc + n)

    words = line.split()[:4]
    h = join
    return (join(*words), join("a", end="!", z=1, y=2), h("x", "y"), count(len(words)),
            list(map(join, words)), sorted(words, key=lambda w: join(w, w)))


def nested_errors(n):
    def f(a, *, b):
        return a + b
    g = f
    if n == 0:
        return f(1)
    if n == 1:
        return g(1, 2)
    if n == 2:
        return f(1, b=2, c=3)
    return f(a=1, b=n)


def test_nested_functions_take_every_kind_of_parameter():
    ours = anyproc.script(nested_shapes)
    for line in LINES:
        assert outcome(ours, line) == outcome(nested_shapes, line), line
    errors = anyproc.script(nested_errors)
    for n in range(4):
        # CPython names a nested function by its qualified name, as anyproc does.
        assert outcome(errors, n) == outcome(nested_errors, n), n
