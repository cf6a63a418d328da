"""anyproc: an NLP preprocessing engine in Rust, from Python.

* ``anyproc.ops.text.lower("ABC")`` calls a registered op by its dotted name;
  ``get_global_func``/``list_global_funcs``/``func_info`` reach the registry
  directly, ``register_func`` adds Python functions to it (also as a decorator).
* ``Pipeline.load("pipelines/bert-base-uncased.toml")(texts)`` runs a pipeline
  file over a batch and returns tensors (``NDArray``, DLPack, zero copy).
* ``anyproc.load_module("libmy_ops.so")`` loads a plugin built against
  ``include/anyproc.h``; its ops join the registry.
* ``anyproc.script(fn)`` compiles a plain Python function with anyproc's
  interpreter; ``anyproc.trace(fn)`` records op calls into a pipeline file.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

from . import _native
from ._native import (
    Function,
    Generator,
    NDArray,
    Pipeline,
    __version__,
    func_info,
    get_global_func,
    list_global_funcs,
    Module,
    script_json,
    script_source,
)
from ._ops import OpNamespace, ops
from .script import ScriptFunction, script
from .trace import Collate, Symbol, TracedPipeline, trace

__all__ = [
    "Collate", "Function", "Generator", "NDArray", "OpNamespace", "Pipeline", "ScriptFunction", "Symbol", "TracedPipeline",
    "Module", "__version__", "func_info", "get_global_func", "list_global_funcs", "load_module", "ops", "register_func", "script",
    "script_json", "script_source", "trace",
]


def register_func(name: str, fn: Optional[Callable[..., Any]] = None, override: bool = False) -> Any:
    """Registers ``fn`` as the global function ``name`` (callable from pipelines and ``ops``).

    Without ``fn`` it is a decorator: ``@anyproc.register_func("my.op")`` or
    ``@anyproc.register_func("my.op", override=True)``; the decorated function
    is returned unchanged (so is ``fn`` when given). A scripted function is registered as its native
    function, so calls to it never enter Python.
    """
    if fn is None:
        def decorator(f: Callable[..., Any]) -> Callable[..., Any]:
            register_func(name, f, override=override)
            return f

        return decorator
    target = fn.func if isinstance(fn, ScriptFunction) else fn
    _native.register_func(name, target, override=override)
    # An override replaces the function: drop what ops.<name> cached.
    ops._invalidate(name)
    return fn


def load_module(path: Any, override: bool = False) -> Module:
    """Loads the plugin at ``path`` (a shared library built against ``include/anyproc.h``).

    Its init registers its ops globally, so they are callable through ``ops``,
    ``get_global_func`` and pipelines. A name already registered is an error
    unless ``override=True``. Loading the same file again returns the loaded module.
    """
    module = _native.load_module(path, override=override)
    for name in module.functions:
        ops._invalidate(name)
    return module


def _share_hash_secret() -> bool:
    """Hands this Python's hash secret to anyproc, so that ``hash()`` in a script is Python's own.

    CPython keeps it in ``_Py_HashSecret`` (read here with ctypes); anyproc takes it only if its
    hash of a probe string then equals Python's. Where it cannot be read, anyproc keeps the key
    ``PYTHONHASHSEED`` gives, or a random one.
    """
    probe = "anyproc hash probe"
    try:
        import ctypes

        raw = bytes((ctypes.c_uint8 * 16).in_dll(ctypes.pythonapi, "_Py_HashSecret"))
    except (AttributeError, ValueError, OSError, ImportError):
        return False
    k0, k1 = int.from_bytes(raw[:8], "little"), int.from_bytes(raw[8:], "little")
    import sys

    return _native._set_hash_secret(k0, k1, hash(None), sys.hash_info.algorithm, probe, hash(probe))


_share_hash_secret()
