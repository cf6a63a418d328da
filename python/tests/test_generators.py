"""Generator functions (``yield``, ``yield from``) in ``anyproc.script`` and anyscript source:
the body runs as items are asked for, as CPython's does, which shows in what each consumer
gets (a loop that stops early, ``zip`` over one generator twice, ``in``, an error raised
after some items), on real text and against CPython."""

from __future__ import annotations

from collections import Counter

import anyproc
import pytest
from conftest import corpus_lines
from test_formatting import check_all, check_printed_source, outcome

# ---- generator functions of the kind text code has


def ngrams(words, n):
    for i in range(len(words) - n + 1):
        yield tuple(words[i:i + n])


def tokens(lines):
    for line in lines:
        for word in line.split():
            word = word.strip(".,;:!?()\"'").lower()
            if word:
                yield word


def sentences(text):
    start = 0
    for i, c in enumerate(text):
        if c in ".!?":
            piece = text[start:i + 1].strip()
            if piece:
                yield piece
            start = i + 1
    rest = text[start:].strip()
    if rest:
        yield rest


def chars_then_mark(s):
    yield from s
    yield


def windows(xs, size=3, step=2):
    i = 0
    while i + size <= len(xs):
        yield xs[i:i + size]
        i += step
    return len(xs)  # a generator's return value ends it; the consumer never sees it


def halves(n):
    yield n
    yield 10 // n


# ---- consumers


def bigram_counts(lines):
    return Counter(ngrams(list(tokens(lines)), 2)).most_common(10)


def consumers(text):
    words = text.split()
    out = [list(ngrams(words, 2))[:5], sorted(set(tokens([text])))[:10], list(sentences(text))]
    out.append("".join(c for c in chars_then_mark(text[:8]) if c))
    out += [sum(len(w) for w in tokens([text])), max(tokens([text]), default=None), any(ngrams(words, 3))]
    out += [list(enumerate(windows(words))), dict(zip(tokens([text]), range(3))), tuple(windows(words, 2, 3))]
    out.append([w.upper() for w in tokens([text]) if len(w) > 3][:5])
    return out


def lazy_steps(text):
    words = text.split()
    g = ngrams(words, 1)
    first = []
    for gram in g:  # a loop that stops early leaves the rest for the next consumer
        first.append(gram)
        if len(first) == 2:
            break
    rest = list(g)
    again = list(g)  # an ended generator gives nothing
    g2 = tokens([text])
    paired = list(zip(g2, g2))  # one generator stepped twice per row
    found = "the" in tokens([text]), ("x",) in ngrams(words, 1)
    a, *b = windows([1, 2, 3, 4, 5, 6, 7])
    return first, rest, again, paired, found, a, b, type(g).__name__


def error_after_items(n):
    got = []
    try:
        for x in halves(n):
            got.append(x)
    except ZeroDivisionError as e:
        got.append("ZeroDivisionError: " + str(e))
    return got


def iterators(text):
    # iter() and next(): one place in the items, shared by a loop and the next() calls in it.
    words = text.split()
    it = iter(words)
    pairs = [(w, next(it, "")) for w in it]
    first_key = next(iter({w: 1 for w in words}), None)
    g = tokens([text])
    head = [next(g, None), next(g, None)]
    try:
        next(iter([]))
        stopped = False
    except StopIteration:
        stopped = True
    return pairs, first_key, head, list(g)[:5], stopped, list(zip(iter(words), iter(words[1:])))[:3]


def stop_inside():
    yield 1
    next(iter(()))  # PEP 479: a RuntimeError once it leaves the generator


TEXTS = ["", "One.", "the cat sat on the mat. The end! Or is it? no", "a b c d e f g", "ünï cödé. x"]


def test_generators_equal_cpython_on_real_text():
    lines = corpus_lines(300)
    check_all(bigram_counts, [(lines,), (lines[:3],), ([],)])
    for fn in [consumers, lazy_steps]:
        check_all(fn, [(t,) for t in TEXTS + lines[:80]])
    check_all(error_after_items, [(0,), (5,), (-3,)])
    check_all(iterators, [(t,) for t in TEXTS + lines[:40]])
    assert outcome(anyproc.script(stop_inside)().__next__) == ("ok", 1)
    ours, theirs = anyproc.script(stop_inside)(), stop_inside()
    next(ours), next(theirs)
    assert outcome(next, ours)[0] == outcome(next, theirs)[0] == "RuntimeError"


def test_a_generator_reaches_python_as_an_iterator_that_runs_the_body_per_item():
    g = anyproc.script(windows)(list(range(7)))
    assert isinstance(g, anyproc.Generator) and iter(g) is g
    assert next(g) == [0, 1, 2]
    assert list(g) == [[2, 3, 4], [4, 5, 6]] and list(g) == []
    with pytest.raises(StopIteration):
        next(g)
    # An error raised in the body reaches the item that ran it; the generator is then over.
    h = anyproc.script(halves)(0)
    assert next(h) == 0
    with pytest.raises(ZeroDivisionError, match=f"line {halves.__code__.co_firstlineno + 2}"):
        next(h)
    assert list(h) == []
    # Passed back into a script, it is the same generator, at the same place.
    g = anyproc.script(ngrams)("a b c d".split(), 2)
    next(g)

    def rest(gen):
        return list(gen)

    assert anyproc.script(rest)(g) == [("b", "c"), ("c", "d")]


def test_printed_source_and_the_text_front_end():
    # The printed module holds every generator function the two call.
    check_printed_source([consumers, lazy_steps], [(t,) for t in TEXTS])
    source = """
def evens(xs):
    for x in xs:
        if x % 2 == 0:
            yield x
    yield from [100, 200]

def main(xs):
    return list(evens(xs)), sum(evens(xs))
"""
    assert anyproc.script_source(source, "main")([1, 2, 3, 4]) == ([2, 4, 100, 200], 306)


@pytest.mark.parametrize("source, message", [
    ("def f(x):\n    y = yield x\n    return y\n", "'yield' as an expression"),
    ("def f(x):\n    try:\n        pass\n    finally:\n        yield x\n", "'yield' inside 'try' in a 'finally:' block"),
    # Python runs these when an unfinished generator is closed; anyscript would not.
    ("def f(x):\n    try:\n        yield x\n    finally:\n        pass\n", "'yield' inside 'try' with a 'finally:' block"),
    ("def f(x):\n    try:\n        yield x\n    except:\n        pass\n", "catches BaseException or GeneratorExit"),
    ("def f(x):\n    try:\n        yield x\n    except BaseException:\n        pass\n", "catches BaseException"),
    # The error such a clause keeps for its bare `raise` would not survive the suspension.
    ("def f(x):\n    try:\n        int(x)\n    except ValueError:\n        yield x\n        raise\n",
     "in a clause that raises again with a bare 'raise'"),
])
def test_what_is_refused_names_the_line(source, message):
    with pytest.raises(SyntaxError, match=message):
        anyproc.script_source(source, "f")


def test_python_functions_with_unsupported_yields_are_refused():
    def uses_value(xs):
        total = yield xs
        return total

    with pytest.raises(SyntaxError, match="yield as an expression"):
        anyproc.script(uses_value)


def call_until(words, stop, which):
    it = iter(words)
    try:
        if which == 0:
            return [list(iter(lambda: next(it), stop)), list(it)]
        if which == 1:
            c = iter(lambda: next(it), stop)
            return [next(c, "end"), next(c, "end"), list(c), next(c, "end"), type(c).__name__]
        if which == 2:
            return list(iter(len, stop))
        if which == 3:
            return iter(words, stop)
        if which == 4:
            return [w for w in iter(lambda: next(it).upper(), stop.upper())]
        return iter(lambda: 1, stop, 3)
    except (TypeError, StopIteration) as e:
        return [type(e).__name__, str(e)]


def test_iter_of_a_callable_and_a_sentinel_equals_cpython():
    # `iter(f, sentinel)`: f() until it returns the sentinel; a StopIteration out of f ends it.
    lines = [line.split()[:8] for line in corpus_lines(30)[::6] if line.split()]
    cases = [(ws, stop, which) for ws in lines for stop in [ws[len(ws) // 2], "absent"] for which in range(6)]
    check_all(call_until, cases)


def not_iterable_at_creation(x, which):
    try:
        if which == 0:
            g = (y for y in x)
        elif which == 1:
            g = map(str, x)
        else:
            g = filter(None, x)
        made = "made"
    except TypeError as e:
        return ["TypeError", str(e)]
    return [made, list(g)]


def test_a_generator_expression_checks_its_iterable_when_made():
    # CPython calls iter() on the first iterable where the expression is, before any item.
    check_all(not_iterable_at_creation, [(x, w) for x in [5, None, 2.5, "ab", [1, 2], {"k": 1}, b"z"]
                                         for w in range(3)])


# ---- `yield` inside `try`: allowed where suspending loses nothing


def parsed_numbers(lines):
    """Skips what does not parse, as a loader of records does."""
    for line in lines:
        for word in line.split():
            try:
                yield int(word.strip(".,;:()"))
            except ValueError:
                continue
            else:
                yield "ok"


def records(lines):
    """A clause that yields a marker for what failed, with its message."""
    for i, line in enumerate(lines):
        try:
            head, rest = line.split(" ", 1)
            yield (i, head.lower(), len(rest))
        except ValueError as e:
            yield (i, "error", str(e))


def nested_tries(text):
    for w in text.split():
        try:
            try:
                yield w[3]
            except IndexError:
                yield int(w)
        except ValueError as e:
            yield f"not a number: {e}"


def raising_after_resume(text):
    # The error comes after the generator resumed inside the `try`: its clause still catches it.
    for w in text.split():
        try:
            yield w
            yield {"a": 1}[w]
        except KeyError as e:
            yield ("missing", str(e))


def all_nested_tries(text):
    return list(nested_tries(text))


def all_raising_after_resume(text):
    return list(raising_after_resume(text))


def all_parsed_numbers(lines):
    return list(parsed_numbers(lines))


def all_records(lines):
    return list(records(lines))


def test_yield_inside_try_equals_cpython_on_real_text():
    lines = corpus_lines(200)
    texts = ["", "a", "12 ab 345 cdef 7x 9", "one two three four", "ünï 42 (7) x.", "a b c"]
    for fn in (all_nested_tries, all_raising_after_resume):
        check_all(fn, [(t,) for t in texts + lines[:40]])
    check_all(all_parsed_numbers, [(lines,), (texts,), ([],)])
    check_all(all_records, [(lines[:80],), (texts,)])
    # Stopped early, resumed from Python item by item.
    ours = anyproc.script(records)
    for n in (1, 3, 10):
        got = [x for _, x in zip(range(n), ours(lines[:30]))]
        assert got == [x for _, x in zip(range(n), records(lines[:30]))]
