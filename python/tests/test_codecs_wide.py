"""UTF-16, UTF-32 (each byte order, marked or not) and Windows-1252 in ``str.encode`` and
``bytes.decode``, and the ``backslashreplace``, ``xmlcharrefreplace`` and ``namereplace`` handlers: the
mojibake repair of web text, UTF-16 offsets as JavaScript counts them, round trips of real
text, and random bytes decoded with every codec and handler, each equal to CPython 3.11,
messages included."""

from __future__ import annotations

import random

import pytest
from conftest import corpus_lines
from test_formatting import check_all, check_printed_source

LINES = corpus_lines(250) + ["", "a", "é€😀 x", "日本語テキスト", "Grüße “quoted” — dash…", "\x81\x8d odd"]
CODECS = ["utf-16", "utf-16-le", "utf-16-be", "UTF_16BE", "utf-32", "utf-32-le", "utf-32-be", "u32", "cp1252",
          "windows-1252", "utf-8", "ascii", "latin-1", "u8", "l1"]
HANDLERS = ["strict", "ignore", "replace", "backslashreplace", "xmlcharrefreplace", "namereplace", "bogus"]


def failure(e):
    # Both sides' errors by the class anyscript has: a codec error is a ValueError (CPython's
    # UnicodeError is one), an unknown name a LookupError (anyscript's KeyError is one).
    if isinstance(e, ValueError):
        return f"ValueError: {e}"
    if isinstance(e, LookupError):
        return f"LookupError: {e}"
    return f"{type(e).__name__}: {e}"


def repair_mojibake(text):
    # UTF-8 read as Windows-1252, read back: the first step of every web-text cleaner.
    try:
        return text.encode("cp1252").decode("utf-8")
    except ValueError:
        return text


def utf16_offsets(text):
    # Word offsets in UTF-16 code units, as JavaScript and many annotation tools count them.
    offsets = []
    at = 0
    for word in text.split(" "):
        offsets.append((at, at + len(word.encode("utf-16-le")) // 2))
        at = offsets[-1][1] + 1
    return offsets, len(text.encode("utf-16")), len(text.encode("utf-32-be")) // 4 == len(text)


def round_trips(text):
    out = []
    for codec in CODECS:
        for handler in HANDLERS:
            try:
                data = text.encode(codec, handler)
                out.append((data, data.decode(codec, handler)))
            except (ValueError, LookupError, TypeError) as e:
                out.append(failure(e))
    return out


def decode_every_way(data):
    out = []
    for codec in CODECS:
        for handler in HANDLERS:
            try:
                out.append(data.decode(codec, handler))
            except (ValueError, LookupError, TypeError) as e:
                out.append(failure(e))
    return out


def random_bytes(n):
    # Bytes that reach every path: surrogate halves of either order, byte order marks, odd
    # lengths, code points past U+10FFFF, Windows-1252's undefined bytes, UTF-8 fragments.
    rng = random.Random(1234)
    pieces = [b"\x00\xd8", b"\xd8\x00", b"\x00\xdc", b"\xdc\x00", b"\xff\xfe", b"\xfe\xff", b"\x00\x00", b"\x11\x00",
              b"a\x00", b"\x00a", b"\x81", b"\x8d", b"\x9d", b"\xe2\x82", b"\xac", b"\xc3\xa9", b"\xf0\x9f\x98\x80",
              b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff", b"\x00\x00\x11\x00", b"z"]
    return [b"".join(rng.choice(pieces) for _ in range(rng.randrange(0, 7))) for _ in range(n)]


def cp1252_table(_):
    decoded = []
    for b in range(256):
        try:
            decoded.append(bytes([b]).decode("cp1252"))
        except ValueError as e:
            decoded.append(str(e))
    encoded = []
    for n in range(0x2200):
        try:
            encoded.append(chr(n).encode("cp1252"))
        except ValueError:
            encoded.append(None)
    return decoded, encoded


def test_mojibake_repair_and_utf16_offsets_on_real_text():
    broken = [line.encode("utf-8").decode("cp1252", "ignore") for line in LINES]
    check_all(repair_mojibake, [(t,) for t in LINES + broken])
    check_all(utf16_offsets, [(t,) for t in LINES])


def test_round_trips_in_every_codec_and_handler():
    check_all(round_trips, [(t,) for t in LINES[:120]])


def test_random_bytes_decode_with_cpythons_spans_and_messages():
    check_all(decode_every_way, [(b,) for b in random_bytes(400)])


def test_windows_1252_is_cpythons_table():
    check_all(cp1252_table, [(0,)])


@pytest.mark.parametrize("name", ["utf 16", "UTF16", "unicodelittleunmarked", "utf_32le", "1252", "utf-9", "u 8"])
def test_encoding_names(name):
    def lookup(text, codec):
        try:
            return text.encode(codec, "bogus"), bytes([255, 255, 255]).decode(codec, "bogus")
        except (LookupError, ValueError) as e:
            return failure(e)

    check_all(lookup, [("aé", name), ("a€", name)])


def test_printed_source_parses_back():
    check_printed_source([repair_mojibake, utf16_offsets, decode_every_way], [(t,) for t in LINES[:10]] + [(b"\x00\xd8",)])
