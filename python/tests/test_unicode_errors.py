"""Codec errors are CPython's ``UnicodeEncodeError`` and ``UnicodeDecodeError`` (``UnicodeError``s,
so ``ValueError``s), made of the same five arguments, and an unknown codec is its ``LookupError``:
caught in a script (class, ``args``, attributes, ``str`` and ``repr``) and raised to Python, each
compared with CPython 3.11 running the same function on corpus text. Bytes literals (``b"..."``)
are read as CPython reads them."""

from __future__ import annotations

import json
import warnings

import anyproc
import pytest
from conftest import corpus_lines
from test_formatting import check_all, check_printed_source

ENCODINGS = ["ascii", "latin-1", "cp1252", "utf-16-le", "utf-32-be", "utf-8", "nope"]


def encode_report(line, encoding):
    try:
        return ["ok", len(line.encode(encoding))]
    except UnicodeEncodeError as e:
        return [type(e).__name__, e.args, e.encoding, e.object, e.start, e.end, e.reason, str(e), repr(e),
                isinstance(e, UnicodeError), isinstance(e, ValueError)]
    except LookupError as e:
        return [type(e).__name__, str(e), isinstance(e, KeyError)]


def decode_report(data, encoding):
    try:
        return ["ok", data.decode(encoding)]
    except UnicodeError as e:
        return [type(e).__name__, e.args, e.object[e.start:e.end], e.reason, str(e), repr(e)]
    except LookupError as e:
        return [type(e).__name__, str(e)]


def caught_by_value_error(line):
    try:
        return line.encode("ascii")
    except ValueError as e:
        return [type(e).__name__, e.start]


def key_error_does_not_catch_lookup_error(line):
    try:
        try:
            return line.encode("utf-9")
        except KeyError:
            return "caught by KeyError"
    except LookupError as e:
        return ["LookupError", str(e)]


def made_in_the_script(data, start, end):
    try:
        e = UnicodeDecodeError("utf-8", data, start, end, "made here")
        return [str(e), repr(e), e.args, e.object]
    except (TypeError, IndexError) as e:
        return [type(e).__name__, str(e)]


def json_of_bad_bytes(data):
    try:
        return json.loads(data)
    except UnicodeDecodeError as e:
        return ["UnicodeDecodeError", e.encoding, e.start, e.end, e.reason]
    except ValueError:
        # A lone surrogate (`\x00\x00\xd8\x00`): CPython's parser fails on it (JSONDecodeError),
        # anyproc's decoder, as a ValueError (a str holds none: docs/architecture.md).
        return ["ValueError"]


@pytest.fixture(scope="module")
def lines():
    picked = [line for line in corpus_lines(3000) if not line.isascii()][:60]
    return picked + ["plain ascii", "", "😀 and é", "€uro"]


def test_encode_errors_are_cpythons(lines):
    check_all(encode_report, [(line, enc) for line in lines for enc in ENCODINGS])


def test_decode_errors_are_cpythons(lines):
    samples = [line.encode(enc) for line in lines[:20] for enc in ("utf-8", "latin-1", "cp1252", "utf-16-le")
               if not (enc in ("latin-1", "cp1252") and any(ord(c) > 255 for c in line))]
    samples += [b"\xff", b"a\xe2\x82", b"\xed\xa0\x80", b"\x00\xd8a", b"\x81\x8d", b"abc\x80def"]
    check_all(decode_report, [(data, enc) for data in samples for enc in ENCODINGS])


def test_the_class_tree_is_cpythons(lines):
    check_all(caught_by_value_error, [(line,) for line in lines[:10]])
    check_all(key_error_does_not_catch_lookup_error, [(line,) for line in lines[:3]])


def test_a_script_makes_one_of_five_arguments():
    cases = [(b"\xffab", 0, 1), (b"ab", 0, 2), (b"ab", 5, 9), (b"", 0, 0), ("not bytes", 0, 1), (b"x", 1.5, 2)]
    check_all(made_in_the_script, cases)
    check_all(made_in_the_script, [(b"ab", True, 2)])


def test_json_reads_bytes_as_cpython_does():
    check_all(json_of_bad_bytes, [(b"\xff\"a\"",), (b'"\xc3\xa9"',), (b"\x00\x00\xd8\x00",), (b"[1, 2]",),
                                  (b"\xfe\xff\x00",)])


def test_the_error_reaches_python_as_cpythons():
    def encode(line):
        return line.encode("latin-1")

    def decode(data):
        return data.decode("utf-8")

    def lookup(line):
        return line.encode("nope")

    for fn, arg in [(encode, "a€b"), (decode, b"ab\xff"), (lookup, "x")]:
        with pytest.raises(Exception) as theirs:
            fn(arg)
        with pytest.raises(Exception) as ours:
            anyproc.script(fn)(arg)
        assert type(ours.value) is type(theirs.value)
        assert ours.value.args == theirs.value.args or type(ours.value) is LookupError
    with pytest.raises(UnicodeEncodeError) as ours:
        anyproc.script(encode)("a€b")
    # Where it was raised, as a note (Python 3.11's exceptions have them).
    assert "line" in "".join(getattr(ours.value, "__notes__", ["line"]))


def test_a_callbacks_unicode_error_is_caught_by_its_class():
    def bad_decode(data):
        return data.decode("ascii")

    def use(data, decoder):
        try:
            return decoder(data)
        except UnicodeDecodeError as e:
            return ["caught", str(e)]

    ours = anyproc.script(use)(b"caf\xc3\xa9", bad_decode)
    assert ours == use(b"caf\xc3\xa9", bad_decode)


SEPARATOR = b"\xe2\x80\x94"


def bytes_literals(line):
    data = line.encode("utf-8")
    pieces = [b"ab" b"c", b'\x00\xff', rb'\d+', B"\377", b'''two
lines''', b"\t\n\\", b'x\'y"', SEPARATOR]
    return [SEPARATOR in data, data + b"!", len(b"\xe9"), pieces, b"caf\xc3\xa9".decode("utf-8"), data[:3],
            list(b"ab"), data == b"\xc3\xa9", data < b"i", repr(pieces[-2])]


def test_bytes_literals_read_as_cpython_reads_them(lines):
    check_all(bytes_literals, [(line,) for line in lines[:20]])
    check_printed_source([bytes_literals], [(line,) for line in lines[:5]])


@pytest.mark.parametrize("literal", [r'b"\777"', r'b"\u1234\N{x}\U1"', r'b"\400\0\12"', r"br'\x'"])
def test_escapes_bytes_do_not_have_are_kept_as_cpython_keeps_them(literal):
    # CPython warns of these (DeprecationWarning) and reads them as written or as the low byte.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = eval(literal)
    assert anyproc.script_source(f"def f():\n    return {literal}\n", "f")() == want


@pytest.mark.parametrize("source, message", [
    ('def f():\n    return b"é"\n', "bytes can only contain ASCII literal characters"),
    ('def f():\n    return b"a" "b"\n', "cannot mix bytes and nonbytes literals"),
    ('def f():\n    return "a" b"b"\n', "cannot mix bytes and nonbytes literals"),
])
def test_bad_bytes_literals_are_cpythons_syntax_errors(source, message):
    with pytest.raises(SyntaxError, match=message):
        compile(source, "f", "exec")
    with pytest.raises(SyntaxError, match=message):
        anyproc.script_source(source, "f")
