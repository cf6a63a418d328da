"""Python's ``re`` in ``anyproc.script`` and anyscript source: patterns read as CPython 3.11
reads them, and ``sub``/``findall``/``split``/``search``/match objects give CPython's results
on real text. CPython's own ``re`` is the reference throughout."""

from __future__ import annotations

import re
import sys
import unicodedata

import anyproc
import pytest
from conftest import corpus_lines
from test_formatting import check_all, check_printed_source, outcome

# `[[]` and `[a&&b]` make CPython warn of a future meaning; today's is the one compared.
pytestmark = pytest.mark.filterwarnings("ignore::FutureWarning")

# Patterns text code uses, and the corners of the syntax where Python's and Rust's differ.
PATTERNS = [
    r"\s+", r"\w+", r"\W+", r"\d+", r"\D", r"\S+", r"[^\w\s]", r"\b\w", r"\w\b", r"\B\w",
    r"[A-Z][a-z]+", r"(\w+)@(\w+)\.com", r"https?://\S+", r"(?i)the", r"^\w+", r"\w+$", r"(?m)^\w", r"(?m)\w$",
    r"\.$", r"x*", r"a|", r"|a", r"(a)|(b)", r"(?P<first>\w)(?P<rest>\w*)", r"(\w)\1", r"(?P<c>\w)(?P=c)",
    r"[[]", r"[a&&b]", r"[a-]", r"[]a]", r"[^]a]", r"a{2}", r"e{,2}", r"a{", r"{x}", r"x{1, 2}",
    r"(?<=\s)\w+", r"(?<!\w)\d", r"\w+(?=,)", r"\w+(?!\w|,)", r"(?s).{3}", r".{3}", r"(?x) \w + # words",
    r"\x41|\u00e9|\U0001F600", r"\0", r"[\x00-\x1f]", r"\Z", r"\A\w", r"(?a)\w+", r"(?a:\w)\w", r"(?i:É)",
    r"(?>\w+)\s", r"\w++", r"(a)?(?(1)b|c)", r"[\s\S]", r"[\w-]+", r"(?#comment)\w", r"\$\d+(?:\.\d\d)?",
    r"['\"]", r"\\", r"[.!?]", r"(\s)(\s)?", r"\n", r"[^a-zA-Z0-9 ]+", r"\w*?", r"\d*",
]
TEXTS = ["", "a", "\n", "ab\n", "a\nb\n", "aa bb", "x  y", "The cat, the hat.", "café naïve", "cafe\u0301 ",
         "ﬁne ² ½ ١٢٣ ⅷ", "x\x1cy\x1fz", "a-b:c", "$12.50 and $3", "😀x😀", "🙂 é\té\r\n", "baab", "bc",
         "mail: bob@example.com", "see https://a.b/c?d=1 now", "EÉé", "é", "aaa", "{x} x{1, 2}"]


def texts():
    return TEXTS + corpus_lines(60)


def regex_ops(p, t):
    m = re.search(p, t)
    f = re.fullmatch(p, t)
    s = re.match(p, t)
    return [re.findall(p, t), re.sub(p, "<\\g<0>>", t), re.split(p, t), re.subn(p, "", t, 2),
            None if m is None else [m.group(), m.span(), m.groups(), m.groupdict(), m.start(), m.end()],
            None if f is None else f.span(), None if s is None else s.group(0),
            [mm.span() for mm in re.finditer(p, t)]]


def test_patterns_on_texts_equal_cpython():
    ours = anyproc.script(regex_ops)
    failures = []
    for p in PATTERNS:
        for t in texts():
            want, got = outcome(regex_ops, p, t), outcome(ours, p, t)
            if want != got:
                failures.append(f"{p!r} on {t[:40]!r}: CPython {want!r}, anyproc {got!r}")
    assert not failures, f"{len(failures)} differ; first 10:\n" + "\n".join(failures[:10])


def classes(chars):
    return [re.findall(r"\w", chars), re.findall(r"\s", chars), re.findall(r"\d", chars),
            re.findall(r"[\W]", chars), len(re.findall(r"\b", chars)), re.findall(r"(?i)[a-zé]", chars)]


def test_classes_over_every_code_point_equal_cpython():
    # Every code point this CPython's Unicode tables assign (a newer one, which anyproc's tables
    # may know, is left out), each between two spaces so that \b sees it alone.
    assigned = [chr(c) for c in range(sys.maxunicode + 1)
                if not 0xD800 <= c < 0xE000 and unicodedata.category(chr(c)) != "Cn"]
    ours = anyproc.script(classes)
    for start in range(0, len(assigned), 20000):
        chunk = " ".join(assigned[start:start + 20000])
        assert ours(chunk) == classes(chunk), f"chunk from {ord(assigned[start]):#x}"


WORDS = re.compile(r"[a-zà-ÿ]+(?:'[a-z]+)?", re.I)
SPACES = re.compile(r"\s+")


def clean(text):
    text = re.sub(r"<[^>]+>", " ", text)
    text = re.sub(r"https?://\S+|www\.\S+", "[URL]", text)
    text = re.sub(r"(\w)\1{2,}", r"\1\1", text)
    text = SPACES.sub(" ", text).strip()
    return text


def tokens(text):
    return [w.lower() for w in WORDS.findall(text)]


def numbers(text):
    out = []
    for m in re.finditer(r"(?P<int>\d+)(?:[.,](?P<frac>\d+))?", text):
        out.append((m.group("int"), m["frac"], m.start(), m.end(1)))
    return out


def sentences(text):
    return [s for s in re.split(r"(?<=[.!?])\s+", text) if s]


def case_flags(text):
    return [re.findall("the", text, flags=re.I), re.sub("a", "A", text, count=2, flags=re.IGNORECASE | re.M),
            re.split(r"\s", text, maxsplit=2), bool(re.match(r"\w", text)), WORDS.findall(text[:9])]


def callbacks(text):
    return [re.sub(r"\w+", lambda m: m.group(0)[::-1], text),
            re.sub(r"(\d)", lambda m: str(int(m.group(1)) * 2), text),
            SPACES.subn("_", text), re.escape(text[:20])]


def first_word(text):
    m = re.match(r"\s*(\w+)", text)
    if m is None:
        return None
    return m.group(1).upper(), m.span(1), m.groups(), m.group(0, 1)


def pattern_errors(text):
    kind = len(text) % 7
    if kind == 0:
        return re.compile(r"(a")
    if kind == 1:
        return re.sub("a", r"\9", text)
    if kind == 2:
        return re.search(r"\q", text)
    if kind == 3:
        return re.sub(r"\w", lambda m: 5, text)
    if kind == 4:
        return re.findall("x", 5)
    if kind == 5:
        return re.match(r"(?P<x>a)", "a").group("y")
    return re.compile("a*+*")


FUNCTIONS = [clean, tokens, numbers, sentences, case_flags, callbacks, first_word]


@pytest.mark.parametrize("fn", FUNCTIONS, ids=lambda f: f.__name__)
def test_text_functions_equal_cpython(fn):
    check_all(fn, [(t,) for t in texts()])


def test_errors_name_cpythons_message():
    # A bad pattern raises re.error, with CPython's message.
    ours = anyproc.script(pattern_errors)
    for t in ["", "a", "ab", "abc", "abcd", "abcde", "abcdef"]:
        want, got = outcome(pattern_errors, t), outcome(ours, t)
        # anyproc's message names the op it comes from.
        got = (got[0], re.sub(r"^re\.\w+: ", "", got[1]))
        assert got == want, t


def test_printed_source_runs_the_same():
    check_printed_source(FUNCTIONS, [(t,) for t in TEXTS])


def test_text_front_end():
    src = (
        "WS = re.compile(r'\\s+', re.I | re.M)\n"
        "def f(t):\n"
        "    return [WS.sub(' ', t), re.findall(r'\\w+', t, flags=re.A), re.I, WS.split(t, maxsplit=1)]\n"
    )
    f = anyproc.script_source(src, "f")
    t = "héllo  wörld\tx"
    ws = re.compile(r"\s+", re.I | re.M)
    assert f(t) == [ws.sub(" ", t), re.findall(r"\w+", t, flags=re.A), re.I, ws.split(t, maxsplit=1)]


def replacement_errors(repl, text):
    return [re.sub("a", repl, text), re.subn("a", repl, text), re.compile("a").sub(repl, text)]


def test_a_replacement_neither_text_nor_callable_fails_as_in_cpython():
    # CPython checks the replacement before the text; bytes fail when the first is joined in.
    ours = anyproc.script(replacement_errors)
    for repl in [1, 1.5, None, [1], {}, (1,), b"x", b"", "x"]:
        for text in ["", "b", "ab", "bab", 5]:
            want, got = outcome(replacement_errors, repl, text), outcome(ours, repl, text)
            # anyproc's message names the op it comes from.
            assert (got[0], re.sub(r"^re\.\w+: ", "", str(got[1]))) == (want[0], str(want[1])), (repl, text)


def expanded(text):
    out = []
    for m in re.finditer(r"(?P<word>\w+)(\s+)?(\d+)?", text):
        out.append([m.expand(r"<\g<word>>"), m.expand(r"\3|\1|\2"), m.expand("plain"), m.expand(b"\\1"),
                    m.expand(r"\g<0>\n")])
    return out[:20]


def expand_errors(template):
    m = re.match(r"(a)(b)?", "ab")
    try:
        return m.expand(template)
    except (re.error, TypeError, IndexError) as e:
        return type(e).__name__, str(e)


def test_match_expand_equals_cpython():
    check_all(expanded, [(t,) for t in texts()])
    check_all(expand_errors, [(t,) for t in [r"\3", r"\g<x>", r"\q", b"x\\1", b"", b"\\2", 5, None, [1], "\\"]])
