"""Functions with ``try``/``except`` for ``test_try.py``, run under CPython and anyproc: kept
out of the test module so that pytest's assertion rewriting leaves them as written."""


def parse_numbers(text):
    out = []
    for w in text.split():
        try:
            out.append(int(w))
        except ValueError:
            try:
                out.append(float(w))
            except ValueError as e:
                out.append(str(e)[:30])
    return out


def lookups(text):
    counts = {}
    for w in text.lower().split():
        try:
            counts[w] += 1
        except KeyError:
            counts[w] = 1
    firsts = []
    for i in range(4):
        try:
            firsts.append(text.split()[i][0])
        except IndexError as e:
            firsts.append(f"<{e}>")
            break
        else:
            firsts.append("ok")
    return [counts, firsts]


def ratio(a, b):
    return a / b


def arithmetic(text):
    n = len(text)
    results = []
    for d in (0, 1, n % 3, -1):
        try:
            results.append(ratio(n, d))
        except ZeroDivisionError as e:
            results.append(str(e))
        except (TypeError, ValueError):
            results.append("never")
    try:
        results.append(1.0 / (n - n))
    except ArithmeticError:
        results.append("overflow")
    return results


def nested_and_reraised(text):
    log = []
    try:
        try:
            log.append(text[100])
        except KeyError:
            log.append("not here")
        log.append("after inner")
    except LookupError as e:
        log.append("outer: " + str(e))
    try:
        if len(text) % 2:
            raise ValueError(f"odd {len(text)}")
        assert text.count(" ") < 9, "spaces"
        log.append("even")
    except (ValueError, AssertionError) as e:
        log.append(repr(str(e)))
    try:
        v = {"a": 1}[text[:1]]
    except Exception as e:
        v = -1
        log.append(len(str(e)) >= 0)
    return [log, v]


def handler_fails(text):
    try:
        return int(text)
    except ValueError:
        return {}[text]


def loop_control(text):
    out = []
    for w in text.split():
        try:
            if w.isdigit():
                continue
            if w == "Debian":
                break
            out.append(w[5])
        except IndexError:
            out.append("-")
    return out


def unbound_after(text):
    try:
        n = int(text)
    except ValueError as e:
        message = str(e)
    else:
        message = "number"
    return [message, n]


def clause_left_by_an_error(text):
    # An error raised in an `except ... as e` clause deletes `e` as it leaves the clause (the
    # differential test, seed 983, found it kept); one caught inside the clause does not.
    out = []
    for w in text.split()[:6]:
        try:
            try:
                out.append(int(w))
            except ValueError as e:
                try:
                    out.append(float(w))
                except ValueError:
                    out.append("kept: " + str(e)[:20])
                out.append(int(w + "0x"))
        except ValueError:
            try:
                out.append(str(e))
            except NameError as gone:
                out.append(str(gone))
    return out
