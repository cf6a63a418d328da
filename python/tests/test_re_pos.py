"""``pos`` and ``endpos`` of a compiled pattern's ``search``, ``match``, ``fullmatch``,
``findall`` and ``finditer``: the lexer that matches at each position of a long text (real
text), and probes of anchors, lookbehinds, word boundaries, empty matches and non-ASCII text
at every window, against CPython 3.11, with the match's ``pos`` and ``endpos``."""

from __future__ import annotations

import re

from conftest import corpus_lines
from test_formatting import check_all

LINES = corpus_lines(300)
TOKEN = re.compile(r"\d+(?:\.\d+)?|\w+|[^\w\s]")
PROBES = [re.compile(p) for p in [r"^\w+", r"\w+$", r"(?<=a)b", r"\bb", r"b\b", r"(a|b)+", r"", r"x*", r"(?m)^b",
                                  r"é+", r"\w+|\S", r"(?P<w>b)(?=\s)", r"(a)?b",
                                  # A fullmatch that takes a later alternative; groups in one.
                                  r"a|ab", r"(a|ab)(b*)\s?", r"(?i)É|B+"]]


def lex(text):
    # A hand-written lexer: match a token at `pos`, skip a character where none starts.
    tokens = []
    pos = 0
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if m is None:
            pos += 1
            continue
        tokens.append((m.group(), m.start(), m.pos))
        pos = m.end()
    return tokens


def probe(text, i):
    out = []
    for p in PROBES:
        for args in [(i,), (i, i + 3), (-2,), (i, 100), (0, i), (i, -1)]:
            m = p.search(text, *args)
            out.append(None if m is None else (m.span(), m.group(), m.pos, m.endpos, m.lastindex))
            if len(args) == 1 or min(max(args[0], 0), len(text)) <= min(max(args[1], 0), len(text)):
                # CPython's match at a `pos` past `endpos` finds an empty match for some
                # patterns and not others (its engine's length check); anyproc finds none.
                m = p.match(text, *args)
                out.append(None if m is None else (m.span(), m.pos, m.endpos, m.groups()))
            m = p.fullmatch(text, *args)
            out.append(None if m is None else m.span())
            out.append(p.findall(text, *args))
            out.append([(m.span(), m.string == text) for m in p.finditer(text, *args)])
    return out


def by_keyword(text, i):
    # `string`, `pos` and `endpos` named, some of them or all, as CPython takes them.
    out = []
    for p in PROBES[:3] + PROBES[-3:]:
        out.append(p.search(text, pos=i))
        out.append(p.match(text, endpos=i))
        out.append(p.fullmatch(string=text, pos=i - 1, endpos=i + 4))
        out.append(p.findall(text, i, endpos=i + 6))
        out.append([m.span() for m in p.finditer(endpos=i + 2, string=text)])
    return [m if m is None or isinstance(m, list) else m.span() for m in out]


def keyword_errors(which):
    calls = [lambda: TOKEN.match(pos=2), lambda: TOKEN.match("ab", 1, pos=2), lambda: TOKEN.search("ab", bad=1),
             lambda: TOKEN.fullmatch("ab", endpos="x"), lambda: TOKEN.findall("ab", 1, 2, endpos=3),
             lambda: TOKEN.finditer("ab", string="ab")]
    try:
        return calls[which]()
    except TypeError as e:
        return "TypeError: " + str(e)


def errors(case):
    out = []
    for call in (lambda: TOKEN.match("ab", "1"), lambda: TOKEN.search("ab", 0, 1.5), lambda: TOKEN.findall(5, 1)):
        try:
            out.append(call())
        except TypeError as e:
            out.append(str(e))
    return out


def test_the_lexer_on_real_text():
    check_all(lex, [(line,) for line in LINES] + [(" ".join(LINES),)])


def test_windows_of_every_method():
    check_all(probe, [(text, i) for text in ["ab ab\nbab", "aébé b\nbé", "", "b", "ab b"] for i in range(-1, 10)])


def test_argument_errors():
    check_all(errors, [(0,)])


def test_pos_and_endpos_by_keyword():
    check_all(by_keyword, [(text, i) for text in ["ab ab\nbab", "aébé b\nbé", ""] for i in range(-1, 8)])


def test_wrong_keyword_calls_raise_when_they_run():
    check_all(keyword_errors, [(i,) for i in range(6)])
