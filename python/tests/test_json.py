"""``json.loads`` and ``json.dumps`` in ``anyproc.script``: CPython's values, text and errors on
real documents (the shipped tokenizer.json and GPT-2 encoder.json), JSON lines built from the
corpus, every option of ``dumps``, the hooks of ``loads``, bytes in each encoding CPython
detects, and malformed documents (each prefix of real records, and hand-made ones)."""

from __future__ import annotations

import json

import pytest

import anyproc

from conftest import ASSETS, corpus_lines
from test_formatting import check_all, check_source

LINES = corpus_lines(300)
DOCUMENTS = [p for p in [ASSETS / "bert-base-uncased" / "tokenizer.json", ASSETS / "gpt2" / "encoder.json"] if p.is_file()]


def records():
    """JSON lines made from the corpus, as a data set's .jsonl would hold them."""
    out = []
    for i, line in enumerate(LINES):
        words = line.split()
        rec = {"id": i, "text": line, "words": words[:6], "score": len(line) / 7, "empty": not words,
               "meta": {"len": len(line), "first": words[0] if words else None, "ratio": [1e-7 * i, 1e16 + i]}}
        out.append(json.dumps(rec, ensure_ascii=i % 2 == 0))
    return out


RECORDS = records()


def parse(text):
    return json.loads(text)


def write_all(doc):
    return [json.dumps(doc), json.dumps(doc, ensure_ascii=False), json.dumps(doc, indent=2),
            json.dumps(doc, sort_keys=True, separators=(",", ":")), json.dumps(doc, indent="\t", sort_keys=True)]


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: p.name)
def test_real_documents_read_and_write_as_cpythons(path):
    text = path.read_text(encoding="utf-8")
    want = json.loads(text)
    got = anyproc.script(parse)(text)
    assert got == want
    # Same key order, same floats and strings: CPython writes both alike.
    assert json.dumps(got) == json.dumps(want)
    assert anyproc.script(write_all)(want) == write_all(want)
    assert anyproc.script(parse)(text.encode("utf-8")) == want


def clean_record(line):
    rec = json.loads(line)
    text = rec["text"].lower().strip()
    rec["text"] = " ".join(text.split())
    rec["n_words"] = len(rec.pop("words"))
    rec["meta"]["keys"] = sorted(rec["meta"])
    return json.dumps(rec, ensure_ascii=False), json.dumps(rec, sort_keys=True), json.dumps(rec, indent=1)


def test_jsonl_records_round_trip_as_cpython():
    check_all(clean_record, [(r,) for r in RECORDS])


def error_of(text):
    try:
        return json.dumps(json.loads(text))
    except ValueError as e:
        return str(e)
    except RuntimeError as e:
        return "deep: " + str(e)


BAD = ['"\\u12"', '"\\u12x4"', '"\\ud800\\u12x4"', '"\\ud800\\udc00"', '"\\ud83d\\ude00x"', '"\\x"', '"abc', '"a\nb"',
       '[1,]', '{"a":1,}', '{"a" 1}', '{1:2}', '[1 2]', '', '  ', '[', '{', '01', '1.', '1e', '1e+', '1E5', '-', '-0',
       '-0.0e-0', 'nul', 'NaN', '-Infinity', 'Infinityx', '-Inf', '[1]x', '\ufeff[]', '{"a":1,"a":2,"b":3}', '1E400',
       '[\n1,\n  x]', 'é[', '"é\\q"', '{"é": [1, 2, {"x": tru}]}', '\t\r\n 7 \n', '"\\/\\b\\f\\n\\r\\t\\"\\\\"',
       '"\\u00e9\\u2028\\uFFFF"', '-12.5E-3', '[-]', '{"a":}', '{"a"', '{"a":1', '["a",', '"\x7f\x1f"', '"\\',
       '"\\u"', '"\\ud800\\u"', "[" * 500 + "]" * 500, "[" * 1200, '{"a":' * 1200, '9223372036854775807',
       '-9223372036854775808', '[1.5, 1e16, 1e-5, 0.1, 12345678901234567890.0]']


def test_malformed_documents_give_cpythons_errors():
    check_all(error_of, [(t,) for t in BAD])


def test_each_prefix_of_real_records_gives_cpythons_error():
    # Cut a record anywhere: an unterminated string, a missing value, delimiter or bracket.
    cases = []
    for r in RECORDS[:12]:
        cases += [(r[:k],) for k in range(0, len(r), 3)]
        cases += [(r[:k] + r[k + 1:],) for k in range(0, len(r), 11)]
    check_all(error_of, cases)


ENCODINGS = ["utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be"]


def from_bytes(encoded):
    out = []
    for data in encoded:
        try:
            out.append(json.loads(data))
        except ValueError as e:
            out.append(str(e))
    return out


def test_bytes_in_every_encoding_cpython_detects():
    texts = RECORDS[:40] + ["1", "[]", '"é"', "", "12", '"\\ud83d\\ude00"']
    cases = [([t.encode(e) for e in ENCODINGS],) for t in texts]
    # Broken ones: invalid UTF-8, odd UTF-16 lengths, a UTF-32 unit past U+10FFFF.
    cases.append(([b'"\xff"', b'["\xc3"]', "[1]".encode("utf-16-le")[:-1], b"\x00\x00\x11\x00" * 2, b"\xef\xbb\xbf[2]"],))
    check_all(from_bytes, cases)


def hooks(line):
    return (json.loads(line, object_hook=lambda d: sorted(d)), json.loads(line, object_pairs_hook=lambda p: p[:2]),
            json.loads(line, parse_float=lambda t: "f" + t, parse_int=lambda t: t + "!"),
            json.loads("[NaN, -Infinity, Infinity, 1]", parse_constant=lambda t: t.lower()),
            json.loads(line, object_hook=len, object_pairs_hook=None))


def test_loads_hooks_are_called_as_cpythons():
    check_all(hooks, [(r,) for r in RECORDS[:60]])


def dumps_options(line):
    words = line.split()
    doc = {"w": words[:4], 1: True, 2.5: None, None: 0.1, False: [], "t": (1, "é"), "e": {}, "x": float("inf")}
    out = [json.dumps(doc), json.dumps(doc, indent=0), json.dumps(doc, indent=-1), json.dumps(doc, indent=3),
           json.dumps(doc, indent="--"), json.dumps(doc, separators=[";", "="]), json.dumps(doc, indent=True),
           json.dumps(words, ensure_ascii=False, indent=1), json.dumps(line), json.dumps(line, ensure_ascii=False),
           json.dumps({"a": {1: 2}}, sort_keys=True), json.dumps([[], {}, [[]], [{}]], indent=2)]
    bad = [lambda: json.dumps({"a": set(words)}), lambda: json.dumps(line.encode()),
           lambda: json.dumps({(1, 2): 1}), lambda: json.dumps({(1, 2): 1, "k": 2}, skipkeys=True),
           lambda: json.dumps({(1,): 1}, skipkeys=True, indent=2), lambda: json.dumps(float("nan"), allow_nan=False),
           lambda: json.dumps({float("inf"): 1}, allow_nan=False), lambda: json.dumps({"b": 1, 2: 3}, sort_keys=True),
           lambda: json.dumps(set(words[:1]), default=sorted), lambda: json.dumps({"s": {1}}, default=list, indent=1),
           lambda: json.dumps(set(), default=5), lambda: json.dumps([1], indent=1.5), lambda: json.dumps([1], separators=(",",)),
           lambda: json.dumps([1], separators=(",", ":", " ")), lambda: json.dumps(words, 1),
           lambda: json.loads(), lambda: json.loads(5), lambda: json.loads(line, 1), lambda: json.dumps(),
           lambda: json.dumps(len(line), default=str)]
    for call in bad:
        try:
            out.append(call())
        except (TypeError, ValueError) as e:
            out.append((type(e).__name__, str(e)))
    return out


def test_dumps_options_and_errors_equal_cpythons():
    check_all(dumps_options, [(line,) for line in LINES[:60]])


def cycles(line):
    words = line.split()
    a = [words]
    a.append(a)
    d = {"w": words}
    d["d"] = d
    out = []
    for obj in (a, d, [d, a]):
        try:
            out.append(json.dumps(obj))
        except ValueError as e:
            out.append(str(e))
    shared = [words, words, {"x": words}]
    out.append(json.dumps(shared))
    return out


def test_cycles_are_cpythons_value_error_and_shared_items_are_not():
    check_all(cycles, [(line,) for line in LINES[:20]])


def test_json_in_the_text_front_end():
    source = (
        "def f(line):\n"
        "    rec = json.loads(line)\n"
        "    rec['upper'] = rec['text'].upper()\n"
        "    return json.dumps(rec, sort_keys=True, indent=2), json.dumps([rec['id'], None], separators=(',', ':'))\n"
    )
    check_source(source, "f", [(x,) for x in RECORDS[:40]], {"json": json})


def test_a_document_error_is_cpythons_json_decode_error_naming_the_op_and_the_place():
    with pytest.raises(json.JSONDecodeError, match=r"line \d+: json.loads: Expecting ',' delimiter: line 2 column 3 \(char 6\)") as caught:
        anyproc.script(parse)('[1,\n2 3]')
    e = caught.value
    assert (e.msg, e.lineno, e.colno, e.pos) == ("Expecting ',' delimiter", 2, 3, 6)


def skip_bad_lines(lines):
    # What a .jsonl reader does: keep the records it can read, count the others by class.
    kept, bad = [], {}
    for line in lines:
        try:
            kept.append(json.loads(line)["id"])
        except json.JSONDecodeError as e:
            bad[type(e).__name__] = bad.get(type(e).__name__, 0) + 1
            bad[e.args[0][:20]] = isinstance(e, ValueError)
            # Where the error is, as a reader reports it.
            bad[(e.msg, e.pos, e.lineno, e.colno)] = bad.get((e.msg, e.pos, e.lineno, e.colno), 0) + 1
        except (KeyError, TypeError) as e:
            bad[repr(e)] = 1
    try:
        json.loads("[")
    except ValueError as e:
        bad["value"] = str(e)
    return kept, bad


def test_except_json_decode_error_catches_what_cpython_catches():
    lines = [r if i % 3 else r[: len(r) // 2] for i, r in enumerate(RECORDS[:90])] + ["5", "[]", '{"x": 1}']
    check_all(skip_bad_lines, [(lines,), (lines[::-1],)])
    source = (
        "def f(line):\n"
        "    try:\n"
        "        return json.loads(line)['id']\n"
        "    except json.JSONDecodeError as e:\n"
        "        return type(e).__name__ + ': ' + str(e)\n"
    )
    check_source(source, "f", [(r[:k],) for r in RECORDS[:5] for k in (5, 30, len(r))], {"json": json})


def checked_late(line, raw):
    # CPython checks a hook only when it calls it, takes a false parse_* as its default, checks
    # what it reads before the options, and writes a str before it looks at indent.
    rec = line
    out = []
    for step in range(18):
        try:
            if step == 0:
                out.append(json.loads("1", object_hook=5))
            elif step == 1:
                out.append(json.loads("1.5", parse_float=0))
            elif step == 2:
                out.append(json.loads("[1]", parse_int=""))
            elif step == 3:
                out.append(json.loads(rec, object_hook=5))
            elif step == 4:
                out.append(json.loads(5, parse_float=3))
            elif step == 5:
                out.append(json.loads('"a\\tb"', strict=False))
            elif step == 6:
                out.append(json.loads('"a\\tb"', strict=True))
            elif step == 7:
                out.append(json.loads(rec, strict=0))
            elif step == 8:
                out.append(json.loads(rec, None, object_hook=None))
            elif step == 9:
                out.append(json.loads(rec, None, cls=None))
            elif step == 10:
                out.append(json.dumps(rec, True, skipkeys=True))
            elif step == 11:
                out.append(json.dumps("x", indent=2.5))
            elif step == 12:
                out.append(json.dumps("x", separators=(1, 2)))
            elif step == 13:
                out.append(json.dumps("x", separators=5))
            elif step == 14:
                out.append(json.dumps([1], separators=(1, 2)))
            elif step == 15:
                out.append(json.dumps([1], separators=(",", 2)))
            elif step == 16:
                out.append(json.dumps([1], separators=(1, ":"), indent=1))
            else:
                out.append(json.dumps(1, indent=2.5))
        except (TypeError, ValueError) as e:
            out.append((type(e).__name__, str(e)))
    for b in raw:
        try:
            out.append(json.loads(b))
        except ValueError as e:
            out.append(str(e))
    g = json.loads
    h = json.dumps
    for f, args in [(g, (rec, None)), (h, (rec, 1)), (g, (rec,)), (h, ([rec],))]:
        try:
            out.append(f(*args))
        except TypeError as e:
            out.append(str(e))
    return out


def test_options_are_checked_when_and_as_cpython_checks_them():
    # Bytes with two BOMs, or a BOM before a truncated or out-of-range unit.
    raw = [b"\xef\xbb\xbf\xef\xbb\xbf1", b"\xff\xfe\x00\x00\x01", b"\xff\xfe1\x00\x00",
           b"1\x00\x00\x00\x00\x00\x11\x00\x01", b"\xff\xfe\xff\xfe1\x00"]
    check_all(checked_late, [(r, raw) for r in RECORDS[:10]])

