"""Checks for traced_if: heat(delta) with a traced delta of both signs and zero; the branch is chosen inside the
compiled program, and seven calls with seven different values compile once (a static delta compiles seven times)."""

import numpy as np

from jittrainer.authoring import (as_number, compare, msg, msgn, one_compile, outer_jit_advice, refuse_fetching,
                                  refuse_wrong_type, when_eager, when_static)

CHECKS = {
    "runs": "heat runs under jax.jit with a traced delta",
    "in_program": "chooses the formula inside the compiled program, without a host callback",
    "values": "returns the right formula for positive, negative and zero delta",
    "one_compile": "every value of delta shares one compile",
}

SIGNED = 3  # positive values and negative values per grading, besides 0.0
LOW, HIGH = 1e-3, 50.0  # magnitudes, drawn log-uniformly
RTOL, ATOL = 1e-5, 1e-6
EXAMPLES = (2.0, -4.0, 0.0)  # the values statement.md shows
SELECT_TIER = 2  # the hint tier that names jnp.where / lax.cond / lax.select
ZERO_TIER = 3  # the hint tier that spells out the comparison (> 0, zero takes the second formula)


def hot(delta: float) -> float:
    return 1.5 * delta + 2.0


def cold(delta: float) -> float:
    return 0.25 * delta


def expected(delta: float) -> float:
    return hot(delta) if delta > 0 else cold(delta)


def draw_deltas(rng: np.random.Generator) -> list[float]:
    """0.0 always; three positive and three negative values, one of each sign below 0.01 in size; random order."""
    def magnitudes():
        tiny = 10 ** rng.uniform(np.log10(LOW), -2)
        rest = 10 ** rng.uniform(np.log10(LOW), np.log10(HIGH), SIGNED - 1)
        return [float(np.float32(v)) for v in (tiny, *rest)]

    deltas = [0.0, *magnitudes(), *(-v for v in magnitudes())]
    return [deltas[i] for i in rng.permutation(len(deltas))]


# -- runs -------------------------------------------------------------------------------------------------------

def select_advice():
    return msg("advice.select", "let the compiled program choose at run time: jnp.where(delta > 0, 1.5 * delta + "
               "2.0, 0.25 * delta) computes both formulas and keeps one; lax.cond(delta > 0, hot, cold, delta) runs "
               "only the chosen function")


def explain_error(error):
    """Which pitfall the error shows, without the code to write."""
    text = error.message
    if error.type == "TracerBoolConversionError":
        return msg("why.bool", "under jit, delta is a tracer: it has a shape and a dtype but no value yet, so "
                   "Python cannot decide an if (nor while, and, or, min or max) on it while jit traces heat")
    if error.type == "ConcretizationTypeError":
        return msg("why.concrete", "float(), int() and .item() ask a tracer for its value, and while jit traces "
                   "heat there is none")
    if error.type == "TracerArrayConversionError":
        return msg("why.numpy", "NumPy functions need a concrete array, and while jit traces heat delta is a tracer")
    if "branches must have equal output types" in text:
        return msg("why.cond_types", "lax.cond compiles both branches into one program, so they must return the "
                   "same shape and dtype")
    if "Non-hashable static arguments" in text:
        return msg("why.unhashable", "a static argument must be hashable, and arrays are not")
    return None


def make_advice(error):
    if error.type in ("TracerBoolConversionError", "ConcretizationTypeError", "TracerArrayConversionError"):
        return select_advice()
    if "branches must have equal output types" in error.message:
        return msg("advice.cond_types", "make both branches return a float32 scalar: compute both from delta (0.25 "
                   "* delta, not a Python 0), or use jnp.where")
    return None


# -- values -----------------------------------------------------------------------------------------------------

def near(got: float | None, want: float) -> bool:
    return got is not None and abs(got - want) <= ATOL + RTOL * abs(want)


def check_values(g, deltas, results):
    if refuse_wrong_type(g, "values", ((r, msg("what.delta", "the result for delta = {delta:.4g}", delta=d)) for d, r
                         in zip(deltas, results)), (), "float32", msg("advice.scalar", "return the chosen value "
                         "itself, a float32 scalar of shape (): no reshape, no [None], no list"), tier=1):
        return None
    rows = [(d, r, as_number(r)) for d, r in zip(deltas, results)]
    wrong = [(d, r, v) for d, r, v in rows if not compare(r, expected(d), rtol=RTOL, atol=ATOL)[0]]
    if not wrong:
        return g.passed("values", msg("values.ok", "all {n} results match (delta = {deltas})", n=len(deltas),
                                      deltas=[f"{d:.4g}" for d in deltas]))
    got = {d: v for d, r, v in rows}
    wrong_d = [d for d, *_ in wrong]
    right_d = [d for d in deltas if d not in wrong_d]
    advice = msg("advice.formulas", "use delta > 0 to choose: 1.5 * delta + 2.0 when it holds, 0.25 * delta "
                 "otherwise (zero included)")
    slip = _slip(got, wrong_d, deltas)
    if slip is not None:
        return g.failed("values", slip, advice, tier=ZERO_TIER)
    d, r, _ = min(wrong, key=lambda w: abs(w[0]))
    _, why = compare(r, expected(d), rtol=RTOL, atol=ATOL,
                     what=msg("what.delta", "the result for delta = {delta:.4g}", delta=d))
    if right_d:
        why = msg("values.some_right", "{why}; for delta = {right} the results were right", why=why,
                  right=[f"{v:.4g}" for v in right_d])
    g.failed("values", why, advice, tier=ZERO_TIER)


def _slip(got, wrong_d, deltas):
    """A known slip that explains the wrong results, in words, or None."""
    if wrong_d == [0.0] and near(got[0.0], hot(0.0)):
        return msg("values.zero_hot", "for delta = 0 it returned {got:.4g}, the first formula (1.5 * delta + 2.0), "
                   "while every other value was right: zero was treated like a positive delta (as >= would, where "
                   "the statement has >); zero takes the second formula, 0.25 * delta = 0", got=got[0.0])
    if all(near(got[d], cold(d) if d > 0 else hot(d)) for d in deltas if d != 0.0):
        return msg("values.swapped", "every result used the other formula: 0.25 * delta for positive delta and "
                   "1.5 * delta + 2.0 for negative delta; the two branches are swapped")
    if all(near(got[d], hot(d)) for d in deltas):
        return msg("values.always_hot", "every result is 1.5 * delta + 2.0, negative delta and zero included: the "
                   "program never takes the second formula")
    if all(near(got[d], cold(d)) for d in deltas):
        return msg("values.always_cold", "every result is 0.25 * delta, positive delta included: the program never "
                   "takes the first formula")
    right = [d for d in deltas if d not in wrong_d]
    if right and all(d in EXAMPLES for d in right) and not any(d in EXAMPLES for d in wrong_d):
        return msgn("values.examples_only", "the result was right only for delta = {right}, a value the statement "
                    "shows, and wrong for delta = {wrong}: the result must follow delta for any value",
                    "the results were right only for delta = {right}, values the statement shows, and wrong for "
                    "delta = {wrong}: the result must follow delta for any value", count="k", k=len(right),
                    right=[f"{d:.4g}" for d in right], wrong=[f"{d:.4g}" for d in wrong_d])
    return None


# -- compiles ---------------------------------------------------------------------------------------------------

def check_compiles(g, calls):
    one_compile(g, calls, msg("compiles.head", "{calls} with different values of delta gave {compiles}; expected 1"),
                msg("compiles.ok", "compiled once; positive, negative and zero delta all ran the same program"), [
        when_static(msg("compiles.static", "{head}: delta is a static argument, so its value is part of the cache "
                        "key and every new temperature compiled a new program ({why}). A value that changes from "
                        "call to call is data, not configuration", why=calls.why_compiled(limit=1)),
                    msg("advice.traced", "remove the static marking and keep delta traced; {fix}",
                        fix=select_advice()), tier=SELECT_TIER),
        when_eager(advice=msg("advice.inside", "keep all the work inside heat, which jit compiles once"),
                   tier=SELECT_TIER)],
        advice=msg("advice.once", "jit heat once, at module level, with delta traced"), tier=SELECT_TIER)


def grade(g):
    advice = outer_jit_advice(g, make_advice, msg("advice.wrapped", "heat itself is not jitted, so the grader "
                                                  "wrapped all of it in jax.jit: delta is a tracer in your outer code "
                                                  "too. {fix}"))
    heat = g.graded(params=1)
    deltas = draw_deltas(g.rng)
    calls = g.calls(heat, [(d,) for d in deltas])
    g.check_ran("runs", calls, advice, tier=SELECT_TIER, explain=explain_error)

    refuse_fetching(g, "in_program", msg(
        "in_program.callback", "heat hands the answer back from Python through a host callback ({callbacks}) whose "
        "result the program uses: the if runs on the host, with a concrete delta, outside the compiled program, "
        "which dodges the lesson"), msg("advice.in_program", "keep the choice in JAX; {fix}", fix=select_advice()),
        tier=SELECT_TIER, passed=msg("in_program.ok", "the choice is made inside the compiled program"))

    check_values(g, deltas, calls.results)
    check_compiles(g, calls)
