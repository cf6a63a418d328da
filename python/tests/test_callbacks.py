"""Python functions called from anyproc, and anyproc functions called from Python."""

from __future__ import annotations

import itertools

import pytest

import anyproc

_counter = itertools.count()


def unique(prefix: str) -> str:
    """A fresh registry name per test (the registry is global to the process)."""
    return f"pytest.{prefix}{next(_counter)}"


def list_pipeline(call: str, out: str = "r") -> str:
    return (f'inputs = ["text"]\n\n[[steps]]\nout = "{out}"\ncall = "{call}"\n\n'
            f'[[outputs]]\nname = "{out}"\nfrom = "{out}"\nlayout = "list"\n')


def test_register_and_call_back():
    name = unique("shout")
    anyproc.register_func(name, lambda s: s.upper() + "!")
    assert anyproc.get_global_func(name)("hey") == "HEY!"
    assert name in anyproc.list_global_funcs()


def test_register_decorator_and_ops():
    name = unique("twice")

    @anyproc.register_func(name)
    def twice(x):
        """Doubles x."""
        return x * 2

    assert twice(4) == 8  # the decorator returns the function unchanged
    assert anyproc.get_global_func(name)(21) == 42
    ns = anyproc.ops
    for part in name.split("."):
        ns = getattr(ns, part)
    assert ns("ab") == "abab"
    sig, doc = anyproc.func_info(name)
    assert "Doubles x." in doc


def test_register_override():
    name = unique("over")
    anyproc.register_func(name, lambda: 1)
    with pytest.raises((KeyError, ValueError, RuntimeError)):
        anyproc.register_func(name, lambda: 2)
    # The ops cache is refreshed by an override.
    node = anyproc.ops
    for part in name.split("."):
        node = getattr(node, part)
    assert node() == 1

    @anyproc.register_func(name, override=True)
    def three():
        return 3

    assert anyproc.get_global_func(name)() == 3
    assert node() == 3


def test_callback_from_pipeline_step():
    name = unique("exclaim")
    anyproc.register_func(name, lambda s: s + "!")
    pipe = anyproc.Pipeline.from_str(list_pipeline(f"{name}(text)"))
    out = pipe(["a", "bc", "déf"])
    assert list(out["r"]) == ["a!", "bc!", "déf!"]


def test_callback_from_pipeline_with_threads():
    name = unique("length")
    anyproc.register_func(name, lambda s: len(s))
    pipe = anyproc.Pipeline.from_str(list_pipeline(f"{name}(text)"))
    texts = [f"line {i} " * (i % 7) for i in range(3000)]
    out = pipe(texts, threads=2)
    assert list(out["r"]) == [len(t) for t in texts]


class Boom(Exception):
    pass


def test_exception_propagates_unchanged_from_get_global_func():
    err = Boom("boom")
    name = unique("raise")

    def fail(x):
        raise err

    anyproc.register_func(name, fail)
    with pytest.raises(Boom) as e:
        anyproc.get_global_func(name)(1)
    assert e.value is err


def test_exception_propagates_unchanged_from_pipeline():
    err = Boom("in a step")
    name = unique("raise_step")

    def fail(text):
        if text == "bad":
            raise err
        return text

    anyproc.register_func(name, fail)
    pipe = anyproc.Pipeline.from_str(list_pipeline(f"{name}(text)"))
    assert list(pipe(["ok", "fine"])["r"]) == ["ok", "fine"]
    with pytest.raises(Boom) as e:
        pipe(["ok", "bad", "fine"], threads=1)
    assert e.value is err


def test_exceptions_of_records_not_reported_are_released():
    # Every record of a batch fails, one failure is raised, and the exceptions of the others
    # (with their tracebacks) must not stay alive inside anyproc, whether the batch failed or
    # skipped them.
    class Held:
        alive = 0

        def __init__(self):
            Held.alive += 1

        def __del__(self):
            Held.alive -= 1

    name = unique("raise_all")

    def fail(text):
        held = Held()  # kept alive by the traceback's frame
        raise Boom(text + str(id(held)))

    anyproc.register_func(name, fail)
    pipe = anyproc.Pipeline.from_str(list_pipeline(f"{name}(text)"))
    records = [f"r{i}" for i in range(300)]
    for threads in (1, 2):
        with pytest.raises(Boom):
            pipe(records, threads=threads)
        assert anyproc._native._pending_exceptions() == 0
    out = pipe(records, threads=2, skip_errors=True)
    assert [i for i, _ in out["__skipped__"]] == list(range(300))
    assert anyproc._native._pending_exceptions() == 0
    import gc

    gc.collect()
    assert Held.alive == 0


def test_exception_through_nested_callbacks():
    # Python -> anyproc -> Python -> anyproc -> Python raising.
    def raise_deep():
        raise KeyError("deep")

    echo = anyproc.get_global_func("testing.echo")
    inner = echo(raise_deep)
    outer = echo(lambda: inner())
    with pytest.raises(KeyError, match="deep"):
        outer()


def test_python_callable_as_op_argument():
    # A Python function passed to anyproc and called there (through a scripted function).
    def apply(f, x):
        return f(x)

    run = anyproc.script(apply)
    assert run(lambda s: s[::-1], "abc") == "cba"
    assert run(anyproc.get_global_func("text.upper"), "abc") == "ABC"


def test_scripted_function_registered():
    def count_a(text):
        n = 0
        for c in text:
            if c == "a":
                n += 1
        return n

    name = unique("count_a")
    anyproc.register_func(name, anyproc.script(count_a))
    pipe = anyproc.Pipeline.from_str(list_pipeline(f"{name}(text)"))
    assert list(pipe(["banana", "xyz"])["r"]) == [3, 0]
