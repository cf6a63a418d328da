"""A small TOML writer for pipeline files (no third-party dependency).

Only what pipeline files hold: strings, ints, floats, bools, arrays and inline
tables as values; bare or quoted keys. ``None`` has no TOML form and is
rejected (callers keep such values out of TOML).
"""

from __future__ import annotations

import math
import re
from typing import Any

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")
_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def string(s: str) -> str:
    """A TOML basic string: quotes, backslashes and control characters escaped."""
    out = ['"']
    for ch in s:
        esc = _ESCAPES.get(ch)
        if esc is not None:
            out.append(esc)
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def multiline(s: str) -> str:
    """A multi-line string for source code: literal (``'''``) when it can be, else escaped."""
    literal_ok = "'''" not in s and not s.endswith("'") and all(
        c in "\t\n" or (ord(c) >= 0x20 and ord(c) != 0x7F) for c in s
    )
    if literal_ok:
        # The newline right after the opening quotes is not part of the value.
        return "'''\n" + s + "'''"
    return string(s)


def key(k: str) -> str:
    """A key, bare when TOML allows it."""
    return k if _BARE_KEY.match(k) else string(k)


def value(v: Any) -> str:
    """A TOML value in inline form."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        text = repr(v)
        # TOML needs a digit on both sides of a dot and a dot or exponent in a float.
        return text if any(c in text for c in ".en") else text + ".0"
    if isinstance(v, str):
        return string(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(value(x) for x in v) + "]"
    if isinstance(v, dict):
        if not v:
            return "{}"
        return "{ " + ", ".join(f"{key(str(k))} = {value(x)}" for k, x in v.items()) + " }"
    if v is None:
        raise ValueError("TOML has no null; None cannot be written")
    raise TypeError(f"cannot write {type(v).__name__} as TOML")


def representable(v: Any) -> bool:
    """Whether ``v`` survives a TOML round trip into the pipeline loader unchanged.

    The loader reads constants as JSON values, which hold no inf/nan, and TOML
    table keys are strings.
    """
    if isinstance(v, bool) or isinstance(v, str):
        return True
    if isinstance(v, int):
        return -(2**63) <= v < 2**63
    if isinstance(v, float):
        return math.isfinite(v)
    if isinstance(v, (list, tuple)):
        return all(representable(x) for x in v)
    if isinstance(v, dict):
        return all(isinstance(k, str) and representable(x) for k, x in v.items())
    return False
