"""Python's ``random`` module in ``anyproc.script`` and anyscript source: for the same seed, the
same numbers, shuffles, samples and choices as CPython 3.11 (masking for a masked language model
on real text, word dropout, sampling examples, random programs of every method), and CPython's
errors."""

from __future__ import annotations

import random
from random import Random, choices, sample, shuffle

import anyproc
import pytest
from conftest import ASSETS, corpus_lines
from test_formatting import check_all, check_source, outcome

# ---- functions of the kind preprocessing code draws numbers in


def mask_tokens(lines, vocab, seed):
    # BERT's `create_masked_lm_predictions`, per token: 15% are chosen; of those 80% become
    # [MASK], 10% a random word of the vocabulary, 10% stay.
    rng = random.Random(seed)
    out = []
    for line in lines:
        tokens = line.lower().split()
        cand = list(range(len(tokens)))
        rng.shuffle(cand)
        n_pred = min(20, max(1, int(round(len(tokens) * 0.15))))
        labels = []
        for i in sorted(cand[:n_pred]):
            if rng.random() < 0.8:
                masked = "[MASK]"
            elif rng.random() < 0.5:
                masked = tokens[i]
            else:
                masked = vocab[rng.randint(0, len(vocab) - 1)]
            labels.append((i, tokens[i]))
            tokens[i] = masked
        out.append((" ".join(tokens), labels))
    return out


def mask_tokens_with(lines, vocab, rng):
    return mask_tokens_rng(lines, vocab, rng)


def mask_tokens_rng(lines, vocab, rng):
    out = []
    for line in lines:
        tokens = line.lower().split()
        for i in range(len(tokens)):
            if rng.random() < 0.15:
                tokens[i] = "[MASK]" if rng.random() < 0.8 else vocab[rng.randrange(len(vocab))]
        out.append(tokens)
    return out


def reseeded(rng):
    rng.seed(99)
    return rng.random()


def word_dropout(lines, p, seed):
    rng = Random(seed)
    kept = []
    for line in lines:
        words = [w for w in line.split() if rng.random() >= p]
        if not words and line.split():
            words = [rng.choice(line.split())]
        kept.append(" ".join(words))
    return kept


def sample_examples(lines, seed):
    # The module's generator, seeded, through names imported from it.
    random.seed(seed)
    picked = sample(lines, k=min(len(lines), 25))
    order = list(range(len(picked)))
    shuffle(order)
    weights = [len(line) for line in lines]
    by_length = choices(lines, weights=weights, k=5) if lines else []
    return picked, order, by_length, random.random(), random.uniform(10, 20), random.getrandbits(33)


def every_method(seed, n):
    rng = random.Random(seed)
    out = []
    for i in range(n):
        kind = rng.randrange(12)
        if kind == 0:
            out.append(rng.random())
        elif kind == 1:
            out.append(rng.getrandbits(rng.randrange(0, 64)))
        elif kind == 2:
            a = rng.randint(-10**12, 10**12)
            out.append(rng.randint(a, a + rng.randrange(1, 10**9)))
        elif kind == 3:
            start, stop = rng.randrange(-500, 500), rng.randrange(-500, 500)
            step = rng.choice([-7, -3, -1, 2, 5, 11])
            if (stop - start) * step > 0:
                out.append(rng.randrange(start, stop, step))
        elif kind == 4:
            xs = list(range(rng.randrange(0, 30)))
            rng.shuffle(xs)
            out.append(xs)
        elif kind == 5:
            # Both of `sample`'s ways: a pool for small populations, a set of indices for large.
            pop = list(range(rng.choice([5, 21, 22, 60, 300, 5000])))
            out.append(rng.sample(pop, rng.randrange(0, min(len(pop), 40) + 1)))
        elif kind == 6:
            out.append(rng.choices("abcdefg", k=rng.randrange(0, 6)))
        elif kind == 7:
            w = [rng.random() for _ in range(5)]
            out.append(rng.choices([10, 20, 30, 40, 50], weights=w, k=3))
        elif kind == 8:
            out.append(rng.choices("xyz", cum_weights=[1, 3, 6], k=4))
        elif kind == 9:
            out.append(rng.uniform(-rng.random(), 3))
        elif kind == 10:
            out.append(rng.choice(["a", "b", (1, 2), 3.5]))
        else:
            rng.seed(rng.getrandbits(32))
            out.append("reseeded")
    return out


def seeds_of_every_type(seed):
    rng = random.Random(seed)
    a = [rng.random(), rng.getrandbits(20)]
    rng.seed(seed, version=1)
    a.append(rng.random())
    rng.seed(seed, 2)
    a.append(rng.randrange(1000))
    return a


def random_errors(case):
    rng = random.Random(case)
    calls = [
        lambda: rng.randrange(0),
        lambda: rng.randrange(5, 2),
        lambda: rng.randrange(1.5),
        lambda: rng.randrange(3.0),
        lambda: rng.randrange(1, 5, 0),
        lambda: rng.randrange(1, 5, -1),
        lambda: rng.randrange(10, step=2),
        lambda: rng.randint(1),
        lambda: rng.randint(1, 2, 3),
        lambda: rng.randint(5, 2),
        lambda: rng.random(1),
        lambda: rng.getrandbits(),
        lambda: rng.getrandbits(-1),
        lambda: rng.getrandbits(1.5),
        lambda: rng.choice([]),
        lambda: rng.choice(""),
        lambda: rng.choice(5),
        lambda: rng.choice({1: 2}),
        lambda: rng.sample({1, 2}, 1),
        lambda: rng.sample({"a": 1}, 1),
        lambda: rng.sample([1, 2], 3),
        lambda: rng.sample([1, 2], -1),
        lambda: rng.sample([1, 2]),
        lambda: rng.shuffle("abc"),
        lambda: rng.shuffle((1, 2)),
        lambda: rng.shuffle(5),
        lambda: rng.choices([1, 2], 3),
        lambda: rng.choices([1, 2], [1]),
        lambda: rng.choices([1, 2], [0, 0]),
        lambda: rng.choices([1, 2], [1, 2], cum_weights=[1, 2]),
        lambda: rng.choices([], k=2),
        lambda: rng.choices([1, 2], k=1.5),
        lambda: rng.uniform("a", 1),
        lambda: random.Random([]),
        lambda: random.Random(1, 2),
        lambda: rng.seed(1, 2, 3),
        lambda: rng.seed((1, 2)),
    ]
    out = []
    for call in calls:
        try:
            out.append(repr(call()))
        except (TypeError, ValueError, IndexError, KeyError, OverflowError) as e:
            out.append(f"{type(e).__name__}: {e}")
    # The generator moved as CPython's did, errors and all.
    out.append(rng.random())
    return out


def vocab_words():
    with open(ASSETS / "bert-base-uncased" / "vocab.txt", encoding="utf-8") as f:
        return [line.rstrip("\n") for line in f]


SEEDS = [0, 1, 42, 12345, -7, 2**32, 2**63 - 1, -(2**63), 0.5, -2.25, 1e300, "seed", "ünïcödé", "日本", b"\x00abc",
         b"", "", True, False, "long seed " * 500]


def test_masking_equals_cpython_on_real_text():
    lines = corpus_lines(300)
    vocab = vocab_words()
    check_all(mask_tokens, [(lines, vocab, s) for s in (0, 1, 12345, "run-7")])


def test_dropout_and_sampling_equal_cpython_on_real_text():
    lines = corpus_lines(200)
    check_all(word_dropout, [(lines, p, s) for p in (0.0, 0.1, 0.5, 1.0) for s in (3, 99)])
    check_all(sample_examples, [(lines, 5), (lines[:3], 6), (lines[:30], "x"), ([], 1)])


def test_every_method_draws_what_cpython_draws():
    check_all(every_method, [(seed, 300) for seed in range(40)])


def test_seeds_of_every_type():
    check_all(seeds_of_every_type, [(s,) for s in SEEDS])


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_errors_equal_cpython():
    check_all(random_errors, [(s,) for s in (0, 1, 2)])


def test_an_unseeded_generator_draws_from_the_os():
    def first_draws():
        a, b = random.Random(), random.Random()
        return [a.random() for _ in range(4)], [b.random() for _ in range(4)]

    a, b = anyproc.script(first_draws)()
    assert a != b and all(0.0 <= x < 1.0 for x in a + b)


def test_a_generator_goes_to_python_and_back_and_keeps_its_place():
    def make(seed):
        return random.Random(seed)

    def draw(rng):
        return rng.random()

    ours = anyproc.script(make)(9)
    theirs = random.Random(9)
    assert [anyproc.script(draw)(ours) for _ in range(3)] == [theirs.random() for _ in range(3)]
    assert "<random.Random object at 0x" in repr(ours)


def test_a_python_generator_moves_on_as_cpython_s():
    # BERT's pretraining script makes its `rng` in Python and hands it to each call: the script
    # draws from where Python's generator stands, and Python's moves on as far as it drew.
    lines = corpus_lines(40)
    vocab = vocab_words()
    ours, theirs = random.Random(11), random.Random(11)
    ours.gauss(0, 1), theirs.gauss(0, 1)  # a pending `gauss_next` is kept too
    masked = anyproc.script(mask_tokens_with)
    for line in lines:
        assert masked([line], vocab, ours) == mask_tokens_with([line], vocab, theirs)
        assert ours.getstate() == theirs.getstate()
    assert ours.gauss(0, 1) == theirs.gauss(0, 1)


def test_a_failing_call_still_moves_the_generator_on():
    def draw_then_fail(rng, n):
        xs = [rng.random() for _ in range(n)]
        return xs[n]

    ours, theirs = random.Random(3), random.Random(3)
    assert outcome(anyproc.script(draw_then_fail), ours, 5) == outcome(draw_then_fail, theirs, 5)
    assert ours.getstate() == theirs.getstate()
    # Reseeding in the script clears `gauss_next`, as `seed` does in Python.
    ours.gauss(0, 1), theirs.gauss(0, 1)
    anyproc.script(reseeded)(ours), reseeded(theirs)
    assert ours.getstate() == theirs.getstate()


def length_noise(lines, seed):
    # Augmentation noise over real lines: a jittered length, a dropout rate, a span length.
    rng = random.Random(seed)
    out = []
    for line in lines:
        words = line.split()
        keep = max(1, int(len(words) * rng.triangular(0.5, 1.0, 0.9)))
        rate = min(0.5, rng.expovariate(10))
        span = rng.paretovariate(2.5)
        shift = rng.gauss(0, 0.1 * (len(words) + 1)) + rng.normalvariate(mu=len(line), sigma=2)
        scale = rng.lognormvariate(0, 0.25) * rng.weibullvariate(1, 1.5)
        out.append((" ".join(words[:keep]), rate, span, shift, scale))
    random.seed(seed)
    out.append((random.gauss(), random.gauss(sigma=3), random.normalvariate(), random.expovariate(lambd=1),
                random.triangular(mode=0.2), random.lognormvariate(1, 2), random.paretovariate(1),
                random.weibullvariate(2, 3)))
    return out


def shape_draws(seed):
    # The gamma family across its three methods (alpha below, at and above 1), beta from two
    # gammas, von Mises angles (and the uniform angle of kappa near 0).
    r = random.Random(seed)
    out = []
    for a, b in [(0.3, 2), (1, 1.5), (1.0, 3), (2.5, 0.5), (7, 1), (0.05, 1)]:
        out.append((r.gammavariate(a, b), r.betavariate(a, b), r.vonmisesvariate(a, b), r.vonmisesvariate(-a, 0)))
    random.seed(seed)
    out.append((random.gammavariate(alpha=2, beta=3), random.betavariate(0.5, beta=0.5),
                random.vonmisesvariate(mu=1, kappa=4)))
    return out


def gauss_pairs(rng, n, reseed):
    # `gauss` keeps the second deviate of each pair for the next call; `seed` drops it.
    out = [rng.gauss() for _ in range(n)]
    if reseed:
        rng.seed(reseed)
    return out + [rng.gauss(1, 2)]


def distribution_errors(case):
    r = random.Random(1)
    calls = [lambda: r.expovariate(0), lambda: r.gauss("a", 1), lambda: r.lognormvariate(1000, 1),
             lambda: r.paretovariate(0), lambda: r.weibullvariate(1, 0), lambda: r.triangular(0, 1, "x"),
             lambda: r.gauss(1, 2, 3), lambda: r.expovariate(), lambda: random.gauss(bad=1),
             lambda: r.lognormvariate(1), lambda: r.triangular(3, 3, 1), lambda: r.triangular(0, 1, 5),
             lambda: r.normalvariate(1, "s"), lambda: r.gammavariate(0, 1), lambda: r.gammavariate(1, -1),
             lambda: r.gammavariate("a", 1), lambda: r.betavariate(1, 0), lambda: r.vonmisesvariate("x", 1),
             lambda: r.vonmisesvariate("x", 0), lambda: r.vonmisesvariate(1, "k"), lambda: r.gammavariate(1),
             lambda: r.betavariate(alpha=1, b=2), lambda: r.randint(1, c=2)]
    return calls[case]()


def test_distributions_draw_what_cpython_draws():
    check_all(length_noise, [(corpus_lines(200), seed) for seed in (0, 1, 42, 2024)])


def test_gauss_keeps_its_second_deviate_across_calls_and_in_python():
    ours, theirs = random.Random(8), random.Random(8)
    scripted = anyproc.script(gauss_pairs)
    for n, reseed in [(1, 0), (2, 0), (3, 5), (1, 0), (0, 0)]:
        assert scripted(ours, n, reseed) == gauss_pairs(theirs, n, reseed)
        assert ours.getstate() == theirs.getstate()


def test_distribution_errors_equal_cpython():
    check_all(distribution_errors, [(i,) for i in range(23)])


def wrong_counts(case):
    # CPython counts a method's `self` in these messages; `k` and `cum_weights` are keyword-only.
    r = random.Random(1)
    calls = [lambda: r.choices([1], [1], [1], 2, k=1), lambda: r.choices([1], [1], [1], 2),
             lambda: random.choices([1], [1], [1], 2), lambda: r.randint(1, 2, 3), lambda: r.sample([1], 1, 2, 3),
             lambda: r.choices([1], self=1), lambda: r.gauss(1, 2, 3, 4), lambda: random.gauss(1, 2, 3, 4),
             lambda: r.choices(), lambda: r.randint(1), lambda: r.uniform(1, 2, 3, b=5),
             lambda: r.triangular(1, 2, 3, 4, mode=1), lambda: r.choices([1, 2], None, None, k=3)]
    return calls[case]()


def test_wrong_argument_counts_equal_cpython():
    check_all(wrong_counts, [(i,) for i in range(13)])


def test_gamma_beta_and_von_mises_draw_what_cpython_draws():
    check_all(shape_draws, [(seed,) for seed in range(200)])


def test_other_generators_are_not_converted():
    with pytest.raises(TypeError, match="cannot convert a Python SystemRandom"):
        anyproc.script(reseeded)(random.SystemRandom())


@pytest.mark.parametrize("name", ["random", "randint", "choice", "shuffle", "sample", "choices", "randrange", "gauss",
                                  "triangular", "expovariate"])
def test_module_functions_are_ops(name):
    assert f"random.{name}" in anyproc.list_global_funcs()
    op = anyproc.get_global_func("random.seed")
    op(5)
    random.seed(5)
    args = {"random": (), "randint": (1, 100), "choice": ("abc",), "shuffle": ([1, 2, 3],), "sample": ("abcdef", 3),
            "choices": ("abc",), "randrange": (0, 50, 5), "gauss": (1, 2), "triangular": (0, 4, 3),
            "expovariate": (2,)}[name]
    assert outcome(anyproc.get_global_func(f"random.{name}"), *args) == outcome(getattr(random, name), *args)


def test_the_text_front_end():
    source = """
def draws(seed, words):
    words = list(words)
    rng = random.Random(seed)
    picked = rng.sample(words, 3)
    rng.shuffle(words)
    random.seed(seed)
    return picked, words, rng.choices(words, k=2), random.randint(1, 10), rng.random()
"""
    words = " ".join(corpus_lines(5)).split()
    check_source(source, "draws", [(s, list(words)) for s in (0, 1, "a")], {"random": random})
