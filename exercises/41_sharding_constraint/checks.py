"""Checks for sharding_constraint: shard_table(table) called as plain Python three times with a float32[V, D] NumPy
table, V odd, on 2 and 4 simulated devices (manifest: devices = [2, 4]).

The lesson is what with_sharding_constraint really does. Under Auto axes a constraint on a dimension that does not
divide by the device count is dropped without a word (jax#26946: every device holds the whole table); under Explicit
axes it moves nothing: with no mesh set, P() leaves an array split as it was, and inside jax.set_mesh it is an
assertion. So the checks read what came back: the padded table split by rows over every device (each device's
block), the norms replicated, and the norms computed by a jitted function (run again with the table doubled, it
returns doubled norms, and shard_table's norms are built from it).
"""

from __future__ import annotations

import jax
import numpy as np

from jittrainer.authoring import (compare, count, fetching_in, layout_of, msg, refuse_beside_jit, rerun,
                                  shard_shapes)

CHECKS = {
    "runs": "shard_table returns for every call",
    "table_split": "the padded table comes back split by rows over every device",
    "norms_whole": "the norms come back whole on every device",
    "in_jit": "a jitted function computes the norms from the table",
    "values": "returns the zero-padded table and its row lengths",
}

CALLS = 3
TIER = 2  # the hint tier on padding, reshard and what a constraint does on each kind of axis


def draw_shape(rng: np.random.Generator, n: int) -> tuple[int, int]:
    """V odd from 2n + 1 to 8n - 1: never a multiple of 2 or 4, and on both JAX versions an Auto constraint on it is
    silently dropped (0.12 raises for lengths that share a factor with the count instead)."""
    return int(rng.choice(np.arange(2 * n + 1, 8 * n, 2))), int(rng.integers(3, 7))


def make_table(rng: np.random.Generator, shape: tuple[int, int]) -> np.ndarray:
    return (rng.choice([-1.0, 1.0], shape) * rng.uniform(0.5, 2.0, shape)).astype(np.float32)


def expected(table: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    padded = np.pad(table.astype(np.float64), ((0, -table.shape[0] % n), (0, 0)))
    return padded, np.linalg.norm(padded, axis=1)


def grade(g):
    shard_table = g.graded(params=1)
    n = jax.device_count()
    v, d = draw_shape(g.rng, n)
    tables = [make_table(g.rng, (v, d)) for _ in range(CALLS)]
    calls = g.calls(shard_table, [(t.copy(),) for t in tables])
    g.check_ran("runs", calls, _runs_advice, tier=TIER, explain=_explain)
    pairs = [r if isinstance(r, (tuple, list)) and len(r) == 2 else None for r in calls.results]
    if None in pairs:
        g.failed("table_split", msg("split.not_pair", "call {call}: shard_table returned something other than a pair "
                                    "(padded, norms)", call=pairs.index(None) + 1))
        return
    vp = v + (-v % n)
    if _check_split(g, pairs, v, vp, d, n):
        _check_whole(g, pairs, vp, n)
    _check_in_jit(g, tables, pairs, n)
    _check_values(g, pairs, tables, n)


def _explain(error):
    text = error.message
    if "acts as an assert" in text:
        return msg("explain.assert", "Inside jax.set_mesh, with Explicit axes, with_sharding_constraint moves nothing: "
                   "it checks that the array already has that sharding, and raised because it does not")
    if "can only refer to Auto axes" in text:
        return msg("explain.auto_only", "With no mesh set, a constraint may only name Auto axes: on an Explicit axis "
                   "(jax.make_mesh's default) it is refused")
    if "Length of device assignment" in text:
        return msg("explain.assignment", "A reshard inside jit to a sharding over several devices, while the program's "
                   "inputs sit on one device and no mesh is set: jit cannot tell which devices the program runs on")
    if "evenly divide" in text or error.type == "IndivisibleError":
        return msg("explain.divide", "An axis split over the devices needs a length that divides by the device count: "
                   "the vocabulary size is odd, so the table must be padded first")
    return None


def _runs_advice(error):
    if "acts as an assert" in error.message or "can only refer to Auto axes" in error.message:
        return msg("advice.reshard", "on an Explicit mesh, change a layout with jax.sharding.reshard(x, sharding) (or "
                   "jit's out_shardings), not with_sharding_constraint")
    return msg("advice.pad", "pad the table with zero rows to a multiple of jax.device_count() before splitting it")


def _check_split(g, pairs, v, vp, d, n) -> bool:
    advice = msg("advice.split", "pad the table to a multiple of the device count with zero rows, then split its rows "
                 "for real: NamedSharding(mesh, P('rows', None)) through jit's out_shardings, device_put or reshard")
    for call, (padded, _) in enumerate(pairs, 1):
        layout = layout_of(padded)
        if layout.split_like(n, (vp // n, d)) and tuple(np.shape(padded)) == (vp, d):
            continue
        common = {"call": call, "devices": count("device", n), "rows": int(np.shape(padded)[0]) if np.ndim(padded)
                  else 0, "type": layout.type or type(padded).__name__}
        if layout.kind == "host":
            observation = msg("split.host", "call {call}: the table came back as {type}, on the host, on no device",
                              **common)
        elif layout.replicated and layout.devices == n and common["rows"] % n:
            observation = msg("split.dropped", "call {call}: every one of the {devices} holds the whole table ({type}, "
                              "blocks of {block}): the request to split its {rows} rows was dropped without an error, "
                              "because {rows} rows do not divide over {n}", block=str(layout.shard), n=n, **common)
        elif layout.replicated:
            observation = msg("split.replicated", "call {call}: every one of the {devices} holds the whole table "
                              "({type}): nothing was split", **common)
        elif tuple(np.shape(padded)) != (vp, d):
            observation = msg("split.shape", "call {call}: the table has shape {shape}; padded to a multiple of {n} "
                              "it has {vp} rows", shape=str(tuple(np.shape(padded))), vp=vp, n=n, **common)
        else:
            observation = msg("split.other", "call {call}: the table ({type}, sharding {sharding}) has the blocks "
                              "{blocks}; split by rows over all {devices}, each would be {block}",
                              sharding=str(padded.sharding), blocks=str(sorted(set(layout.shards))),
                              block=str((vp // n, d)), **common)
        return g.failed("table_split", observation, advice, tier=TIER)
    return g.passed("table_split", msg("split.ok", "the padded table came back split by rows over all {devices}, {per} "
                                       "rows each", devices=count("device", n), per=vp // n))


def _check_whole(g, pairs, vp, n) -> bool:
    for call, (_, norms) in enumerate(pairs, 1):
        layout = layout_of(norms)
        if layout.kind == "named" and layout.replicated and layout.split_like(n, (vp,)):
            continue
        common = {"call": call, "devices": count("device", n), "type": layout.type or type(norms).__name__}
        per = layout.shard[0] if layout.shard else 0
        if np.shape(norms) != (vp,):
            observation = msg("whole.shape", "call {call}: the norms have shape {shape}: one per row of the padded "
                              "table makes {vp}", shape=str(np.shape(norms)), vp=vp, **common)
        elif layout.kind == "named" and layout.devices == n and not layout.replicated and "Explicit" in layout.axis_types:
            observation = msg("whole.explicit", "call {call}: the norms are still split ({type}): each device holds {per} "
                              "of the {vp}. On Explicit axes the layout is part of the type: a constraint with P() and "
                              "no mesh set changes nothing", per=per, vp=vp, **common)
        elif layout.kind == "named" and layout.devices == n and not layout.replicated:
            observation = msg("whole.auto", "call {call}: the norms are split (spec {spec}): each device holds {per} of "
                              "the {vp}, the lengths of its own rows: XLA gave them the rows' layout", spec=layout.spec,
                              per=per, vp=vp, **common)
        else:
            observation = msg("whole.where", "call {call}: the norms ({type}, sharding {sharding}) are not whole on "
                              "every one of the {devices}: blocks {blocks}", sharding=str(getattr(norms, "sharding",
                              "-")), blocks=str(sorted(set(shard_shapes(norms).values()))), **common)
        return g.failed("norms_whole", observation, msg("advice.whole", "make the norms whole on every device: "
                        "jax.sharding.reshard(norms, NamedSharding(mesh, P())) inside jit, or an out_shardings entry "
                        "NamedSharding(mesh, P())"), tier=TIER)
    return g.passed("norms_whole", msg("whole.ok", "the norms came back whole on all {devices}",
                                       devices=count("device", n)))


def _check_in_jit(g, tables, pairs, n) -> bool:
    advice = msg("advice.in_jit", "compute the norms inside the jitted function, from the table it receives")
    working = []
    for call, table in enumerate(tables, 1):
        padded = expected(table, n)[0]
        found = [(c, k) for c in g.jit_spy.calls if c.call == call for k, a in enumerate(c.snapshot)
                 if isinstance(a, np.ndarray) and a.shape in (table.shape, padded.shape)
                 and np.array_equal(a, table if a.shape == table.shape else padded)]
        if not found:
            return g.failed("in_jit", msg("jit.missing", "call {call}: the table's values never reached a jitted "
                                          "function, so the norms were computed outside jit", call=call), advice, tier=1)
        jitted, k = found[0]
        callbacks = fetching_in(g, jitted)
        if callbacks:
            return g.failed("in_jit", msg("jit.callback", "call {call}: {function} fetches values from Python while it "
                                          "runs ({callbacks}): the work is done on the host", call=call,
                                          function=jitted.function, callbacks=sorted(set(callbacks))), advice, tier=1)
        if not _doubles_norms(g, jitted, k, pairs[call - 1][1]):
            return g.failed("in_jit", msg("jit.no_norms", "call {call}: the table reached {function}, but run again "
                                          "with the table doubled, none of its outputs was the norms shard_table "
                                          "returned, doubled: the norms come from somewhere else", call=call, function=jitted.function), advice,
                            tier=1)
        working.append(jitted)
    if refuse_beside_jit(g, "in_jit", working, lambda: g.graded_function(tables[0].copy()), what="the table",
                         graded="shard_table", advice=advice, tier=1, parts=lambda result: [result[1]]):
        return False
    return g.passed("in_jit", msg("jit.ok", "every call computed the norms in a jitted function, from the table"))


def _doubles_norms(g, jitted, k, returned) -> bool:
    """Run the jitted call again as it was and with argument leaf k doubled (placed as it was, inside the mesh the
    learner's code had set around the call, if any): does the output that holds the norms shard_table returned (or
    their first rows) come back doubled?"""
    leaves, tree = jax.tree_util.tree_flatten((jitted.args, jitted.kwargs))
    placed = leaves[k].sharding if isinstance(leaves[k], jax.Array) else None
    runs = []
    for factor in (1, 2):
        changed = factor * jitted.snapshot[k]
        leaves[k] = jax.device_put(changed, placed) if placed is not None else changed
        args, kwargs = jax.tree_util.tree_unflatten(tree, leaves)
        runs.append(rerun(g, jitted, tuple(args), kwargs).outputs or [])
    want = np.asarray(returned, dtype=np.float64).ravel()
    return any(o.ndim == 1 and 0 < o.size <= want.size and np.allclose(o, want[: o.size], rtol=1e-5, atol=1e-6)
               and o2.shape == o.shape and np.allclose(o2, 2 * o, rtol=1e-4, atol=1e-5)
               for o, o2 in zip(*runs))


def _check_values(g, pairs, tables, n) -> None:
    advice = msg("advice.values", "padded = the table with -V % n zero rows appended at the end; norms = "
                 "jnp.linalg.norm(padded, axis=1)")
    for call, ((padded, norms), table) in enumerate(zip(pairs, tables), 1):
        want_t, want_n = expected(table, n)
        ok, why = compare(padded, want_t, rtol=1e-6, atol=0.0, what=msg("what.padded", "the padded table of call {call}",
                                                                        call=call))
        if ok:
            ok, why = compare(norms, want_n, rtol=1e-5, atol=1e-6, what=msg("what.norms", "the norms of call {call}",
                                                                            call=call))
        if not ok:
            g.failed("values", why, advice, tier=1)
            return
    g.passed("values", msg("values.ok", "all {n} results match", n=len(tables)))
