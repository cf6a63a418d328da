"""``functools.lru_cache`` and ``functools.cache`` for ``anyproc.script``: a cached function is
lowered as a plain function that keeps CPython's cache in a module constant dict, in front of
the function it wraps.

The wrapper is written in Python, so that it lowers as any function does, and it does what
``_functools``' C wrapper does, step for step: the same key (the argument itself for one
``int`` or ``str``, the tuple of the arguments otherwise, their types added when ``typed``),
so that ``f(1)`` and ``f(1.0)`` hit and miss as they do in CPython; a hit moves its entry to
the newest place; a miss calls the function, keeps a result a recursive call stored meanwhile
as it is, and evicts the oldest entry when the cache holds ``maxsize``; ``maxsize=0`` caches
nothing. A call by keyword shares the entry of the same call by position (CPython keeps them
apart), which only object identity can tell.
"""

from __future__ import annotations

import functools
import inspect
import linecache
from typing import Any, Dict

#: ``functools``' cache wrapper type (a C type in CPython).
CACHE_WRAPPER = functools._lru_cache_wrapper  # type: ignore[attr-defined]
#: The decorators a cached function's ``def`` may carry.
CACHE_DECORATORS = (functools.lru_cache, getattr(functools, "cache", functools.lru_cache))


def _key(params: list, typed: bool) -> str:
    """The expression of the cache key of a call, as ``_functools`` makes it."""
    if typed:
        return "(" + "".join(f"{p}, " for p in params) + "".join(f"type({p}), " for p in params) + ")"
    if len(params) == 1:
        p = params[0]
        return f"{p} if type({p}) is int or type({p}) is str else ({p},)"
    return "(" + "".join(f"{p}, " for p in params) + ")"


def cached_function(wrapper: Any) -> Any:
    """A plain Python function that behaves as ``wrapper`` (an ``lru_cache`` of a function),
    its source registered in ``linecache`` so that ``anyproc.script`` can read it."""
    wrapped = wrapper.__wrapped__
    parameters = wrapper.cache_parameters()
    maxsize, typed = parameters["maxsize"], parameters["typed"]
    code = wrapped.__code__
    if code.co_kwonlyargcount or code.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS):
        line = linecache.getline(code.co_filename, code.co_firstlineno) or None
        raise SyntaxError("anyproc.script does not support lru_cache of a function with *args, keyword-only or "
                          "**kwargs parameters", (code.co_filename, code.co_firstlineno, 1, line))
    params = list(code.co_varnames[:code.co_argcount])
    n_defaults = len(wrapped.__defaults__ or ())
    signature = ", ".join(p if i < len(params) - n_defaults else f"{p}=None" for i, p in enumerate(params))
    call = f"_uncached({', '.join(params)})"
    name = wrapped.__name__
    if maxsize == 0:
        body = f"    return {call}\n"
    elif maxsize is None:
        body = (f"    key = {_key(params, typed)}\n"
                "    if key in _cache:\n"
                "        return _cache[key]\n"
                f"    result = {call}\n"
                "    _cache[key] = result\n"
                "    return result\n")
    else:
        body = (f"    key = {_key(params, typed)}\n"
                "    if key in _cache:\n"
                "        result = _cache.pop(key)\n"
                "        _cache[key] = result\n"
                "        return result\n"
                f"    result = {call}\n"
                "    if key in _cache:\n"
                "        return result\n"
                f"    if len(_cache) >= {int(maxsize)}:\n"
                "        del _cache[next(iter(_cache))]\n"
                "    _cache[key] = result\n"
                "    return result\n")
    source = f"def {name}({signature}):\n{body}"
    filename = f"<anyproc lru_cache of {wrapped.__qualname__} at {id(wrapper):#x}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace: Dict[str, Any] = {"_cache": {}, "_uncached": wrapped}
    exec(compile(source, filename, "exec"), namespace)  # noqa: S102 - source written above
    made = namespace[name]
    made.__defaults__ = wrapped.__defaults__
    return made
