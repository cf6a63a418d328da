"""Plain Python functions that use sets, compared with CPython by ``test_sets.py`` through
``anyproc.script`` and through anyscript source. Sets of ints iterate in CPython's order, which
anyproc reproduces, so these return them as lists; sets of str iterate in an order that changes
with each CPython process, so those come back as sets or sorted."""

STOP = {"the", "a", "an", "of", "and", "to", "in", "is", "it", "that"}


def vocabulary(text):
    words = text.lower().split()
    seen = set()
    firsts = []
    for w in words:
        if w not in seen:
            seen.add(w)
            firsts.append(w)
    content = {w for w in words if w not in STOP and w.isalpha()}
    return [firsts, len(seen), sorted(content), seen - content - STOP, len(seen & STOP), bool(content)]


def char_sets(text):
    letters = set(text)
    vowels = set("aeiouAEIOU")
    lower = {c for c in text if c.islower()}
    return [sorted(letters & vowels), sorted(letters - vowels)[:5], letters <= set(text.upper() + text),
            sorted(letters ^ lower)[:8], vowels.isdisjoint(text), lower.issubset(letters),
            letters.issuperset("xyz"), len(letters | vowels), "e" in letters, sorted(set(text.split()))[:4]]


def lengths(text):
    # Sets of ints iterate in CPython's table order: these lists must match element for element.
    sizes = {len(w) for w in text.split()}
    codes = set()
    for c in text[:40]:
        codes.add(ord(c))
    odd = {n for n in codes if n % 2}
    evens = codes - odd
    odd.discard(101)
    both = sizes | {100, 1000, 64, 7}
    both -= {7}
    return [list(sizes), list(codes), list(odd), list(evens), list(both), list(sizes & codes),
            list(codes ^ {32, 33, 1000}), sorted(codes)[:3], list(set(range(len(text) % 20)))]


def literal_layouts(text):
    n = len(text)
    folded = {16, 0, 32, 1, 2}
    built = {n * 0 + 16, 0, 32, 1, 2}
    negatives = {-1, -2, -3, 2**61, 2**62 + 3}
    floats = {1.5, 2.0, 2, 0.25, -0.0, 8.0}
    return [list(folded), list(built), list(negatives), list(floats), [list(t) for t in {(1, 2), (2, 1), (n, n)}]]


def set_methods(text):
    ids = [ord(c) % 50 for c in text[:60]]
    s = set(ids)
    t = set(ids[::3])
    out = [list(s.union(t, [200, 300])), list(s.intersection(t, range(20))), list(s.difference(t, [1, 2, 3])),
           list(s.symmetric_difference(range(10))), list(s.union()), list(s.intersection()), s.issubset(range(50)),
           s.issuperset(t), t.isdisjoint([1000])]
    u = s.copy()
    u.update([77, 78], {79})
    u.intersection_update(range(80))
    u.difference_update({1, 2}, [3])
    u.symmetric_difference_update({5, 500})
    popped = []
    while len(u) > 3:
        popped.append(u.pop())
    u.clear()
    u.add(7)
    return out + [popped, list(u)]


def in_place_operators(text):
    codes = {ord(c) for c in text}
    alias = codes
    codes |= {1, 2, 3}
    codes &= set(range(0, 300, 3)) | {1, 2}
    codes -= {3}
    codes ^= {6, 9, 400}
    return [list(alias), alias is codes, list(codes), codes == alias, codes != {1}]


def comparisons(text):
    a = set(text)
    b = set(text[: len(text) // 2])
    return [b <= a, b < a, a >= b, a > b, a == set(text), a != b, {1, 2} == {2, 1}, {1} == [1], {1.0} == {1},
            set() == set(), set() < {0}]


def dedupe_ids(text):
    ids = [len(w) * 7 + ord(w[0]) for w in text.split() if w]
    unique = list(set(ids))
    return [unique, sorted(unique), len(unique) == len(ids), list({i: 0 for i in ids})]


def loops_and_builtins(text):
    codes = {ord(c) % 97 for c in text}
    total = 0
    for x in codes:
        total = total * 3 + x
    return [total, sum(codes), min(codes, default=-1), max(codes, default=-1), sorted(codes, reverse=True)[:4],
            [list(p) for p in enumerate(codes)][:3], any(x > 90 for x in codes), all(x >= 0 for x in codes),
            [list(p) for p in zip(codes, "abc")], [x for x in codes if x % 5 == 0], {x % 3 for x in codes},
            str({1, 2}) + repr(set()) + f"{ {3} }", len(set()), list(tuple(codes))[:2]]


def set_errors(text):
    s = set(text.split())
    kind = len(text) % 9
    if kind == 0:
        s.remove("\x00 not there")
    if kind == 1:
        set().pop()
    if kind == 2:
        for w in s:
            s.add(w + "!")
    if kind == 3:
        return s < list(s)
    if kind == 4:
        s.add({})
    if kind == 5:
        return {1} + {2}
    if kind == 6:
        return s[0]
    if kind == 7:
        t = {1}
        t |= [2]
        return t
    return {frozen for frozen in [s]}
