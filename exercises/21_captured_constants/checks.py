"""Checks for captured_constants: three sets of weights (checkpoints) of one shape, six graded calls:

    1: P1 = make_predictor(params 1); P1(x1)      4: P3 = make_predictor(params 3); P3(x2)
    2: P1(x2)                                     5: P1(x3)
    3: P2 = make_predictor(params 2); P2(x1)      6: P2(x3)

Every jitted function the predictors ran is traced again afterwards: its captured constants (jaxpr constvars, nested
jaxprs included) may total at most 256 bytes. Each predictor must compute with the weights it was made from (also
after newer ones were made), the six calls may compile once, and the jitted call that received x must follow it
(run again with another x, outside the counted calls)."""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from jittrainer.authoring import (Cause, LearnerFailure, as_floats, bare_name, constants_of, count, is_compiled, msg,
                                  one_compile, refuse_fetching, rerun, tracer_error, type_name, values_match,
                                  when_nothing)

CHECKS = {
    "runs": "every predictor returns for every batch",
    "no_constants": "the jitted program captures no weights as constants",
    "follows_weights": "each predictor computes with its own weights",
    "one_compile": "three sets of weights, six calls: one compile",
    "reaches_jit": "the predictions are computed by jitted code",
}

CONST_BUDGET = 256  # bytes of captured constants allowed in all, nested jaxprs included
ARG_TIER = 2  # the hint tier on passing the weights as arguments of one jitted function
SCHEDULE = [  # (make a new predictor?, which predictor, which batch)
    (True, 0, 0), (False, 0, 1), (True, 1, 0), (True, 2, 1), (False, 0, 2), (False, 1, 2),
]


# ------------------------------------------------------------------------------------------------ inputs


@dataclass
class Sizes:
    d: int
    h: int
    k: int
    b: int


def draw_sizes(rng: np.random.Generator) -> Sizes:
    """Input width 1..64 (1 and 64 often), hidden width 32..128, outputs 1..16, batch 1..32."""
    d = int(rng.choice([1, 64])) if rng.uniform() < 0.3 else int(rng.integers(2, 64))
    k = 1 if rng.uniform() < 0.2 else int(rng.integers(2, 17))
    b = 1 if rng.uniform() < 0.2 else int(rng.integers(2, 33))
    return Sizes(d, int(rng.integers(32, 129)), k, b)


def draw_params(rng: np.random.Generator, s: Sizes) -> dict:
    return {
        "w1": (rng.normal(0.0, 1.0, (s.d, s.h)) / np.sqrt(s.d)).astype(np.float32),
        "b1": rng.normal(0.0, 0.5, s.h).astype(np.float32),
        "w2": (rng.normal(0.0, 1.0, (s.h, s.k)) / np.sqrt(s.h)).astype(np.float32),
        "b2": rng.normal(0.0, 1.0, s.k).astype(np.float32),
    }


def draw_x(rng: np.random.Generator, s: Sizes) -> np.ndarray:
    return rng.normal(0.0, 1.5, (s.b, s.d)).astype(np.float32)


def mlp(params: dict, x: np.ndarray) -> np.ndarray:
    p = {k: v.astype(np.float64) for k, v in params.items()}
    return np.tanh(x.astype(np.float64) @ p["w1"] + p["b1"]) @ p["w2"] + p["b2"]


def _copy(params: dict) -> dict:
    return {k: v.copy() for k, v in params.items()}


# ------------------------------------------------------------------------------------------------ grading


def grade(g):
    make_predictor = g.graded(params=1)
    sizes = draw_sizes(g.rng)
    checkpoints = [draw_params(g.rng, sizes) for _ in range(3)]
    originals = [_copy(p) for p in checkpoints]
    xs = [draw_x(g.rng, sizes) for _ in range(3)]
    fresh_x = [draw_x(g.rng, sizes) for _ in SCHEDULE]
    predictors: dict[int, object] = {}
    not_callable: list[object] = []

    def step(make, which, batch):
        if make:
            predictors[which] = make_predictor(checkpoints[which])
        predictor = predictors[which]
        if not callable(predictor):
            not_callable.append(predictor)
            return None
        return predictor(xs[batch])

    calls = g.calls(step, SCHEDULE, name="make_predictor")
    if not_callable:
        raise LearnerFailure(msg("contract.not_callable", "make_predictor returned {type}; it must return a "
                                 "function, predict(x)", type=type_name(not_callable[0])))
    g.check_ran("runs", calls, _error_advice, tier=ARG_TIER)

    jitted = [c for c in g.jit_spy.calls if c.call is not None]
    if jitted:
        check_constants(g, jitted)
    exact = check_values(g, calls.results, originals, xs)
    check_compiles(g, calls)
    check_reaches_jit(g, originals, xs, fresh_x, exact)


def _error_advice(error):
    if tracer_error(error, "array", "bool"):
        return msg("advice.no_numpy", "keep NumPy and float() away from traced values: compute the layers with "
                   "jax.numpy inside the jitted function")
    if error.type == "TypeError" and "differ from the types" in error.message:
        return msg("advice.aot_shapes", "a function compiled ahead of time only accepts the shapes it was compiled "
                   "for: compile it on the first real call (or use jax.jit, which compiles per shape)")
    return None


# ------------------------------------------------------------------------------------------------ constants


@dataclass
class Captured:
    function: str
    call: int
    nbytes: int
    items: list[str]  # "float32[32,64] (8,192 bytes)"


def _from_jaxpr(closed) -> tuple[int, list[str]]:
    found = sorted(constants_of(closed), key=lambda c: -c.nbytes)
    return sum(c.nbytes for c in found), [f"{c.type} ({c.nbytes:,} B)" for c in found]


_HLO_CONSTANT = re.compile(r"=\s*(?P<dtype>[a-z]+\d*)\[(?P<dims>[\d,]+)\][^=]*?\sconstant\(")
_BYTES = {"pred": 1, "s8": 1, "u8": 1, "f16": 2, "bf16": 2, "s16": 2, "u16": 2, "f32": 4, "s32": 4, "u32": 4,
          "f64": 8, "s64": 8, "u64": 8}


def _from_hlo(text: str) -> tuple[int, list[str]]:
    """Array constants in a compiled program's HLO (ahead-of-time compiled functions have no jaxpr at hand)."""
    total, items = 0, []
    for m in _HLO_CONSTANT.finditer(text):
        dims = [int(d) for d in m["dims"].split(",") if d]
        nbytes = int(np.prod(dims)) * _BYTES.get(m["dtype"], 4)
        total += nbytes
        items.append((nbytes, f"{m['dtype']}{dims} ({nbytes:,} B)"))
    items.sort(key=lambda t: -t[0])
    return total, [text for _, text in items]


def captured(g, call) -> Captured | None:
    """The constants the jitted function of ``call`` captured, or None when it cannot be traced again."""
    try:
        with g.recorder.mute():  # tracing runs the learner's Python again
            if is_compiled(call.fn) or not hasattr(call.fn, "trace"):
                nbytes, items = _from_hlo(call.fn.as_text())
            else:
                nbytes, items = _from_jaxpr(call.fn.trace(*call.args, **call.kwargs).jaxpr)
    except Exception:
        return None
    return Captured(call.function, call.call, nbytes, items)


def check_constants(g, jitted) -> None:
    worst: Captured | None = None
    seen = set()
    for call in jitted:
        if id(call.fn) in seen:
            continue
        seen.add(id(call.fn))
        found = captured(g, call)
        if found is not None and (worst is None or found.nbytes > worst.nbytes):
            worst = found
    if worst is None or worst.nbytes <= CONST_BUDGET:
        g.passed("no_constants", msg("constants.ok", "every jitted function the predictors ran was traced again: at "
                                     "most {nbytes} bytes of captured constants (the budget is {budget})",
                                     nbytes=worst.nbytes if worst else 0, budget=CONST_BUDGET))
        return
    common = {"function": worst.function, "call": worst.call, "nbytes": f"{worst.nbytes:,}", "budget": CONST_BUDGET,
              "n": count("constant", len(worst.items)), "items": worst.items[:4]}
    lines = g.lines_calling(r"\bjit\b|\bpartial\b|\blambda\b", "make_predictor")
    if lines:
        observation = msg("constants.captured_line",
                          "the jitted function {function} (first run in call {call}) carries {n} inside its program, "
                          "{nbytes} bytes in all ({items}); the budget is {budget} bytes. Those are your weights: "
                          "the function made on line {line} reads them from outside its arguments (a closure or a "
                          "global), so jit copied them into the program as constants while tracing",
                          line=lines[0], **common)
    else:
        observation = msg("constants.captured",
                          "the jitted function {function} (first run in call {call}) carries {n} inside its program, "
                          "{nbytes} bytes in all ({items}); the budget is {budget} bytes. Those are your weights: the "
                          "function reads them from outside its arguments (a closure or a global), so jit copied "
                          "them into the program as constants while tracing", **common)
    g.failed("no_constants", observation, _advice_args(), tier=ARG_TIER)


def _advice_args():
    return msg("advice.args", "jit one function that takes the weights as an argument, mlp(params, x), once at "
               "module level, and let make_predictor return functools.partial(mlp, params)")


# ------------------------------------------------------------------------------------------------ values


def check_values(g, results, originals, xs) -> bool:
    return values_match(g, "follows_weights", results, (mlp(originals[which], xs[batch]) for _, which, batch in
                                                        SCHEDULE), rtol=1e-4, atol=1e-4,
                        slip=lambda i, result: _weights_slip(i, SCHEDULE[i - 1][1], result, originals,
                                                             xs[SCHEDULE[i - 1][2]]),
                        advice=_advice_args(), tier=ARG_TIER,
                        ok=msg("values.ok", "all {n} results match, each computed with its predictor's own weights",
                               n=len(SCHEDULE)))


def _weights_slip(i, which, result, originals, x):
    """The observation when call i's result is another checkpoint's prediction, else None."""
    got = as_floats(result)
    if got is None:
        return None
    for other, params in enumerate(originals):
        if other == which:
            continue
        want = mlp(params, x)
        if got.shape == want.shape and np.allclose(got, want, rtol=1e-4, atol=1e-4):
            if other < which:
                return msg("values.stale", "call {i} used predictor {p}, made from weights {p}, but it computed with "
                           "weights {q}, an older set: a copy of the weights kept from before, not the ones it was "
                           "given", i=i, p=which + 1, q=other + 1)
            return msg("values.newer", "call {i} used predictor {p}, made from weights {p}, but it computed with "
                       "weights {q}, a set made later: a predictor must keep the weights it was made from, not read "
                       "the latest ones from a shared place", i=i, p=which + 1, q=other + 1)
    return None


# ------------------------------------------------------------------------------------------------ compiles


def check_compiles(g, calls) -> None:
    total = calls.compiles
    misses = calls.reasons()
    eager = [m for m in misses if m.kind == "jax_internal"]
    fresh = sorted({m.call for m in misses if m.kind in ("new_function", "first") and m.call and m.call > 1})
    n = len(SCHEDULE)
    one_compile(g, calls, msg("compiles.head", "{calls} with three sets of weights of one shape gave {compiles}; "
                              "expected 1"),
                msg("compiles.ok", "1 compile over {calls} with three sets of weights", calls=count("call", n)), [
        when_nothing(msg("compiles.none", "{head}: nothing was compiled"), _advice_args(), tier=ARG_TIER),
        Cause(lambda *_: bool(eager) and len(eager) >= total - 1, msg(
            "compiles.eager", "{head}: JAX's own operations run eagerly, outside any jitted function, account for "
            "{times} ({names}); jnp.asarray or jnp.array on a NumPy array, for example, compiles a small program for "
            "every new shape", times=count("time", len(eager)),
            names=list(dict.fromkeys(bare_name(m.function) for m in eager))[:3]),
            msg("advice.device_put", "leave the weights as they are, or move them with jax.device_put, which does "
                "not compile; the jitted function converts NumPy arguments itself"), tier=ARG_TIER),
        Cause(lambda *_: bool(fresh), msg(
            "compiles.per_predictor", "{head}: calls {made} compiled again, each right after a new predictor was "
            "made. Every make_predictor call builds a new jitted function, and a new function starts with an empty "
            "cache, even when its weights have the same shapes", made=[str(c) for c in fresh]), _advice_args(),
            tier=ARG_TIER)],
        advice=_advice_args(), tier=ARG_TIER)


# ------------------------------------------------------------------------------------------------ reaches jit


def check_reaches_jit(g, originals, xs, fresh_x, exact: bool) -> bool:
    """The jitted call that received x, run again with another x, must return that x's prediction (``exact``), or,
    when the predictions were already found wrong, at least an output that moved."""
    spy = g.jit_spy
    if not any(c.call is not None for c in spy.calls):
        return g.failed("reaches_jit", msg("jit.never", "the predictors called no jitted function (made with "
                                           "jax.jit, or compiled ahead of time) in any of the {n} calls: the "
                                           "predictions were computed outside jit", n=len(SCHEDULE)),
                        _advice_args(), tier=ARG_TIER)
    for i, (make, which, batch) in enumerate(SCHEDULE, 1):
        x, new_x = xs[batch], fresh_x[i - 1]
        want = mlp(originals[which], new_x)
        mine = [c for c in spy.calls if c.call == i]
        received, last = False, None
        for call in mine:
            if not call.holds(x):
                continue
            received = True
            after = rerun(g, call, *call.replacing(x, new_x))
            if after.outputs is None:
                last = after.error
                continue
            if exact and any(o.shape == want.shape and np.allclose(o, want, rtol=1e-4, atol=1e-4)
                             for o in after.outputs):
                break
            if not exact and any(o.shape == r.shape and not np.allclose(o, r) for o, r in
                                 zip(after.outputs, rerun(g, call, call.args, call.kwargs).outputs or [])):
                break
            last = ""
        else:
            common = {"i": i, "shape": str(list(x.shape))}
            if not mine:
                observation = msg("jit.call_without", "during call {i} no jitted function ran, so that prediction "
                                  "was computed outside jit", **common)
            elif not received:
                observation = msg("jit.x_missing", "during call {i} the batch x (float32{shape}) never reached a "
                                  "jitted function: what jit received was worked out before the call", **common)
            elif last:
                observation = msg("jit.rerun_failed", "in call {i} x reached a jitted function, but running it again "
                                  "with another x failed ({error})", error=last, **common)
            else:
                observation = msg("jit.no_follow", "in call {i} x reached a jitted function, but run again with "
                                  "another x its output was not that x's prediction: the prediction it returns is "
                                  "not computed from x", **common)
            return g.failed("reaches_jit", observation, _advice_args(), tier=ARG_TIER)
    return refuse_fetching(g, "reaches_jit", passed=msg("jit.ok", "in every call x went into a jitted function, and "
                                                        "run again with another x, its output followed"))
