"""``heapq`` (``heappush``, ``heappop``, ``heapify``, ``heapreplace``, ``heappushpop``,
``nsmallest``, ``nlargest``) and ``itertools.groupby`` in ``anyproc.script``: CPython's results
and errors on real text (top words of a line, runs of characters, words grouped by length),
the heap lists themselves item for item (CPython's sift order), random programs of heap calls,
NaNs, items that do not compare, and every argument error."""

from __future__ import annotations

import heapq
import itertools
import random
from collections import Counter
from heapq import heapify, heappop, heappush, nlargest, nsmallest
from itertools import groupby

from conftest import corpus_lines
from test_formatting import check_all, check_source, outcome

LINES = corpus_lines(300) + ["", "a", "a a a b b c", "b a b a"]
NAN = float("nan")


# ---- heapq on real text


def top_words(line):
    # What a keyword extractor does: the most and least frequent words, ties in first-seen order.
    counts = Counter(line.lower().split())
    return (nlargest(3, counts, key=counts.get), nsmallest(4, counts.items(), key=lambda kv: kv[1]),
            heapq.nlargest(5, line.split(), key=len), nsmallest(2, line.split()), nlargest(1, line.split(), key=len),
            heapq.nsmallest(10 ** 6, line.split()[:5], key=str.lower), nlargest(2, line), nsmallest(3, set(line)))


def heap_of_words(line):
    # A heap of (length, word) entries built by pushes, its list as CPython's holds it, then
    # drained in order.
    heap = []
    for w in line.split():
        heappush(heap, (len(w), w))
    layout = list(heap)
    drained = [heappop(heap) for _ in range(len(heap))]
    return layout, drained


def heap_of_lengths(line):
    lengths = [len(w) for w in line.split()]
    heapify(lengths)
    layout = list(lengths)
    out = []
    for w in line.split()[:8]:
        out.append(heapq.heappushpop(lengths, len(w) + 1))
        if lengths:
            out.append(heapq.heapreplace(lengths, len(w) // 2))
    return layout, out, lengths


def merge_sorted_runs(line):
    # A k-way merge of the sorted word lists of each third of the line, by a heap of cursors.
    words = line.split()
    runs = [sorted(words[i::3]) for i in range(3)]
    heap = [(run[0], i, 0) for i, run in enumerate(runs) if run]
    heapify(heap)
    out = []
    while heap:
        w, i, j = heappop(heap)
        out.append(w)
        if j + 1 < len(runs[i]):
            heappush(heap, (runs[i][j + 1], i, j + 1))
    return out


def test_heapq_on_real_text_equals_cpython():
    for fn in (top_words, heap_of_words, heap_of_lengths, merge_sorted_runs):
        check_all(fn, [(line,) for line in LINES])


# ---- heapq: random programs of heap calls


def run_heap_program(items, steps):
    # Each step is (call, value); the outcome of each call is recorded, errors included, and
    # the heap's list after it, so that a difference in where an item lands shows at once.
    heap = list(items)
    out = []
    for call, value in steps:
        try:
            if call == 0:
                out.append(heappush(heap, value))
            elif call == 1:
                out.append(heappop(heap))
            elif call == 2:
                out.append(heapify(heap))
            elif call == 3:
                out.append(heapq.heapreplace(heap, value))
            elif call == 4:
                out.append(heapq.heappushpop(heap, value))
            elif call == 5:
                out.append(nsmallest(value, heap))
            elif call == 6:
                out.append(nlargest(value, heap))
            elif call == 7:
                out.append(nsmallest(value, heap, key=abs))
            else:
                out.append(nlargest(value, heap, key=abs))
        except (TypeError, IndexError) as e:
            out.append((type(e).__name__, str(e)))
        out.append(list(heap))
    # As text: a NaN equals no other NaN object, so the two sides' lists could not compare.
    return str(out)


def random_value(rng):
    kind = rng.random()
    if kind < 0.6:
        return rng.randint(-20, 20)
    if kind < 0.8:
        return rng.choice([0.5, -1.5, 2.0, 3.25, NAN, float("inf")])
    if kind < 0.95:
        return rng.choice([True, False, 1, 0])
    return "x"


def test_random_heap_programs_equal_cpython():
    rng = random.Random(6)
    cases = []
    for _ in range(400):
        items = [random_value(rng) for _ in range(rng.randint(0, 12))]
        steps = [(rng.randint(0, 8), random_value(rng)) for _ in range(rng.randint(1, 12))]
        cases.append((items, steps))
    check_all(run_heap_program, cases)


def heapify_large(items):
    items = list(items)  # each side heapifies its own copy
    try:
        heapify(items)
        return items
    except TypeError as e:
        return str(e), items


def test_heapify_of_a_large_list_takes_cpythons_cache_friendly_order():
    # Past 2,500 items CPython visits the nodes in another order: the heap is the same, but a
    # comparison that fails stops it elsewhere, with the operands in another order.
    rng = random.Random(7)
    cases = []
    for n in (2501, 2600, 4095, 4096, 5000, 9000):
        items = [rng.randint(0, 1000) for _ in range(n)]
        cases.append((list(items),))
        for at in (0, 1, n // 3, n // 2 - 1, n // 2, n - 1):
            bad = list(items)
            bad[at] = "x"
            cases.append((bad,))
    check_all(heapify_large, cases)


# ---- nsmallest / nlargest: their shortcuts and their edge cases


def select_cases(n, xs):
    out = []
    for call in range(12):
        try:
            if call == 0:
                out.append(nsmallest(n, xs))
            elif call == 1:
                out.append(nsmallest(n, xs, key=abs))
            elif call == 2:
                out.append(nsmallest(n, iter_of(xs)))
            elif call == 3:
                out.append(nsmallest(n, tuple(xs), key=None))
            elif call == 4:
                out.append(nsmallest(n=n, iterable=xs, key=lambda x: -x))
            elif call == 5:
                out.append(nsmallest(n, xs, 5))
            elif call == 6:
                out.append(nlargest(n, xs))
            elif call == 7:
                out.append(nlargest(n, xs, key=abs))
            elif call == 8:
                out.append(nlargest(n, iter_of(xs)))
            elif call == 9:
                out.append(heapq.nlargest(n, tuple(xs), key=None))
            elif call == 10:
                out.append(nlargest(n=n, iterable=xs, key=lambda x: -x))
            else:
                out.append(nlargest(n, xs, 5))
        except (TypeError, ValueError) as e:
            out.append((type(e).__name__, str(e)))
    return str(out)


def iter_of(xs):
    for x in xs:
        yield x


def test_nsmallest_and_nlargest_equal_cpython():
    lists = [[], [3], [3, 1, 2], [5, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5], [NAN, 3.0, 1.0, NAN, 0.0], [1, 1.0, True, 0, -0.0],
             [2, -3, 3, -2, 1], [1, "a", 2], list(range(40, 0, -3)), [0.5, -0.5, NAN, 2, -2]]
    ns = [0, -1, 1, 1.0, True, False, 2, 3, 5, 11, 100, 2.5, 5.5, "a", None]
    check_all(select_cases, [(n, xs) for n in ns for xs in lists])


def select_other_iterables(line):
    words = line.split()
    lengths = {w: len(w) for w in words}
    return (nsmallest(2, lengths), nlargest(3, lengths, key=lengths.get), nsmallest(4, line.encode()),
            nlargest(2, iter_of(words), key=len), nsmallest(1, iter_of(words)), nlargest(0, iter_of(words)),
            nsmallest(2, Counter(words).items()))


def test_nsmallest_and_nlargest_take_any_iterable():
    check_all(select_other_iterables, [(line,) for line in LINES[:60]])


def select_errors(line):
    words = line.split()
    calls = [lambda: nsmallest(2), lambda: nlargest(), lambda: nsmallest(2, words, len, 4),
             lambda: nsmallest(2, words, foo=1), lambda: nlargest(2, 5), lambda: nsmallest(1, 5),
             lambda: nsmallest(2, [3, 1, 2], 4), lambda: nsmallest(3, [3, "a", 2, 1]), lambda: nsmallest(2, [3, "a", 2, 1]),
             lambda: nlargest(2, [3, "a", 2, 1]), lambda: nlargest(1, [3, "a"]), lambda: nsmallest(0, 5),
             lambda: nsmallest(-1, words, key=5), lambda: nsmallest(1, [], key=5), lambda: nlargest(2, iter_of(words), key="k"),
             lambda: nsmallest(2.0, iter_of(words)), lambda: nlargest("2", iter_of(words)), lambda: nsmallest(2, words, key=len, n=3)]
    out = []
    for call in calls:
        try:
            out.append(call())
        except (TypeError, ValueError) as e:
            out.append((type(e).__name__, str(e)))
    return out


def test_selection_errors_equal_cpython():
    check_all(select_errors, [(line,) for line in LINES[:20]])


# ---- the heap functions' argument errors


def heap_errors(line):
    words = line.split()
    calls = [lambda: heappush(words), lambda: heappush(words, 1, 2), lambda: heappop(), lambda: heappop(words, words),
             lambda: heappop([]), lambda: heappop(tuple(words)), lambda: heapify(line), lambda: heapify(words, words),
             lambda: heapq.heapreplace([], 1), lambda: heapq.heappushpop([], 1), lambda: heapq.heappushpop((), 1),
             lambda: heappush(None, 1), lambda: heapq.heapreplace(words), lambda: heapq.heapreplace("ab", 1),
             lambda: heappush([1, "a", 2], 2), lambda: heappush(words, 1), lambda: heapq.heappushpop(words, 3),
             lambda: heapq.heappushpop([3], "a"), lambda: heapify([[1], [1, "a"], [1, 2]])]
    out = []
    for call in calls:
        try:
            out.append(call())
        except (TypeError, IndexError) as e:
            out.append((type(e).__name__, str(e)))
    return out, words


def test_heap_argument_errors_equal_cpython():
    check_all(heap_errors, [(line,) for line in LINES[:20]])


def heap_by_spread(items, x):
    heap = list(items)
    args = [heap, x]
    heappush(*args)
    return heap, heapq.heappushpop(*args), heap


def test_a_heap_holding_itself_neither_deadlocks_nor_crashes():
    # Comparing items reads the heap's list; its items are out of it while they are compared.
    def grow(n):
        heap = [[0]]
        heap.append(heap)
        try:
            heappush(heap, [n])
        except Exception as e:  # noqa: BLE001 - the outcome is compared, not its class
            return type(e).__name__
        return len(heap)
    import anyproc
    assert anyproc.script(grow)(1) in (3, "TypeError", "RecursionError", "RuntimeError")
    check_all(heap_by_spread, [([3, 1], 0), ([], "a"), ([1, 2], 1.5)])


# ---- itertools.groupby


def runs_of_chars(line):
    return [(c, len(list(g))) for c, g in groupby(line)]


def words_by_length(line):
    out = {}
    for n, group in groupby(sorted(line.split(), key=len), key=len):
        out[n] = list(group)
    return out


def grouped_flags(line):
    # Runs of words that are capitalised or not, by keyword; runs of numbers equal as numbers.
    flags = [(k, g) for k, g in itertools.groupby(line.split(), key=lambda w: w[:1].isupper())]
    numbers = [(k, list(g)) for k, g in groupby([1, 1.0, True, 2, 2.0, 0, False, -0.0, 0.5])]
    return flags, numbers, list(groupby([])), [k for k, _ in groupby(line.encode())], [k for k, _ in groupby({"a": 1, "b": 2})]


def groupby_errors(line):
    calls = [lambda: groupby(), lambda: groupby(1), lambda: groupby(line, len, 3), lambda: groupby(line, key=5),
             lambda: groupby("", key=5), lambda: groupby(line, foo=1), lambda: groupby(iterable=line, key=None)]
    out = []
    for call in calls:
        try:
            out.append([(k, list(g)) for k, g in call()])
        except TypeError as e:
            out.append(str(e))
    return out


def test_groupby_equals_cpython():
    for fn in (runs_of_chars, words_by_length, groupby_errors):
        check_all(fn, [(line,) for line in LINES])


def test_groupby_runs_are_lists_of_their_items():
    # CPython's runs are iterators, each emptied by the next step of the outer one (so the
    # runs of a listed groupby are empty there); anyscript's are the lists of their items,
    # which code that reads each run before the next cannot tell apart.
    import anyproc
    line = "The cat Sat on The mat"
    flags, numbers, empty, byte_keys, dict_keys = anyproc.script(grouped_flags)(line)
    want = grouped_flags(line)
    assert [k for k, _ in want[0]] == [k for k, _ in flags] == [True, False, True, False, True, False]
    assert flags == [(k, list(g)) for k, g in groupby(line.split(), key=lambda w: w[:1].isupper())]
    assert (numbers, empty, byte_keys, dict_keys) == want[1:]


def test_heapq_and_groupby_in_the_text_front_end():
    source = (
        "def f(line):\n"
        "    heap = []\n"
        "    for w in line.split():\n"
        "        heapq.heappush(heap, (-len(w), w))\n"
        "    top = [heapq.heappop(heap)[1] for _ in range(min(3, len(heap)))]\n"
        "    runs = [(k, len(list(g))) for k, g in itertools.groupby(sorted(line.lower()))]\n"
        "    return top, heap, runs, heapq.nlargest(2, line.split(), key=len), heapq.nsmallest(n=2, iterable=line.split())\n"
    )
    check_source(source, "f", [(line,) for line in LINES[:40]], {"heapq": heapq, "itertools": itertools})


def test_outcome_helper_compares_messages():
    # The comparisons above would pass vacuously if both sides raised alike for a wrong reason.
    assert outcome(heappop, [])[0] == "IndexError"
    assert outcome(lambda: nsmallest(2, [1, "a", 0]), )[0] == "TypeError"
