"""The interpreter's fast paths give what the general path gives, which is CPython's: int
arithmetic and comparisons at the edges of 64 bits (beyond them anyscript raises OverflowError
where CPython makes a big int), ``x is None`` against values of every type, ``w in d``, ``d.get(w)`` and ``d[w] = x`` with
text and other keys, on every kind of dict, unhashable keys included."""

from __future__ import annotations

from collections import Counter, defaultdict

from conftest import corpus_lines
from test_formatting import check_all

EDGES = [0, 1, -1, 2, 7, 2**31, 2**32 + 5, 2**62, 2**63 - 1, -(2**63), -(2**63) + 1, 3037000499, 3037000500]


def fit(n):
    # anyscript's ints are 64-bit: beyond them it raises OverflowError where CPython goes on.
    return n if -9223372036854775808 <= n <= 9223372036854775807 else "overflow"


def arith(x, y, k):
    try:
        if k == 0:
            return fit(x + y)
        if k == 1:
            return fit(x - y)
        if k == 2:
            return fit(x * y)
        n = x
        n -= y
        if fit(n) != n:
            return "overflow"
        n += 1
        if fit(n) != n:
            return "overflow"
        n *= 3
        return fit(n)
    except OverflowError:
        return "overflow"


def int_ops(a, b):
    out = []
    for x in [a, b, a + 0 * b]:
        for y in [b, a, 1]:
            out.append([arith(x, y, k) for k in range(4)])
            out.append((x < y, x <= y, x == y, x != y, x > y, x >= y))
    return out


def int_loop(a, b):
    # A loop whose number grows to the edge of 64 bits, and back.
    n, steps = a, 0
    try:
        while n < b and steps < 70:
            m = n * 2 + 1
            if fit(m) != m:
                return "stopped", steps
            n = m
            steps += 1
    except OverflowError:
        return "stopped", steps
    while n > a and steps < 80:
        n = n - b
        steps += 1
    return n, steps


def identity(line):
    words = line.split()
    values = [None, 0, 0.0, "", [], {}, (), False, True, line[:1], words, len(words), 1.5, line[:2].encode(), set()]
    out = []
    for v in values:
        out.append((v is None, None is v, v is not None, None is not v, v is v))
    d = {w: None for w in words[::2]}
    for w in words:
        v = d.get(w)
        out.append((v is None, d.get(w, 0) is None, w is None))
    return out


def lookups(line):
    words = line.split()
    d = {w: i for i, w in enumerate(words[::3])}
    counts = Counter(words)
    groups = defaultdict(list)
    for w in words[::2]:
        groups[w[:1]].append(w)
    out = []
    for w in words + ["", "a", line[:1]]:
        out.append((w in d, w not in d, d.get(w), d.get(w, -1), counts.get(w), counts.get(w, 0),
                    w[:1] in groups, groups.get(w[:1], "none"), w in counts))
        d[w] = len(w)
        counts[w[:2]] = counts[w[:2]] + 1
        groups[w[-1:]] = [w]
    out.append((d, counts, groups))
    mixed = {1: "one", 2.0: "two", (1, "a"): "pair", None: "none", True: "true", "1": "str one"}
    for k in [1, 1.0, 2, 2.0, (1, "a"), None, True, "1", "2", 0]:
        out.append((k in mixed, mixed.get(k), mixed.get(k, "missing")))
        mixed[k] = k
    out.append(mixed)
    return out


def unhashable(line):
    words = line.split()
    d = {w: 1 for w in words}
    out = []
    for k in [words, {}, set(), (1, [2])]:
        for step in range(4):
            try:
                if step == 0:
                    out.append(k in d)
                elif step == 1:
                    out.append(d.get(k))
                elif step == 2:
                    out.append(Counter(words).get(k, 0))
                else:
                    d[k] = 2
            except TypeError as e:
                out.append(str(e))
    for step in range(2):
        try:
            out.append(d.get() if step == 0 else d.get("a", 1, 2))
        except TypeError as e:
            out.append(str(e))
    return out


def test_int_arithmetic_and_comparisons_at_64_bit_edges():
    check_all(int_ops, [(a, b) for a in EDGES for b in EDGES])
    check_all(int_loop, [(a, b) for a in EDGES[:8] for b in [2**62, 2**63 - 1, 10, -5]])


def test_is_none_on_every_type_of_value():
    check_all(identity, [(line,) for line in corpus_lines(150) + ["", "a"]])


def test_membership_and_get_on_dicts_counters_and_defaultdicts():
    check_all(lookups, [(line,) for line in corpus_lines(150) + ["", "a a a"]])


def test_unhashable_keys_and_wrong_counts_keep_cpythons_errors():
    check_all(unhashable, [(line,) for line in corpus_lines(20) + [""]])
