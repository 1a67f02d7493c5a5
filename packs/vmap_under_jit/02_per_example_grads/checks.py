"""Checks for per_example_grads: the gradient of loss(w, x, y) = (w · x - y)² with respect to w, one row per
example, for a shared w of a drawn size D and four batches of N rows (1, D itself, and two other sizes from 2 to 16,
in a random order). The starter's vmap splits w along with the batch and fails to run; a fix must keep w whole
(in_axes None, a closure, or a batched formula) and return float32[N, D] rows that match 2 (w · x - y) x, computed in
the compiled program. Named slips: one gradient for the whole batch, a transposed result, the batch's mean gradient
repeated, the gradient with respect to x."""

import numpy as np

from jittrainer.authoring import compare, count, msg

CHECKS = {
    "runs": "per_example_grads runs under jax.jit",
    "shape": "returns one float32 gradient per example: an array of shape [N, D]",
    "values": "row i is the gradient of loss(w, xs[i], ys[i]) with respect to w",
    "in_program": "computes the gradients inside the compiled program, without a host callback",
}

IN_AXES_TIER = 2  # the hint tier that names in_axes


# -- inputs and the reference ---------------------------------------------------------------------------------

def draw_sizes(rng: np.random.Generator, d: int) -> list[int]:
    """1, D itself (a square batch) and two other sizes from 2 to 16, in a random order."""
    others = [n for n in range(2, 17) if n != d]
    sizes = [1, d, *(int(n) for n in rng.choice(others, 2, replace=False))]
    return [sizes[i] for i in rng.permutation(len(sizes))]


def grads(w: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    w, xs, ys = (a.astype(np.float64) for a in (w, xs, ys))
    return 2.0 * (xs @ w - ys)[:, None] * xs


def in_axes_advice():
    return msg("advice.in_axes", "tell vmap which arguments hold the batch: jax.vmap(jax.grad(loss), in_axes=(None, "
               "0, 0))(w, xs, ys) keeps w whole for every example and splits xs and ys along axis 0")


def explain(error):
    text = error.message
    if "inconsistent sizes" in text:
        return msg("runs.split_w", "vmap splits axis 0 of every argument unless in_axes says otherwise: here it tried "
                   "to split w, the weights every example shares, as if w were a batch too")
    if "scalar-output" in text:
        return msg("runs.not_scalar", "each example's loss came out as an array, not one number: an argument reached "
                   "loss whole where vmap should have split it (or split where it should have stayed whole)")
    return None


# -- the checks -----------------------------------------------------------------------------------------------

def shape_of(result) -> tuple | None:
    try:
        return tuple(int(n) for n in np.shape(result))
    except Exception:
        return None


def check_shape(g, batches, results) -> None:
    for call, ((w, xs, _), result) in enumerate(zip(batches, results), 1):
        n, d = xs.shape
        got = shape_of(result)
        dtype = str(getattr(result, "dtype", ""))
        if got == (n, d) and dtype == "float32":
            continue
        if got == (n, d) and dtype in ("float16", "bfloat16"):
            why = msg("shape.narrow", "call {call} returned {dtype} gradients; expected float32: {dtype} keeps 2 to 3 "
                      "significant digits, where the gradients are compared to about 4", call=call, dtype=dtype)
        elif got == (n, d):
            why = msg("shape.dtype", "call {call} returned {kind} of shape {got}; expected a float32 array", call=call,
                      kind=f"{dtype} array" if dtype else type(result).__name__, got=str(got))
        elif got == (d,):
            why = msg("shape.one", "call {call} ({n} examples) returned shape {got}: one gradient for the whole batch "
                      "(the gradient of the batch's loss), where the contract asks for one per example, shape {want}",
                      call=call, n=n, got=str(got), want=str((n, d)))
        elif got == (d, n):
            why = msg("shape.transposed", "call {call} returned shape {got}, the gradients as columns: expected one "
                      "row per example, shape {want} (vmap stacks along out_axes, 0 by default)", call=call,
                      got=str(got), want=str((n, d)))
        else:
            why = msg("shape.other", "call {call} ({n} examples, D = {d}) returned shape {got}; expected {want}",
                      call=call, n=n, d=d, got=str(got), want=str((n, d)))
        g.failed("shape", why, in_axes_advice(), tier=IN_AXES_TIER)
        return
    g.passed("shape", msg("shape.ok", "every result is float32 with one row per example (N = {sizes})",
                          sizes=[xs.shape[0] for _, xs, _ in batches]))


def check_values(g, batches, results) -> None:
    for call, ((w, xs, ys), result) in enumerate(zip(batches, results), 1):
        want = grads(w, xs, ys)
        what = msg("what.call", "the result of call {call}", call=call)
        ok, why = compare(result, want, rtol=1e-4, atol=1e-4, what=what)
        if ok:
            continue
        got = np.asarray(result, dtype=np.float64)
        n = xs.shape[0]
        advice = msg("advice.values", "differentiate each example's own loss with respect to w: {how}",
                     how=in_axes_advice())
        wrt_x = 2.0 * (xs.astype(np.float64) @ w - ys)[:, None] * w.astype(np.float64)[None, :]
        if compare(got, wrt_x, rtol=1e-4, atol=1e-4)[0]:
            why = msg("values.wrt_x", "{what} holds the gradients with respect to x, not w (x has w's shape, so the "
                      "shapes agree)", what=what)
            advice = msg("advice.argnums", "jax.grad(loss) differentiates argument 0, w: leave argnums at its default")
        elif n > 1 and np.allclose(got, got[:1], rtol=1e-5, atol=1e-6):
            mean = compare(got[0], want.mean(axis=0), rtol=1e-4, atol=1e-4)[0]
            why = msg("values.same_rows", "{what} has the same row for all {n} examples{mean}: a gradient of the whole "
                      "batch, repeated, where each example needs its own", what=what, n=n,
                      mean=msg("values.is_mean", " (the batch's mean gradient)") if mean else "")
        g.failed("values", why, advice, tier=IN_AXES_TIER)
        return
    g.passed("values", msg("values.ok", "all {calls} match 2 (w · x - y) x row by row",
                           calls=count("call", len(batches))))


def grade(g):
    per_example_grads = g.graded(params=3)
    d = int(g.rng.integers(2, 13))
    w = g.rng.normal(0.0, 1.0, d).astype(np.float32)
    batches = [(w, g.rng.normal(0.0, 2.0, (n, d)).astype(np.float32), g.rng.normal(0.0, 3.0, n).astype(np.float32))
               for n in draw_sizes(g.rng, d)]
    calls = g.calls(per_example_grads, batches)
    g.check_ran("runs", calls, lambda error: in_axes_advice(), tier=IN_AXES_TIER, explain=explain)
    check_shape(g, batches, calls.results)
    check_values(g, batches, calls.results)
    fetched = g.feeding_callbacks()
    g.check("in_program", not fetched,
            msg("in_program.callback", "per_example_grads gets its answer from Python through a host callback "
                "({callbacks}) whose result the program uses: the gradients are computed on the host, outside the "
                "compiled program, which dodges the lesson", callbacks=list(dict.fromkeys(fetched))),
            in_axes_advice(), tier=IN_AXES_TIER,
            passed=msg("in_program.ok", "the gradients are computed inside the compiled program"))
