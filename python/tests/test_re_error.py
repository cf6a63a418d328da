"""``re.error``: a pattern or a replacement template that ``re`` refuses raises CPython's
``re.error`` (no ``ValueError``), which a script catches with ``except re.error as e`` and reads
as CPython's (``msg``, ``pattern``, ``pos``, ``lineno``, ``colno``), and which reaches Python
as ``re.error``. Flags that cannot go together raise CPython's ``ValueError``; flags beyond a C
int its ``OverflowError``. Everything is compared with CPython 3.11."""

from __future__ import annotations

import re

import pytest

import anyproc

from conftest import corpus_lines
from test_formatting import check_all, check_source, outcome

#: Patterns CPython refuses, each for a different reason, some spanning lines.
BAD_PATTERNS = [
    "(", "a)", "[a", "[z-a]", "a**", "*", "a{3,2}", "ab{10,2}", "\\", "\\q", "(?P<1a>x)", "(?P<x>a)(?P<x>b)",
    "(a)\\2", "(?<x>a)", "x(?i)", "(?iL)x", "(?aui)x", "(?-L:y)", "(?a-u:y)", "(?L", "d(?->", "(?s?xi",
    "(?#unterminated", "(?P=nope)", "(?(1)a|b|c)", "[\\Q]", "a{1,4294967296}", "a{4294967296}",
    "(?x)\n  \\d+  # digits\n  (  # an open group\n", "line one\nline two (\nthree", "ok\n\n[b-a]",
]

#: Replacement templates CPython refuses for the pattern ``(a)(?P<w>b)``.
BAD_TEMPLATES = ["\\3", "\\g<3>", "\\g<", "\\g<w", "\\g<>", "\\g<1a>", "\\q", "x\\", "\\g<-1>", "a\nb\\9"]

WORDS = [w for line in corpus_lines(40) for w in line.split()][:60]


def compiled_or_reason(pattern):
    try:
        return ("ok", re.compile(pattern).pattern)
    except re.error as e:
        return (type(e).__name__, e.msg, e.pattern, e.pos, e.lineno, e.colno, str(e), e.args, repr(e),
                isinstance(e, Exception), isinstance(e, ValueError))
    except OverflowError as e:
        return ("overflow", str(e))


def test_a_script_catches_re_error_and_reads_cpythons_attributes():
    check_all(compiled_or_reason, [(p,) for p in BAD_PATTERNS + ["a+", "(?i)x", "[a-z]{2,3}"]])


def replaced_or_reason(template, text):
    try:
        return ("ok", re.sub(r"(a)(?P<w>b)", template, text))
    except re.error as e:
        return (e.msg, e.pattern, e.pos, e.lineno, e.colno, str(e))
    except IndexError as e:
        return ("index", str(e))


def test_a_bad_replacement_template_is_a_re_error_of_the_template():
    check_all(replaced_or_reason, [(t, "xaby") for t in BAD_TEMPLATES + ["\\2\\1", "\\g<w>", "\\g<nope>"]])


def keep_valid_patterns(patterns, words):
    """What a preprocessing step does with user-supplied patterns: skip the ones that do not
    compile, report why, and apply the rest."""
    kept, rejected = [], []
    for p in patterns:
        try:
            kept.append(re.compile(p, re.IGNORECASE))
        except ValueError:
            rejected.append(("value", p))
        except re.error as err:
            rejected.append((err.pos, err.msg))
    hits = [w for w in words if any(k.search(w) for k in kept)]
    return hits, rejected


def test_except_value_error_does_not_catch_re_error():
    patterns = ["^th", "ing$", "(un", "[0-9]+", "a{2,1}", "\\", "(?a)(?u)x", "s\\b"]
    check_all(keep_valid_patterns, [(patterns, WORDS), (patterns[::-1], WORDS[::-1]), ([], WORDS)])


def flags_outcome(pattern, flags):
    try:
        p = re.compile(pattern, flags)
        return ("ok", p.flags, repr(p))
    except re.error as e:
        return ("re.error", str(e))
    except ValueError as e:
        return ("ValueError", str(e))
    except OverflowError as e:
        return ("OverflowError", str(e))


@pytest.mark.filterwarnings("ignore:The re.TEMPLATE:DeprecationWarning")
def test_flags_are_checked_as_cpython_checks_them():
    cases = [("a", 1 << 12), ("a", re.I | (1 << 20)), ("a", 1 << 30), ("a", -(1 << 31)), ("a", 1 << 31),
             ("a", -1), ("a", re.L), ("a", re.A | re.U), ("(?u)x", re.A), ("(?a)(?u)x", 0), ("(?a)x", re.U),
             ("(", re.L), ("(", 1 << 40), ("(?i)a", re.M), ("(?u:x)", re.A), ("(?x) a b", 0)]
    check_all(flags_outcome, cases)


def test_re_error_reaches_python_as_re_error():
    compile_ = anyproc.get_global_func("re.compile")
    sub = anyproc.get_global_func("re.sub")
    for pattern in BAD_PATTERNS:
        with pytest.raises(Exception) as want:  # noqa: PT011 - the class is checked below
            re.compile(pattern)
        with pytest.raises(type(want.value)) as got:
            compile_(pattern)
        assert type(got.value) is type(want.value), pattern
        if not isinstance(want.value, re.error):
            continue
        fields = ("msg", "pattern", "pos", "lineno", "colno")
        assert [getattr(got.value, f) for f in fields] == [getattr(want.value, f) for f in fields], pattern
        assert str(got.value).endswith(str(want.value)), pattern
    for template in BAD_TEMPLATES[:4]:
        with pytest.raises(re.error) as want:
            re.sub("(a)(b)", template, "ab")
        with pytest.raises(re.error) as got:
            sub("(a)(b)", template, "ab")
        assert (got.value.msg, got.value.pattern, got.value.pos) == (want.value.msg, want.value.pattern,
                                                                     want.value.pos), template


def words_matching(pattern):
    return re.findall(pattern, "text to search")


def test_a_scripts_re_error_reaches_python_with_its_location():
    ours = anyproc.script(words_matching)
    with pytest.raises(re.error, match=r"line \d+: re.findall: missing \), unterminated subpattern at position 0$"):
        ours("(")
    assert outcome(ours, "t.x") == outcome(words_matching, "t.x")


def test_a_python_callbacks_re_error_is_caught_as_re_error():
    anyproc.register_func("testing.compile_with_cpython", lambda p: re.compile(p).pattern, override=True)
    source = (
        "def f(p):\n"
        "    try:\n"
        "        return testing.compile_with_cpython(p)\n"
        "    except ValueError:\n"
        "        return 'value'\n"
        "    except re.error as e:\n"
        "        return type(e).__name__\n"
    )
    f = anyproc.script_source(source, "f")
    assert [f("a+"), f("(")] == ["a+", "error"]


def test_text_front_end_catches_re_error():
    source = (
        "def f(p, t):\n"
        "    try:\n"
        "        return re.split(p, t)\n"
        "    except re.error as e:\n"
        "        return [e.msg, e.pattern, e.pos, e.lineno, e.colno, type(e).__name__, str(e)]\n"
    )
    check_source(source, "f", [(p, "a b,c") for p in BAD_PATTERNS[:12] + [",", "\\s"]], {"re": re})


def classify(pattern):
    import json

    try:
        if not pattern:
            raise re.error("empty pattern")
        return re.compile(pattern).groups
    except Exception as e:  # noqa: BLE001 - the exception's class is what is compared
        return [type(e).__name__, isinstance(e, re.error), isinstance(e, json.JSONDecodeError),
                isinstance(e, ValueError), e.msg, e.pattern, e.pos, e.lineno, e.colno, str(e), repr(e)]


def test_re_error_is_a_value_a_script_makes_and_tests():
    check_all(classify, [("",), ("(",), ("(a)(b)",), ("a{2,1}",)])


def test_a_raised_re_error_reaches_python_as_re_error():
    with pytest.raises(re.error) as got:
        anyproc.script(make_error)("bad input")
    assert (got.value.msg, got.value.pattern, got.value.pos) == ("bad input", None, None)


def make_error(msg):
    raise re.error(msg)
