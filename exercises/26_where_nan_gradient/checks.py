"""Checks for where_nan_gradient: three calls with 32 vectors of 3 components each. Every call holds zero vectors
(the unsafe points), vectors along one axis, tiny vectors (length 1e-6 to 1e-3), large ones (100 to 1000) and
ordinary ones, in random order. Then three gradient calls: jax.jit(jax.grad(loss)) with loss(v, w) = sum(w *
lengths(v)), for weights w drawn per call; the expected gradient of row i is w_i v_i / |v_i|, and 0 for a zero row.

jnp.where(sq > 0, sqrt(sq), 0) has the right values, but reverse mode runs through both of where's inputs: the
unselected sqrt(0) has derivative inf, and inf times the zero cotangent where gives it is NaN. The fix feeds the
unsafe function a safe stand-in (the double where), so its derivative is finite everywhere.
"""

import jax
import jax.numpy as jnp
import numpy as np

from jittrainer.authoring import as_floats, compare, count, float32_atol, is_compiled, msg, refuse_fetching
CHECKS = {
    "runs": "lengths runs under jax.jit",
    "values": "returns each vector's length (0 for the zero vector)",
    "grad_finite": "jax.grad of lengths is finite for every vector, zero vectors included",
    "grad_values": "the gradient is v / |v|, and 0 at the zero vector",
    "one_compile": "the values and the gradients compile once each",
}

ROWS, DIM = 32, 3
CALLS = 3
V_RTOL = 1e-5  # and float32_atol of the length: a zero vector's length must be exactly 0
G_RTOL, G_ATOL = 1e-4, 1e-5
SAFE_TIER = 2  # the hint tier that explains both of where's branches and the safe stand-in
KINDS = ["zero"] * 4 + ["axis"] * 3 + ["tiny"] * 3 + ["large"] * 2 + ["ordinary"] * 20


# -- graded values ---------------------------------------------------------------------------------------------


def make_row(rng: np.random.Generator, kind: str) -> np.ndarray:
    if kind == "zero":
        return np.zeros(DIM)
    if kind == "axis":
        row = np.zeros(DIM)
        row[rng.integers(DIM)] = rng.choice([-1.0, 1.0]) * rng.uniform(0.1, 10.0)
        return row
    direction = rng.normal(size=DIM)
    direction /= np.linalg.norm(direction)
    if kind == "tiny":
        return direction * 10.0 ** rng.uniform(-6.0, -3.0)
    if kind == "large":
        return direction * 10.0 ** rng.uniform(2.0, 3.0)
    return rng.normal(0.0, rng.uniform(0.5, 3.0), DIM)


def make_call(rng: np.random.Generator):
    kinds = list(KINDS)
    rng.shuffle(kinds)
    v = np.stack([make_row(rng, k) for k in kinds]).astype(np.float32)
    w = (rng.choice([-1.0, 1.0], ROWS) * rng.uniform(0.5, 2.0, ROWS)).astype(np.float32)
    return v, w, kinds


def expected_lengths(v: np.ndarray) -> np.ndarray:
    return np.sqrt(np.sum(v.astype(np.float64) ** 2, axis=-1))


def expected_grad(v: np.ndarray, w: np.ndarray) -> np.ndarray:
    v64 = v.astype(np.float64)
    n = expected_lengths(v)
    safe = np.where(n > 0, n, 1.0)
    return np.where((n > 0)[:, None], w.astype(np.float64)[:, None] * v64 / safe[:, None], 0.0)


def describe(kind: str, v_row: np.ndarray):
    length = float(np.linalg.norm(v_row.astype(np.float64)))
    if kind == "zero":
        return msg("row.zero", "the zero vector")
    if kind == "axis":
        return msg("row.axis", "a vector along one axis, length {n:.3g}", n=length)
    if kind == "tiny":
        return msg("row.tiny", "a tiny vector, length {n:.2g}", n=length)
    if kind == "large":
        return msg("row.large", "a large vector, length {n:.4g}", n=length)
    return msg("row.ordinary", "an ordinary vector, length {n:.4g}", n=length)


def _rows(indices) -> list[str]:
    return [str(int(i) + 1) for i in indices]


# -- advice ----------------------------------------------------------------------------------------------------


def safe_advice():
    return msg("advice.double_where", "never let sqrt see the unsafe input, not even in the branch where throws "
               "away: safe = jnp.where(sq > 0, sq, 1.0), then jnp.where(sq > 0, jnp.sqrt(safe), 0.0)")


def runs_advice(error):
    if error.type in ("TracerBoolConversionError", "ConcretizationTypeError"):
        return msg("advice.no_if", "a Python if cannot test traced values: choose per element with jnp.where, "
                   "and give sqrt a safe input where the vector is zero")
    return None


def _where_lines(g) -> list[int]:
    return g.lines_calling(r"\bwhere\b|\bselect\b", g.function_name)


# -- grading ---------------------------------------------------------------------------------------------------


def grade(g):
    lengths = g.graded(params=1)
    cases = [make_call(g.rng) for _ in range(CALLS)]
    calls = g.calls(lengths, [(v,) for v, _, _ in cases])
    g.check_ran("runs", calls, runs_advice, tier=SAFE_TIER)
    _check_values(g, cases, calls.results)

    def gradient_of_lengths(v, w):  # named for the compile list: the grader's jit of the gradient of lengths
        return jnp.sum(w * lengths(v))

    grad = g.jit_spy.real(jax.grad(gradient_of_lengths))  # the grader's own jit: not one of the learner's
    gcalls = g.calls(grad, [(v, w) for v, w, _ in cases], name="jax.grad")
    if _check_grad_finite(g, cases, gcalls, lengths):
        _check_grad_values(g, cases, gcalls.results)
    _check_compiles(g, calls, gcalls)


def _check_values(g, cases, results) -> None:
    for call, ((v, _, kinds), result) in enumerate(zip(cases, results), 1):
        want = expected_lengths(v)
        got = as_floats(result, (ROWS,))
        if got is None:
            ok, why = compare(result, want, what=msg("what.call", "the result of call {call}", call=call))
            g.failed("values", why, safe_advice(), tier=SAFE_TIER)
            return
        close = np.isclose(got, want, rtol=V_RTOL, atol=float32_atol(want))
        if close.all():
            continue
        row = int(np.flatnonzero(~close)[0])
        common = {"call": call, "row": row + 1, "what": describe(kinds[row], v[row]), "got": float(got[row]) + 0.0,
                  "want": float(want[row])}
        if kinds[row] == "zero" and np.isnan(got[row]):
            observation = msg("values.zero_nan", "row {row} of call {call} ({what}) came out NaN: the zero "
                              "vector's length is 0", **common)
        elif kinds[row] == "zero" and 0 < got[row] < 1e-2:
            observation = msg("values.zero_eps", "row {row} of call {call} ({what}) came out {got:.4g}, not 0: "
                              "something added under the square root (an epsilon) shifts every length, and the "
                              "zero vector's most of all", **common)
        elif kinds[row] == "zero":
            observation = msg("values.zero_leak", "row {row} of call {call} ({what}) came out {got:.4g}, not 0: the "
                              "safe stand-in given to sqrt must not reach the result; where the vector is zero, "
                              "return 0", **common)
        elif kinds[row] == "tiny" and got[row] > want[row]:
            observation = msg("values.eps", "row {row} of call {call} ({what}) came out {got:.4g} where {want:.4g} "
                              "was expected: something added under the square root (an epsilon) changes every "
                              "small length", **common)
        else:
            observation = msg("values.wrong", "row {row} of call {call} ({what}) came out {got:.6g} where {want:.6g} "
                              "was expected", **common)
        g.failed("values", observation, safe_advice(), tier=SAFE_TIER)
        return
    refuse_fetching(g, "values", passed=msg("values.ok", "all {n} lengths match", n=ROWS * CALLS))


def _check_grad_finite(g, cases, gcalls, lengths) -> bool:
    if not gcalls.ok:
        error = gcalls.error_message()
        if is_compiled(lengths):
            g.failed("grad_finite", msg(
                "grad.compiled", "{error}: lengths is compiled ahead of time, and jax.grad cannot differentiate a "
                "compiled executable, only a function it can trace", error=error),
                msg("advice.jit", "jit lengths (@jax.jit) instead of compiling it ahead of time"))
        else:
            g.failed("grad_finite", msg("grad.raised", "{error}: jax.grad could not differentiate lengths",
                                        error=error), safe_advice(), tier=SAFE_TIER)
        return False
    for call, ((v, _, kinds), result) in enumerate(zip(cases, gcalls.results), 1):
        got = as_floats(result, (ROWS, DIM))
        if got is None:
            g.failed("grad_finite", msg("grad.shape", "jax.grad of call {call} did not give one gradient per "
                                        "vector", call=call))
            return False
        bad = np.flatnonzero(~np.all(np.isfinite(got), axis=-1))
        if bad.size == 0:
            continue
        zeros = [i for i, k in enumerate(kinds) if k == "zero"]
        where = _where_lines(g)
        common = {"call": call, "rows": _rows(bad)}
        if sorted(bad.tolist()) == zeros and where:
            observation = msg(
                "grad.where_line", "jax.grad gave NaN for rows {rows} of call {call}, exactly the zero vectors, "
                "though their lengths came out right (0). Line {line} chooses 0 for them with where, but the "
                "gradient flows back into both of where's inputs: the branch it threw away still computed sqrt at "
                "0, whose derivative is inf, and inf times the 0 that where sends back to that branch is NaN",
                line=where[0], **common)
        elif sorted(bad.tolist()) == zeros:
            observation = msg(
                "grad.zeros", "jax.grad gave NaN for rows {rows} of call {call}, exactly the zero vectors, though "
                "their lengths came out right (0): somewhere the gradient flows through sqrt (or a division) at 0, "
                "whose derivative is inf; multiplied by a zero gradient, inf becomes NaN", **common)
        else:
            observation = msg(
                "grad.rows", "jax.grad gave NaN or inf for rows {rows} of call {call}, row {row} first ({what})",
                row=int(bad[0]) + 1, what=describe(kinds[int(bad[0])], v[int(bad[0])]), **common)
        g.failed("grad_finite", observation, safe_advice(), tier=SAFE_TIER)
        return False
    g.passed("grad_finite", msg("grad.finite_ok", "every gradient is finite, zero vectors included"))
    return True


def _check_grad_values(g, cases, results) -> None:
    for call, ((v, w, kinds), result) in enumerate(zip(cases, results), 1):
        want = expected_grad(v, w)
        got = as_floats(result, (ROWS, DIM))
        close = np.all(np.isclose(got, want, rtol=G_RTOL, atol=G_ATOL), axis=-1)
        if close.all():
            continue
        row = int(np.flatnonzero(~close)[0])
        common = {"call": call, "row": row + 1, "what": describe(kinds[row], v[row]),
                  "got": ", ".join(f"{x + 0.0:.4g}" for x in got[row]),
                  "want": ", ".join(f"{x + 0.0:.4g}" for x in want[row])}
        if kinds[row] == "zero":
            observation = msg("grad.zero_value", "the gradient for row {row} of call {call} ({what}) is ({got}), "
                              "not 0: at the zero vector the contract takes the gradient to be 0", **common)
        elif kinds[row] == "tiny":
            observation = msg("grad.tiny", "the gradient for row {row} of call {call} ({what}) is ({got}) where "
                              "({want}) was expected: near 0 the function was changed (an epsilon, a clamp that "
                              "reaches this far), so its slope is wrong there", **common)
        else:
            observation = msg("grad.wrong", "the gradient for row {row} of call {call} ({what}) is ({got}) where "
                              "({want}) was expected", **common)
        g.failed("grad_values", observation, safe_advice(), tier=SAFE_TIER)
        return
    g.passed("grad_values", msg("grad.values_ok", "all {n} gradients match", n=ROWS * CALLS))


def _check_compiles(g, calls, gcalls) -> None:
    n_values, n_grads = calls.compiles, gcalls.compiles
    if n_values == 1 and n_grads == 1:
        g.passed("one_compile", msg("compiles.ok", "the values compiled once, the gradients once"))
        return
    head = msg("compiles.head", "{calls} of lengths gave {compiles}, and {calls} of its gradient gave {gcompiles}; "
               "expected 1 each", calls=count("call", CALLS), compiles=count("compile", n_values),
               gcompiles=count("compile", n_grads))
    worst = calls if n_values != 1 else gcalls
    misses = worst.reasons()
    if any(miss.kind == "new_function" for miss in misses):
        g.failed("one_compile", msg(
            "compiles.new_function", "{head}: a new function (or a new jax.jit) was made on every call, so nothing "
            "compiled before could be reused", head=head), msg("advice.jit_once", "jit lengths once, at module "
                                                                "level"))
    elif any(miss.kind == "jax_internal" for miss in misses):
        g.failed("one_compile", msg(
            "compiles.eager", "{head}: some compiles are jax.numpy operations run eagerly, outside the compiled "
            "program", head=head), msg("advice.inside", "keep the work inside lengths, which jit compiles once"))
    else:
        g.failed("one_compile", msg("compiles.why", "{head} ({why})", head=head, why=worst.why_compiled()))
