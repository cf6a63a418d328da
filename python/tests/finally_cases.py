"""Functions with ``try ... finally`` and bare ``raise`` that ``test_finally.py`` runs under CPython
and under anyproc.script on real text: the ``finally:`` block runs however its ``try`` ends (the
body ending, an error caught or not, ``return``, ``break``, ``continue``), a ``return`` in it wins,
an error in it replaces the one in flight; a bare ``raise`` raises the clause's error again."""
# ruff: noqa


def count_with_cleanup(text):
    log = []
    n = 0
    for w in text.split():
        try:
            if not w.isalpha():
                continue
            if len(w) > 9:
                break
            n += 1
        finally:
            log.append(w[:2])
    return n, log


def parse_ints(text):
    out = []
    for w in text.split()[:8]:
        try:
            out.append(int(w))
        except ValueError:
            out.append(-1)
        else:
            out.append(0)
        finally:
            out.append(len(w))
    return out


def return_through_finally(text):
    seen = []
    try:
        if text:
            return text[:3], seen
        seen.append("empty")
    finally:
        seen.append("finally")
    return "end", seen


def finally_return_wins(text):
    try:
        return int(text.split()[0]) if text.split() else None
    finally:
        if len(text) % 3 == 0:
            return "finally"


def error_passes_through(text):
    trail = []
    try:
        try:
            trail.append(len(text.split()[2]))
        finally:
            trail.append("inner")
    except IndexError as e:
        trail.append(str(e))
    return trail


def error_in_finally_replaces(text):
    try:
        try:
            return {"a": 1}[text[:1]]
        finally:
            if "e" in text:
                raise ValueError("from finally")
    except (KeyError, ValueError) as e:
        return "caught " + str(e)


def nested_loops_and_finally(text):
    words = text.split()
    out = []
    i = 0
    while i < len(words):
        try:
            for c in words[i]:
                try:
                    if c in "aeiou":
                        continue
                    if c.isdigit():
                        break
                    out.append(c)
                finally:
                    out.append("|")
            else:
                out.append("done")
        finally:
            i += 1
    return "".join(out)[:60]


def bare_raise_after_logging(text):
    log = []
    try:
        for w in text.split():
            try:
                log.append(int(w))
            except ValueError:
                log.append("?" + w)
                if len(log) > 3:
                    raise
    except ValueError as e:
        return log, str(e)
    return log, None


def bare_raise_of_the_right_error(text):
    try:
        try:
            return {"k": 1}[text]
        except KeyError:
            try:
                int(text)
            except ValueError:
                pass
            raise
    except KeyError as e:
        return "again " + str(e)
    except ValueError as e:
        return "value " + str(e)


def finally_sees_assignments(text):
    result = "start"
    try:
        result = text.split()[0]
        result = result + str(int(result))
    except (ValueError, IndexError):
        pass
    finally:
        result = result.upper()
    return result


def uncaught_error_leaves_after_finally(text):
    marks = []
    try:
        return len(text) // text.count("z")
    finally:
        marks.append(len(text))
