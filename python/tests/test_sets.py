"""Sets in ``anyproc.script`` and in anyscript source: results, iteration order and errors equal
CPython 3.11's (the functions are in ``set_cases.py``); random sequences of set operations over
ints lay out and iterate their sets exactly as CPython's do; sets cross the Python boundary both
ways."""

from __future__ import annotations

import json
import random

import anyproc
import pytest
import set_cases
from conftest import corpus_lines, run_cli
from test_formatting import check_all, check_printed_source, outcome

CASES = ["vocabulary", "char_sets", "lengths", "literal_layouts", "set_methods", "in_place_operators",
         "comparisons", "dedupe_ids", "loops_and_builtins", "set_errors"]
EXTRA = ["", "a", "the the a", "abcdefghijklmnopqrstuvwxyz", "é ü ø", "Debian 12 x", "x" * 9, "1 2 3 4 5 6 7 8"]


@pytest.mark.parametrize("name", CASES)
def test_sets_match_cpython(name, lines):
    check_all(getattr(set_cases, name), [(t,) for t in lines[:300] + EXTRA])


def test_printed_source_parses_back(lines):
    check_printed_source([getattr(set_cases, name) for name in CASES], [(t,) for t in lines[:40] + EXTRA])


# ---- random operation sequences: the table algorithm against CPython's


def random_key(rng: random.Random) -> str:
    """An int (or float) literal that collides often in small tables, or hashes near 2**61."""
    r = rng.random()
    if r < 0.4:
        return str(rng.randrange(-5, 40))
    if r < 0.7:
        return str(rng.randrange(0, 2000))
    if r < 0.8:
        # 2**61 - 1 (hashes to 0), 2**61, 2**62 + 3, the ends of i64 (the lowest as a difference:
        # its magnitude is no i64 literal), and -1, which hashes as -2 does.
        return rng.choice(["2305843009213693951", "2305843009213693952", "4611686018427387907",
                           "(-9223372036854775807 - 1)", "9223372036854775807", "-1", "-2"])
    if r < 0.9:
        return repr(rng.randrange(0, 100) / 4)
    return str(rng.randrange(0, 10**12))


def random_program(rng: random.Random, steps: int = 40) -> str:
    """A function that runs random set operations on three sets and records each set's order."""
    def keys():
        return "[" + ", ".join(random_key(rng) for _ in range(rng.randrange(0, 30))) + "]"

    lines = ["def f(x):", "    s = [set(), set(), set()]", "    out = []"]
    for _ in range(steps):
        a, b, c = rng.randrange(3), rng.randrange(3), rng.randrange(3)
        op = rng.choice([
            f"s[{a}].add({random_key(rng)})", f"s[{a}].discard({random_key(rng)})",
            f"s[{a}].discard(min(s[{a}], default=0))",
            f"out.append(s[{a}].pop() if s[{a}] else None)", f"s[{a}].update({keys()})",
            f"s[{a}].update(s[{b}])", f"s[{a}].update({{k: None for k in {keys()}}})", f"s[{a}] = set({keys()})",
            f"s[{a}] = {{{', '.join(random_key(rng) for _ in range(rng.randrange(1, 9)))}}}",
            f"s[{a}] = s[{b}].copy()", f"s[{c}] = s[{a}] | s[{b}]", f"s[{c}] = s[{a}] & s[{b}]",
            f"s[{c}] = s[{a}] - s[{b}]", f"s[{c}] = s[{a}] ^ s[{b}]", f"s[{a}] &= s[{b}]", f"s[{a}] -= s[{b}]",
            f"s[{a}] ^= s[{b}]", f"s[{a}] |= s[{b}]", f"s[{a}] = s[{b}].intersection({keys()})",
            f"s[{a}] = s[{b}].difference({keys()})", f"s[{a}] = s[{b}].symmetric_difference({keys()})",
            f"s[{a}].clear()", f"s[{a}] = s[{b}].union({keys()}, s[{a}])",
            f"s[{a}] = s[{b}].intersection({keys()}, s[{a}])", f"s[{a}] = s[{b}].difference({keys()}, s[{a}])",
            f"s[{a}] = {{k % 997 for k in s[{b}]}}",
        ])
        lines.append(f"    {op}")
        lines.append("    out.append([list(t) for t in s])")
    lines.append("    return out")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("seed", range(4))
def test_random_set_operations_iterate_in_cpython_order(seed):
    rng = random.Random(seed)
    for _ in range(60):
        source = random_program(rng)
        namespace: dict = {}
        exec(source, namespace)  # noqa: S102 - the program is generated above
        want = outcome(namespace["f"], 0)
        got = outcome(anyproc.script_source(source, "f"), 0)
        assert got == want, source


def constant_display_program(rng: random.Random) -> str:
    """A function that iterates one display of constants (with repeats) where CPython lays it
    out each of its three ways: a loop's or a comprehension's iterable (a frozenset rebuilt
    once), a display of more than two elsewhere (a copy of that) and a shorter one (built)."""
    keys = [random_key(rng) for _ in range(rng.randrange(1, 8))]
    keys += rng.sample(keys, rng.randrange(0, len(keys) + 1))
    rng.shuffle(keys)
    display = "{" + ", ".join(keys) + "}"
    return "\n".join([
        "def f(x):", "    out = []", f"    for k in {display}:", "        out.append(k)",
        f"    return [out, [k for k in {display}], list(k for k in {display}), list({display}),",
        f"            sorted({display}) == sorted(set({display})), list({{{keys[0]}, {keys[-1]}}}),",
        f"            {{k: 1 for k in {display}}}]", ""])


def test_constant_displays_iterate_in_cpython_order():
    rng = random.Random(7)
    for _ in range(600):
        source = constant_display_program(rng)
        namespace: dict = {}
        exec(source, namespace)  # noqa: S102 - the program is generated above
        assert outcome(anyproc.script_source(source, "f"), 0) == outcome(namespace["f"], 0), source


def test_large_sets_grow_as_cpython_grows_them():
    # Past 50,000 keys CPython grows the table by 2x instead of 4x.
    source = ("def f(n):\n    s = set()\n    for i in range(n):\n        s.add(i * 7919 % 1000003)\n"
              "    t = set(range(0, n * 3, 3))\n    return [list(s), list(t), list(s & t)[:1000]]\n")
    namespace: dict = {}
    exec(source, namespace)  # noqa: S102
    assert anyproc.script_source(source, "f")(60000) == namespace["f"](60000)


# ---- the Python boundary


def roundtrip(x):
    return x


def test_sets_cross_the_boundary():
    f = anyproc.script(roundtrip)
    assert f({1, "a", 2.5}) == {1, "a", 2.5}
    assert type(f({1})) is set
    assert f(frozenset({3, 4})) == {3, 4}
    assert f({(1, 2), ("a", (3,))}) == {(1, 2), ("a", (3,))}
    assert f({"k": {1, 2}}) == {"k": {1, 2}}
    assert f({(1, 2): "tuple keys come back as tuples"}) == {(1, 2): "tuple keys come back as tuples"}
    assert f(set()) == set()


def test_a_python_set_is_read_by_scripts():
    @anyproc.script
    def keep(words, stop):
        return [w for w in words if w not in stop]

    assert keep(["the", "cat", "a", "hat"], {"the", "a"}) == ["cat", "hat"]
    assert keep(["x"], frozenset()) == ["x"]


def test_a_frozenset_inside_a_set_stays_one():
    # A frozenset is hashable, so it can be a set's key (test_frozenset.py).
    back = anyproc.script(roundtrip)({frozenset({1})})
    assert back == roundtrip({frozenset({1})})


# ---- globals: one module constant per object


LOG = []


def remember(x):
    LOG.append(x)
    return [len(LOG), set_cases.STOP is set_cases.STOP, x in set_cases.STOP]


def test_a_global_container_is_one_object_made_once():
    f = anyproc.script(remember)
    # The script's own copy of LOG, made when `script` ran, lives as long as the function and
    # is shared by its calls, as a module's global is (Python's LOG is not changed).
    assert [f("a"), f("zz"), f("the")] == [[1, True, True], [2, True, False], [3, True, True]]
    assert LOG == []
    assert "LOG = []" in f.source and "STOP = {" in f.source
    again = anyproc.script_source(f.source, f.sources[0][0])
    assert again("a") == [1, True, True]


def content_words(text):
    return sorted({w for w in text.lower().split() if w not in set_cases.STOP})


def test_a_traced_script_with_a_global_set_runs_in_the_cli(tmp_path, lines):
    scripted = anyproc.script(content_words)
    traced = anyproc.trace(lambda text: {"words": scripted(text)}, "text")
    path = tmp_path / "content.toml"
    traced.save(str(path))
    src = tmp_path / "in.txt"
    src.write_text("\n".join(lines[:40]) + "\n", encoding="utf-8")
    dst = tmp_path / "out.jsonl"
    proc = run_cli(["run", str(path), "--input", str(src), "--output", str(dst)])
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(r)["words"] for r in dst.read_text(encoding="utf-8").splitlines()]
    assert rows == [content_words(t) for t in lines[:40]]


@pytest.fixture(scope="module")
def lines():
    return corpus_lines(400)


def none_among_numbers(b, n):
    items = {9, 1, b, 1}
    more = {None, 5, 3, 17, 2} | set(range(n))
    pairs = {(None, 1), (1, None), 4, (b, n)}
    return list(items), list(more), list(pairs), [x for x in {n, b, n + 8}]


def test_a_set_holding_none_iterates_in_cpythons_order():
    # CPython 3.11 hashes None by its address, whose low bits (all a small set's layout reads)
    # are the same in every process of one build; anyproc takes Python's hash(None) at import.
    # Found by 1,500 differential programs of seed 2801.
    check_all(none_among_numbers, [(None, n) for n in range(12)] + [(7, 3)])
