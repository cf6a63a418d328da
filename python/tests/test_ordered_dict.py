"""Python's ``collections.OrderedDict`` in ``anyproc.script`` and anyscript source: CPython's
results (values, reprs, orders, equality, errors) on a real vocabulary and real text, and the
type it crosses the boundary as."""

from __future__ import annotations

import collections
from collections import OrderedDict

import anyproc
from conftest import ASSETS, corpus_lines
from test_formatting import check_all, check_printed_source, check_source, outcome

# ---- functions of the kind tokenizer code builds vocabularies and caches with


def load_vocab(lines):
    # BERT's `load_vocab`, over the lines of a vocab file.
    vocab = collections.OrderedDict()
    for index, token in enumerate(lines):
        token = token.rstrip("\n")
        vocab[token] = index
    ids_to_tokens = collections.OrderedDict([(ids, tok) for tok, ids in vocab.items()])
    return len(vocab), vocab.get("[UNK]"), ids_to_tokens.get(100), list(vocab)[:10], repr(ids_to_tokens)[:300]


def lru_lookups(words, capacity):
    # A least-recently-used cache of word shapes: move_to_end on a hit, popitem(last=False)
    # to evict the oldest.
    cache = OrderedDict()
    hits = 0
    for w in words:
        if w in cache:
            cache.move_to_end(w)
            hits += 1
            continue
        cache[w] = w.lower().strip(".,;:!?")
        if len(cache) > capacity:
            cache.popitem(last=False)
    return hits, list(cache.items()), repr(cache)[:200]


def first_seen_order(text):
    # Order-sensitive equality, the other end, and the methods OrderedDict overrides.
    words = text.split()
    a = OrderedDict.fromkeys(words)
    b = OrderedDict.fromkeys(reversed(words))
    out = [a == b, a == dict(b), dict(a) == b, a != b, a == a.copy(), list(reversed(a))[:5]]
    if words:
        a.move_to_end(words[0])
        b.move_to_end(words[0], last=False)
        out += [list(a)[-1], list(b)[0], a.popitem(), b.popitem(last=False), b.popitem(False)]
    out += [a.setdefault("zz", 1), a.pop("zz"), a.pop("zz", "gone"), repr(a.fromkeys("xy", 0))]
    a.update([("q", 1), ["r", 2], "st"])
    a.update({"u": 3})
    out += [repr(a)[-60:], str(OrderedDict()), f"{OrderedDict([(1, 2)])}"]
    return out


def kinds_and_unions(text):
    od = OrderedDict((w, len(w)) for w in text.split()[:6])
    dd = collections.defaultdict(int, {"x": 1})
    out = [isinstance(od, dict), isinstance(od, OrderedDict), type(od) is OrderedDict, type(od).__name__]
    out += [type(od.copy()).__name__, type(dict(od)).__name__, type(od | {"z": 1}).__name__]
    out += [type({"z": 1} | od).__name__, repr({"z": 1} | od)[:80], type(dd | od).__name__, type(od | dd).__name__]
    out += [type({"z": 1} | dd).__name__, repr(dd | {"y": 2}), type(collections.Counter("ab") | od).__name__]
    od |= {"zz": 0}
    out += [repr(od)[-30:], len(od), "zz" in od, od.get("nope", -1), sorted(od)]
    return out


def nested_and_recursive(text):
    od = OrderedDict()
    od["self"] = od
    od["inner"] = OrderedDict([(text[:3], [1, (2, 3)])])
    od["empty"] = OrderedDict()
    out = repr(od), repr([od["inner"]]), str(od["empty"])
    od.clear()  # the cycle broken: anyproc counts references and collects no cycles
    return out


def ordered_errors(text):
    kind = len(text) % 14
    od = OrderedDict.fromkeys(text[:3])
    try:
        if kind == 0:
            return OrderedDict(len(text))
        if kind == 1:
            return OrderedDict([[text]]) if text else OrderedDict([[]])
        if kind == 2:
            return OrderedDict([text[:3] + "xyz"])
        if kind == 3:
            return OrderedDict([[[text], 1]])
        if kind == 4:
            return OrderedDict().popitem()
        if kind == 5:
            return od.move_to_end(text + "?")
        if kind == 6:
            return od.move_to_end([text])
        if kind == 7:
            return OrderedDict().pop([text])
        if kind == 8:
            return od.pop(text + "?")
        if kind == 9:
            return {od: 1}
        if kind == 10:
            return od < od
        if kind == 11:
            return od + od
        if kind == 12:
            return od.update(5)
        return OrderedDict([1])
    except TypeError as e:
        return "TypeError: " + str(e)
    except KeyError as e:
        return "KeyError: " + str(e)
    except ValueError as e:
        return "ValueError: " + str(e)


def arity_errors(n):
    od = OrderedDict([("a", 1), ("b", 2)])
    args = ["a", True, 3][:n]
    out = []
    # (`keys()` is left out: anyscript's dict views are lists.)
    for call in (od.pop, od.setdefault, od.popitem, od.move_to_end, od.fromkeys, od.update, od.copy, od.get,
                 od.clear):
        try:
            out.append(repr(call(*args)))
        except (TypeError, KeyError) as e:
            out.append(type(e).__name__ + ": " + str(e))
    return out


def vocab_lines():
    with open(ASSETS / "bert-base-uncased" / "vocab.txt", encoding="utf-8") as f:
        return f.readlines()


TEXTS = ["", "a", "ab", "abc", "the cat sat on the mat", "ünïcödé ünï x", "a b a c b a", "zz y x w v"]


def test_a_vocabulary_loads_as_bert_loads_it():
    lines = vocab_lines()
    check_all(load_vocab, [(lines,), (lines[:50],), ([],)])


def test_caches_and_orders_equal_cpython_on_real_text():
    words = " ".join(corpus_lines(300)).split()
    check_all(lru_lookups, [(words, 64), (words, 1), (words[:10], 100), ([], 3)])
    lines = corpus_lines(40)
    for fn in (first_seen_order, kinds_and_unions, nested_and_recursive):
        check_all(fn, [(t,) for t in TEXTS + lines])


def test_errors_equal_cpython():
    check_all(ordered_errors, [("x" * n,) for n in range(28)])
    check_all(arity_errors, [(n,) for n in range(4)])


def test_a_keyword_popitem_of_a_dict_is_a_type_error():
    def pop_last(d):
        return d.popitem(last=False)

    # CPython refuses the keyword ("takes no keyword arguments"); anyscript passes it on and
    # refuses the argument: the same exception class.
    assert outcome(anyproc.script(pop_last), {"a": 1})[0] == outcome(pop_last, {"a": 1})[0] == "TypeError"
    assert anyproc.script(pop_last)(OrderedDict([("a", 1), ("b", 2)])) == ("a", 1)


def test_ordered_dicts_cross_the_boundary_as_themselves():
    made = anyproc.get_global_func("collections.OrderedDict")([("b", 1), ("a", 2)])
    assert type(made) is OrderedDict and list(made.items()) == [("b", 1), ("a", 2)]

    def swap_ends(od):
        od.move_to_end(next(iter(od)))
        return od, od == OrderedDict(reversed(list(od.items())))

    given = OrderedDict([("x", 1), ("y", 2)])
    ours, want = anyproc.script(swap_ends)(OrderedDict(given)), swap_ends(OrderedDict(given))
    assert type(ours[0]) is OrderedDict and list(ours[0].items()) == list(want[0].items()) and ours[1] == want[1]


def test_the_text_front_end_and_printed_source():
    source = """
def order(words):
    od = collections.OrderedDict()
    for w in words:
        od[w] = od.get(w, 0) + 1
    od.move_to_end(words[0], last=False)
    first = od.popitem(last=False)
    return first, od, od == collections.OrderedDict(sorted(od.items())), repr(od)
"""
    words = " ".join(corpus_lines(20)).split()
    check_source(source, "order", [(words,), (["b", "a", "b"],)], {"collections": collections})
    check_printed_source([first_seen_order, kinds_and_unions, nested_and_recursive], [(t,) for t in TEXTS[:6]])
