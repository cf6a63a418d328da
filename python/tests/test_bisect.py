"""``bisect.bisect_left``, ``bisect_right``, ``bisect``, ``insort_left``, ``insort_right`` and
``insort`` in ``anyproc.script``: CPython's results and errors on real text (offsets of words
in a line, sorted vocabularies), tuples and strs, bounds and every argument error."""

from __future__ import annotations

import bisect
from bisect import bisect_left, bisect_right, insort
from collections import Counter, defaultdict

import anyproc

from conftest import corpus_lines
from test_formatting import check_all, check_source, outcome

LINES = corpus_lines(200) + ["", "a", "a a a b b c"]


def word_at(line):
    # The word under each character offset: the offsets of word starts, searched.
    starts, pos = [], 0
    for w in line.split(" "):
        starts.append(pos)
        pos += len(w) + 1
    words = line.split(" ")
    return [words[bisect_right(starts, i) - 1] for i in range(0, len(line), 3)]


def sorted_vocab(line):
    vocab = sorted(set(line.lower().split()))
    out = []
    for w in line.split()[:12]:
        i = bisect_left(vocab, w.lower())
        out.append((i, bisect.bisect_right(vocab, w.lower()), bisect.bisect(vocab, w),
                    i < len(vocab) and vocab[i] == w.lower(), bisect_left(vocab, w, 1), bisect_left(vocab, w, 0, min(2, len(vocab))),
                    bisect_right(vocab, w, 0, None), bisect_left(vocab, w, 2, -1), bisect_left(vocab, w, 3, -4)))
    return out


def build_sorted(line):
    lens, words, rights = [], [], []
    for w in line.split():
        insort(lens, len(w))
        bisect.insort_left(words, w)
        bisect.insort_right(rights, (len(w) % 3, w[:1]))
    bisect.insort_left(lens, 0, 0, 0)
    bisect.insort(lens, 99, 5)
    return lens, words, rights


def other_sequences(line):
    t = tuple(sorted(line.split()))
    s = "".join(sorted(line[:30]))
    return ([bisect_left(t, w) for w in line.split()[:5]], [bisect_right(s, c) for c in line[:8]],
            bisect_left(s, "m"), bisect_right((1, 2, 2, 3), 2), bisect_left([1.5, 2, 2.5], 2), bisect_left([], 1))


def bad_calls(line):
    words = sorted(line.split()) or ["x"]
    out = []
    for step in range(16):
        try:
            if step == 0:
                out.append(bisect_left(words, 5))
            elif step == 1:
                out.append(bisect_left(words, "a", -1))
            elif step == 2:
                out.append(bisect_left(words, "a", "0"))
            elif step == 3:
                out.append(bisect_right(words, "zzz", 0, len(words) + 3))
            elif step == 4:
                out.append(bisect_left(words, "", 0, len(words) + 3))
            elif step == 5:
                out.append(bisect_left(words, "a", 0, 1.5))
            elif step == 6:
                out.append(bisect_left(words, "a", 0, None))
            elif step == 7:
                out.append(bisect_right(words, "a", True, False))
            elif step == 8:
                out.append(bisect_left(5, 1))
            elif step == 9:
                out.append(bisect_left(5, 1, 0, 3))
            elif step == 10:
                out.append(bisect_right(tuple(words), "zzz", 0, len(words) + 2))
            elif step == 11:
                out.append(bisect_right(line[:3], "~", 0, 9))
            elif step == 12:
                out.append(bisect_left(None, 1, 0, 2))
            elif step == 13:
                out.append(bisect_left(line, "a", 0, "x"))
            elif step == 14:
                out.append(bisect_left(words, "a", -1, "y"))
            else:
                out.append(bisect_left([[1, 2], [1, "a"]], [1, 3]))
        except (TypeError, ValueError, IndexError) as e:
            out.append((type(e).__name__, str(e)))
    return out


def other_containers(line):
    words = line.split()
    out = []
    cases = [(line.encode(), 101, None, None), (line[:4].encode(), 300, 0, 9), ({}, 1, None, None),
             ({w: 1 for w in words}, 1, 0, 1), ({w: 1 for w in words}, 1, 1, 1), (set(words), 1, None, None),
             (set(), 1, None, None), (set(words), 1, 2, 1), (5, 1, 0, 0), (5, 1, 0, -3), (None, 1, 0, 1),
             (Counter(len(w) for w in words), 1, None, None), (Counter(words), 2, 0, 50), (defaultdict(int), 1, None, None),
             (len(words), 1, None, None)]
    for a, x, lo, hi in cases:
        for f in (bisect_left, bisect.bisect_right):
            try:
                out.append(f(a, x) if lo is None else f(a, x, lo, hi))
            except (TypeError, IndexError) as e:
                out.append((type(e).__name__, str(e)))
    return out


def counts(line):
    words = sorted(line.split()) or ["x"]
    out = []
    for args in [(), (words,), (words, "a", 0, 1, 2)]:
        try:
            out.append(bisect_left(*args))
        except TypeError as e:
            out.append(str(e))
        try:
            out.append(bisect.insort_right(*args))
        except TypeError as e:
            out.append(str(e))
    return out


def by_keyword(line):
    # Offsets searched between bounds given by name, and words kept sorted by a key.
    words = line.split()
    starts = sorted(len(w) for w in words)
    folded = sorted(words, key=str.lower)
    out = [bisect_left(starts, 3, lo=1), bisect_right(starts, 3, hi=len(starts) // 2), bisect.bisect(starts, 4, 1, hi=None),
           bisect_left(a=starts, x=2), bisect_right(starts, x=5, lo=0, hi=len(starts)),
           bisect_left(folded, "the", key=str.lower), bisect_right(folded, "a", 0, None, key=str.lower),
           bisect_left(starts, -3, key=lambda n: -n), bisect_left(starts, 3, key=None)]
    kept = []
    for w in words[:15]:
        insort(kept, w, key=len)
        bisect.insort_left(kept, w.upper(), lo=0, key=len)
    by_len = [(len(w), w) for w in words[:6]]
    bisect.insort_right(by_len, (3, "zzz"), hi=len(by_len))
    return out, kept, by_len


def keyword_errors(line):
    words = sorted(line.split()) or ["x"]
    calls = [lambda: bisect_left(words, "a", lo=-1), lambda: bisect_left(words, "a", hi="1"),
             lambda: bisect_left(words, "a", foo=1), lambda: bisect_left(words, lo=1),
             lambda: bisect_left(words, "a", 0, lo=1), lambda: bisect_left(words, "a", 0, 1, 2),
             lambda: bisect_left(words, "a", 0, 1, 2, key=len), lambda: bisect_left(a=words, x="a", lo=0, hi=1, key=len, k=1),
             lambda: bisect_left(words, "a", key=5), lambda: bisect_left(words, "a", 1, 1, key=5),
             lambda: insort(words, "a", key=5), lambda: insort(words, "a", -1, key=len), lambda: insort(words, "a", -1, key=5),
             lambda: bisect_left(words, 3, key=len), lambda: bisect_left(words, "a", key=len),
             lambda: bisect.insort_right(words, 3, x=3)]
    out = []
    for call in calls:
        try:
            out.append(call())
        except (TypeError, ValueError) as e:
            out.append((type(e).__name__, str(e)))
    spread = [words, "a", 0, 1, len]
    for n in (4, 5):
        try:
            out.append(bisect_left(*spread[:n]))
        except TypeError as e:
            out.append(str(e))
    return out, words


def test_bisect_keywords_equal_cpython():
    check_all(by_keyword, [(line,) for line in LINES])
    check_all(keyword_errors, [(line,) for line in LINES[:30]])


def test_bisect_on_real_text_equals_cpython():
    for fn in (word_at, sorted_vocab, build_sorted, other_sequences):
        check_all(fn, [(line,) for line in LINES])


def insort_tuple(line):
    bisect.insort(tuple(line.split()), "a")


def insort_str(line):
    bisect.insort_left(line, "a")


def test_bisect_errors_equal_cpythons():
    check_all(bad_calls, [(line,) for line in LINES[:40]])
    check_all(counts, [(line,) for line in LINES[:10]])
    check_all(other_containers, [(line,) for line in LINES[:40]])


def test_insort_into_what_has_no_insert_is_cpythons_attribute_error():
    for fn, text in [(insort_tuple, "'tuple' object has no attribute 'insert'"),
                     (insort_str, "'str' object has no attribute 'insert'")]:
        assert outcome(fn, "a b") == ("AttributeError", text)
        kind, message = outcome(anyproc.script(fn), "a b")
        assert kind == "AttributeError" and message.startswith("bisect.insort") and message.endswith(": " + text)


def test_bisect_ops_in_the_text_front_end():
    source = (
        "def f(line):\n"
        "    starts = sorted(len(w) for w in line.split())\n"
        "    xs = []\n"
        "    for n in starts[::-1]:\n"
        "        bisect.insort(xs, n)\n"
        "    return (xs, [bisect.bisect_left(starts, n) for n in range(8)], bisect.bisect(starts, 3),\n"
        "            bisect.bisect_left(starts, 2, lo=1, key=lambda n: n + 1), bisect.bisect_right(starts, x=3, hi=min(2, len(starts))))\n"
    )
    check_source(source, "f", [(line,) for line in LINES[:30]], {"bisect": bisect})
