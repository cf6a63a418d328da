"""Characters by name: ``unicodedata.lookup(name)``, ``\\N{name}`` in a regular expression and
``\\N{name}`` in a string literal of the text front end, compared with CPython 3.11 over every
named code point, the aliases, wrong names and malformed escapes."""

from __future__ import annotations

import re
import unicodedata

import pytest

import anyproc

from conftest import corpus_lines
from test_formatting import check_all, check_source

#: Formal aliases and abbreviations from NameAliases.txt that CPython's lookup takes.
ALIASES = ["BACKSPACE", "LINE FEED", "NULL", "BYTE ORDER MARK", "ZWJ", "NBSP", "LF", "CR", "ESC", "DEL", "ZWNJ",
           "SHY", "LATIN CAPITAL LETTER GHA", "NO-BREAK SPACE", "zero width space", "CHARACTER TABULATION"]


def test_lookup_of_every_name_equals_cpythons():
    # Every name CPython 3.11 has (in any case) finds the same character; the names of
    # characters Unicode gave since version 14 find none, as in CPython 3.11.
    ours = anyproc.script_source("def f(n):\n    return unicodedata.lookup(n)\n", "f")
    names = [unicodedata.name(chr(cp), None) for cp in range(0x110000) if not 0xD800 <= cp <= 0xDFFF]
    names = [n for n in names if n is not None]
    assert len(names) > 130000
    # Unicode 15's, which the names table here has.
    newer = ["MODIFIER LETTER CYRILLIC SMALL A", "KAWI SIGN CANDRABINDU", "KAKTOVIK NUMERAL ZERO",
             "CJK UNIFIED IDEOGRAPH-31350"]
    assert [anyproc.script(lookups)(n) for n in newer] == [lookups(n) for n in newer]
    assert all(lookups(n)[0] == "KeyError" for n in newer)
    for i, name in enumerate(names):
        if i % 3 == 1 and not name.startswith(("CJK UNIFIED", "HANGUL SYLLABLE")):
            name = name.lower()
        assert ours(name) == unicodedata.lookup(name), name


def lookups(name):
    try:
        return unicodedata.lookup(name)
    except KeyError as e:
        return "KeyError", e.args
    except TypeError as e:
        return "TypeError", str(e)


def test_aliases_and_wrong_names_equal_cpython():
    wrong = ["", "nope", "LATIN SMALL LETTER", "LATIN SMALL LETTER A ", " LATIN SMALL LETTER A", "x" * 300,
             "CJK UNIFIED IDEOGRAPH-4E00", "CJK UNIFIED IDEOGRAPH-4e00", "CJK UNIFIED IDEOGRAPH-FFFFF",
             "HANGUL SYLLABLE GAG", "HANGUL SYLLABLE QQQ", "hangul syllable GAG", "cjk unified ideograph-3402", 5, b"NULL", None]
    check_all(lookups, [(n,) for n in ALIASES + wrong])


def named_in_patterns(text):
    return [re.sub(r"\N{EM DASH}|\N{EN DASH}", "-", text), re.findall(r"[\N{LATIN SMALL LETTER A}-\N{latin small letter e}]+", text),
            re.split(r"\N{NO-BREAK SPACE}|\N{SPACE}", text), re.sub("\\N{HYPHEN-MINUS}+", "~", text)]


def test_named_escapes_in_patterns_equal_cpython():
    lines = corpus_lines(80) + ["a\u2014b\u2013c d\u00a0e--f"]
    check_all(named_in_patterns, [(line,) for line in lines])


BAD_ESCAPES = ["\\N", "\\Nx", "\\N{", "\\N{}", "\\N{EM DASH", "\\N{NOPE}", "a\\N{BYTE ORDER MARK}b\\N{x}", "[\\N{NOPE}]",
               "[\\N{]", "[a\\N]", "\\N{LATIN CAPITAL LETTER A WITH MACRON AND GRAVE}", "\\N{EM\\}DASH}"]


def pattern_error(pattern):
    try:
        return "ok", re.compile(pattern).pattern
    except re.error as e:
        return e.msg, e.pos, str(e)


def test_malformed_named_escapes_in_patterns_fail_as_cpython():
    check_all(pattern_error, [(p,) for p in BAD_ESCAPES])


def test_named_escapes_in_string_literals_of_the_text_front_end():
    source = "def f(t):\n    return t.replace('\\N{EM DASH}', '\\N{hyphen-minus}') + '\\N{BYTE ORDER MARK}\\N{LF}'\n"
    check_source(source, "f", [(line,) for line in corpus_lines(20)] + [("a\u2014b",)])
    raw = "def f(t):\n    return r'\\N{EM DASH}' + t\n"
    check_source(raw, "f", [("x",)])


@pytest.mark.parametrize("literal", ["'\\N{NOPE}'", "'\\N'", "'\\N{EM DASH'", "'\\N{}'"])
def test_a_bad_named_escape_in_a_literal_is_a_syntax_error(literal):
    with pytest.raises(SyntaxError):
        compile(f"x = {literal}", "<test>", "exec")
    with pytest.raises(SyntaxError, match="unicode error"):
        anyproc.script_source(f"def f():\n    return {literal}\n", "f")
