"""Checks for nan_hunting: three batches of 16 rows of 8 logits. Every batch holds one row of each edge kind (all
zeros, tiny values, every logit far below 0, every logit far above 0, a few logits far above the rest, one logit far
below the rest, one far above and one far below), in random order, and ordinary rows; the far values lie from 200 to
1000 away from 0, drawn per row.

The naive entropy makes NaN in two places: exp overflows (inf / inf) or every exp underflows (0 / 0) in the softmax's
division; and a probability that underflows to 0 meets log(0) = -inf in the product (0 * -inf). The results must be
finite and right, and no operation of the program may make a NaN on the graded batches, even one that is masked or
replaced later: the grader replays the traced program operation by operation (OpReplay: into jitted calls, scan and
while bodies, the branch a cond takes and the learner's own custom_jvp / custom_vjp rules; JAX's own functions, xlogy
and entr among them, whole), with a NaN test after each one. A NaN hidden with where or nan_to_num is still made, and
it comes back under grad.
"""

import numpy as np

from jittrainer.authoring import (OpReplay, as_floats, compare, msg, one_compile, refuse_fetching, when_eager,
                                  when_new_function)

CHECKS = {
    "runs": "entropy runs under jax.jit",
    "finite": "every row's entropy is a finite number",
    "values": "every row's entropy is right",
    "nan_free": "no operation inside makes a NaN, not even one thrown away later",
    "one_compile": "three batches compile once",
}

ROWS, K = 16, 8
CALLS = 3
RTOL, ATOL = 1e-4, 1e-3  # float32, logits up to 1000: a few ulps of 1000 is ~2e-4
LOG_K = float(np.log(K))
FIX_TIER = 2  # the hint tier that names log-softmax (subtract the max) and the 0 * log 0 trap
EDGE_KINDS = ("zeros", "tiny", "all_low", "all_high", "top_ties", "one_low", "extremes")


# -- graded values ---------------------------------------------------------------------------------------------


def _big(rng: np.random.Generator) -> float:
    return float(rng.uniform(200.0, 1000.0))


def make_row(rng: np.random.Generator, kind: str):
    """One row of 8 logits of the given kind, and its description for messages."""
    if kind == "zeros":
        return np.zeros(K), msg("row.zeros", "all logits 0")
    if kind == "tiny":
        return (rng.choice([-1.0, 1.0], K) * 10.0 ** rng.uniform(-30.0, -20.0, K),
                msg("row.tiny", "logits of size 1e-30 to 1e-20"))
    if kind in ("all_low", "all_high"):
        big = _big(rng)
        sign = -1.0 if kind == "all_low" else 1.0
        row = sign * big + rng.normal(0.0, 2.0, K)
        if kind == "all_low":
            return row, msg("row.all_low", "every logit near -{big:.0f}", big=big)
        return row, msg("row.all_high", "every logit near +{big:.0f}", big=big)
    row = rng.normal(0.0, 3.0, K)
    if kind == "top_ties":
        big = _big(rng)
        top = rng.choice(K, int(rng.integers(2, 4)), replace=False)
        row[top] = big + rng.normal(0.0, 1.0, top.size)
        return row, msg("row.top_ties", "{n} logits near +{big:.0f}, the others small", n=int(top.size), big=big)
    if kind == "one_low":
        big = _big(rng)
        row[rng.integers(K)] = -big
        return row, msg("row.one_low", "one logit at -{big:.0f}, the others small", big=big)
    if kind == "extremes":
        high, low = _big(rng), _big(rng)
        i, j = rng.choice(K, 2, replace=False)
        row[i], row[j] = high, -low
        return row, msg("row.extremes", "one logit at +{high:.0f} and one at -{low:.0f}", high=high, low=low)
    return rng.normal(0.0, rng.uniform(0.5, 5.0), K), msg("row.ordinary", "ordinary logits")


def make_batch(rng: np.random.Generator):
    kinds = list(EDGE_KINDS) + ["ordinary"] * (ROWS - len(EDGE_KINDS))
    rng.shuffle(kinds)
    rows = [make_row(rng, kind) for kind in kinds]
    # The noise around a far value may cross ±1000: the statement promises logits from -1000 to 1000.
    return np.clip(np.stack([r for r, _ in rows]), -1000, 1000).astype(np.float32), [d for _, d in rows], kinds


def expected(logits: np.ndarray) -> np.ndarray:
    """Entropy in nats of softmax(row), in float64, stably."""
    z = logits.astype(np.float64)
    z = z - z.max(axis=-1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))
    return -(np.exp(logp) * logp).sum(axis=-1)


# -- replaying the program operation by operation ---------------------------------------------------------------


def _replay(g) -> OpReplay | None:
    closed = g.graded_jaxpr()
    if closed is None:
        return None
    return OpReplay(closed, g.filename, g.jit_spy.real)  # the grader's own jit: not one of the learner's


def _culprit(replay: OpReplay | None, batches):
    """(call, primitive name, line) of the first NaN-making operation over the batches, or None."""
    if replay is None:
        return None
    for call, logits in enumerate(batches, 1):
        eqn = replay.first((logits,))
        if eqn is not None:
            return call, eqn.primitive.name, replay.line_of(eqn)
    return None


def _made(op: str, line: int | None):
    """'div on line 9 (inf / inf or 0 / 0)' in words."""
    causes = {
        "div": msg("cause.div", "inf / inf or 0 / 0: an exp that overflowed to inf, or a sum of exps that all "
                   "underflowed to 0"),
        "mul": msg("cause.mul", "0 × inf: a probability that underflowed to 0, times its log, -inf"),
        "log": msg("cause.log", "the log of a negative number"),
        "sub": msg("cause.sub", "inf - inf: two infinities cancelling"),
        "add": msg("cause.add", "inf + (-inf): two infinities cancelling"),
    }
    cause = causes.get(op)
    if line is not None and cause is not None:
        return msg("made.line_cause", "{op} on line {line} ({cause})", op=op, line=line, cause=cause)
    if line is not None:
        return msg("made.line", "{op} on line {line}", op=op, line=line)
    if cause is not None:
        return msg("made.cause", "{op} ({cause})", op=op, cause=cause)
    return msg("made.op", "the operation {op}", op=op)


# -- advice ----------------------------------------------------------------------------------------------------


def fix_advice():
    return msg("advice.log_softmax", "work in log space: logp = jax.nn.log_softmax(logits, axis=-1) subtracts "
               "each row's max before exp, so nothing overflows; then -jnp.sum(jnp.exp(logp) * logp, axis=-1) "
               "multiplies an underflowed 0 by a finite logp, never by log(0)")


def runs_advice(error):
    if error.type in ("TracerBoolConversionError", "ConcretizationTypeError", "TracerArrayConversionError"):
        return msg("advice.no_branch", "no Python if, float() or NumPy on traced values: keep the whole computation "
                   "in jax.numpy, and make it safe for every row instead of testing rows")
    return None


# -- grading ---------------------------------------------------------------------------------------------------


def grade(g):
    entropy = g.graded(params=1)
    batches = [make_batch(g.rng) for _ in range(CALLS)]
    logits = [b[0] for b in batches]
    calls = g.calls(entropy, [(x,) for x in logits])
    g.check_ran("runs", calls, runs_advice, tier=FIX_TIER)

    replay = _replay(g)
    try:
        culprit = _culprit(replay, logits)
        replayed = True
    except Exception:  # a program the replay cannot run: judge the results alone
        culprit, replayed = None, False
    results = [as_floats(r, (ROWS,)) for r in calls.results]
    if _check_finite(g, batches, calls.results, results, culprit):
        _check_values(g, batches, results, culprit)
    hidden = all(r is not None and bool(np.isfinite(r).all()) for r in results)
    _check_nan_free(g, culprit, replayed, hidden)
    _check_compiles(g, calls)


def _check_finite(g, batches, raw, results, culprit) -> bool:
    for call, ((logits, descriptions, _), got) in enumerate(zip(batches, results), 1):
        if got is None:
            ok, why = compare(raw[call - 1], expected(logits),
                              what=msg("what.call", "the result of call {call}", call=call))
            g.failed("finite", why or msg("finite.shape", "call {call} did not return 16 numbers", call=call))
            return False
        bad = np.flatnonzero(~np.isfinite(got))
        if bad.size == 0:
            continue
        row = int(bad[0])
        common = {"call": call, "n": int(bad.size), "row": row + 1, "what": descriptions[row],
                  "value": "nan" if np.isnan(got[row]) else str(got[row])}
        if culprit is not None:
            observation = msg(
                "finite.made", "call {call} returned {value} for {n} of its 16 rows, row {row} first ({what}). "
                "Replayed operation by operation, the program first makes a NaN in {made}: that is where "
                "jax_debug_nans would stop", made=_made(culprit[1], culprit[2]), **common)
        else:
            observation = msg("finite.bad", "call {call} returned {value} for {n} of its 16 rows, row {row} first "
                              "({what})", **common)
        g.failed("finite", observation, fix_advice(), tier=FIX_TIER)
        return False
    g.passed("finite", msg("finite.ok", "all {n} entropies are finite", n=ROWS * CALLS))
    return True


def _check_values(g, batches, results, culprit) -> None:
    for call, ((logits, descriptions, kinds), got) in enumerate(zip(batches, results), 1):
        want = expected(logits)
        close = np.isclose(got, want, rtol=RTOL, atol=ATOL)
        if close.all():
            continue
        row = int(np.flatnonzero(~close)[0])
        common = {"call": call, "row": row + 1, "what": descriptions[row], "got": float(got[row]) + 0.0,
                  "want": float(want[row])}
        if abs(got[row]) <= ATOL and culprit is not None:
            observation = msg(
                "values.nan_replaced", "row {row} of call {call} ({what}) came out {got:.4g} where {want:.4g} was "
                "expected: inside, the program made a NaN, in {made}, and it was replaced by 0 afterwards; replacing "
                "a NaN hides it, but the number it stands for is still lost", made=_made(culprit[1], culprit[2]),
                **common)
        elif abs(got[row] - LOG_K) <= ATOL and kinds[row] in ("all_low", "all_high", "top_ties"):
            observation = msg(
                "values.flattened", "row {row} of call {call} ({what}) came out {got:.4g}, log 8, the entropy of 8 "
                "equal probabilities, where {want:.4g} was expected: the differences between the large logits were "
                "lost (clipping them to a bound makes them all equal); only the differences between logits matter",
                **common)
        else:
            observation = msg("values.wrong", "row {row} of call {call} ({what}) came out {got:.6g} where {want:.6g} "
                              "was expected", **common)
        g.failed("values", observation, fix_advice(), tier=FIX_TIER)
        return
    refuse_fetching(g, "values", msg(
        "values.host", "the entropies match, but entropy hands its logits to Python through {callbacks} and uses "
        "what comes back: they are computed on the host, outside the compiled program, where no NaN can be hunted"),
        fix_advice(), tier=FIX_TIER, passed=msg("values.ok", "all {n} entropies match", n=ROWS * CALLS))


def _check_nan_free(g, culprit, replayed, hidden: bool) -> None:
    if culprit is None:
        if replayed:
            g.passed("nan_free", msg("nan_free.ok", "replayed operation by operation, no operation made a NaN"))
        else:
            g.passed("nan_free", msg("nan_free.not_replayed", "the program could not be replayed operation by "
                                     "operation; judged by its results alone"))
        return
    call, op, line = culprit
    advice = msg("advice.no_nan", "do not compute the NaN at all: in log space (jax.nn.log_softmax) every term is "
                 "finite, and exp(logp) * logp is 0 where the probability underflows")
    if hidden:
        observation = msg(
            "nan_free.hidden", "every result is finite, yet on call {call}'s logits the program makes a NaN, in "
            "{made}, and throws it away afterwards (a where, nan_to_num or isnan test picks another value): "
            "jax_debug_nans, which checks only what a jitted function returns, cannot see it; checkify's nan_checks "
            "can, and under jax.grad it comes back as a NaN gradient", call=call, made=_made(op, line))
    else:
        observation = msg("nan_free.made", "on call {call}'s logits, the program makes a NaN, in {made}", call=call,
                          made=_made(op, line))
    g.failed("nan_free", observation, advice, tier=FIX_TIER)


def _check_compiles(g, calls) -> None:
    one_compile(g, calls, msg("compiles.head", "{calls} of one shape gave {compiles}; expected 1"),
                msg("compiles.ok", "compiled once, then reused for every batch"), [
        when_new_function(advice=msg("advice.jit_once", "jit entropy once, at module level")),
        when_eager(msg("compiles.eager", "{head}: the extra compiles are {names}, jax.numpy operations run eagerly, "
                       "outside the compiled program"),
                   msg("advice.inside", "keep the work inside entropy, which jit compiles once"))])
