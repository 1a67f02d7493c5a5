"""Checks for named_sharding: normalize_rows(x) called as plain Python three times with a float32[B, F] NumPy
array of one shape (B a multiple of the device count, F odd), in two workers with different device counts
(manifest: devices = [4, 6]).

The lesson is where jit's results live: y must come back split by rows over every device (a NamedSharding whose
mesh holds all of them, each device holding B / n full rows), and the row norms replicated on every device. Both
are read from the returned arrays' .sharding. The work must be done by a jitted function: x's values reach one,
and run again with 2x it returns doubled norms (no host callback feeding it). Three calls of one shape compile
exactly once.
"""

from __future__ import annotations

import re

import jax
import numpy as np
from jax.sharding import NamedSharding

from jittrainer.authoring import (at_line, compare, count, fetching_in, lines_writing, msg, one_compile,
                                  refuse_beside_jit, rerun, when_eager, when_nothing)

CHECKS = {
    "runs": "normalize_rows returns for every call",
    "rows_sharded": "y comes back split by rows over every device",
    "replicated": "the norms come back whole on every device",
    "in_jit": "a jitted function computes both results from x",
    "values": "returns x / ||row|| and the row norms",
    "one_compile": "three calls of one shape compile once",
}

CALLS = 3
SHARD_TIER = 2  # the hint tier that names NamedSharding, in_shardings and out_shardings


# ------------------------------------------------------------------------------------------------ graded values


def shape(rng: np.random.Generator, devices: int) -> tuple[int, int]:
    """B: 1 or 3 rows per device; F: 3, 5 or 7, never a multiple of the count. (With an odd number of rows per
    device, a mesh of 4 written in never divides the rows of the 6-device run: it fails the same way every time.)"""
    return devices * int(rng.choice([1, 3])), int(rng.choice([3, 5, 7]))


def make_x(rng: np.random.Generator, rows: int, cols: int) -> np.ndarray:
    """Rows of very different sizes (norms from about 0.5 to 100), none near zero."""
    x = rng.normal(0.0, 1.0, (rows, cols))
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    x *= rng.uniform(0.5, 100.0, (rows, 1))
    return x.astype(np.float32)


def expected(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    x64 = x.astype(np.float64)
    norms = np.linalg.norm(x64, axis=1)
    return x64 / norms[:, None], norms


# ------------------------------------------------------------------------------------------------ grading


def grade(g):
    normalize_rows = g.graded(params=1)
    devices = jax.device_count()
    rows, cols = shape(g.rng, devices)
    xs = [make_x(g.rng, rows, cols) for _ in range(CALLS)]
    calls = g.calls(normalize_rows, [(x.copy(),) for x in xs])
    g.check_ran("runs", calls, _runs_advice, tier=SHARD_TIER, explain=_explain)

    pairs = [_pair(r) for r in calls.results]
    if not _check_rows(g, pairs, rows, cols, devices):
        return
    _check_replicated(g, pairs, rows, devices)
    _check_in_jit(g, xs)
    _check_values(g, pairs, xs)
    _check_compiles(g, calls)


def _pair(result):
    if isinstance(result, (tuple, list)) and len(result) == 2:
        return result
    return None


def _explain(error):
    text = error.message
    if error.type == "IndivisibleError" or "evenly divide" in text:
        found = re.search(r"partitioned (\d+) times", text)
        parts, devices = (int(found.group(1)) if found else 0), jax.device_count()
        if parts and parts != devices:
            return msg("explain.mesh_size", "That sharding cuts an axis into {parts} pieces, but this machine has "
                       "{devices}: a device count written into the code. The rows are a multiple of the machine's "
                       "device count, not of {parts}", parts=parts, devices=count("device", devices))
        return msg("explain.divide", "A sharding that splits an axis over the devices needs that axis to divide "
                   "evenly: here the number of columns never does, the number of rows always does")
    if "acts as an assert" in text or "can only refer to Auto axes" in text:
        return msg("explain.constraint", "On a mesh of Explicit axes (make_mesh's default), with_sharding_constraint "
                   "does not move data: with no mesh set it cannot name a mesh axis, and under jax.set_mesh it only "
                   "checks the layout a value already has")
    return None


def _runs_advice(error):
    if "partitioned" in error.message and f"partitioned {jax.device_count()} times" not in error.message:
        return msg("advice.count", "build the mesh from the machine: jax.make_mesh((jax.device_count(),), ('rows',))")
    if error.type == "IndivisibleError" or "evenly divide" in error.message:
        return msg("advice.rows_axis", "split axis 0 (the rows) only: NamedSharding(mesh, P('rows')) for x and y, "
                   "and NamedSharding(mesh, P()) for the norms")
    if "can only refer to Auto axes" in error.message or "acts as an assert" in error.message:
        return msg("advice.reshard", "with make_mesh's default Explicit axes, give the layouts to jax.jit "
                   "(in_shardings=..., out_shardings=...) or use jax.reshard, not with_sharding_constraint")
    return None


def _describe(value) -> dict:
    """What a returned value's sharding says, in the terms the checks use."""
    sharding = getattr(value, "sharding", None)
    info = {"kind": "none", "spec": "", "mesh": 0, "devices": 0, "shard": (), "replicated": False}
    if sharding is None or not isinstance(value, jax.Array):
        return info
    info["devices"] = len(sharding.device_set)
    info["replicated"] = bool(sharding.is_fully_replicated)
    try:
        info["shard"] = tuple(sharding.shard_shape(value.shape))
    except Exception:
        pass
    if isinstance(sharding, NamedSharding):
        info.update(kind="named", spec=str(sharding.spec), mesh=int(sharding.mesh.size))
    elif info["devices"] == 1:
        info["kind"] = "single"
    else:
        info["kind"] = "other"
    return info


def _check_rows(g, pairs, rows, cols, devices) -> bool:
    advice = msg("advice.rows", "make a 1-D mesh over every device, mesh = jax.make_mesh((jax.device_count(),), "
                 "('rows',)), and give jax.jit the layouts: in_shardings=NamedSharding(mesh, P('rows')) and an "
                 "out_shardings entry NamedSharding(mesh, P('rows')) for y")
    for call, pair in enumerate(pairs, 1):
        common = {"call": call, "rows": rows, "devices": count("device", devices)}
        if pair is None:
            g.failed("rows_sharded", msg("rows.not_pair", "call {call}: normalize_rows returned something other than "
                                         "a pair (y, norms)", call=call), advice, tier=1)
            return False
        info = _describe(pair[0])
        want = (rows // devices, cols)
        if info["kind"] == "named" and info["mesh"] == devices and info["devices"] == devices \
                and info["shard"] == want:
            continue
        if info["kind"] == "none":
            observation = msg("rows.host", "call {call}: y is {type}, not a jax.Array: it lives on the host, on no "
                              "device at all", type=type(pair[0]).__name__, call=call)
        elif info["kind"] == "single":
            observation = msg("rows.single", "call {call}: y came back on a single device (SingleDeviceSharding): "
                              "jit ran the whole program where x was, one device, while the other {idle} of the "
                              "{devices} did nothing", idle=devices - 1, **common)
        elif info["mesh"] and info["mesh"] != devices:
            observation = at_line(lines_writing(g, info["mesh"]), msg(
                "rows.mesh_line", "call {call}: y is sharded over a mesh of {mesh} devices, but this machine has "
                "{devices}: line {line} writes a device count into the code, and the grader runs with a different "
                "number of devices each time", mesh=info["mesh"], **common), msg(
                "rows.mesh", "call {call}: y is sharded over a mesh of {mesh} devices, but this machine has {devices}",
                mesh=info["mesh"], **common))
        elif info["replicated"]:
            observation = msg("rows.replicated", "call {call}: y is replicated (spec {spec}): every one of the "
                              "{devices} holds all {rows} rows, so each computed every row and nothing was split",
                              spec=info["spec"] or "-", **common)
        else:
            observation = msg("rows.other_split", "call {call}: y is split as {spec}, so each device holds a block "
                              "of shape {shard}; split by rows, each would hold {want}: {per} full rows",
                              spec=info["spec"] or "-", shard=str(info["shard"]), want=str(want),
                              per=rows // devices, **common)
        g.failed("rows_sharded", observation, advice, tier=SHARD_TIER)
        return False
    return g.passed("rows_sharded", msg("rows.ok", "y came back split by rows over all {devices}, {per} rows each",
                                        devices=count("device", devices), per=rows // devices))


def _check_replicated(g, pairs, rows, devices) -> None:
    advice = msg("advice.replicated", "ask for the norms whole on every device: an out_shardings entry "
                 "NamedSharding(mesh, P()) for them (XLA then gathers the pieces)")
    for call, (_, norms) in enumerate(pairs, 1):
        info = _describe(norms)
        if info["kind"] == "named" and info["mesh"] == devices and info["devices"] == devices and info["replicated"]:
            continue
        common = {"call": call, "rows": rows, "devices": count("device", devices)}
        if info["kind"] == "none":
            observation = msg("rep.host", "call {call}: the norms are {type}, not a jax.Array: they live on the host, "
                              "on no device", type=type(norms).__name__, call=call)
        elif info["kind"] == "single" or info["devices"] == 1:
            observation = msg("rep.single", "call {call}: the norms came back on a single device; every one of the "
                              "{devices} should hold all {rows} of them", **common)
        elif info["mesh"] and info["mesh"] != devices:
            observation = msg("rep.mesh", "call {call}: the norms live on a mesh of {mesh} devices, but this machine "
                              "has {devices}", mesh=info["mesh"], **common)
        else:
            shard = info["shard"][0] if info["shard"] else rows
            observation = msg("rep.split", "call {call}: the norms are split over the devices (spec {spec}): each "
                              "device holds {per} of the {rows} norms, where the contract has every device hold "
                              "them all", per=shard,
                              spec=info["spec"] or "-", **common)
        g.failed("replicated", observation, advice, tier=SHARD_TIER)
        return
    g.passed("replicated", msg("rep.ok", "the norms came back whole on all {devices}",
                               devices=count("device", devices)))


def _check_in_jit(g, xs) -> None:
    advice = msg("advice.in_jit", "compute the norms and y inside the jitted function, from the x it receives")
    working = []
    for call, x in enumerate(xs, 1):
        jitted = [c for c in g.jit_spy.calls if c.call == call]
        holding = [c for c in jitted if any(a.shape == x.shape and np.array_equal(a, x) for a in c.arrays)]
        if not holding:
            g.failed("in_jit", msg("jit.no_x", "call {call}: x never reached a jitted function, so both results were "
                                   "computed outside jit", call=call), advice, tier=1)
            return
        c = holding[0]
        callbacks = fetching_in(g, c)
        if callbacks:
            g.failed("in_jit", msg("jit.callback", "call {call}: the jitted function {function} fetches values from "
                                   "Python while it runs ({callbacks}): the work happens on the host, not on the "
                                   "devices", call=call, function=c.function, callbacks=sorted(set(callbacks))),
                     advice, tier=1)
            return
        moved = _follows(g, c, x)
        if moved is False:
            g.failed("in_jit", msg("jit.no_follow", "call {call}: x reached the jitted function {function}, but run "
                                   "again with 2x it did not return doubled norms: what it returns was computed "
                                   "elsewhere", call=call, function=c.function), advice, tier=1)
            return
        working.append(c)
    if refuse_beside_jit(g, "in_jit", working, lambda: g.graded_function(xs[0].copy()), what="x",
                         graded="normalize_rows", advice=advice, tier=1, parts=lambda result: list(result)):
        return
    g.passed("in_jit", msg("jit.ok", "every call computed both results in a jitted function, from x"))


def _follows(g, call, x) -> bool | None:
    """Run the jitted call again with 2x in place of x (placed as x was): True when some output holds the doubled
    norms, False when none does, None when it could not run."""
    args = list(call.args)
    for k, arg in enumerate(args):
        try:
            same = np.shape(arg) == x.shape and np.array_equal(np.asarray(arg), x)
        except Exception:
            same = False
        if same:
            doubled = 2 * x
            args[k] = jax.device_put(doubled, arg.sharding) if isinstance(arg, jax.Array) else doubled
            break
    else:
        return None
    outputs = rerun(g, call, tuple(args)).outputs
    if outputs is None:
        return None
    want = 2 * expected(x)[1]
    return any(got.shape == want.shape and np.allclose(got, want, rtol=1e-4, atol=1e-4) for got in outputs)


def _check_values(g, pairs, xs) -> None:
    advice = msg("advice.values", "norms = jnp.linalg.norm(x, axis=1); return x / norms[:, None], norms")
    for call, ((y, norms), x) in enumerate(zip(pairs, xs), 1):
        want_y, want_n = expected(x)
        ok, why = compare(norms, want_n, rtol=1e-5, atol=1e-5, what=msg("what.norms", "the norms of call {call}",
                                                                          call=call))
        if ok:
            ok, why = compare(y, want_y, rtol=1e-5, atol=1e-6, what=msg("what.y", "y of call {call}", call=call))
        if not ok:
            g.failed("values", why, advice, tier=1)
            return
    g.passed("values", msg("values.ok", "all {n} results match", n=len(xs)))


def _check_compiles(g, calls) -> None:
    one_compile(g, calls, msg("compiles.head", "{calls} with one shape gave {compiles}; expected 1"),
                msg("compiles.ok", "compiled once, then reused"), [
        when_nothing(msg("compiles.none", "{head}: nothing was compiled during the graded calls"),
                     msg("advice.jit_it", "do the work in a jitted function"), tier=1),
        when_eager(msg("compiles.eager", "{head}: the extra compiles are {names}, jax.numpy operations run eagerly, "
                       "outside your jitted function"),
                   msg("advice.inside", "keep all the work inside the one jitted function"), tier=1)],
        advice=msg("advice.once", "make the mesh, the shardings and the jitted function once, at module level, and "
                   "call that same function every time"), tier=SHARD_TIER)
