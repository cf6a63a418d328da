"""Functions over exceptions as values, each run by CPython and by ``anyproc.script``
(``test_exception_values.py``): what ``except E as e`` binds, exception classes as values,
``raise e`` and ``raise ... from``."""

from __future__ import annotations


def parsed_numbers(line):
    """Each word's int, or what the failure showed (a common pattern in cleaning code)."""
    out = []
    for w in line.split()[:12]:
        try:
            out.append(int(w))
        except ValueError as e:
            out.append([repr(e), str(e), type(e).__name__, e.args, f"{e}", "%s" % e, len(e.args)])
    return out


def missing_keys(line):
    """Lookups of words in a small vocabulary: the KeyError's key, repr and args."""
    vocab = {"the": 1, "a": 2, "of": 3}
    out = []
    for w in line.lower().split()[:10]:
        try:
            out.append(vocab[w])
        except KeyError as e:
            out.append((repr(e), str(e), e.args, e.args[0] == w, isinstance(e, LookupError)))
    return out


def runtime_errors(line):
    """Errors anyproc raises itself, caught by their bases, as CPython shows them."""
    words = line.split()
    out = []
    for i, step in enumerate(["index", "zero", "type", "overflow", "arity", "name"]):
        try:
            if step == "index":
                out.append(words[len(words) + i])
            elif step == "zero":
                out.append(len(line) // (i - 1))
            elif step == "type":
                out.append(line + len(words))
            elif step == "overflow":
                out.append(2 ** 64 if len(line) < 0 else int(float("inf")))
            elif step == "arity":
                out.append(helper(line, line))
            else:
                out.append(int(line[:1] or "x"))
        except (LookupError, ArithmeticError) as e:
            out.append(("lookup/arithmetic", repr(e), type(e).__name__, isinstance(e, (IndexError, OverflowError))))
        except Exception as e:
            out.append(("other", repr(e), type(e) is TypeError, type(e) == ValueError, e.args))
    return out


def helper(x):
    return x


def classes_as_values(line):
    """Exception classes given, compared, named and called as values."""
    kinds = (ValueError, KeyError, IndexError)
    made = [k(w) for k, w in zip(kinds, line.split())]
    return ([repr(k) for k in kinds], [k.__name__ for k in kinds], [repr(e) for e in made],
            [isinstance(e, kinds[1:]) for e in made], [type(e) in kinds for e in made],
            repr(ValueError()), str(KeyError(line[:5])), repr(TypeError(len(line))), str(LookupError))


def reraised(line):
    """An error caught, noted and raised again as itself; the outer clause gets the same object."""
    seen = []
    try:
        try:
            if not line.strip():
                raise ValueError("empty line")
            return int(line.split()[0])
        except ValueError as e:
            seen.append(e)
            raise e
    except Exception as outer:
        return [outer is seen[0], repr(outer), repr(seen)]


def chained(line):
    """`raise ... from` in validation code: the new error is what the caller sees."""
    words = line.split()
    try:
        n = int(words[0]) if words else int("")
    except ValueError as e:
        if len(words) > 3:
            raise KeyError(words[1]) from e
        if len(words) > 2:
            raise ValueError("not a count: " + words[0]) from None
        raise made_error(words, len(line)) from e
    return n


def made_error(words, n):
    if n % 2:
        return IndexError(n)
    return ValueError(" ".join(words))


def bad_raises(line):
    """What CPython raises for a raise of no exception, a bad cause, and an exception used as text."""
    out = []
    for step in range(5):
        try:
            if step == 4:
                raise len(line) from len(line)
            if step == 0:
                raise len(line)
            if step == 1:
                raise ValueError(line) from line
            if step == 2:
                try:
                    int(line)
                except ValueError as e:
                    out.append(e + "!")
            if step == 3:
                raise KeyError
        except Exception as e:
            out.append((type(e).__name__, str(e)))
    return out


def empty_pops(line):
    """KeyErrors whose argument is a message, not a key."""
    out = []
    for container in [{w: 1 for w in line.split()[:1]}, set(line[:1])]:
        for _ in range(2):
            try:
                out.append(container.popitem() if isinstance(container, dict) else container.pop())
            except KeyError as e:
                out.append((repr(e), str(e), e.args))
    return out


def exceptions_returned(line):
    """Exceptions returned to Python, shown by their reprs."""
    errors = []
    for w in line.split()[:6]:
        try:
            errors.append(float(w))
        except ValueError as e:
            errors.append(e)
    return [repr(x) for x in errors]
