"""Checks for numpy_on_tracer: attention_weights(q, k) = softmax(q @ k.T / sqrt(8)) over each row, under jax.jit.

NumPy functions cannot read a tracer (TracerArrayConversionError); the fix is jax.numpy. The weights must be computed
inside the compiled program (no host callback that hands results back), right over the whole range of scores (tiny,
ordinary, and large enough that exp overflows float32 without the max subtraction, with a query far below the rest
that a shift by the whole array's maximum underflows, plus ties and a zero query), and four calls of one shape
compile once.
"""

import re

import numpy as np

from jittrainer.authoring import (as_floats, count, float32_atol, msg, one_compile, refuse_fetching, tracer_error,
                                  values_match, when_eager)

CHECKS = {
    "runs": "attention_weights runs under jax.jit",
    "in_program": "the weights are computed inside the compiled program, not by a host callback",
    "values": "returns softmax(q @ k.T / sqrt(8)) over each row",
    "one_compile": "four calls of one shape compile once",
}

Q_ROWS, K_ROWS, DIM = 4, 6, 8
OVERFLOW, UNDERFLOW = 88.7, 87.3  # exp(x) in float32 is inf above the first, 0 below minus the second (no subnormals)
KINDS = ("ordinary", "large", "small", "ties")  # one graded call each, in an order drawn from the seed
RTOL = 1e-3  # and atol(): scores reach the hundreds, and a weight's float32 rounding grows with them
JNP_TIER = 2  # the hint tier that names jax.numpy


# ------------------------------------------------------------------------------------------------ inputs


def make_inputs(rng: np.random.Generator, kind: str) -> tuple[np.ndarray, np.ndarray]:
    if kind == "large":  # the largest score is far above 88.7: exp without the max subtraction overflows
        while True:
            s = rng.uniform(5.0, 9.0)
            q = rng.normal(0.0, s, (Q_ROWS, DIM)).astype(np.float32)
            k = rng.normal(0.0, s, (K_ROWS, DIM)).astype(np.float32)
            tops = reference(q, k, raw=True).max(axis=1)
            if tops.max() > 120.0:  # another query near 0: a shift by the whole array's maximum underflows its row
                q[rng.choice([r for r in range(Q_ROWS) if r != tops.argmax()])] *= np.float32(rng.uniform(0.0, 0.1))
                return q, k
    if kind == "small":  # scores near 0: the weights are all close to 1/6
        s = rng.uniform(0.02, 0.2)
        return (rng.normal(0.0, s, (Q_ROWS, DIM)).astype(np.float32),
                rng.normal(0.0, s, (K_ROWS, DIM)).astype(np.float32))
    q = rng.normal(0.0, rng.uniform(0.8, 2.0), (Q_ROWS, DIM)).astype(np.float32)
    k = rng.normal(0.0, rng.uniform(0.8, 2.0), (K_ROWS, DIM)).astype(np.float32)
    if kind == "ties":  # two equal keys (equal weights in every row) and a zero query (a uniform row)
        a, b = rng.choice(K_ROWS, 2, replace=False)
        k[b] = k[a]
        q[rng.integers(Q_ROWS)] = 0.0
    return q, k


def atol(q, k) -> np.ndarray:
    """float32 rounding of a weight: 64 ulps of the row's sum (1) and of the weight times its row's largest |score|."""
    want, scores = reference(q, k), reference(q, k, raw=True)
    return float32_atol(1.0 + want * np.abs(scores).max(axis=-1, keepdims=True))


def reference(q, k, *, raw=False, axis=-1, scale=True, shift=True) -> np.ndarray:
    s = q.astype(np.float64) @ k.astype(np.float64).T
    if scale:
        s = s / np.sqrt(DIM)
    if raw:
        return s
    if shift:
        s = s - s.max(axis=axis, keepdims=True)
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.exp(s)
        return e / e.sum(axis=axis, keepdims=True)


# ------------------------------------------------------------------------------------------------ grading


def grade(g):
    attention_weights = g.graded(params=2)
    kinds = [KINDS[i] for i in g.rng.permutation(len(KINDS))]
    inputs = [make_inputs(g.rng, kind) for kind in kinds]
    calls = g.calls(attention_weights, inputs)
    g.check_ran("runs", calls, _advice_for_error, tier=JNP_TIER, explain=lambda error: _explain_error(g, error))
    check_in_program(g)
    check_values(g, inputs, kinds, calls.results)
    check_compiles(g, calls)


def _numpy_name(code: str) -> str | None:
    """The NumPy function a line calls on a value ("np.exp"), if any."""
    found = re.findall(r"\b((?:np|numpy|onp)\.(?:linalg\.)?\w+)\s*\(", code)
    return found[-1] if found else None


def _explain_error(g, error):
    line = error.line
    code = g.source.splitlines()[line - 1].strip() if line and line <= len(g.source.splitlines()) else ""
    if error.type == "TracerArrayConversionError":
        name = _numpy_name(code) if code else None
        if name:
            return msg("runs.numpy_line", "Line {line} hands a traced value to {name}: while jit traces "
                       "attention_weights, q, k and everything computed from them are tracers (a shape and a dtype, "
                       "no numbers yet), and a NumPy function needs the numbers, so it asks the tracer for them and "
                       "JAX refuses", line=line, name=name)
        return msg("runs.numpy", "A traced value reached NumPy: while jit traces attention_weights, q, k and "
                   "everything computed from them are tracers (a shape and a dtype, no numbers yet), and NumPy "
                   "needs the numbers, so it asks the tracer for them and JAX refuses")
    if tracer_error(error, "int", "bool"):
        return msg("runs.concrete", "A traced value was turned into a Python number (float(), math, .item(), an "
                   "if): under jit it has no value yet, only a shape and a dtype")
    return None


def _advice_for_error(error):
    if tracer_error(error):
        return msg("advice.jnp", "compute everything that depends on q and k with jax.numpy (import jax.numpy as "
                   "jnp; jnp.exp, jnp.max, jnp.sum): its functions are recorded into the compiled program. NumPy "
                   "stays fine for numbers known while tracing, such as np.sqrt(q.shape[-1])")
    return None


# ------------------------------------------------------------------------------------------------ in the program


def check_in_program(g):
    refuse_fetching(g, "in_program", msg(
        "program.callback", "the compiled program fetches its results from Python through {callbacks}: the weights "
        "are computed in Python on the host at run time, while the compiled program waits for them, then copies them "
        "in. jit compiles nothing of the softmax, and the callback costs a round trip to the host on every call"),
        msg("advice.no_callback", "drop the callback and write the same steps with jax.numpy inside "
            "attention_weights (jnp.max, jnp.exp, jnp.sum), so that they become part of the compiled program"),
        tier=JNP_TIER, passed=msg("program.ok", "the compiled program computes the weights itself: no host callback "
                                  "feeds it results"))


# ------------------------------------------------------------------------------------------------ values


def check_values(g, inputs, kinds, results):
    values_match(g, "values", results, (reference(q, k) for q, k in inputs), rtol=RTOL,
                 atol=lambda i: atol(*inputs[i - 1]),
                 slip=lambda i, result: _slip(result, *inputs[i - 1], kinds[i - 1], i),
                 advice=msg("advice.softmax", "keep the starter's steps: scores = q @ k.T / sqrt(8), subtract each "
                            "row's maximum (axis=-1, keepdims=True), exp, divide by each row's sum"), tier=1,
                 ok=msg("values.ok", "all {n} results match, tiny, ordinary and very large scores included",
                        n=len(results)))


def _slip(result, q, k, kind, i):
    """A known slip that explains a wrong result, or None."""
    got = as_floats(result, (Q_ROWS, K_ROWS), exact=True)
    if got is None:
        return None
    row_tops, bad = reference(q, k, raw=True).max(axis=1), np.flatnonzero(~np.all(np.isfinite(got), axis=1))
    top, r = float(row_tops.max()), int(bad[0]) if bad.size else 0
    if bad.size and np.all(row_tops[bad] < top - UNDERFLOW):  # every broken row is one a global shift underflows
        return msg("values.underflow", "call {i} holds NaN in row {row}: that query's scores are at most {row_top:.0f}, "
                   "{gap:.0f} below the largest score of the call ({top:.0f}). Subtracting one maximum for the whole "
                   "array pushes every exponent of that row below about -87, where exp underflows float32 to 0, and "
                   "then 0 / 0 is NaN. Each row's own maximum keeps that row's largest exponent at 0", i=i,
                   row=r + 1, row_top=float(row_tops[r]), gap=top - float(row_tops[r]), top=top)
    if bad.size and np.any(row_tops[bad] > OVERFLOW):
        return msg("values.overflow", "call {i} holds NaN or inf: its largest score is {top:.0f}, and exp of a "
                   "number above about 88.7 overflows float32 to inf (then inf / inf is NaN). Subtracting each row's "
                   "maximum before exp keeps every exponent at or below 0", i=i, top=top)
    tol = atol(q, k)
    close = lambda want: np.allclose(got, want, rtol=RTOL, atol=tol)  # noqa: E731
    if close(reference(q, k, axis=0)):
        return msg("values.axis0", "call {i}: the weights in each column sum to 1, not the weights in each row: "
                   "the softmax ran over axis 0 (the queries) instead of the last axis (the keys)", i=i)
    if close(reference(q, k, scale=False)):
        return msg("values.unscaled", "call {i} matches the softmax of q @ k.T without the 1 / sqrt(8) scale", i=i)
    s = reference(q, k, raw=True)
    e = np.exp(s - s.max())
    if close(e / e.sum()):
        return msg("values.whole", "call {i}: all 24 weights together sum to 1, so the maximum and the sum were "
                   "taken over the whole array, not over each row", i=i)
    if close(np.full_like(got, 1.0 / K_ROWS)) and kind != "small":
        return msg("values.uniform", "call {i} returned 1/6 everywhere, whatever q and k hold: the result does not "
                   "come from the scores", i=i)
    return None


# ------------------------------------------------------------------------------------------------ compiles


def check_compiles(g, calls):
    one_compile(g, calls, msg("compiles.head", "{calls} of one shape gave {compiles}; expected 1"),
                msg("compiles.ok", "compiled once, then reused for the other {calls}",
                    calls=count("call", len(KINDS) - 1)), [
        when_eager(msg("compiles.eager", "{head}: the extra compiles are {names}, JAX operations run eagerly, outside "
                       "the compiled program"),
                   msg("advice.inside", "keep every step inside attention_weights, written with jax.numpy"),
                   tier=JNP_TIER)],
        advice=msg("advice.once", "jit attention_weights once, at module level, with no static arguments"),
        tier=JNP_TIER)
