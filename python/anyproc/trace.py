"""``anyproc.trace``: record a Python function's op calls as a pipeline file.

``trace(fn)`` calls ``fn`` once with symbolic inputs (:class:`Symbol`). What
``fn`` does with them through ``anyproc.ops.*`` is recorded instead of run:

* an op called with at least one input-derived symbol becomes a ``[[steps]]``
  entry (``out = "ids"``, ``call = "bert(text, False)"``) and returns a new
  symbol;
* an op called with concrete arguments only (``ops.tok.bert.from_file(path)``)
  runs now, so mistakes show at trace time, and is recorded as an ``[init]``
  entry; its result is a symbol holding the value, and calling it with
  symbols records a step. String arguments that name existing files become
  ``[resources.NAME]`` with their sha256, paths relative to the saved file;
* calling an :func:`anyproc.script` function on symbols records a step and
  embeds the function's anyscript source in ``functions``;
* ``sym.method(...)`` and ``sym[i]`` / ``sym[a:b]`` record anyscript method
  calls and indexing.

``fn`` returns a dict of output name to a symbol (``layout = "list"``) or to
:class:`Collate` (a padded/ragged tensor, with the ``[[outputs]]`` keys of
``pipelines/README.md``). Python control flow cannot depend on a symbol; put
such logic in a scripted function.
"""

from __future__ import annotations

import difflib
import hashlib
import keyword
import os
import re
import threading
from pathlib import Path
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from . import _native, _toml

# Number of traces being recorded in any thread, in a list so that modules can
# import the object itself (the package rebinds the name `anyproc.trace` to the
# function, so the module is not reachable as an attribute). Op calls check
# this one integer; only when it is non-zero do they look for the thread's tracer.
_ACTIVE = [0]
_LOCK = threading.Lock()
_LOCAL = threading.local()

# ScriptFunction and the `__call__` it has only while a trace is recorded (set by the script
# module, which imports this one). Outside traces the class has no Python `__call__`, so a
# scripted function is called as natively as any anyproc.Function.
_SCRIPT_CALL: List[Any] = [None, None]


def _set_script_call(cls: Any, call: Any) -> None:
    """Registers ``cls`` and the ``__call__`` it gets while any trace is active."""
    with _LOCK:
        _SCRIPT_CALL[0], _SCRIPT_CALL[1] = cls, call
        if _ACTIVE[0]:
            cls.__call__ = call


# anyscript's builtins and Python keywords: never used as generated names.
_BUILTINS = {
    "len", "range", "str", "int", "float", "bool", "list", "dict", "min", "max", "abs", "sum", "sorted",
    "reversed", "enumerate", "zip", "ord", "chr", "repr", "round", "ops", "print", "isinstance", "tuple",
    "set", "type", "ascii", "format", "any", "all", "builtins", "pow", "divmod", "hex", "oct", "bin",
}

#: ``[[outputs]]`` keys that :class:`Collate` accepts (``name`` and ``from`` are filled in).
OUTPUT_KEYS = (
    "layout", "dtype", "padding", "max_length", "truncation", "truncation_side", "padding_side", "pad_id",
    "pad_to_multiple_of", "special_tokens", "attention_mask", "token_type_ids", "pair_from",
)

# A literal list/dict argument longer than this (as source) goes to [constants].
_INLINE_LIMIT = 60


def _current() -> Optional["_Tracer"]:
    stack = getattr(_LOCAL, "stack", None)
    return stack[-1] if stack else None


# ---- symbols ---------------------------------------------------------------------------------


class Symbol:
    """A value of the pipeline being traced: an input, a step's output or an init result.

    Input and step symbols stand for per-record values and have no value at
    trace time; init symbols (``kind == "init"``) hold theirs in :attr:`value`.
    """

    __slots__ = ("_tracer", "_kind", "_hint", "_value", "_name")

    def __init__(self, tracer: "_Tracer", kind: str, hint: str, value: Any = None, name: Optional[str] = None):
        self._tracer = tracer
        self._kind = kind
        self._hint = hint
        self._value = value
        self._name = name

    @property
    def kind(self) -> str:
        """``"input"``, ``"step"`` or ``"init"``."""
        return self._kind

    @property
    def value(self) -> Any:
        """The value an init symbol was evaluated to at trace time."""
        if self._kind != "init":
            raise ValueError(f"{self!r} is computed per record; it has no value at trace time")
        return self._value

    @property
    def name(self) -> Optional[str]:
        """The variable name in the pipeline file (known once the trace has finished)."""
        return self._name

    def __call__(self, *args: Any) -> "Symbol":
        tr = self._tracer
        if self._kind == "init" and not _dynamic(args):
            value = self._value(*_concrete(args))
            return tr.add_init(("call", ("sym", self), tr.args(args, True)), value, f"{self._hint}_out")
        return tr.add_step(("call", ("sym", self), tr.args(args, False)), self._hint, f"{self._hint}_out")

    def __getattr__(self, attr: str) -> "_Method":
        if attr.startswith("_"):
            raise AttributeError(attr)
        return _Method(self, attr)

    def __getitem__(self, key: Any) -> "Symbol":
        tr = self._tracer
        if isinstance(key, slice):
            parts = [None if p is None else tr.arg(p, False) for p in (key.start, key.stop, key.step)]
            expr: Tuple = ("slice", ("sym", self), *parts)
            dynamic = _dynamic((key.start, key.stop, key.step))
        else:
            expr = ("getitem", ("sym", self), tr.arg(key, False))
            dynamic = _dynamic((key,))
        if self._kind == "init" and not dynamic:
            return tr.add_init(expr, self._value[_concrete((key,))[0]], f"{self._hint}_item")
        return tr.add_step(expr, "", f"{self._hint}_item")

    def __bool__(self) -> bool:
        raise TypeError("a traced value has no truth value at trace time: Python control flow cannot "
                        "depend on it; move the logic into a function decorated with anyproc.script")

    def __iter__(self) -> Any:
        raise TypeError("a traced value cannot be iterated at trace time; use anyproc.script for loops")

    def __len__(self) -> int:
        raise TypeError("len() of a traced value is not known at trace time; call it inside anyproc.script")

    def __repr__(self) -> str:
        label = self._name or self._hint
        return f"<anyproc.Symbol {self._kind} {label!r}>"


class _Method:
    """``sym.lower`` before it is called: calling records ``sym.lower(...)``."""

    __slots__ = ("_sym", "_attr")

    def __init__(self, sym: Symbol, attr: str) -> None:
        self._sym, self._attr = sym, attr

    def __call__(self, *args: Any) -> Symbol:
        sym, tr = self._sym, self._sym._tracer
        if sym._kind == "init" and not _dynamic(args):
            value = getattr(sym._value, self._attr)(*_concrete(args))
            return tr.add_init(("method", ("sym", sym), self._attr, tr.args(args, True)), value, self._attr)
        return tr.add_step(("method", ("sym", sym), self._attr, tr.args(args, False)), "", self._attr)


class Collate:
    """An output collated into tensors: ``Collate(ids, padding="max_length", max_length=128)``.

    The keyword arguments are the ``[[outputs]]`` keys of ``pipelines/README.md``:
    ``layout`` (``padded``/``ragged``/``list``), ``dtype``, ``padding``,
    ``max_length``, ``truncation``, ``truncation_side``, ``padding_side``,
    ``pad_id``, ``pad_to_multiple_of``, ``special_tokens`` (``{"cls": .., "sep": ..}``
    or the four id lists), ``attention_mask`` and ``token_type_ids`` (tensor
    names; ``True`` for the usual names) and ``pair_from`` (a second symbol).
    """

    __slots__ = ("value", "options")

    def __init__(self, value: Symbol, **options: Any) -> None:
        for k in options:
            if k not in OUTPUT_KEYS:
                close = difflib.get_close_matches(k, OUTPUT_KEYS, n=1)
                hint = f"; did you mean '{close[0]}'?" if close else ""
                raise TypeError(f"Collate() got an unknown option '{k}'{hint} (options: {', '.join(OUTPUT_KEYS)})")
        if options.get("attention_mask") is True:
            options["attention_mask"] = "attention_mask"
        if options.get("token_type_ids") is True:
            options["token_type_ids"] = "token_type_ids"
        self.value = value
        self.options = {k: v for k, v in options.items() if v is not None and v is not False}

    def __repr__(self) -> str:
        opts = "".join(f", {k}={v!r}" for k, v in self.options.items())
        return f"Collate({self.value!r}{opts})"


# ---- arguments -------------------------------------------------------------------------------


def _dynamic(value: Any) -> bool:
    """Whether ``value`` holds a per-record symbol (an input or a step's output)."""
    if isinstance(value, Symbol):
        return value._kind != "init"
    if isinstance(value, (list, tuple)):
        return any(_dynamic(v) for v in value)
    if isinstance(value, dict):
        return any(_dynamic(k) or _dynamic(v) for k, v in value.items())
    return False


def _concrete(value: Any) -> Any:
    """``value`` with init symbols replaced by their values (for running a call now)."""
    if isinstance(value, Symbol):
        return value._value
    if isinstance(value, (list, tuple)):
        return [_concrete(v) for v in value]
    if isinstance(value, dict):
        return {_concrete(k): _concrete(v) for k, v in value.items()}
    func = getattr(value, "func", None)
    if func is not None and hasattr(value, "sources"):  # a ScriptFunction: call the native function
        return func
    return value


def _looks_like_file(s: str) -> bool:
    """A string argument of an init call that names a file (turned into a resource).

    Only strings with a directory part or an extension count, so that option
    strings such as ``"right"`` stay literals even if such a file exists.
    """
    if not s or "\n" in s or len(s) > 4096:
        return False
    if os.sep not in s and "/" not in s and "." not in os.path.basename(s):
        return False
    try:
        return os.path.isfile(s)
    except (OSError, ValueError):
        return False


def _op_hint(name: str) -> str:
    """A variable name for an op's result: ``tok.bert.from_file`` -> ``bert``."""
    parts = name.split(".")
    while len(parts) > 1 and (parts[-1] == "new" or parts[-1].startswith("from_")):
        parts.pop()
    return parts[-1]


def _sanitize(hint: str) -> str:
    name = re.sub(r"\W", "_", hint.strip()).strip("_")
    if not name or name[0].isdigit():
        name = "v_" + name
    return name


# ---- the recorder ----------------------------------------------------------------------------


class _Tracer:
    """What one ``trace`` call has recorded."""

    def __init__(self, inputs: Sequence[str]) -> None:
        self.inputs = list(inputs)
        self.resources: Dict[str, Dict[str, Any]] = {}  # absolute path -> {hint, sha256, name}
        self.constants: List[Dict[str, Any]] = []  # {hint, value, name}
        self.inits: List[Tuple[Symbol, Tuple]] = []
        self.steps: List[Tuple[Symbol, Tuple, str]] = []  # (out, expr, label)
        self.functions: Dict[str, str] = {}  # name -> anyscript source

    # Arguments become expression trees: tuples tagged by their first item.
    def arg(self, value: Any, init: bool) -> Tuple:
        if isinstance(value, Symbol):
            if value._tracer is not self:
                raise ValueError(f"{value!r} belongs to another trace")
            return ("sym", value)
        if value is None or isinstance(value, (bool, int, float)):
            return ("lit", value)
        if isinstance(value, str):
            if init and _looks_like_file(value):
                return ("res", self.add_resource(value))
            return ("lit", value)
        if isinstance(value, (list, tuple, dict)):
            if not _dynamic(value) and _toml.representable(value) and len(repr(value)) > _INLINE_LIMIT:
                entry = {"hint": "const", "value": value, "name": None}
                self.constants.append(entry)
                return ("const", entry)
            if isinstance(value, dict):
                return ("dict", [(self.arg(k, False), self.arg(v, False)) for k, v in value.items()])
            return ("list", [self.arg(v, False) for v in value])
        from ._ops import OpNamespace  # imported here: _ops imports this module

        if isinstance(value, OpNamespace):
            return ("opref", value._name)
        if hasattr(value, "sources") and hasattr(value, "func"):  # a ScriptFunction passed as a value
            return ("fnref", self.add_script(value))
        raise TypeError(
            f"cannot record a {type(value).__name__} argument in a traced pipeline: only symbols, "
            "plain values (None, bool, int, float, str, lists, dicts), anyproc.ops.* and scripted "
            "functions can be written to a pipeline file"
        )

    def args(self, values: Iterable[Any], init: bool) -> List[Tuple]:
        return [self.arg(v, init) for v in values]

    def add_resource(self, path: str) -> str:
        full = os.path.abspath(path)
        if full not in self.resources:
            with open(full, "rb") as f:
                digest = hashlib.sha256(f.read()).hexdigest()
            stem = Path(full).name.split(".")[0]
            self.resources[full] = {"hint": stem or "file", "sha256": digest, "name": None}
        return full

    def add_script(self, sf: Any) -> str:
        for name, src in sf.sources:
            known = self.functions.get(name)
            if known is not None and known != src:
                raise ValueError(f"two different scripted functions are both named '{name}' in one trace; "
                                 "rename one of them")
            self.functions[name] = src
        return sf.sources[0][0]

    def add_init(self, expr: Tuple, value: Any, hint: str) -> Symbol:
        sym = Symbol(self, "init", _sanitize(hint), value)
        self.inits.append((sym, expr))
        return sym

    def add_step(self, expr: Tuple, label: str, hint: str) -> Symbol:
        sym = Symbol(self, "step", _sanitize(hint))
        self.steps.append((sym, expr, label))
        return sym


def _record_op(name: str, func: Any, args: Tuple) -> Any:
    """An ``anyproc.ops`` call while a trace is active (in some thread)."""
    tr = _current()
    if tr is None:
        return func(*args)
    if _dynamic(args):
        return tr.add_step(("op", name, tr.args(args, False)), name, _op_hint(name))
    value = func(*_concrete(args))
    return tr.add_init(("op", name, tr.args(args, True)), value, _op_hint(name))


def _record_script(sf: Any, args: Tuple) -> Any:
    """A scripted function called while a trace is active: a step when given symbols."""
    tr = _current()
    if tr is None or not _dynamic(args):
        return sf.func(*_concrete(args))
    name = tr.add_script(sf)
    return tr.add_step(("fn", name, tr.args(args, False)), name, f"{name}_out")


# ---- the result ------------------------------------------------------------------------------


class TracedPipeline:
    """A recorded pipeline: write it with :meth:`save` / :meth:`to_toml`, or run it with :meth:`pipeline`."""

    def __init__(self, tracer: _Tracer, outputs: List[Tuple[str, Symbol, Dict[str, Any]]], name: str,
                 description: str) -> None:
        self._tr = tracer
        self._outputs = outputs
        self.name = name
        self.description = description
        self.inputs = list(tracer.inputs)
        self._pipelines: Dict[str, Any] = {}
        self._assign_names()

    # Names are chosen once everything is known, so generated ones never collide.
    def _assign_names(self) -> None:
        tr = self._tr
        try:
            roots = {n.split(".")[0] for n in _native.list_global_funcs()}
        except Exception:  # pragma: no cover - the registry is always there
            roots = set()
        taken = set(keyword.kwlist) | _BUILTINS | {"None", "True", "False"} | set(tr.inputs) | set(tr.functions)

        def fresh(hint: str, avoid_roots: bool = True) -> str:
            base = _sanitize(hint)
            if keyword.iskeyword(base) or (avoid_roots and base in roots):
                base += "_"
            name, n = base, 1
            while name in taken or (avoid_roots and name in roots):
                n += 1
                name = f"{base}{n}"
            taken.add(name)
            return name

        for full, res in tr.resources.items():
            # The file's stem (`tokenizer`), else its whole name (`vocab_txt`) when the stem is
            # taken or would shadow an op namespace such as `vocab`.
            stem, whole = _sanitize(res["hint"]), _sanitize(Path(full).name)
            clash = stem in taken or stem in roots or keyword.iskeyword(stem)
            res["name"] = fresh(whole if clash else stem)
        for i, const in enumerate(tr.constants, 1):
            const["name"] = fresh(f"const{i}")
        for sym, _ in tr.inits:
            sym._name = fresh(sym._hint)
        # An init symbol used as an output is copied into a step (outputs read step variables).
        for i, (out_name, sym, opts) in enumerate(self._outputs):
            for key, s in (("from", sym), ("pair_from", opts.get("pair_from"))):
                if isinstance(s, Symbol) and s._kind == "init":
                    copy = Symbol(tr, "step", out_name)
                    tr.steps.append((copy, ("sym", s), ""))
                    if key == "from":
                        sym = copy
                    else:
                        opts = dict(opts, pair_from=copy)
                    self._outputs[i] = (out_name, sym, opts)
        # A step read by an output takes the output's name when it is free.
        for out_name, sym, _ in self._outputs:
            if sym._kind == "step" and sym._name is None and out_name.isidentifier() \
                    and not keyword.iskeyword(out_name) and out_name not in taken:
                sym._name = out_name
                taken.add(out_name)
        for sym, _, _ in tr.steps:
            if sym._name is None:
                sym._name = fresh(sym._hint)
        self._names = taken

    # ---- rendering ----------------------------------------------------------------------------

    def _expr(self, e: Tuple) -> str:
        kind = e[0]
        if kind == "sym":
            return e[1]._name
        if kind == "lit":
            return _literal(e[1])
        if kind == "res":
            return self._tr.resources[e[1]]["name"]
        if kind == "const":
            return e[1]["name"]
        if kind == "list":
            return "[" + ", ".join(self._expr(x) for x in e[1]) + "]"
        if kind == "dict":
            return "{" + ", ".join(f"{self._expr(k)}: {self._expr(v)}" for k, v in e[1]) + "}"
        if kind in ("op", "opref"):
            path = e[1]
            # `text.lower(x)` would read a variable called `text`: spell such ops `ops.text.lower`.
            if path.split(".")[0] in self._names:
                path = "ops." + path
            return path if kind == "opref" else f"{path}({self._list(e[2])})"
        if kind == "fnref":
            return e[1]
        if kind == "fn":
            return f"{e[1]}({self._list(e[2])})"
        if kind == "call":
            return f"{self._expr(e[1])}({self._list(e[2])})"
        if kind == "method":
            return f"{self._expr(e[1])}.{e[2]}({self._list(e[3])})"
        if kind == "getitem":
            return f"{self._expr(e[1])}[{self._expr(e[2])}]"
        if kind == "slice":
            parts = ["" if p is None else self._expr(p) for p in e[2:]]
            if not parts[2]:
                parts.pop()
            return f"{self._expr(e[1])}[{':'.join(parts)}]"
        raise ValueError(f"unknown expression {kind!r}")

    def _list(self, items: List[Tuple]) -> str:
        return ", ".join(self._expr(x) for x in items)

    def _from(self, sym: Any, out_name: str, key: str) -> str:
        if not isinstance(sym, Symbol) or sym._tracer is not self._tr:
            raise TypeError(f"output '{out_name}': {key} must be a symbol of this trace, not {type(sym).__name__}")
        return sym._name  # type: ignore[return-value]

    def to_toml(self, base_dir: Union[str, os.PathLike, None] = None) -> str:
        """The pipeline file as TOML, resource paths relative to ``base_dir`` (default: the current directory)."""
        base = os.path.abspath(os.fspath(base_dir) if base_dir is not None else os.getcwd())
        tr = self._tr
        lines = ["# Recorded by anyproc.trace; run with `anyproc run FILE` or anyproc.Pipeline.load(FILE).",
                 f"name = {_toml.string(self.name)}"]
        if self.description:
            lines.append(f"description = {_toml.string(self.description)}")
        lines.append(f"inputs = {_toml.value(self.inputs)}")
        if tr.functions:
            lines.append(f"functions = {_toml.multiline(chr(10).join(tr.functions.values()))}")
        for full, res in tr.resources.items():
            try:
                rel = Path(os.path.relpath(full, base)).as_posix()
            except ValueError:  # another drive on Windows: keep the absolute path
                rel = Path(full).as_posix()
            lines += ["", f"[resources.{_toml.key(res['name'])}]", f"path = {_toml.string(rel)}",
                      f"sha256 = {_toml.string(res['sha256'])}"]
        if tr.constants:
            lines += ["", "[constants]"]
            lines += [f"{_toml.key(c['name'])} = {_toml.value(c['value'])}" for c in tr.constants]
        if tr.inits:
            lines += ["", "[init]"]
            lines += [f"{_toml.key(str(sym._name))} = {_toml.string(self._expr(e))}" for sym, e in tr.inits]
        for sym, e, label in tr.steps:
            lines += ["", "[[steps]]"]
            if label and label != sym._name:
                lines.append(f"name = {_toml.string(label)}")
            lines += [f"out = {_toml.string(str(sym._name))}", f"call = {_toml.string(self._expr(e))}"]
        for out_name, sym, opts in self._outputs:
            lines += ["", "[[outputs]]", f"name = {_toml.string(out_name)}",
                      f"from = {_toml.string(self._from(sym, out_name, 'from'))}"]
            for k, v in opts.items():
                if k == "pair_from":
                    v = self._from(v, out_name, "pair_from")
                lines.append(f"{k} = {_toml.value(v)}")
        return "\n".join(lines) + "\n"

    def save(self, path: Union[str, os.PathLike]) -> str:
        """Writes the pipeline to ``path`` (resource paths relative to its directory); returns the path."""
        path = os.fspath(path)
        text = self.to_toml(os.path.dirname(os.path.abspath(path)))
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        return path

    def pipeline(self, base_dir: Union[str, os.PathLike, None] = None) -> Any:
        """The recorded pipeline loaded as an :class:`anyproc.Pipeline` (cached per base directory)."""
        base = os.path.abspath(os.fspath(base_dir) if base_dir is not None else os.getcwd())
        pipe = self._pipelines.get(base)
        if pipe is None:
            pipe = _native.Pipeline.from_str(self.to_toml(base), format="toml", base_dir=base, label=self.name)
            self._pipelines[base] = pipe
        return pipe

    def __call__(self, records: Any, **kwargs: Any) -> Dict[str, Any]:
        """Runs the recorded pipeline on ``records`` (see ``Pipeline.__call__``)."""
        return self.pipeline()(records, **kwargs)

    def __repr__(self) -> str:
        return f"<anyproc.TracedPipeline {self.name!r}: {len(self._tr.steps)} steps, {len(self._outputs)} outputs>"


def _literal(v: Any) -> str:
    """A plain value as anyscript source."""
    if v is None or isinstance(v, (bool, int, str)):
        return repr(v)
    if isinstance(v, float):
        return repr(v) if v == v and v not in (float("inf"), float("-inf")) else f"float({str(v)!r})"
    raise TypeError(f"cannot write {type(v).__name__} as a literal")


# ---- entry point -----------------------------------------------------------------------------


def trace(fn: Any, inputs: Union[str, Sequence[str]] = ("text",), name: Optional[str] = None) -> TracedPipeline:
    """Records ``fn(*inputs)`` as a pipeline (see the module docstring)."""
    if isinstance(inputs, str):
        inputs = (inputs,)
    inputs = list(inputs)
    if not inputs:
        raise ValueError("trace needs at least one input")
    for n in inputs:
        if not isinstance(n, str) or not n.isidentifier() or keyword.iskeyword(n):
            raise ValueError(f"input name {n!r} is not a valid identifier")
    if len(set(inputs)) != len(inputs):
        raise ValueError(f"input names repeat: {inputs}")
    tracer = _Tracer(inputs)
    symbols = [Symbol(tracer, "input", n, name=n) for n in inputs]
    stack = getattr(_LOCAL, "stack", None)
    if stack is None:
        stack = _LOCAL.stack = []
    stack.append(tracer)
    with _LOCK:
        _ACTIVE[0] += 1
        if _ACTIVE[0] == 1:
            _SCRIPT_CALL[0].__call__ = _SCRIPT_CALL[1]
    try:
        result = fn(*symbols)
    finally:
        stack.pop()
        with _LOCK:
            _ACTIVE[0] -= 1
            if _ACTIVE[0] == 0:
                del _SCRIPT_CALL[0].__call__
    if not isinstance(result, Mapping) or not result:
        raise TypeError(f"the traced function must return a non-empty dict of output name -> symbol or "
                        f"Collate, not {type(result).__name__}")
    outputs = []
    for out_name, v in result.items():
        if not isinstance(out_name, str):
            raise TypeError(f"output names must be strings, not {type(out_name).__name__}")
        if isinstance(v, Collate):
            outputs.append((out_name, v.value, dict(v.options)))
        else:
            outputs.append((out_name, v, {"layout": "list"}))
    for out_name, sym, opts in outputs:
        for s in (sym, opts.get("pair_from")):
            if s is not None and (not isinstance(s, Symbol) or s._tracer is not tracer):
                raise TypeError(f"output '{out_name}' must be a symbol of this trace (got {type(s).__name__}); "
                                "outputs are values computed from the inputs")
    doc = (getattr(fn, "__doc__", None) or "").strip().splitlines()
    label = name or str(getattr(fn, "__name__", "traced"))
    return TracedPipeline(tracer, outputs, label, doc[0] if doc else "")
