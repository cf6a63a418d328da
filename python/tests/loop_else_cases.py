"""Functions with ``for ... else`` and ``while ... else`` that ``test_loop_else.py`` runs under
CPython and under anyproc.script on real text: the ``else:`` block runs when the loop ends
without ``break`` (``continue``, ``return``, nested loops and ``try`` included)."""
# ruff: noqa


def first_long_word(text):
    for w in text.split():
        if len(w) > 7:
            found = w
            break
    else:
        found = None
    return found


def index_of_digit(text):
    i = 0
    while i < len(text):
        if text[i].isdigit():
            break
        i += 1
    else:
        return -1
    return i


def continue_then_else(text):
    seen = 0
    for w in text.lower().split():
        if not w.isalpha():
            continue
        seen += 1
        if w == "the":
            return seen
    else:
        seen = -seen
    return seen


def inner_break_keeps_outer_else(text):
    marks = []
    for w in text.split()[:6]:
        for c in w:
            if c in "aeiou":
                marks.append(c)
                break
        else:
            marks.append("-")
    else:
        marks.append("done")
    return marks


def loop_inside_else(text):
    n = 0
    for c in text[:3]:
        n += 1
    else:
        for c in text:
            if c == " ":
                break
            n += 1
        else:
            n = -n
    return n


def empty_loop_runs_else(text):
    for c in "":
        return "body"
    else:
        return "else " + text[:3]


def while_else_halving(text):
    n = len(text)
    k = 0
    while n > 1:
        n //= 2
        k += 1
        if k > 5 and "e" in text:
            break
    else:
        k += 100
    return k


def try_in_loop_with_else(text):
    for w in text.split()[:4]:
        try:
            n = int(w)
        except ValueError:
            continue
        break
    else:
        n = None
    return n


def range_loop_else(text):
    for i in range(len(text)):
        if text[i] == "q":
            break
    else:
        i = -1
    return i


def else_reads_the_loop_variable(text):
    # No words: `w` is unbound in the else block, an UnboundLocalError as in CPython.
    for w in text.split():
        pass
    else:
        return w


def items_loop_else(text):
    counts = {}
    for c in text:
        counts[c] = counts.get(c, 0) + 1
    for k, v in counts.items():
        if v > 9:
            break
    else:
        k = None
    return k


def break_in_else_leaves_outer_loop(text):
    rounds = 0
    while rounds < 20:
        rounds += 1
        for c in text[:rounds]:
            if c == "z":
                break
        else:
            if rounds >= 3:
                break
    return rounds
