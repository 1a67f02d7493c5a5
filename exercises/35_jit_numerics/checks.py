"""Checks for jit_numerics: close_enough(expected, actual) is called as plain Python on pairs of float32 arrays and
must answer True or False.

Rounding pairs are real: the grader runs a small expression eagerly and under jax.jit, on the CPU, where XLA contracts
a multiply and an add into one fused multiply-add (one rounding instead of two), so the jitted result differs from
the eager one in the last bits on every seed. Bug pairs are that jitted result with a real error put in. Magnitudes
run from 1e-3 to 1e6 on every seed, and a residual with exact cancellations (eager zeros, jitted rounding residues)
sits at a large magnitude: a tolerance of fixed size, or one measured element by element, misjudges some pair.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from jittrainer.authoring import msg, type_of

CHECKS = {
    "runs": "close_enough answers every pair",
    "accepts_rounding": "accepts jitted results that differ from the eager ones only by float32 rounding",
    "rejects_bugs": "rejects results with a real error",
}

SIZES = [64, 100, 128, 181, 256]  # n: a few shapes, so eager jax.numpy in close_enough compiles a few times only
NOISE_BOUND = 1e-6  # rounding pairs: every element within this times max|expected| (measured: at most 1.2e-7)
BUG_BOUND = 1e-3  # bug pairs: some element off by at least this times max|expected|, or a NaN
ADVICE_TIER = 2  # the hint tier that gives the rule: a tolerance scaled by the largest magnitude
_JIT = [jax.jit]

EXPRESSIONS = {  # name -> (text, function): each contracts into a fused multiply-add under jit on XLA:CPU
    "affine": ("w * x + b", lambda w, x, b: w * x + b),
    "residual": ("y - w * x", lambda w, x, y: y - w * x),
    "standardize": ("(x - m) * s + c", lambda x, m, s, c: (x - m) * s + c),
}


# ------------------------------------------------------------------------------------------------ graded values


def _inputs(rng, kind, scale, n):
    root = np.sqrt(scale)
    u = lambda size, s: rng.uniform(-1, 1, size) * s  # noqa: E731
    if kind == "affine":
        return u(n, root), u(n, root), u(n, scale)
    if kind == "residual":  # y = w * x rounded exactly at about half the points: there the eager result is 0
        w, x = u(n, root).astype(np.float32), u(n, root).astype(np.float32)
        return w, x, np.where(rng.random(n) < 0.5, w * x, u(n, scale))
    return u(n, scale), u(1, scale), rng.uniform(0.5, 2.0, 1), u(1, scale)


def rounding_pair(rng, kind, scale):
    """The eager and the jitted result of one expression, at magnitude ``scale``; redrawn until they differ."""
    fn = EXPRESSIONS[kind][1]
    while True:
        n = int(rng.choice(SIZES))
        args = [jax.device_put(np.asarray(a, np.float32)) for a in _inputs(rng, kind, scale, n)]
        eager, jitted = fn(*args), _JIT[0](fn)(*args)
        if bool(jnp.any(eager != jitted)):
            return {"kind": kind, "scale": scale, "expected": eager, "actual": jitted, "bug": None}


def bug_pair(rng, kind, scale, bug):
    """A rounding pair whose jitted result then gets a real error, at least BUG_BOUND of max|expected|."""
    pair = rounding_pair(rng, kind, scale)
    e, a = np.asarray(pair["expected"]), np.array(pair["actual"])
    top, i = float(np.max(np.abs(e))), int(rng.integers(e.size))
    size = 10 ** rng.uniform(-2.99, -1.5)  # above BUG_BOUND even after the error is rounded to float32
    if bug == "one_element":
        a[i] += rng.choice([-1, 1]) * size * top
    elif bug == "scaled":
        a *= 1 + size
    elif bug == "offset":
        a += size * top
    elif bug == "nan":
        a[i] = np.nan
    elif bug == "swapped":
        j, k = int(np.argmax(e)), int(np.argmin(e))
        a[j], a[k] = a[k], a[j]
    else:  # "sign": the largest element with its sign flipped
        j = int(np.argmax(np.abs(e)))
        a[j] = -a[j]
    return {**pair, "actual": jax.device_put(a.astype(np.float32)), "bug": bug}


def make_pairs(rng):
    """Rounding pairs at magnitudes spread over 1e-3..1e6 (a residual with cancellations among the largest), an
    identical pair, and bug pairs over the same range (a one-element error at a small magnitude always among them),
    in a random order."""
    def scale(lo, hi):
        return float(10 ** rng.uniform(lo, hi))
    kinds = ["affine", "residual", "standardize"]
    pairs = [rounding_pair(rng, "residual", scale(4, 6)), rounding_pair(rng, "residual", scale(-3, -1)),
             rounding_pair(rng, "affine", scale(-3, 0)), rounding_pair(rng, "affine", scale(3, 6)),
             rounding_pair(rng, "standardize", scale(0, 3)), rounding_pair(rng, kinds[rng.integers(3)], scale(-3, 6))]
    same = rounding_pair(rng, "affine", scale(-3, 6))
    pairs.append({**same, "actual": jnp.array(same["expected"]), "bug": "none"})
    bugs = ["one_element", "scaled", "offset", "nan", "swapped", "sign"]
    pairs.append(bug_pair(rng, "affine", scale(-3, -1.5), "one_element"))
    pairs += [bug_pair(rng, kinds[rng.integers(3)], scale(-3, 6), b) for b in bugs]
    order = rng.permutation(len(pairs))
    return [pairs[i] for i in order]


# ------------------------------------------------------------------------------------------------ grading


def grade(g):
    close_enough = g.graded(params=2)
    _JIT[0] = g.jit_spy.real  # the grader's own jit: its calls are not the learner's
    pairs = make_pairs(g.rng)
    calls = g.calls(close_enough, [(p["expected"], p["actual"]) for p in pairs])
    g.check_ran("runs", calls)
    answers = [_answer(r) for r in calls.results]
    _judge(g, "accepts_rounding", pairs, answers, want=True)
    _judge(g, "rejects_bugs", pairs, answers, want=False)


def _answer(result):
    if isinstance(result, (bool, np.bool_)):
        return bool(result)
    if getattr(result, "shape", None) == () and getattr(result, "dtype", None) == np.bool_:
        return bool(result)
    return None


def _facts(number, pair, answer):
    e, a = np.asarray(pair["expected"], np.float64), np.asarray(pair["actual"], np.float64)
    top = float(np.max(np.abs(e)))
    diff = np.abs(a - e)
    worst = float(np.nanmax(diff))
    return {"pair": number, "expression": EXPRESSIONS[pair["kind"]][0], "n": e.size, "top": top,
            "differ": int(np.sum(a != e)), "worst": worst, "ratio": worst / top,
            "zeros": int(np.sum((e == 0) & (a != 0))), "answer": str(answer)}


def _judge(g, check, pairs, answers, want) -> None:
    for number, (pair, answer) in enumerate(zip(pairs, answers), 1):
        if (pair["bug"] is None or pair["bug"] == "none") != want:
            continue
        if answer is None:
            result = g.graded_calls[-1].records[number - 1].result
            g.failed(check, msg("answer.type", "pair {pair}: close_enough returned {type}; the contract answers True "
                                "or False", pair=number, type=type_of(result)),
                     msg("advice.bool", "return bool(...) of your comparison"), tier=1)
            return
        if answer == want:
            continue
        facts = _facts(number, pair, answer)
        if want:
            g.failed(check, _rounding_observation(pair, facts), msg(
                "advice.scaled", "compare against the largest magnitude: |actual - expected| <= 1e-5 * "
                "max|expected| for every element, with NaN failing"), tier=ADVICE_TIER)
        else:
            g.failed(check, _bug_observation(pair, facts), msg(
                "advice.scaled_bug", "scale the tolerance with max|expected| instead of a fixed atol, keep it far "
                "below 1e-3 of it, and make NaN fail (np.all(diff <= tol) is False for NaN)"), tier=ADVICE_TIER)
        return
    if want:
        g.passed(check, msg("rounding.ok", "every rounding pair was accepted, from magnitude 1e-3 to 1e6"))
    else:
        g.passed(check, msg("bugs.ok", "every pair with a real error was rejected, NaN included"))


def _rounding_observation(pair, facts):
    if pair["bug"] == "none":
        return msg("rounding.identical", "pair {pair}: close_enough returned False for two identical arrays", **facts)
    if facts["zeros"]:
        return msg("rounding.cancel", "pair {pair}: close_enough returned False for eager and jitted results of "
                   "{expression} (largest |value| {top:.3g}). {differ} of {n} elements differ, the most by {worst:.3g} "
                   "({ratio:.2g} of the largest value); {zeros} of them are exactly 0 eagerly, where y equals w * x "
                   "rounded, but not under jit: XLA fused the multiply and the subtract into one fused multiply-add, "
                   "which rounds once, so what is left there is the rounding error of w * x. Next to a 0, no tolerance "
                   "measured against each element accepts it, and a fixed one is too small at this magnitude",
                   **facts)
    return msg("rounding.fma", "pair {pair}: close_enough returned False for eager and jitted results of "
               "{expression} (largest |value| {top:.3g}). {differ} of {n} elements differ, the most by {worst:.3g} "
               "({ratio:.2g} of the largest value): eagerly each operation rounds its result to float32, while "
               "under jit XLA fused the multiply and the add into one fused multiply-add that rounds once. That is "
               "float32 rounding, not a bug", **facts)


def _bug_observation(pair, facts):
    what = {
        "one_element": msg("bug.one_element", "one element changed by {worst:.3g}", **facts),
        "scaled": msg("bug.scaled", "every element scaled by the same factor, the largest change {worst:.3g}", **facts),
        "offset": msg("bug.offset", "every element shifted by {worst:.3g}", **facts),
        "nan": msg("bug.nan", "one element replaced by NaN", **facts),
        "swapped": msg("bug.swapped", "the largest and the smallest element swapped", **facts),
        "sign": msg("bug.sign", "the sign of the largest element flipped", **facts),
    }[pair["bug"]]
    if pair["bug"] == "nan":
        return msg("bugs.nan", "pair {pair}: close_enough returned True for the jitted result of {expression} with "
                   "{what}: a NaN is never rounding, and a comparison that ignores it passes broken code", what=what,
                   **facts)
    return msg("bugs.missed", "pair {pair}: close_enough returned True for the jitted result of {expression} "
               "(largest |value| {top:.3g}) with {what}, {ratio:.2g} of the largest value: far more than float32 "
               "rounding can explain (about 1.2e-7 of it). At this magnitude, the tolerance is loose enough to hide "
               "a real error", what=what, **facts)
