"""Unpacking in displays (``[*a, b]``, ``(*a, b)``, ``{*a, b}``, ``{**defaults, **opts}``) and slice
stores (``xs[a:b] = items``, ``xs[::2] = items``, ``xs[a:b] += items``, ``del xs[a:b]``) in
``anyproc.script`` and anyscript source: the same results and errors as CPython on real text,
the same order of evaluation, and both front ends alike."""

from __future__ import annotations

import anyproc
from conftest import corpus_lines
from test_formatting import check_all, check_printed_source, check_source, outcome
from test_print import check_random_programs, printed

LINES = corpus_lines(300)
EDGE_LINES = ["", "one", "a b", "x y z w v", "é ü ß", "a a a a a a a a"]

DEFAULTS = {"lower": True, "strip": ",.", "min_len": 2}


def merged_options(line):
    words = line.split()
    opts = {"min_len": len(words) % 4, **DEFAULTS, "source": words[0] if words else None}
    later = {**opts, **{w: i for i, w in enumerate(words[:3])}, "lower": False}
    return [opts, later, {**{}}, {**dict(zip(words, words[1:]))}]


def joined_sequences(line):
    words = line.split()
    head, tail = words[:2], words[2:]
    cased = [*tail, *head, "<end>"]
    pair = (*head, len(words))
    chars = [*line[:5], *"|", *(w.upper() for w in words[:2])]
    vocab = {*words, *"ab", "zz"}
    return [cased, pair, chars, sorted(vocab), (*map(len, words[:3]),), [*range(len(head))]]


def unpacked_assignment(line):
    words = line.split()
    row = *words[:3], len(line)
    first, *rest = *words, "-"
    return row, first, rest


def bad_list_unpack(line):
    return [*line.split(), *len(line)]


def bad_dict_unpack(line):
    return {**DEFAULTS, **line.split()}


def bad_set_item(line):
    return {*line.split(), line.split()}


def windowed_edit(line):
    words = line.split()
    out = list(words)
    out[1:3] = [w.upper() for w in words[1:3]]
    out[len(out):] = ["<eos>"]
    out[:0] = ["<bos>"]
    del out[2:4]
    out[-3:] += ["!"]
    out[::2] = [w[::-1] for w in out[::2]]
    del out[::3]
    return out


def slice_replaces_with_any_iterable(line):
    words = line.split()
    out = list(words)
    out[:2] = line[:3]
    out[-1:] = {w: 1 for w in words[:2]}
    out[1:1] = tuple(len(w) for w in words[:3])
    out[:] = out + out[:1]
    return out


def wrong_extended_size(line):
    words = line.split()
    words[::2] = ["x"]
    return words


def store_into_str(line):
    line[1:2] = "x"
    return line


def delete_from_tuple(line):
    words = tuple(line.split())
    del words[:1]
    return words


def slice_of_dict(line):
    counts = {w: len(w) for w in line.split()}
    counts[0:1] = [1]
    return counts


def bad_slice_index(line):
    words = line.split()
    words[len(words) / 2:] = []
    return words


def not_iterable_value(line):
    words = line.split()
    words[1:2] = len(words)
    return words


FUNCTIONS = [merged_options, joined_sequences, unpacked_assignment, bad_list_unpack, bad_dict_unpack, bad_set_item,
             windowed_edit, slice_replaces_with_any_iterable, wrong_extended_size, store_into_str, delete_from_tuple,
             slice_of_dict, bad_slice_index, not_iterable_value]


def test_unpacking_and_slice_stores_match_cpython():
    cases = [(t,) for t in LINES + EDGE_LINES]
    for fn in FUNCTIONS:
        check_all(fn, cases)


def set_display_orders(keys, gone):
    # Ints whose hashes collide in a small table: where each lands shows how it was added. A
    # `*set` is merged as set.update merges it (CPython's SET_UPDATE), not item by item.
    s = set()
    for k in keys:
        s.add(k)
    for k in gone:
        s.discard(k)
    return list({*s}), list({0, *s}), list({*s, 8, *keys})


def test_set_displays_iterate_in_cpythons_order():
    import random

    rng = random.Random(1717)
    pool = [0, 1, 2, 8, 16, 24, 32, 40, 64, 3, 11, 19, 27]
    cases = []
    for _ in range(500):
        keys = [rng.choice(pool) for _ in range(rng.randrange(1, 9))]
        cases.append((keys, rng.sample(keys, rng.randrange(0, len(keys)))))
    check_all(set_display_orders, cases)


def test_printed_source_parses_back():
    check_printed_source(FUNCTIONS, [(t,) for t in LINES[:30] + EDGE_LINES])


def order_of_steps(words):
    log = []

    def note(x):
        log.append(x)
        return x

    try:
        out = [note(1), *note(words), note(2), *note(3), note(4)]
    except TypeError as e:
        log.append(str(e))
        out = None
    xs = [0, 1, 2, 3]
    try:
        xs[note(1):note(2)] = note(5)
    except TypeError as e:
        log.append(str(e))
    try:
        d = {note("a"): 1, **note(words), note("b"): note(2), **note(None)}
    except TypeError as e:
        log.append(str(e))
        d = None
    return log, out, d, xs


def test_steps_run_in_cpythons_order():
    # The items after a failing `*` are not evaluated, the value of a slice store is evaluated
    # before the slice: the log shows CPython's order.
    for words in (["a", "b"], {"k": 1}, "xy", 5):
        assert outcome(anyproc.script(order_of_steps), words) == outcome(order_of_steps, words)


def test_text_front_end():
    source = (
        "def f(words):\n"
        "    xs = [*words, 'x']\n"
        "    xs[1:2] = words[:1] * 3\n"
        "    del xs[::4]\n"
        "    opts = {**{'a': 1}, 'b': len(xs), **{'a': 2}}\n"
        "    return xs, (*words[:2],), {*words[:2], 'q'} == {'q', *words[:2]}, opts\n"
    )
    check_source(source, "f", [(line.split(),) for line in LINES[:50] + EDGE_LINES])


def _random_program(rng):
    """A function of ``words`` that builds displays with unpacking and stores into slices,
    with values that are iterable or not and bounds in and out of range."""
    iterables = ["words", "words[:2]", "[]", "'ab'", "(1, 2)", "range(3)", "{'k': 1}", "(w for w in words[:2])",
                 "5", "None", "lens", "{3, 4}"]
    mappings = ["{'a': 1}", "{}", "d", "{w: 0 for w in words}", "5", "[('a', 1)]", "words"]
    plains = ["1", "'z'", "len(words)", "words[0] if words else 'x'", "lens[:1]"]
    # A generator expression is a value only where a call or display takes all its items.
    stored = [i for i in iterables if not i.startswith("(w")]
    bounds = ["", "0", "1", "-1", "2", "10", "-10", "len(xs)", "None"]
    steps = ["", "", "1", "2", "-1", "-2", "3"]
    lines = ["def f(words):", "    lens = [len(w) for w in words]", "    d = {'b': 2}", "    xs = list(words)",
             "    out = []"]
    for _ in range(rng.randrange(1, 6)):
        # Each step in a `try`, so that the steps after a failing one run too; the message is kept.
        step = []
        kind = rng.randrange(6)
        if kind == 0:
            items = [("*" + rng.choice(iterables)) if rng.random() < 0.6 else rng.choice(plains)
                     for _ in range(rng.randrange(1, 4))]
            opener, closer = rng.choice([("[", "]"), ("(", ",)"), ("{", "}")])
            display = f"{opener}{', '.join(items)}{closer}"
            # A set is printed sorted by repr: its order is CPython's only for what both hash alike.
            step.append(f"out.append(sorted({display}, key=repr))" if opener == "{"
                        else f"out.append({display})")
        elif kind == 1:
            entries = [("**" + rng.choice(mappings)) if rng.random() < 0.6 else f"{rng.choice(plains)}: {rng.choice(plains)}"
                       for _ in range(rng.randrange(1, 4))]
            step.append(f"out.append({{{', '.join(entries)}}})")
        else:
            lo, hi, st = rng.choice(bounds), rng.choice(bounds), rng.choice(steps)
            where = f"xs[{lo}:{hi}:{st}]" if st else f"xs[{lo}:{hi}]"
            if kind in (2, 3):
                step.append(f"{where} = {rng.choice(stored)}")
            elif kind == 4:
                step.append(f"del {where}")
            else:
                step.append(f"{where} += {rng.choice(stored)}")
            step.append("out.append(list(xs))")
        lines.append("    try:")
        lines.extend(f"        {x}" for x in step)
        lines.append("    except (TypeError, ValueError) as e:")
        lines.append("        out.append(str(e))")
    lines.append("    return out")
    return "\n".join(lines) + "\n"


def test_random_programs_equal_cpython():
    check_random_programs(_random_program, 1701, 400, max_words=6)


def test_printed_function_is_unchanged_by_a_round_trip():
    f = anyproc.script(windowed_edit)
    assert "out[1:3] = " in f.source and "del out[::3]" in f.source
    g = anyproc.script(merged_options)
    assert "**DEFAULTS" in g.source and "DEFAULTS = {" in g.source
    for line in LINES[:10]:
        assert printed(anyproc.script_source(g.source, g.sources[0][0]), line) == printed(merged_options, line)
