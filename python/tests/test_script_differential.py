"""Differential test: random anyscript programs give CPython 3.11's results.

A seeded generator (``random.Random``, fixed seeds) writes small Python functions as
source text. Each runs under CPython and under ``anyproc._native.script_source`` (the
Rust parser), a share of them also through ``anyproc.script`` (the ``ast`` lowering),
on several argument tuples. Results must be equal with types (``True`` is not ``1``,
``1.0`` is not ``1``, ``-0.0`` is not ``0.0``, a tuple is not a list, NaN equals NaN,
dict order counts), or both sides must raise the same exception type.

Skipped, and counted: programs anyproc refuses to compile (SyntaxError); runs that the
CPython guard stops (too many lines, values too large, a repetition past MAX_REPEAT);
runs that need ints outside i64 (anyproc's documented 64-bit ints: the CPython result
holds a big int, or anyproc raised OverflowError where an instrumented CPython run saw
a big intermediate); runs where only the container-model CPython run (below) could agree and
its guard stopped it. anyproc compiles each program with ``while_limit=MAX_LINES``: a loop
that CPython's guard lets finish runs fewer iterations than that, and one that would grow a
list forever ends in RuntimeError instead of taking the
machine's memory.

Some programs have helper functions before the one the harness calls: default values
(constants; a list or dict default is shared by calls, so such a program is compiled anew for
each run, as CPython executes it anew), called with keyword arguments in any order. Now and
then a call cannot bind (an unknown keyword, a value given twice, a missing or an extra
argument): a call of one of the program's functions raises CPython's TypeError when it runs, on
both sides, and is compared as any run is; so does a built-in or method given a keyword it does
not take.

Programs also hold ``try``/``except``/``else`` (around any statements: loops with break and
continue, nested trys, returns in bodies and clauses, a clause that raises again), ``raise`` of
the exceptions anyscript raises (a str, an int, None or no argument), ``assert`` with and without
a message, and ``del`` of dict keys and list items. ``except E as e`` binds an exception, which
the generated code reads as a str (``str(e)``, an f-string of it, ``repr(e)``, ``repr(e.args)``,
``type(e).__name__``, an ``isinstance`` of it) and often keeps where the result shows it: the
caught exceptions are compared too. The harness's own exceptions (the guard's TooBig, the i64 check's
_BigSeen) are BaseExceptions that every except clause re-raises. An except clause can turn a
documented difference into any outcome (anyproc's OverflowError caught where CPython computes a
big int): a run of a program with a try
that disagrees is counted, not failed, when CPython met one (``try_documented``).

Programs also make and change sets (``SET_INT_LITS``, ``Gen.set_expr``/``set_use``/``set_stmt``/
``set_for``): displays (of constants, which CPython folds into a frozenset first, and of
expressions), comprehensions, ``set(...)`` of lists, strs, ranges, dicts and sets, the operators and
their augmented forms (also with the set itself or a non-set on the other side), the subset
comparisons, every method, loops that change the set they iterate, loops that add and discard
many numbers (``set_churn``: the table grows and reuses its dummies) before the items are listed. A set of numbers iterates in
CPython's order, a set of str does not (CPython randomizes str hashes per process), so its order
is never shown; a run that disagrees and whose CPython outcome changes with PYTHONHASHSEED (a str
slipped into a set of numbers) is counted, not failed (``hash_dependent``).

Documented differences are accepted in two ways: ``ALLOWED`` (each with its reason), and
a second CPython run under anyscript's container model (range/zip/enumerate/reversed
are lists; every NaN is one object) when the plain run
disagrees. Known engine bugs live in ``KNOWN_BUGS``: each has a minimal reproduction
that runs as a strict xfail (so it fails loudly once fixed, and the entry must then be
removed), and a narrow predicate that keeps its other instances out of the random
test's failure list.

``ANYPROC_DIFF_PROGRAMS=N`` runs N programs instead of the default; ``ANYPROC_DIFF_SEED``
changes the base seed. ``python test_script_differential.py N [SEED [START]]`` runs
programs START.. as a script, with a watchdog that names a hanging program, and prints
every mismatch and the skip counts.
"""

from __future__ import annotations

import ast
import copy
import faulthandler
import functools
import importlib.util
import math
import os
import random
import re
import sys
import tempfile
import warnings
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Tuple

import pytest

import anyproc
from anyproc import _native

I64_MIN = -(2**63)
I64_MAX = 2**63 - 1

DEFAULT_PROGRAMS = 2500
BASE_SEED = int(os.environ.get("ANYPROC_DIFF_SEED", "20261125"))
# Every AST_SHARE-th program also goes through anyproc.script (the ast path).
AST_SHARE = 3

# ---- generator ---------------------------------------------------------------------------------

INT_LITS = [0, 1, 2, 3, -1, -2, 5, 7, 10, -10, 100, 255, 2**31, -(2**31), 2**62, -(2**62),
            I64_MAX, 1000000007]
SMALL_LITS = [-3, -2, -1, 0, 1, 2, 3, 4, 5, 8]
FLOAT_LITS = ["0.0", "-0.0", "0.5", "1.5", "-2.5", "2.675", "0.1", "1e16", "1e-07", "1e300", "3.0",
              "float('nan')", "float('inf')", "-float('inf')", "123456789.125"]
STR_LITS = ["", "a", "ab", "abc", " ", "x y", "Hello World", "é", "ß", "İ", "ǅ", "日本", "🎉", "it's",
            'say "hi"', "a\\b", "\t\n", "1", "42", "-7", " 3 ", "1_0", "3.5", "nan", "١٢", "ABC", ",",
            "a,b,,c", "ﬁ", "ΣΑΣ", "ŉ", "aXbXc", "  ", "x", "0x1f", "1e3", "ab" * 40, "²", "½", "\x85",
            "\u2028", "ǈ", "-0", "+5", "1e400", "inf", "0b101", "\x1f"]
SEP_LITS = ["", " ", ",", "a", "X", "é", "🎉", "ab"]

ARG_INTS = [0, 1, -1, 2, 7, -7, 10, 63, 64, 2**62, -(2**62), 2**62 - 1, 12345678901, -999]
ARG_STRS = ["", "a", "hello", "Hello World", "héllo wörld", "日本語のテキスト", "emoji 🎉🎉 ok",
            "   lots   of \t whitespace \n ", "quote's \"double\" \\ back", "12", " -42 ", "3.25",
            "ǅungla ΣΟΦΟΣ straße", "abcdefgh", "abcdefghi", "éé", "ééééé", "x" * 70,
            "mixé " * 15, "a,b,,c,", "Ünïcödé🎉", "١٢٣", "\x00nul", "ﬁne ŉ İi",
            "\x1c\x1d a\x85b\u2028c\u3000d\x0b", "²³½ ⅷ", "ǈ ǲ ǆ ΐ", "1_000", "  +7\t"]
ARG_FLOATS = [0.0, -0.0, 1.5, -2.5, 0.1, 1e300, float("inf"), float("nan"), 2.5, 1e16]

KINDS = ["int", "str", "float", "bool", "list_int", "list_str", "list", "dict", "set_int"]
FORMAT_SPECS = ["", ">6", "<4", "^7", "*^9", "+", " ", "05", "08.3f", ",", "_", ".2f", ".3e", "g", "%", "x",
                "#b", "c", "s", ".2", "z.1f", "=+8", ",.1f", "#o", "X", "n", ".10", "0>5"]
# No spec from a generated value: CPython fills a width of 2**62 until memory runs out. A value
# of any type is shown cut short (`.8`): a list that gets its own text appended would double in
# size each time round a loop, which no line cap bounds.
FORMAT_TEMPLATES = ["{0!s:.8}|{1}", "{0!r:>8.8}{1}", "{1:^5}{0!s:.6}", "{0!s:.4}{1:x}", "{0[0]!r:.5}{1}",
                    "{{}}{1!a}", "{1!s:.3}|{0!a:.9}"]
FILLS = [" ", "*", "é", "🎉", "", "ab"]
PERCENT_TEMPLATES = ["%.8s|%d", "%.6r:%5.1f", "%-6.6s|%x", "%.5a%%%i", "%5.5s%+g", "%c%e", "%(k).4s%d"]
PARAM_KINDS = ["int", "int", "str", "str", "str", "list_int", "list_str", "list", "dict", "float", "set_int"]

# Sets (pipeline/set_ops.rs). A set of numbers ("set_int") iterates in CPython 3.11's order (anyproc
# lays its table out as CPython does), so it goes anywhere a value goes. A set of str ("set_str")
# iterates in another order (CPython randomizes str hashes per process), so it is only measured,
# searched, sorted, compared, combined or returned (a returned set compares by equality): never in
# "any" or KINDS, never listed, shown, popped or looped over unsorted. Neither holds None or a NaN
# (their hashes are addresses in CPython 3.11) nor a list (hashable in anyproc, refused by CPython).
# The numbers: small ints that collide in an 8-slot table, negatives, ints near 2**61 (whose hash
# wraps: 2**61 - 1 hashes as 0), and floats and bools equal to ints (1.0 and True are one key).
SET_INT_LITS = ["0", "1", "2", "3", "5", "7", "8", "9", "16", "17", "24", "32", "-1", "-2", "-8", "-9",
                "2305843009213693951", "2305843009213693952", "2305843009213693953", "-2305843009213693952",
                "4611686018427387904", "1.5", "2.0", "0.5", "-0.0", "-2.5", "1e16", "True", "False"]
SET_STR_LITS = ["", "a", "b", "ab", "ba", "é", "x", "日", "A", "🎉"]
SET_KINDS = {"set_int": "int", "set_str": "str"}  # the kinds of sets, with the kind of their items
# The kinds of expressions that may read a set (Gen.set_use).
SET_USES = ["int", "bool", "str", "list_int", "list_str"]
SET_OPS = ["|", "&", "-", "^"]
# Methods that take any number of iterables, and those that take one.
SET_VARIADIC = ["union", "intersection", "difference"]
SET_VARIADIC_UPDATE = ["update", "intersection_update", "difference_update"]
# Statements that write sets are this share of a program's statements.
SET_STMT_WEIGHT = 2
# The share of expressions of another kind that read a set (len, in, sorted, a comparison...).
SET_USE_SHARE = 0.05

# Tuples (container/tuple.rs): the share of expressions of the kinds TUPLE_USES that make or read a
# tuple (Gen.tuple_use): displays, tuple(), the built-ins that return tuples, + * and slices, the
# comparisons with tuples and lists, tuple keys and set members (and unhashable items in them),
# count/index, printing, and changes that CPython refuses.
TUPLE_USES = ["int", "bool", "str", "list", "any"]
TUPLE_USE_SHARE = 0.05

# Keyword arguments, default parameter values, lambdas and key functions (pipeline/binding.rs,
# keyed.rs, lambdas.rs). A share of the programs get helper functions (defaults, called with
# keywords) before the function that the harness calls.
HELPER_SHARE = 0.3
# The share of helpers with keyword-only parameters, `*rest` or `**opts` (compile/shaped.rs).
SHAPED_SHARE = 0.35
# The share of calls of a helper that are deliberately wrong (an unknown keyword, a value given
# twice, a missing or an extra argument): both sides raise CPython's TypeError when the call runs
# (anyproc used to refuse them when it compiled, also in code that never runs).
BAD_CALL_SHARE = 0.03
# Constants a default value may be (literals, negative numbers, lists/tuples/dicts of them).
DEFAULT_LITS = {
    "int": ["0", "1", "-1", "2", "7", "-3", "100", "4611686018427387904", "-9223372036854775808"],
    "float": ["0.5", "-2.5", "-0.0", "1e300", "0.1", "3.0", "-1e16", "2.675"],
    "str": [repr(s) for s in ["", "a", "x y", "é", "🎉", "1", "-7", "ab,c", "\t\n", "ΣΑΣ"]],
    "bool": ["True", "False"],
    "list_int": ["[]", "[1, -2]", "[0, 3, -1]", "[7]"],
    "list_str": ["[]", "['a', 'é']", "['', 'b b']", "['x']"],
    "list": ["[]", "[1, 'x', None]", "[-1.5, True, [2]]", "[(1, 'x')]"],
    "dict": ["{}", "{'a': 1}", "{'k': [-1], 'é': 'x'}", "{1: 'a', 'b': None}"],
    "tuple": ["()", "(1, 'x')", "(-1,)", "('a', [2, -3])", "((1, 2), 'b')"],
    # A default must be a literal, a list, tuple or dict (anyscript refuses set() and {1, 2}).
    "set_int": ["None"],
}
# Built-ins as function values (`key=len`), with the kind of their argument and result.
FN_BUILTINS = {"len": ("str", "int"), "str": ("any", "str"), "abs": ("int", "int"), "repr": ("any", "str"),
               "bool": ("any", "bool"), "ord": ("str", "int"), "int": ("str", "int"),
               "sorted": ("list_int", "list_int"), "ascii": ("str", "str"), "list": ("str", "list_str"),
               "str.lower": ("str", "str"), "str.strip": ("str", "str"), "hex": ("int", "str")}
KEY_BUILTINS = ["len", "len", "str", "str", "abs", "abs", "repr", "bool", "None", "ord", "int", "sorted", "list",
                "str.lower", "str.swapcase", "hex"]
# Templates with named fields: .format(name=..., k=...) takes any value as `name` and an int or str
# as `k`; .format_map's mapping any values (so every field is cut short, as FORMAT_TEMPLATES are).
NAMED_TEMPLATES = ["{name!s:.8}|{k}", "{k!r:>8.8}{0!s:.5}", "{name[0]!r:.5}{k:^5}", "{0!s:.4}{name!s:.4}",
                   "{{}}{k!a:.6}", "{k}|{name!s:.3}", "{name!r:.6}", "{missing}{k}", "é{k:*<4}"]
MAP_TEMPLATES = ["{a!s:.6}|{k!r:.5}", "{b!s:.4}{a!r:.3}", "{k!a:.5}", "{é!s:.3}{a[0]!r:.4}", "{zz!s:.2}", "x{{y}}"]
# Calls of built-ins and methods with a keyword they do not take, or a value given twice: anyproc
# refuses them when it compiles; the message is what CPython says of the same call.
BAD_BUILTIN_CALLS = [  # (kind of the result, a call CPython refuses with a TypeError when it runs)
    ("int", "len({s}, obj=1)"),
    ("list_int", "sorted({l}, cmp=None)"),
    ("int", "max({l}, keys=len)"),
    ("list", "list(enumerate({s}, begin=1))"),
    ("list_str", "{s}.split(',', sep=None)"),
    ("list_str", "{s}.splitlines(keepend=True)"),
    ("float", "round({f}, digits=1)"),
    ("int", "sum({l}, initial=0)"),
    ("int", "int({s}, bas=2)"),
    ("str", "{s}.expandtabs(tabs=2)"),
    ("list_int", "sorted(key=len)"),
    ("str", "{s}.format_map(k=1)"),
    ("float", "round({f}, 1, ndigits=2)"),
    ("list_str", "{s}.rsplit(' ', 1, maxsplit=0)"),
    ("list", "list(enumerate({l}, 1, start=2))"),
    ("int", "int({s}, 10, base=2)"),
    ("int", "len({s}, 2)"),
    ("list_int", "sorted({l}, {l})"),
    ("float", "math.sqrt({f}, 2.0)"),
    ("float", "math.pow({f})"),
    ("list_int", "sorted({l}, reverse=True, cmp=None)"),
    ("float", "round(ndigits={f})"),
]

# Built-ins and library calls (pipeline builtins, codecs, math, translate): this share of the
# expressions of the kinds LIBRARY_KINDS is written by Gen.library_expr.
LIBRARY_SHARE = 0.07
LIBRARY_KINDS = ["int", "float", "str", "bool", "list_int", "list_str", "list", "dict"]
# isinstance()/type(): the types a program names.
TYPE_NAMES = ["int", "float", "bool", "str", "list", "tuple", "dict", "set", "type(None)"]
# The kinds of values given to type() and isinstance(): no tuple (a list in anyscript) and no
# "unknown" (a loop variable over pairs is one).
TYPED_KINDS = ["int", "float", "bool", "str", "list_int", "list_str", "list", "dict", "set_int", "none"]
# A second argument of isinstance() that is no type: CPython's TypeError (not a list of types,
# which anyscript cannot tell from a tuple).
# What ``type(x)()`` (the type's empty value) is compared with: `is` only of None and the bools,
# whose identity both sides keep.
EMPTY_TESTS = ["== 0", "== False", "is None", "is False", "== ''", "== []", "== {}"]
BAD_TYPE_ARGS = ["len", "'int'", "5", "None", "(str, 5)", "(int, (len,))", "abs"]
# map()/filter() function values beyond FN_BUILTINS: a type's method called through the type.
STR_METHOD_FNS = {"str.lower": ("str", "str"), "str.upper": ("str", "str"), "str.strip": ("str", "str"),
                  "str.title": ("str", "str"), "str.swapcase": ("str", "str"), "str.casefold": ("str", "str"),
                  "str.isdigit": ("str", "bool"), "str.isalpha": ("str", "bool"), "str.isspace": ("str", "bool"),
                  "str.isupper": ("str", "bool"), "float": ("int", "float"), "bool": ("any", "bool")}
# The calls that take all of a map()/filter()'s items (anyscript refuses one anywhere else), by
# the kind of their result; `{}` is the map or filter, `{k}` a key function.
ITER_CONSUMERS = {
    "list": ["list({})", "list(tuple({}))", "sorted({})", "sorted({}, reverse=True)", "sorted({}, key={k})"],
    "int": ["sum({})", "min({})", "max({})", "max({}, default=-1)", "len(list({}))", "len(set({}))"],
    "bool": ["any({})", "all({})"],
    "str": ["''.join({})", "'|'.join({})", "min({}, default='')", "max({})"],
}
# str.maketrans's equal-length pairs (a few are not: ValueError) and third arguments.
MAKETRANS_PAIRS = [("abc", "xyz"), ("", ""), ("aé", "éa"), ("lo", "01"), (" ", "_"), ("ab", "a"), ("Hh", "🎉ß"),
                   ("eE", "33"), ("日", "x")]
MAKETRANS_DELETE = ["", "a", " ", "é🎉", "aeiou", "xyz"]
# Values of a translation table: a str, a code point (out of range too), None, and types it refuses.
TRANSLATE_VALUES = ["'x'", "''", "'ab'", "None", "65", "233", "0x1F389", "-1", "1114112", "1.5", "[1]"]
# str.encode/bytes.decode: the codecs and error handlers anyscript has, and now and then one it
# has not (LookupError). Codec errors are CPython's UnicodeEncodeError/UnicodeDecodeError on both
# sides, with the same arguments.
ENCODINGS = ["utf-8", "UTF_8", "ascii", "latin-1", "latin1", "utf-8", "ascii", "latin-1"]
CODEC_ERRORS = ["strict", "ignore", "replace"]
# math functions (no import in anyscript; CPython's runs get `math` in their namespace), by the kind
# of their result.
MATH_FLOAT = ["sqrt", "exp", "log", "log2", "log10", "fabs"]
MATH_INT = ["floor", "ceil", "trunc"]
MATH_BOOL = ["isnan", "isinf", "isfinite"]
# Module constants (`NAME = display` before the functions, one object that every function reads and
# may change): this share of the programs has one or two, of these kinds.
CONST_SHARE = 0.15
CONST_KINDS = ["list_int", "list_str", "list", "dict", "set_int", "set_str", "list_int", "dict"]


# try/except/else, raise, assert and del (pipeline/compile/exceptions.rs, compile/raising.rs). A
# clause names the exceptions anyscript catches (CPython's subclass relations), a tuple of them, or
# none; `as e` binds the MESSAGE in anyscript (there are no exception objects), so the generated code
# reads `e` only as str(e), an f-string of it, or len(str(e)), where both agree. Weights: common
# names more often.
CATCH_NAMES = (["ValueError", "TypeError", "Exception"] * 3 + ["KeyError", "IndexError", "ZeroDivisionError",
               "LookupError", "AssertionError"] * 2
               + ["ArithmeticError", "BaseException", "OSError", "IOError", "RuntimeError", "OverflowError",
                  "NameError", "UnboundLocalError", "MemoryError", "AttributeError", "UnicodeError",
                  "UnicodeEncodeError", "UnicodeDecodeError"])
# The exceptions `raise` may name (anyproc.script's _RAISABLE).
RAISE_NAMES = ["ValueError", "TypeError", "KeyError", "IndexError", "RuntimeError", "ZeroDivisionError",
               "OverflowError", "NameError", "UnboundLocalError", "MemoryError", "AssertionError", "AttributeError",
               "LookupError"]



@dataclass
class Signature:
    """A generated helper function: its name, each parameter's name, kind and default, how many
    of them take positional arguments (the rest are keyword-only), and its ``*args`` and
    ``**kwargs`` parameters' names, if it has them."""

    name: str
    params: List[Tuple[str, str, Optional[str]]]
    n_positional: int = -1
    vararg: Optional[str] = None
    kwarg: Optional[str] = None

    def __post_init__(self) -> None:
        if self.n_positional < 0:
            self.n_positional = len(self.params)


def arg_of(rng: random.Random, kind: str) -> Any:
    """A random argument value of ``kind``."""
    if kind == "int":
        return rng.choice(ARG_INTS)
    if kind == "str":
        return rng.choice(ARG_STRS)
    if kind == "float":
        return rng.choice(ARG_FLOATS)
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "list_int":
        return [rng.choice(ARG_INTS[:10]) for _ in range(rng.randint(0, 5))]
    if kind == "list_str":
        return [rng.choice(ARG_STRS[:12]) for _ in range(rng.randint(0, 5))]
    if kind == "list":
        return [arg_of(rng, rng.choice(["int", "str", "float", "bool"])) for _ in range(rng.randint(0, 4))] + \
            ([[1, "x"]] if rng.random() < 0.2 else [])
    if kind == "dict":
        keys = rng.sample(["a", "b", "k", "é", "日", "", "key"], rng.randint(0, 4))
        return {k: arg_of(rng, rng.choice(["int", "str", "list_int"])) for k in keys}
    if kind == "set_int":
        return {rng.choice([0, 1, 2, 8, 9, 16, -1, -8, 2**61, 2**61 - 1, 1.5, True]) for _ in range(rng.randint(0, 5))}
    raise AssertionError(kind)


class Gen:
    """Writes one random function as source text, tracking each variable's rough kind."""

    def __init__(self, rng: random.Random, name: str, helpers: Optional[List[Signature]] = None,
                 consts: Optional[Dict[str, str]] = None) -> None:
        self.r = rng
        self.name = name
        # The program's helper functions that this one may call (those written before it).
        self.helpers: List[Signature] = helpers or []
        # Lambdas being written around the current expression (nested ones are rare).
        self.lambda_depth = 0
        # Whether a parameter has a list, dict or tuple default (shared by calls: compiled anew for each run).
        self.mutable_default = False
        # Names not read for now: the containers, in the key function of `xs.sort(key=...)` (CPython
        # shows the list empty while it sorts; anyproc sorts a copy, architecture.md).
        self.hidden: set = set()
        self.lines: List[str] = []
        # The program's module constants, by kind: read and changed in place, never assigned (an
        # assignment, `+=` included, would make the name a local of the function in CPython).
        self.consts: Dict[str, str] = dict(consts or {})
        self.scopes: List[Dict[str, str]] = [dict(self.consts)]
        self.count = 0
        self.loops = 0
        # Names being iterated by an enclosing for: never mutated inside it (CPython would
        # loop forever on a list that grows, or raise on a dict that changes size).
        self.iterating: set = set()
        # Names bound only in an if branch: read after the if now and then, so that both
        # sides must agree on reading a local that was never assigned.
        self.maybe: Dict[str, str] = {}
        # The `as` names of the except clauses being written (innermost last): read only through
        # their message (exc_text), the one thing anyscript's `e` and CPython's agree on.
        self.exc_names: List[str] = []
        # `as` names whose clause has ended (CPython deletes them): read rarely, an UnboundLocalError.
        self.dead_exc: List[str] = []
        # How many try bodies enclose the statement being written (raise, assert, del and
        # failing expressions are likelier there).
        self.in_try = 0

    # -- names
    def fresh(self, prefix: str) -> str:
        """A new variable name."""
        self.count += 1
        return f"{prefix}{self.count}"

    def visible(self, kind: Optional[str] = None) -> List[str]:
        """Visible variables of ``kind`` (any kind when None)."""
        out = []
        for scope in self.scopes:
            for n, k in scope.items():
                if (kind is None and k.startswith("fn:")) or n in self.hidden:
                    continue  # function values are called, never shown or returned
                if kind is None or k == kind or (kind == "list" and k in ("list_int", "list_str")):
                    out.append(n)
        return out

    def mutable(self, kind: str) -> List[str]:
        """Visible variables of ``kind`` that no enclosing loop iterates."""
        # Tuples are lists at run time in anyscript (documented): never mutate one. Rarely, a
        # container that a loop iterates is mutated (the guard stops CPython if that never ends).
        return [n for n in self.visible(kind) if self.kind_of(n) != "tuple"
                and (n not in self.iterating or self.r.random() < 0.05)]

    # -- expressions
    def small(self) -> str:
        """An int expression whose value is small (range bounds, repeat counts)."""
        r = self.r.random()
        if r < 0.5:
            return str(self.r.choice(SMALL_LITS))
        if r < 0.7 and self.visible("int"):
            return f"({self.r.choice(self.visible('int'))} % {self.r.randint(1, 7)})"
        seqs = self.visible("str") + self.visible("list") + self.visible("dict")
        if seqs:
            return f"(len({self.r.choice(seqs)}) % {self.r.randint(2, 6)})"
        return str(self.r.randint(0, 5))

    def lit(self, kind: str) -> str:
        """A literal of ``kind``."""
        r = self.r
        if kind == "int":
            v = r.choice(INT_LITS)
            return "-9223372036854775808" if r.random() < 0.02 else (f"({v})" if v < 0 else str(v))
        if kind == "float":
            return r.choice(FLOAT_LITS)
        if kind == "str":
            return repr(r.choice(STR_LITS))
        if kind == "bool":
            return r.choice(["True", "False"])
        if kind == "none":
            return "None"
        if kind == "tuple":
            return "(1, 'x')"
        if kind in ("list_int", "list_str", "list"):
            sub = {"list_int": ["int"], "list_str": ["str"]}.get(kind, ["int", "str", "float", "bool", "none"])
            items = [self.lit(r.choice(sub)) for _ in range(r.randint(0, 4))]
            return "[" + ", ".join(items) + "]"
        if kind == "dict":
            keys = r.sample(["'a'", "'b'", "'k'", "'é'", "1", "True", "2.5", "None"], r.randint(0, 3))
            return "{" + ", ".join(f"{k}: {self.lit(r.choice(['int', 'str']))}" for k in keys) + "}"
        if kind in SET_KINDS:
            return self.set_display(SET_KINDS[kind], const=True)
        raise AssertionError(kind)

    def const_display(self, kind: str) -> str:
        """A module constant's value: a display of ``kind`` of constants only (``float('nan')`` and
        ``set()`` are calls)."""
        while True:
            text = self.lit(kind)
            if "float(" not in text and "set(" not in text:
                return text

    def atom(self, kind: str) -> str:
        """A variable of ``kind`` if there is one, else a literal (in an except clause, often the
        message of the exception it caught)."""
        names = self.visible(kind)
        if kind in ("str", "int") and (self.exc_names or self.dead_exc):
            x = self.r.random()
            if x < (0.35 if self.exc_names else 0.004):
                text = self.exc_text()
                return text if kind == "str" else f"len({text})"
        maybe = [n for n, k in self.maybe.items() if k == kind]
        if maybe and self.r.random() < 0.02:
            return self.r.choice(maybe)
        if names and self.r.random() < 0.7:
            return self.r.choice(names)
        return self.lit(kind)

    def expr(self, kind: str, d: int = 2) -> str:
        """An expression that (usually) has ``kind``; ``d`` bounds its depth."""
        r = self.r
        if kind == "any":
            unknown = self.visible("unknown")
            if unknown and r.random() < 0.2:
                return r.choice(unknown)
            tuples = self.visible("tuple")
            if tuples and r.random() < 0.2:
                return f"{r.choice(tuples)}[{self.index()}]"
            if self.helpers and d > 0 and r.random() < 0.15:
                return self.helper_call(d)
            kind = r.choice(KINDS)
        if r.random() < 0.02:  # a deliberate type confusion: both sides must raise alike
            kind = r.choice(KINDS)
        if d <= 0 or r.random() < 0.3:
            return self.atom(kind)
        if kind in SET_KINDS:
            return self.set_expr(kind, d)
        if kind in SET_USES and r.random() < SET_USE_SHARE:
            return self.set_use(kind, d)
        if kind in TUPLE_USES and r.random() < TUPLE_USE_SHARE:
            return self.tuple_use(kind, d)
        if kind in LIBRARY_KINDS and r.random() < LIBRARY_SHARE:
            return self.library_expr(kind, d)
        if r.random() < 0.1:
            return self.keyword_expr(kind, d)
        e = lambda k, dd=d - 1: self.expr(k, dd)  # noqa: E731
        ch = r.random
        if kind == "int":
            x = ch()
            if x < 0.35:
                op = r.choice(["+", "-", "*", "//", "%", "+", "-"])
                return f"({e('int')} {op} {e('int')})"
            if x < 0.4:
                return f"({e('int')} ** {r.randint(0, 3)})"
            if x < 0.45:
                return f"({e('int')} {r.choice(['&', '|', '^', '<<', '>>'])} {r.randint(0, 5)})"
            if x < 0.5:
                return f"(-{e('int')})"
            if x < 0.6:
                return f"len({e(r.choice(['str', 'list', 'dict', 'tuple']))})"
            choices = [
                lambda: f"int({e(r.choice(['float', 'str', 'bool', 'int']))})",
                lambda: f"int({e('str')}, {r.choice([2, 8, 10, 16, 36, 0])})",
                lambda: f"abs({e('int')})",
                lambda: f"{r.choice(['min', 'max'])}({e('int')}, {e('int')})",
                lambda: f"{r.choice(['min', 'max'])}({e('list_int')})",
                lambda: f"sum({e('list_int')})",
                lambda: f"sum({e('list_int')}, {e('int')})",
                lambda: f"{e('str')}.{r.choice(['find', 'rfind', 'count', 'index', 'rindex'])}({self.str_args()})",
                lambda: f"{e('list')}.{r.choice(['index', 'count'])}({e('any')})",
                lambda: f"ord({e('str')})",
                lambda: f"ord({e('str')}[{self.small()}])",
                lambda: f"round({e('float')})",
                lambda: f"({e('int')} if {e('bool')} else {e('int')})",
                lambda: f"{e('list_int')}[{self.index()}]",
                lambda: f"{e('dict')}.get({self.key()}, {e('int')})",
                lambda: f"pow({e('int')}, {e('int')}, {e('int')})",
                lambda: f"pow({e('int')}, {r.choice(['2', '3', '0', '-1'])})",
                lambda: f"divmod({e('int')}, {e(r.choice(['int', 'int', 'float', 'bool']))})[{r.choice([0, 1, -1])}]",
            ]
            return r.choice(choices)()
        if kind == "float":
            choices = [
                lambda: f"({e(r.choice(['int', 'float']))} / {e(r.choice(['int', 'float']))})",
                lambda: f"({e('float')} {r.choice(['+', '-', '*', '//', '%'])} {e(r.choice(['int', 'float']))})",
                lambda: f"({e('float')} ** {r.choice(['2', '0.5', '-1', '3'])})",
                lambda: f"float({e(r.choice(['int', 'str', 'float', 'bool']))})",
                lambda: f"round({e('float')}, {r.randint(-2, 3)})",
                lambda: f"abs({e('float')})",
                lambda: f"(-{e('float')})",
                lambda: f"{r.choice(['min', 'max'])}({e('float')}, {e(r.choice(['int', 'float']))})",
                lambda: f"({e('int')} ** {r.choice(['-1', '-2'])})",
            ]
            return r.choice(choices)()
        if kind == "str":
            choices = [
                lambda: f"({e('str')} + {e('str')})",
                lambda: f"({e('str')} * {self.small()})",
                lambda: f"{e('str')}[{self.index()}]",
                lambda: f"{e('str')}[{self.slice()}]",
                lambda: f"{e('str')}.{r.choice(['lower', 'upper', 'casefold', 'title', 'capitalize'])}()",
                lambda: f"{e('str')}.{r.choice(['strip', 'lstrip', 'rstrip'])}({self.opt_str()})",
                lambda: f"{e('str')}.replace({e('str', 0)}, {e('str', 0)}{self.opt(', ' + self.small())})",
                lambda: f"{r.choice(['str', 'repr'])}({e('any')})",
                lambda: f"chr({self.small()} + {r.choice([65, 97, 233, 0x65e5, 0x1F389, 48])})",
                lambda: f"{r.choice(['hex', 'oct', 'bin'])}({e(r.choice(['int', 'int', 'bool', 'float']))})",
                lambda: f"{r.choice(['str.lower', 'str.strip', 'str.title'])}({e(r.choice(['str', 'str', 'int']))})",
                lambda: f"{e('str')}.join({e('list_str')})",
                lambda: f"({e('str')} if {e('bool')} else {e('str')})",
                lambda: f"({e('str')} {r.choice(['or', 'and'])} {e('str')})",
                lambda: f"{e('list_str')}[{self.index()}]",
                lambda: f"{e('dict')}.get({self.key()}, {e('str')})",
                lambda: f"''.join(sorted({e('str')}))",
                lambda: f"''.join(reversed({e('str')}))",
                # String formatting (pipeline/format/): specs, str.format, printf-style, ascii.
                lambda: f"format({e(r.choice(['int', 'float', 'str', 'bool']))}, {r.choice(FORMAT_SPECS)!r})",
                lambda: f"{r.choice(FORMAT_TEMPLATES)!r}.format({e('any')}, {e(r.choice(['int', 'str']))})",
                lambda: f"({r.choice(PERCENT_TEMPLATES)!r} % ({e('any')}, {e(r.choice(['int', 'float']))}))",
                lambda: f"ascii({e('any')})[:12]",
                lambda: f"{e('str')}.{r.choice(['center', 'ljust', 'rjust'])}({self.small()}{self.opt(', ' + repr(r.choice(FILLS)))})",
                lambda: f"{e('str')}.zfill({self.small()})",
                lambda: f"{e('str')}.{r.choice(['removeprefix', 'removesuffix'])}({e('str', 0)})",
                lambda: f"'|'.join({e('str')}.{r.choice(['partition', 'rpartition'])}({e('str', 0)}))",
                lambda: f"'|'.join({e('str')}.splitlines({r.choice(['', 'True', '0'])}))",
                lambda: f"{e('str')}.swapcase()",
                lambda: f"{e('str')}.expandtabs({self.opt(self.small())})",
            ]
            return r.choice(choices)()
        if kind == "bool":
            cmp = ["==", "!=", "<", "<=", ">", ">="]
            choices = [
                lambda: f"({e(k := r.choice(['int', 'str', 'float']))} {r.choice(cmp)} {e(k)})",
                lambda: f"({e('int')} {r.choice(cmp)} {e('int')} {r.choice(cmp)} {e('int')})",
                lambda: f"({e('str')} {r.choice(['in', 'not in'])} {e(r.choice(['str', 'list_str', 'dict']))})",
                lambda: f"({e('int')} {r.choice(['in', 'not in'])} {e(r.choice(['list_int', 'list']))})",
                lambda: f"(not {e('any')})",
                lambda: f"bool({e('any')})",
                lambda: f"{e('str')}.{r.choice(['isdigit', 'isdecimal', 'isnumeric', 'isalpha', 'isalnum', 'isspace', 'islower', 'isupper', 'isascii', 'istitle'])}()",
                lambda: f"{e('str')}.{r.choice(['startswith', 'endswith'])}({self.str_args()})",
                lambda: f"{r.choice(['any', 'all'])}({e(r.choice(['list', 'list_int', 'str']))})",
                lambda: f"({e('bool')} {r.choice(['and', 'or'])} {e('bool')})",
                lambda: f"({e('any')} is {r.choice(['', 'not '])}None)",
                lambda: f"({e('list')} == {e('list')})",
                lambda: f"({e('dict')} == {e('dict')})",
            ]
            return r.choice(choices)()
        if kind in ("list_int", "list_str", "list"):
            elem = {"list_int": "int", "list_str": "str"}.get(kind, "any")
            it_var = self.fresh("c")
            choices = [
                lambda: f"({e(kind)} + {e(kind)})",
                lambda: f"({e(kind)} * {self.small()})",
                lambda: f"{e(kind)}[{self.slice()}]",
                lambda: f"sorted({e(kind)})",
                lambda: f"list(reversed({e(kind)}))",
                lambda: f"list({e(kind)})",
                lambda: f"[{self.with_var(it_var, elem, lambda: e(elem, 1))} for {it_var} in {e(kind)}]",
                lambda: f"[{it_var} for {it_var} in {e(kind)} if {self.with_var(it_var, elem, lambda: e('bool', 1))}]",
                lambda: self.two_clauses(kind, elem, d),
                # Unpacking in a display: any iterable of the element kind, str's characters too.
                lambda: f"[*({e(kind)}), {e(elem, 0)}, *{e(kind if elem != 'str' else 'str', 0)}]",
            ]
            if kind == "list_int":
                choices += [
                    lambda: f"list(range({self.small()}))",
                    lambda: f"list(range({self.small()}, {self.small()}, {r.choice([1, 2, -1, -2, 3])}))",
                    lambda: f"[{it_var} * {e('int', 0)} for {it_var} in range({self.small()})]",
                ]
            if kind == "list_str":
                choices += [
                    lambda: f"{e('str')}.{r.choice(['split', 'rsplit'])}({self.opt_split()})",
                    lambda: f"list({e('str')})",
                    lambda: f"list({e('dict')})",
                    lambda: f"list({e('dict')}.keys())",
                    lambda: f"sorted({e('dict')})",
                    # Keys views as sets (sorted: a set of str has no order to compare).
                    lambda: f"sorted({e('dict')}.keys() {r.choice(['&', '|', '-', '^'])} {e('dict')}.keys())",
                    lambda: f"sorted({e('list_str')} {r.choice(['&', '|', '-', '^'])} {e('dict')}.keys())",
                ]
            if kind == "list":
                choices += [
                    lambda: f"list(enumerate({e(r.choice(['str', 'list']))}))",
                    lambda: f"list(enumerate({e('list_str')}, {self.small()}))",
                    lambda: f"list(zip({e(r.choice(['str', 'list']))}, {e(r.choice(['str', 'list_int']))}))",
                    lambda: f"list({e('dict')}.items())",
                    lambda: f"list({e('dict')}.values())",
                    lambda: f"sorted({e('dict')}.items() {r.choice(['&', '-', '^'])} {e('dict')}.items())",
                    lambda: f"[{e('dict')}.keys() {r.choice(['==', '<=', '>'])} {e('dict')}.keys(), "
                            f"{e('str', 0)} in {e('dict')}.keys(), len({e('dict')}.values())]",
                    lambda: f"[{self.lit('int')}, {e('any', 0)}, {e('any', 0)}]",
                ]
            if self.visible("tuple"):
                choices += [lambda: f"{r.choice(['list', 'sorted'])}({r.choice(self.visible('tuple'))})"]
            return r.choice(choices)()
        if kind == "dict":
            choices = [
                lambda: f"dict({e('dict')})",
                lambda: f"{e('dict')}.copy()",
                lambda: f"dict(zip({e('list_str')}, {e('list_int')}))",
                lambda: f"dict(enumerate({e('list_str')}))",
                lambda: f"{{{self.key()}: {e('any', 0)}, {self.key()}: {e('any', 0)}}}",
                lambda: f"{{**({e('dict')}), {self.key()}: {e('any', 0)}, **{e('dict', 0)}}}",
            ]
            return r.choice(choices)()
        return self.atom(kind)

    # -- built-ins and library calls: isinstance/type, map/filter, translate, codecs, math
    def library_expr(self, kind: str, d: int) -> str:
        """An expression of ``kind`` (LIBRARY_KINDS) that calls isinstance() or type(), map() or
        filter(), str.maketrans/translate or dict.fromkeys, str.encode/bytes.decode, or math."""
        r = self.r
        makers = {
            "int": [self.iter_consumed, self.codec_expr, self.math_expr, self.type_convert],
            "float": [self.math_expr, self.type_convert],
            "str": [self.iter_consumed, self.translate_expr, self.codec_expr, self.type_convert],
            "bool": [self.type_test, self.type_test, self.iter_consumed, self.codec_expr, self.math_expr],
            "list_int": [self.iter_consumed, self.codec_expr],
            "list_str": [self.iter_consumed, self.type_convert],
            "list": [self.iter_consumed, self.codec_expr],
            "dict": [self.translate_expr, self.translate_expr, self.type_convert],
        }[kind]
        return r.choice(makers)(kind, d)

    def typed_value(self, d: int) -> str:
        """A value for type() or isinstance()."""
        kind = self.r.choice(TYPED_KINDS)
        return "None" if kind == "none" else self.expr(kind, d)

    def type_spec(self, depth: int = 0) -> str:
        """isinstance()'s second argument: a type, ``type(value)``, or a tuple of them (nested now and then)."""
        r = self.r
        x = r.random()
        if x < 0.5 or depth > 1:
            return r.choice(TYPE_NAMES)
        if x < 0.6:
            return f"type({self.typed_value(0)})"
        items = [self.type_spec(depth + 1) for _ in range(r.choice([1, 2, 2, 3]))]
        return f"({', '.join(items)}{',' if len(items) == 1 else ''})"

    def type_test(self, kind: str, d: int) -> str:
        """A bool from isinstance() or type(): ``isinstance(x, T)``, ``type(x) is T``, ``type(x) == T``,
        ``type(x) in (...)``; now and then an isinstance() whose second argument is no type (TypeError)."""
        r = self.r
        x = self.typed_value(d - 1)
        if r.random() < 0.05:
            return f"isinstance({x}, {r.choice(BAD_TYPE_ARGS)})"
        t = r.choice(TYPE_NAMES)
        choices = [
            lambda: f"isinstance({x}, {self.type_spec()})",
            lambda: f"isinstance({x}, {self.type_spec()})",
            lambda: f"isinstance({x}, {self.type_spec()})",
            lambda: f"(not isinstance({x}, {self.type_spec()}))",
            lambda: f"(type({x}) {r.choice(['is', 'is not', '==', '!='])} {t})",
            lambda: f"(type({x}) {r.choice(['is', '=='])} type({self.typed_value(0)}))",
            lambda: f"(type({x}) {r.choice(['in', 'not in'])} ({t}, {r.choice(TYPE_NAMES)}))",
            lambda: f"(type({x})() {r.choice(EMPTY_TESTS)})",
            lambda: "(type(None)() is None)",
            lambda: f"(type({x}).__name__ {r.choice(['==', '!=', '<'])} {r.choice(['int', 'str', 'list', 'tuple'])!r})",
        ]
        return r.choice(choices)()

    def type_convert(self, kind: str, d: int) -> str:
        """``type(x)(y)``: a conversion through the type of a value (``type(n)('7')``), or ``type(x)()``."""
        r = self.r
        e = lambda k: self.expr(k, d - 1)  # noqa: E731
        arg = {"int": ["str", "float", "bool", "int"], "float": ["int", "str", "float"], "str": ["any"],
               "list_str": ["str", "list_str"], "dict": ["dict"]}[kind]
        if r.random() < 0.15:
            return f"type({e(kind)})()"
        return f"type({e(kind)})({e(r.choice(arg))})"

    def fn_for(self, arg: str, ret: Optional[str], arity: int = 1) -> Tuple[str, str]:
        """A function value for map()/filter(): a built-in, a str method through its type
        (``str.lower``), a function variable or a lambda, taking ``arity`` items of kind ``arg``;
        with the kind of its result (``ret`` where given)."""
        r = self.r
        if arity == 1:
            named = [(n, k[1]) for n, k in list(FN_BUILTINS.items()) + list(STR_METHOD_FNS.items())
                     if k[0] in (arg, "any") and ret in (None, k[1])]
            fns = [(n, self.kind_of(n).rsplit(":", 1)[1]) for n in self.visible_fns(ret)
                   if self.kind_of(n).split(":")[1] in (arg, "any")]
            if named and r.random() < 0.55:
                return r.choice(named)
            if fns and r.random() < 0.3:
                return r.choice(fns)
        out = ret or r.choice(["int", "str", "bool"])
        # A lambda that reads none of the function's variables (anyscript refuses one that does,
        # but as a key=).
        return self.lambda_text([arg if arg in ("int", "str") else "any"] * arity, out, capture=False), out

    def iterable_of(self, item: str, d: int) -> str:
        """An iterable whose items have kind ``item`` (int, str or any)."""
        r = self.r
        e = lambda k: self.expr(k, d - 1)  # noqa: E731
        if item == "int":
            return r.choice([lambda: e("list_int"), lambda: f"range({self.small()})", lambda: e("set_int")])()
        if item == "str":
            return r.choice([lambda: e("list_str"), lambda: e("list_str"), lambda: e("str")])()
        return e("list")

    def iterator_call(self, d: int, want: Optional[str] = None) -> Tuple[str, str]:
        """``map(f, xs)``, ``map(f, xs, ys)``, ``filter(f, xs)`` or ``filter(None, xs)``, with the kind
        of its items (``want``: that kind, int, str or bool, where the caller needs one)."""
        r = self.r
        x = r.random()
        if x < 0.5:
            arg = r.choice(["int", "str", "str", "any"])
            f, out = self.fn_for(arg, want)
            return f"map({f}, {self.iterable_of(arg, d)})", out
        if x < 0.62:
            args = [r.choice(["int", "str"]) for _ in range(2)]
            out = want or r.choice(["int", "str", "bool"])
            lam = self.lambda_text(args, out, capture=False)
            return f"map({lam}, {self.iterable_of(args[0], d)}, {self.iterable_of(args[1], d)})", out
        item = want if want in ("int", "str") else r.choice(["int", "str", "any"])
        if x < 0.75:
            return f"filter(None, {self.iterable_of(item, d)})", item
        f, _ = self.fn_for(item, r.choice(["bool", "bool", None]))
        return f"filter({f}, {self.iterable_of(item, d)})", item

    def iter_consumed(self, kind: str, d: int) -> str:
        """A map() or filter() as the argument of a call that takes all its items (the one place
        anyscript allows one): list(), tuple() (a list in anyscript: always inside list()), set(),
        sorted(), sum(), min(), max(), any(), all(), str.join."""
        r = self.r
        if kind == "bool":
            call, _ = self.iterator_call(d, r.choice(["bool", "int", "str", None]))
            return r.choice(ITER_CONSUMERS["bool"]).format(call)
        if kind == "str":
            call, _ = self.iterator_call(d, "str")
            return r.choice(ITER_CONSUMERS["str"]).format(call)
        if kind == "int":
            template = r.choice(ITER_CONSUMERS["int"])
            call, _ = self.iterator_call(d, None if template.startswith("len") else "int")
            return template.format(call)
        want = {"list_int": "int", "list_str": "str"}.get(kind)
        call, item = self.iterator_call(d, want)
        if item in ("int", "bool") and r.random() < 0.2:
            return f"list(set({call}))"  # a set of numbers iterates in CPython's order
        if r.random() < 0.1:
            return f"sorted(set({call}))"
        return r.choice(ITER_CONSUMERS["list"]).format(call, k=self.key_fn(item if item != "bool" else "int"))

    def translate_table(self, d: int) -> str:
        """A table for str.translate: str.maketrans of one, two or three arguments (of a dict with
        str or int keys, now and then a bad one), a dict comprehension or display from code points,
        a list or a str (indexed by code point)."""
        r = self.r
        a, b = r.choice(MAKETRANS_PAIRS)
        via = r.choice(["str", "str", "''", "'ab'"])  # a static method, called on its type or a value
        c = self.fresh("c")
        value = lambda: r.choice(TRANSLATE_VALUES)  # noqa: E731
        choices = [
            lambda: f"{via}.maketrans({a!r}, {b!r})",
            lambda: f"{via}.maketrans({a!r}, {b!r}, {r.choice(MAKETRANS_DELETE)!r})",
            lambda: f"str.maketrans({self.expr('str', 0)}, {self.expr('str', 0)})",
            lambda: f"str.maketrans({self.translate_dict()})",
            lambda: "{" + ", ".join(f"{ord(ch)}: {value()}" for ch in r.choice(MAKETRANS_PAIRS)[0]) + "}",
            lambda: f"{{ord({c}): {self.with_var(c, 'str', lambda: r.choice([value(), f'{c}.upper()', f'ord({c}) + 1', f'{c} * 2']))} "
                    f"for {c} in {self.expr('str', d - 1)}}}",
            lambda: self.expr(r.choice(["str", "list_str", "list_int"]), d - 1),
        ]
        return r.choice(choices)()

    def translate_dict(self) -> str:
        """str.maketrans's one argument: a dict of one-character str keys and code points (a longer
        key or a float value: ValueError and TypeError), or now and then no dict at all."""
        r = self.r
        if r.random() < 0.05:
            return self.expr(r.choice(["str", "list_int"]), 0)
        keys = r.sample(["'a'", "'é'", "' '", "'🎉'", "97", "0x65e5", "'ab'", "''", "1.5"], r.randint(0, 3))
        return "{" + ", ".join(f"{k}: {r.choice(TRANSLATE_VALUES[:6])}" for k in keys) + "}"

    def translate_expr(self, kind: str, d: int) -> str:
        """A str translated by a table (kind str), or a dict: a maketrans table or dict.fromkeys."""
        r = self.r
        if kind == "str":
            return f"{self.expr('str', d - 1)}.translate({self.translate_table(d)})"
        if r.random() < 0.35:
            a, b = r.choice(MAKETRANS_PAIRS)
            return r.choice([f"str.maketrans({a!r}, {b!r})", f"str.maketrans({self.translate_dict()})"])
        # dict.fromkeys: of a list, a str, a range, a dict's keys or a set of numbers (never of str:
        # the order would show); one value shared by every key (a list: its changes show everywhere).
        src = r.choice([lambda: self.expr(r.choice(["list_str", "list_int", "str", "dict", "set_int"]), d - 1),
                        lambda: f"range({self.small()})"])()
        via = r.choice(["dict", "dict", "{}", self.expr("dict", 0)])
        value = r.choice(["", "", ", None", ", 0", ", []", f", {self.expr('any', 0)}"])
        return f"{via}.fromkeys({src}{value})"

    def codec_args(self, encode: bool) -> str:
        """The arguments of str.encode or bytes.decode: none, an encoding, and an error handler, by
        position or keyword; now and then a name the codecs do not know (LookupError)."""
        r = self.r
        enc = repr(r.choice(ENCODINGS) if r.random() > 0.03 else r.choice(["utf-9", "bogus"]))
        err = repr(r.choice(CODEC_ERRORS) if r.random() > 0.03 else "bogus")
        return r.choice(["", f"{enc}", f"{enc}, {err}", f"encoding={enc}", f"errors={err}",
                         f"{enc}, errors={err}", f"encoding={enc}, errors={err}", f"errors={err}, encoding={enc}"])

    def encoded(self, d: int) -> str:
        """A bytes value (there are none but encode()'s), now and then a bytearray of it or one
        joined to bytes, now and then cut by a slice, so that a decode meets a sequence cut short."""
        b = f"{self.expr('str', d - 1)}.encode({self.codec_args(True)})"
        if self.r.random() < 0.2:
            b = self.r.choice([f"bytearray({b})", f"(bytearray({b}) + b'x')", f"(b'y' + bytearray({b}))",
                               f"bytearray({b})[::-1]", f"(bytearray({b}) * 2)"])
        if self.r.random() < 0.3:
            b = self.bytes_method(b)
        return f"{b}[{self.slice()}]" if self.r.random() < 0.3 else b

    def bytes_method(self, b: str) -> str:
        """A bytes method that gives bytes, applied to `b`, its arguments now and then wrong (a
        str for bytes, a fill of two bytes, a table of the wrong length)."""
        r = self.r
        small = lambda: r.choice(["0", "1", "3", "8", "-2", "True", "'3'", "2.0"])  # noqa: E731
        other = lambda: r.choice(["b''", "b' '", "b'a'", "b'e '", "b'\\xc3'", "b'TH'", "'a'", "None", "1"])  # noqa: E731
        fill = r.choice(["", ", b'*'", ", b''", ", b'ab'", ", '*'", ", None"])
        return r.choice([
            f"{b}.{r.choice(['center', 'ljust', 'rjust'])}({small()}{fill})", f"{b}.zfill({small()})",
            f"{b}.expandtabs({r.choice(['', small()])})", f"{b}.{r.choice(['title', 'capitalize', 'swapcase'])}()",
            f"{b}.{r.choice(['removeprefix', 'removesuffix'])}({other()})", f"{b}.translate(None, {other()})",
            f"{b}.translate(bytes.maketrans({other()}, {other()}))", f"{b}.{r.choice(['partition', 'rpartition'])}"
            f"({other()})[{r.choice(['0', '2', '-1'])}]", f"{b}.splitlines({r.choice(['', 'True', '0'])})"
            f"[{r.choice(['0', '-1'])}]", f"bytes.fromhex({b}.hex({r.choice(['', repr(' '), repr(':')])}))",
            f"{b}.{r.choice(['center', 'partition', 'title', 'zfill'])}({', '.join(small() for _ in range(r.choice([0, 2, 3])))})",
        ])

    def codec_expr(self, kind: str, d: int) -> str:
        """str.encode and bytes.decode: a round trip, a length, a byte, the bytes listed, compared,
        shown, or in a list (which the result shows as bytes)."""
        r = self.r
        b = self.encoded(d)
        if kind == "int":
            return r.choice([f"len({b})", f"{b}[{self.index()}]", f"sum({b})", f"max({b}, default=-1)"])
        if kind == "str":
            return r.choice([f"{b}.decode({self.codec_args(False)})", f"{b}.decode({self.codec_args(False)})",
                             f"{r.choice(['str', 'repr'])}({b})"])
        if kind == "bool":
            return r.choice([f"({b} {r.choice(['==', '!='])} {self.encoded(d)})", f"bool({b})",
                             f"({b}.decode({self.codec_args(False)}) == {self.expr('str', 0)})"])
        if kind == "list_int":
            return r.choice([f"list({b})", f"sorted({b})"])
        return f"[{b}, {self.expr('any', 0)}]"

    def math_expr(self, kind: str, d: int) -> str:
        """A math function (no import in anyscript): floor/ceil/trunc and gcd (int), sqrt, exp, log
        with and without a base, log2, log10, fabs (float), isnan/isinf/isfinite (bool)."""
        r = self.r
        num = lambda: self.expr(r.choice(["float", "float", "int", "bool"]), d - 1)  # noqa: E731
        if kind == "int":
            if r.random() < 0.3:
                return f"math.gcd({', '.join(self.expr('int', d - 1) for _ in range(r.choice([0, 1, 2, 2, 3])))})"
            return f"math.{r.choice(MATH_INT)}({num()})"
        if kind == "bool":
            return f"math.{r.choice(MATH_BOOL)}({num()})"
        fn = r.choice(MATH_FLOAT)
        if fn == "log" and r.random() < 0.4:
            return f"math.log({num()}, {r.choice(['2', '10', '0.5', '1', self.expr(r.choice(['int', 'float']), 0)])})"
        return f"math.{fn}({num()})"

    # -- sets
    def set_display(self, elem: str, const: bool) -> str:
        """``{a, b, ...}`` of ``elem`` items, or ``set()``: constants only when ``const`` (more
        than two constants CPython folds into a frozenset first, which can move colliding keys)."""
        r = self.r
        n = r.choice([0, 1, 2, 3, 3, 4, 5, 6])
        if n == 0:
            return "set()"
        lits = SET_INT_LITS if elem == "int" else [repr(x) for x in SET_STR_LITS]
        items = [r.choice(lits) if const or r.random() < 0.6 else self.expr(elem, 0) for _ in range(n)]
        return "{" + ", ".join(items) + "}"

    def set_iterable(self, kind: str, d: int, adds: bool) -> str:
        """An argument of a set method or of set(): a set, a list, a range, a str or a dict; of
        items of the set's own kind only when they join it (``adds``), or a set of numbers would
        take strs in and show their order."""
        r = self.r
        e = lambda k: self.expr(k, d - 1)  # noqa: E731
        opts = [lambda: e(kind), lambda: e(kind)]
        names = self.visible(kind)
        if names:
            opts.append(lambda: r.choice(names))  # the set itself, or another of its kind
        if kind == "set_int":
            opts += [lambda: e("list_int"), lambda: f"range({self.small()}, {self.small()})"]
            if not adds:
                opts += [lambda: e("list_str"), lambda: e("str"), lambda: e("dict"), lambda: e("set_str")]
        else:
            opts += [lambda: e("list_str"), lambda: e("str"), lambda: e("dict")]
            if not adds:
                opts += [lambda: e("list_int"), lambda: e("set_int")]
        return r.choice(opts)()

    def set_iterables(self, kind: str, d: int, adds: bool) -> str:
        """The arguments of a variadic set method: none to three iterables."""
        return ", ".join(self.set_iterable(kind, d, adds) for _ in range(self.r.choice([0, 1, 1, 1, 2, 3])))

    def set_expr(self, kind: str, d: int) -> str:
        """An expression whose value is a set of ``kind``: a display, a comprehension, set(...), an
        operator (now and then with the same set on both sides, or a non-set: TypeError) or a method."""
        r = self.r
        elem = SET_KINDS[kind]
        seq = "list_" + elem
        e = lambda k, dd=d - 1: self.expr(k, dd)  # noqa: E731
        c = self.fresh("c")
        cond = lambda: f" if {self.with_var(c, elem, lambda: e('bool', 1))}" if r.random() < 0.3 else ""  # noqa: E731
        # `|` and `^` take the right operand's items in: of the set's own kind only.
        op = r.choice(SET_OPS)
        other = kind if op in "|^" else r.choice([kind, kind, "set_int", "set_str"])
        choices = [
            lambda: self.set_display(elem, const=r.random() < 0.4),
            lambda: f"set({self.set_iterable(kind, d, adds=True)})",
            lambda: f"({e(kind)} {op} {e(other)})",
            lambda: f"({e(kind)} {op} {e(other)})",
            lambda: f"{e(kind)}.union({self.set_iterables(kind, d, adds=True)})",
            lambda: f"{e(kind)}.{r.choice(['intersection', 'difference'])}({self.set_iterables(kind, d, adds=False)})",
            lambda: f"{e(kind)}.symmetric_difference({self.set_iterable(kind, d, adds=True)})",
            lambda: f"{e(kind)}.copy()",
            lambda: f"{{{self.with_var(c, elem, lambda: e(elem, 1))} for {c} in {e(seq)}{cond()}}}",
        ]
        names = self.visible(kind)
        if names:  # the same set on both sides: `s - s`, `s ^ s`, s.union(s)
            n = r.choice(names)
            choices += [lambda: f"({n} {r.choice(SET_OPS)} {n})",
                        lambda: f"{n}.{r.choice(SET_VARIADIC + ['symmetric_difference'])}({n})"]
        if r.random() < 0.04:  # a non-set operand (on either side): TypeError
            x = e(r.choice(["list_int", "str", "int", "dict", "list_str"]))
            return f"({e(kind)} {op} {x})" if r.random() < 0.7 else f"({x} {op} {e(kind)})"
        if kind == "set_int":
            choices += [
                lambda: f"set(range({self.small()}, {self.small()}{r.choice(['', ', 2', ', -1', ', 8'])}))",
                lambda: f"{{{c} * {r.choice([8, 16, -1, 3])} for {c} in range({self.small()}){cond()}}}",
                lambda: f"{{len({c}) for {c} in {self.with_var(c, 'str', lambda: e('list_str'))}}}",
            ]
        else:
            choices += [
                lambda: f"set({e('str')})",
                lambda: f"set({e('dict')})",
                lambda: f"{{{c}.{r.choice(['lower', 'upper', 'strip'])}() for {c} in {e(r.choice(['str', 'list_str']))}}}",
            ]
        return r.choice(choices)()

    def tuple_expr(self, d: int) -> str:
        """An expression whose value is a tuple (now and then one holding a list, which is unhashable)."""
        r = self.r
        e = lambda k, dd=d - 1: self.expr(k, dd)  # noqa: E731
        tuples = self.visible("tuple")
        if tuples and r.random() < 0.4:
            return r.choice(tuples)
        if d <= 0:
            return r.choice(DEFAULT_LITS["tuple"])
        choices = [
            lambda: f"({e('any', 0)},)",
            lambda: f"({e('any', 0)}, {e(r.choice(['int', 'str']), 0)})",
            lambda: f"tuple({e(r.choice(['list_int', 'list_str', 'str', 'set_int', 'dict']))})",
            lambda: f"({self.tuple_expr(d - 1)} + {self.tuple_expr(d - 1)})",
            lambda: f"({self.tuple_expr(d - 1)} * {self.small()})",
            lambda: f"{self.tuple_expr(d - 1)}[{self.small()}:{r.choice(['', '-1', '3', self.small()])}]",
            lambda: f"{self.tuple_expr(d - 1)}[::{r.choice(['-1', '2', '-2'])}]",
            lambda: f"divmod({e('int')}, {e(r.choice(['int', 'int', 'float']))})",
            lambda: f"{e('str')}.{r.choice(['partition', 'rpartition'])}({e('str', 0)})",
            lambda: f"{e('list_str')}[0].partition(' ') if {e('list_str', 0)} else ()",
            lambda: f"max(zip({e('list_int')}, {e('str')}), default=())",
            lambda: f"min(enumerate({e('list_str')}), default=(0, ''))",
            lambda: f"sorted({e('dict')}.items())[0] if {e('dict', 0)} else ()",
            lambda: r.choice(DEFAULT_LITS["tuple"]),
        ]
        return r.choice(choices)()

    def tuple_use(self, kind: str, d: int) -> str:
        """An expression of ``kind`` that makes or reads a tuple (Python's results and errors)."""
        r = self.r
        e = lambda k, dd=d - 1: self.expr(k, dd)  # noqa: E731
        t = lambda: self.tuple_expr(d - 1)  # noqa: E731
        cmp = ["<", "<=", ">", ">=", "==", "!="]
        if kind == "int":
            choices = [
                lambda: f"len({t()})",
                lambda: f"{t()}.count({e('any', 0)})",
                lambda: f"{t()}.index({e('any', 0)})",
                lambda: f"len({{{t()}: 1, {t()}: 2}})",
                lambda: f"len({{{t()}, {t()}, {t()}}})",
                lambda: f"{{{t()}: {e('int', 0)}}}.get({t()}, -1)",
            ]
        elif kind == "bool":
            choices = [
                lambda: f"({t()} {r.choice(cmp)} {t()})",
                lambda: f"({t()} {r.choice(cmp)} {e(r.choice(['list', 'list_int']))})",
                lambda: f"({e('any', 0)} {r.choice(['in', 'not in'])} {t()})",
                lambda: f"({t()} in {{{t()}: 0}})",
                lambda: f"({t()} in {{{t()}}})",
                lambda: f"isinstance({t()}, {r.choice(['tuple', 'list', '(list, tuple)', '(int, (tuple,))'])})",
                lambda: f"(type({t()}) is {r.choice(['tuple', 'list'])})",
                lambda: f"({t()} == tuple({e('list')}))",
                lambda: f"(list({t()}) == {e('list')})",
                lambda: f"{e('str')}.{r.choice(['startswith', 'endswith'])}({t()})",
            ]
        elif kind == "str":
            choices = [
                lambda: f"{r.choice(['repr', 'str'])}({t()})",
                lambda: f"format({t()}, '>12.12') + '|' + str({t()})",
                lambda: f"'%s-%s' % ({e('str', 0)}, {e('int', 0)})",
                lambda: f"'%s' % ({t()},)",
                lambda: f"'|'.join({t()})",
                lambda: f"'{{0}}/{{1[1]}}'.format({t()}, {e('str')}.partition(' '))",
            ]
        elif kind == "list":
            choices = [
                lambda: f"list({t()})",
                lambda: f"sorted({t()})",
                lambda: f"[{t()}, {t()}[1:]]",
                lambda: f"sorted([{t()}, {t()}, {t()}])",
                lambda: f"list({e('dict')}.items())",
                lambda: f"list(zip({e('list_int')}, {t()}))",
                lambda: f"[{e('list')} + {t()}]",
                lambda: f"[{t()} + {e('list')}]",
            ]
        else:  # any
            choices = [
                lambda: t(),
                lambda: f"{t()}[{self.index()}]",
                lambda: f"sum([{t()}, {t()}], ())",
                lambda: f"dict([{t()}, {t()}])",
            ]
        return r.choice(choices)()

    def set_use(self, kind: str, d: int) -> str:
        """An expression of ``kind`` that reads a set: its length, a membership or subset test, its
        items sorted, min/max/sum/any/all, and (of a set of numbers) its items in their order."""
        r = self.r
        e = lambda k, dd=d - 1: self.expr(k, dd)  # noqa: E731
        sk = r.choice(["set_int", "set_int", "set_str"])
        ints = self.mutable("set_int")
        if kind == "int":
            choices = [
                lambda: f"len({e(sk)})",
                lambda: f"sum({e('set_int')})",
                lambda: f"{r.choice(['min', 'max'])}({e('set_int')})",
                lambda: f"len({e(sk)} {r.choice(SET_OPS)} {e(r.choice(list(SET_KINDS)))})",
            ]
            if ints:
                choices.append(lambda: f"{r.choice(ints)}.pop()")
        elif kind == "bool":
            cmp = ["<", "<=", ">", ">=", "==", "!="]
            choices = [
                lambda: f"({e(r.choice(['int', 'str', 'float', SET_KINDS[sk]]))} {r.choice(['in', 'not in'])} {e(sk)})",
                lambda: f"({e(sk)} {r.choice(cmp)} {e(r.choice([sk, sk, 'set_int', 'set_str']))})",
                lambda: f"{e(sk)}.{r.choice(['issubset', 'issuperset', 'isdisjoint'])}({self.set_iterable(sk, d, adds=False)})",
                lambda: f"{r.choice(['any', 'all', 'bool'])}({e(sk)})",
                # Order comparisons with a non-set: TypeError (== and != are False and True).
                lambda: f"({e(sk)} {r.choice(cmp)} {e(r.choice(['list_int', 'dict', 'int', 'str']))})",
            ]
        elif kind == "str":
            choices = [
                lambda: f"{r.choice(['min', 'max'])}({e('set_str')})",
                lambda: f"'|'.join(sorted({e('set_str')}))",
                lambda: f"{r.choice(['str', 'repr'])}({e('set_int')})",
            ]
        elif kind == "list_int":
            c = self.fresh("c")
            choices = [
                lambda: f"sorted({e('set_int')})",
                lambda: f"list({e('set_int')})",
                lambda: f"sorted({e('set_int')}, reverse=True)",
                lambda: f"[{self.with_var(c, 'int', lambda: e('int', 1))} for {c} in {e('set_int')}]",
            ]
        else:  # list_str
            choices = [lambda: f"sorted({e('set_str')})",
                       lambda: f"sorted({e('set_str')}.{r.choice(SET_VARIADIC)}({self.set_iterables('set_str', d, adds=True)}))"]
        return r.choice(choices)()

    def set_stmt(self, level: int, depth: int) -> None:
        """A statement that writes a set: a new set variable, an augmented assignment (also of the
        set itself, or of a non-set: TypeError), or a method that changes it (add, discard, remove,
        pop, clear, the updates)."""
        r = self.r
        names = self.mutable("set_int") + self.mutable("set_str")
        if not names or r.random() < 0.3:
            kind = r.choice(["set_int", "set_int", "set_str"])
            v = self.fresh("s")
            self.emit(level, f"{v} = {self.set_expr(kind, 2)}")
            self.scopes[-1][v] = kind
            return
        n = r.choice(names)
        kind = self.kind_of(n)
        elem = SET_KINDS[kind]
        c = r.random()
        if kind == "set_int" and r.random() < 0.12 and n not in self.consts:  # (it writes `n ^= ...`)
            self.set_churn(level, n)
        elif c < 0.25 and n not in self.consts:  # `C |= x` would make a module constant C a local
            op = r.choice(SET_OPS)
            x = r.random()
            if x < 0.15:
                rhs = n  # `s &= s`, `s ^= s`
            elif x < 0.23:
                rhs = self.expr(r.choice(["list_int", "str", "int", "dict"]), 1)  # TypeError
            else:
                rhs = self.expr(kind if op in "|^" else r.choice([kind, "set_int", "set_str"]), 1)
            self.emit(level, f"{n} {op}= {rhs}")
        elif c < 0.42:
            self.emit(level, f"{n}.add({self.expr(elem, 1)})")
        elif c < 0.52:
            self.emit(level, f"{n}.{r.choice(['discard', 'remove'])}({self.expr(r.choice([elem, elem, 'int', 'str']), 1)})")
        elif c < 0.62:
            # Which item pop() takes shows the order: a set of str only when it holds one item at most.
            guard = kind == "set_str" or r.random() < 0.2
            if guard:
                test = r.choice(["< 2", "<= 1", "== 0"] + (["<= 2", "> 3"] if kind == "set_int" else []))
                self.emit(level, f"if len({n}) {test}:")
            if kind == "set_int" and r.random() < 0.5:
                self.fresh_any(level + guard, f"{n}.pop()")
            else:
                self.emit(level + guard, f"{n}.pop()")
        elif c < 0.68:
            self.emit(level, f"{n}.clear()")
        elif c < 0.9:
            method = r.choice(SET_VARIADIC_UPDATE)
            self.emit(level, f"{n}.{method}({self.set_iterables(kind, 2, adds=method == 'update')})")
        else:
            self.emit(level, f"{n}.symmetric_difference_update({self.set_iterable(kind, 2, adds=True)})")

    def set_churn(self, level: int, n: str) -> None:
        """A loop that adds many numbers to the set ``n`` and takes many out (the table grows, keeps
        dummies and reuses them, pop() goes on from where it stopped), then its items listed: the
        order after each step must be CPython's."""
        r = self.r
        i = self.fresh("i")
        steps = [f"{n}.add({i} * {r.choice([1, 3, 8, 16, 32, -8])})",
                 f"{n}.add({r.choice(['2305843009213693951', '-2305843009213693952', '4611686018427387904'])} + {i})",
                 f"{n}.add({i} / 2)",
                 f"{n}.discard({i} * {r.choice([2, 8, 16])})",
                 f"{n}.discard({i} - {r.randint(1, 9)})",
                 f"{n} ^= {{{i}, {i} * 4}}",
                 f"if len({n}) > {r.randint(2, 12)}:\n    {n}.pop()"]
        self.emit(level, f"for {i} in range({r.randint(5, 40)}):")
        for step in r.sample(steps, r.randint(1, 3)):
            for line in step.split("\n"):
                self.emit(level + 1, line)
        if r.random() < 0.6:
            v = self.fresh("v")
            self.emit(level, f"{v} = list({n})")
            self.scopes[-1][v] = "list_int"

    def set_for(self, level: int, depth: int) -> None:
        """A for loop over a set: a set of numbers in its order (now and then changing it in the
        body: RuntimeError once its size has changed), a set of str sorted."""
        r = self.r
        a = self.fresh("i")
        ints, strs = self.visible("set_int"), self.visible("set_str")
        iterated, change = None, []
        x = r.random()
        if x < 0.55 and ints:
            iterated = r.choice(ints)
            head = f"{a} in {iterated}"
            if r.random() < 0.3:
                change = r.choice([[f"{iterated}.add({a} + {r.choice([0, 1, 8, -1])})"], [f"{iterated}.discard({a})"],
                                   [f"{iterated}.discard({a})", f"{iterated}.add({a} * 2)"],
                                   [f"{iterated}.update({self.expr('set_int', 1)})" if iterated in self.consts
                                    else f"{iterated} |= {self.expr('set_int', 1)}"], [f"{iterated}.clear()"]])
        elif x < 0.8 and strs:
            iterated = r.choice(strs)
            head = f"{a} in sorted({iterated})"
        else:
            head = f"{a} in {self.set_expr('set_int', 1)}"
        self.emit(level, f"for {head}:")
        if change:
            if r.random() < 0.4:
                self.emit(level + 1, f"if {a} {r.choice(['>', '<', '!='])} {r.choice(SET_INT_LITS[:12])}:")
                self.emit(level + 2, change[0])
                change = change[1:]
            for line in change:
                self.emit(level + 1, line)
        self.loop_body(level, depth, {a: "int" if not iterated or self.kind_of(iterated) == "set_int" else "str"},
                       iterated)

    def exc_text(self) -> str:
        """A caught exception read as a str: ``str(e)``, an f-string of ``e``, its repr, its args,
        its class's name or an isinstance of it. Now and then the name of a clause that has ended."""
        r = self.r
        if not self.exc_names or (self.dead_exc and r.random() < 0.03):
            n = r.choice(self.dead_exc)
        else:
            n = r.choice(self.exc_names)
        return r.choice([f"str({n})", f"str({n})", f"f'{{{n}}}'", f"f'<{{{n}!s:.6}}>'", f"f'{{{n}!s}}|'",
                         f"str({n})[:{self.small()}]", f"str({n}).upper()", f"(str({n}) or 'empty')",
                         f"repr({n})", f"f'{{{n}!r}}'", f"repr({n}.args)", f"type({n}).__name__",
                         f"str(isinstance({n}, (LookupError, ArithmeticError)))"])

    def two_clauses(self, kind: str, elem: str, d: int) -> str:
        """A list comprehension of two ``for`` clauses whose second iterable may read the first's
        variable, and a condition now and then on both."""
        r = self.r
        a, b = self.fresh("c"), self.fresh("c")
        inner_kind = r.choice(["str", "list_int", "list_str"])
        inner_elem = {"str": "str", "list_int": "int", "list_str": "str"}[inner_kind]
        outer = self.expr(kind, d - 1)
        inner = self.with_var(a, elem, lambda: self.expr(inner_kind, 1))

        def both(make: Callable[[], str]) -> str:
            return self.with_var(a, elem, lambda: self.with_var(b, inner_elem, make))

        cond = f" if {both(lambda: self.expr('bool', 1))}" if r.random() < 0.4 else ""
        return f"[{both(lambda: self.expr(elem, 1))} for {a} in {outer} for {b} in {inner}{cond}]"

    def with_var(self, name: str, kind: str, make: Callable[[], str]) -> str:
        """``make()`` with ``name`` visible as a ``kind`` variable (comprehension targets)."""
        self.scopes.append({name: kind})
        try:
            return make()
        finally:
            self.scopes.pop()

    def index(self) -> str:
        """A subscript: small, negative, or any int (IndexError is fine)."""
        x = self.r.random()
        if x < 0.5:
            return self.small()
        if x < 0.8:
            return f"-{self.r.randint(1, 4)}"
        return self.expr("int", 1)

    def slice(self) -> str:
        """A slice with optional bounds and step (negative steps included, step 0 rarely)."""
        r = self.r
        part = lambda: r.choice(["", "", self.small(), f"-{r.randint(1, 4)}", self.expr("int", 0)])  # noqa: E731
        step = r.choice(["", "", "", "-1", "2", "-2", "3", "-3", self.small()])
        return f"{part()}:{part()}" + (f":{step}" if step or r.random() < 0.2 else "")

    def key(self) -> str:
        """A dict key: mostly strings, sometimes a variable."""
        if self.r.random() < 0.2 and self.visible("str"):
            return self.r.choice(self.visible("str"))
        return repr(self.r.choice(["a", "b", "k", "é", "日", "", "key", "zz"]))

    def opt(self, text: str) -> str:
        """``text`` half the time, else nothing."""
        return text if self.r.random() < 0.5 else ""

    def opt_str(self) -> str:
        """An optional str argument (strip's chars)."""
        return self.r.choice(["", "", repr(self.r.choice(SEP_LITS + [" a", "é "])), self.expr("str", 0), "None"])

    def opt_split(self) -> str:
        """split's arguments: none, a separator, and maybe maxsplit."""
        x = self.r.random()
        if x < 0.3:
            return ""
        sep = self.r.choice([repr(s) for s in SEP_LITS] + ["None", self.expr("str", 0)])
        return sep + (f", {self.r.choice(['-1', '0', '1', '2'])}" if x > 0.7 else "")

    def str_args(self) -> str:
        """Arguments of find/count/startswith...: a substring and optional start/end."""
        sub = self.expr("str", 0) if self.r.random() < 0.5 else repr(self.r.choice(STR_LITS[:20]))
        n = self.r.choice([0, 0, 1, 2])
        bounds = [self.r.choice([self.small(), f"-{self.r.randint(1, 3)}", "None"]) for _ in range(n)]
        return ", ".join([sub] + bounds)

    # -- keyword arguments, key functions, lambdas, function values
    def keyword_expr(self, kind: str, d: int) -> str:
        """An expression of ``kind`` that uses the keyword forms of built-ins and methods, a key
        function, str.format's named fields, or a function value (a lambda or a built-in)."""
        r = self.r
        e = lambda k, dd=d - 1: self.expr(k, dd)  # noqa: E731
        if r.random() < 0.01:
            return self.bad_builtin_call(kind, d)
        fns = self.fn_values(kind)
        choices = [lambda: self.lambda_call(kind, d)]
        if fns:
            choices += [lambda: self.fn_call(r.choice(fns), d)] * 2
        mm = r.choice(["min", "max"])
        if kind == "int":
            choices += [
                lambda: f"sum({e('list_int')}, start={e('int')})",
                lambda: f"int({e('str')}, base={r.choice([2, 8, 10, 16, 36, 0, 1, 37])})",
                lambda: f"int({e('str')}, {r.choice([2, 16, 0])})",
                lambda: f"round({e('float')}, ndigits=None)",
                lambda: f"{mm}({e('list_int')}{self.keyed_args('int', default=True)})",
                lambda: f"{mm}({e('int')}, {e('int')}{self.opt(', ' + e('int'))}, key={self.key_fn('int')})",
                lambda: f"{mm}({e('list_int')}, default={e('int', 0)})",
                lambda: f"len({e('str')}.split(maxsplit={r.choice(['0', '1', '-1', self.small()])}))",
            ]
        elif kind == "float":
            choices += [
                lambda: f"round({e('float')}, ndigits={r.choice(['-1', '0', '1', '2', self.small()])})",
                lambda: f"sum({e('list_int')}, start={e('float')})",
                lambda: f"{mm}({e('float')}, {e('float')}, key={self.key_fn('float')})",
            ]
        elif kind == "str":
            choices += [
                lambda: f"{mm}({e('list_str')}{self.keyed_args('str', default=True)})",
                lambda: f"{mm}({e('str')}, key={self.key_fn('str')}, default={self.lit('str')})",
                lambda: f"{e('str')}.expandtabs(tabsize={self.small()})",
                lambda: f"'|'.join({e('str')}.splitlines(keepends={r.choice(['True', 'False', '1', '0'])}))",
                lambda: f"{r.choice(NAMED_TEMPLATES)!r}.format({self.format_arguments(d)})",
                lambda: f"{r.choice(MAP_TEMPLATES)!r}.format_map({self.format_mapping(d)})",
                lambda: f"{e('str')}.format({self.format_arguments(d)})",
            ]
        elif kind == "bool":
            choices += [
                lambda: f"({mm}({e('list')}, key={self.key_fn('any')}, default=None) is None)",
                lambda: f"(sorted({e('list_int')}{self.keyed_args('int')}) == sorted({e('list_int', 0)}))",
            ]
        elif kind in ("list_int", "list_str", "list"):
            elem = {"list_int": "int", "list_str": "str"}.get(kind, "any")
            choices += [
                lambda: f"sorted({e(kind)}{self.keyed_args(elem)})",
                lambda: f"sorted({e(kind)}, reverse={self.reverse_value()})",
            ]
            if kind == "list_str":
                choices += [
                    lambda: f"{e('str')}.{r.choice(['split', 'rsplit'])}({self.split_keywords()})",
                    lambda: f"{e('str')}.splitlines(keepends={r.choice(['True', 'False', '1', '0'])})",
                    lambda: f"sorted({e(r.choice(['str', 'dict']))}{self.keyed_args('str')})",
                ]
            if kind == "list":
                choices += [
                    lambda: (f"list(enumerate({e(r.choice(['str', 'list_str', 'list']))}, "
                             f"start={r.choice(['-1', '1', '5', self.small()])}))"),
                    lambda: f"[{mm}({e('list')}{self.keyed_args('any', default=True)})]",
                ]
        elif kind == "dict":
            choices += [lambda: f"dict(enumerate({e('list_str')}, start={self.small()}))"]
        return r.choice(choices)()

    def keyed_args(self, elem: str, default: bool = False) -> str:
        """Keyword arguments of sorted/min/max: key= (and reverse= or default=) in either order."""
        r = self.r
        parts = [f"key={self.key_fn(elem)}"] if r.random() < 0.85 else []
        if default and r.random() < 0.5:
            parts.append(f"default={self.expr(r.choice(['any', elem if elem != 'any' else 'int']), 0)}")
        if not default and r.random() < 0.5:
            parts.append(f"reverse={self.reverse_value()}")
        r.shuffle(parts)
        return "".join(", " + p for p in parts)

    def reverse_value(self) -> str:
        """A reverse= argument: mostly a bool, sometimes an int, an expression, or None (TypeError)."""
        return self.r.choice(["True", "False", "True", "1", "0", "2", self.expr("bool", 0), "None"])

    def key_fn(self, elem: str) -> str:
        """A key function for items of ``elem``: a built-in, a function variable, or a lambda that
        may read the enclosing function's variables (allowed as key=)."""
        r = self.r
        fns = [n for n in self.visible_fns() if "," not in self.kind_of(n)]
        x = r.random()
        if x < 0.35 or (self.lambda_depth and r.random() < 0.9):  # nested lambdas are rare
            return r.choice(KEY_BUILTINS)
        if x < 0.45 and fns:
            return r.choice(fns)
        return self.lambda_text([elem], r.choice(["int", "int", "str", "list_int", "bool"]), capture=True)

    def lambda_text(self, param_kinds: List[str], ret: str, capture: bool) -> str:
        """``lambda p1, ...: body`` with a body of kind ``ret``; it reads the enclosing function's
        variables only when ``capture`` (and never one that may be unassigned)."""
        params = [self.fresh("p") for _ in param_kinds]
        shadowed = self.visible()
        if shadowed and self.r.random() < 0.15:
            params[0] = self.r.choice(shadowed)  # a parameter named as a local: the body reads the parameter
        scope = {p: (k if k != "any" else "unknown") for p, k in zip(params, param_kinds)}
        saved = (self.scopes, self.maybe, self.exc_names, self.dead_exc)
        # A module constant is no variable of the function: a lambda that reads none may read one.
        self.scopes = (self.scopes if capture else [dict(self.consts)]) + [scope]
        self.maybe = {}
        self.exc_names = self.exc_names if capture else []
        self.dead_exc = []
        self.lambda_depth += 1
        try:
            body = self.expr(ret, self.r.randint(1, 2))
        finally:
            self.scopes, self.maybe, self.exc_names, self.dead_exc = saved
            self.lambda_depth -= 1
        return f"lambda {', '.join(params)}: {body}"

    def visible_fns(self, ret: Optional[str] = None) -> List[str]:
        """Visible function variables (returning ``ret`` when given)."""
        return [n for scope in self.scopes for n, k in scope.items()
                if k.startswith("fn:") and (ret is None or k.rsplit(":", 1)[1] == ret)]

    def fn_values(self, kind: str) -> List[str]:
        """Function variables whose result has ``kind``."""
        return self.visible_fns(kind)

    def fn_call(self, name: str, d: int) -> str:
        """A call of a function variable (now and then with one argument too many or too few)."""
        kinds = self.kind_of(name).split(":")[1].split(",")
        args = [self.expr(k, d - 1) for k in kinds]
        if self.r.random() < 0.03:
            args = args[1:] if self.r.random() < 0.5 else args + [self.expr("int", 0)]
        return f"{name}({', '.join(args)})"

    def lambda_call(self, kind: str, d: int) -> str:
        """A lambda that reads no variable, called where it is made or from a dict of functions."""
        r = self.r
        if self.lambda_depth and r.random() < 0.9:  # nested lambdas are rare
            return self.expr(kind, d - 1)
        pk = r.choice(["int", "str", "list_int", "any"])
        lam = self.lambda_text([pk], kind, capture=False)
        arg = self.expr(pk, d - 1)
        if r.random() < 0.6:
            return f"({lam})({arg})"
        return f"{{'f': {lam}, 'g': {r.choice(list(FN_BUILTINS))}}}['f']({arg})"

    def split_keywords(self) -> str:
        """split/rsplit's arguments with keywords: sep=, maxsplit=, both in either order, or sep by position."""
        r = self.r
        sep = r.choice([repr(s) for s in SEP_LITS] + ["None", self.expr("str", 0)])
        m = r.choice(["-1", "0", "1", "2", self.small()])
        return r.choice([f"sep={sep}", f"maxsplit={m}", f"sep={sep}, maxsplit={m}", f"maxsplit={m}, sep={sep}",
                         f"{sep}, maxsplit={m}"])

    def format_arguments(self, d: int) -> str:
        """str.format's arguments: maybe one by position, then name= (any value) and k= (an int or a
        str), in either order, one of them now and then left out or an extra one given."""
        r = self.r
        pos = [self.expr("any", d - 1)] if r.random() < 0.5 else []
        kws = [f"name={self.expr('any', d - 1)}", f"k={self.expr(r.choice(['int', 'str']), d - 1)}"]
        if r.random() < 0.1:
            kws.pop(r.randrange(2))
        if r.random() < 0.1:
            kws.append(f"zz={self.expr('int', 0)}")
        r.shuffle(kws)
        return ", ".join(pos + kws)

    def format_mapping(self, d: int) -> str:
        """format_map's argument: a dict (a display whose values are any values, or a dict expression)."""
        r = self.r
        if r.random() < 0.5:
            return self.expr("dict", d - 1)
        keys = r.sample(["a", "b", "k", "é", "zz"], r.randint(1, 4))
        return "{" + ", ".join(f"{k!r}: {self.expr('any', 0)}" for k in keys) + "}"

    def bad_builtin_call(self, kind: str, d: int) -> str:
        """A built-in or method called with a keyword it does not take: CPython's TypeError when it
        runs, on both sides."""
        r = self.r
        calls = [c for c in BAD_BUILTIN_CALLS if c[0] == kind] or BAD_BUILTIN_CALLS
        _, text = r.choice(calls)
        return text.format(s=self.expr("str", d - 1), l=self.expr("list_int", d - 1), f=self.expr("float", d - 1))

    def helper_call(self, d: int) -> str:
        """A call of a helper function: some arguments by position, the rest by keyword in any order,
        defaulted ones left out now and then; BAD_CALL_SHARE of them wrong (unknown keyword, a value
        given twice, a missing or an extra argument)."""
        r = self.r
        sig = r.choice(self.helpers)
        given = [p for p in sig.params if p[2] is None or r.random() < 0.5]
        prefix = 0
        while prefix < sig.n_positional and sig.params[prefix] in given:
            prefix += 1
        n_pos = r.randint(0, prefix)
        pos = [(p[0], p[1]) for p in given[:n_pos]]
        kws = [(p[0], p[1]) for p in given[n_pos:]]
        r.shuffle(kws)
        # `*args` takes what comes after every positional parameter; `**kwargs` names it has none for.
        if sig.vararg and n_pos == sig.n_positional and r.random() < 0.6:
            pos += [("", r.choice(["int", "str", "list_int"])) for _ in range(r.randint(1, 2))]
        if sig.kwarg and r.random() < 0.6:
            kws.insert(r.randint(0, len(kws)), (r.choice(["yy", "opt", "é"]), r.choice(["int", "str"])))
        if r.random() < BAD_CALL_SHARE:
            error = r.choice(["unknown", "twice", "missing", "extra"])
            if error == "unknown":
                kws.insert(r.randint(0, len(kws)), ("zz", "int"))
            elif error == "twice" and any(name for name, _ in pos):
                kws.insert(r.randint(0, len(kws)), r.choice([p for p in pos if p[0]]))
            elif error == "missing":
                required = [p for p in kws if any(q[0] == p[0] and q[2] is None for q in sig.params)]
                if required:
                    kws.remove(r.choice(required))
                elif pos:
                    pos.pop()
            else:
                pos, kws = [(p[0], p[1]) for p in sig.params] + [("extra", "int")], []
        args = [self.expr(k, d - 1) for _, k in pos]
        named = [(n, self.expr(k, d - 1)) for n, k in kws]
        if named and r.random() < 0.3:
            # Some of them, or all, from a `**{...}` display, in their place among the others.
            cut = r.randint(0, len(named) - 1)
            packed = ", ".join(f"{n!r}: {v}" for n, v in named[cut:])
            named = named[:cut] + [("**", f"{{{packed}}}")]
        args += [f"**{v}" if n == "**" else f"{n}={v}" for n, v in named]
        return f"{sig.name}({', '.join(args)})"

    def default_value(self, kind: str) -> str:
        """A parameter's default: a constant of ``kind`` (now and then of another kind, or None)."""
        r = self.r
        if r.random() < 0.1:
            # Never a tuple for another kind: a tuple is a list in anyproc (documented), and the
            # function would change it where CPython raises.
            kind = r.choice([k for k in DEFAULT_LITS if k != "tuple"])
        text = "None" if r.random() < 0.05 else r.choice(DEFAULT_LITS[kind])
        if any(c in text for c in "[{("):
            self.mutable_default = True  # (a tuple too: a list in anyproc)
        return text

    # -- statements
    def emit(self, level: int, text: str) -> None:
        """Appends one source line at ``level``."""
        self.lines.append("    " * level + text)

    def block(self, level: int, n: int, depth: int) -> Dict[str, str]:
        """``n`` statements at ``level`` in a new scope; returns the names it bound."""
        self.scopes.append({})
        for _ in range(n):
            self.stmt(level, depth)
        return self.scopes.pop()

    def stmt(self, level: int, depth: int) -> None:
        """One random statement (compound ones only while depth allows)."""
        r = self.r
        opts = ["assign"] * 5 + ["aug"] * 2 + ["mutate"] * 3 + ["dictset"] * 2 + ["function"] + ["set"] * SET_STMT_WEIGHT
        opts += ["call"] * (2 if self.helpers else 0)
        if depth < 2:  # at most three levels of nesting
            opts += ["if"] * 2 + ["for"] * 3 + ["while"] + ["try"] * (3 if self.loops else 2)
        elif depth < 3 and r.random() < 0.3:
            opts += ["try"]  # a try in a loop in an if, say
        if self.loops:
            opts += ["break", "continue"]
        opts += ["return"] * (1 if depth else 0)
        # Outside a try an exception ends the run: rarer there.
        opts += [r.choice(["assert", "del", "del", "raise"])]
        if self.in_try:
            opts += ["raise", "assert", "del"] + ["risky"] * 4
        what = r.choice(opts)
        if what == "assign":
            kind = r.choice(KINDS)
            same = [n for n in self.visible(kind) if n not in self.consts]
            if same and r.random() < 0.3:
                target = r.choice(same)
                self.emit(level, f"{target} = {self.expr(kind)}")
            elif r.random() < 0.1 and kind == "list":
                # A tuple (read by Gen.tuple_use and tuple_expr).
                v = self.fresh("t")
                self.emit(level, f"{v} = ({', '.join(self.expr('any', 1) for _ in range(r.randint(1, 3)))},)")
                self.scopes[-1][v] = "tuple"
            elif r.random() < 0.05 and self.visible("tuple"):
                # A tuple changed: a new tuple bound to the name (an alias keeps the old one), or
                # CPython's TypeError (AttributeError for a method).
                t = r.choice(self.visible("tuple"))
                self.emit(level, r.choice([
                    f"{t} += ({self.expr('any', 0)},)", f"{t} *= {self.small()}",
                    f"{t}[{self.index()}] = {self.expr('any', 0)}", f"del {t}[{self.index()}]",
                    f"{t}.append({self.expr('any', 0)})", f"{t}.sort()",
                ]))
            elif r.random() < 0.08 and kind in ("list", "list_int", "list_str"):  # unpacking
                a, b = self.fresh("v"), self.fresh("v")
                self.emit(level, f"{a}, {b} = {self.expr('any', 0)}, {self.expr('any', 0)}")
                self.scopes[-1][a] = "unknown"
                self.scopes[-1][b] = "unknown"
            elif r.random() < 0.08 and kind in ("list_int", "list_str"):  # a starred target
                a, b = self.fresh("v"), self.fresh("v")
                first, rest = r.choice([(a, f"*{b}"), (f"*{b}", a)])
                self.emit(level, f"{first}, {rest} = {self.expr(kind)}")
                self.scopes[-1][a] = kind[5:]
                self.scopes[-1][b] = kind
            else:
                v = self.fresh("v")
                self.emit(level, f"{v} = {self.expr(kind)}")
                self.scopes[-1][v] = kind
        elif what == "call":
            # A helper's result, or a call for its effect (a helper may change a list it is given).
            if r.random() < 0.7:
                self.fresh_any(level, self.helper_call(2))
            else:
                self.emit(level, self.helper_call(2))
        elif what == "function":
            # A function value: a built-in, a lambda or a nested `def`, which reads no variable of
            # this function or sometimes does (anyproc refuses it, a compile skip, where a later
            # assignment to the variable would make Python's value differ).
            v = self.fresh("k")
            if r.random() < 0.3:
                b = r.choice(list(FN_BUILTINS))
                self.emit(level, f"{v} = {b}")
                self.scopes[-1][v] = "fn:{}:{}".format(*FN_BUILTINS[b])
            else:
                kinds = [r.choice(["int", "str", "list_int", "any"]) for _ in range(r.choice([1, 1, 1, 2]))]
                ret = r.choice(["int", "str", "bool", "list_int", "list_str"])
                text = self.lambda_text(kinds, ret, capture=r.random() < 0.2)
                if r.random() < 0.4:
                    params, body = text[len("lambda "):].split(": ", 1)
                    self.emit(level, f"def {v}({params}):")
                    self.emit(level + 1, f"return {body}")
                else:
                    self.emit(level, f"{v} = {text}")
                self.scopes[-1][v] = f"fn:{','.join(kinds)}:{ret}"
        elif what == "aug":
            kind = r.choice(["int", "int", "str", "float", "list_int", "list_str"])
            names = self.mutable(kind) if kind.startswith("list") else self.visible(kind)
            names = [n for n in names if n not in self.consts]  # `C += x` would make C a local
            if not names:
                return self.stmt(level, depth)
            n = r.choice(names)
            if kind == "int":
                op = r.choice(["+=", "-=", "*=", "//=", "%=", "+=", "|=", "^="])
                self.emit(level, f"{n} {op} {self.expr('int', 1)}")
            elif kind == "float":
                self.emit(level, f"{n} {r.choice(['+=', '-=', '*=', '/='])} {self.expr(r.choice(['int', 'float']), 1)}")
            elif kind == "str":
                self.emit(level, f"{n} += {self.expr('str', 1)}" if r.random() < 0.8 else f"{n} *= {self.small()}")
            else:
                self.emit(level, f"{n} += {self.expr(kind, 1)}")
        elif what == "mutate":
            names = self.mutable("list")
            if not names:
                return self.stmt(level, depth)
            n = r.choice(names)
            kind = self.kind_of(n)
            elem = {"list_int": "int", "list_str": "str"}.get(kind, "any")
            choice = r.choice(["append", "append", "extend", "pop", "popi", "insert", "sort", "reverse",
                               "remove", "setitem", "clear", "sortkey", "setslice", "delslice"])
            if choice == "append":
                self.emit(level, f"{n}.append({self.expr(elem, 1)})")
            elif choice == "extend":
                self.emit(level, f"{n}.extend({self.expr(kind if kind != 'list' else r.choice(KINDS[4:7]), 1)})")
            elif choice == "pop":
                self.emit(level, f"{n}.pop()" if r.random() < 0.5 else f"{self.fresh_any(level, f'{n}.pop()')}")
            elif choice == "popi":
                self.emit(level, f"{n}.pop({self.index()})")
            elif choice == "insert":
                self.emit(level, f"{n}.insert({self.index()}, {self.expr(elem, 1)})")
            elif choice == "sort":
                self.emit(level, f"{n}.sort()")
            elif choice == "sortkey":
                # Its key function reads no container (one could be the list itself, or hold it).
                self.hidden = {v for v in self.visible() if self.kind_of(v) not in ("int", "str", "float", "bool")}
                self.emit(level, f"{n}.sort({self.keyed_args(elem)[2:] or 'reverse=True'})")
                self.hidden = set()
            elif choice == "reverse":
                self.emit(level, f"{n}.reverse()")
            elif choice == "remove":
                self.emit(level, f"{n}.remove({self.expr(elem, 0)})")
            elif choice == "setitem":
                self.emit(level, f"{n}[{self.index()}] = {self.expr(elem, 1)}")
            elif choice == "setslice":
                # An extended slice of the wrong size, or a value that is no iterable: both raise alike.
                self.emit(level, f"{n}[{self.slice()}] = {self.expr(kind if kind != 'list' else r.choice(KINDS[4:7]), 1)}")
            elif choice == "delslice":
                self.emit(level, f"del {n}[{self.slice()}]")
            else:
                self.emit(level, f"{n}.clear()")
        elif what == "dictset":
            names = self.mutable("dict")
            if not names:
                return self.stmt(level, depth)
            n = r.choice(names)
            c = r.random()
            if c < 0.35:
                self.emit(level, f"{n}[{self.key()}] = {self.expr('any', 1)}")
            elif c < 0.55:
                k = self.key()
                self.emit(level, f"{n}[{k}] = {n}.get({k}, 0) + {self.expr('int', 0)}")
            elif c < 0.7:
                self.emit(level, f"{n}.setdefault({self.key()}, []).append({self.expr('any', 0)})")
            elif c < 0.8:
                self.fresh_any(level, f"{n}.setdefault({self.key()}, {self.expr('any', 0)})", emit=True)
            elif c < 0.9:
                self.fresh_any(level, f"{n}.pop({self.key()}{self.opt(', None')})", emit=True)
            else:
                self.emit(level, f"{n}.update({self.expr('dict', 1)})")
        elif what == "if":
            if r.random() < 0.25:
                # An assignment expression in the condition: its variable is bound here, as by
                # `v = value` before the `if`.
                kind = r.choice(KINDS)
                v = self.fresh("v")
                self.emit(level, f"if ({v} := {self.expr(kind)}){r.choice(['', ' and ' + v + ' != 0'])}:")
                self.scopes[-1][v] = kind
            else:
                self.emit(level, f"if {self.expr('bool')}:")
            self.maybe.update(self.block(level + 1, r.randint(1, 2), depth + 1))
            for _ in range(r.choice([0, 0, 1, 2])):
                self.emit(level, f"elif {self.expr('bool')}:")
                self.block(level + 1, r.randint(1, 2), depth + 1)
            if r.random() < 0.5:
                self.emit(level, "else:")
                self.block(level + 1, r.randint(1, 2), depth + 1)
        elif what == "set":
            self.set_stmt(level, depth)
        elif what == "for":
            if r.random() < 0.25:
                self.set_for(level, depth)
            else:
                self.for_stmt(level, depth)
        elif what == "while":
            w = self.fresh("w")
            self.emit(level, f"{w} = 0")
            # The counter is bumped first, so `continue` cannot skip it: the loop always ends.
            self.emit(level, f"while {w} < {r.randint(0, 6)}{self.opt(' and ' + self.expr('bool', 1))}:")
            self.emit(level + 1, f"{w} += 1")
            self.scopes.append({w: "counter"})
            self.loops += 1
            self.block(level + 1, r.randint(1, 2), depth + 1)
            self.loops -= 1
            self.scopes.pop()
            self.loop_else(level, depth)
        elif what in ("break", "continue"):
            self.emit(level, f"if {self.expr('bool', 1)}:")
            self.emit(level + 1, what)
        elif what == "return":
            self.emit(level, f"if {self.expr('bool', 1)}:")
            self.emit(level + 1, f"return {self.expr('any')}")
        elif what == "try":
            self.try_stmt(level, depth)
        elif what == "raise":
            self.raise_stmt(level)
        elif what == "assert":
            self.assert_stmt(level)
        elif what == "del":
            self.del_stmt(level, depth)
        elif what == "risky":
            kind, text = self.risky_expr()
            v = self.fresh("v")
            self.emit(level, f"{v} = {text}")
            self.scopes[-1][v] = kind

    # -- try/except/else, raise, assert, del
    def try_stmt(self, level: int, depth: int) -> None:
        """``try:`` with up to three except clauses (names, tuples of them, a bare one last; `as e`
        read only through its message), maybe ``else:``, maybe ``finally:`` (then perhaps no clause
        at all). What the body binds may be unassigned after it (an exception before the binding),
        as may what a clause, the else block or the finally block binds."""
        r = self.r
        self.emit(level, "try:")
        self.in_try += 1
        self.maybe.update(self.block(level + 1, r.randint(1, 3), depth + 1))
        if depth and r.random() < 0.1:
            self.emit(level + 1, f"return {self.expr('any')}")
        self.in_try -= 1
        finally_block = r.random() < 0.25
        n = r.choice([0, 1, 1, 2]) if finally_block else r.choice([1, 1, 1, 2, 2, 3])
        for i in range(n):
            name = None
            if i == n - 1 and r.random() < 0.12:
                self.emit(level, "except:")
            else:
                if r.random() < 0.25:
                    names = r.sample(sorted(set(CATCH_NAMES)), r.randint(1, 3))
                    types = f"({', '.join(names)}{',' if len(names) == 1 else ''})"
                else:
                    types = r.choice(CATCH_NAMES)
                if r.random() < 0.55:
                    # Mostly a new name; now and then `e` again (an inner clause deletes an outer one's).
                    name = "e" if r.random() < 0.2 else self.fresh("e")
                self.emit(level, f"except {types}{' as ' + name if name else ''}:")
            self.handler_body(level + 1, depth + 1, name)
        if n and r.random() < 0.3:
            self.emit(level, "else:")
            self.maybe.update(self.block(level + 1, r.randint(1, 2), depth + 1))
        if finally_block:
            self.emit(level, "finally:")
            self.scopes.append({})
            for _ in range(r.choice([1, 1, 2])):
                self.stmt(level + 1, depth + 1)
            if r.random() < 0.1:
                self.emit(level + 1, f"return {self.expr('any')}")
            elif r.random() < 0.1 and self.loops:
                self.emit(level + 1, r.choice(["break", "continue"]))
            self.maybe.update(self.scopes.pop())

    def handler_body(self, level: int, depth: int, name: Optional[str]) -> None:
        """An except clause's statements: often the message kept where the result shows it, then
        random statements (which may raise again, break, continue or return)."""
        r = self.r
        if name:
            self.exc_names.append(name)
        self.scopes.append({})
        start = len(self.lines)
        if name and r.random() < 0.7:
            self.message_sink(level)
        for _ in range(r.choice([0, 1, 1, 2])):
            self.stmt(level, depth)
        if r.random() < 0.1:
            self.emit(level, f"return {self.expr('any')}")
        elif r.random() < 0.1 and self.loops:
            self.emit(level, r.choice(["break", "continue"]))
        elif r.random() < 0.1:
            # The clause's error raised again (bare `raise`), now and then only on a condition.
            self.emit(level, "raise" if r.random() < 0.5 else f"if {self.expr('bool', 1)}: raise")
        if len(self.lines) == start:
            self.emit(level, "pass")
        self.maybe.update(self.scopes.pop())
        if name:
            self.exc_names.pop()
            if name not in self.dead_exc:
                self.dead_exc.append(name)

    def message_sink(self, level: int) -> None:
        """A statement that puts the caught exception's message where the function's result shows
        it: appended to a list, stored in a dict or a str variable of the function, or returned."""
        r = self.r
        text = self.exc_text()
        lists = [n for n in self.mutable("list") if self.kind_of(n) in ("list", "list_str")]
        dicts = self.mutable("dict")
        strs = [n for n in self.visible("str") if n not in self.iterating]
        x = r.random()
        if x < 0.4 and lists:
            self.emit(level, f"{r.choice(lists)}.append({text})")
        elif x < 0.55 and dicts:
            self.emit(level, f"{r.choice(dicts)}[{self.key()}] = {text}")
        elif x < 0.8 and strs:
            self.emit(level, f"{r.choice(strs)} = {text}")
        elif x < 0.9:
            self.emit(level, f"return [{text}, {self.expr('any', 1)}]")
        else:
            v = self.fresh("v")
            self.emit(level, f"{v} = {text}")
            self.scopes[-1][v] = "str"

    def raise_arg(self) -> str:
        """The argument of ``raise X(...)``: none, a str, an int, None (or ``raise X`` alone)."""
        r = self.r
        return r.choice(["", "()", f"({self.lit('str')})", f"({self.expr('str', 1)})", f"({self.lit('int')})",
                         f"({self.expr('int', 1)})", "(None)", f"({self.lit('str')})"])

    def raise_stmt(self, level: int) -> None:
        """``raise X(arg)`` of an exception anyscript raises: mostly under an if (always outside a try)."""
        r = self.r
        text = f"raise {r.choice(RAISE_NAMES)}{self.raise_arg()}"
        if self.in_try and r.random() < 0.15:
            self.emit(level, text)
            return
        self.emit(level, f"if {self.expr('bool', 1)}:")
        self.emit(level + 1, text)

    def assert_stmt(self, level: int) -> None:
        """``assert test`` or ``assert test, message`` (a str, an int or None; evaluated only on failure)."""
        r = self.r
        test = self.expr(r.choice(["bool", "bool", "bool", "any"]), 1)
        if r.random() < 0.4:
            self.emit(level, f"assert {test}")
            return
        msg = r.choice([self.lit("str"), self.expr("str", 1), self.lit("int"), "None", self.expr("any", 0)])
        self.emit(level, f"assert {test}, {msg}")

    def del_stmt(self, level: int, depth: int) -> None:
        """``del d[key]`` or ``del xs[index]`` (KeyError, IndexError), now and then both in one statement."""
        r = self.r
        dicts, lists = self.mutable("dict"), self.mutable("list")
        targets = [lambda: f"{r.choice(dicts)}[{self.key()}]"] * bool(dicts)
        targets += [lambda: f"{r.choice(lists)}[{self.index()}]"] * bool(lists)
        if not targets:
            return self.stmt(level, depth)
        parts = [r.choice(targets)() for _ in range(1 if r.random() < 0.85 else 2)]
        self.emit(level, f"del {', '.join(parts)}")

    def risky_expr(self) -> Tuple[str, str]:
        """An expression that often raises (in a try body): a missing key, an index out of range, a
        bad int(), a division by zero, a failing index()/remove()/pop()."""
        r = self.r
        e = self.expr
        choices = [
            ("unknown", lambda: f"{e('dict', 0)}[{self.key()}]"),
            ("int", lambda: f"{e('list_int', 0)}[{self.index()}]"),
            ("str", lambda: f"{e('str', 0)}[{self.index()}]"),
            ("int", lambda: f"int({e('str', 1)})"),
            ("float", lambda: f"float({e('str', 0)})"),
            ("int", lambda: f"{e('int', 1)} {r.choice(['//', '%'])} {e('int', 0)}"),
            ("float", lambda: f"{e(r.choice(['int', 'float']), 1)} / {self.small()}"),
            ("int", lambda: f"{e('list', 0)}.index({e('any', 0)})"),
            ("int", lambda: f"{e('str', 0)}.index({e('str', 0)})"),
            ("unknown", lambda: f"{e('dict', 0)}.pop({self.key()})"),
            ("int", lambda: f"{r.choice(['min', 'max'])}({e('list_int', 1)})"),
            ("unknown", lambda: f"{e(r.choice(KINDS), 0)}[{e(r.choice(KINDS), 0)}]"),
            ("unknown", lambda: f"{e('set_int', 0)}.pop()"),
            ("unknown", lambda: f"{e(r.choice(list(SET_KINDS)), 0)}.remove({e(r.choice(['int', 'str']), 0)})"),
            ("set_int", lambda: f"{e('set_int', 0)} {r.choice(SET_OPS)} {e(r.choice(KINDS), 0)}"),
            ("bool", lambda: f"{e(r.choice(list(SET_KINDS)), 0)} {r.choice(['<', '<=', '>', '>='])} {e(r.choice(KINDS), 0)}"),
        ]
        kind, make = r.choice(choices)
        return kind, make()

    def fresh_any(self, level: int, rhs: str, emit: bool = True) -> str:
        """Binds ``rhs`` to a new variable of unknown kind."""
        v = self.fresh("v")
        self.emit(level, f"{v} = {rhs}")
        self.scopes[-1][v] = "unknown"
        return v if not emit else ""

    def kind_of(self, name: str) -> str:
        """The recorded kind of a visible variable."""
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        raise KeyError(name)

    def for_stmt(self, level: int, depth: int) -> None:
        """A for loop over range, a list, a str, dict items/keys, enumerate or zip."""
        r = self.r
        a, b = self.fresh("i"), self.fresh("i")
        c = r.random()
        bound: Dict[str, str] = {}
        iterated = None
        if c < 0.3:
            args = r.choice([[self.small()], [self.small(), self.small()],
                             [self.small(), self.small(), r.choice(["1", "2", "-1", "-2", "3"])]])
            head, bound = f"{a} in range({', '.join(args)})", {a: "int"}
        elif c < 0.5:
            names = self.visible("list") + self.visible("tuple")
            if names and r.random() < 0.7:
                iterated = r.choice(names)
                head = f"{a} in {iterated}"
                bound = {a: {"list_int": "int", "list_str": "str"}.get(self.kind_of(iterated), "unknown")}
                if self.kind_of(iterated) == "tuple":
                    iterated = None
            else:
                head, bound = f"{a} in {self.expr('list_str', 1)}", {a: "str"}
        elif c < 0.65:
            head, bound = f"{a} in {self.expr('str', 1)}", {a: "str"}
        elif c < 0.8:
            names = self.visible("dict")
            src = r.choice(names) if names and r.random() < 0.8 else self.lit("dict")
            iterated = src if src in names else None
            if r.random() < 0.5:
                head, bound = f"{a}, {b} in {src}.items()", {a: "unknown", b: "unknown"}
            else:
                head, bound = f"{a} in {src}{r.choice(['', '.keys()', '.values()'])}", {a: "unknown"}
        elif c < 0.9:
            start = r.choice(["", "", ", " + self.small(), ", start=" + self.small()])
            head, bound = (f"{a}, {b} in enumerate({self.expr(r.choice(['str', 'list_str', 'list_int']), 1)}"
                           f"{start})"), {a: "int", b: "unknown"}
        else:
            head, bound = (f"{a}, {b} in zip({self.expr(r.choice(['str', 'list_int']), 1)}, "
                           f"{self.expr(r.choice(['str', 'list_str']), 1)})"), {a: "unknown", b: "unknown"}
        self.emit(level, f"for {head}:")
        self.loop_body(level, depth, bound, iterated)
        self.loop_else(level, depth)

    def loop_else(self, level: int, depth: int) -> None:
        """Now and then a loop's ``else:`` block, which runs unless the loop ends by ``break``."""
        if self.r.random() < 0.25:
            self.emit(level, "else:")
            self.block(level + 1, self.r.randint(1, 2), depth + 1)

    def loop_body(self, level: int, depth: int, bound: Dict[str, str], iterated: Optional[str]) -> None:
        """A for loop's body: its variables in a scope of their own, and the variable it iterates
        marked as such while the body is written."""
        self.scopes.append(bound)
        self.loops += 1
        if iterated:
            self.iterating.add(iterated)
        self.block(level + 1, self.r.randint(1, 2), depth + 1)
        if iterated:
            self.iterating.discard(iterated)
        self.loops -= 1
        self.scopes.pop()

    def function(self, helper: bool = False) -> Tuple[str, List[str], int, Signature]:
        """The whole function's source, its parameters' kinds, how many of them have no default,
        and its signature. A helper (called by the function after it) is shorter, mostly has
        default values, and may take a tuple."""
        r = self.r
        pool = PARAM_KINDS + (["tuple", "bool"] if helper else [])
        kinds = [r.choice(pool) for _ in range(r.randint(1, 4 if helper else 3))]
        params = ["a", "b", "c", "d"][: len(kinds)]
        required = len(kinds)
        if r.random() < (0.7 if helper else 0.15):
            required = r.randint(0, len(kinds) - 1)
        defaults = [None] * required + [self.default_value(k) for k in kinds[required:]]
        self.scopes[0].update(zip(params, kinds))
        parts = [p if v is None else f"{p}={v}" for p, v in zip(params, defaults)]
        n_positional, vararg, kwarg = len(params), None, None
        if helper and r.random() < SHAPED_SHARE:
            # Keyword-only parameters after `*` or `*rest`, and `**opts`.
            n_positional = r.randint(0, len(params))
            vararg = "rest" if r.random() < 0.4 else None
            kwarg = "opts" if r.random() < 0.4 else None
            star = [f"*{vararg}"] if vararg else (["*"] if n_positional < len(params) else [])
            parts = parts[:n_positional] + star + parts[n_positional:] + ([f"**{kwarg}"] if kwarg else [])
            self.scopes[0].update({n: k for n, k in ((vararg, "tuple"), (kwarg, "dict")) if n})
        self.emit(0, f"def {self.name}({', '.join(parts)}):")
        for _ in range(r.randint(1, 4) if helper else r.randint(2, 7)):
            self.stmt(1, 0)
        # The result: everything visible, so that the state the body built is compared.
        names = self.visible()
        shown = r.sample(names, min(len(names), r.randint(1, 4)))
        self.emit(1, f"return [{', '.join(shown)}]" if len(shown) > 1 or r.random() < 0.5 else f"return {shown[0]}")
        text = paren_int_receivers("\n".join(self.lines) + "\n")
        return text, kinds, required, Signature(self.name, list(zip(params, kinds, defaults)), n_positional, vararg,
                                                kwarg)


def paren_int_receivers(text: str) -> str:
    """An int literal as a method's receiver (from a type confusion) needs parentheses: `(7).copy()`."""
    return re.sub(r"(?<![\w.'\"+-])(\d+)\.(?=[a-z_])", r"(\1).", text)


@dataclass
class Program:
    """One generated function and the argument tuples it runs on."""

    index: int
    name: str
    source: str
    args: List[tuple]
    # A parameter has a list, dict or tuple (a list in anyproc) default, which calls share: each
    # run compiles the program anew, as each CPython run executes it anew.
    fresh: bool = False


def make_program(index: int, seed: int = BASE_SEED) -> Program:
    """Program ``index`` of the run with ``seed`` (deterministic: its own Random)."""
    rng = random.Random(f"{seed}-{index}")
    name = f"f{index}"
    gens, texts, helpers = [], [], []
    # Module constants, named after the program (the ast path imports many programs as one module).
    consts: Dict[str, str] = {}
    if rng.random() < CONST_SHARE:
        maker = Gen(rng, name)
        for i in range(rng.randint(1, 2)):
            consts[f"{name.upper()}_K{i + 1}"] = rng.choice(CONST_KINDS)
        texts.append("\n".join(f"{n} = {maker.const_display(k)}" for n, k in consts.items()))
    if rng.random() < HELPER_SHARE:
        for h in range(rng.randint(1, 2)):
            gens.append(Gen(rng, f"{name}_h{h + 1}", list(helpers), consts))
            text, _, _, sig = gens[-1].function(helper=True)
            texts.append(text)
            helpers.append(sig)
    gens.append(Gen(rng, name, helpers, consts))
    text, kinds, required, _ = gens[-1].function()
    source = "\n\n".join(texts + [text])
    args = []
    for _ in range(4):
        # Mostly the declared kinds; sometimes another kind, to compare the errors too.
        one = tuple(arg_of(rng, k if rng.random() < 0.9 else rng.choice(PARAM_KINDS)) for k in kinds)
        if required < len(kinds) and rng.random() < 0.5:
            one = one[:rng.randint(required, len(kinds) - 1)]  # the defaults of the rest
        args.append(one)
    # A module constant that a run changes starts again in the next, as each CPython run executes
    # the module anew: compiled anew for each run, as a list default is.
    fresh = bool(consts) or any(g.mutable_default for g in gens)
    return Program(index, name, source, args, fresh)


# ---- running both sides ------------------------------------------------------------------------

class TooBig(BaseException):
    """Raised by the guard: the CPython run got too long or its values too large to compare (a
    BaseException, and re-raised by every except clause, so that no generated clause catches it)."""


MAX_LINES = 10_000
MAX_WEIGHT = 20_000


def weight(value: Any, budget: int) -> int:
    """Nodes plus string lengths and int words of ``value``, shared parts counted each time, stopping past ``budget``."""
    stack = [value]
    total = 0
    while stack and total <= budget:
        v = stack.pop()
        total += 1
        if isinstance(v, str):
            total += len(v)
        elif isinstance(v, int):
            total += v.bit_length() // 64  # `a *= a` in a loop squares its way to huge ints
        elif isinstance(v, (list, tuple, set)):
            stack.extend(v)
        elif isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
    return total


def shallow_weight(values: Any) -> int:
    """The sizes of ``values`` themselves: lengths, and words of ints."""
    total = 0
    for v in values:
        if isinstance(v, (str, list, dict, tuple, set)):
            total += len(v)
        elif isinstance(v, int):
            total += v.bit_length() // 64
    return total


class Guard:
    """A trace function that stops a CPython run past MAX_LINES lines or MAX_WEIGHT of locals."""

    def __init__(self, filename: str) -> None:
        self.filename = filename
        self.lines = 0
        # The documented differences (DOCUMENTED_RAISES) among the exceptions raised in the run,
        # caught ones included: a try makes what follows them anything.
        self.documented: List[str] = []

    def global_trace(self, frame, event, arg):
        """Traces only the generated code (its comprehensions included)."""
        return self.local_trace if frame.f_code.co_filename == self.filename else None

    def local_trace(self, frame, event, arg):
        """Counts lines and weighs the frame's locals (shallowly at each line, fully now and then)."""
        if event == "exception":
            why = documented_raise(arg[1])
            if why and why not in self.documented:
                self.documented.append(why)
        elif event == "line":
            self.lines += 1
            values = frame.f_locals.values()
            # A full weighing at each line made loops that grow a list quadratic in its length; the
            # first lines are weighed in full, as a short loop can grow a str in a list
            # exponentially (`xs.insert(0, "".join(map(ascii, xs)))`).
            full = self.lines < 512 or self.lines % 64 == 0
            if (self.lines > MAX_LINES or shallow_weight(values) > MAX_WEIGHT
                    or (full and weight(list(values), MAX_WEIGHT) > MAX_WEIGHT)):
                raise TooBig()
        return self.local_trace


MAX_REPEAT = 100_000


def _repeat_check(a: Any, b: Any) -> None:
    """TooBig for a repetition past MAX_REPEAT items (a type confusion can write
    ``[True] * 1000000007``, which CPython then builds: gigabytes); computes nothing, so that
    ``x *= y`` still fails with its own message (``*=``, not ``*``)."""
    for seq, n in ((a, b), (b, a)):
        if isinstance(seq, (str, list, tuple)) and isinstance(n, int) and len(seq) * n > MAX_REPEAT:
            raise TooBig()


def _mul(a: Any, b: Any) -> Any:
    """``a * b`` after :func:`_repeat_check`."""
    _repeat_check(a, b)
    return a * b


class _SizeGuard(ast.NodeTransformer):
    """Routes every ``*`` (and checks every ``*=``) through ``_mul``."""

    def visit_BinOp(self, node: ast.BinOp):
        """``a * b`` as ``_mul(a, b)``."""
        self.generic_visit(node)
        if isinstance(node.op, ast.Mult):
            return ast.copy_location(ast.Call(ast.Name("_mul", ast.Load()), [node.left, node.right], []), node)
        return node

    def visit_AugAssign(self, node: ast.AugAssign):
        """Adds the check after (or before) an augmented assignment to a name."""
        self.generic_visit(node)
        if isinstance(node.op, ast.Mult) and isinstance(node.target, ast.Name):
            # The operand is evaluated once, into a name of the harness's: it may change state
            # (`x *= s.pop()`).
            rhs = ast.Assign([ast.Name("_harness_rhs", ast.Store())], node.value)
            check = ast.Expr(ast.Call(ast.Name("_repeat_check", ast.Load()),
                                      [ast.Name(node.target.id, ast.Load()), ast.Name("_harness_rhs", ast.Load())], []))
            node.value = ast.Name("_harness_rhs", ast.Load())
            return [rhs, check, node]
        return node


class _HandlerGuard(ast.NodeTransformer):
    """Starts every except clause and finally block with ``_harness_reraise()``: a bare ``except:``
    or an ``except BaseException`` must not catch the harness's TooBig or _BigSeen."""

    def visit_ExceptHandler(self, node: ast.ExceptHandler):
        """The clause with the check first."""
        self.generic_visit(node)
        check = ast.Expr(ast.Call(ast.Name("_harness_reraise", ast.Load()), [], []))
        node.body = [ast.copy_location(check, node)] + node.body
        return node

    def visit_Try(self, node: ast.Try):
        """A ``finally:`` block with the check first: a ``return``, ``break`` or ``continue`` in
        it must not swallow the harness's exception in flight."""
        self.generic_visit(node)
        if node.finalbody:
            check = ast.Expr(ast.Call(ast.Name("_harness_reraise", ast.Load()), [], []))
            node.finalbody = [ast.copy_location(check, node.finalbody[0])] + node.finalbody
        return node


def _harness_reraise() -> None:
    """In an except clause (or a finally block an exception runs): re-raises the exception when the
    harness raised it."""
    exc = sys.exc_info()[1]
    if isinstance(exc, (TooBig, _BigSeen)):
        raise exc


def guarded(tree: ast.AST) -> ast.AST:
    """``tree`` with the size guard applied (and every except clause letting the harness's
    exceptions through) and locations fixed."""
    tree = _HandlerGuard().visit(_SizeGuard().visit(tree))
    ast.fix_missing_locations(tree)
    return tree


Outcome = Tuple[str, Any]  # ("ok", value) | ("exc", exception) | ("skip", why)


@functools.lru_cache(maxsize=8)
def _guarded_code(source: str, filename: str) -> Any:
    """The guarded program compiled (once for the runs of one program; each run executes it
    anew, so that its default values are made anew), or None when CPython cannot parse it."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        try:
            tree = ast.parse(source)
        except SyntaxError:
            return None
        return compile(guarded(tree), filename, "exec")


def run_cpython(source: str, name: str, args: tuple, filename: str = "<difftest>",
                documented: Optional[List[str]] = None) -> Outcome:
    """Runs the function under CPython with the guard on (``documented`` gets the documented
    differences among the exceptions the run raised, DOCUMENTED_RAISES)."""
    # `math` without an import: anyscript's math.* calls need none (and refuse `import`).
    ns: Dict[str, Any] = {"_mul": _mul, "_repeat_check": _repeat_check, "_harness_reraise": _harness_reraise,
                          "math": math}
    code = _guarded_code(source, filename)
    if code is None:
        # The generator wrote what CPython's tokenizer reads otherwise (`-1.join(...)`
        # lexes `1.j` as an imaginary literal): nothing to compare against.
        return ("skip", "cpython-syntax")
    exec(code, ns)
    guard = Guard(filename)
    old = sys.gettrace()
    sys.settrace(guard.global_trace)
    try:
        value = ns[name](*copy.deepcopy(args))
    except TooBig:
        return ("skip", "guard")
    except RecursionError:
        return ("skip", "guard")
    except Exception as e:  # noqa: BLE001 - any exception is an outcome to compare
        return ("exc", e)
    finally:
        sys.settrace(old)
        if documented is not None:
            documented.extend(guard.documented)
    if weight(value, MAX_WEIGHT) > MAX_WEIGHT:
        return ("skip", "guard")
    try:
        return ("ok", normalize(value))
    except TooBig:
        return ("skip", "guard")


def run_anyproc(func: Any, args: tuple) -> Outcome:
    """Calls a compiled anyproc function (a Rust panic, a BaseException, is an outcome too)."""
    try:
        return ("ok", func(*copy.deepcopy(args)))
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as e:  # noqa: BLE001
        return ("exc", e)


_ITERATORS = (type({}.keys()), type({}.values()), type({}.items()), range, reversed, enumerate, zip,
              type(reversed([])), type(iter("")), type(iter([])))


def normalize(value: Any, depth: int = 0) -> Any:
    """CPython's value as anyscript has it: dict views and iterators become lists."""
    if depth > 100:
        raise TooBig()
    if isinstance(value, tuple):
        return tuple(normalize(v, depth + 1) for v in value)
    if isinstance(value, list) or isinstance(value, _ITERATORS):
        return [normalize(v, depth + 1) for v in value]
    if isinstance(value, dict):
        return {k: normalize(v, depth + 1) for k, v in value.items()}
    return value


def same(x: Any, y: Any) -> bool:
    """Equal with types: bool/int/float distinct, NaN equals NaN, -0.0 is not 0.0, dict order counts."""
    if type(x) is not type(y):
        return False
    if isinstance(x, float):
        if math.isnan(x) or math.isnan(y):
            return math.isnan(x) and math.isnan(y)
        return x == y and math.copysign(1, x) == math.copysign(1, y)
    if isinstance(x, (list, tuple)):
        return len(x) == len(y) and all(same(a, b) for a, b in zip(x, y))
    if isinstance(x, dict):
        return len(x) == len(y) and all(same(a, b) and same(x[a], y[b]) for a, b in zip(x, y))
    if isinstance(x, set):
        # In any order (a returned set is rebuilt on the Python side), but with types: {1} is not
        # {1.0} or {True}, which CPython keeps when it is added first.
        return len(x) == len(y) and sorted(map(_typed_repr, x)) == sorted(map(_typed_repr, y))
    return x == y


def _typed_repr(value: Any) -> Tuple[str, str]:
    """A set item as its type and repr (sortable, and -0.0 is not 0.0)."""
    return type(value).__name__, repr(value)


def has_big_int(value: Any) -> bool:
    """Whether an int outside i64 occurs in ``value``."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return not I64_MIN <= value <= I64_MAX
    if isinstance(value, (list, set, tuple)):
        return any(has_big_int(v) for v in value)
    if isinstance(value, dict):
        return any(has_big_int(k) or has_big_int(v) for k, v in value.items())
    return False


class _BigSeen(BaseException):
    """The instrumented run computed an int outside i64 (a BaseException: no clause catches it)."""


# Whether the instrumented run now going computed a complex number (anyscript has none).
_complex_seen: List[bool] = []


def _check_i64(value: Any) -> Any:
    """Raises _BigSeen for an int outside i64; returns ``value`` otherwise (noting a complex)."""
    if isinstance(value, int) and not isinstance(value, bool) and not I64_MIN <= value <= I64_MAX:
        raise _BigSeen()
    if isinstance(value, complex):
        _complex_seen.append(True)
    if isinstance(value, tuple) and len(value) <= 4:
        # The built-ins that return numbers in a tuple (divmod) are checked item by item.
        for item in value:
            _check_i64(item)
    return value


class _Instrument(ast.NodeTransformer):
    """Wraps every operator and call result (and augmented assignment) in ``_check_i64``."""

    def _wrap(self, node: ast.expr) -> ast.expr:
        """``node`` wrapped in the checking call."""
        self.generic_visit(node)
        return ast.Call(ast.Name("_check_i64", ast.Load()), [node], [])

    visit_BinOp = visit_UnaryOp = visit_Call = _wrap

    def visit_AugAssign(self, node: ast.AugAssign):
        """Adds the check after (or before) an augmented assignment to a name."""
        self.generic_visit(node)
        if isinstance(node.target, ast.Name):
            check = ast.Expr(ast.Call(ast.Name("_check_i64", ast.Load()), [ast.Name(node.target.id, ast.Load())], []))
            return [node, check]
        return node


def _checked_sum(items, start=0):
    """``sum`` that checks every partial sum (CPython's own grows a big int inside)."""
    total = start
    for x in items:
        total = _check_i64(total + x)
    return total


def _checked(fn: Callable) -> Callable:
    """``fn`` whose result is checked: a built-in passed as a value (``key=int``) is called where
    no call of the program's text can be wrapped."""
    checked = lambda *args, **kwargs: _check_i64(fn(*args, **kwargs))  # noqa: E731
    checked.unchecked = fn
    return checked


def _isinstance_of_checked(x: Any, types: Any) -> bool:
    """``isinstance`` where ``int`` (a checked wrapper in the instrumented run) is the type again."""
    def unwrap(t: Any) -> Any:
        """``t`` with each wrapper replaced by the built-in it wraps."""
        return tuple(map(unwrap, t)) if isinstance(t, tuple) else getattr(t, "unchecked", t)
    return isinstance(x, unwrap(types))


def needs_big_int(source: str, name: str, args: tuple) -> bool:
    """Whether CPython computes an int outside i64 anywhere in this run (an operator, call or partial sum)."""
    return documented_values(source, name, args) == "an int outside i64"


def documented_values(source: str, name: str, args: tuple) -> Optional[str]:
    """What this CPython run computes that anyscript has not: an int outside i64 (anywhere: an
    operator, call or partial sum), else a complex number (a negative number to a fractional
    power); None when neither."""
    tree = guarded(_Instrument().visit(ast.parse(source)))
    ns: Dict[str, Any] = {"_check_i64": _check_i64, "sum": _checked_sum, "_mul": _mul, "_repeat_check": _repeat_check,
                          "_harness_reraise": _harness_reraise, "math": math,
                          "isinstance": _isinstance_of_checked,
                          **{f.__name__: _checked(f) for f in (int, abs, len, ord, round)}}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        exec(compile(tree, "<difftest-i64>", "exec"), ns)
    _complex_seen.clear()
    try:
        ns[name](*copy.deepcopy(args))
    except _BigSeen:
        return "an int outside i64"
    except (Exception, TooBig):  # noqa: BLE001
        pass
    return "a complex number" if _complex_seen else None


def documented_raise(exc: BaseException) -> Optional[str]:
    """The documented difference that an exception CPython raised stands for, or None: where
    CPython raises it, anyproc raises another type or none (ALLOWED, docs/architecture.md), so
    a clause that catches one side's exception and not the other's makes what follows anything."""
    for why, cls, text in DOCUMENTED_RAISES:
        if type(exc) is cls and text in str(exc):
            return why
    return None


# The exceptions of ALLOWED's documented differences that an except clause can see on the CPython side
# (why, class, text in its message). None at present: an unknown codec name, anyproc's KeyError until
# the twenty-sixth session, is CPython's LookupError now.
DOCUMENTED_RAISES: List[Tuple[str, type, str]] = []


# ---- CPython with anyscript's documented container model ---------------------------------------
# range/reversed/enumerate/zip return lists (docs/architecture.md, builtins.rs); dict views are views.
# Where anyproc disagrees with plain CPython, the same program is run again under CPython with that
# model; agreeing with it is the documented difference.

def _as_list(fn: Callable) -> Callable:
    """``fn`` returning a list of its items."""
    return lambda *args, **kwargs: list(fn(*args, **kwargs))


# NaN: anyscript's floats have no identity and a NaN equals a NaN inside containers (`in`, list
# `==`, `remove`, dict keys; docs/architecture.md, "Equality and hashing"), which is CPython's
# identity-then-equality rule when every NaN is one object. The model makes every NaN that one object.
_NAN = float("nan")


def _one_nan(value: Any) -> Any:
    """The shared NaN for any NaN; ``value`` otherwise."""
    return _NAN if isinstance(value, float) and math.isnan(value) else value


def _nan_args(value: Any) -> Any:
    """``value`` (an argument) with each NaN replaced by the shared one."""
    if isinstance(value, list):
        return [_nan_args(v) for v in value]
    if isinstance(value, tuple):
        return tuple(_nan_args(v) for v in value)
    if isinstance(value, dict):
        return {_nan_args(k): _nan_args(v) for k, v in value.items()}
    return _one_nan(value)


class _NanModel(ast.NodeTransformer):
    """Wraps every operator and call result in ``_one_nan``."""

    def _wrap(self, node: ast.expr) -> ast.expr:
        """``node`` wrapped in the checking call."""
        self.generic_visit(node)
        return ast.Call(ast.Name("_one_nan", ast.Load()), [node], [])

    visit_BinOp = visit_UnaryOp = visit_Call = _wrap

    def visit_AugAssign(self, node: ast.AugAssign):
        """Adds the check after (or before) an augmented assignment to a name."""
        self.generic_visit(node)
        if isinstance(node.target, ast.Name):
            fix = ast.Assign([ast.Name(node.target.id, ast.Store())],
                             ast.Call(ast.Name("_one_nan", ast.Load()), [ast.Name(node.target.id, ast.Load())], []))
            return [node, fix]
        return node


def run_list_model(source: str, name: str, args: tuple) -> Outcome:
    """CPython's outcome under anyscript's documented container and NaN model."""
    tree = guarded(_NanModel().visit(ast.parse(source)))
    args = _nan_args(args)
    ns: Dict[str, Any] = {"_one_nan": _one_nan, "_mul": _mul, "_repeat_check": _repeat_check,
                          "_harness_reraise": _harness_reraise, "math": math,
        "zip": _as_list(zip), "enumerate": _as_list(enumerate), "reversed": _as_list(reversed),
        "range": _as_list(range),
    }
    filename = "<difftest-lists>"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        exec(compile(tree, filename, "exec"), ns)
    guard = Guard(filename)
    old = sys.gettrace()
    sys.settrace(guard.global_trace)
    try:
        return ("ok", normalize(ns[name](*copy.deepcopy(args))))
    except TooBig:
        return ("skip", "guard")
    except Exception as e:  # noqa: BLE001
        return ("exc", e)
    finally:
        sys.settrace(old)


def describe(outcome: Outcome) -> str:
    """An outcome as one line: the value's repr or the exception's type and message."""
    kind, v = outcome
    if kind == "exc":
        return f"raises {type(v).__name__}: {v}"
    return f"returns {v!r}" if kind == "ok" else f"skipped ({v})"


def _exc(outcome: Outcome, cls: type, text: str = "") -> bool:
    """Whether ``outcome`` raised exactly ``cls`` with ``text`` in its message."""
    return outcome[0] == "exc" and type(outcome[1]) is cls and text in str(outcome[1])


def _message(outcome: Outcome) -> str:
    """The message of an outcome's exception as it was raised (a KeyError's str() is its repr)."""
    exc = outcome[1]
    return str(exc.args[0]) if exc.args else ""


@dataclass
class Allowed:
    """A known, intended difference between CPython and anyscript."""

    reason: str
    matches: Callable[[Outcome, Outcome], bool]


ALLOWED = [
    # anyscript has no complex type, so a negative float to a fractional power is an error
    # where CPython returns a complex (not written down in docs/architecture.md).
    Allowed("no complex numbers: (-x) ** 0.5 is ValueError",
            lambda cp, ap: _exc(ap, ValueError, "negative number cannot be raised to a fractional power")),
    # Strings are UTF-8, which has no lone surrogates (also not in docs/architecture.md).
    Allowed("no lone surrogates: chr(0xd800) is ValueError",
            lambda cp, ap: _exc(ap, ValueError, "surrogate")),
]


@dataclass
class KnownBug:
    """An engine bug: a minimal reproduction (run as a strict xfail) and a predicate for its instances."""

    key: str
    reason: str
    source: str
    args: tuple
    matches: Callable[[Outcome, Outcome], bool]
    # Whether a CPython run (source, function name, arguments) does what the bug is about: its
    # instances behind an except clause, where the outcomes can be anything.
    seen: Optional[Callable[[str, str, tuple], bool]] = None


KNOWN_BUGS: List[KnownBug] = [
]

# Bugs the differential test found and that are fixed: each reproduction must now agree with
# CPython (a regular test), and the random test no longer excuses their instances.
FIXED_BUGS: List[KnownBug] = [
    # Found by seed 3104 on 2026-11-29 (thirty-first session) in a change of that session, and
    # fixed before it landed: a call's keyword arguments were evaluated before its positional ones.
    KnownBug("keywords-evaluated-first", "h(x[5], d=a | [1]) raised the TypeError of the keyword's value, "
             "where CPython evaluates the positional argument first and raises its IndexError",
             "def f(a):\n    def h(x, d=None):\n        return x\n    return h('ab'[5], d=(a | [1]))\n", ({1},),
             lambda cp, ap: False),
    # Found and fixed on 2026-11-28 (twenty-seventh session), seed 2703: map() and filter() run as
    # generator expressions, whose loop iterated a set display of constants as the frozenset
    # CPython's optimizer folds it into there; map() takes the set the display builds.
    KnownBug("map-over-constant-set-display-order", "map(f, {consts}) iterated the folded frozenset's order, "
             "where CPython maps over the built set, whose order differs when hashes collide",
             "def f():\n    return [list(map(str, {-2.5, 5, 2305843009213693953, 2.0, 8, -2})),\n"
             "            list(filter(None, {-2.5, 5, 2305843009213693953, 2.0, 8, -2}))]\n",
             (),
             lambda cp, ap: False),
    # Found and fixed on 2026-11-27 (seventeenth session), seed 2101: a lambda in a comprehension's
    # first iterable reads the comprehension's variable, which to CPython is a global there.
    KnownBug("lambda-reads-comprehension-variable", "a lambda made outside a comprehension that reads the "
             "comprehension's variable raised NameError when it was made, where CPython raises it only "
             "when the lambda runs",
             "def f(a):\n    v = {len(c) for c in sorted(a, key=lambda p: c)}\n    return v\n",
             ([],),
             lambda cp, ap: False),
    # Found and fixed on 2026-11-26 (twelfth session), seed 1203: CPython's optimizer makes a set
    # display of constants that a loop iterates a frozenset of its items in order, which iterates
    # in another order than the copy of it that a display elsewhere is.
    KnownBug("iterated-constant-set-display-order", "a loop or comprehension over a set display of more than "
             "two constants iterated the copy's order, not the frozenset's CPython iterates",
             "def f(x):\n    return [c for c in {9, 5, -8, False, 16, 32}], [c for c in {x, 5}]\n",
             (1,),
             lambda cp, ap: False),
    # Found and fixed on 2026-11-26 (twelfth session), seed 1203: the allowance for mutable dict
    # keys (gone with real tuples) hid it.
    KnownBug("dict-slice-message", "d[a:b] of a dict said \"'dict' object is not subscriptable\" where CPython 3.11 "
             "says \"unhashable type: 'slice'\"",
             "def f(d):\n    try:\n        return d[1:2]\n    except TypeError as e:\n        return str(e)\n",
             ({1: 2},),
             lambda cp, ap: False),
    # Found and fixed on 2026-11-26 (eleventh session), seed 993: a set has sequence methods (for
    # `in`), so CPython's message for `del s[0]` is the sequence path's.
    KnownBug("set-item-deletion-message", "del s[i] of a set with an int i said \"'set' object does not support item "
             "deletion\" where CPython says \"doesn't\" (the type is the same: only a caught message shows it)",
             "def f(x):\n    s = {1, 2}\n    try:\n        del s[x]\n    except TypeError as e:\n        return str(e)\n",
             (0,),
             lambda cp, ap: False),
    # Found and fixed on 2026-11-26 (tenth session), seed 983: an error raised inside an
    # `except ... as e` clause and caught by an outer `try` of the same function left `e` bound;
    # CPython deletes it whenever the clause ends.
    KnownBug("as-name-kept-after-clause-raises", "an `except E as e` clause left by an error kept `e` bound, where "
             "CPython deletes it (a later read is an UnboundLocalError)",
             "def f(x):\n    try:\n        try:\n            int(x)\n        except ValueError as e:\n"
             "            int(x + 'y')\n    except ValueError:\n        pass\n    return e\n",
             ("a",),
             lambda cp, ap: False),
    # Found and fixed on 2026-11-26 (ninth session): a method called through its type checks its
    # receiver, with CPython's descriptor error.
    KnownBug("str-method-through-type-message", "str.upper(x) (and map(str.strip, xs)) of a non-str: the TypeError "
             "says \"'int' object has no attribute 'upper'\" where CPython says \"descriptor 'upper' for 'str' "
             "objects doesn't apply to a 'int' object\" (the type is the same: only a caught message shows it)",
             "def f(x):\n    try:\n        return str.upper(x)\n    except TypeError as e:\n        return str(e)\n",
             (5,),
             lambda cp, ap: False),
    # Found and fixed on 2026-11-26 (ninth session) while extending the generator to math.*, codecs,
    # map/filter and type checks (seeds 961-965 and the edge probes written with them). The cause: a
    # function whose body is one op call ran as a direct call, past its except clauses.
    KnownBug("math-error-uncatchable", "an error raised by a math.* call (math.sqrt(-1)'s ValueError, math.gcd(1.5)'s "
             "TypeError, math.log(1, 1)'s ZeroDivisionError) passes every except clause, a bare one included, "
             "and ends the call; its message also starts with 'math.sqrt: ', and math.trunc('a') says 'must be "
             "real number, not str' where CPython says \"type str doesn't define __trunc__ method\"",
             "def f(x):\n    try:\n        return math.sqrt(x)\n    except ValueError as e:\n        return str(e)\n",
             (-1,),
             lambda cp, ap: False),
    # Fixed in the ninth session.
    KnownBug("decode-empty-unknown-encoding", "b''.decode(name) with a name no codec has is KeyError (LookupError in "
             "CPython's words); CPython returns '' for empty bytes before it looks the codec up",
             "def f(s):\n    return s.encode().decode('utf-9')\n", ("",),
             lambda cp, ap: False),
    # Fixed in the ninth session.
    KnownBug("filter-none-value", "filter(g, xs) with g a value that is None when it runs is TypeError \"'NoneType' "
             "object is not callable\"; CPython keeps the true items, as filter(None, xs) does",
             "def f(g):\n    return list(filter(g, [1, 0, 'a']))\n", (None,),
             lambda cp, ap: False),
    # Fixed in the ninth session.
    KnownBug("encode-none-message", "s.encode(None): \"argument 'encoding' must be str, not NoneType\" where CPython "
             "says \"not None\" (the generator does not write it; found by the edge probes)",
             "def f(s):\n    try:\n        return s.encode(None)\n    except TypeError as e:\n        return str(e)\n",
             ("a",),
             lambda cp, ap: False),
    # The three sort differences below, fixed in the ninth session: anyproc now runs CPython 3.11's
    # listsort itself (src/pipeline/timsort.rs) wherever `<` may not be a total order.
    KnownBug("sort-nan-order", "sorting a list that holds a NaN gives another order than CPython's timsort",
             "def f(l):\n    return sorted(l)\n", ([3, float("nan"), 1, 2],),
             lambda cp, ap: False),
    # Found on 2026-11-26 by the generator's try/except (seed 911): a caught exception's message
    # shows which two items the sort compared first; the uncaught TypeError is the same type.
    KnownBug("sort-compare-order-message", "sorting a list of items that cannot be compared: the TypeError "
             "names other types than CPython's timsort, which compares other items first ('bool' and 'str' "
             "where CPython compares 'x' < True first; 'int' and 'NoneType' for [0.1, 1.5, None, 3], where "
             "CPython compares None < 1.5)",
             "def f(a):\n    try:\n        a.sort()\n    except TypeError as e:\n        return str(e)\n    return a\n",
             ([True, "x", True],),
             lambda cp, ap: False),
    # The same sort seen another way (seeds 911 and 912): CPython's timsort leaves the list partly
    # sorted when a comparison fails, anyproc leaves it as it was; only a caught TypeError shows it.
    KnownBug("sort-failure-leaves-list", "a list.sort() that raises TypeError leaves the list unchanged, where "
             "CPython leaves the items it had sorted before the failing comparison in their sorted order",
             "def f(a):\n    try:\n        a.sort()\n    except TypeError:\n        pass\n    return a\n",
             ([3, 1, 2, "x"],),
             lambda cp, ap: False),
    # Found on 2026-11-26 by the set generator (seed 931, while it was written), fixed the same day:
    # CPython's set
    # __contains__, remove and discard retry an unhashable set key as a frozenset (set_contains_key,
    # set_discard_key), which no set of anyscript can hold.
    KnownBug("set-key-is-a-set", "x in s / x not in s / s.discard(x) / s.remove(x) with x a set raise "
             "TypeError \"unhashable type: 'set'\"; CPython looks x up as a frozenset: False, True, nothing, "
             "KeyError",
             "def f(s):\n    s.discard({1})\n    return [{1} in s, {1} not in s]\n", ({1, 2},),
             lambda cp, ap: False),
    # Seed 912, fixed in the ninth session: max() compared `current < item`, where CPython
    # compares `item > current`.
    KnownBug("max-compare-message", "max() of items that cannot be compared: the TypeError says \"'<' not "
             "supported between instances of 'float' and 'str'\" where CPython says \"'>' ... 'str' and 'float'\"",
             "def f(a):\n    try:\n        return max(1.5, a)\n    except TypeError as e:\n        return str(e)\n",
             ("x",),
             lambda cp, ap: False),
    # Found while reducing the one above, fixed in the ninth session (with sets): dict.__ior__
    # takes whatever update() takes, and updates the dict in place.
    KnownBug("dict-ior-iterable", "d |= xs with a list of pairs (or any iterable update() takes) is TypeError "
             "(the binary | message); CPython updates d",
             "def f(d, xs):\n    d |= xs\n    return d\n", ({"a": 1}, [("b", 2)]),
             lambda cp, ap: False),
    # Found by the try/except generator (eighth session), fixed: seed 911, the TypeError of an
    # augmented assignment named the binary operator.
    KnownBug("augmented-assignment-message", "x -= y (and +=, //=, %=, |=, /=, ^=, *=) of unsupported types: "
             "the message says 'for -:' where CPython says 'for -=:' (and x *= [] of a dict gives the "
             "sequence-repeat message)",
             "def f(a):\n    try:\n        a -= 1.5\n    except TypeError as e:\n        return str(e)\n    return a\n",
             ([1],),
             lambda cp, ap: False),
    # Seed 915: CPython words it "doesn't" for an int index (PySequence_DelItem), "does not" otherwise.
    KnownBug("del-str-message", "del s[k] of a str with a key that is not an int: \"'str' object doesn't support "
             "item deletion\", where CPython says \"does not\" (it says \"doesn't\" for an int index)",
             "def f(a):\n    try:\n        del a['x']\n    except TypeError as e:\n        return str(e)\n",
             ("abc",),
             lambda cp, ap: False),
    # Seed 917: the binary operator's message lacks CPython's " or pow()". (Its instances: a result that
    # shows CPython's message; one that shows only its length is not matched.)
    KnownBug("pow-message", "x ** y of unsupported types: 'unsupported operand type(s) for **: ...' where CPython "
             "says 'for ** or pow(): ...'",
             "def f(a):\n    try:\n        return a ** 2\n    except TypeError as e:\n        return str(e)\n",
             ("x",),
             lambda cp, ap: False),
    # Seed 911 (a compile skip): the compiler refuses a del whose index is a slicing expression,
    # mistaking it for a slice (the parser already refuses `del a[1:2]` itself).
    KnownBug("del-index-is-slicing", "del d[s[1:]] is refused when it compiles: 'del of a slice is not "
             "supported' (compile/raising.rs tests the index expression, not the subscript)",
             "def f(d, s):\n    del d[s[1:]]\n    return d\n", ({"b": 1}, "ab"),
             lambda cp, ap: False),
    KnownBug("dict-changed-size-keys", "a dict that changes size while `for k in d` iterates it: RuntimeError",
             "def f(d):\n    for k in d:\n        d['z' + k] = 1\n    return d\n", ({"a": 1},),
             lambda cp, ap: False),
    KnownBug("dict-shrinks-during-loop", "a key popped while `for k in d` iterates: RuntimeError",
             "def f(d):\n    for k in d:\n        d.pop(k)\n    return d\n", ({"a": 1, "b": 2},),
             lambda cp, ap: False),
    KnownBug("slice-step-before-receiver", "x[::0] on a non-sequence is ValueError (step) before TypeError (receiver)",
             "def f(b):\n    return b[::0]\n", (5,),
             lambda cp, ap: _exc(cp, TypeError, "not subscriptable") and _exc(ap, ValueError, "step cannot be zero")),
    KnownBug("slice-bounds-before-step", "s['a':2:0] is TypeError (bounds) where CPython checks the step first",
             "def f(s):\n    return s['a':2:0]\n", ("abc",),
             lambda cp, ap: _exc(cp, ValueError, "step cannot be zero") and _exc(ap, TypeError, "slice indices")),
    KnownBug("unbound-free-in-comprehension", "a maybe-unassigned local read in a comprehension is NameError",
             "def f(x):\n    if x:\n        z = 1\n    return [z for _ in range(2)]\n", (0,),
             lambda cp, ap: False),
    KnownBug("comprehension-variable-after", "a comprehension's variable read after it is NameError",
             "def f(xs):\n    out = [c for c in xs]\n    return c\n", ([1, 2],),
             lambda cp, ap: False),
    KnownBug("unbound-augmented", "x += 1 on a maybe-unassigned local reads it first",
             "def f(x):\n    if x:\n        t = 1\n    t += 1\n    return t\n", (0,),
             lambda cp, ap: False),
    KnownBug("unbound-local", "a local read before any assignment ran is None, not UnboundLocalError",
             "def f(x):\n    if x:\n        y = 1\n    return y\n", (0,),
             lambda cp, ap: cp[0] == "exc" and isinstance(cp[1], NameError) and not _exc(ap, type(cp[1]))),
    KnownBug("compile-panic-comprehension-in-target",
             "a list comprehension inside an assignment target's subscript panics the compiler "
             "(compile.rs:511, 'no entry found for key'; PanicException, a BaseException)",
             "def f(c):\n    c[[x for x in c][0]] = 1\n    return c\n", ([0],),
             lambda cp, ap: ap[0] == "exc" and type(ap[1]).__name__ == "PanicException"),
    KnownBug("chr-overflow", "chr() of an int past the C int range is ValueError, not OverflowError",
             "def f(n):\n    return chr(n)\n", (2**31,),
             lambda cp, ap: _exc(cp, OverflowError) and _exc(ap, ValueError, "chr()")),
    KnownBug("list-index-none", "list.index(x, None) / (x, 0, None) accept None where CPython raises TypeError",
             "def f(l):\n    return l.index(1, None)\n", ([1],),
             lambda cp, ap: _exc(cp, TypeError, "slice indices must be integers") and not _exc(ap, TypeError)),
    KnownBug("dict-from-dict-items", "dict()/update() from a sequence whose items are dicts: TypeError, "
             "where CPython unpacks each dict's keys as a pair", "def f(d):\n    return dict([d])\n",
             ({"a": 1, "b": 2},),
             lambda cp, ap: (_exc(ap, TypeError, "cannot convert dictionary update sequence element")
                             and not _exc(cp, TypeError))),
    KnownBug("pop-check-order", "[].pop('x') is IndexError (empty) before TypeError (argument type)",
             "def f(a):\n    return a.pop('x')\n", ([],),
             lambda cp, ap: _exc(cp, TypeError, "cannot be interpreted as an integer") and _exc(ap, IndexError)),
    # Found on 2026-11-25 (sixth session) by 40,000 programs of seed 777.
    KnownBug("list-imul-in-place", "xs *= n repeats the list itself: a loop variable bound to an item of c "
             "changes c's item (it made a new list)", "def f(c):\n    for x in c:\n        x *= 2\n    return c\n",
             ([[1, "x"], "ab", 3, [], [[0]]],), lambda cp, ap: False),
    KnownBug("list-imul-alias", "xs *= n for n of 3, 0 and -1 is seen through every reference to the list",
             "def f(a):\n    b = a\n    b *= 3\n    c = b[:2]\n    d = c\n    d *= 0\n    e = [1]\n    g = e\n"
             "    g *= -1\n    return [a, b, c, d, e, g]\n", ([1, 2],), lambda cp, ap: False),
    KnownBug("empty-dict-pop-unhashable", "{}.pop(k) of an unhashable k is KeyError: CPython answers an empty "
             "dict before it hashes the key", "def f(k):\n    v = {}\n    return v.pop(k)\n", ({"a": 1},),
             lambda cp, ap: False),
    # The most frequent known bug in 160,000 programs of seeds 777-780 (287 instances).
    KnownBug("method-lookup-order", "a method missing from the receiver's type is found missing before the "
             "arguments are evaluated (AttributeError, not the argument's IndexError)",
             "def f(s, xs):\n    return [s.pop('ab'[5]), xs.append(xs[9])]\n", ("x", []),
             lambda cp, ap: False),
    # Found by 40,000 programs of seed 781, after the fix above.
    KnownBug("method-lookup-order-unbound", "the same when the argument is a local that may be unassigned",
             "def f(a, x):\n    if x:\n        v = 1\n    return a.join(v)\n", ([1], 0), lambda cp, ap: False),
    KnownBug("method-lookup-order-append", "the same for append, which has an instruction of its own",
             "def f(s):\n    s.append([1][3])\n    return s\n", ("x",), lambda cp, ap: False),
    KnownBug("dict-changed-size", "a dict that changes size while `for k, v in d.items()` runs: RuntimeError "
             "(the loop walks the dict, not a snapshot list)",
             "def f(d):\n    for k, v in d.items():\n        d['z' + k] = 1\n    return d\n", ({"a": 1},),
             lambda cp, ap: False),
    KnownBug("dict-view-values-live", "values() and items() in a loop header give each value as the loop "
             "reaches it, as CPython's views do; keys() too; a non-dict's view method is its error",
             "def f(d, xs):\n    out = []\n    for v in d.values():\n        out.append(v)\n        d['c'] = v * 10\n"
             "    for k, v in d.items():\n        out.append([k, v])\n        d['c'] = k\n"
             "    for k in d.keys():\n        out.append(k)\n"
             "    for k in d.values():\n        d.pop(k)\n    return out\n",
             ({"a": 1, "b": 2, "c": 3}, []), lambda cp, ap: False),
    KnownBug("dict-view-of-a-list", "a view method of a non-dict in a loop header fails as the call does",
             "def f(xs):\n    for x in xs.items():\n        return x\n", ([1],), lambda cp, ap: False),
    # Found by 40,000 programs of seed 779.
    KnownBug("int-true-div-rounding", "a / b of ints beyond 2**53 is the exact quotient rounded once "
             "(converting both to floats first gave -1.0 for -0.9999999999999999)",
             "def f(a, b):\n    return [(255 - 4611686018427387904) / sum(a), a[2] / 3, b / a[2], -b / 7]\n",
             ([1, 10, 4611686018427387904, 63], 9223372036854775807), lambda cp, ap: False),
    KnownBug("empty-dict-pop-default", "{}.pop(k, default) of an unhashable k gives the default",
             "def f(k):\n    return [{}.pop(k, 7), {}.pop(k, None)]\n", ([1],), lambda cp, ap: False),
    # Found by 10,000 programs of seed 780 (2026-11-26): the repeat copied nothing 2**62 times.
    KnownBug("empty-list-times-huge-int", "[] * 2**62 (and a *= [] with a huge a) is [] at once",
             "def f(a):\n    a *= {}.get('', [])\n    return [a, [] * 4611686018427387904, '' * 4611686018427387904]\n",
             (4611686018427387904,), lambda cp, ap: False),
    # Found on 2026-11-26 (eighth session) by the generator's lambdas (seed 901): any lambda written
    # inside a lambda's body (the compiler kept the list of lambdas borrowed while compiling one).
    KnownBug("nested-lambda-compile-panic", "a lambda inside a lambda's body panics the compiler (compile.rs, "
             "'RefCell already borrowed'; RuntimeError 'internal error: the compiler panicked')",
             "def f(x):\n    return (lambda p: (lambda q: q)(p))(x)\n", (1,),
             lambda cp, ap: False),
    # Found by 3,000 programs of seed 902: reverse= is a C int in CPython (so are splitlines' keepends
    # and expandtabs' tabsize, which the generator gives only small values; expandtabs(tabsize=2**31)
    # builds a 2 GiB string in anyproc).
    KnownBug("sort-reverse-c-int", "sorted()/list.sort() with reverse= an int outside the C int range sorts; "
             "CPython raises OverflowError (Python int too large to convert to C int)",
             "def f(b):\n    return sorted([2, 1], reverse=b)\n", (2**31,),
             lambda cp, ap: False),
    KnownBug("c-int-keepends-tabsize", "splitlines(keepends=) and expandtabs(tabsize=) beyond a C int",
             "def f(b):\n    return ['a\\nb'.splitlines(keepends=b), 'a\\tb'.expandtabs(b)]\n", (2**62,),
             lambda cp, ap: False),
    # Found by reading the generator's runs (eighth session): a built-in as a value was a new
    # function object at each use, and a lambda reading a variable that was never assigned
    # raised UnboundLocalError when made, where CPython raises NameError when (and if) it reads it.
    KnownBug("builtin-value-identity", "k = len; k is len",
             "def f(x):\n    k = len\n    return [k == len, k is len, len == len, k(x)]\n", ("ab",),
             lambda cp, ap: False),
    KnownBug("lambda-free-unbound", "a lambda reading a variable that may be unassigned raises NameError on the read",
             "def f(xs):\n    if len(xs) > 5:\n        n = 1\n    return [sorted([], key=lambda v: v + n), "
             "sorted(xs, key=lambda v: v + n)]\n", ([1, 2],),
             lambda cp, ap: False),
]


def outcomes_agree(cp: Outcome, ap: Outcome) -> bool:
    """Whether anyproc's outcome is CPython's (or an allowed difference)."""
    if cp[0] == "ok" and ap[0] == "ok":
        return same(cp[1], ap[1])
    if cp[0] == "exc" and ap[0] == "exc" and type(cp[1]) is type(ap[1]):
        return True
    return any(a.matches(cp, ap) for a in ALLOWED)


@dataclass
class Mismatch:
    """One disagreement, with what is needed to reproduce it."""

    path: str
    program: Program
    args: tuple
    cpython: Outcome
    anyproc: Outcome
    known: Optional[str] = None

    def report(self) -> str:
        """A reproduction: the source, the arguments and both outcomes."""
        return (f"--- program {self.program.index} via {self.path}"
                f"{' (known: ' + self.known + ')' if self.known else ''}\n{self.program.source}"
                f"args: {self.args!r}\nCPython: {describe(self.cpython)}\nanyproc: {describe(self.anyproc)}\n")


@dataclass
class Stats:
    """Counts of what a run compared and skipped."""

    programs: int = 0
    runs: int = 0
    compared: int = 0
    compile_skips: Dict[str, int] = field(default_factory=dict)
    guard_skips: int = 0
    big_int_skips: int = 0
    list_model: int = 0  # runs that agree only under the documented tuple/view-as-list and NaN model
    # Runs of programs with an except clause that differ where CPython met a documented difference
    # (try_documented), by the difference.
    try_documented: Dict[str, int] = field(default_factory=dict)
    # The programs of runs whose CPython outcome changes with the str hash seed (a str's place in a
    # set shows), once for each such run.
    hash_order: List[int] = field(default_factory=list)
    mismatches: List[Mismatch] = field(default_factory=list)


def compile_failure(path: str, program: Program, error: BaseException, stats: Stats) -> None:
    """Records a compile error other than SyntaxError (a Rust panic comes as a BaseException)."""
    cp: Outcome = ("ok", "(compiles)")
    ap: Outcome = ("exc", error)
    known = next((b.key for b in KNOWN_BUGS if b.matches(cp, ap)), None)
    stats.mismatches.append(Mismatch(path + " (compile)", program, (), cp, ap, known))


def compile_native(program: Program, stats: Stats) -> Any:
    """``script_source`` of the program, or None (counted) when anyproc refuses it."""
    try:
        return _native.script_source(program.source, program.name, while_limit=MAX_LINES)
    except SyntaxError as e:
        msg = str(e).split(": ", 1)[-1]
        stats.compile_skips[msg] = stats.compile_skips.get(msg, 0) + 1
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as e:  # noqa: BLE001 - pyo3's PanicException is a BaseException
        compile_failure("script_source", program, e, stats)
    return None


def import_source(source: str, module_name: str, tmpdir: str) -> Any:
    """``source`` imported as module ``module_name`` from a real file in ``tmpdir``, so that
    ``inspect.getsource`` (which ``anyproc.script`` reads) finds its functions."""
    path = os.path.join(tmpdir, f"{module_name}.py")
    with open(path, "w", encoding="utf-8") as f:
        f.write(source)
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)  # `x is None` on a literal, and such
        spec.loader.exec_module(module)
    return module


def compile_ast(programs: List[Program], stats: Stats, tmpdir: str) -> Dict[int, Tuple[Any, Callable]]:
    """``anyproc.script`` of each program, imported from a real file so that getsource works
    (with the Python function, which a program that has list or dict defaults compiles again)."""
    # `import math` first: anyproc.script maps Python's math functions to anyscript's math.* ops.
    module = import_source("import math\n" + "\n\n".join(p.source for p in programs),
                           f"difftest_programs_{programs[0].index}", tmpdir)
    out = {}
    for p in programs:
        fn = getattr(module, p.name)
        try:
            out[p.index] = (anyproc.script(fn, while_limit=MAX_LINES), fn)
        except SyntaxError as e:
            msg = "ast: " + str(e).split(" (")[0]
            stats.compile_skips[msg] = stats.compile_skips.get(msg, 0) + 1
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as e:  # noqa: BLE001
            compile_failure("anyproc.script", p, e, stats)
    return out


def check_program(program: Program, native: Any, via_ast: Any, stats: Stats, ast_fn: Optional[Callable] = None) -> None:
    """Runs every argument tuple on CPython and the compiled forms and records mismatches."""
    for i, args in enumerate(program.args):
        if program.fresh and i:
            # Its list and dict defaults start again, as they do in each CPython run.
            if native is not None:
                native = compile_native(program, stats)
            if via_ast is not None:
                via_ast = anyproc.script(ast_fn, while_limit=MAX_LINES)
        stats.runs += 1
        documented: List[str] = []
        cp = run_cpython(program.source, program.name, args, documented=documented)
        if cp[0] == "skip":
            stats.guard_skips += 1
            continue
        if cp[0] == "ok" and has_big_int(cp[1]):
            stats.big_int_skips += 1
            continue
        for path, func in (("script_source", native), ("anyproc.script", via_ast)):
            if func is None:
                continue
            ap = run_anyproc(func, args)
            if (_exc(ap, OverflowError) and not _exc(cp, OverflowError)
                    and needs_big_int(program.source, program.name, args)):
                stats.big_int_skips += 1
                continue
            stats.compared += 1
            if outcomes_agree(cp, ap):
                continue
            model = run_list_model(program.source, program.name, args)
            if outcomes_agree(model, ap):
                stats.list_model += 1
                continue
            if model[0] == "skip":
                # Only CPython with anyscript's containers runs as anyproc does, and the guard
                # stopped it (a loop over a list that a tuple-turned-list keeps growing, say).
                stats.guard_skips += 1
                continue
            why = try_documented(program, args, documented)
            if why:
                stats.try_documented[why] = stats.try_documented.get(why, 0) + 1
                continue
            if hash_dependent(program, args, cp):
                stats.hash_order.append(program.index)
                continue
            known = next((b.key for b in KNOWN_BUGS if b.matches(cp, ap)), None)
            if known is None and re.search(r"^\s*try:", program.source, re.M):
                known = next((b.key for b in KNOWN_BUGS if b.seen and b.seen(program.source, program.name, args)), None)
            stats.mismatches.append(Mismatch(path, program, args, cp, ap, known))


def try_documented(program: Program, args: tuple, documented: List[str]) -> Optional[str]:
    """Why a run of a program with an except clause may differ by a documented difference, or None.

    ALLOWED accepts a documented difference by the exceptions both sides end with; an except clause
    can catch one side's exception and not the other's, and then anything follows: an OverflowError
    of anyproc where CPython computes an int outside i64, or its ValueError where CPython computes
    a complex number, caught by ArithmeticError, Exception or ValueError; CPython's TypeError for a list as a dict key where anyproc goes on."""
    if not re.search(r"^\s*try:", program.source, re.M):
        return None
    if documented:
        return documented[0]
    return documented_values(program.source, program.name, args)


# ---- CPython's str hash order ------------------------------------------------------------------
# CPython randomizes str hashes per process, so the order of a set that holds a str differs from run
# to run (and from anyproc's, which is fixed). The generator never lets such an order show, but a
# str can slip into a set of numbers (an int variable given a str argument, say). A run that still
# disagrees is run again by fresh processes under other PYTHONHASHSEEDs: when CPython disagrees with
# itself, there is nothing to compare it with (counted).
HASH_SEEDS = ["1", "2", "3"]

_HASH_RUNNER = """
import importlib.util, pickle, sys
spec = importlib.util.spec_from_file_location("difftest_hash_run", sys.argv[1])
t = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = t
spec.loader.exec_module(t)
source, name, args = pickle.load(sys.stdin.buffer)
sys.stdout.buffer.write(pickle.dumps(t.comparable(t.run_cpython(source, name, args))))
"""


def comparable(outcome: Outcome) -> Outcome:
    """``outcome`` that can cross a process: an exception as its type's name and its message."""
    kind, v = outcome
    return (kind, (type(v).__name__, str(v))) if kind == "exc" else (kind, v)


def has_sets(source: str) -> bool:
    """Whether the program makes a set (a display, a comprehension or a call of ``set``)."""
    return any(isinstance(n, (ast.Set, ast.SetComp)) or (isinstance(n, ast.Name) and n.id == "set")
               for n in ast.walk(ast.parse(source)))


def hash_dependent(program: Program, args: tuple, cp: Outcome) -> bool:
    """Whether CPython's own outcome of this run changes with the str hash seed."""
    if not has_sets(program.source):
        return False
    import pickle  # noqa: PLC0415 - only this rare path needs them
    import subprocess  # noqa: PLC0415
    first = comparable(cp)
    for seed in HASH_SEEDS:
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run([sys.executable, "-c", _HASH_RUNNER, os.path.abspath(__file__)], env=env,
                              input=pickle.dumps((program.source, program.name, args)), capture_output=True,
                              timeout=120, check=True)
        other = pickle.loads(done.stdout)
        if other[0] != first[0] or not (same(other[1], first[1]) if first[0] == "ok" else other[1] == first[1]):
            return True
    return False


def is_python(program: Program, stats: Stats) -> bool:
    """Whether CPython compiles the program; the generator's rare slips (an int literal given a
    method, ``-1.get(...)``, which CPython reads as a float) are counted as compile skips."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SyntaxWarning)
            compile(program.source, "<difftest>", "exec")
        return True
    except SyntaxError:
        msg = "not valid Python (the generator's slip)"
        stats.compile_skips[msg] = stats.compile_skips.get(msg, 0) + 1
        return False


def run_programs(count: int, seed: int = BASE_SEED, start: int = 0, watchdog: bool = False) -> Stats:
    """Generates and checks ``count`` programs (``watchdog``: name a program that hangs, then exit)."""
    stats = Stats()
    programs = [p for p in (make_program(i, seed) for i in range(start, start + count)) if is_python(p, stats)]
    with tempfile.TemporaryDirectory() as tmp:
        # Imported in chunks, so that one file does not grow too large.
        ast_funcs: Dict[int, Tuple[Any, Callable]] = {}
        chosen = [p for p in programs if p.index % AST_SHARE == 0]
        for k in range(0, len(chosen), 500):
            ast_funcs.update(compile_ast(chosen[k:k + 500], stats, tmp))
        for p in programs:
            if watchdog:
                print(f"program {p.index}", file=sys.stderr, flush=True)
                faulthandler.dump_traceback_later(60, exit=True)
            stats.programs += 1
            native = compile_native(p, stats)
            via_ast, ast_fn = ast_funcs.get(p.index, (None, None))
            check_program(p, native, via_ast, stats, ast_fn)
    return stats


# ---- tests -------------------------------------------------------------------------------------

def program_count() -> int:
    """How many programs the random test runs (``ANYPROC_DIFF_PROGRAMS`` overrides)."""
    return int(os.environ.get("ANYPROC_DIFF_PROGRAMS", DEFAULT_PROGRAMS))


def test_generator_is_deterministic():
    """The same seed and index give the same program and arguments."""
    a, b = make_program(7), make_program(7)
    assert a.source == b.source and a.args == b.args
    compile(a.source, "<x>", "exec")


def test_random_programs_agree_with_cpython():
    """Random programs give CPython's results through both front ends."""
    stats = run_programs(program_count())
    unknown = [m for m in stats.mismatches if m.known is None]
    # Most programs must actually be compared, or the generator drifted into unsupported ground.
    assert stats.compared > stats.runs, (stats.compared, stats.runs, stats.compile_skips)
    assert not unknown, f"{len(unknown)} mismatches:\n" + "\n".join(m.report() for m in unknown[:20])


@pytest.mark.parametrize("bug", [pytest.param(b, marks=pytest.mark.xfail(strict=True, reason=b.reason))
                                 for b in KNOWN_BUGS], ids=[b.key for b in KNOWN_BUGS])
def test_known_bug_reproduction(bug: KnownBug):
    """A known bug's minimal reproduction (a strict xfail: it fails once the bug is fixed)."""
    name = "f"
    cp = run_cpython(bug.source, name, bug.args)
    try:
        ap = run_anyproc(_native.script_source(bug.source, name), bug.args)
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as e:  # noqa: BLE001 - a compile-time panic
        ap = ("exc", e)
    assert outcomes_agree(cp, ap), f"CPython: {describe(cp)}\nanyproc: {describe(ap)}"


@pytest.mark.parametrize("bug", FIXED_BUGS, ids=[b.key for b in FIXED_BUGS])
def test_fixed_bug_agrees(bug: KnownBug):
    """A fixed bug's reproduction gives CPython's outcome through both front ends."""
    name = "f"
    cp = run_cpython(bug.source, name, bug.args)
    ap = run_anyproc(_native.script_source(bug.source, name), bug.args)
    assert outcomes_agree(cp, ap), f"CPython: {describe(cp)}\nanyproc (source): {describe(ap)}"
    with tempfile.TemporaryDirectory() as tmp:
        fn = getattr(import_source(bug.source, "difftest_fixed", tmp), name)
        ap = run_anyproc(anyproc.script(fn), bug.args)
    assert outcomes_agree(cp, ap), f"CPython: {describe(cp)}\nanyproc (ast): {describe(ap)}"


@pytest.mark.parametrize("expr, kind", [
    ("[0] * n", MemoryError), ("'a' * n", MemoryError), ("'é' * n", MemoryError),
    # Two characters times 2**62 overflow a signed size: CPython's OverflowError.
    ("'ab' * n", OverflowError),
])
def test_repetition_too_large_raises_cpythons_error(expr: str, kind: type):
    """``seq * 2**62`` raises what CPython 3.11 raises (found by this test: it was ValueError).

    Not compared by running CPython: it would try to allocate the result.
    """
    f = _native.script_source(f"def f(n):\n    return {expr}\n", "f")
    with pytest.raises(kind):
        f(2**62)


def main(argv: List[str]) -> int:
    """Runs a large number of programs and prints mismatches and counts."""
    count = int(argv[1]) if len(argv) > 1 else 20_000
    seed = int(argv[2]) if len(argv) > 2 else BASE_SEED
    start = int(argv[3]) if len(argv) > 3 else 0
    faulthandler.enable()  # a crash of the process prints where it happened
    stats = run_programs(count, seed, start, watchdog=True)
    faulthandler.cancel_dump_traceback_later()
    for m in stats.mismatches:
        print(m.report())
    print(f"programs {stats.programs} runs {stats.runs} compared {stats.compared} guard-skips {stats.guard_skips} "
          f"big-int-skips {stats.big_int_skips} model {stats.list_model} mismatches {len(stats.mismatches)} "
          f"(unknown {sum(m.known is None for m in stats.mismatches)})")
    print(f"documented differences behind an except clause {stats.try_documented}")
    print(f"runs whose CPython outcome depends on the str hash seed {len(stats.hash_order)} "
          f"(programs {sorted(set(stats.hash_order))})")
    for msg, n in sorted(stats.compile_skips.items(), key=lambda kv: -kv[1]):
        print(f"compile skip x{n}: {msg}")
    return 1 if any(m.known is None for m in stats.mismatches) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
