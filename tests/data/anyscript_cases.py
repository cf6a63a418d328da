# Functions run both by anyproc's interpreter and by CPython (tests/interp_cpython.rs):
# every function takes one line of real text and must give the same result in both.
# Plain Python in the anyscript subset: no imports or classes; nested defs in shared_counts and
# scaled_numbers.


def unicode_split_any(word):
    ret = []
    for i in range(len(word)):
        res = word[i]
        ret.append(res)
    return ret


def count_vowels(text):
    n = 0
    for c in text.lower():
        if c in "aeiouäöüéèà":
            n += 1
    return n


def word_lengths(text):
    lengths = {}
    for word in text.split():
        lengths[word] = len(word)
    return lengths


def capitalize_words(text):
    out = []
    for word in text.split(" "):
        if word:
            out.append(word[0].upper() + word[1:].lower())
        else:
            out.append(word)
    return " ".join(out)


def first_long_word(text):
    for word in text.split():
        if len(word) >= 9:
            return word
    return None


def reverse_words(text):
    words = text.split()
    return " ".join(words[::-1]) + "|" + text[::-1][:10] + "|" + text[-5:] + "|" + text[2:20:3]


def char_histogram(text):
    counts = {}
    for c in text:
        if c.isalpha():
            counts[c] = counts.get(c, 0) + 1
    ranked = sorted([[-n, c] for c, n in counts.items()])
    return [[c, -n] for n, c in ranked[:5]]


def collatz_steps(text):
    n = len(text) + 1
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


def fizz(text):
    out = []
    for i in range(1, len(text) % 17 + 2):
        if i % 15 == 0:
            out.append("FizzBuzz")
        elif i % 3 == 0:
            out.append("Fizz")
        elif i % 5 == 0:
            out.append("Buzz")
        else:
            out.append(str(i))
    return out


def dedupe(text):
    seen = []
    for i, word in enumerate(text.lower().split()):
        if word not in seen and i % 2 == 0:
            seen.append(word)
    return seen


def pairs_with_break(text):
    words = text.split()
    found = []
    for a in words:
        if len(found) > 3:
            break
        for b in words:
            if a == b:
                continue
            if a[:1] == b[:1]:
                found.append(a + "+" + b)
                break
    return found


def numbers(text):
    digits = [c for c in text if c.isdigit()]
    total = 0
    for d in digits:
        total = total * 3 + int(d)
    ratio = len(digits) / (len(text) + 1)
    return [total % 1000003, round(ratio * 100, 2), len(digits) < 3 < len(text), -7 // 2, -7 % 3, 2 ** 10, abs(-3.5)]


def stats(text):
    lengths = [len(w) for w in text.split()]
    if not lengths:
        return [0, 0, 0, 0.0]
    a, b = min(lengths), max(lengths)
    mean = sum(lengths) / len(lengths)
    return [a, b, len(lengths), round(mean, 3)]


def tags(text):
    counts = {"upper": 0, "lower": 0, "digit": 0, "space": 0, "other": 0}
    for c in text:
        if c.isupper():
            counts["upper"] += 1
        elif c.islower():
            counts["lower"] += 1
        elif c.isdigit():
            counts["digit"] += 1
        elif c.isspace():
            counts["space"] += 1
        else:
            counts["other"] += 1
    keys = sorted(counts.keys())
    return [k + "=" + str(counts[k]) for k in keys if counts[k] > 0]


def clean(text):
    t = text.strip().replace("  ", " ").replace("\t", " ")
    if t.startswith("(") or t.endswith(")"):
        t = t.strip("()")
    parts = t.split(",")
    return [p.strip() for p in parts if len(p.strip()) > 0][:4]


def zipped(text):
    words = text.split()
    out = []
    for a, b in zip(words, words[1:]):
        out.append([a, b, a < b])
    return out[:3]


def nested(text):
    table = {"n": 0, "items": []}
    for w in text.split()[:6]:
        entry = {"word": w, "len": len(w)}
        table["items"].append(entry)
        table["n"] = table["n"] + 1
    return table


def find_all(text):
    positions = []
    start = 0
    while True:
        i = text.find("e", start)
        if i < 0:
            break
        positions.append(i)
        start = i + 1
    return [positions[:8], text.count("e"), text.rfind("a") if "a" in text else -1]


def wrap_lines(text):
    lines = []
    current = ""
    for word in text.split():
        if len(current) + len(word) + 1 > 24 and current != "":
            lines.append(current)
            current = word
        elif current == "":
            current = word
        else:
            current = current + " " + word
    if current:
        lines.append(current)
    return lines


def skip_and_stop(text):
    out = []
    i = 0
    while i < len(text):
        c = text[i]
        i += 1
        if c in "aeiou":
            continue
        if c == "z":
            break
        out.append(c)
    for j in range(4):
        if j == 1:
            continue
        for k in range(j, 10, 2):
            if k > 4:
                break
            out.append(str(j * 10 + k))
    return "".join(out)


def append_loops(text):
    # Loops that only append each element to a list (run as one extend when they can),
    # and the variables they leave behind.
    words = text.split()
    i = -1
    c = ""
    chars = []
    for i in range(len(text)):
        c = text[i]
        chars.append(c)
    j = -1
    by_index = []
    for j in range(len(text)):
        by_index.append(text[j])
    ch = ""
    letters = []
    for ch in text:
        letters.append(ch)
    w = ""
    copied = []
    for w in words:
        copied.append(w)
    k = -1
    word_list = []
    for k in range(len(words)):
        word_list.append(words[k])
    doubled = words[:]
    for m in range(len(doubled)):
        doubled.append(doubled[m])
    counts = {"b": 2, "a": 1}
    keys = []
    for key in counts:
        keys.append(key)
    comp = [x for x in text]
    comp_index = [text[n] for n in range(len(text))]
    return [chars, by_index, letters, copied, word_list, doubled, keys, comp, comp_index, i, c, j, ch, w, k]


def formatted(text):
    words = text.split()
    n = len(words)
    chars = len(text)
    share = n / (chars + 1)
    out = [f"{n:>4} words|{chars:05d}|{share:.4f}|{share:%}|{chars:,}|{chars:#x}|{-share:z.1f}"]
    for i, w in enumerate(words[:5]):
        out.append(f"{i:02}. {w!r:<14.10}|{w[:1]!a:^5}|{len(w) = }|{w:{'>' if i % 2 else '<'}{i + 3}}")
        line = "{0:>{1}}|{2!s:*^9}|{{}}".format(w[:8], 10, i)
        out.append(line + "%-6s|%3d|%5.1f%%" % (w[:6], len(w), 100 * len(w) / (chars or 1)))
    out.append(format(share, "e") + format(n, "b") + ascii(text[:6]) + "%(n)d:%(c)x" % {"n": n, "c": chars})
    return out


def top_words(text, k=3, min_len=1, ignore=("the", "a", "und")):
    counts = {}
    for w in text.lower().split():
        if len(w) >= min_len and w not in ignore:
            counts[w] = counts.get(w, 0) + 1
    return sorted(counts, key=lambda w: (-counts[w], w))[:k]


def ranked(text):
    words = text.split(maxsplit=8)
    by_len = sorted(words, key=len, reverse=True)
    longest = max(words, key=lambda w: (len(w), w), default=None)
    shortest = min(words, key=len, default="")
    words.sort(key=lambda w: w[-1:], reverse=True)
    numbered = [str(i) + ":" + w for i, w in enumerate(words, start=1)]
    halves = text.rsplit(sep=" ", maxsplit=2)
    tops = [top_words(text), top_words(text, k=1), top_words(text, min_len=4, k=2), top_words(k=2, text=text.upper())]
    return [by_len, longest, shortest, words, numbered, halves, tops, round(len(text) / 7, ndigits=2)]


def vocab_stats(text):
    words = text.lower().split()
    ids = {w: i for i, w in enumerate(sorted(words))}
    lengths = {w: len(w) for w in words if w.isalpha()}
    w = "kept"
    chars = sum(len(w) for w in words)
    shout = " ".join(w.upper() for w in words if len(w) > 3)
    digits = any(c.isdigit() for c in text)
    short = all(len(w) < 12 for w in words)
    nested = [[c for c in w[:3]] + [w] for w in words[:3]]
    return [ids, lengths, w, chars, shout, digits, short, nested, max((len(w) for w in words), default=0)]


def pruned(text):
    counts = {}
    for w in text.split():
        counts[w] = counts.get(w, 0) + 1
    for w in list(counts):
        if len(w) < 3:
            del counts[w]
    chars = list(text[:10])
    if len(chars) > 2:
        del chars[1], chars[-1]
    assert len(chars) <= 10, "a slice of ten has at most ten items"
    if len(counts) > 1000:
        raise ValueError("a line has fewer words")
    return [counts, chars]


def as_number(w):
    return int(w)


def safe_numbers(text):
    out = []
    for w in text.split():
        try:
            out.append(as_number(w))
        except ValueError as e:
            try:
                out.append(float(w))
            except ValueError:
                out.append(len(str(e)))
        else:
            out.append("int")
    try:
        first = text.split()[0]
        ratio = len(text) / (len(first) - len(first))
    except IndexError:
        ratio = "empty"
    except ZeroDivisionError as e:
        ratio = str(e)
    return [out, ratio]


def char_classes(text):
    # Sets of ints iterate in CPython's order, which anyproc keeps; sets of str do not (CPython
    # seeds its str hashes per process), so those are sorted.
    vowels = set("aeiou")
    seen = set()
    repeats = {c for c in text if c in seen or seen.add(c)}
    codes = {ord(c) % 64 for c in text}
    codes -= {32}
    lengths = {len(w) for w in text.split()}
    common = vowels & set(text.lower())
    return [sorted(repeats), list(codes), list(lengths), sorted(common), len(seen - vowels), vowels <= seen,
            list(lengths | {0, 64, 128}), [n for n in lengths if n in codes], sorted(seen ^ vowels)[:5]]


def shared_counts(text):
    seen = {}
    total = 0
    longest = ""

    def note(word):
        nonlocal total, longest
        total += 1
        seen[word] = seen.get(word, 0) + 1
        if len(word) > len(longest):
            longest = word
        return seen[word]

    repeats = 0
    for word in text.lower().split():
        if note(word) > 1:
            repeats += 1
    return [total, repeats, longest, len(seen)]


def scaled_numbers(text):
    def numbers(words):
        for w in words:
            try:
                yield int(w.strip(".,;:()"))
            except ValueError:
                continue

    scales = [lambda x, k=k: x * k for k in (1, 10)]
    return [f(n) for n in numbers(text.split()) for f in scales]


CASES = [
    "unicode_split_any", "count_vowels", "word_lengths", "capitalize_words", "first_long_word",
    "reverse_words", "char_histogram", "collatz_steps", "fizz", "dedupe", "pairs_with_break",
    "numbers", "stats", "tags", "clean", "zipped", "nested", "find_all", "wrap_lines",
    "skip_and_stop", "append_loops", "formatted", "ranked", "vocab_stats", "pruned", "safe_numbers",
    "char_classes", "shared_counts", "scaled_numbers",
]


def print_cases(functions, names):
    """Prints each function of ``names`` on each line of standard input, one JSON value a line
    (what tests/interp_cpython.rs compares; list_mutation_cases.py uses it too)."""
    import json
    import sys

    lines = sys.stdin.read().split("\n")
    for name in names:
        for line in lines:
            print(json.dumps(functions[name](line), ensure_ascii=False))


if __name__ == "__main__":
    print_cases(globals(), CASES)
