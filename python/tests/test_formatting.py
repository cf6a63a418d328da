"""String formatting through ``anyproc.script`` gives CPython's text and CPython's errors:
``format()`` and the format-spec mini-language, ``str.format``, printf-style ``%``,
f-strings with specs and conversions, and ``ascii()``.

Each test runs the same function under CPython and anyproc on the same inputs (thousands of
specs and format strings drawn at random from the grammar, plus malformed ones) and compares
results, or exception types and messages.
"""

from __future__ import annotations

import random
import re

import pytest

import anyproc
from conftest import corpus_lines

# ---- the functions both interpreters run


def fmt(value, spec):
    return format(value, spec)


def fmt_default(value):
    return format(value)


def percent(template, args):
    return template % args


def str_format3(template, a, b, c):
    return template.format(a, b, c)


def to_ascii(value):
    return ascii(value)


def f_string_fields(x, width, precision):
    return [f"{x!r:>{width}}", f"[{x!s:^{width}.{precision}}]", f"{x!a:*<{width}}", f"{x!r}{x!a}"]


def f_string_numbers(n, x):
    return [f"{n:+05d}|{n:#x}|{n:,}|{n:_b}|{n:>8}|{n:<8}|{n:^9}|{n:=+8}",
            f"{x:.3f}|{x:10.2e}|{x:g}|{x:%}|{x:,.2f}|{x:z.1f}|{x:#.0f}|{x:.4}",
            f"{n / 7:.5g} {x * n:08.3f} {n:{'>' if n > 0 else '<'}{abs(n) % 9}}"]


def report(words):
    total = 0
    rows = []
    for i, w in enumerate(words):
        total += len(w)
        rows.append("%3d. %-12s|%5.1f%%|{:>4}|".format(len(w)) % (i, w[:12], 100 * len(w) / (total or 1)))
        rows.append(f"{w!r:>16.8}|{len(w):03}|{w.upper():.3}")
    return rows


# ---- running both sides

# One location per frame: a key function's error is located in it and in its caller.
PREFIX = re.compile(r"^(function '[^']*', line \d+: )+")


def outcome(fn, *args):
    """``("ok", result)``, or ``(exception type, message)`` with anyproc's location prefix dropped."""
    try:
        return ("ok", fn(*args))
    except Exception as e:  # noqa: BLE001 - both sides' exceptions are compared
        if isinstance(e, KeyError):
            # A KeyError holds the key (anyproc's too, with where it was raised as a note).
            message = repr(e.args[0]) if e.args else ""
        else:
            message = str(e)
        return (type(e).__name__, PREFIX.sub("", message))


def check_all(py, cases, limit_failures=12):
    ours = anyproc.script(py)
    failures = []
    for args in cases:
        want, got = outcome(py, *args), outcome(ours, *args)
        if want != got:
            failures.append(f"{py.__name__}{args!r}: CPython {want!r}, anyproc {got!r}")
    assert not failures, f"{len(failures)} of {len(cases)} differ; first {limit_failures}:\n" + "\n".join(
        failures[:limit_failures])



def check_source(source, name, inputs, modules=None):
    """Function ``name`` of anyscript ``source`` (the text front end) gives CPython's outcome of
    the same source, run with ``modules`` (name to module) as its globals, for each of
    ``inputs`` (argument tuples)."""
    ours = anyproc.script_source(source, name)
    namespace = dict(modules or {})
    exec(source, namespace)  # noqa: S102 - a test's own source
    for args in inputs:
        assert outcome(ours, *args) == outcome(namespace[name], *args), (name, args)


def check_source_repr(source, name, args, modules=None):
    """As :func:`check_source` for one input, comparing the outcomes' reprs: values that are
    equal to ``==`` across types (bytes and bytearray, a named tuple and its plain tuple) are
    told apart."""
    ns = dict(modules or {})
    exec(source, ns)  # noqa: S102 - a test's own source
    ours = anyproc.script_source(source, name)
    want, got = outcome(ns[name], *args), outcome(ours, *args)
    assert repr(want) == repr(got), (source, args, want, got)


def check_printed_source(fns, inputs):
    """Each function's printed anyscript source (``ScriptFunction.source``), parsed back by the
    text front end, gives the same outcomes as the function lowered from Python's ``ast``."""
    for fn in fns:
        f = anyproc.script(fn)
        again = anyproc.script_source(f.source, f.sources[0][0])
        for args in inputs:
            assert outcome(again, *args) == outcome(f, *args), (fn.__name__, args)

# ---- the inputs

INTS = [0, 1, 5, -5, 7, 42, 65, 255, -255, 1234, -1234, 1234567, 10**15, -(2**63), 2**63 - 1, 0x10FFFF, True, False]
FLOATS = [0.0, -0.0, 0.5, 1.0, 1.5, -2.5, 2.5, 0.125, 0.375, 9.9999, 99999.0, 100.0, 1234.5, -1234.5, 123456.789,
          1e16, 1e15 + 0.5, 1e22, 1e-5, 1e-4, 1e-7, 0.000123, 5e-324, 1.7976931348623157e308, 3.141592653589793,
          float("nan"), float("inf"), float("-inf"), -0.04, -1e-9]
STRS = ["", "a", "ab", "abc", "héllo", "日本語", "😀x", "x" * 12, " sp ", "'q'", '"d"', "é\n\t"]
OTHERS = [None, [1, "a"], {"k": 1}, []]


def spec_from_grammar(rng: random.Random) -> str:
    """A spec built from the mini-language's parts, each present or not, some out of order."""
    parts = []
    if rng.random() < 0.4:
        fill = rng.choice(["", "", "*", "0", "é", "{", "}", " ", "=", "<", "z", "#", "1"])
        parts.append(fill + rng.choice("<>^="))
    parts.append(rng.choice(["", "", "", "+", "-", " "]))
    parts.append(rng.choice(["", "", "", "", "z"]))
    parts.append(rng.choice(["", "", "#"]))
    parts.append(rng.choice(["", "", "", "0"]))
    parts.append(rng.choice(["", "", "", "1", "5", "8", "12", "20", "0", "07"]))
    parts.append(rng.choice(["", "", "", "", ",", "_"]))
    parts.append(rng.choice(["", "", "", ".0", ".1", ".2", ".3", ".6", ".10", ".17", ".25", "."]))
    parts.append(rng.choice(["", "", "", "b", "c", "d", "o", "x", "X", "n", "e", "E", "f", "F", "g", "G", "%",
                             "s", "r", "a", "i", "z", "\x01"]))
    spec = "".join(parts)
    if rng.random() < 0.05:
        # Out of order or doubled parts: CPython's "Invalid format specifier" and friends.
        spec = "".join(rng.sample(spec, len(spec))) + rng.choice(["", "x", ",", "_", ".", "%"])
    return spec


def test_format_spec_mini_language_matches_cpython():
    rng = random.Random(20261126)
    values = INTS + FLOATS + STRS + OTHERS
    cases = [(v, spec_from_grammar(rng)) for _ in range(40) for v in values]
    # Every value with every type code once, and specs CPython parses at its limits.
    cases += [(v, t) for v in values for t in list("bcdoxXneEfFgG%s") + ["", ">", "=", "0", "z", ".", ",", "_"]]
    cases += [(5, "99999999999999999999"), (5.0, ".99999999999999999999f"), (1e300, ".400f"), (0.1, ".30"),
              (2.0, ".2147483648f"), ("x", ".2147483648"), (1, "\x00<5"), (True, ""), (None, ""), (1, "{<5"),
              (1, None), (1, 5), (1, b"d")]
    check_all(fmt, cases)
    check_all(fmt_default, [(v,) for v in values])


def template_from_grammar(rng: random.Random) -> str:
    """A printf-style template of literal text and conversions, some malformed."""
    out = []
    for _ in range(rng.randint(0, 3)):
        out.append(rng.choice(["", "a", "x=", " | ", "é", "%%"]))
        conv = "%" + rng.choice(["", "", "(k)", "(n)", "(missing)", "(a(b))"])
        conv += "".join(rng.sample("-+ #0", rng.randint(0, 2)))
        conv += rng.choice(["", "", "5", "12", "*", "0"])
        conv += rng.choice(["", "", ".2", ".0", ".*", ".", ".10"])
        conv += rng.choice(["", "", "", "l", "h"])
        conv += rng.choice(list("sradiuoxXeEfFgGc") + ["", "y", "é", "%"])
        out.append(conv)
    return "".join(out)


def test_printf_style_matches_cpython():
    rng = random.Random(7)
    scalars = INTS[:14] + FLOATS[:12] + FLOATS[-5:] + STRS[:8] + [None]
    mapping = {"k": 12.5, "n": -7, "a(b)": "nested"}
    cases = []
    for _ in range(4000):
        template = template_from_grammar(rng)
        shape = rng.random()
        if shape < 0.15:
            args = mapping
        elif shape < 0.45:
            args = rng.choice(scalars)
        else:
            args = tuple(rng.choice(scalars) for _ in range(rng.randint(0, 4)))
        cases.append((template, args))
    cases += [("%", ()), ("%(a", {}), ("%(a)", {"a": 1}), ("abc", 5), ("%s %(a)s", {"a": 1}), ("%c", "é"),
              ("%c", 0x110000), ("%d", 1e30), ("%d", float("nan")), ("%d", float("inf")), ("%.*f", (-2, 3.14159)),
              ("%-*d|", (-5, 3)), ("%*d", ("a", 3)), ("%x", 3.9), ("%c", 3.0), ("100%% of %s", "x")]
    check_all(percent, cases)


def format_string_from_grammar(rng: random.Random) -> str:
    """A ``str.format`` template: literal text, escaped braces, fields with indices, items,
    conversions and (nested) specs, some malformed."""
    out = []
    for _ in range(rng.randint(0, 4)):
        out.append(rng.choice(["", "a", "{{", "}}", " é ", "x"]))
        if rng.random() < 0.08:
            out.append(rng.choice(["{", "}", "{0", "{!", "{0!", "{0[", "{0]}", "{0[1]x}", "{0.}", "{a}", "{:{:{}}}"]))
            continue
        name = rng.choice(["", "", "", "0", "1", "2", "3", "0[0]", "1[1]", "[0]", "2[k]", "2[0]", "0[5]"])
        conv = rng.choice(["", "", "", "!r", "!s", "!a", "!x", "!"])
        spec = rng.choice(["", "", "", ":", ":>6", ":^7", ":*<5", ":.2", ":x", ":+05d", ":{}", ":>{1}", ":.{0}"])
        out.append("{" + name + conv + spec + "}")
    return "".join(out)


def test_str_format_matches_cpython():
    rng = random.Random(11)
    arg_sets = [(3, "abc", {"k": "v", 0: "zero"}), (1.5, [10, 20], "x"), ("é", -4, 2),
                (None, True, [["deep"]]), (12345, "😀", 0.1)]
    cases = [(format_string_from_grammar(rng),) + rng.choice(arg_sets) for _ in range(4000)]
    cases += [("{٣}", 1, 2, 3), ("{99999999999999999999}", 1, 2, 3), ("{0:{1}{2}}", 1, ">", "5"),
              ("{0[0]:{1}}", "ab", 3, 0), ("{0!r:}", "x", 0, 0), ("{!}", 1, 2, 3), ("{0{}", 1, 2, 3),
              ("{0:x{}", 1, 2, 3), ("{0:{1}}", 3, "{", 0)]
    check_all(str_format3, cases)


def test_ascii_matches_cpython():
    check_all(to_ascii, [(v,) for v in INTS + FLOATS + STRS + OTHERS + ["\x7f\x80\u0100\uffff\U0001f600"]])


def test_f_strings_with_specs_and_conversions_match_cpython():
    values = STRS + INTS[:12] + FLOATS[:10] + [None, [1, "b"]]
    check_all(f_string_fields, [(v, w, p) for v in values for w in (0, 3, 9) for p in (1, 4)])
    check_all(f_string_numbers, [(n, x) for n in INTS[:13] for x in FLOATS[:20]])


def test_formatting_on_real_text():
    lines = corpus_lines(2000)
    check_all(report, [(line.split()[:20],) for line in lines])


def test_attribute_fields_are_refused_with_a_clear_error():
    f = anyproc.script(str_format3)
    with pytest.raises(ValueError, match=r"format field attribute '\.real' is not supported"):
        f("{0.real}", 5, 0, 0)


def test_results_too_large_are_memory_errors():
    f = anyproc.script(fmt)
    with pytest.raises(MemoryError):
        f(1, "99999999999999")
    with pytest.raises(MemoryError):
        anyproc.script(percent)("%99999999999999d", 1)


def shadowed_builtins(text):
    format = text.upper()
    str = len(text)
    repr = "r"
    return f"{format:>{str + 2}}|{str}|{repr!r}|{text!a}|{text=}"


def test_f_strings_call_the_builtins_whatever_the_locals_are_named():
    check_all(shadowed_builtins, [(line,) for line in corpus_lines(300)] + [("",), ("é😀",)])


# f-strings in anyscript source (pipeline files and ``anyproc.script_source``): the text
# parser's own f-string reader, against CPython running the same source.
F_STRING_SOURCE = '''
def f(text):
    words = text.split()
    n = len(words)
    x = n / 7
    out = [f"{n} words", f"{text!r:>{n}}", f"{x:.3f}|{x=}|{n = :>5}|{text[:3]!a}",
           f'{"q"}{n:{"<" if n else ">"}5}', rf"\\d{n}\\n", f"""{n
        + 1}""", f"{{}}{n}}}}}", f"a" "b" f"{n}c", f"{n!r:}", f"{x:{n % 5}.{n % 3}}",
           f"{f'{n:02}'}|{words[:1]}|{ {'k': n}['k'] :^7}|{n if n else -1:+}"]
    return out
'''


def test_f_strings_in_anyscript_source_match_cpython():
    namespace = {}
    exec(F_STRING_SOURCE, namespace)
    theirs = namespace["f"]
    ours = anyproc.script_source(F_STRING_SOURCE, "f")
    for line in corpus_lines(1000) + ["", "é 😀 x"]:
        assert ours(line) == theirs(line), line


@pytest.mark.parametrize("source,message", [
    ("def f(x):\n    return f'{}'\n", "line 2, column 15: f-string: empty expression not allowed"),
    ("def f(x):\n    return f'{x!z}'\n", "line 2, column 17: f-string: invalid conversion character"),
    ("def f(x):\n    return f'a}'\n", "line 2, column 15: f-string: single '}' is not allowed"),
    ("def f(x):\n    return f'{x +}'\n", "line 2, column 18: expected an expression"),
])
def test_f_string_errors_in_anyscript_source_name_the_line(source, message):
    with pytest.raises(SyntaxError, match=re.escape(message)):
        anyproc.script_source(source, "f")
