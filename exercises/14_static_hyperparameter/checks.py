"""Checks for static_hyperparameter: sgd_step(w, x, y, lr) with six distinct learning rates (Python floats) drawn
from the seed over 1e-4 .. 1.0, one above the cap of 0.5 and one exactly at it. One compile serves them all (lr
traced), and each step is w - min(lr, 0.5) * grad of the mean squared error."""

import numpy as np

from jittrainer.authoring import (
    at_line,
    msg,
    one_compile,
    values_match,
    when_eager,
    when_new_function,
    when_static,
)

CHECKS = {
    "runs": "sgd_step runs under jax.jit",
    "one_compile": "six learning rates share one compile",
    "values": "each call takes one step of size min(lr, 0.5) down the gradient",
}

CALLS = 6
ROWS, FEATURES = 32, 4
MAX_LR = 0.5
RTOL, ATOL = 1e-4, 1e-5
TRACED_TIER = 2  # the hint tier that says to keep lr traced and cap it with a jax.numpy operation


def draw_lrs(rng: np.random.Generator) -> list[float]:
    """Six distinct learning rates: one from 1e-4 to 1e-3, one above the cap (0.6 to 1.0), the cap itself (0.5),
    and three log-uniform from 1e-3 to 0.45; shuffled. Python floats, as a schedule produces them."""
    small = 10 ** rng.uniform(-4, -3)
    above = rng.uniform(0.6, 1.0)
    middle = 10 ** rng.uniform(-3, np.log10(0.45), 3)
    lrs = [float(v) for v in (small, above, MAX_LR, *middle)]
    lrs = [float(f"{v:.4g}") for v in lrs]  # as a person would type them
    if len(set(lrs)) < CALLS:
        return draw_lrs(rng)
    return [lrs[i] for i in rng.permutation(CALLS)]


def problem(rng: np.random.Generator):
    """(w, x, y) for one call: float32[4], float32[32, 4], float32[32]."""
    w = rng.normal(0.0, 1.0, FEATURES).astype(np.float32)
    x = rng.normal(0.0, 1.0, (ROWS, FEATURES)).astype(np.float32)
    y = (x @ rng.normal(0.0, 2.0, FEATURES) + rng.normal(0.0, 0.3, ROWS)).astype(np.float32)
    return w, x, y


def gradient(w, x, y) -> np.ndarray:
    w64, x64, y64 = (a.astype(np.float64) for a in (w, x, y))
    return 2.0 / ROWS * x64.T @ (x64 @ w64 - y64)


def expected(w, x, y, lr) -> np.ndarray:
    return w.astype(np.float64) - min(lr, MAX_LR) * gradient(w, x, y)


def traced_advice():
    return msg("advice.traced", "keep lr a traced argument (no static_argnums / static_argnames for it) and cap it "
               "with an operation of the program: jnp.minimum(lr, 0.5)")


# -- runs -------------------------------------------------------------------------------------------------------

def advice(error):
    if error.type == "TracerBoolConversionError":
        return msg("advice.min", "Python's min(), max(), if and comparisons need lr's value while tracing, and a "
                   "traced lr has none. Let the program do it: jnp.minimum(lr, 0.5) (or jnp.clip, or jnp.where)")
    if error.type in ("ConcretizationTypeError", "TracerIntegerConversionError"):
        return msg("advice.float", "float(lr), int(lr) and .item() need lr's value while tracing. Keep it an array: "
                   "jnp.minimum(lr, 0.5) * gradient")
    if "Non-hashable static arguments" in error.message:
        return traced_advice()
    return None


# -- compiles ---------------------------------------------------------------------------------------------------

def check_compiles(g, calls, lrs):
    why = calls.why_compiled()
    static = at_line(g.lines_calling(r"static_arg(nums|names)"), msg(
        "compiles.static_line", "{head}: line {line} makes lr a static argument, so its value is part of the compile "
        "cache's key and every new learning rate compiles a new program ({why})", why=why), msg(
        "compiles.static", "{head}: lr is a static argument, so its value is part of the compile cache's key and "
        "every new learning rate compiles a new program ({why})", why=why))
    one_compile(g, calls, msg("compiles.head", "{calls} with {n} different learning rates gave {compiles}; expected 1",
                              n=len(set(lrs))),
                msg("compiles.ok", "compiled once; all six learning rates reused the program"), [
        when_static(static, traced_advice(), tier=TRACED_TIER),
        when_new_function(msg("compiles.new_function", "{head}: a new jitted function was made during the calls, so "
                              "nothing compiled earlier could be reused ({why})", why=why),
                          msg("advice.jit_once", "jit sgd_step once, at module level, with lr traced"),
                          tier=TRACED_TIER),
        when_eager(advice=msg("advice.inside", "keep all the work inside sgd_step"), tier=TRACED_TIER)],
        advice=traced_advice(), tier=TRACED_TIER)


# -- values -----------------------------------------------------------------------------------------------------

def check_values(g, problems, lrs, results):
    sizes = [_step_size(w, x, y, result) for (w, x, y), result in zip(problems, results)]
    wants = [min(lr, MAX_LR) for lr in lrs]
    if (all(size is not None for size in sizes) and np.ptp(sizes) <= 1e-3 * max(abs(sizes[0]), 1e-12)
            and not np.allclose(sizes, wants, rtol=1e-3)):
        g.failed("values", msg("values.constant", "every call stepped by {size:.4g} times the gradient, whatever lr "
                               "was ({lrs}): the step size does not follow the lr argument (a constant, a global, or "
                               "a value baked in while tracing)", size=sizes[0], lrs=[str(lr) for lr in lrs]),
                 msg("advice.use_lr", "use the lr argument of each call: w - jnp.minimum(lr, 0.5) * gradient"),
                 tier=TRACED_TIER)
        return
    values_match(g, "values", results, (expected(w, x, y, lr) for (w, x, y), lr in zip(problems, lrs)), rtol=RTOL,
                 atol=ATOL, what=lambda call: msg("what.call", "the result of call {call} (lr = {lr})", call=call,
                                                  lr=lrs[call - 1]),
                 slip=lambda call, result: _value_slip(call, *problems[call - 1], lrs[call - 1], result, lrs),
                 advice=msg("advice.step", "return w - jnp.minimum(lr, 0.5) * jax.grad(loss)(w, x, y), with loss the "
                            "mean of the squared errors, and lr the argument of this call"), tier=TRACED_TIER,
                 ok=msg("values.ok", "all six steps match, the capped one included"), refuse=True)


def _step_size(w, x, y, result) -> float | None:
    """s when the result is w - s * gradient (a step along the gradient), else None."""
    try:
        got = np.asarray(result, dtype=np.float64).reshape(-1)
    except Exception:
        return None
    grad = gradient(w, x, y)
    if got.shape != grad.shape or not np.any(grad):
        return None
    moved = w.astype(np.float64) - got
    size = float(moved @ grad / (grad @ grad))
    return size if np.allclose(moved, size * grad, rtol=1e-3, atol=1e-5) else None


def _value_slip(call, w, x, y, lr, result, lrs):
    """A wrong step that still goes along the gradient: name the step size it used."""
    size = _step_size(w, x, y, result)
    if size is None:
        return None
    want = min(lr, MAX_LR)
    common = {"call": call, "lr": lr, "size": size, "want": want}
    if np.isclose(size, want, rtol=1e-3):
        return None
    if lr > MAX_LR and np.isclose(size, lr, rtol=1e-3):
        return msg("values.uncapped", "call {call} had lr = {lr}, above the cap, and stepped by {size:.4g}: the cap "
                   "was not applied (the step size is min(lr, 0.5) = {want:.4g})", **common)
    if np.isclose(size, -want, rtol=1e-3):
        return msg("values.ascent", "call {call} stepped up the gradient (w + step * gradient): a descent step "
                   "subtracts it", **common)
    if np.isclose(size, want * ROWS, rtol=1e-3):
        return msg("values.sum", "call {call} stepped {ratio} times too far: the loss summed the squared errors of the "
                   "{rows} rows instead of averaging them", ratio=ROWS, rows=ROWS, **common)
    if np.isclose(size, want / 2, rtol=1e-3):
        return msg("values.half", "call {call} stepped half as far as it should: the gradient lost the factor 2 of "
                   "the squared error's derivative (2 * (x @ w - y))", **common)
    if np.isclose(size, want * 2, rtol=1e-3):
        return msg("values.double", "call {call} stepped twice as far as it should: the gradient has an extra "
                   "factor 2", **common)
    others = [other for other in dict.fromkeys(lrs) if other != lr and np.isclose(size, min(other, MAX_LR),
                                                                                  rtol=1e-3)]
    if others:
        return msg("values.other_lr", "call {call} had lr = {lr} but stepped by {size:.4g}, the step size of another "
                   "call's learning rate ({other}): a learning rate kept from an earlier call (a global, a default, or "
                   "a value baked in while tracing) instead of this call's lr", other=others[0], **common)
    return msg("values.size", "call {call} had lr = {lr}, so the step size is min(lr, 0.5) = {want:.4g}, but the step "
               "it took was {size:.4g} times the gradient", **common)


def grade(g):
    sgd_step = g.graded(params=4)
    lrs = draw_lrs(g.rng)
    problems = [problem(g.rng) for _ in lrs]
    calls = g.calls(sgd_step, [(w, x, y, lr) for (w, x, y), lr in zip(problems, lrs)])
    g.check_ran("runs", calls, advice, tier=TRACED_TIER)
    check_compiles(g, calls, lrs)
    check_values(g, problems, lrs, calls.results)
