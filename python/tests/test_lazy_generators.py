"""Generator expressions (and ``map``/``filter``) as values in ``anyproc.script``: kept in a variable,
given to ``Counter``, ``next``, ``enumerate``, ``zip`` or a function of the module, they run lazily
as CPython's do: the same items, in the same interleaving with the code around them, the same
errors at the same item, and the refusal of one that reads a variable changed while it lives."""

from __future__ import annotations

from collections import Counter

import anyproc
import pytest
from conftest import corpus_lines
from test_formatting import check_all, check_printed_source, check_source

LINES = corpus_lines(300)
EDGE = ["", "a", "a a a", "x 1 y 22 z 333", "é ü ß 日本"]
STOP = {"der", "die", "das", "und", "the", "a", "of"}


def counted(line):
    return Counter(w.lower().strip(".,()") for w in line.split() if w.lower() not in STOP).most_common(4)


def first_long(line, n=6):
    # The first match and nothing after it is looked at: `next` stops the generator there.
    return next((w for w in line.split() if len(w) > n), None)


def first_per_length(line):
    words = line.split()
    out = []
    for n in range(1, 8):
        out.append(next((w for w in words if len(w) == n), "-"))
    return out


def kept_and_resumed(line):
    words = (w.upper() for w in line.split())
    head = []
    for w in words:
        head.append(w)
        if len(head) == 2:
            break
    return head, next(words, None), list(words), list(words)


def interleaved(line):
    # The log shows when each item is made: between the loop's steps, as in CPython.
    log = []

    def note(w):
        log.append("make " + w)
        return w

    for w in (note(w) for w in line.split()[:4]):
        log.append("use " + w)
    return log


def pairs_and_positions(line):
    words = line.split()
    lengths = (len(w) for w in words)
    return list(enumerate(w[:1] for w in words)), list(zip(words, lengths)), dict((w, len(w)) for w in words[:3])


def fails_at_an_item(line):
    ratios = (10 // (len(w) - 1) for w in line.split())
    got = []
    try:
        for r in ratios:
            got.append(r)
    except ZeroDivisionError as e:
        got.append(str(e))
    return got, list(ratios)


def maps_and_filters(line):
    upper = map(str.upper, line.split())
    kept = filter(None, (w.strip("()") for w in line.split()))
    first = next(upper, None)
    return first, list(upper), list(kept), list(map(len, filter(str.isalpha, line.split())))


def given_to_a_helper(line):
    return longest(w for w in line.split() if w.isalpha())


def longest(words):
    best = ""
    for w in words:
        if len(w) > len(best):
            best = w
    return best


def nested_clauses(line):
    words = line.split()[:5]
    g = ((a, b) for a in words for b in words if a < b if len(a) == len(b))
    return sorted(g), sum(1 for _ in (c for w in words for c in w if c.isdigit()))


def kept_map_of_a_local_function(line):
    # map() reads `f` once, when it is called: a later `f = ...` would not change it.
    f = str.title
    titled = map(f, line.split())
    out = list(xs for xs in [line.split()[:3]])[0]
    out[1:2] = (w.upper() for w in line.split()[:2])
    return list(titled), out


def returned(line):
    return (w for w in line.split() if w)


FUNCTIONS = [counted, first_long, first_per_length, kept_and_resumed, interleaved, pairs_and_positions,
             fails_at_an_item, maps_and_filters, given_to_a_helper, nested_clauses, kept_map_of_a_local_function]


@pytest.mark.parametrize("fn", FUNCTIONS, ids=[f.__name__ for f in FUNCTIONS])
def test_lazy_generators_match_cpython(fn):
    check_all(fn, [(t,) for t in LINES + EDGE])


def test_a_returned_generator_is_lazy_in_python():
    g = anyproc.script(returned)("a b c")
    assert next(g) == "a" and list(g) == ["b", "c"]
    assert "returned.<locals>.<genexpr>" in repr(anyproc.script(returned)("x"))


def test_printed_source_runs_the_same():
    check_printed_source(FUNCTIONS, [(t,) for t in LINES[:20] + EDGE])


def changed_later(line):
    n = 1
    g = (w for w in line.split() if len(w) > n)
    n = 5
    return list(g)


def changed_in_a_loop(line):
    out = []
    for n in range(3):
        out.append((w for w in line.split() if len(w) > n))
    return [list(g) for g in out]


@pytest.mark.parametrize("fn", [changed_later, changed_in_a_loop])
def test_a_generator_reading_a_variable_changed_while_it_lives_is_refused(fn):
    # CPython reads `n` at each item; anyscript would give the generator the value it had when
    # made: refused, with the line.
    with pytest.raises(SyntaxError, match="a generator expression that reads the enclosing function's variable 'n'"):
        anyproc.script(fn)


def test_text_front_end():
    source = (
        "def f(line):\n"
        "    g = (w.lower() for w in line.split())\n"
        "    first = next(g, None)\n"
        "    return first, list(g), next((c for c in line if c.isdigit()), '')\n"
    )
    check_source(source, "f", [(line,) for line in LINES[:50] + EDGE])


def _random_program(rng):
    """A function of ``words`` that makes generator expressions (and maps and filters) as values
    and takes their items in random ways: partly by next(), partly by a loop that breaks, the
    rest by list(); elements and conditions that may raise at some item."""
    elements = ["w", "w.upper()", "len(w)", "w[0]", "w * 2", "10 // (len(w) - 2)", "(w, len(w))", "w.index('e')"]
    conditions = ["", "", " if w", " if len(w) > 3", " if w.isalpha()", " if 'a' in w", " if 1 / (len(w) - 1)"]
    # No set of strs: its order follows the str hash, which CPython salts per process.
    sources = ["words", "words[:3]", "words[::-1]", "sorted(words)", "[w for w in words if w]", "sorted(set(words))"]
    makers = [
        lambda: f"({rng.choice(elements)} for w in {rng.choice(sources)}{rng.choice(conditions)})",
        lambda: f"map(str.lower, {rng.choice(sources)})",
        lambda: f"filter(None, {rng.choice(sources)})",
        lambda: f"(a + b for a in {rng.choice(sources)} for b in 'xy'{rng.choice(['', ' if a < b'])})",
    ]
    lines = ["def f(words):", "    out = []"]
    for k in range(rng.randrange(1, 4)):
        g = f"g{k}"
        lines.append(f"    {g} = {rng.choice(makers)()}")
        lines.append("    try:")
        for _ in range(rng.randrange(1, 4)):
            take = rng.randrange(4)
            if take == 0:
                lines.append(f"        out.append(next({g}, '-'))")
            elif take == 1:
                lines.append(f"        for x in {g}:")
                lines.append("            out.append(x)")
                lines.append(f"            if len(out) > {rng.randrange(1, 6)}:")
                lines.append("                break")
            elif take == 2:
                lines.append(f"        out.append(list({g}))")
            else:
                lines.append(f"        out.append(sorted({g}, key=repr)[:2])")
        lines.append("    except (ValueError, ZeroDivisionError, TypeError) as e:")
        lines.append("        out.append(str(e))")
    lines.append("    return out")
    return "\n".join(lines) + "\n"


def test_random_programs_equal_cpython():
    from test_print import check_random_programs

    check_random_programs(_random_program, 1711, 400, max_words=6)
