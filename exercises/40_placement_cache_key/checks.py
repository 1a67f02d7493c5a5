"""Checks for placement_cache_key: predict(x, w) called as plain Python six times with NumPy batches of one shape,
on 2 and 4 simulated devices (manifest: devices = [2, 4]).

The lesson is that where the arguments live is part of jit's cache key: a batch committed to another device, or a
mesh with another device order or other axis types, compiles the same program again, while a fresh but equal
NamedSharding does not. The six calls must compile once, every batch must come back split by rows over a mesh of
every device, and the work must be done by a jitted function on x (its program applies the softmax's exp to what it
computed from x, its output follows x, and the result is built from it). When the count is over one, the grader
names the call whose jitted function got an argument placed where no earlier call had placed it (the spy keeps each
call's real arguments).
"""

from __future__ import annotations

import jax
import numpy as np

from jittrainer.authoring import (Cause, count, fetching_in, jit_reach, layout_of, msg, one_compile,
                                  placement_change, reach_failure, refuse_beside_jit, values_match, when_eager,
                                  when_new_function)

CHECKS = {
    "runs": "predict returns for every call",
    "one_compile": "six calls of one shape compile once",
    "sharded": "every batch comes back split by rows over every device",
    "in_jit": "a jitted function computes the probabilities from x",
    "values": "returns softmax(x @ w)",
}

CALLS = 6
TIER = 2  # the hint tier that names one NamedSharding for every call


def draw_shape(rng: np.random.Generator, n: int) -> tuple[int, int, int]:
    return n * int(rng.integers(1, 4)), int(rng.integers(3, 8)), int(rng.integers(2, 6))


def make_call(rng: np.random.Generator, shape: tuple[int, int, int], w: np.ndarray) -> tuple[np.ndarray, ...]:
    b, f, _ = shape
    return rng.normal(0.0, 1.0, (b, f)).astype(np.float32), w.copy()


def expected(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    z = x.astype(np.float64) @ w.astype(np.float64)
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def grade(g):
    predict = g.graded(params=2)
    n = jax.device_count()
    shape = draw_shape(g.rng, n)
    w = g.rng.normal(0.0, 1.0, shape[1:]).astype(np.float32)
    args = [make_call(g.rng, shape, w) for _ in range(CALLS)]
    calls = g.calls(predict, [(x.copy(), w_) for x, w_ in args])
    g.check_ran("runs", calls, tier=TIER)
    _check_compiles(g, calls)
    _check_sharded(g, calls.results, shape, n)
    _check_in_jit(g, args)
    values_match(g, "values", calls.results, [expected(*a) for a in args], rtol=1e-5, atol=1e-6,
                 advice=msg("advice.values", "probs = jax.nn.softmax(x @ w, axis=-1)"), tier=1,
                 ok=msg("values.ok", "all {n} results match", n=CALLS))


def _check_compiles(g, calls) -> bool:
    change = placement_change(g, calls)
    placed = Cause(lambda g, calls: change is not None, msg(
        "compiles.placed", "{head}: call {call} ran {function} with its array argument {argument} placed on {after}, where "
        "call {earlier} had placed it on {before}. The shapes were the same, but where the arguments live is part of "
        "jit's cache key: every new placement compiles the program again",
        **(vars(change) if change else {"call": 0, "function": "", "argument": 0, "after": "", "earlier": 0,
                                        "before": ""})),
        msg("advice.placement", "make one placement and use it for every call: mesh = jax.make_mesh((jax.device_count(),"
            "), ('batch',)) once, and NamedSharding(mesh, P('batch')) for x on every call (an equal one made anew is "
            "fine)"), TIER)
    cleared = Cause(lambda g, calls: bool(g.lines_calling(r"\bclear_caches\b")) and calls.compiles > 2, msg(
        "compiles.cleared", "{head}: your code calls jax.clear_caches(), which throws away every compiled program, so "
        "the next call compiles again even with the same placement"),
        msg("advice.keep_cache", "leave JAX's caches alone between batches: the compiled program is what you want to "
            "keep"), 1)
    return one_compile(g, calls, msg("compiles.head", "{calls} with one shape gave {compiles}; expected 1"),
                       msg("compiles.ok", "compiled once: every call found the same placement"), [
        placed, cleared,
        when_new_function(advice=msg("advice.jit_once", "make the jitted function once, at module level"), tier=1),
        when_eager(advice=msg("advice.inside", "keep the work inside the jitted function: jax.numpy outside it "
                              "compiles too"), tier=1)],
        advice=msg("advice.once", "one jitted function, one mesh in one device order, one sharding for x"), tier=TIER)


def _check_sharded(g, results, shape, n) -> bool:
    b, _, c = shape
    for call, probs in enumerate(results, 1):
        layout = layout_of(probs)
        if layout.split_like(n, (b // n, c)):
            continue
        common = {"call": call, "devices": count("device", n), "block": str((b // n, c))}
        if layout.kind == "host":
            observation = msg("sharded.host", "call {call}: probs is {type}, not a jax.Array: it lives on the host",
                              type=type(probs).__name__, **common)
        elif layout.devices < n:
            observation = msg("sharded.few", "call {call}: probs lives on {held} of the {devices} ({where}): the "
                              "others did nothing for this batch", held=count("device", layout.devices),
                              where=str(probs.sharding), **common)
        else:
            observation = msg("sharded.other", "call {call}: probs has the type {type}, its blocks {blocks}; split by "
                              "rows over all {devices}, each would be {block}", type=layout.type,
                              blocks=str(sorted(set(layout.shards))), **common)
        return g.failed("sharded", observation, msg("advice.sharded", "place x with NamedSharding(mesh, P('batch')) "
                        "over a mesh of every device: the softmax is row by row, so probs stays split the same way"),
                        tier=TIER)
    return g.passed("sharded", msg("sharded.ok", "every batch came back split by rows over all {devices}",
                                   devices=count("device", n)))


def _check_in_jit(g, args) -> bool:
    advice = msg("advice.in_jit", "compute softmax(x @ w) inside the jitted function, from the x it receives")
    found = []
    for call, (x, _) in enumerate(args, 1):
        reach = jit_reach(g, call, [x], x, x * 0.5 + 1.0, work=("exp",))
        observation = reach_failure(reach, what=msg("what.x", "x of call {call}", call=call), graded="predict")
        if reach.problem in ("no_jit", "missing"):
            observation = msg("jit.missing", "call {call}: x never reached a jitted function, so probs was computed "
                              "outside jit", call=call)
        elif reach.problem in ("not_following", "rerun_failed"):
            observation = msg("jit.no_follow", "call {call}: x reached {function}, but run again with other values in "
                              "its place, it returned the same thing ({error})", call=call, function=reach.function,
                              error=reach.error or "-")
        elif not reach.problem and fetching_in(g, reach.working[0][0]):
            observation = msg("jit.callback", "call {call}: {function} fetches values from Python while it runs "
                              "({callbacks}): the work is done on the host", call=call, function=reach.function,
                              callbacks=sorted(set(fetching_in(g, reach.working[0][0]))))
        elif not reach.problem:
            found.append(reach)
            continue
        return g.failed("in_jit", observation, advice, tier=1)
    if refuse_beside_jit(g, "in_jit", found, lambda: g.graded_function(args[0][0].copy(), args[0][1].copy()),
                         what="x", graded="predict", advice=advice, tier=1):
        return False
    return g.passed("in_jit", msg("jit.ok", "every call computed probs in a jitted function, from x"))
