"""Python's ``collections.deque`` in ``anyproc.script`` and anyscript source: CPython's results
(sliding windows, token packing, every method and operator, ``maxlen``, reprs, the built-ins
over a deque) and errors on real text, and deques crossing to and from Python as themselves."""

from __future__ import annotations

import collections
from collections import deque

import anyproc
from conftest import corpus_lines
from test_formatting import check_all, check_source

LINES = corpus_lines(120) + ["", "a", "a b", "x y z w v u t s r q p o n m"]


def sliding_windows(line, n):
    # The n-word contexts of a line: a deque of maxlen n drops the oldest word by itself.
    window = deque(maxlen=n)
    out = []
    for w in line.split():
        window.append(w)
        if len(window) == n:
            out.append(" ".join(window))
    return out, repr(window), list(window)


def pack_tokens(lines, block):
    # Words packed into blocks of `block` for a language model, drained from the left.
    buffer = deque()
    blocks = []
    for line in lines:
        buffer.extend(line.lower().split())
        while len(buffer) >= block:
            blocks.append([buffer.popleft() for _ in range(block)])
    return len(blocks), blocks[:3], list(buffer)


def every_method(line):
    words = line.split()
    d = collections.deque(words, 6)
    d.appendleft("L")
    d.rotate(2)
    d.extendleft("ab")
    e = d.copy()
    e.reverse()
    out = [repr(d), repr(e), d == e, d != e, d == list(d), d < e, d >= e, d.count("a"), repr(d + e), repr(d * 2),
           repr(2 * e), type(d).__name__, isinstance(d, deque), isinstance(d, dict), len(d)]
    d += words[:3]
    out.append(repr(d))
    if d:
        del d[0]
        d[0] = "z"
        d[-1] = "y"
        out += [repr(d), d[1] if len(d) > 1 else None, d.index(d[-1])]
        d.remove(d[0])
    if len(d) < 6:
        d.insert(1, "ins")
        d.insert(-100, "front")
    d.rotate(-3)
    d *= 2
    out += [repr(d), d.pop() if d else None, d.popleft() if d else None, bool(d), bool(deque())]
    d.clear()
    out += [repr(d), repr(deque(words, maxlen=0)), repr(deque(range(5))), str(deque())]
    loop = deque()
    loop.append(loop)
    out.append(repr(loop))
    loop.clear()  # the cycle broken: anyproc counts references and collects no cycles
    return out


def builtins_over(line):
    d = deque(line.split())
    out = [sorted(d), list(d), tuple(d), len(set(d)), list(enumerate(d))[:2], list(zip(d, d))[:2], list(reversed(d)),
           min(d) if d else None, max(d, key=len) if d else None, sum(len(w) for w in d), "the" in d,
           [w for w in d if len(w) > 3], list(map(len, d)), " ".join(d), list(dict.fromkeys(d)), d.count("the")]
    first, *rest = d if d else ["x"]
    out.append((first, rest[:3]))
    return out


def deque_errors(case):
    d = deque([1, 2, 3], maxlen=3)
    calls = [
        lambda: deque(maxlen=-1),
        lambda: deque(maxlen=1.5),
        lambda: deque(case),
        lambda: deque().pop(),
        lambda: deque().popleft(),
        lambda: d[5],
        lambda: d["a"],
        lambda: d[1:2],
        lambda: d.index(9),
        lambda: d.remove(9),
        lambda: d.rotate(1.5),
        lambda: {d: 1},
        lambda: d + [1],
        lambda: [1] + d,
        lambda: d < [1],
        lambda: d.insert(0, 5),
        lambda: d.append(),
        lambda: d.index(),
        lambda: d.insert(1),
        lambda: d.rotate(1, 2),
        lambda: d.pop(1),
        lambda: d * "x",
        lambda: d.index(2, "a"),
    ]
    out = []
    for call in calls:
        try:
            out.append(repr(call()))
        except (TypeError, ValueError, IndexError, KeyError) as e:
            out.append(f"{type(e).__name__}: {e}")
    try:
        del d[7]
    except IndexError as e:
        out.append(str(e))
    return out, repr(d)


def test_windows_and_packing_equal_cpython_on_real_text():
    check_all(sliding_windows, [(line, n) for line in LINES for n in (1, 3)])
    check_all(pack_tokens, [(LINES, 16), (LINES, 1), (LINES[:2], 500), ([], 3)])


def test_methods_operators_and_builtins_equal_cpython():
    check_all(every_method, [(line,) for line in LINES])
    check_all(builtins_over, [(line,) for line in LINES])


def test_errors_equal_cpython():
    check_all(deque_errors, [(5,), (None,)])


def test_deques_cross_the_boundary_as_themselves():
    def grow(d):
        d.append("new")
        return d, deque("abc", maxlen=2)

    given = deque([1, 2], maxlen=3)
    ours = anyproc.script(grow)(given)
    assert ours == grow(deque([1, 2], maxlen=3))
    assert type(ours[0]) is deque and ours[0].maxlen == 3 and ours[1].maxlen == 2
    # As with a list, the script changed its copy; the caller's deque is as it was.
    assert given == deque([1, 2])
    made = anyproc.get_global_func("collections.deque")("xyz", 2)
    assert type(made) is deque and made == deque("yz") and made.maxlen == 2


def test_the_text_front_end():
    source = """
def contexts(line):
    window = collections.deque(maxlen=2)
    out = []
    for w in line.split():
        window.append(w)
        out.append(tuple(window))
    window.rotate()
    return out, window, repr(window)
"""
    check_source(source, "contexts", [(line,) for line in LINES[:40]], {"collections": collections})
