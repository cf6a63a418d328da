"""Python callables called with keyword arguments from scripts: a Python function passed to a
scripted function, or registered with ``anyproc.register_func`` and called by name, takes
keyword arguments, ``*iterable`` and ``**mapping`` as CPython's call passes them, with CPython's
errors (compared with CPython running the same functions on real text)."""

from __future__ import annotations

import functools

import anyproc

from conftest import corpus_lines
from test_formatting import check_all, check_source

LINES = [line for line in corpus_lines(60) if line.strip()][:40]


def joined(text, *rest, sep="-", upper=False, **extra):
    out = sep.join([text, *rest])
    return (out.upper() if upper else out, sorted(extra.items()))


class Tagger:
    """A callable object, as a user's tokenizer wrapper may be."""

    def __call__(self, word, tag="w", *, lower=False):
        return f"{tag}:{word.lower() if lower else word}"


def calls_with_keywords(fn, line, options):
    words = line.split()[:4] or ["-"]
    return [fn(words[0], sep="+"), fn(*words, upper=True), fn(*words, **options), fn(words[0], **{"z": 1}, y=2),
            fn(text=line[:10])]


def test_a_python_function_passed_in_takes_keywords():
    check_all(calls_with_keywords, [(joined, line, {"sep": "/", "k": i}) for i, line in enumerate(LINES)])


def tags(tagger, line):
    return [tagger(w, tag="n", lower=True) for w in line.split()] + [tagger(*line.split()[:2])]


def test_a_callable_object_and_a_partial_take_keywords():
    check_all(tags, [(Tagger(), line) for line in LINES])
    check_all(tags, [(functools.partial(Tagger(), lower=True), line) for line in LINES])


def wrong_calls(fn, kind):
    if kind == 0:
        return fn("a", **{"sep": "/"}, sep="+")
    if kind == 1:
        return fn("a", **5)
    if kind == 2:
        return fn("a", **{1: 2})
    if kind == 3:
        return fn(*5, sep="+")
    if kind == 4:
        return fn("a", nope=1)
    return fn(sep="+")


def test_wrong_calls_raise_cpythons_errors():
    check_all(wrong_calls, [(fn, k) for fn in [joined, Tagger(), len] for k in range(6)])


def test_a_registered_function_called_by_name_takes_keywords():
    anyproc.register_func("testing.joined", joined, override=True)
    source = (
        "def f(line, opts):\n"
        "    words = line.split()[:3] or ['-']\n"
        "    return [testing.joined(words[0], sep='.', k=1), testing.joined(*words, **opts)]\n"
    )
    ours = anyproc.script_source(source, "f")
    for line in LINES:
        assert ours(line, {"upper": True}) == [joined((line.split() or ["-"])[0], sep=".", k=1),
                                               joined(*(line.split()[:3] or ["-"]), upper=True)]
    namespace = {"testing": type("testing", (), {"joined": staticmethod(joined)})}
    check_source(source, "f", [(line, {"sep": "|"}) for line in LINES[:5]], namespace)


def options_spread(line, options, sub_options):
    import re

    return [line.split(**options), line.strip().rsplit(**options), re.sub(r"\s+", " ", line, **sub_options),
            re.split(r"[,.]", line, **{"maxsplit": 1})]


def test_methods_and_ops_by_name_take_a_mapping_of_keywords():
    cases = [(line, {"sep": " ", "maxsplit": i % 3}, {"count": i % 2}) for i, line in enumerate(LINES)]
    cases += [(LINES[0], {"sep": " ", "nope": 1}, {}), (LINES[0], {}, {"counts": 1}), (LINES[0], 5, {}),
              (LINES[0], {"maxsplit": 1}, {"count": 1, "flags": 0})]
    check_all(options_spread, cases)


def spread_errors(line, kind):
    import re

    if kind == 0:
        return line.split(**{"sep": " "}, sep=",")
    if kind == 1:
        return re.sub("a", "b", line, **{1: 2})
    if kind == 2:
        return line.replace(**{"old": "a"})
    if kind == 3:
        return re.findall(r"\w+", line, **{"flags": re.I}, flags=0)
    return line.encode(**[])


def test_spreading_into_methods_and_ops_fails_as_cpython():
    check_all(spread_errors, [(line, k) for line in LINES[:3] for k in range(5)])


def op_spread_errors(kind, xs):
    import bisect
    import json
    import random

    if kind == 0:
        return bisect.bisect_left(xs, 3, **5)
    if kind == 1:
        return bisect.insort(xs, 3, **{"lo": 0}, lo=1)
    if kind == 2:
        return random.Random(5).choices(xs, **[])
    if kind == 3:
        return json.dumps(xs, **{"indent": 1}, indent=2)
    return bisect.bisect(xs, *5)


def test_ops_are_named_as_cpython_names_them_in_spreading_errors():
    check_all(op_spread_errors, [(k, [1, 2, 5]) for k in range(5)])
