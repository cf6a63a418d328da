"""``anyproc.ops``: registered functions as attribute chains.

``anyproc.ops.text.lower("ABC")`` calls the global function ``text.lower``.
Each attribute step makes (and caches) a child namespace whose dotted name is
the path so far; calling a namespace looks the function up once and keeps it.

Calls go through :mod:`anyproc.trace` while a trace is being recorded, so the
same user code runs eagerly outside a trace and records steps inside one. That
costs one Python-level call per op call; in a hot loop, hold the function from
``anyproc.get_global_func(name)`` instead.
"""

from __future__ import annotations

from typing import Any, List, Optional

from . import _native
from .trace import _ACTIVE, _record_op


class OpNamespace:
    """A node of the op namespace: ``ops.text`` is the node for ``text.*``.

    A child node is stored in the instance ``__dict__`` under its segment, so
    after the first access ``ops.text.lower`` is two plain attribute lookups.
    Attribute names starting with ``_`` are never op segments (they would clash
    with Python's own protocols: copy, pickle and IPython probe such names).
    """

    def __init__(self, name: str = "") -> None:
        self._name = name
        self._func: Optional[_native.Function] = None

    def __getattr__(self, attr: str) -> "OpNamespace":
        # Only called when `attr` is not in __dict__ yet: make the child once.
        if attr.startswith("_"):
            raise AttributeError(attr)
        child = OpNamespace(f"{self._name}.{attr}" if self._name else attr)
        self.__dict__[attr] = child
        return child

    def __setattr__(self, attr: str, value: Any) -> None:
        if not attr.startswith("_"):
            raise AttributeError(f"cannot assign to anyproc.ops.{self._name + '.' if self._name else ''}{attr}; "
                                 "use anyproc.register_func")
        object.__setattr__(self, attr, value)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        func = self._func
        if func is None:
            if not self._name:
                raise TypeError("anyproc.ops is a namespace; call an op such as anyproc.ops.text.lower(s)")
            # KeyError with a did-you-mean comes from the registry itself.
            func = self._func = _native.get_global_func(self._name)
        if _ACTIVE[0]:
            if kwargs:
                raise TypeError(f"anyproc.trace records calls by position: pass {self._name}'s arguments "
                                f"{', '.join(kwargs)} by position")
            return _record_op(self._name, func, args)
        # Keyword arguments go to the op where it binds them (`anyproc.ops.re.sub(p, r, s, count=1)`).
        return func(*args, **kwargs)

    def __dir__(self) -> List[str]:
        # The next segments of every registered name under this prefix (for tab completion).
        prefix = f"{self._name}." if self._name else ""
        segments = set()
        for name in _native.list_global_funcs():
            if name.startswith(prefix):
                segments.add(name[len(prefix):].split(".", 1)[0])
        return sorted(segments)

    def __repr__(self) -> str:
        return f"<anyproc.ops {self._name}>" if self._name else "<anyproc.ops>"

    def __reduce__(self) -> Any:
        # Pickle by path: the function is looked up again where it is unpickled.
        return (_resolve, (self._name,))

    def _invalidate(self, name: str) -> None:
        """Forgets the cached function for ``name`` (after ``register_func(..., override=True)``)."""
        node: Any = self
        for part in name.split("."):
            node = node.__dict__.get(part)
            if not isinstance(node, OpNamespace):
                return
        node._func = None


#: The root of the op namespace, exported as ``anyproc.ops``.
ops = OpNamespace()


def _resolve(name: str) -> OpNamespace:
    node = ops
    for part in filter(None, name.split(".")):
        node = getattr(node, part)
    return node
