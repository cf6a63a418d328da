"""``functools.partial(func, *args)`` in ``anyproc.script``: a function value that calls
``func`` with the given arguments first, on real text, against CPython 3.11 (results and
errors)."""

from __future__ import annotations

import functools
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
