"""The data attributes a script reads of built-in values: a match's ``lastgroup``,
``lastindex``, ``string``, ``re``, ``pos`` and ``endpos`` (the lexer of Python's ``re``
documentation, "Writing a Tokenizer", run over real text), a pattern's ``pattern``, ``flags``
``groupindex`` and ``groups``, a deque's ``maxlen`` and a defaultdict's ``default_factory``; each equal to
CPython 3.11's."""

from __future__ import annotations

import itertools
import re
from collections import defaultdict, deque

import anyproc
import pytest
from conftest import corpus_lines
from test_formatting import check_all, check_source

LINES = corpus_lines(200) + ["", "3.14 apples, 42 pears!", "x = y + 12;\tz", "naïve café 10%"]

TOKEN = re.compile(r"(?P<NUMBER>\d+(?:\.\d*)?)|(?P<WORD>\w+)|(?P<SPACE>\s+)|(?P<PUNCT>[^\w\s])")


def tokenize(line):
    # The re documentation's tokenizer: the kind of each token is the name of the group it matched.
    tokens = []
    for m in TOKEN.finditer(line):
        kind = m.lastgroup
        if kind == "SPACE":
            continue
        tokens.append((kind, m.group(), m.start() - m.pos, m.lastindex))
    return tokens


def match_facts(line):
    m = re.search(r"(\w)(\w)?", line)
    if m is None:
        return None
    same = m.re is re.compile(r"(\w)(\w)?")
    return m.string == line, m.pos, m.endpos, m.lastindex, m.lastgroup, m.re.pattern, m.re.flags, same


PATTERNS = [r"(a)(b)?", r"((a)|(b))+", r"(a(b)?)(c)?", r"(?:(a)|(b))*", r"(a*)(b*)", r"((a)(b*))c?",
            r"(a)?(b)?(c)?", r"(?P<x>a)|(?P<y>b)(c)?", r"((?P<in>a)b)", r"(a|(b))(c|)", r"(?:x|(a))(b)?c?",
            r"(a)(?:b|(c))", r"(?P<w>\w+)(?P<sp>\s*)"]
TEXTS = ["a", "ab", "abc", "ba", "", "aab", "bbc", "ac", "xb", "xbc", "a b"]


def last_groups(pattern, text):
    m = re.search(pattern, text)
    return None if m is None else (m.lastindex, m.lastgroup, m.span(), m.groups())


def pattern_facts(source, flags):
    p = re.compile(source, flags)
    m = p.match("ab")
    return p.pattern, p.flags, dict(p.groupindex), p.groups, None if m is None else m.groups()


def containers(line):
    words = line.split()
    window = deque(words, maxlen=3)
    unbounded = deque(words)
    counts = defaultdict(int)
    groups = defaultdict(list)
    for w in words:
        counts[w] += 1
        groups[len(w)].append(w)
    return (window.maxlen, unbounded.maxlen, list(window), counts.default_factory is int,
            groups.default_factory is list, deque(words, 0).maxlen)


def test_the_documented_tokenizer_on_real_text():
    check_all(tokenize, [(line,) for line in LINES])


def test_match_attributes():
    check_all(match_facts, [(line,) for line in LINES])


def test_lastindex_and_lastgroup_of_nested_optional_and_repeated_groups():
    check_all(last_groups, list(itertools.product(PATTERNS, TEXTS)))


def test_pattern_attributes():
    check_all(pattern_facts, [(p, f) for p in PATTERNS for f in (0, re.I, re.M | re.S)])


def test_deque_and_defaultdict_attributes():
    check_all(containers, [(line,) for line in LINES])


def list_maxlen():
    return [1].maxlen


def dict_factory():
    return {}.default_factory


def str_lastgroup():
    return "abc".lastgroup


def deque_pattern():
    return deque().pattern


@pytest.mark.parametrize("fn", [list_maxlen, dict_factory, str_lastgroup, deque_pattern])
def test_a_value_without_the_attribute_is_cpythons_message(fn):
    with pytest.raises(AttributeError) as theirs:
        fn()
    with pytest.raises(AttributeError, match=re.escape(str(theirs.value))):
        anyproc.script(fn)()


def test_the_text_front_end():
    source = (
        "def f(line):\n"
        "    m = re.search(r'(?P<word>[a-z]+)|(?P<num>[0-9]+)', line)\n"
        "    if m is None:\n"
        "        return None\n"
        "    return m.lastgroup, m.lastindex, m.string, m.endpos, collections.deque(line, 2).maxlen\n")
    import collections
    check_source(source, "f", [(line,) for line in LINES[:80]], {"re": re, "collections": collections})
