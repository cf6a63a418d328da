"""``functools.lru_cache`` and ``functools.cache`` in ``anyproc.script``: GPT-2's cached
byte table, memoised recursion (edit distance between words), and a bounded cache over the
corpus's word stream whose hits, misses and evictions are CPython's (seen through the identity
of the lists it returns), errors included."""

from __future__ import annotations

import functools
from functools import cache, lru_cache

import anyproc
from conftest import corpus_lines
from test_formatting import check_all

LINES = corpus_lines(150) + ["", "a", "héllo wörld 😀", "the the the"]


@lru_cache()
def bytes_to_unicode():
    # GPT-2's encoder.py, decorated as it is there.
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    n = 0
    for b in range(2 ** 8):
        if b not in bs:
            bs.append(b)
            cs.append(2 ** 8 + n)
            n += 1
    return dict(zip(bs, [chr(n) for n in cs]))


def byte_level(line):
    table = bytes_to_unicode()
    return ["".join(table[b] for b in w.encode("utf-8")) for w in line.split()], bytes_to_unicode() is table


@functools.lru_cache(maxsize=None)
def edit_distance(a, b, i, j):
    # Levenshtein distance of a[:i] and b[:j], memoised on the four arguments.
    if i == 0 or j == 0:
        return i + j
    return min(edit_distance(a, b, i - 1, j) + 1, edit_distance(a, b, i, j - 1) + 1,
               edit_distance(a, b, i - 1, j - 1) + (a[i - 1] != b[j - 1]))


def nearest_pairs(line):
    words = line.lower().split()[:6]
    return [(a, b, edit_distance(a, b, len(a), len(b))) for a, b in zip(words, words[1:])]


@lru_cache(maxsize=8)
def pieces(word):
    return [word[:3], word[3:]]


@cache
def shape(word):
    return ["X" if c.isupper() else "x" if c.islower() else "d" if c.isdigit() else c for c in word]


def hits(line):
    # Which calls were served from the cache: the same list object as that word's last result.
    last = {}
    seen = []
    for w in line.split() * 2:
        got = pieces(w)
        seen.append(w in last and last[w] is got)
        last[w] = got
        shape(w)
    return seen, [shape(w) is shape(w) for w in line.split()[:5]]


@lru_cache(maxsize=16, typed=True)
def typed_key(x):
    return [x]


@lru_cache(maxsize=0)
def uncached(x):
    return [x]


@lru_cache
def reciprocal(x):
    return 1 / x


def keys_and_errors(n):
    out = [typed_key(n) is typed_key(n), typed_key(1) is typed_key(1.0), typed_key(1) is typed_key(True),
           uncached(n) is uncached(n), uncached([n]) == [[n]], pieces("ab") is pieces("ab")]
    for call in (lambda: pieces([n]), lambda: reciprocal(n), lambda: typed_key({n: 1})):
        try:
            out.append(call())
        except (TypeError, ZeroDivisionError) as e:
            out.append(f"{type(e).__name__}: {e}")
    return out


def test_gpt2_byte_table_and_memoised_recursion_on_real_text():
    check_all(byte_level, [(line,) for line in LINES])
    check_all(nearest_pairs, [(line,) for line in LINES])


def test_hits_and_evictions_are_cpythons():
    # One scripted function runs every line in turn, as CPython's cache sees them: one cache.
    ours = anyproc.script(hits)
    pieces.cache_clear()
    shape.cache_clear()
    assert [ours(line) for line in LINES] == [hits(line) for line in LINES]


def test_keys_typed_uncached_and_errors():
    check_all(keys_and_errors, [(n,) for n in (0, 1, 2, 1.0, True, "a")])


def test_a_cached_function_as_the_entry():
    ours = anyproc.script(edit_distance)
    for a, b in [("kitten", "sitting"), ("", "abc"), ("flaw", "lawn")]:
        assert ours(a, b, len(a), len(b)) == edit_distance(a, b, len(a), len(b))
