"""str methods that pad, split off, recase and test text (``center``, ``ljust``, ``rjust``,
``zfill``, ``expandtabs``, ``partition``, ``rpartition``, ``removeprefix``, ``removesuffix``,
``splitlines``, ``swapcase``, ``istitle``, ``isascii``) give CPython's results and errors
through ``anyproc.script``, on real text."""

from __future__ import annotations

import itertools

import anyproc
from conftest import corpus_lines
from test_formatting import check_all


def justified(text, width, fill):
    return [text.center(width, fill), text.ljust(width, fill), text.rjust(width, fill)]


def padded_plain(text, width):
    return [text.center(width), text.ljust(width), text.rjust(width), text.zfill(width)]


def split_off(text, sep):
    # list(): tuples are lists in anyscript.
    return [list(text.partition(sep)), list(text.rpartition(sep)), text.removeprefix(sep), text.removesuffix(sep)]


def lines_of(text, keep):
    return [text.splitlines(), text.splitlines(keep), text.isascii()]


def cased(text, tabsize):
    return [text.swapcase(), text.istitle(), text.title().istitle(), text.expandtabs(), text.expandtabs(tabsize)]


SAMPLES = corpus_lines(300) + ["", "-42", "+7", "+", "é", "日本語 text", "😀", "ab\r\ncd\ref\x0bgh\x0cij",
                               "x\x1cy\x1dz\x1ew\x85v\u2028u\u2029t\n\n", "\r\n\r\n", "tail\r"]


def test_justify_and_zfill_match_cpython():
    widths = [-3, 0, 1, 2, 5, 6, 17, 40, 81, True, 2.5, "7", None]
    check_all(padded_plain, [(t, w) for t, w in itertools.product(SAMPLES[::5], widths)])
    fills = [" ", "*", "é", "😀", "", "ab", 1, None]
    check_all(justified, [(t, w, f) for t, w, f in itertools.product(SAMPLES[::9], widths[:9], fills)])


def test_partition_and_affixes_match_cpython():
    seps = [" ", "a", "e", "the", "é", "😀", ".", "", "-", 1, None]
    check_all(split_off, [(t, s) for t, s in itertools.product(SAMPLES[::3], seps)])


def test_splitlines_and_isascii_match_cpython():
    keeps = [True, False, 0, 2, "x", 1.5, None]
    texts = SAMPLES[-8:] + ["\n".join(SAMPLES[k:k + 4]) for k in range(0, 120, 4)]
    check_all(lines_of, [(t, k) for t, k in itertools.product(texts, keeps)])


def test_swapcase_istitle_and_expandtabs_match_cpython():
    texts = SAMPLES + ["ΑΣ ΣΑΣ σ", "ǅungla Ǆ ǆ", "ß ﬁ İ ı", "Hello World", "a\tbc\tdef\n\tx\r\ty", "\t\t", "日\tx"]
    check_all(cased, [(t, k) for t, k in itertools.product(texts, [8, 3, 1, 0, -2])][::2] + [("a", "x"), ("a\tb", None)])


def test_padding_to_a_width_too_large_for_memory_is_a_memory_error():
    f = anyproc.script(padded_plain)
    try:
        f("x", 2**62)
    except MemoryError:
        return
    raise AssertionError("expected MemoryError")


def argument_order(text, which, a, b):
    if which == 0:
        return text.find(a, b)
    if which == 1:
        return text.count(a, 0, b)
    if which == 2:
        return text.rindex(a, b)
    if which == 3:
        return text.split(a, b)
    if which == 4:
        return text.rsplit(a, b)
    if which == 5:
        return text.join(a)
    if which == 6:
        return text.replace(a, "x")
    if which == 7:
        return text.removeprefix(a)
    return str.maketrans("a", a)


def test_arguments_are_checked_in_cpythons_order_with_its_words():
    # find/count/index read their bounds before `sub`; split reads `maxsplit` before `sep`; a
    # bytes object joins as ints; Argument Clinic's errors name None as "None".
    values = ["a", "", ",", None, 1, 2.5, b",", b"", [1], ("a", "b"), {"k": 1}]
    cases = [("a,b a", which, a, b) for which in range(9) for a in values for b in values[:7]]
    check_all(argument_order, cases)
