"""A wrong call of a built-in, of ``list.sort`` or of a ``math``/``unicodedata`` function is
CPython's TypeError when (and only if) the call runs, after its arguments are evaluated, as
CPython raises it; a script that holds one in a branch it never takes compiles and runs. Each
case is compared with CPython 3.11 running the same function."""

from __future__ import annotations

import collections
import math
import unicodedata

from test_formatting import check_all, check_source

# How many wrong calls `wrong_call` makes (its `which` selects one; any other runs clean).
N_WRONG_CALLS = 36


def wrong_call(which, s, l):
    log = []

    def note(x):
        log.append(x)
        return x

    try:
        if which == 0:
            return len(note(s), obj=note(1))
        if which == 1:
            return len(note(s), note(2))
        if which == 2:
            return len()
        if which == 3:
            return sorted(note(l), note(l))
        if which == 4:
            return sorted(key=note(len))
        if which == 5:
            return sorted(note(l), cmp=note(None))
        if which == 6:
            return max(note(l), keys=note(len))
        if which == 7:
            return min(key=note(len))
        if which == 8:
            return int(base=note(2))
        if which == 9:
            return dict(note(l), note(l))
        if which == 10:
            return round(note(1.5), digits=note(1))
        if which == 11:
            return sum(note(l), initial=note(0))
        if which == 12:
            return list(enumerate(note(l), begin=note(1)))
        if which == 13:
            copy = note(list(l))
            copy.sort(note(1))
            return copy
        if which == 14:
            copy = note(list(l))
            copy.sort(cmp=note(1))
            return copy
        if which == 15:
            d = note({})
            d.update(note(l), note(l), k=note(1))
            return d
        if which == 16:
            print(note(s), fil=note(1))
            return None
        if which == 17:
            return math.sqrt(note(1), note(2))
        if which == 18:
            return math.pow(note(1))
        if which == 19:
            return math.log()
        if which == 20:
            return math.perm()
        if which == 21:
            return math.perm(note(1), 2, 3)
        if which == 22:
            return unicodedata.normalize(note("NFC"))
        if which == 23:
            return unicodedata.category()
        if which == 24:
            total = 0
            for i in range(note(1), 2, 3, 4):
                total += i
            return total
        if which == 25:
            for i in range():
                return i
            return None
        if which == 26:
            return abs(note(1), note(2))
        if which == 27:
            return isinstance(note(1))
        if which == 28:
            note(s).sort(note(1))
            return None
        if which == 29:
            note(s).sort(cmp=note(1))
            return None
        if which == 30:
            return note(s).splitlines(keepend=note(True))
        if which == 31:
            return round(ndigits=note(2))
        if which == 32:
            return note(s).expandtabs(tabs=note(2))
        if which == 33:
            return pow(note(2), mod=note(3))
        if which == 34:
            raise AttributeError(s)
        if which == 35:
            return note(l).sort(note(1), key=note(len))
        return [len(s), sorted(l), math.sqrt(4), unicodedata.category(s[:1] or "a"), list(range(3)),
                round(number=2.5), round(number=2.567, ndigits=note(2)), pow(base=2, exp=5), s.splitlines(keepends=True),
                sum(l, start=note(10)), list(enumerate(l, start=note(5)))]
    except (TypeError, AttributeError) as e:
        return [type(e).__name__, str(e), log]


def test_wrong_calls_raise_cpythons_error_when_they_run():
    cases = [(which, s, l) for which in range(-1, N_WRONG_CALLS + 1) for s, l in [("héllo", [3, 1, 2]), ("", [])]]
    check_all(wrong_call, cases)


def sort_in_a_branch(words, by_length):
    # The wrong call is never taken: CPython runs this function, and so must the script.
    if by_length and not words:
        words.sort(len)
    return sorted(words, key=len) if by_length else sorted(words)


def test_a_wrong_call_in_a_branch_not_taken_compiles():
    check_all(sort_in_a_branch, [(["bb", "a", "ccc"], True), (["bb", "a"], False), ([], True)])


# A method's wrong count is worded as CPython words it for that method, which depends on how the
# method reads its arguments: `split() takes at most 2 arguments (3 given)` (keywords),
# `find() takes at least 1 argument (0 given)` (`PyArg_ParseTuple`), `center expected at least 1
# argument, got 0` (positional only), `Counter.total() takes 1 positional argument but 2 were
# given` (written in Python), and dict's methods of a Counter are `dict.x`.
RECEIVERS = {
    "str": "'ab'", "bytes": "b'ab'", "list": "[1]", "tuple": "(1,)", "dict": "{1: 2}", "set": "{1}",
    "Counter": "collections.Counter('ab')", "defaultdict": "collections.defaultdict(int)",
    "OrderedDict": "collections.OrderedDict([('a', 1)])", "deque": "collections.deque([1])", "Pattern": "re.compile('a')", "Match": "re.match('a', 'a')",
}
METHODS = {
    "str": "find rfind index rindex count startswith endswith split rsplit splitlines expandtabs encode center zfill "
           "partition replace strip join translate lower format_map removeprefix",
    "bytes": "find count endswith split rsplit splitlines expandtabs decode hex translate center ljust zfill partition "
             "rpartition removesuffix title swapcase istitle replace join strip",
    "list": "sort append insert pop index count copy",
    "tuple": "index count",
    "dict": "get pop setdefault popitem keys update copy clear",
    "set": "add pop union issubset",
    "Counter": "most_common update subtract copy elements total clear items get pop",
    "defaultdict": "copy clear get",
    "OrderedDict": "move_to_end pop popitem setdefault keys copy",
    "deque": "append pop rotate index insert",
    "Pattern": "search match fullmatch findall finditer split sub subn",
    "Match": "group groups groupdict start span",
}


def method_count_source():
    lines = ["def receiver(kind):"]
    for kind, expr in RECEIVERS.items():
        lines.append(f"    if kind == {kind!r}:\n        return {expr}")
    names = sorted({m for ms in METHODS.values() for m in ms.split()})
    for name in names:
        # Only the errors: a result (a dict view) would not cross to Python as CPython's.
        lines.append(f"def call_{name}(kind, args):\n    x = receiver(kind)\n    try:\n        x.{name}(*args)\n"
                     f"    except TypeError as e:\n        return str(e)\n    return 'ok'")
    return "\n".join(lines) + "\n"


def test_a_methods_wrong_count_is_worded_as_cpython_words_it():
    import collections
    import re

    modules = {"re": re, "collections": collections}
    source = method_count_source()
    for kind, methods in METHODS.items():
        for name in methods.split():
            check_source(source, f"call_{name}", [(kind, [1] * n) for n in range(5)], modules)


def test_bytes_class_methods_count_as_cpython():
    def class_methods(n):
        args = [b"ab"] * n
        out = []
        for f in [bytes.fromhex, bytes.maketrans, str.maketrans, dict.fromkeys]:
            try:
                out.append(f(*args))
            except (TypeError, ValueError) as e:
                out.append(str(e))
        return out

    check_all(class_methods, [(n,) for n in range(4)])


def keyword_to_a_method(kind, which):
    x = {"str": "a,b", "bytes": b"a,b", "list": [1], "dict": {"a": 1}, "Counter": collections.Counter("ab"),
         "deque": collections.deque([1])}[kind]
    try:
        if which == 0:
            return x.count(x=1)
        if which == 1:
            return x.index(value=1)
        if which == 2:
            return x.get(key="a")
        if which == 3:
            return x.center(width=5)
        return x.pop(index=0)
    except (TypeError, AttributeError) as e:
        return [type(e).__name__, str(e)]


def test_keywords_to_a_method_without_them_name_the_receivers_type():
    # "str.count() takes no keyword arguments": the type is the receiver's, known when it runs.
    kinds = ["str", "bytes", "list", "dict", "Counter", "deque"]
    check_all(keyword_to_a_method, [(kind, which) for kind in kinds for which in range(5)])
    check_all(most_common, [(n,) for n in [0, 1, 5, None]])


def most_common(n):
    return collections.Counter("abracadabra").most_common(n=n)
