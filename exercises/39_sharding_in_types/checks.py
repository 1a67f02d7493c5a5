"""Checks for sharding_in_types: mlp(x, w_in, w_out), a tensor-parallel feed-forward block, graded under jax.jit on
2 and 4 simulated devices (manifest: devices = [2, 4]).

The inputs live on an Explicit mesh set with jax.set_mesh: x replicated, w_in split by columns and w_out by rows
along the hidden dimension H, so the second product sums over a dimension split on both sides and JAX raises
ShardingTypeError until the program says where the total goes. The lesson is read from the types and the compiled
program: y's type splits nothing and every device holds all of it (jax.typeof, addressable_shards), and the program
adds the partial products with an all-reduce or a reduce-scatter while no collective ever builds a whole weight
(an all-gather of w_out is the "fix" that throws tensor parallelism away).
"""

from __future__ import annotations

import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

from jittrainer.authoring import collectives, compiled_text, count, layout_of, msg, values_match

CHECKS = {
    "runs": "mlp returns for every call",
    "replicated": "y comes back whole on every device",
    "weights_split": "the weights stay split and the partial products are summed in the program",
    "values": "returns gelu(x @ w_in) @ w_out",
}

CALLS = 3
TIER = 2  # the hint tier that names out_sharding and reshard
SUMS = ("all-reduce", "reduce-scatter")


def draw_shape(rng: np.random.Generator, n: int) -> tuple[int, int, int]:
    """(B, D, H): n times three different multipliers (1-3, 1-3, 2-5), so no two of x, w_in, w_out and the hidden
    layer share a shape and a gathered weight is told apart from a gathered activation."""
    b, d = (int(v) for v in rng.choice([1, 2, 3], 2, replace=False))
    h = int(rng.choice([v for v in range(2, 6) if v not in (b, d)]))
    return n * b, n * d, n * h


def make_inputs(rng: np.random.Generator, shape: tuple[int, int, int]) -> tuple[np.ndarray, ...]:
    b, d, h = shape
    x = rng.normal(0.0, 1.0, (b, d))
    w_in = rng.normal(0.0, 1.0 / np.sqrt(d), (d, h))
    w_out = rng.normal(0.0, 1.0 / np.sqrt(h), (h, d))
    return tuple(a.astype(np.float32) for a in (x, w_in, w_out))


def expected(x: np.ndarray, w_in: np.ndarray, w_out: np.ndarray) -> np.ndarray:
    z = x.astype(np.float64) @ w_in.astype(np.float64)
    hidden = 0.5 * z * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (z + 0.044715 * z**3)))  # jax.nn.gelu's default
    return hidden @ w_out.astype(np.float64)


def grade(g):
    mlp = g.graded(params=3)
    n = jax.device_count()
    mesh = jax.make_mesh((n,), ("model",))
    specs = (P(), P(None, "model"), P("model", None))
    shape = draw_shape(g.rng, n)
    inputs = [make_inputs(g.rng, shape) for _ in range(CALLS)]
    placed = [tuple(jax.device_put(a, NamedSharding(mesh, s)) for a, s in zip(arrays, specs)) for arrays in inputs]
    jax.set_mesh(mesh)  # as a training script does once: bare PartitionSpecs refer to this mesh
    calls = g.calls(mlp, placed)
    g.check_ran("runs", calls, _runs_advice, tier=TIER, explain=_explain)
    _check_replicated(g, calls.results, shape, n)
    _check_program(g, mlp, placed[0], shape)
    values_match(g, "values", calls.results, [expected(*arrays) for arrays in inputs], rtol=1e-4, atol=1e-5,
                 advice=msg("advice.values", "y = jax.nn.gelu(x @ w_in) @ w_out, with gelu's default approximation"),
                 tier=1, ok=msg("values.ok", "all {n} results match", n=CALLS))


def _explain(error):
    text = error.message
    if "Contracting dimensions are sharded" in text:
        return msg("explain.ambiguous", "Both operands of that product are split along the dimension it sums over, "
                   "so every device holds only a partial sum. Whether the total should end up whole on every device "
                   "or split into blocks is a choice, and with Explicit axes JAX will not make it for you")
    if "acts as an assert" in text:
        return msg("explain.assert", "With every mesh axis Explicit and a mesh set, with_sharding_constraint does "
                   "not move data: it checks that the array already has that sharding, and raises when it does not")
    if "evenly divide" in text or error.type == "IndivisibleError":
        return msg("explain.divide", "A sharding that splits an axis over the devices needs that axis's length to "
                   "divide evenly by the device count")
    return None


def _runs_advice(error):
    if "Contracting dimensions are sharded" in error.message or "acts as an assert" in error.message:
        return msg("advice.out_sharding", "say where the total goes in the product itself: jnp.dot(hidden, w_out, "
                   "out_sharding=P()); jit's out_shardings comes too late, and with_sharding_constraint only checks")
    return None


def _check_replicated(g, results, shape, n) -> bool:
    b, d, _ = shape
    for call, y in enumerate(results, 1):
        layout = layout_of(y)
        split = _spec_axes(y)
        if layout.split_like(n, (b, d)) and not split:
            continue
        common = {"call": call, "type": layout.type or type(y).__name__, "b": b, "d": d}
        if split:
            observation = msg("rep.split", "call {call}: y has the type {type}: it is split over {axes}, so each "
                              "device holds a block of shape {block} of the ({b}, {d}) result, not all of it",
                              axes=split, block=str(layout.shard or layout.shards[:1]), **common)
        elif layout.kind != "named" and g.feeding_callbacks():
            observation = msg("rep.callback", "call {call}: y is not laid out on the mesh ({sharding}): it is what a "
                              "host callback returned ({callbacks}), not something the devices computed",
                              sharding=str(y.sharding), callbacks=sorted(set(g.feeding_callbacks())), **common)
        else:
            observation = msg("rep.where", "call {call}: y (type {type}, sharding {sharding}) is not whole on every "
                              "one of the {devices}: its blocks are {blocks}", devices=count("device", n),
                              sharding=str(getattr(y, "sharding", "-")), blocks=str(list(layout.shards)), **common)
        return g.failed("replicated", observation, msg("advice.replicated", "ask for the total on every device: "
                        "out_sharding=P() on the product that sums over H"), tier=TIER)
    return g.passed("replicated", msg("rep.ok", "y came back whole on all {devices} ({type})",
                                      devices=count("device", n), type=layout_of(results[0]).type))


def _spec_axes(y) -> list[str]:
    """The mesh axes y's type splits it over (jax.typeof, as inside jit)."""
    try:
        spec = jax.typeof(y).sharding.spec
    except Exception:
        return []
    names = []
    for entry in spec:
        names += [entry] if isinstance(entry, str) else list(entry or ())
    return names


def _check_program(g, mlp, args, shape) -> bool:
    b, d, h = shape
    advice = msg("advice.split", "keep w_in and w_out as they are: state the product's result sharding with "
                 "out_sharding=P(), so that each device multiplies its own slice of H and one all-reduce adds them")
    callbacks = g.feeding_callbacks()
    if callbacks:
        return g.failed("weights_split", msg("split.callback", "the program hands the work to Python while it runs "
                        "({callbacks}): the devices do not compute y", callbacks=sorted(set(callbacks))), advice, tier=1)
    text, error = compiled_text(g, mlp, *args)
    if not text:
        return g.failed("weights_split", msg("split.no_program", "the grader could not compile mlp again for call "
                        "1's arguments to read its program ({error})", error=error), advice, tier=TIER)
    found = collectives(text)
    weights = {(d, h): "w_in", (h, d): "w_out"}
    for c in found:
        whole = [weights[s] for s in c.shapes if s in weights]
        if whole:
            return g.failed("weights_split", msg(
                "split.gathered", "the compiled program has an {kind} that builds {weight} whole, {shape}, on every "
                "device: each device then holds the full weight, which tensor parallelism exists to avoid, and "
                "multiplies with it (the program's collectives: {kinds})", kind=c.kind, weight=whole[0],
                shape=str(c.shapes[0]), kinds=[k.kind for k in found]), advice, tier=TIER)
    if not any(c.kind in SUMS for c in found):
        return g.failed("weights_split", msg(
            "split.no_sum", "the compiled program adds nothing across the devices (no all-reduce or reduce-scatter; "
            "its collectives: {kinds}), so no device's result includes the other devices' slices of H",
            kinds=[c.kind for c in found] or ["none"]), advice, tier=TIER)
    sums = sorted({c.kind for c in found if c.kind in SUMS})
    return g.passed("weights_split", msg("split.ok", "the weights stayed split: the program adds the partial "
                                         "products with {sums} and gathers no weight", sums=sums))
