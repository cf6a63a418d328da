"""Float literals reach the interpreter as the same doubles CPython's compiler makes, through
both front ends: the Python front end hands them over in JSON, whose parser must round
correctly (17 significant digits were 1 ULP off for about one literal in ten before
serde_json's ``float_roundtrip``)."""

from __future__ import annotations

import linecache
import random
import struct

import anyproc


def random_doubles(n, seed):
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        (x,) = struct.unpack("<d", rng.getrandbits(64).to_bytes(8, "little"))
        if x == x and abs(x) != float("inf"):
            out.append(x)
    # Decimal-looking ones too, the kind a script writes (thresholds, scales).
    out += [rng.randrange(10**17) / 10 ** rng.randrange(18) for _ in range(n)]
    return out


def test_literals_through_both_front_ends_are_cpythons_doubles():
    values = random_doubles(1000, 2911)
    body = ", ".join(repr(v) for v in values)
    source = f"def f():\n    return [{body}]\n"
    # Registered with linecache, so that `inspect` finds the source as it finds a file's.
    filename = "<float literals>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace = {}
    exec(compile(source, filename, "exec"), namespace)  # noqa: S102 - a test's own source
    expected = namespace["f"]()
    assert expected == values
    # The text front end parses the literals itself; the Python front end lowers the function's
    # `ast` to JSON.
    assert anyproc.script_source(source, "f")() == expected
    assert anyproc.script(namespace["f"])() == expected
