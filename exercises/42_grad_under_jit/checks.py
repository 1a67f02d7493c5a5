"""Checks for grad_under_jit: grads(params, x, y, clip, activation) returns the gradient of a one-hidden-layer
regression loss whose hidden activations pass through clip_gradient, a custom_vjp that is the identity forward and
clips the cotangent to [-clip, clip] backward. Seven calls with one batch size: clip changes on every call (drawn
between quantiles of the cotangent it clips, so clipping matters), activation is "tanh", "relu" or "softplus", each
at least twice, in random order. The gradient is held against a float64 backward pass, and the calls must trace and
compile once per activation: clip is a number the program takes, not part of it.

Measured on 0.10.2 and 0.12.0.1: a traced value in a custom_vjp's nondiff_argnums raises UnexpectedTracerError
under jit; making clip static in the outer jit instead compiles once per clip value (7 here); clip as an ordinary
argument of the custom_vjp (None as its cotangent), or closed over, traces and compiles once per activation.
"""

import numpy as np

from jittrainer.authoring import compare, count, msg, refuse_fetching, repeat_that_compiled, tracer_error, type_name

CHECKS = {
    "runs": "grads runs under jax.jit for every clip and activation",
    "values": "returns the gradient of the loss, its hidden cotangent clipped to [-clip, clip]",
    "one_per_activation": "one trace and one compile per activation, whatever clip is",
}

IN, HIDDEN, OUT = 16, 32, 4
ACTIVATIONS = ("tanh", "relu", "softplus")
CALLS = 7
RTOL, ATOL = 1e-4, 1e-4  # ATOL: a share of the largest entry of that parameter's gradient
FIX_TIER = 2  # the hint tier on ordinary arguments with a None cotangent


# -- graded values ---------------------------------------------------------------------------------------------


def draw_batch_size(rng: np.random.Generator) -> int:
    return int(rng.choice([8, 64])) if rng.uniform() < 0.3 else int(rng.integers(9, 64))


def draw_activations(rng: np.random.Generator) -> list[str]:
    """Seven activations, each of the three at least twice, the first two calls different ones."""
    while True:
        acts = [str(a) for a in rng.permutation(list(ACTIVATIONS) * 2 + [str(rng.choice(ACTIVATIONS))])]
        if acts[0] != acts[1]:
            return acts


def make_call(rng: np.random.Generator, batch: int, activation: str):
    params = {"w1": rng.normal(0.0, rng.uniform(0.3, 1.0), (IN, HIDDEN)), "b1": rng.normal(0.0, 0.5, HIDDEN),
              "w2": rng.normal(0.0, rng.uniform(0.2, 1.0), (HIDDEN, OUT)), "b2": rng.normal(0.0, 0.5, OUT)}
    params = {k: v.astype(np.float32) for k, v in params.items()}
    while True:  # no pre-activation within rounding of 0, where relu's slope jumps from 0 to 1
        x = rng.normal(0.0, rng.uniform(0.5, 2.0), (batch, IN)).astype(np.float32)
        if np.abs(x.astype(np.float64) @ params["w1"] + params["b1"]).min() > 1e-4:
            break
    y = rng.normal(0.0, 1.0, (batch, OUT)).astype(np.float32)
    cotangent = backward(params, x, y, activation, None)[1]
    clip = float(np.quantile(np.abs(cotangent), rng.uniform(0.3, 0.85)))  # clips 15% to 70% of the entries
    return params, x, y, clip, activation


def backward(params, x, y, activation, clip):
    """The float64 gradient, and the hidden cotangent before clipping (clip None: not clipped)."""
    p = {k: v.astype(np.float64) for k, v in params.items()}
    x64 = x.astype(np.float64)
    pre = x64 @ p["w1"] + p["b1"]
    h, slope = {"tanh": (np.tanh(pre), 1.0 - np.tanh(pre) ** 2),
                "relu": (np.maximum(pre, 0.0), (pre > 0).astype(np.float64)),
                "softplus": (np.logaddexp(0.0, pre), 1.0 / (1.0 + np.exp(-pre)))}[activation]
    g_pred = 2.0 * (h @ p["w2"] + p["b2"] - y.astype(np.float64)) / y.size
    g_h = g_pred @ p["w2"].T
    g_pre = (g_h if clip is None else np.clip(g_h, -clip, clip)) * slope
    grads = {"w1": x64.T @ g_pre, "b1": g_pre.sum(0), "w2": h.T @ g_pred, "b2": g_pred.sum(0)}
    return grads, g_h


# -- advice ----------------------------------------------------------------------------------------------------


def traced_clip_advice():
    return msg("advice.ordinary", "take lo and hi as ordinary arguments of the custom_vjp function (no "
               "nondiff_argnums): save them as residuals in the forward rule, and return None for them in the "
               "backward rule, (None, None, jnp.clip(g, lo, hi)). Then clip can stay traced")


def run_advice(error):
    if error.type == "UnexpectedTracerError" or "nondiff_argnums" in error.message:
        return traced_clip_advice()
    if "str" in error.message and "abstract array" in error.message:
        return msg("advice.static", "activation is a string, and jit can only trace arrays: name it static, "
                   "jax.jit(jax.grad(loss), static_argnames=\"activation\")")
    return None


def run_explain(error):
    if error.type == "UnexpectedTracerError" or "nondiff_argnums" in error.message:
        return msg("explain.nondiff", "clip is traced under jit, and a custom_vjp's nondiff_argnums are for values "
                   "known while tracing (a function, a string, a shape): a traced clip may not go there")
    if "str" in error.message and "abstract array" in error.message:
        return msg("explain.string", "jit traces every argument it is not told is static, and a traced argument "
                   "must be an array: activation is a string")
    if tracer_error(error):
        return msg("explain.concrete", "a traced value was read as a Python value (float(), int(), an if): under "
                   "jit, clip and the arrays are tracers with no value yet; only static arguments have one")
    return None


# -- grading ---------------------------------------------------------------------------------------------------


def grade(g):
    grads = g.graded(params=5)
    batch = draw_batch_size(g.rng)
    cases = [make_call(g.rng, batch, act) for act in draw_activations(g.rng)]
    calls = g.calls(grads, cases)
    g.check_ran("runs", calls, run_advice, tier=FIX_TIER, explain=run_explain)
    _check_values(g, cases, calls.results)
    _check_compiles(g, cases, calls)


def _check_values(g, cases, results) -> None:
    for call, (case, result) in enumerate(zip(cases, results), 1):
        why = _wrong(call, case, result)
        if why is not None:
            g.failed("values", why, traced_clip_advice(), tier=FIX_TIER)
            return
    refuse_fetching(g, "values", passed=msg("values.ok", "all {n} gradients match", n=CALLS))


def _wrong(call, case, result):
    """What is wrong with one call's gradient (a known slip named when one explains it), or None."""
    params, x, y, clip, activation = case
    want, _ = backward(params, x, y, activation, clip)
    if not isinstance(result, dict) or set(result) != set(want):
        return msg("values.not_dict", "call {call} returned {type}; expected a dict with the keys w1, b1, w2 and b2: "
                   "the gradient with respect to params alone", call=call, type=type_name(result))
    for name in ("w1", "b1", "w2", "b2"):
        got = result[name]
        ok, why = compare(got, want[name], rtol=RTOL,
                          atol=ATOL * float(np.abs(want[name]).max()),
                          what=msg("what.grad", "the gradient of {name} in call {call}", name=name, call=call))
        if not ok:
            slip = _slip(case, got, name)
            return why if slip is None else msg("values.slip", "{why}. {slip}", why=why, slip=slip)
    return None


def _slip(case, got, name):
    """A known slip that explains the gradient of ``name`` in one call, or None."""
    params, x, y, clip, activation = case
    try:
        got = np.asarray(got, dtype=np.float64)
    except Exception:  # not numbers: what differs says enough
        return None
    unclipped, _ = backward(params, x, y, activation, None)
    scale = float(np.abs(unclipped[name]).max())
    if got.shape == unclipped[name].shape and np.allclose(got, unclipped[name], rtol=RTOL, atol=ATOL * scale):
        return msg("slip.unclipped", "It is the gradient without any clipping: clip_gradient's backward rule did "
                   "not run, or clipped nothing")
    capped = np.clip(unclipped[name], -clip, clip)
    if got.shape == capped.shape and np.allclose(got, capped, rtol=RTOL, atol=ATOL * scale):
        return msg("slip.capped", "It is the unclipped gradient with each entry capped at clip = {clip:.3g}: the clip "
                   "belongs on the cotangent flowing back into the hidden layer, not on the parameters' gradient",
                   clip=clip)
    return None


def _check_compiles(g, cases, calls) -> None:
    acts = [case[4] for case in cases]
    distinct = len(set(acts))
    traces = sum(1 for e in calls.window.events if e.kind == "trace")
    if calls.compiles <= distinct and traces <= distinct:
        g.passed("one_per_activation", msg("compiles.ok", "{calls} with {n} activations: {compiles} and {traces}, "
                                           "one per activation", calls=count("call", CALLS), n=distinct,
                                           compiles=count("compile", calls.compiles),
                                           traces=count("trace", traces)))
        return
    head = msg("compiles.head", "{calls} with {n} activations gave {compiles} and {traces}; expected {n} of each",
               calls=count("call", CALLS), n=distinct, compiles=count("compile", calls.compiles),
               traces=count("trace", traces))
    repeat = repeat_that_compiled(calls, acts)
    if repeat is not None and "static" in calls.miss_kinds:
        call, earlier, _ = repeat
        observation = msg("compiles.static_clip", "{head}: call {call} ({act}, clip = {clip:.3g}) compiled again "
                          "though call {earlier} had compiled {act} already. Only clip changed, and a static "
                          "argument's value is part of the program: every new clip is a new program", head=head,
                          call=call, earlier=earlier, act=acts[call - 1], clip=cases[call - 1][3])
    elif repeat is not None:
        call, earlier, reason = repeat
        observation = msg("compiles.repeat", "{head}: call {call} ({act}) compiled again though call {earlier} had "
                          "compiled {act} already ({reason})", head=head, call=call, earlier=earlier,
                          act=acts[call - 1], reason=reason)
    else:
        observation = msg("compiles.why", "{head} ({why})", head=head, why=calls.why_compiled())
    g.failed("one_per_activation", observation, traced_clip_advice(), tier=FIX_TIER)
