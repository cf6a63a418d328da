"""Keyword arguments in calls of function values: a lambda, a nested function, a function kept
in a dict or passed as an argument, called with ``name=value``, ``*iterable`` and
``**mapping``, through both front ends. A function of the script binds such a call when it
runs, as CPython binds it (its errors name it as CPython names it, ``outer.<locals>.<lambda>``);
a built-in or an op called through a value takes positional arguments only, which its error
says."""

from __future__ import annotations

import bisect
import re

import anyproc
import pytest
from conftest import corpus_lines
from test_formatting import check_all, check_source, outcome
from test_signatures import CALL_FORMS, TARGETS

LINES = corpus_lines(80) + ["", "a", "Hello, World!", "x\ty  z", "ÀÉÎ ñ ü"]


# ---- every call form of every signature, through a value -----------------------------------


@pytest.mark.parametrize("target", TARGETS, ids=[t.split(":")[0] for t in TARGETS])
def test_every_call_form_through_a_value_binds_as_cpython_binds(target):
    # The forms of test_signatures, each made a call of `h = t` (a value the call site cannot
    # bind, so the callee binds it when it runs).
    forms = ["h" + form[1:] for form in CALL_FORMS if form.startswith("t(")]
    callers = "".join(f"def call_{i}(xs):\n    h = [t][0]\n    return {form}\n" for i, form in enumerate(forms))
    for i in range(len(forms)):
        check_source(target + callers, f"call_{i}", [([],), ([1],), ([1, 2, 3],), (["x", "y"],), (3,)])


# ---- the kinds of code that call a function value with keywords ----------------------------


def pad_all(lines, width=12):
    pad = lambda s, fill=".", right=False: s.rjust(width, fill) if right else s.ljust(width, fill)  # noqa: E731
    return [pad(w, right=i % 2 == 1) + pad(w[:3], fill="-") for i, w in enumerate(lines)]


def dispatch(text):
    def words(t, lower=False):
        return (t.lower() if lower else t).split()

    def chars(t, lower=False, keep_space=True):
        return [c.lower() if lower else c for c in t if keep_space or not c.isspace()]

    handlers = {"words": words, "chars": chars}
    out = {}
    for name, handler in handlers.items():
        out[name] = handler(text, lower=True)
    out["tight"] = handlers["chars"](text, keep_space=False)[:8]
    return out


def apply_twice(fn, text, **options):
    return fn(fn(text, **options), **options)


def squeeze(text, keep=" "):
    return re.sub(r"\s+", keep, text).strip()


def through_parameters(text):
    return [apply_twice(squeeze, text), apply_twice(squeeze, text, keep="_"), apply_twice(str.upper, text)]


def made_in_a_loop(text):
    # Each lambda keeps its own `i` (a default made where it is made); a call may set it by name.
    shifts = [lambda w, i=i: w[i:] + w[:i] for i in range(3)]
    words = text.split()[:4]
    return [[f(w) for f in shifts] + [shifts[0](w, i=1), shifts[2](i=0, w=w)] for w in words]


def counted(text):
    seen = 0

    def bump(n=1, *, weight=1):
        nonlocal seen
        seen += n * weight
        return seen

    step = bump
    for w in text.split():
        step(len(w), weight=2)
        step(**{"n": 1})
    return seen


def forwarding(text):
    def show(*parts, sep=" ", **extra):
        return sep.join(parts) + "".join(f"[{k}={v}]" for k, v in sorted(extra.items()))

    call = show
    words = text.split()[:3]
    options = {"sep": "|", "tag": len(words)}
    return [call(*words, **options), call(*words, sep="+"), call(*words, flag=True, **{"z": 0})]


def wrong_calls(text):
    f = lambda a, b=1: (a, b)  # noqa: E731
    out = []
    for i, kwargs in enumerate([{"b": 2}, {"c": 1}, {"a": 1, "b": 2}, {}]):
        try:
            out.append(f(text, **kwargs) if i != 3 else f(**kwargs))
        except TypeError as e:
            out.append(str(e))
    return out


FUNCTIONS = [pad_all, dispatch, through_parameters, made_in_a_loop, counted, forwarding, wrong_calls]


@pytest.mark.parametrize("fn", FUNCTIONS, ids=[f.__name__ for f in FUNCTIONS])
def test_equals_cpython_on_real_text(fn):
    if fn is pad_all:
        check_all(fn, [(LINES[i : i + 4],) for i in range(0, 40, 4)] + [(LINES[:3], 5)])
    else:
        check_all(fn, [(line,) for line in LINES])


def values_of_every_kind(text):
    # Built-ins, methods (through their type and bound), ops: each called through a value.
    words = text.split()
    order, pick, rnd, count_from = sorted, max, round, enumerate
    split, bound_split, search, bisect_left = str.split, text.split, re.search, bisect.bisect_left
    encode = text.encode
    return [
        order(words, key=len, reverse=True), pick(words, key=len, default=None), pick([], default=0),
        rnd(len(text) / 3, ndigits=2), list(count_from(words, start=1))[:2], split(text, maxsplit=1),
        bound_split(sep=" ", maxsplit=2), bool(search(r"\d", string=text)), encode(errors="replace"),
        bisect_left(sorted(map(len, words)), 3, lo=0), int("ff", base=16), sum([1, 2], start=10),
    ]


def value_errors(text, which):
    f = [len, sorted, max, str.split, text.split, re.sub, round][which]
    try:
        if which == 0:
            return f(obj=text)
        if which == 1:
            return f(text, cmp=1)
        if which == 2:
            return f(text, default=1, key=None, other=2)
        if which == 3:
            return f(text, sep=1, maxsplit=1, x=2)
        if which == 4:
            return f(" ", sep=" ")
        if which == 5:
            return f(r"a", "b", text, flags=0, counts=1)
        return f(number=1.5, digits=1)
    except TypeError as e:
        return str(e)


def test_built_ins_methods_and_ops_through_a_value_bind_keywords():
    check_all(values_of_every_kind, [(line,) for line in LINES if line.strip()])
    check_all(value_errors, [(t, k) for t in ["ab c", "x"] for k in range(7)])


def test_print_zip_and_dict_through_a_value_take_no_keywords():
    # Called by their names they take `sep=`, `strict=` and names; through a value, anyscript
    # says where the call runs that it passes them only by name.
    source = "def f(xs):\n    p = [zip][0]\n    return p(xs, xs, strict=True)\n"
    kind, message = outcome(anyproc.script_source(source, "f"), [2, 1, 3])
    assert kind == "TypeError", message
    assert "zip() got keyword argument 'strict' through a function value" in message
    source = "def f(xs):\n    p = [zip][0]\n    return list(p(xs, xs, **{}))\n"
    check_source(source, "f", [([2, 1, 3],)])
