"""Keyword arguments, default parameter values, key functions and ``lambda`` in
``anyproc.script`` and in anyscript source: results and errors equal CPython's, on real text
and on random lists."""

from __future__ import annotations

import itertools
import random

import anyproc
import pytest
from conftest import corpus_lines
from test_formatting import check_all, outcome


def tokens(text, sep=None, limit=-1, lower=False, prefix=""):
    words = text.split(sep, limit)
    if lower:
        words = [w.lower() for w in words]
    return [prefix + w for w in words]


def calls_with_keywords(text):
    return [tokens(text), tokens(text, lower=True), tokens(text, limit=2), tokens(text, None, 1, True),
            tokens(lower=False, text=text, prefix="#"), tokens(text, prefix=">", sep="e"),
            text.split(maxsplit=1), text.rsplit(sep="e", maxsplit=1), text.split(" ", maxsplit=2),
            text.splitlines(keepends=True), text.expandtabs(tabsize=4),
            [list(p) for p in enumerate(text.split()[:3], start=5)], round(len(text) / 7, ndigits=2),
            sum([len(w) for w in text.split()], start=100), int(str(len(text)), base=16),
            dict(first=text[:1], n=len(text)), dict([["x", 1]], y=text[-1:]), updated(text)]


def updated(text):
    d = {"a": 1}
    d.update(z=text[:2])
    d.update({"q": 1}, r=len(text), a=0)
    return d


def ranked(text):
    counts = {}
    for w in text.lower().split():
        counts[w] = counts.get(w, 0) + 1
    words = list(counts)
    order = sorted(words, key=lambda w: [-counts[w], w])
    longest = max(words, key=len, default=None)
    rarest = min(words, key=lambda w: [counts[w], len(w) - len(text) % 5, w], default="")
    by_last = sorted(words, key=lambda w: w[-1:], reverse=True)
    words.sort(key=lambda w: counts[w] * len(w), reverse=True)
    double = lambda v: v * 2  # noqa: E731 - a lambda that reads no variable is a plain function value
    return [order[:6], longest, rarest, by_last[:6], words[:6], [double(n) for n in range(3)],
            sorted(words, key=len)[:4], max(len(text), 3, key=lambda v: -v)]


def test_keyword_calls_match_cpython(lines):
    texts = lines[:200] + ["", " ", "a", "e\te", "x\ny\r\nz"]
    check_all(calls_with_keywords, [(t,) for t in texts])


def test_key_functions_and_lambdas_match_cpython(lines):
    check_all(ranked, [(t,) for t in lines[:300] + ["", "a a b", "b a"]])


# ---- key functions on random lists


def keyed(xs, which, reverse):
    keys = {"none": None, "len": len, "abs": abs, "str": str, "neg": lambda v: -v,
            "last": lambda v: v[-1:], "pair": lambda v: [len(v), v], "mod3": lambda v: v % 3,
            "const": lambda v: 0, "bool": bool}
    key = keys[which]
    out = [sorted(xs, key=key, reverse=reverse), min(xs, key=key, default="none"), max(xs, key=key, default=None)]
    ys = list(xs)
    ys.sort(key=key, reverse=reverse)
    out.append(ys)
    if xs:
        out.append(max(xs[0], xs[-1], key=key))
        out.append(min(xs[-1], xs[0], xs[len(xs) // 2], key=key))
    return out


def random_lists(rng: random.Random, n: int):
    pools = [list(range(-4, 5)), ["", "a", "b", "ab", "ba", "abc", "é", "日本", "bb"], [0.5, -1.5, 2.0, 3, True, False]]
    for _ in range(n):
        pool = rng.choice(pools)
        yield [rng.choice(pool) for _ in range(rng.randint(0, 12))]
    # Mixed types raise; two items keep the pair CPython's sort compares first the same as ours.
    yield [1, "a"]
    yield ["a", 1]
    yield [[1], "a"]


@pytest.mark.parametrize("seed", [1, 2])
def test_sort_min_max_with_keys_match_cpython(seed):
    rng = random.Random(seed)
    lists = list(random_lists(rng, 120))
    whiches = ["none", "len", "abs", "str", "neg", "last", "pair", "mod3", "const", "bool"]
    cases = [(xs, which, rev) for xs, which, rev in itertools.product(lists, whiches, [False, True, 2])]
    check_all(keyed, rng.sample(cases, 1500) + [([1, 2], "len", "x"), ([1], "none", None), ([], "len", 1.5)])


def extremes(xs, d):
    return [max(xs, default=d), min(xs, default=d), max(xs, key=None), sorted(xs, reverse=False)]


def bad_key(xs):
    return sorted(xs, key=3)


def bad_default(xs):
    return max(xs, xs, default=0)


def test_min_max_default_and_errors_match_cpython():
    check_all(extremes, [([], 0), ([], None), ([3, 1], 9), ("ba", "z"), ({"k": 1, "a": 2}, 0), (5, 1)])
    check_all(bad_key, [([],), ([1],), ([2, 1],)])
    check_all(bad_default, [([1],), ([],)])


# ---- str.format(**kwargs) and str.format_map


def format_named(template, a, b, name, k):
    return template.format(a, b, name=name, k=k)


def format_only_named(template, name):
    return template.format(name=name)


def format_mapped(template, mapping):
    return template.format_map(mapping)


def named_template(rng: random.Random) -> str:
    """A template whose fields name positions, keywords (some missing) and items of them."""
    out = []
    for _ in range(rng.randint(0, 4)):
        out.append(rng.choice(["", "a", "{{", "}}", " é "]))
        name = rng.choice(["", "0", "1", "name", "k", "name[0]", "k[x]", "missing", "0[0]"])
        conv = rng.choice(["", "", "!r", "!a"])
        spec = rng.choice(["", "", ":>6", ":.2", ":{k}", ":{name}"])
        out.append("{" + name + conv + spec + "}")
    return "".join(out)


def test_format_keywords_and_format_map_match_cpython():
    rng = random.Random(5)
    names = ["ab", 7, [1, 2], {"x": "X"}, 2.5, "é😀", None]
    cases = [(named_template(rng), rng.choice(names), rng.choice(names), rng.choice(names), rng.choice(names))
             for _ in range(2000)]
    check_all(format_named, cases)
    check_all(format_only_named, [(c[0], c[3]) for c in cases[:500]])
    maps = [{"name": "n", "k": {"x": 1}}, {"name": [3]}, {}, [1], "str", 5]
    check_all(format_mapped, [(c[0], rng.choice(maps)) for c in cases[:1000]])


# ---- defaults


def with_defaults(word, times=2, sep="-", table={"a": "A"}, tail=None, scale=-1.5):
    parts = [table.get(c, c) for c in word] * times
    return [sep.join(parts), tail, scale * times]


def calls_defaults(text):
    return [with_defaults(w) for w in text.split()[:4]] + [with_defaults(text[:5], 1, "+", {}, [1], 0.0),
                                                          with_defaults(text[:3], scale=2, sep="")]


def remember(x, seen=[]):  # noqa: B006 - a shared mutable default is what is tested
    seen.append(x)
    return len(seen)


def remembers(text):
    return [remember(w) for w in text.split()[:5]]


def test_defaults_match_cpython(lines):
    check_all(calls_defaults, [(t,) for t in lines[:200] + ["", "a"]])
    # One list shared by every call, as Python shares it: both sides count the same calls.
    check_all(remembers, [(t,) for t in lines[:50]])


def test_defaults_and_keywords_from_python():
    ours = anyproc.script(with_defaults)
    calls = [(("ab",), {}), (("ab", 3), {}), (("ab",), {"sep": "/"}), (("ab",), {"tail": 1, "times": 1}),
             ((), {"word": "xy"}), ((), {}), (("ab",), {"word": "x"}), (("ab",), {"nope": 1}),
             (("a", 1, "", {}, None, 1.0, 7), {}), (("a", 1, "", {}, None, 1.0, 7), {"tail": 1})]
    for args, kwargs in calls:
        assert outcome(lambda: ours(*args, **kwargs)) == outcome(lambda: with_defaults(*args, **kwargs)), (args, kwargs)


# ---- errors


def too_many(text):
    return tokens(text, " ", 1, True, "", 9)


def unknown_keyword(text):
    return tokens(text, lowercase=True)


def twice(text):
    return tokens(text, text=text)


def missing(text):
    return tokens(lower=True)


def no_keywords_builtin(text):
    return len(obj=text)


def bad_sort_keyword(text):
    return sorted(text, cmp=None)


@pytest.mark.parametrize("fn", [too_many, unknown_keyword, twice, missing, no_keywords_builtin, bad_sort_keyword])
def test_call_errors_are_cpythons(fn):
    # CPython raises when the call runs; anyproc when it compiles the call: same type, same text.
    with pytest.raises(TypeError) as expected:
        fn("a b")
    with pytest.raises(TypeError) as got:
        anyproc.script(fn)("a b")
    assert str(got.value).endswith(str(expected.value)), (str(got.value), str(expected.value))


def captures_outside_key(text):
    n = len(text)
    add = lambda v: v + n  # noqa: E731
    n += 1  # Python's lambda reads n when it runs: anyscript's would have the value it was made with
    return add(1)


def captures_a_fixed_variable(text):
    n = len(text)
    add = lambda v: v + n  # noqa: E731 - n does not change once the lambda is made
    return add(1), list(map(lambda w: w * n, text.split()))


def test_lambda_reading_variables_that_change_outside_a_key_is_refused():
    assert captures_outside_key("ab") == 4
    with pytest.raises(SyntaxError, match="enclosing function's variable 'n'.*key=") as e:
        anyproc.script(captures_outside_key)
    assert e.value.lineno == captures_outside_key.__code__.co_firstlineno + 2
    check_all(captures_a_fixed_variable, [("ab c",), ("",)])


def wrong_arity(xs):
    f = lambda a, b: a  # noqa: E731
    return f(xs)


def test_lambda_arity_error_is_cpythons():
    check_all(wrong_arity, [([1],)])


# ---- the text front end


SOURCE = '''
def top(text, k=3, ignore=("the", "a"), lower=True):
    counts = {}
    for w in text.split():
        if lower:
            w = w.lower()
        if w not in ignore:
            counts[w] = counts.get(w, 0) + 1
    return sorted(counts, key=lambda w: (-counts[w], w))[:k]


def f(text):
    return [top(text), top(text, k=1), top(text, lower=False, k=2), top(k=2, text=text.upper()),
            max(text.split(), key=lambda w: (len(w), w), default=None), text.split(maxsplit=1),
            sorted(text, key=ord, reverse=True)[:3]]
'''


def test_source_with_keywords_defaults_and_lambdas_matches_cpython(lines):
    ns: dict = {}
    exec(SOURCE, ns)
    ours = anyproc.script_source(SOURCE, "f")
    for line in lines[:200] + ["", "the the a"]:
        assert outcome(ours, line) == outcome(ns["f"], line)


def test_printed_source_of_keywords_and_lambdas_parses_back(lines):
    f = anyproc.script(ranked)
    assert "lambda w:" in f.source and "key=len" in f.source
    again = anyproc.script_source(f.source, "ranked")
    for line in lines[:100]:
        assert again(line) == f(line) == ranked(line)


@pytest.fixture(scope="module")
def lines():
    return corpus_lines(400)
