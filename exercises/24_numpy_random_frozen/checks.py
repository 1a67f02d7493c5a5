"""Checks for numpy_random_frozen: five calls, each with its own x; the keys come from four different seeds, one of
them used twice (two separate key objects made from the same seed). The noise of call i is result_i - x_i.

np.random inside jit runs once, while tracing: its numbers become a constant of the compiled program, so every key
gets the same noise (new_per_key), the program holds a captured float array, and a fresh trace draws other numbers
(drawn_from_key). A host callback that draws with NumPy at run time ignores the key (same_key), or, seeded from the
key's data, still draws on the host (drawn_from_key). The fix draws with jax.random from the key argument.
"""

import re

import jax
import numpy as np

from jittrainer.authoring import (
    as_floats,
    at_line,
    compare,
    constants_of,
    fetching,
    msg,
    one_compile,
    tracer_error,
    when_eager,
    when_new_function,
    when_static,
)

CHECKS = {
    "runs": "add_noise runs under jax.jit",
    "new_per_key": "different keys give different noise",
    "same_key": "the same key gives the same noise",
    "drawn_from_key": "the noise is drawn by the compiled program, from the key alone",
    "normal_noise": "the noise is NOISE × standard normal, one draw per element",
    "one_compile": "five calls compile once",
}

SHAPE = (64, 16)
SIZE = SHAPE[0] * SHAPE[1]
NOISE = 0.1
CALLS = 5
SAME_ATOL = 1e-4  # noise of two calls with one key: equal up to float32 rounding of x + noise (|x| <= 100)
TAILS = (16, 84)  # values beyond |z| > 2 among 1024: standard normal gives 47 ± 7; 15 or fewer has probability 4e-8
MAX_CORR = 0.3  # independent normal noise of 1024 values: |r| ~ 0.03
KEY_TIER = 2  # the hint tier that names jax.random and the key argument
EXAMPLE_SEEDS = (0, 1, 2, 42)  # seeds the statement and hints show; never drawn


# -- graded values ---------------------------------------------------------------------------------------------


def draw_seeds(rng: np.random.Generator) -> list[int]:
    """Five seeds: four different ones, one of them twice, in random order (never the statement's examples)."""
    while True:
        seeds = [int(s) for s in rng.integers(3, 2**31 - 1, 4)]
        if len(set(seeds)) == 4 and not set(seeds) & set(EXAMPLE_SEEDS):
            break
    seeds.append(seeds[int(rng.integers(4))])
    rng.shuffle(seeds)
    return seeds


def make_x(rng: np.random.Generator) -> np.ndarray:
    """float32[64, 16] with magnitudes from 0.001 to 100 and both signs, a few exact zeros."""
    x = rng.choice([-1.0, 1.0], SHAPE) * 10.0 ** rng.uniform(-3.0, 2.0, SHAPE)
    x.reshape(-1)[rng.choice(SIZE, 8, replace=False)] = 0.0
    return x.astype(np.float32)


def noise_of(result, x: np.ndarray) -> np.ndarray | None:
    """result - x in float64, or None when the result is not a float32[64, 16]-shaped array of numbers."""
    arr = as_floats(result, SHAPE, exact=True)
    return None if arr is None else arr - x.astype(np.float64)


def _corr(a: np.ndarray, b: np.ndarray) -> float:
    sa, sb = a.std(), b.std()
    if sa == 0 or sb == 0:
        return 0.0
    return float(((a - a.mean()) * (b - b.mean())).mean() / (sa * sb))


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return bool(np.allclose(a, b, rtol=0.0, atol=SAME_ATOL))


# -- advice ----------------------------------------------------------------------------------------------------


def use_key():
    return msg("advice.key", "draw the noise inside add_noise from its key argument with jax.random, "
               "jax.random.normal(key, x.shape): it is an operation of the compiled program, so every call draws "
               "again, from the key it was given")


def runs_advice(error):
    if tracer_error(error, "array", "int"):
        return msg("advice.no_numpy_key", "NumPy cannot use a traced key (or any traced value): draw with "
                   "jax.random.normal(key, x.shape), which takes the key as it is")
    if error.type in ("TypeError", "ValueError") and "hash" in error.message:
        return msg("advice.traced_key", "keep key an ordinary (traced) argument: no static_argnums or "
                   "static_argnames; a key is data, and one compiled program serves every key")
    return None


# -- grading ---------------------------------------------------------------------------------------------------


def grade(g):
    add_noise = g.graded(params=2)
    seeds = draw_seeds(g.rng)
    xs = [make_x(g.rng) for _ in seeds]
    keys = [jax.random.key(s) for s in seeds]  # built before the calls: making a key runs (and compiles) JAX ops
    calls = g.calls(add_noise, list(zip(xs, keys)))
    g.check_ran("runs", calls, runs_advice, tier=KEY_TIER)

    noises = [noise_of(r, x) for r, x in zip(calls.results, xs)]
    bad = next((i for i, n in enumerate(noises) if n is None), None)
    if bad is not None:
        ok, why = compare(calls.results[bad], xs[bad], what=msg("what.call", "the result of call {i}", i=bad + 1))
        g.failed("new_per_key", why or msg("values.shape", "call {i} did not return a float32[64, 16] array",
                                           i=bad + 1), use_key(), tier=KEY_TIER)
        return
    _check_new_per_key(g, seeds, noises)
    _check_same_key(g, seeds, noises)
    _check_drawn_from_key(g, add_noise, xs, keys, calls.results)
    _check_normal(g, noises)
    _check_compiles(g, calls)


def _captured_arrays(g) -> list:
    """Float arrays (of more than one distinct value) captured as constants of the traced program."""
    return [c.type for c in constants_of(g.graded_jaxpr(), nested=False)
            if (a := c.array) is not None and a.dtype.kind == "f" and a.size > 1 and np.ptp(a) > 0]


_HOST_RANDOM = r"(?<![\w.])(np|numpy)\.random\b"
# A bare ``random.`` is a host generator only when the file imports Python's random module or NumPy's.
_BARE_RANDOM = r"(?<![\w.])random\.\w+\s*\("
_IMPORTS_HOST_RANDOM = re.compile(r"^\s*(import\s+random\b|from\s+numpy\s+import\s+.*\brandom\b)", re.M)


def _numpy_random_lines(g) -> list[int]:
    """Lines that draw with a host random generator: in the graded function first, else anywhere."""
    pattern = _HOST_RANDOM
    if _IMPORTS_HOST_RANDOM.search(g.code):
        pattern = f"{_HOST_RANDOM}|{_BARE_RANDOM}"
    return g.lines_calling(pattern, g.function_name) or g.lines_calling(pattern)


def _check_new_per_key(g, seeds, noises):
    pairs = [(i, j) for i in range(CALLS) for j in range(i + 1, CALLS) if seeds[i] != seeds[j]]
    same = next(((i, j) for i, j in pairs if _same(noises[i], noises[j])), None)
    if same is None:
        tied = next(((i, j, r) for i, j in pairs if abs(r := _corr(noises[i], noises[j])) >= MAX_CORR), None)
        if tied is None:
            g.passed("new_per_key", msg("new.ok", "{n} different keys gave {n} different noises", n=len(set(seeds))))
            return
        i, j, r = tied
        g.failed("new_per_key", msg(
            "new.correlated", "calls {a} and {b} had different keys, yet their noises are correlated (r = {r:.2f}): "
            "part of the noise is the same in every call, something drawn once and reused", a=i + 1, b=j + 1, r=r),
            use_key(), tier=KEY_TIER)
        return
    i, j = same
    a, b = i + 1, j + 1
    if all(float(np.abs(n).max()) == 0.0 for n in noises):
        g.failed("new_per_key", msg("new.none", "every call returned x unchanged: no noise was added"), use_key(),
                 tier=KEY_TIER)
        return
    captured = _captured_arrays(g)
    lines = _numpy_random_lines(g)
    if captured:
        observation = at_line(lines, msg(
            "new.frozen_line", "calls {a} and {b} had different keys but got the very same noise: line {line} draws it "
            "with a host random generator (NumPy's or Python's), which ran once, while jit traced add_noise, and the "
            "numbers were baked into the compiled program as a constant ({const}); every call replays them, and the "
            "key is never used", a=a, b=b, const=captured[0]), msg(
            "new.frozen", "calls {a} and {b} had different keys but got the very same noise: it was drawn once, "
            "while jit traced add_noise, and baked into the compiled program as a constant ({const}); every call "
            "replays it", a=a, b=b, const=captured[0]))
    elif lines:
        observation = msg(
            "new.numpy_line", "calls {a} and {b} had different keys but got the very same noise: line {line} uses "
            "a host random generator (NumPy's or Python's), which runs while jit traces add_noise, not when the "
            "program runs; its numbers are fixed in the program and the key is never used", a=a, b=b,
            line=lines[0])
    else:
        observation = at_line(g.lines_calling(r"\brandom\.(key|PRNGKey)\s*\(", g.function_name), msg(
            "new.own_key_line", "calls {a} and {b} had different keys but got the very same noise: line {line} "
            "makes a key inside add_noise, from a fixed seed, so every call draws from that same key and the key "
            "argument is ignored", a=a, b=b), msg(
            "new.ignores_key", "calls {a} and {b} had different keys but got the very same noise: the noise does "
            "not depend on the key argument", a=a, b=b))
    g.failed("new_per_key", observation, use_key(), tier=KEY_TIER)


def _check_same_key(g, seeds, noises):
    i = next(i for i in range(CALLS) if seeds.count(seeds[i]) == 2)
    j = next(j for j in range(i + 1, CALLS) if seeds[j] == seeds[i])
    if _same(noises[i], noises[j]):
        g.passed("same_key", msg("same.ok", "calls {a} and {b}, given equal keys, drew the same noise", a=i + 1,
                                 b=j + 1))
        return
    fetched = fetching(g)
    if fetched:
        observation = msg(
            "same.callback", "calls {a} and {b} were given equal keys (made from the same seed) but drew different "
            "noise: the noise comes from Python through {callbacks} while the program runs, and NumPy's generator "
            "there keeps its own state instead of following the key", a=i + 1, b=j + 1, callbacks=fetched)
    else:
        observation = msg(
            "same.differs", "calls {a} and {b} were given equal keys (made from the same seed) but drew different "
            "noise: the noise must follow from the key alone, so the same key reproduces it", a=i + 1, b=j + 1)
    g.failed("same_key", observation, use_key(), tier=KEY_TIER)


def _check_drawn_from_key(g, add_noise, xs, keys, results):
    fetched = fetching(g)
    if fetched:
        g.failed("drawn_from_key", msg(
            "drawn.callback", "add_noise fetches its numbers from Python through {callbacks} while the program runs: "
            "the noise is drawn on the host, outside the compiled program, not by JAX's own random number "
            "generator", callbacks=fetched), use_key(), tier=KEY_TIER)
        return
    captured = _captured_arrays(g)
    if captured:
        g.failed("drawn_from_key", at_line(_numpy_random_lines(g), msg(
            "drawn.constant_line", "the traced program holds a captured constant, {const}: numbers drawn while "
            "tracing (line {line}, a host random generator) and frozen into the program", const=captured[0]), msg(
            "drawn.constant", "the traced program holds a captured constant, {const}: numbers drawn while tracing "
            "and frozen into the program", const=captured[0])), use_key(), tier=KEY_TIER)
        return
    # A fresh trace must give the same program: anything random drawn while tracing (a scalar, a seed) changes.
    try:
        jax.clear_caches()
        with g.recorder.mute():
            again = add_noise(xs[0], keys[0])
            jax.block_until_ready(again)
        moved = not _same(noise_of(again, xs[0]), noise_of(results[0], xs[0]))
    except Exception as exc:
        g.failed("drawn_from_key", msg(
            "drawn.retrace_error", "called again after JAX's caches were cleared, with call 1's x and key, "
            "add_noise raised {type}: {text}", type=type(exc).__name__, text=str(exc).splitlines()[0][:200]
            if str(exc) else ""))
        return
    if moved:
        g.failed("drawn_from_key", at_line(_numpy_random_lines(g), msg(
            "drawn.retrace_line", "after JAX's caches were cleared, add_noise was traced again and, with call 1's x "
            "and key, returned different noise: line {line} draws a random number while tracing, and every trace "
            "(every new process, every cleared cache) bakes in another one"), msg(
            "drawn.retrace", "after JAX's caches were cleared, add_noise was traced again and, with call 1's x and "
            "key, returned different noise: something random is drawn while tracing, and every trace (every new "
            "process, every cleared cache) bakes in another value")), use_key(), tier=KEY_TIER)
        return
    g.passed("drawn_from_key", msg("drawn.ok", "nothing random was captured, and a fresh trace drew the same noise "
                                   "from the same key"))


def _distinct(values: np.ndarray) -> int:
    """How many different values, counting values closer than float32 rounding of x + noise (|x| <= 100) as one."""
    ordered = np.sort(values)
    return 1 + int(np.sum(np.diff(ordered) > 2e-5))


def _check_normal(g, noises):
    for i, noise in enumerate(noises, 1):
        z = noise.reshape(-1) / NOISE
        distinct = _distinct(noise.reshape(-1))
        mean, std = float(z.mean()), float(z.std())
        inside = float(np.mean(np.abs(z) < 1.0))
        tails = int(np.sum(np.abs(z) > 2.0))
        if distinct < 0.8 * SIZE:
            g.failed("normal_noise", msg(
                "normal.shared", "call {i}: only {k} distinct noise values among the {n} elements: one draw was "
                "shared by many elements (a draw of another shape, broadcast); every element needs its own",
                i=i, k=distinct, n=SIZE), msg("advice.shape", "draw noise of x's own shape: "
                                               "jax.random.normal(key, x.shape)"), tier=3)
            return
        shaped = abs(mean) <= 0.2 and 0.85 <= std <= 1.15 and 0.61 <= inside <= 0.76  # mean, spread and centre
        if shaped and TAILS[0] <= tails <= TAILS[1]:
            continue
        advice = msg("advice.normal", "add NOISE times standard normal noise: x + NOISE * "
                     "jax.random.normal(key, x.shape)")
        sd = std * NOISE
        if abs(std - 1.0 / NOISE) <= 0.12 / NOISE and abs(mean) <= 0.15 / NOISE:
            observation = msg("normal.unscaled", "call {i}: the noise has standard deviation {sd:.3g}, not "
                              "NOISE = 0.1: it was not multiplied by NOISE", i=i, sd=sd)
        elif abs(std - NOISE) <= 0.12 * NOISE and abs(mean) <= 0.15:
            observation = msg("normal.twice", "call {i}: the noise has standard deviation {sd:.3g}, not 0.1: it "
                              "was multiplied by NOISE twice", i=i, sd=sd)
        elif 0.4 <= mean <= 0.6 and 0.25 <= std <= 0.33:
            observation = msg("normal.uniform", "call {i}: the noise lies between 0 and NOISE with mean {m:.3g}: "
                              "that is uniform noise on [0, 1) times NOISE, not standard normal noise", i=i,
                              m=mean * NOISE)
        elif shaped:
            observation = msg("normal.tails", "call {i}: {k} of the {n} noise values lie beyond two NOISE from 0, "
                              "where standard normal noise puts about 47 (from {low} to {high} pass): its mean, spread "
                              "and centre look right, but its tails do not (a draw truncated or clipped to a range "
                              "has too few)", i=i, k=tails, n=SIZE, low=TAILS[0], high=TAILS[1])
        else:
            observation = msg(
                "normal.stats", "call {i}: the noise has mean {m:.3g}, standard deviation {sd:.3g} and "
                "{inside:.0%} of its values within one NOISE of 0; NOISE × standard normal noise has mean 0, "
                "standard deviation 0.1 and about 68% within", i=i, m=mean * NOISE, sd=sd, inside=inside)
        g.failed("normal_noise", observation, advice, tier=3)
        return
    g.passed("normal_noise", msg("normal.ok", "every call's noise looks like 0.1 × standard normal noise"))


def _check_compiles(g, calls):
    one_compile(g, calls, msg("compiles.head", "{calls} with one shape gave {compiles}; expected 1"),
                msg("compiles.ok", "compiled once, then reused for every key"), [
        when_static(advice=msg("advice.traced", "keep x and key ordinary traced arguments: no static_argnums or "
                               "static_argnames"), tier=KEY_TIER),
        when_new_function(advice=msg("advice.jit_once", "jit add_noise once, at module level")),
        when_eager(msg("compiles.eager", "{head}: the extra compiles are {names}, JAX operations run eagerly, outside "
                       "the compiled program"),
                   msg("advice.inside", "keep the work inside add_noise, which jit compiles once"))])
