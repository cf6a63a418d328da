"""Type stubs of the ``anyproc`` package."""

import os
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, TypeVar, Union, overload

from ._native import (
    Function as Function,
    Generator as Generator,
    NDArray as NDArray,
    Pipeline as Pipeline,
    __version__ as __version__,
    func_info as func_info,
    get_global_func as get_global_func,
    list_global_funcs as list_global_funcs,
    Module as Module,
    script_json as script_json,
    script_source as script_source,
)

_F = TypeVar("_F", bound=Callable[..., Any])

class OpNamespace:
    """``anyproc.ops.text.lower``: attribute chains name registered functions."""

    def __getattr__(self, attr: str) -> OpNamespace: ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any: ...

ops: OpNamespace

@overload
def register_func(name: str, fn: None = None, override: bool = False) -> Callable[[_F], _F]: ...
@overload
def register_func(name: str, fn: _F, override: bool = False) -> _F: ...

def load_module(path: Union[str, os.PathLike[str]], override: bool = False) -> Module:
    """Loads a plugin built against ``include/anyproc.h``; its ops join the registry."""
    ...

class ScriptFunction(Function):
    """A Python function compiled by anyproc (``anyproc.script``): an ``anyproc.Function``
    that also carries the Python function's name, docstring and sources."""

    func: Function
    ast_json: str
    sources: List[Tuple[str, str]]
    __name__: str
    __qualname__: str
    __wrapped__: Callable[..., Any]
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Runs the compiled function; keyword arguments bind as the Python function's
        parameters do, and left-out parameters take their defaults."""
        ...
    @property
    def source(self) -> str: ...

@overload
def script(fn: Callable[..., Any], *, while_limit: Optional[int] = None,
           max_depth: Optional[int] = None) -> ScriptFunction: ...
@overload
def script(fn: None = None, *, while_limit: Optional[int] = None,
           max_depth: Optional[int] = None) -> Callable[[Callable[..., Any]], ScriptFunction]: ...

class Symbol:
    """A traced value (an input, a step's output or an init result)."""

    @property
    def kind(self) -> str: ...
    @property
    def value(self) -> Any: ...
    @property
    def name(self) -> Optional[str]: ...
    def __call__(self, *args: Any) -> Symbol: ...
    def __getattr__(self, attr: str) -> Callable[..., Symbol]: ...
    def __getitem__(self, key: Any) -> Symbol: ...

class Collate:
    """An output collated into tensors, with the ``[[outputs]]`` options of a pipeline file."""

    value: Symbol
    options: Dict[str, Any]
    def __init__(
        self,
        value: Symbol,
        *,
        layout: str = ...,
        dtype: str = ...,
        padding: str = ...,
        max_length: Optional[int] = ...,
        truncation: Optional[str] = ...,
        truncation_side: str = ...,
        padding_side: str = ...,
        pad_id: int = ...,
        pad_to_multiple_of: Optional[int] = ...,
        special_tokens: Optional[Mapping[str, Any]] = ...,
        attention_mask: Union[str, bool, None] = ...,
        token_type_ids: Union[str, bool, None] = ...,
        pair_from: Optional[Symbol] = ...,
    ) -> None: ...

class TracedPipeline:
    """A recorded pipeline (``anyproc.trace``)."""

    name: str
    description: str
    inputs: List[str]
    def to_toml(self, base_dir: Union[str, os.PathLike, None] = None) -> str: ...
    def save(self, path: Union[str, os.PathLike]) -> str: ...
    def pipeline(self, base_dir: Union[str, os.PathLike, None] = None) -> Pipeline: ...
    def __call__(self, records: Sequence[Any], **kwargs: Any) -> Dict[str, Any]: ...

def trace(
    fn: Callable[..., Mapping[str, Union[Symbol, Collate]]],
    inputs: Union[str, Sequence[str]] = ("text",),
    name: Optional[str] = None,
) -> TracedPipeline: ...
