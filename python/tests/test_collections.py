"""Python's ``collections.Counter`` and ``collections.defaultdict`` in ``anyproc.script`` and
anyscript source: CPython's results (values, reprs, orders, errors) on real text, the types
they come back to Python as, and bound methods as values (``key=counts.get``)."""

from __future__ import annotations

import collections
from collections import Counter, defaultdict

import anyproc
import pytest
from conftest import corpus_lines
from test_formatting import check_all, check_printed_source, outcome

# ---- functions of the kind text code counts with


def vocabulary(lines):
    counts = Counter()
    for line in lines:
        counts.update(line.lower().split())
    return counts.most_common(20), len(counts), counts.total()


def words_by_initial(words):
    groups = defaultdict(list)
    for w in words:
        groups[w[:1].lower()].append(w)
    return groups


def bigram_counts(words):
    c = collections.Counter()
    for a, b in zip(words, words[1:]):
        c[(a, b)] += 1
    return repr(c.most_common(10)), c[("no", "such pair")], len(c)


def char_counts(text):
    c = Counter(text)
    return repr(c), repr(+c), sorted(c.elements())[:30], c.most_common(3), c.most_common(0)


def frequent_first(text):
    counts = {}
    for w in text.split():
        counts[w] = counts.get(w, 0) + 1
    # Bound methods as values, the common idiom for ranking a dict's keys.
    return sorted(counts, key=counts.get, reverse=True)[:10], max(counts, key=counts.get, default=None)


def arithmetic(text):
    half = len(text) // 2
    a, b = Counter(text[:half]), Counter(text[half:])
    a.subtract("etaoin")
    out = [repr(a + b), repr(a - b), repr(a | b), repr(a & b), repr(-a), repr(+a)]
    out += [a == b, a <= a + b, b < a + b, a >= b, a.total()]
    c = a.copy()
    c += b
    out.append(repr(c))
    c -= Counter("aeiou" * 3)
    out.append(repr(c))
    c |= {"z": 9}
    c &= Counter("zzzz" + text)
    out.append(repr(c))
    return out


def nested_defaults(words):
    # A defaultdict of defaultdicts, a factory lambda, and each built-in type as a factory.
    follows = defaultdict(lambda: defaultdict(int))
    for a, b in zip(words, words[1:]):
        follows[a][b] += 1
    lengths = defaultdict(set)
    for w in words:
        lengths[len(w)].add(w.lower())
    kinds = [defaultdict(f) for f in (int, float, str, list, tuple, dict, set, bool)]
    defaults = [d["missing"] for d in kinds]
    # (A lambda's repr holds its address, so the outer dict is shown as a dict.)
    return repr(dict(follows))[:400], sorted((k, len(v)) for k, v in lengths.items()), repr(kinds), defaults


def dict_behaviour(text):
    c = Counter(text.split())
    d = defaultdict(list, {"x": [1]})
    out = ["missing" in c, c.get("missing"), len(c), "q" in d, d.get("q"), len(d)]
    out += [isinstance(c, dict), isinstance(c, Counter), isinstance(d, defaultdict), isinstance({}, Counter)]
    out += [type(c).__name__, type(d).__name__, type(c) is Counter, type(d) is dict]
    out += [repr(dict(c))[:200], list(c)[:5], repr(c.copy())[:200], repr(d.copy()), repr(defaultdict(None))]
    c.update({"the": 100})
    c.update(["the", "the"])
    out += [c["the"], c.pop("the"), c["the"], str(Counter())]
    # A Counter's `del` passes over a missing key; a dict's is a KeyError.
    del c["missing"]
    try:
        del d["missing"]
    except KeyError as e:
        out.append(repr(e))
    try:
        del c[[1]]
    except TypeError as e:
        out.append(str(e))
    return out


def counter_errors(text):
    kind = len(text) % 6
    try:
        if kind == 0:
            return Counter(len(text))
        if kind == 1:
            return defaultdict(text)
        if kind == 2:
            return defaultdict(None)[text]
        if kind == 3:
            return Counter(text) + len(text)
        if kind == 4:
            return list(Counter({text: 1.5}).elements())
        return Counter([[text]])
    except TypeError as e:
        return "TypeError: " + str(e)
    except KeyError as e:
        return "KeyError: " + str(e)


TEXTS = ["", "a", "abracadabra", "the cat sat on the mat the end", "ünïcödé ünï", "a b a c b a", "zz y"]
FUNCTIONS = [char_counts, frequent_first, arithmetic, dict_behaviour]


def test_counting_functions_equal_cpython_on_real_text():
    lines = corpus_lines(400)
    words = " ".join(lines).split()
    check_all(vocabulary, [(lines,), (lines[:7],), ([],)])
    check_all(bigram_counts, [(words,), (words[:3],), ([],)])
    check_all(nested_defaults, [(words[:2000],), ([],)])
    for fn in FUNCTIONS:
        check_all(fn, [(t,) for t in TEXTS + lines[:60]])


def test_a_defaultdict_of_lists_comes_back_with_its_entries_and_factory():
    words = " ".join(corpus_lines(100)).split()
    ours = anyproc.script(words_by_initial)(words)
    want = words_by_initial(words)
    assert type(ours) is defaultdict and ours.default_factory is list
    assert list(ours.items()) == list(want.items())


def test_errors_equal_cpython():
    check_all(counter_errors, [(t,) for t in ["", "a", "ab", "abc", "abcd", "abcde", "abcdef"]])


def test_counters_and_defaultdicts_cross_the_boundary_as_themselves():
    counts = anyproc.get_global_func("collections.Counter")("mississippi")
    assert type(counts) is Counter and counts == Counter("mississippi")
    assert list(counts.items()) == list(Counter("mississippi").items())
    made = anyproc.get_global_func("collections.defaultdict")(int, {"a": 1})
    assert type(made) is defaultdict and made.default_factory is int and made == {"a": 1}

    def bump(d, key):
        d[key] += 1
        return d

    # In: a Counter counts a missing key as 0, a defaultdict calls its factory (Python's
    # `int`, run as anyproc's own), a plain dict raises.
    bumped = anyproc.script(bump)
    assert bumped(Counter("ab"), "z") == Counter("abz")
    d = bumped(defaultdict(int, {"a": 1}), "a")
    assert type(d) is defaultdict and d.default_factory is int and d == {"a": 2}
    assert outcome(bumped, {}, "z") == outcome(bump, {}, "z") == ("KeyError", "'z'")

    # A factory that is a Python function is called back.
    d = bumped(defaultdict(lambda: 10), "k")
    assert d == {"k": 11}


def test_the_text_front_end_and_printed_source():
    source = """
def count(words):
    c = collections.Counter(words)
    d = collections.defaultdict(list)
    for w in words:
        d[len(w)].append(w)
    return c.most_common(2), d, sorted(c, key=c.get)
"""
    f = anyproc.script_source(source, "count")
    common, groups, ranked = f(["a", "bb", "a", "cc", "a", "bb"])
    assert common == [("a", 3), ("bb", 2)]
    assert type(groups) is defaultdict and groups == {1: ["a", "a", "a"], 2: ["bb", "cc", "bb"]}
    assert ranked == ["cc", "bb", "a"]
    check_printed_source([char_counts, frequent_first, dict_behaviour], [(t,) for t in TEXTS])


@pytest.mark.parametrize("fn", [vocabulary, bigram_counts])
def test_ties_keep_first_seen_order(fn):
    # Counts that tie come out of most_common() in the order first seen, as CPython's sort.
    lines = ["b a c", "c b a", "a"]
    assert anyproc.script(fn)(lines if fn is vocabulary else " ".join(lines).split()) == fn(
        lines if fn is vocabulary else " ".join(lines).split())


def keyword_entries(words, which):
    log = []

    def note(x):
        log.append(x)
        return x

    try:
        if which == 0:
            made = Counter(note(words), the=note(100), zzz=note(-1))
        elif which == 1:
            made = collections.OrderedDict(note([(w, len(w)) for w in words]), first=note(0))
        elif which == 2:
            made = defaultdict(note(list), note({w: [w] for w in words}), extra=note([1]))
        elif which == 3:
            made = defaultdict(default_factory=note(int))
        elif which == 4:
            made = Counter(iterable=note(words))
        elif which == 5:
            made = Counter(note(5), a=note(1))
        elif which == 6:
            made = collections.OrderedDict(note(words), note(words), a=note(1))
        elif which == 7:
            made = Counter(note(words))
            made.update(note(words[:3]), the=note(2), zzz=note(3))
            made.subtract(note(words[1:4]), the=note(50))
        elif which == 8:
            made = Counter(note(words))
            made.update(note(words), note(words), a=note(1))
        elif which == 9:
            made = {w: 0 for w in words}
            made.update(note(words[:0]), the=note(7))
            made.subtract(a=note(1))
        else:
            made = collections.OrderedDict(a=note(1))
            made.update(note([("b", 2)]), note([]), c=note(3))
        return [made, log]
    except (TypeError, AttributeError, ValueError) as e:
        return [type(e).__name__, str(e), log]


def test_keyword_entries_of_mappings_equal_cpython():
    # `Counter(x, k=v)`, `OrderedDict(x, k=v)`, `defaultdict(f, x, k=v)`, `c.update(x, k=v)` and
    # `c.subtract(x, k=v)`: the keywords are entries (a Counter adds them), every argument is
    # evaluated before the call, and a wrong call is the type's own error.
    words = [line.split()[:6] for line in corpus_lines(40)[::8] if line.split()]
    check_all(keyword_entries, [(w, which) for w in words[:3] for which in range(11)])
