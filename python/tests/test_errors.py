"""Rust errors arrive as the matching Python exceptions, with messages that say what went wrong."""

from __future__ import annotations

import sys

import pytest

import anyproc


def test_wrong_argument_type_names_op_and_argument():
    lower = anyproc.get_global_func("text.lower")
    with pytest.raises(TypeError) as e:
        lower(5)
    msg = str(e.value)
    assert "text.lower" in msg
    assert "argument" in msg or "arg" in msg
    assert "str" in msg and "int" in msg


def test_wrong_type_through_ops():
    with pytest.raises(TypeError, match="text.upper"):
        anyproc.ops.text.upper([1, 2])


def test_unknown_function_did_you_mean():
    with pytest.raises(KeyError) as e:
        anyproc.get_global_func("text.lowr")
    assert "text.lower" in str(e.value)
    with pytest.raises(KeyError, match="text.lower"):
        anyproc.ops.text.lowr("x")


def test_func_info_unknown():
    with pytest.raises(KeyError):
        anyproc.func_info("no.such.func")
    sig, doc = anyproc.func_info("text.lower")
    assert sig.startswith("(") and doc


def test_overflow():
    with pytest.raises(OverflowError):
        anyproc.get_global_func("testing.echo")(2**63)


def test_an_argument_that_does_not_convert_fails_the_call_whatever_its_position():
    # Every arity has its own conversion path (up to six on the stack, more in a vector); the
    # first argument that fails is the error raised, whatever the arguments after it are.
    nop = anyproc.get_global_func("testing.nop")
    for n in range(1, 9):
        for at in range(n):
            args = [1, 2.5, None, "word", "a longer word", True, b"xy", [1]][:n]
            args[at] = 2**64
            with pytest.raises(OverflowError, match="does not fit"):
                nop(*args)
            args[at] = object()
            with pytest.raises(TypeError, match="cannot convert a Python object"):
                nop(*args)
            # Both failing: the first one's error.
            if at + 1 < n:
                args[at], args[at + 1] = -(2**70), object()
                with pytest.raises(OverflowError):
                    nop(*args)
                args[at], args[at + 1] = object(), 2**70
                with pytest.raises(TypeError):
                    nop(*args)
        assert nop(*[7] * n) is None


def test_arity_error():
    with pytest.raises(TypeError, match="text.lower"):
        anyproc.get_global_func("text.lower")("a", "b")


def test_missing_file_is_oserror(tmp_path):
    with pytest.raises(OSError) as e:
        anyproc.ops.tok.bert.new(str(tmp_path / "missing-vocab.txt"))
    assert "missing-vocab.txt" in str(e.value)
    with pytest.raises(OSError):
        anyproc.Pipeline.load(str(tmp_path / "nope.toml"))


def test_pipeline_syntax_error_has_line():
    text = 'inputs = ["text"]\n\n[[steps]]\nout = "x"\ncall = "text.lower(text"\n'
    with pytest.raises(SyntaxError) as e:
        anyproc.Pipeline.from_str(text)
    # The step is named, with the line of its [[steps]] table and the column in its expression.
    assert "step 'x'" in str(e.value) and "line 3" in str(e.value)


def test_script_runtime_errors():
    def index(text):
        return text[100]

    def divide(text):
        return len(text) // 0

    with pytest.raises(IndexError):
        anyproc.script(index)("short")
    # CPython raises ZeroDivisionError("integer division or modulo by zero") here.
    with pytest.raises(ZeroDivisionError, match="integer division or modulo by zero"):
        anyproc.script(divide)("x")


def range_loop(start, stop):
    # A `for` over `range(...)` runs without making the range; its errors are still CPython's.
    total = 0
    for i in range(start, stop):
        total += i
    return total + sum([j for j in range(stop)])


def test_a_range_loop_of_a_wrong_type_gives_cpythons_error():
    from test_formatting import check_all
    check_all(range_loop, [(0, 2.5), (0.5, 3), ("1", 3), (True, 3), (0, None), (1, 4)])


def test_script_name_error_names_the_line():
    def uses_undefined(text):
        return undefined_thing(text)  # noqa: F821

    with pytest.raises((KeyError, NameError, SyntaxError)) as e:
        anyproc.script(uses_undefined)
    assert "undefined_thing" in str(e.value)


NESTING_SCRIPT = '''
import anyproc


def nest(n):
    x = []
    for i in range(n):
        x = [x]
    return x


def build_and_drop(n):
    x = []
    for i in range(n):
        x = [x]
    x = None
    return n


assert anyproc.script(build_and_drop)(1_000_000) == 1_000_000
try:
    anyproc.script(nest)(1_000_000)
except ValueError as e:
    print("ValueError:", e)
'''


def test_a_million_nested_lists_are_freed_and_refused_at_conversion_without_a_crash(tmp_path):
    # In a child process: a stack overflow would kill the interpreter outright.
    import subprocess
    import sys

    path = tmp_path / "nesting.py"
    path.write_text(NESTING_SCRIPT)
    out = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert "ValueError: containers nested deeper than 512 levels" in out.stdout


MEMORY_SCRIPT = '''
import resource

import anyproc

resource.setrlimit(resource.RLIMIT_AS, (3 * 10**9, 3 * 10**9))


def blow_up(n):
    return len("ab" * n)


try:
    anyproc.script(blow_up)(1 << 31)
except MemoryError as e:
    print("MemoryError:", e)
print(anyproc.script(blow_up)(10))
'''


def test_a_result_the_allocator_refuses_is_a_memory_error(tmp_path):
    # In a child process under an address-space limit, so that the refusal is certain.
    import subprocess
    import sys

    path = tmp_path / "memory.py"
    path.write_text(MEMORY_SCRIPT)
    out = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [
        "MemoryError: function 'blow_up', line 10: repeated string: cannot allocate 4294967296 bytes",
        "20",
    ]


def vocab_id(vocab, token):
    return vocab[token]


def nested_lookup(table, word):
    def find(w):
        return table[w.lower()]
    return find(word)


def raises_key(key):
    raise KeyError(key)


@pytest.mark.skipif(sys.version_info < (3, 11), reason="add_note is Python 3.11's")
def test_a_key_error_holds_the_key_as_cpythons_does():
    # CPython's KeyError holds the missing key (`e.args[0]`, `str(e)` its repr); anyproc's too,
    # with the function and line it came from as a note.
    cases = [(vocab_id, ({"a": 1}, "b")), (vocab_id, ({(1, 2): 0}, (1, 3))), (nested_lookup, ({}, "Wörd")),
             (raises_key, (5,)), (raises_key, ("x",))]
    for fn, args in cases:
        with pytest.raises(KeyError) as want:
            fn(*args)
        with pytest.raises(KeyError) as got:
            anyproc.script(fn)(*args)
        assert (got.value.args, str(got.value)) == (want.value.args, str(want.value)), fn.__name__
        assert any(f"function '{fn.__name__}'" in note for note in got.value.__notes__), fn.__name__
