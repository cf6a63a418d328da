"""Variables shared between a function and the functions nested in it (cells): ``nonlocal``,
and nested functions that read a variable the enclosing function assigns again after the
``def`` (in a loop, later in its body, in an ``except`` clause). Each is compared with CPython:
results on real text, the order in which assignments are seen, and the errors, through both
front ends (Python's ``ast`` and anyscript source)."""

from __future__ import annotations

import re
import threading

import anyproc
import pytest
from conftest import corpus_lines
from test_formatting import check_all, check_printed_source, check_source, outcome

WORD = re.compile(r"\w+")
SPACE = re.compile(r"\s+")


def lex(text):
    """A lexer whose helper moves the shared position."""
    pos = 0
    tokens = []

    def take(pattern):
        nonlocal pos
        m = pattern.match(text, pos)
        if m is None:
            return None
        pos = m.end()
        return m.group(0)

    while pos < len(text):
        if take(SPACE) is not None:
            continue
        word = take(WORD)
        if word is not None:
            tokens.append(word.lower())
            continue
        tokens.append(text[pos])
        pos += 1
    return tokens, pos


def mask_numbers(text):
    """``re.sub`` with a callback that numbers what it replaces."""
    count = 0
    seen = {}

    def repl(m):
        nonlocal count
        count += 1
        seen[m.group(0)] = seen.get(m.group(0), 0) + 1
        return f"<num{count}>"

    masked = re.sub(r"\d+", repl, text)
    return masked, count, seen


def build_vocab(lines, limit=50):
    """Ids handed out by a nested function; the last word added read after the loop."""
    vocab = {}
    next_id = 0
    last = None

    def add(word):
        nonlocal next_id, last
        if word in vocab or next_id >= limit:
            return False
        vocab[word] = next_id
        next_id += 1
        last = word
        return True

    added = sum(1 for line in lines for w in line.lower().split() if add(w))
    return added, next_id, last, sorted(vocab.items())[:10]


def late_binding(text):
    """Functions made in a loop read the loop variable when they are called, as Python's do."""
    getters = []
    for word in text.split():
        def get():
            return word.upper()
        getters.append(get)
    early = [g() for g in getters]
    word = "changed"
    return early, [g() for g in getters]


def read_after_reassignment(text):
    """A helper reads a running total that the loop around its calls changes."""
    total = 0

    def show(w):
        return f"{w}:{total}"

    out = []
    for w in text.split():
        total += len(w)
        out.append(show(w))
    return out, total


def two_levels(text):
    """A function nested two deep assigns the outermost one's variable."""
    longest = ""

    def scan():
        def consider(w):
            nonlocal longest
            if len(w) > len(longest):
                longest = w
        for w in text.split():
            consider(w)

    scan()
    return longest


def shadowing(text):
    """A comprehension's variable of the same name is not the shared one."""
    w = "outer"

    def g():
        return [w for w in text.split()][:2] + [w]

    w = "rebound"
    return g(), [w for w in "ab"], w


def generator_state(text):
    """A generator function nested in the function counts through a shared variable."""
    consumed = 0

    def words():
        nonlocal consumed
        for w in text.split():
            consumed += 1
            yield w

    first = [w for _, w in zip(range(3), words())]
    return first, consumed


def lambda_reads_shared(text):
    """A lambda reading a variable a nested function assigns is given its cell."""
    n = 0

    def bump():
        nonlocal n
        n += 1

    score = lambda w: len(w) * n  # noqa: E731 - a lambda kept in a variable is the case
    out = []
    for w in text.split()[:5]:
        bump()
        out.append(score(w))
    return out


def except_name(text):
    """A nested function made in an ``except`` clause reads its name, which the clause unbinds."""
    try:
        int(text)
        return "int"
    except ValueError as e:
        def message():
            return str(e)
        inside = message()
    try:
        after = message()
    except NameError as error:
        after = str(error)
    return inside, after


def free_before_assignment(text):
    def g():
        return later

    first = outcome_of(g)
    later = text[:3]
    return first, g()


def outcome_of(fn):
    try:
        return fn()
    except NameError as e:
        return str(e)


def make_counter(start):
    count = start

    def counter(step=1):
        nonlocal count
        count += step
        return count

    return counter


FUNCTIONS = [lex, mask_numbers, late_binding, read_after_reassignment, two_levels, shadowing, generator_state,
             lambda_reads_shared, except_name]
TEXTS = ["", "One.", "the cat sat on the mat 42 times, then 7 more", "a b c d e f g", "ünï cödé. x 12 -3 ¼", "12345"]


def test_shared_variables_equal_cpython_on_real_text():
    lines = corpus_lines(200)
    for fn in FUNCTIONS:
        check_all(fn, [(t,) for t in TEXTS + lines[:80]])
    check_all(build_vocab, [(lines,), (lines[:3], 5), ([],)])


def test_a_free_variable_read_before_assignment_is_cpythons_name_error():
    check_all(free_before_assignment, [(t,) for t in TEXTS])
    assert "cannot access free variable 'later'" in anyproc.script(free_before_assignment)("abcdef")[0]


def test_a_closure_keeps_its_state_across_calls_from_python():
    ours, theirs = anyproc.script(make_counter)(10), make_counter(10)
    assert callable(ours)
    assert [ours(), ours(5), ours()] == [theirs(), theirs(5), theirs()] == [11, 16, 17]
    # Two closures of two calls have a cell each.
    other = anyproc.script(make_counter)(0)
    assert (other(), ours()) == (1, 18)


def test_a_closure_called_from_threads_loses_no_update_of_its_own():
    # Each thread has a counter of its own (its own cell): no two threads share a cell here, so
    # every count is exact, as CPython's are.
    make = anyproc.script(make_counter)
    counters = [make(0) for _ in range(4)]

    def work(c):
        for _ in range(2000):
            c()

    threads = [threading.Thread(target=work, args=(c,)) for c in counters]
    [t.start() for t in threads]
    [t.join() for t in threads]
    assert [c(0) for c in counters] == [2000] * 4


def test_printed_source_and_the_text_front_end():
    check_printed_source([lex, mask_numbers, late_binding, two_levels, generator_state], [(t,) for t in TEXTS])
    source = """
def f(n):
    x = 0
    def outer():
        def inner():
            nonlocal x
            x += n
        inner()
        inner()
    outer()
    def g():
        nonlocal n
        n, old = n * 2, n
        return old
    return x, g(), g(), n
"""
    check_source(source, "f", [(1,), (3,)])


ERRORS = [
    ("def f(n):\n    def g():\n        nonlocal zz\n        zz = 1\n    return 0\n", 3, "no binding for nonlocal 'zz' found"),
    ("def f(n):\n    def g(a):\n        nonlocal a\n    return 0\n", 3, "name 'a' is parameter and nonlocal"),
    ("def f(n):\n    nonlocal n\n    return 0\n", 2, "name 'n' is parameter and nonlocal"),
    ("def f(n):\n    nonlocal q\n    return 0\n", 2, "no binding for nonlocal 'q' found"),
]


@pytest.mark.parametrize("source, line, message", ERRORS)
def test_cpythons_compile_errors_name_the_line(source, line, message):
    with pytest.raises(SyntaxError) as caught:
        compile(source, "<test>", "exec")
    assert caught.value.msg == message and caught.value.lineno == line
    with pytest.raises(SyntaxError, match=f"line {line}: {re.escape(message)}"):
        anyproc.script_source(source, "f")


def test_nonlocal_of_the_python_function_around_the_script_is_refused_naming_it():
    def outer():
        n = 0

        def bump(x):
            nonlocal n
            n += x
            return n

        return bump

    with pytest.raises(SyntaxError, match=r"does not support 'nonlocal n' in the scripted function itself") as caught:
        anyproc.script(outer())
    assert caught.value.lineno == outer.__code__.co_firstlineno + 4
