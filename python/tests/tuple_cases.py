"""Functions with tuples that ``test_tuples.py`` runs under CPython and under anyproc.script on
real text: tuples are made by displays, ``tuple()``, ``zip``, ``enumerate``, ``dict.items()``,
``divmod`` and ``str.partition``; they hash, compare, print and refuse changes as CPython's do."""
# ruff: noqa


def bigram_counts(text):
    words = text.lower().split()
    counts = {}
    for pair in zip(words, words[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:5]


def word_stats(text):
    words = text.split()
    if not words:
        return ()
    longest = max(words, key=len)
    return len(words), longest, sum(len(w) for w in words) // len(words)


def edge_pairs(text):
    seen = set()
    for w in text.split():
        seen.add((w[0], w[-1]))
    return sorted(seen)[:6], (("a", "a") in seen)


def fields(text):
    out = []
    for w in text.split():
        head, sep, tail = w.partition("e")
        out.append((head, sep, tail) if sep else w.partition("e"))
    return out[:4]


def rank_words(text):
    return sorted(set(text.split()), key=lambda w: (-len(w), w))[:5]


def tuples_do_not_change(text):
    t = tuple(text.split()[:3])
    errors = []
    try:
        t[0] = "x"
    except TypeError as e:
        errors.append(str(e))
    try:
        del t[0]
    except TypeError as e:
        errors.append(str(e))
    try:
        t.sort()
    except AttributeError as e:
        errors.append(str(e))
    try:
        t.append("x")
    except Exception:
        errors.append("no append")
    alias = t
    t += ("end",)
    return errors, t, alias, t is alias


def concat_repeat_slice(text):
    t = tuple(len(w) for w in text.split())[:4]
    return t + t[:2], t * 2, t[::-1], t[1:3], (t,) + ((),), t[-1:] if t else t


def printing(text):
    t = tuple(text.split()[:2])
    one = (len(text),)
    return repr(t), str(one), f"{t}|{one}|{()}", "%s=%s" % ("n", len(text)), "%s" % ([1, 2],), str((t, [one]))


def type_checks(text):
    t = (text, len(text))
    return (isinstance(t, tuple), isinstance(t, list), type(t) is tuple, type(list(t)) is tuple,
            isinstance(text, (int, (float, str))), tuple(t) is t, type(tuple([1])) is tuple)


def lists_are_unhashable(text):
    d = {}
    try:
        d[text.split()[:1]] = 1
    except TypeError as e:
        return str(e)
    return "hashed"


def unhashable_inside_a_tuple(text):
    try:
        return {(text[:2], [len(text)]): 1}
    except TypeError as e:
        return str(e)


def unhashable_keys_in_one_display(text):
    out = []
    for w in text.split()[:3]:
        try:
            out.append({(w[:1], [1]): 1, (w, [2]): 2, w: 3})
        except TypeError as e:
            out.append(str(e) + "|" + w)
    return out


def tuple_is_not_a_list(text):
    t, l = tuple(text[:3]), list(text[:3])
    out = [t == l, t != l, t == tuple(l), list(t) == l, (1, 2) < (1, 3), (1, 2) < (1, 2, 0), () < (0,)]
    try:
        out.append(t < l)
    except TypeError as e:
        out.append(str(e))
    try:
        out.append(t + l)
    except TypeError as e:
        out.append(str(e))
    try:
        out.append(l + t)
    except TypeError as e:
        out.append(str(e))
    return out


def pairs_from_builtins(text):
    words = text.split()[:3]
    d = {w: len(w) for w in words}
    return list(enumerate(words, 1)), list(zip(words, range(3))), list(d.items()), divmod(len(text), 7)


def methods(text):
    t = tuple(text.lower())
    out = [t.count("e"), t.count("zz")]
    try:
        out.append(t.index("e"))
        out.append(t.index("e", out[-1] + 1))
    except ValueError as e:
        out.append(str(e))
    return out


def nested_keys(text):
    counts = {}
    for i, w in enumerate(text.split()):
        key = ((w[:1], len(w) % 3), i % 2)
        counts[key] = counts.get(key, 0) + 1
    return sorted(counts.items())[:4]


def unpack_and_swap(text):
    a, b = len(text), text.count(" ")
    a, b = b, a
    first, *rest = tuple(text.split()) or ("",)
    return (a, b), first, rest, type(rest) is list
