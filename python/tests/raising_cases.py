"""A function that raises and asserts, for ``test_raise_assert_del.py``: kept out of the test
module, whose ``assert`` statements pytest rewrites (CPython's message would not be its own)."""


def validate(text):
    words = text.split()
    assert len(words) < 14, f"too many words: {len(words)}"
    assert text.strip()
    if text.startswith(" " * 18):
        raise ValueError(f"indented {len(text) - len(text.lstrip())} spaces")
    if any(c.isdigit() for c in text[:3]):
        raise KeyError(text[:3])
    if "(" in text:
        raise IndexError
    if ")" in text:
        raise TypeError()
    if text.endswith(","):
        raise RuntimeError(len(words))
    if text.endswith("."):
        raise ZeroDivisionError(None)
    return words
