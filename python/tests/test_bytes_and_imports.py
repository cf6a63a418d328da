"""``bytes`` as a built-in (``bytes(...)``, ``isinstance(x, bytes)``, ``type(x) is bytes``), the reprs
of built-ins and types given as values (``repr(int)``, ``f"{len}"``), and imports at the top of a
function's body (``import re``, ``from collections import Counter``) in ``anyproc.script``:
CPython's results and messages on real text, and what stays refused."""

from __future__ import annotations

import anyproc
import pytest
from conftest import corpus_lines
from test_formatting import check_all, check_printed_source

LINES = corpus_lines(200)
VALUES = ([b"H\xc3\xa9llo w\xc3\xb6rld", b"\xff\xfe", b"", "Plain Text", "", 42, 2.5, None, True, ["a"]]
          + [line.encode("utf-8") for line in LINES[:40]] + LINES[40:80])


def as_text(x):
    # The glue at the front of a tokenizer: bytes decoded, other values made text.
    if isinstance(x, bytes):
        x = x.decode("utf-8", errors="replace")
    elif not isinstance(x, (str, bytes)):
        x = str(x)
    return " ".join(x.lower().split())


def byte_values(x):
    out = [type(x) is bytes, type(x).__name__, isinstance(x, (int, bytes))]
    if isinstance(x, str):
        out += [bytes(x, "utf-8"), bytes(x, "ascii", "ignore"), list(bytes(x[:3], "latin-1", "replace"))]
    if isinstance(x, bytes):
        out += [bytes(x), bytes(list(x[:4])), bytes(len(x) % 5), bytes(x[:2]) + bytes(2)]
    return out


def make(args):
    return bytes(*args)


def loops_over_bytes(line):
    # A byte histogram and a checksum, the loops byte-level preprocessing writes.
    data = line.encode()
    counts = [0] * 256
    for b in data:
        counts[b] += 1
    high = [b for b in data if b >= 128]
    it = iter(data)
    first = next(it, None)
    return ([(i, n) for i, n in enumerate(counts) if n], sum(data) % 65521, high, first, type(it).__name__,
            list(zip(data, line.encode("ascii", "replace")))[:4], max(data, default=-1), sorted(set(data))[:5])


def type_reprs(x):
    return [repr(type(x)), repr(bytes), repr(str), repr(len), f"{sorted}", str(int), repr(type(None)), [max, min]]


def imports_first(line):
    """Docstring first, then the imports."""
    import re
    import unicodedata as ud
    from collections import Counter, defaultdict as dd
    words = re.findall(r"\w+", ud.normalize("NFKC", line.lower()))
    by_length = dd(list)
    for w in words:
        by_length[len(w)].append(w)
    return Counter(words).most_common(3), dict(by_length)


def helper_with_import(words):
    import math
    return [math.floor(math.log(len(w) + 1) * 10) for w in words]


def calls_a_helper_that_imports(line):
    return helper_with_import(line.split())


def nested_import(line):
    def words(text):
        import re
        return re.findall(r"\w+", text)
    return [w.lower() for w in words(line)]


def import_later(line):
    words = line.split()
    import re  # noqa: F401 - refused: not at the top of the body
    return words


def import_and_assign(line):
    import re
    re = line  # refused: the imported name is assigned too
    return re


BYTES_CALLS = [(), (3,), (0,), (-1,), ("ab",), ("ab", "utf-8"), ("é", "ascii", "ignore"), ("é", "latin-1"), ([1, 2],),
               ([256],), ([-1],), (["a"],), ([1.5],), (2.5,), (None,), ({1: 2},), ({3, 1},), (b"x",), (True,),
               (5, "utf-8"), ("a", 5), ("a", None), ("a", "utf-8", 3), ("", "utf-8"), ("",), ((1, 2),), ("a", "b", "c", "d")]


def test_bytes_matches_cpython():
    check_all(as_text, [(x,) for x in VALUES])
    check_all(byte_values, [(x,) for x in VALUES])
    check_all(make, [(list(a),) for a in BYTES_CALLS])
    check_all(loops_over_bytes, [(line,) for line in LINES[:100] + ["", "日本語 ☃ 😀"]])


def test_type_and_builtin_reprs_match_cpython():
    check_all(type_reprs, [(x,) for x in VALUES[:12]])


def test_imports_at_the_top_of_a_body():
    check_all(imports_first, [(t,) for t in LINES + ["", "Ｆｕｌｌ ｗｉｄｔｈ", "a a a b"]])
    check_all(calls_a_helper_that_imports, [(t,) for t in LINES[:50]])
    check_all(nested_import, [(t,) for t in LINES[:50] + [""]])
    check_printed_source([imports_first, as_text, byte_values], [(t,) for t in LINES[:20]])


def test_imports_elsewhere_are_refused():
    with pytest.raises(SyntaxError, match="import statements after the first statements"):
        anyproc.script(import_later)
    with pytest.raises(SyntaxError, match="importing 're', a name the function also assigns"):
        anyproc.script(import_and_assign)


def test_bytes_crosses_as_the_python_type():
    def kind():
        return bytes

    assert anyproc.script(kind)() is bytes
