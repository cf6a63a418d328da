# Loops over a list that their own body changes, run both by anyproc's interpreter and by
# CPython (tests/interp_cpython.rs): a loop must see every change made while it runs, as
# CPython's does. Kept apart from anyscript_cases.py, whose functions tests/mutated_scripts.rs
# mutates: a mutant of these easily grows its list forever, as it would in CPython.


def mutate_while_iterating(text):
    # Items appended, replaced ahead of the loop, removed and inserted, and the list emptied,
    # in lists longer than the interpreter reads ahead at once (eight items).
    words = (text.split() + ["pad"] * 12)[:20]
    seen = []
    for w in words:
        seen.append(w)
        if len(words) < 30:
            words.append(w.upper())
    for i in range(len(words) - 1, 9, -1):
        words.pop(i)
    later = []
    n = 0
    for w in words:
        later.append(w)
        n += 1
        if n == 2:
            words[5] = "replaced"
            words[9] = "end"
        if n == 4:
            words.pop(0)
            words.insert(7, "inserted")
        if w == "end":
            words.clear()
    return [seen, later, words]


def nested_loops_over_one_list(text):
    # Two loops over the same list at once, the inner one changing it.
    chars = [c for c in text[:12]]
    pairs = []
    for a in chars:
        for b in chars:
            if b == a and len(chars) < 24:
                chars.append(b + "!")
        pairs.append(a + str(len(chars)))
    return pairs


CASES = ["mutate_while_iterating", "nested_loops_over_one_list"]

if __name__ == "__main__":
    from anyscript_cases import print_cases  # the driver beside this file

    print_cases(globals(), CASES)
