"""``anyproc.script``: run a plain Python function in anyproc's interpreter.

The function's source is read with :func:`inspect.getsource`, parsed with
:mod:`ast` and lowered to the JSON form of ``anyproc::pipeline::ast::Module``
(see ``src/pipeline/ast.rs``), which the native compiler turns into register
code. Python's own parser is the front end, so what parses here parses exactly
as CPython parses it; the lowering only decides what anyscript supports.

Names that are not local to a function are resolved now, against the
function's globals and closure, because the compiled program cannot see
Python's namespaces:

* plain Python functions it calls are lowered too (each once) and compiled
  into the same module;
* ``anyproc.ops.text.lower`` / ``ops.text.lower`` (or a name bound to an
  ``ops`` node) becomes the op chain ``ops.text.lower``;
* constants (None, bool, int, float, str, and lists/tuples/dicts of them) are
  inlined as literals, as they are at the time ``script`` runs;
* anything else is left to the compiler (builtins like ``len``, op names).

Unsupported syntax raises :class:`SyntaxError` naming the construct, with the
``lineno`` of the original file.
"""

from __future__ import annotations

import ast
import bisect
import collections
import functools
import heapq
import importlib
import inspect
import itertools
import json
import linecache
import math
import operator
import random
import re
import textwrap
import types
from typing import Any, Callable, Dict, List, Optional, Set, Tuple

from . import _native
from .trace import _record_script, _set_script_call
from ._lru import CACHE_DECORATORS, CACHE_WRAPPER, cached_function
from ._ops import OpNamespace
from ._unparse import unparse_constant, unparse_function

I64_MIN = -(2**63)
I64_MAX = 2**63 - 1

_BINOPS = {
    ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "div", ast.FloorDiv: "floor_div",
    ast.Mod: "mod", ast.Pow: "pow", ast.BitAnd: "bit_and", ast.BitOr: "bit_or", ast.BitXor: "bit_xor",
    ast.LShift: "l_shift", ast.RShift: "r_shift",
}
_UNARYOPS = {ast.Not: "not", ast.USub: "neg", ast.UAdd: "pos", ast.Invert: "invert"}
_BOOLOPS = {ast.And: "and", ast.Or: "or"}
_CMPOPS = {
    ast.Eq: "eq", ast.NotEq: "not_eq", ast.Lt: "lt", ast.LtE: "lt_e", ast.Gt: "gt", ast.GtE: "gt_e",
    ast.In: "in", ast.NotIn: "not_in", ast.Is: "is", ast.IsNot: "is_not",
}

# What each unsupported node is called in error messages.
_UNSUPPORTED = {
    "ClassDef": "class definitions",
    "AsyncFunctionDef": "async def", "TryStar": "except* (exception groups)",
    "With": "with statements", "AsyncWith": "async with", "AsyncFor": "async for",
    "Import": "import statements", "ImportFrom": "import statements",
    "Global": "global statements", "Match": "match statements",
    "Yield": "yield as an expression (only as a statement, `yield x`)",
    "YieldFrom": "yield from as an expression (only as a statement)", "Await": "await",
    "Starred": "*args (starred expressions)", "MatMult": "the @ operator",
}


class ScriptFunction(_native.Function):
    """A scripted function: calls run the compiled program.

    It is an :class:`anyproc.Function` (the same native call, through CPython's vectorcall
    where the interpreter offers it to subclasses, its tuple call otherwise) that also
    carries ``__name__``, ``__doc__`` and ``__wrapped__``. :attr:`func` is the bare native
    function; both share one ``release_gil`` setting. While a trace is being recorded the
    class gains a Python ``__call__`` that records calls on symbols (see ``trace``).
    """

    def __init__(self, func: Any, wrapped: Callable, ast_json: str, sources: List[Tuple[str, str]],
                 registers: Any = None) -> None:
        #: The compiled native function.
        self.func = func
        #: Where ``wrapped`` has ``*args``, keyword-only or ``**kwargs`` parameters: the native
        #: function that takes its registers as they are, which a call with keywords runs.
        self._registers = registers
        self._binder: Optional[Callable] = None
        self.__name__ = wrapped.__name__
        self.__qualname__ = getattr(wrapped, "__qualname__", wrapped.__name__)
        self.__doc__ = wrapped.__doc__
        self.__wrapped__ = wrapped
        self.__module__ = str(getattr(wrapped, "__module__", None) or "")
        #: The lowered module as JSON (the shape of ``anyproc::pipeline::ast::Module``).
        self.ast_json = ast_json
        #: ``(name, anyscript source)`` of the entry function and every function it calls.
        self.sources = sources

    def _bind_keywords(self, args: Tuple[Any, ...], kwargs: Dict[str, Any]) -> Tuple[Any, ...]:
        """The positional arguments of a call with keywords, bound as CPython binds them, with
        its errors; left-out parameters before a given one take their defaults. For a function
        with ``*args``, keyword-only or ``**kwargs`` parameters: its registers."""
        if self._registers is not None:
            if self._binder is None:
                self._binder = _register_binder(self.__wrapped__)
            return self._binder(*args, **kwargs)
        fn = self.__wrapped__
        code = fn.__code__
        names = code.co_varnames[:code.co_argcount]
        defaults = fn.__defaults__ or ()
        first_default = len(names) - len(defaults)
        values = dict(zip(names, args))
        for key, value in kwargs.items():
            if key in names[:code.co_posonlyargcount]:
                raise TypeError(f"{fn.__name__}() got some positional-only arguments passed as keyword "
                                f"arguments: '{key}'")
            if key not in names:
                raise TypeError(f"{fn.__name__}() got an unexpected keyword argument '{key}'")
            if key in values:
                raise TypeError(f"{fn.__name__}() got multiple values for argument '{key}'")
            values[key] = value
        if len(args) > len(names):
            return tuple(args)  # the native call reports the count, as CPython words it
        missing = [f"'{n}'" for n in names[:first_default] if n not in values]
        if missing:
            listed = missing[0] if len(missing) == 1 else (
                f"{missing[0]} and {missing[1]}" if len(missing) == 2 else f"{', '.join(missing[:-1])}, and {missing[-1]}")
            raise TypeError(f"{fn.__name__}() missing {len(missing)} required positional argument"
                            f"{'s' if len(missing) > 1 else ''}: {listed}")
        last = max(i for i, n in enumerate(names) if n in values)
        return tuple(values[n] if n in values else defaults[i - first_default] for i, n in enumerate(names[:last + 1]))

    @property
    def source(self) -> str:
        """The lowered functions as anyscript source (what a traced pipeline embeds)."""
        return "\n".join(src for _, src in self.sources)

    def __repr__(self) -> str:
        return f"<anyproc.script {self.__qualname__}>"


def _traced_call(self: ScriptFunction, *args: Any, **kwargs: Any) -> Any:
    """``ScriptFunction.__call__`` while a trace is being recorded; keyword arguments are bound
    to positions first, as a call from Python binds them."""
    if kwargs and self._registers is not None:
        raise TypeError(f"anyproc.trace records calls of {self.__name__}, which has *args, keyword-only or "
                        "**kwargs parameters, with positional arguments only")
    if kwargs:
        args = self._bind_keywords(args, kwargs)
    return _record_script(self, args)


_set_script_call(ScriptFunction, _traced_call)


def script(fn: Optional[Callable] = None, *, while_limit: Optional[int] = None,
           max_depth: Optional[int] = None) -> Any:
    """Compiles the plain Python function ``fn`` (and the functions it calls) with anyproc.

    Usable as a decorator, bare (``@anyproc.script``) or with limits
    (``@anyproc.script(while_limit=1000)``). ``while_limit`` caps the iterations of a
    ``while`` loop and the items a ``for`` loop over a list may take that were added while it
    ran (default 10,000,000); ``max_depth`` caps call nesting (default 1000, as CPython's
    recursion limit). Past either the call raises RuntimeError (RecursionError for depth). Raises :class:`SyntaxError` for constructs anyscript does not
    support, with the line in ``fn``'s file.
    """
    if fn is None:
        return lambda f: script(f, while_limit=while_limit, max_depth=max_depth)
    if isinstance(fn, ScriptFunction) and while_limit is None and max_depth is None:
        return fn
    if isinstance(fn, ScriptFunction):
        fn = fn.__wrapped__
    wrapper = fn if isinstance(fn, CACHE_WRAPPER) else None
    if wrapper is not None:
        fn = fn.__wrapped__
    if not isinstance(fn, types.FunctionType):
        raise TypeError(f"anyproc.script takes a Python function, not {type(fn).__name__}")
    if fn.__name__ == "<lambda>":
        code = fn.__code__
        raise SyntaxError("anyproc.script does not support lambda; use def",
                          (code.co_filename, code.co_firstlineno, 1, None))
    lowerer = _Lowerer()
    # An `lru_cache` of a function runs behind its cache, which the entry stands for.
    entry = fn if wrapper is None else lowerer.cached(wrapper)
    lowerer.name_of(entry)
    lowerer.run()
    module = {"functions": [d for d, _ in lowerer.defs], "constants": [c for c, _ in lowerer.constants]}
    text = json.dumps(module, ensure_ascii=False, allow_nan=False)
    shaped = _has_extra_params(fn)
    try:
        func = _native.script_json(text, lowerer.names[entry], while_limit=while_limit, max_depth=max_depth,
                                   registers=shaped)
    except SyntaxError as e:
        raise lowerer.located(e) from None
    func, registers = func if shaped else (func, None)
    return ScriptFunction(func, fn, text, [(d["name"], src) for d, src in lowerer.defs + lowerer.constants],
                          registers)


def _has_extra_params(fn: types.FunctionType) -> bool:
    """Whether ``fn`` has ``*args``, keyword-only or ``**kwargs`` parameters."""
    code = fn.__code__
    return bool(code.co_kwonlyargcount or code.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS))


def _register_binder(fn: types.FunctionType) -> Callable:
    """A Python function of ``fn``'s parameters and defaults that returns their values in the
    order of the compiled function's registers (positional, ``*args``, keyword-only,
    ``**kwargs``): CPython binds a call to it as it would to ``fn``, errors included."""
    code = fn.__code__
    n_positional, n_kwonly = code.co_argcount, code.co_kwonlyargcount
    names = list(code.co_varnames[:n_positional + n_kwonly])
    vararg = kwarg = None
    at = n_positional + n_kwonly
    if code.co_flags & inspect.CO_VARARGS:
        vararg, at = code.co_varnames[at], at + 1
    if code.co_flags & inspect.CO_VARKEYWORDS:
        kwarg = code.co_varnames[at]
    n_defaults = len(fn.__defaults__ or ())
    params = [p if i < n_positional - n_defaults else f"{p}=None" for i, p in enumerate(names[:n_positional])]
    if code.co_posonlyargcount:
        params.insert(code.co_posonlyargcount, "/")
    kwdefaults = fn.__kwdefaults__ or {}
    kwonly = [p if p not in kwdefaults else f"{p}=None" for p in names[n_positional:]]
    if vararg or kwonly:
        params.append(f"*{vararg or ''}")
    params += kwonly
    if kwarg:
        params.append(f"**{kwarg}")
    registers = names[:n_positional] + ([vararg] if vararg else []) + names[n_positional:] + ([kwarg] if kwarg else [])
    namespace: Dict[str, Any] = {}
    exec(f"def {fn.__name__}({', '.join(params)}):\n    return ({''.join(r + ', ' for r in registers)})\n",
         namespace)  # noqa: S102 - built from the function's own parameter names
    binder = namespace[fn.__name__]
    # Named `fn.__name__` in its errors, as the compiled function names itself.
    binder.__defaults__, binder.__kwdefaults__ = fn.__defaults__, fn.__kwdefaults__
    return binder


# ---- lowering ------------------------------------------------------------------------------

_MISSING = object()


#: Python's library functions that are ops of the same dotted names (``ops/itertools.rs``,
#: ``ops/heapq.rs``, ``ops/bisect.rs``, ``ops/operator.rs``, ``ops/random/``; ``bisect.bisect`` and ``bisect.insort`` are the
#: ``_right`` functions; ``random``'s are bound methods of its hidden generator).
#: (``itertools.chain.from_iterable`` is a new bound method at each read: found by ``==``.)
_LIBRARY_OPS = [(f, name) for f, name in [
    (functools.reduce, "functools.reduce"), (functools.partial, "functools.partial"),
    (functools.cmp_to_key, "functools.cmp_to_key"),
    (itertools.chain, "itertools.chain"),
    (itertools.chain.from_iterable, "itertools.chain.from_iterable"), (itertools.islice, "itertools.islice"),
    (getattr(itertools, "pairwise", None), "itertools.pairwise"), (itertools.accumulate, "itertools.accumulate"),
    (itertools.product, "itertools.product"), (itertools.groupby, "itertools.groupby"),
    (itertools.combinations, "itertools.combinations"),
    (itertools.combinations_with_replacement, "itertools.combinations_with_replacement"),
    (itertools.permutations, "itertools.permutations"), (itertools.takewhile, "itertools.takewhile"),
    (itertools.dropwhile, "itertools.dropwhile"), (itertools.filterfalse, "itertools.filterfalse"),
    (itertools.compress, "itertools.compress"), (itertools.starmap, "itertools.starmap"),
    (itertools.zip_longest, "itertools.zip_longest"), (itertools.count, "itertools.count"),
    (itertools.cycle, "itertools.cycle"), (itertools.repeat, "itertools.repeat"),
    (heapq.heappush, "heapq.heappush"), (heapq.heappop, "heapq.heappop"), (heapq.heapify, "heapq.heapify"),
    (heapq.heapreplace, "heapq.heapreplace"), (heapq.heappushpop, "heapq.heappushpop"),
    (heapq.merge, "heapq.merge"), (heapq.nsmallest, "heapq.nsmallest"), (heapq.nlargest, "heapq.nlargest"),
    (bisect.bisect_left, "bisect.bisect_left"), (bisect.bisect_right, "bisect.bisect_right"),
    (bisect.insort_left, "bisect.insort_left"), (bisect.insort_right, "bisect.insort_right"),
    (json.loads, "json.loads"), (json.dumps, "json.dumps")] if f is not None] + [
    (getattr(operator, name), f"operator.{name}") for name in (
        "add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "and_", "or_", "xor", "lshift", "rshift", "concat",
        "eq", "ne", "lt", "le", "gt", "ge", "is_", "is_not", "contains", "getitem", "countOf", "indexOf", "neg",
        "pos", "invert", "inv", "not_", "truth", "abs", "index", "itemgetter", "methodcaller")] + [
    (getattr(random, name), f"random.{name}") for name in (
        "random", "seed", "getrandbits", "randrange", "randint", "choice", "shuffle", "sample", "choices", "uniform",
        "gauss", "normalvariate", "lognormvariate", "expovariate", "triangular", "paretovariate", "weibullvariate",
        "vonmisesvariate", "gammavariate", "betavariate")]


def _module_op(value: Any) -> Optional[str]:
    """The op a function of Python's ``re`` module is (``re.sub`` is the op ``re.sub``), or
    ``collections.Counter``, ``defaultdict``, ``OrderedDict`` and ``deque`` are (ops of the same
    names), or ``random.Random`` is, or one of ``_LIBRARY_OPS`` is, else None."""
    if any(value is c for c in (collections.Counter, collections.defaultdict, collections.OrderedDict,
                                collections.deque, collections.namedtuple)):
        return f"collections.{value.__name__}"
    if value is random.Random:
        return "random.Random"
    if type(value) in (type, types.BuiltinFunctionType, types.FunctionType, types.MethodType):
        for f, name in _LIBRARY_OPS:
            if value == f:
                return name
    if getattr(value, "__module__", None) != "re" or not callable(value) or isinstance(value, type):
        return None
    op = f"re.{getattr(value, '__name__', '')}"
    return op if op in _native.list_global_funcs() else None


def _is_namedtuple_class(value: Any) -> bool:
    """Whether ``value`` is a class ``collections.namedtuple`` made (not a subclass of one, whose
    methods a script would not see), with constant defaults."""
    return (isinstance(value, type) and value.__bases__ == (tuple,)
            and isinstance(getattr(value, "_fields", None), tuple)
            and isinstance(getattr(value, "_field_defaults", None), dict) and hasattr(value, "_make")
            and all(_is_constant(v) for v in value._field_defaults.values()))


def _is_constant(value: Any, depth: int = 0) -> bool:
    """Whether ``value`` can be inlined as a literal (plain data, not too deep)."""
    if _is_namedtuple_class(value):
        # `collections.namedtuple(name, fields, defaults=...)`, made once with the module.
        return True
    if isinstance(value, tuple) and hasattr(type(value), "_fields"):
        # A named tuple's instance would lose its class as a literal.
        return False
    if isinstance(value, re.Pattern):
        # A compiled pattern is `re.compile(pattern, flags)`, made once with the module.
        return isinstance(value.pattern, str)
    if value is None or isinstance(value, (bool, int, float, str, bytes)):
        return not isinstance(value, int) or isinstance(value, bool) or I64_MIN <= value <= I64_MAX
    if depth > 32:
        return False
    if isinstance(value, (list, tuple, set, frozenset)):
        return all(_is_constant(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return all(_is_constant(k, depth + 1) and _is_constant(v, depth + 1) for k, v in value.items())
    return False


def _const(value: Any) -> Dict[str, Any]:
    """A literal value as an expression (lists, tuples, dicts and sets as displays)."""
    if _is_namedtuple_class(value):
        # Its instances return to Python as this class.
        _native.register_named_tuple(value)
        made = _call({"expr": "attribute", "value": _name("collections"), "attr": "namedtuple"},
                     [_const(value.__name__), _const(list(value._fields))])
        defaults = [value._field_defaults[f] for f in value._fields if f in value._field_defaults]
        # `rename=True` keeps a renamed class's `_1` fields as they are.
        made["keywords"] = [{"arg": "rename", "value": _const(True)}]
        if defaults:
            made["keywords"].append({"arg": "defaults", "value": _const(defaults)})
        return made
    if isinstance(value, re.Pattern):
        compile_ = {"expr": "attribute", "value": _name("re"), "attr": "compile"}
        return _call(compile_, [_const(value.pattern), _const(int(value.flags))])
    if value is None:
        return {"expr": "const", "value": {"type": "none"}}
    if isinstance(value, bool):
        return {"expr": "const", "value": {"type": "bool", "value": value}}
    if isinstance(value, int):
        return {"expr": "const", "value": {"type": "int", "value": int(value)}}
    if isinstance(value, float):
        if math.isfinite(value):
            return {"expr": "const", "value": {"type": "float", "value": value}}
        # JSON has no inf/nan: float('inf') computes it at run time instead.
        text = "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
        return _call(_name("float"), [_const(text)])
    if isinstance(value, str):
        return {"expr": "const", "value": {"type": "str", "value": value}}
    if isinstance(value, bytes):
        return {"expr": "const", "value": {"type": "bytes", "value": list(value)}}
    if isinstance(value, list):
        return {"expr": "list", "items": [_const(v) for v in value]}
    if isinstance(value, tuple):
        return {"expr": "tuple", "items": [_const(v) for v in value]}
    if isinstance(value, dict):
        return {"expr": "dict", "keys": [_const(k) for k in value], "values": [_const(v) for v in value.values()]}
    if isinstance(value, (set, frozenset)):
        # A display of the keys in the order Python iterates them (a frozenset's given to
        # `frozenset`).
        made = {"expr": "set", "items": [_const(v) for v in value]} if value else _call(_name("set"), [])
        return _call(_name("frozenset"), [made] if value else []) if isinstance(value, frozenset) else made
    raise TypeError(f"cannot inline {type(value).__name__}")


def _name(id_: str) -> Dict[str, Any]:
    return {"expr": "name", "id": id_}


def _call(func: Dict[str, Any], args: List[Dict[str, Any]]) -> Dict[str, Any]:
    return {"expr": "call", "func": func, "args": args}


def _op_chain(path: str) -> Dict[str, Any]:
    """``ops.a.b`` as nested attributes (the compiler strips the ``ops.`` prefix)."""
    expr = _name("ops")
    for part in path.split("."):
        expr = {"expr": "attribute", "value": expr, "attr": part}
    return expr


def _dotted(node: ast.AST) -> Optional[List[str]]:
    """``['a', 'b', 'c']`` for ``a.b.c`` made of names only."""
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.Attribute):
        head = _dotted(node.value)
        return None if head is None else head + [node.attr]
    return None


class _Source:
    """A function's parsed source and where it sits in its file."""

    def __init__(self, fn: types.FunctionType) -> None:
        try:
            lines, start = inspect.getsourcelines(fn)
        except (OSError, TypeError) as e:
            raise OSError(f"anyproc.script: cannot read the source of {fn.__qualname__}: {e}") from None
        # getsourcelines follows __wrapped__ to the decorated function; so must the file name.
        self.filename = inspect.getsourcefile(inspect.unwrap(fn)) or "<unknown>"
        self.lines = lines
        text = "".join(lines)
        try:
            tree = ast.parse(textwrap.dedent(text))
            self.offset = max(start, 1) - 1
        except SyntaxError:
            # dedent fails when a multi-line string is indented less than the def:
            # parse the indented source as the body of an `if` instead.
            tree = ast.parse("if 1:\n" + text)
            tree = ast.Module(body=tree.body[0].body, type_ignores=[])  # type: ignore[attr-defined]
            self.offset = max(start, 1) - 2
        node = tree.body[0] if tree.body else None
        if isinstance(node, ast.AsyncFunctionDef):
            raise self.error(node, "async def")
        if not isinstance(node, ast.FunctionDef):
            raise self.error(node or tree, "lambda" if fn.__name__ == "<lambda>" else "this kind of callable")
        self.node = node

    def line(self, node: ast.AST) -> int:
        return getattr(node, "lineno", 1) + self.offset

    def error(self, node: ast.AST, construct: str) -> SyntaxError:
        lineno = self.line(node)
        index = lineno - self.offset - 1
        text = self.lines[index] if 0 <= index < len(self.lines) else None
        col = getattr(node, "col_offset", 0) + 1
        return SyntaxError(f"anyproc.script does not support {construct}", (self.filename, lineno, col, text))


#: The exception classes a script may name as values, raise, and name in an `except` clause:
#: the compiler's own lists (`pipeline/exception_value.rs`).
_CLASSES, _RAISABLE, _CATCHABLE = (tuple(names) for names in _native._exception_classes())

#: The built-ins an f-string lowers to calls of.
_F_STRING_BUILTINS = ("str", "repr", "ascii", "format")


class _Lowerer:
    """Lowers a function and everything it calls to anyscript's syntax tree (as dicts)."""

    def __init__(self) -> None:
        #: function object -> its name in the module
        self.names: Dict[Any, str] = {}
        # The built-ins f-strings call are never the name of a lowered function.
        # `ops` is the root of op paths (`ops.collections.deque`): a function of that name is renamed.
        self.taken: Set[str] = set(_F_STRING_BUILTINS) | {"ops"}
        self.queue: List[types.FunctionType] = []
        # The function being lowered when each queued one was first seen (its caller).
        self.callers: Dict[Any, Any] = {}
        #: (FunctionDef dict, anyscript source), entry first
        self.defs: List[Tuple[Dict[str, Any], str]] = []
        #: (ModuleConstant dict, anyscript source) of the containers the functions read
        self.constants: List[Tuple[Dict[str, Any], str]] = []
        #: id of a container -> (its module name, the container, kept alive so its id stays its own)
        self.constant_names: Dict[int, Tuple[str, Any]] = {}
        # Per-function state.
        self.fn: Any = None
        self.src: Any = None
        self.locals: Set[str] = set()
        #: id of an ``lru_cache`` wrapper -> the plain function that stands for it
        self.cache_functions: Dict[int, types.FunctionType] = {}
        #: id of a function an ``lru_cache`` wraps -> the wrapper
        self.cache_wrapped: Dict[int, Any] = {}
        #: names the imports at the top of the function's body bind -> the objects they bind
        self.imports: Dict[str, Any] = {}
        #: those import statements, which lower to nothing
        self.import_nodes: Set[int] = set()

    # ---- functions ------------------------------------------------------------------------

    def cached(self, wrapper: Any) -> types.FunctionType:
        """The plain function that stands for ``wrapper``, an ``lru_cache`` of a function
        (``_lru.py``): one per wrapper, so that every caller shares its cache."""
        made = self.cache_functions.get(id(wrapper))
        if made is None:
            made = cached_function(wrapper)
            self.cache_functions[id(wrapper)] = made
            self.cache_wrapped[id(wrapper.__wrapped__)] = wrapper  # kept alive: its id stays its own
        return made

    def name_of(self, fn: Any) -> str:
        """The module name of ``fn``, queueing it to be lowered the first time it is seen."""
        if isinstance(fn, ScriptFunction):
            fn = fn.__wrapped__
        name = self.names.get(fn)
        if name is None:
            base = fn.__name__ if fn.__name__.isidentifier() else "f"
            name, n = base, 1
            while name in self.taken or name in self.locals:
                n += 1
                name = f"{base}_{n}"
            self.names[fn] = name
            self.taken.add(name)
            self.queue.append(fn)
            self.callers[fn] = getattr(self, "fn", None)
        return name

    def located(self, e: SyntaxError) -> SyntaxError:
        """The compiler's ``e`` (whose message names the function and line) with the file,
        line and text of the Python source it names, as Python's own SyntaxError has."""
        message = str(e)
        where = re.match(r"function '([^']+)': line (\d+): ", message)
        by_name = {name: fn for fn, name in self.names.items()}
        fn = by_name.get(where.group(1).split(".<locals>.")[0]) if where else None
        if fn is None:
            return e
        lineno, filename = int(where.group(2)), fn.__code__.co_filename
        text = linecache.getline(filename, lineno) or None
        return SyntaxError(message, (filename, lineno, 1, text))

    def run(self) -> None:
        while self.queue:
            fn = self.queue.pop(0)
            try:
                self.defs.append(self.function(fn))
            except SyntaxError as e:
                raise self.called_from(fn, e) from None

    def called_from(self, fn: Any, e: SyntaxError) -> SyntaxError:
        """``e``, raised lowering ``fn``, saying which function of another file calls ``fn``
        (a library function such as ``collections.namedtuple``, lowered because it is called)."""
        caller = self.callers.get(fn)
        if caller is None or caller.__code__.co_filename == fn.__code__.co_filename:
            return e
        where = f"{fn.__module__}.{fn.__qualname__}, which {caller.__qualname__} calls"
        return SyntaxError(f"{e.msg} (in {where})",
                           (e.filename, e.lineno, e.offset, e.text))

    def function(self, fn: types.FunctionType) -> Tuple[Dict[str, Any], str]:
        self.fn, self.src = fn, _Source(fn)
        # How many `except` clauses enclose the statement being lowered (a bare `raise` needs one).
        self.clauses = 0
        # How many `def`s enclose it (a `nonlocal` outside them names a Python function's variable).
        self.nesting = 0
        node = self.src.node
        for deco in node.decorator_list:
            # `@anyproc.script` and `@anyproc.script(while_limit=...)`: the function being
            # compiled is what they decorate (the limits apply to the entry's program).
            target = deco.func if isinstance(deco, ast.Call) else deco
            decorator = self.resolve_value(target)
            if id(fn) in self.cache_wrapped and any(decorator is d for d in CACHE_DECORATORS):
                continue  # its cache is the function in front of it (`_lru.py`)
            if decorator is not script:
                raise self.src.error(deco, "decorators")
        args = node.args
        params = [a.arg for a in args.posonlyargs + args.args]
        # Python evaluated the defaults when the `def` ran: their values are inlined.
        defaults = [self.default(d, value) for d, value in zip(args.defaults, fn.__defaults__ or ())]
        kwdefaults = fn.__kwdefaults__ or {}
        extra = self.extra_params(args, lambda a, d: self.default(d, kwdefaults[a]))
        self.locals = set(params) | set(_registers(params, extra)[len(params):]) | _assigned_names(node)
        body = node.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                and isinstance(body[0].value.value, str) and len(body) > 1:
            body = body[1:]  # the docstring: nothing to run
        self.imports, self.import_nodes = {}, set()
        self.leading_imports(body)
        lowered = {
            "name": self.names[fn],
            "params": params,
            "body": self.block(body),
            "line": self.src.line(node),
        }
        if defaults:
            lowered["defaults"] = defaults
        lowered.update(extra)
        return lowered, unparse_function(lowered)

    def default(self, node: ast.expr, value: Any) -> Dict[str, Any]:
        """The value of a parameter's default (``node`` in the source) as a literal."""
        if not _is_constant(value):
            raise self.src.error(node, f"a default value of type {type(value).__name__} "
                                 "(only None, bool, int, float, str and lists, tuples and dicts of them)")
        return _const(value)

    def extra_params(self, args: ast.arguments, kw_default: Callable[[str, ast.expr], Dict[str, Any]]
                     ) -> Dict[str, Any]:
        """The fields of ``ast::ExtraParams`` for the ``/``, ``*args``, keyword-only and
        ``**kwargs`` parameters of ``args`` (none where it has none); ``kw_default(name, node)``
        lowers a keyword-only parameter's default."""
        extra: Dict[str, Any] = {}
        if args.posonlyargs:
            extra["posonly"] = len(args.posonlyargs)
        if args.vararg:
            extra["vararg"] = args.vararg.arg
        if args.kwonlyargs:
            extra["kwonly"] = [a.arg for a in args.kwonlyargs]
            extra["kw_defaults"] = [None if d is None else kw_default(a.arg, d)
                                    for a, d in zip(args.kwonlyargs, args.kw_defaults)]
        if args.kwarg:
            extra["kwarg"] = args.kwarg.arg
        return extra

    def leading_imports(self, body: List[ast.stmt]) -> None:
        """Runs the imports at the top of the function's body (``import re``, ``from collections
        import Counter``) as Python would at its first call, and keeps what their names bind: the
        same objects at every call after, which the function reads as it reads a module's."""
        for node in body:
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                break
            if isinstance(node, ast.ImportFrom) and (node.level or node.module is None):
                raise self.src.error(node, "relative imports")
            for alias in node.names:
                if alias.name == "*":
                    raise self.src.error(node, "'from ... import *'")
                bound = alias.asname or alias.name.split(".")[0]
                if bound in self.locals:
                    raise self.src.error(node, f"importing '{bound}', a name the function also assigns")
                self.imports[bound] = _imported(node, alias)
            self.import_nodes.add(id(node))

    def nested_function(self, node: ast.FunctionDef) -> Dict[str, Any]:
        """A ``def`` inside the function: its body sees the enclosing function's variables (the
        compiler checks that Python would see the same values, ``compile/nested.rs``)."""
        if node.decorator_list:
            raise self.src.error(node.decorator_list[0], "decorators on a nested function")
        if node.returns is not None:
            raise self.src.error(node.returns, "return annotations")
        args = node.args
        params = [a.arg for a in args.posonlyargs + args.args]
        # Evaluated where the `def` is, as Python does.
        defaults = [self.expr(d) for d in args.defaults]
        extra = self.extra_params(args, lambda a, d: self.expr(d))
        body = node.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                and isinstance(body[0].value.value, str) and len(body) > 1:
            body = body[1:]  # the docstring
        saved = self.locals, self.clauses, self.imports, self.import_nodes
        self.locals, self.clauses = saved[0] | set(_registers(params, extra)) | _assigned_names(node), 0
        self.imports, self.import_nodes = dict(self.imports), set(self.import_nodes)
        self.nesting += 1
        try:
            self.leading_imports(body)
            lowered = {"name": node.name, "params": params, "body": self.block(body), "line": self.src.line(node)}
        finally:
            self.nesting -= 1
            self.locals, self.clauses, self.imports, self.import_nodes = saved
        if defaults:
            lowered["defaults"] = defaults
        lowered.update(extra)
        return lowered

    # ---- name resolution ------------------------------------------------------------------

    def lookup(self, name: str) -> Any:
        """The value ``name`` has in the current function's imports, closure or globals, else
        ``_MISSING``."""
        if name in self.imports:
            return self.imports[name]
        code = self.fn.__code__
        if name in code.co_freevars and self.fn.__closure__:
            cell = self.fn.__closure__[code.co_freevars.index(name)]
            try:
                return cell.cell_contents
            except ValueError:
                return _MISSING
        return self.fn.__globals__.get(name, _MISSING)

    def resolve_value(self, node: ast.AST) -> Any:
        """The Python object a dotted name refers to (for decorators), else ``_MISSING``."""
        chain = _dotted(node)
        if chain is None:
            return _MISSING
        value = self.lookup(chain[0])
        for attr in chain[1:]:
            if value is _MISSING:
                break
            value = getattr(value, attr, _MISSING)
        return value

    def value_expr(self, value: Any, node: ast.AST, shown: str) -> Dict[str, Any]:
        """The expression standing for a Python object found by name."""
        if isinstance(value, OpNamespace):
            if not value._name:
                return _name("ops")
            return _op_chain(value._name)
        op = _module_op(value)
        if op is not None:
            return _op_chain(op)
        if value is re.error or value is json.JSONDecodeError:
            # A module's exception class: `isinstance(e, re.error)`, `raise re.error(msg)`.
            return _op_chain("re.error" if value is re.error else "json.JSONDecodeError")
        if isinstance(value, CACHE_WRAPPER):
            return _name(self.name_of(self.cached(value)))
        if isinstance(value, (types.FunctionType, ScriptFunction)):
            return _name(self.name_of(value))
        if isinstance(value, types.BuiltinFunctionType):
            # `math.log` and its kin: the op of the same dotted name, where anyproc has one.
            op = f"{getattr(value, '__module__', '')}.{value.__name__}"
            if op in set(_native.list_global_funcs()):
                return _op_chain(op)
        if _is_constant(value):
            if isinstance(value, (list, tuple, dict, set, frozenset, re.Pattern)) or _is_namedtuple_class(value):
                return _name(self.module_constant(value, shown))
            return _const(value)
        if isinstance(value, types.ModuleType):
            raise self.src.error(node, f"the module '{shown}' as a value (only anyproc.ops.* calls)")
        raise self.src.error(node, f"the Python object '{shown}' ({type(value).__name__}); "
                             "only plain functions, constants and anyproc.ops.* are visible to a script")

    def module_constant(self, value: Any, shown: str) -> str:
        """The module name of a global container: one module constant per object, made once when
        the module is compiled, so that each function reads the same object (as Python's do, and
        without building it anew at each read)."""
        known = self.constant_names.get(id(value))
        if known is not None:
            return known[0]
        base = shown.rsplit(".", 1)[-1]  # `cases.STOP` is named STOP
        base = base if base.isidentifier() else "constant"
        name, n = base, 1
        while name in self.taken or name in self.locals:
            n += 1
            name = f"{base}_{n}"
        self.taken.add(name)
        self.constant_names[id(value)] = (name, value)
        lowered = {"name": name, "value": _const(value), "line": 0}
        self.constants.append((lowered, unparse_constant(lowered)))
        return name

    def dotted_expr(self, node: ast.AST) -> Optional[Dict[str, Any]]:
        """Resolves ``a.b.c`` whose root is not local; None to lower it as written."""
        chain = _dotted(node)
        if chain is None or chain[0] in self.locals:
            return None
        value = self.lookup(chain[0])
        if value is _MISSING:
            return None  # a builtin, or an op root like `text` in `text.lower(x)`
        i = 1
        # Follow modules (anyproc, or a helper module) down to what the chain names.
        while i < len(chain) and isinstance(value, types.ModuleType):
            nxt = getattr(value, chain[i], _MISSING)
            if nxt is _MISSING:
                raise self.src.error(node, f"'{'.'.join(chain[:i + 1])}' (module has no such attribute)")
            value, i = nxt, i + 1
        if isinstance(value, OpNamespace):
            path = ".".join(filter(None, [value._name] + chain[i:]))
            return _op_chain(path) if path else _name("ops")
        expr = self.value_expr(value, node, ".".join(chain[:i]))
        for attr in chain[i:]:
            expr = {"expr": "attribute", "value": expr, "attr": attr}
        return expr

    # ---- statements -----------------------------------------------------------------------

    def block(self, body: List[ast.stmt]) -> List[Dict[str, Any]]:
        out = []
        for stmt in body:
            lowered = self.stmt(stmt)
            if lowered is not None:
                out.append(lowered)
        return out

    def stmt(self, node: ast.stmt) -> Optional[Dict[str, Any]]:
        line = self.src.line(node)
        kind = type(node).__name__
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Yield):
            value = None if node.value.value is None else self.expr(node.value.value)
            return {"line": line, "stmt": "yield", "value": value}
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.YieldFrom):
            return {"line": line, "stmt": "yield_from", "value": self.expr(node.value.value)}
        if isinstance(node, ast.Expr):
            return {"line": line, "stmt": "expr", "value": self.expr(node.value)}
        if isinstance(node, ast.FunctionDef):
            return {"line": line, "stmt": "def", "function": self.nested_function(node)}
        if id(node) in self.import_nodes:
            return None  # run when the function was lowered (`leading_imports`)
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            raise self.src.error(node, "import statements after the first statements of a function "
                                       "(imports at the top of its body are supported)")
        if isinstance(node, ast.Assign):
            targets = [self.target(t) for t in node.targets]
            return {"line": line, "stmt": "assign", "targets": targets, "value": self.expr(node.value)}
        if isinstance(node, ast.AnnAssign):
            if node.value is None:
                return None  # a bare annotation does nothing at run time
            return {"line": line, "stmt": "assign", "targets": [self.target(node.target)],
                    "value": self.expr(node.value)}
        if isinstance(node, ast.AugAssign):
            return {"line": line, "stmt": "aug_assign", "target": self.target(node.target),
                    "op": self.binop(node.op, node), "value": self.expr(node.value)}
        if isinstance(node, ast.If):
            return {"line": line, "stmt": "if", "test": self.expr(node.test),
                    "body": self.block(node.body), "orelse": self.block(node.orelse)}
        if isinstance(node, ast.For):
            return {"line": line, "stmt": "for", "target": self.target(node.target),
                    "iter": self.expr(node.iter), "body": self.block(node.body), "orelse": self.block(node.orelse)}
        if isinstance(node, ast.While):
            return {"line": line, "stmt": "while", "test": self.expr(node.test), "body": self.block(node.body),
                    "orelse": self.block(node.orelse)}
        if isinstance(node, ast.Return):
            value = None if node.value is None else self.expr(node.value)
            return {"line": line, "stmt": "return", "value": value}
        if isinstance(node, ast.Break):
            return {"line": line, "stmt": "break"}
        if isinstance(node, ast.Continue):
            return {"line": line, "stmt": "continue"}
        if isinstance(node, ast.Pass):
            return {"line": line, "stmt": "pass"}
        if isinstance(node, ast.Nonlocal):
            if not self.nesting:
                raise self.src.error(node, f"'nonlocal {', '.join(node.names)}' in the scripted function itself (a "
                                           "script cannot assign the variables of the Python function around it; "
                                           "nonlocal inside a def nested in the script is supported)")
            return {"line": line, "stmt": "nonlocal", "names": list(node.names)}
        if isinstance(node, ast.Raise):
            return self.raise_(node, line)
        if isinstance(node, ast.Try):
            return self.try_(node, line)
        if isinstance(node, ast.Assert):
            return {"line": line, "stmt": "assert", "test": self.expr(node.test),
                    "msg": None if node.msg is None else self.expr(node.msg)}
        if isinstance(node, ast.Delete):
            for t in node.targets:
                if isinstance(t, ast.Name):
                    raise self.src.error(t, "del of a variable (only items: del d[k])")
            return {"line": line, "stmt": "delete", "targets": [self.target(t) for t in node.targets]}
        raise self.src.error(node, _UNSUPPORTED.get(kind, f"{kind} statements"))

    def try_(self, node: ast.Try, line: int) -> Dict[str, Any]:
        """``try``/``except``/``else``/``finally``; the clauses name exceptions by plain names."""
        handlers = []
        for h in node.handlers:
            kinds = [] if h.type is None else _flat_types(h.type)
            names = [self.exception_name(k) for k in kinds]
            self.clauses += 1
            try:
                body = self.block(h.body)
            finally:
                self.clauses -= 1
            handlers.append({"line": self.src.line(h), "types": names, "name": h.name,
                             "body": body})
        out = {"line": line, "stmt": "try", "body": self.block(node.body), "handlers": handlers,
               "orelse": self.block(node.orelse)}
        if node.finalbody:
            out["finalbody"] = self.block(node.finalbody)
        return out

    def exception_name(self, node: ast.AST) -> str:
        """The class an except clause names: a built-in exception, ``json.JSONDecodeError`` or
        ``re.error`` (named through its module or imported)."""
        if self.resolve_value(node) is json.JSONDecodeError:
            return "JSONDecodeError"
        if self.resolve_value(node) is re.error:
            return "re.error"
        if not isinstance(node, ast.Name):
            raise self.src.error(node, "an except clause naming anything but exception names")
        if node.id not in _CATCHABLE:
            raise self.src.error(node, f"except {node.id} (anyscript catches " + ", ".join(_CATCHABLE) + ")")
        return node.id

    def raise_(self, node: ast.Raise, line: int) -> Dict[str, Any]:
        """``raise X``, ``raise X()`` or ``raise X(value)`` of an exception anyscript raises, ``raise
        value`` of any other value (``raise e``), each with an optional ``from cause``, or a bare
        ``raise`` (which the compiler accepts inside an ``except`` clause)."""
        if node.exc is None:
            if not self.clauses:
                # CPython raises RuntimeError when it runs (or re-raises a caller's exception).
                raise self.src.error(node, "a bare 'raise' outside an 'except' clause")
            return {"line": line, "stmt": "reraise"}
        cause = None if node.cause is None else self.expr(node.cause)
        exc, value = node.exc, None
        call = isinstance(exc, ast.Call) and isinstance(exc.func, ast.Name) and exc.func.id in _CLASSES
        if not call and not (isinstance(exc, ast.Name) and exc.id in _CLASSES):
            # An exception held by a variable, made by a function: the value raised as it is.
            return {"line": line, "stmt": "raise", "exc": "", "value": self.expr(exc), "cause": cause}
        if isinstance(exc, ast.Call):
            if exc.keywords or len(exc.args) > 1 or any(isinstance(a, ast.Starred) for a in exc.args):
                raise self.src.error(exc, "an exception of several or keyword arguments")
            value = self.expr(exc.args[0]) if exc.args else None
            exc = exc.func
        if exc.id not in _RAISABLE:
            raise self.src.error(node.exc, "raising this exception (anyscript raises " + ", ".join(_RAISABLE) + ")")
        return {"line": line, "stmt": "raise", "exc": exc.id, "value": value, "cause": cause}

    def target(self, node: ast.expr, top: bool = True) -> Dict[str, Any]:
        """An assignment target; ``*rest`` may be an item of the outermost tuple (``first, *rest``)."""
        if isinstance(node, ast.Name):
            return {"target": "name", "id": node.id}
        if isinstance(node, (ast.Tuple, ast.List)):
            items = []
            for t in node.elts:
                if isinstance(t, ast.Starred) and top:
                    items.append({"target": "starred", "value": self.target(t.value, top=False)})
                else:
                    items.append(self.target(t, top=False))
            return {"target": "tuple", "items": items}
        if isinstance(node, ast.Subscript):
            if isinstance(node.slice, ast.Slice):
                s = node.slice
                return {"target": "slice", "value": self.expr(node.value), "lower": self.optional(s.lower),
                        "upper": self.optional(s.upper), "step": self.optional(s.step)}
            return {"target": "subscript", "value": self.expr(node.value), "index": self.expr(node.slice)}
        if isinstance(node, ast.Starred):
            raise self.src.error(node, "starred assignment inside a nested tuple ((a, *b), c = ...)")
        if isinstance(node, ast.Attribute):
            raise self.src.error(node, "attribute assignment")
        raise self.src.error(node, f"assignment to {type(node).__name__}")

    # ---- expressions ----------------------------------------------------------------------

    def binop(self, op: ast.operator, node: ast.AST) -> str:
        name = _BINOPS.get(type(op))
        if name is None:
            raise self.src.error(node, _UNSUPPORTED.get(type(op).__name__, type(op).__name__))
        return name

    def starred_argument(self, node: ast.Starred) -> Dict[str, Any]:
        """``*xs`` in a call or a display: its items are the arguments or the items (a generator
        expression's all)."""
        value = node.value
        if isinstance(value, ast.GeneratorExp):
            return {"expr": "starred", "value": self.comprehension(value, "generator_exp")}
        return {"expr": "starred", "value": self.expr(value)}

    def expr(self, node: ast.expr) -> Dict[str, Any]:
        if isinstance(node, ast.Constant):
            return self.constant(node)
        if isinstance(node, ast.Name):
            if node.id not in self.locals:
                value = self.lookup(node.id)
                if value is not _MISSING:
                    return self.value_expr(value, node, node.id)
            return _name(node.id)
        if isinstance(node, ast.Attribute):
            resolved = self.dotted_expr(node)
            if resolved is not None:
                return resolved
            return {"expr": "attribute", "value": self.expr(node.value), "attr": node.attr}
        if isinstance(node, ast.Call):
            call = _call(self.expr(node.func), [
                self.starred_argument(a) if isinstance(a, ast.Starred) else self.expr(a) for a in node.args])
            keywords = []
            for kw in node.keywords:
                # `**mapping` is the keyword named `**` (`ast::DOUBLE_STAR`).
                keywords.append({"arg": "**" if kw.arg is None else kw.arg, "value": self.expr(kw.value)})
            if keywords:
                call["keywords"] = keywords
            return call
        if isinstance(node, ast.Lambda):
            return self.lambda_(node)
        if isinstance(node, ast.NamedExpr):
            return {"expr": "named", "target": node.target.id, "value": self.expr(node.value)}
        if isinstance(node, ast.BinOp):
            return {"expr": "bin_op", "op": self.binop(node.op, node),
                    "left": self.expr(node.left), "right": self.expr(node.right)}
        if isinstance(node, ast.UnaryOp):
            operand = node.operand
            # -9223372036854775808 is one literal in anyscript, as in the text parser.
            if isinstance(node.op, ast.USub) and isinstance(operand, ast.Constant) \
                    and type(operand.value) is int and operand.value == 2**63:
                return _const(I64_MIN)
            return {"expr": "unary_op", "op": _UNARYOPS[type(node.op)], "operand": self.expr(operand)}
        if isinstance(node, ast.BoolOp):
            return {"expr": "bool_op", "op": _BOOLOPS[type(node.op)], "values": [self.expr(v) for v in node.values]}
        if isinstance(node, ast.Compare):
            return {"expr": "compare", "left": self.expr(node.left), "ops": [_CMPOPS[type(o)] for o in node.ops],
                    "comparators": [self.expr(c) for c in node.comparators]}
        if isinstance(node, ast.IfExp):
            return {"expr": "if_exp", "test": self.expr(node.test), "body": self.expr(node.body),
                    "orelse": self.expr(node.orelse)}
        if isinstance(node, ast.List):
            return {"expr": "list", "items": [self.item(e) for e in node.elts]}
        if isinstance(node, ast.Tuple):
            return {"expr": "tuple", "items": [self.item(e) for e in node.elts]}
        if isinstance(node, ast.Dict):
            # A key None is `**value`, as in Python's tree.
            return {"expr": "dict", "keys": [self.optional(k) for k in node.keys],
                    "values": [self.expr(v) for v in node.values]}
        if isinstance(node, ast.Set):
            return {"expr": "set", "items": [self.item(e) for e in node.elts]}
        if isinstance(node, ast.Subscript):
            s = node.slice
            if isinstance(s, ast.Slice):
                return {"expr": "slice", "value": self.expr(node.value),
                        "lower": self.optional(s.lower), "upper": self.optional(s.upper), "step": self.optional(s.step)}
            return {"expr": "subscript", "value": self.expr(node.value), "index": self.expr(s)}
        if isinstance(node, ast.JoinedStr):
            return self.f_string(node)
        if isinstance(node, ast.ListComp):
            return self.comprehension(node, "list_comp")
        if isinstance(node, ast.GeneratorExp):
            # Built as a list where the call takes every item, else run lazily (the compiler's rule).
            return self.comprehension(node, "generator_exp")
        if isinstance(node, ast.DictComp):
            return self.comprehension(node, "dict_comp")
        if isinstance(node, ast.SetComp):
            return self.comprehension(node, "set_comp")
        kind = type(node).__name__
        raise self.src.error(node, _UNSUPPORTED.get(kind, f"{kind} expressions"))

    def comprehension(self, node: Any, kind: str) -> Dict[str, Any]:
        """A list, set, dict or generator comprehension; its ``for`` clauses after the first
        are its ``more``."""
        clauses = []
        for gen in node.generators:
            if gen.is_async:
                raise self.src.error(node, "async comprehensions")
            clauses.append({"target": self.target(gen.target), "iter": self.expr(gen.iter),
                            "ifs": [self.expr(c) for c in gen.ifs]})
        out = {"expr": kind, **clauses[0]}
        if len(clauses) > 1:
            out["more"] = clauses[1:]
        if kind == "dict_comp":
            out.update(key=self.expr(node.key), value=self.expr(node.value))
        else:
            out["elt"] = self.expr(node.elt)
        return out

    def f_string(self, node: ast.JoinedStr) -> Dict[str, Any]:
        """``f"a{x}b{y!r:>{w}}"`` as ``"a" + str(x) + "b" + format(repr(y), ...)``: what
        CPython computes.

        A field without a spec is ``str()`` of its value (``format(x, "")`` is ``str(x)`` for
        every anyscript value); one with a spec is ``format()`` of it, the spec itself an
        f-string; ``!r``, ``!s`` and ``!a`` apply ``repr``, ``str`` and ``ascii`` first."""
        parts = []
        for part in node.values:
            if isinstance(part, ast.Constant):
                parts.append(_const(part.value))
                continue
            assert isinstance(part, ast.FormattedValue)
            value = self.expr(part.value)
            conversion = {ord("r"): "repr", ord("s"): "str", ord("a"): "ascii"}.get(part.conversion)
            if part.format_spec is None:
                parts.append(_call(self.builtin(conversion or "str"), [value]))
                continue
            if conversion:
                value = _call(self.builtin(conversion), [value])
            spec = self.f_string(part.format_spec)
            parts.append(_call(self.builtin("format"), [value, spec]))
        if not parts:
            return _const("")
        # Every part is a str, so `+` from left to right is their join; a short result stays
        # inline in its register, with no list and no heap string made on the way.
        out = parts[0]
        for part in parts[1:]:
            out = {"expr": "bin_op", "op": "add", "left": out, "right": part}
        return out

    def is_builtin(self, name: str) -> bool:
        """Whether ``name`` means Python's built-in here (no local or global hides it)."""
        return name not in self.locals and self.lookup(name) is _MISSING

    def lambda_(self, node: ast.Lambda) -> Dict[str, Any]:
        """``lambda params: body``; its parameters hide globals of the same name within it. The
        compiler checks that the enclosing variables it reads cannot change once it is made
        (anyscript gives it their values then; Python reads them when it runs)."""
        args = node.args
        for what, present in (("*args in a lambda", args.vararg), ("**kwargs in a lambda", args.kwarg),
                              ("keyword-only arguments in a lambda", args.kwonlyargs),
                              ("positional-only parameters in a lambda", args.posonlyargs)):
            if present:
                raise self.src.error(node, what)
        params = [a.arg for a in args.args]
        # Evaluated where the lambda is made, in the enclosing scope.
        defaults = [self.expr(d) for d in args.defaults]
        own = set(params) | _assigned_names(node)
        saved = self.locals
        self.locals = saved | own
        try:
            body = self.expr(node.body)
        finally:
            self.locals = saved
        lowered = {"expr": "lambda", "params": params, "body": body}
        if defaults:
            lowered["defaults"] = defaults
        return lowered

    def builtin(self, name: str) -> Dict[str, Any]:
        """The built-in ``name`` for an f-string to call: by its name, or as ``builtins.name``
        (which anyscript resolves to the built-in) where a local of the function hides it."""
        if name in self.locals:
            return {"expr": "attribute", "value": _name("builtins"), "attr": name}
        return _name(name)

    def item(self, node: ast.expr) -> Dict[str, Any]:
        """An item of a list, tuple or set display; ``*xs`` adds the items of ``xs``."""
        if isinstance(node, ast.Starred):
            return self.starred_argument(node)
        return self.expr(node)

    def optional(self, node: Optional[ast.expr]) -> Optional[Dict[str, Any]]:
        """``node`` lowered, or None where the source omits it (a slice's bound, a ``**`` key)."""
        return None if node is None else self.expr(node)

    def constant(self, node: ast.Constant) -> Dict[str, Any]:
        value = node.value
        if isinstance(value, bool) or value is None or isinstance(value, (float, str)):
            return _const(value)
        if isinstance(value, int):
            if not I64_MIN <= value <= I64_MAX:
                raise self.src.error(node, f"integer literals outside 64 bits ({value})")
            return _const(value)
        if isinstance(value, bytes):
            return _const(value)
        if value is Ellipsis:
            raise self.src.error(node, "Ellipsis (...)")
        raise self.src.error(node, f"{type(value).__name__} literals")


def _registers(params: List[str], extra: Dict[str, Any]) -> List[str]:
    """The parameters of a lowered function in the order of its registers (``FunctionDef::registers``):
    positional ones, ``*args``, keyword-only ones, ``**kwargs``."""
    return params + [n for n in [extra.get("vararg")] if n] + list(extra.get("kwonly", [])) \
        + [n for n in [extra.get("kwarg")] if n]


def _flat_types(node: ast.expr) -> List[ast.expr]:
    """The exception names of an ``except`` clause, nested tuples flattened as Python reads them."""
    if isinstance(node, ast.Tuple):
        return [k for e in node.elts for k in _flat_types(e)]
    return [node]


def _imported(node: ast.stmt, alias: ast.alias) -> Any:
    """What ``alias`` of import statement ``node`` binds, the import run as Python runs it."""
    if isinstance(node, ast.Import):
        module = importlib.import_module(alias.name)
        return module if alias.asname else importlib.import_module(alias.name.split(".")[0])
    module = importlib.import_module(node.module)  # type: ignore[attr-defined]
    if hasattr(module, alias.name):
        return getattr(module, alias.name)
    return importlib.import_module(f"{node.module}.{alias.name}")  # type: ignore[attr-defined]


def _assigned_names(fn: ast.AST) -> Set[str]:
    """Every name stored to in ``fn``'s body (a def's or a lambda's): Python makes them local
    to the whole function. A lambda or function defined within it has names of its own."""
    names: Set[str] = set()
    todo = list(ast.iter_child_nodes(fn))
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Lambda):
            continue
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            # Binds its name here; its body's names are its own.
            names.add(node.name)
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        if isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
        todo.extend(ast.iter_child_nodes(node))
    return names
