"""Checks for shard_map_psum: sum_of_squares(x) called as plain Python for five batch sizes drawn from the seed,
the sequel of pmap_shards with jax.shard_map.

The exercise is graded in two workers with different device counts (manifest: devices = [3, 6]), so a count
written into the code fails at least one of them. The sizes are drawn per worker from its own device count: one
below it, one equal, one multiple above it and two non-multiples above it, in a random order.

A spy on jax.shard_map (installed before the learner's file is imported: jax.shard_map, a decorator, partial)
records every call of a shard_mapped function made during the graded calls, eager or under the learner's jit, and
the program it stands for (jax.make_jaxpr of it on the call's arguments, traced outside the counted window): the
mesh, each operand's global and per-device shape, and the collectives in the body. x must be split evenly over
every device of the machine, and the body must add the partial sums with psum. Afterwards one more call, with every
shard_map result doubled, must return something else: the result is built from what shard_map returned.
"""

from __future__ import annotations

import functools

import jax
import numpy as np

from jittrainer.authoring import (
    as_number,
    at_line,
    batch_sizes,
    batch_values,
    calls_words,
    concrete_arrays,
    count,
    doubled,
    ignores_mapped_result,
    iter_eqns,
    lines_writing,
    missing_values,
    msg,
    refuse_fetching,
    refuse_unused,
    values_match,
)

CHECKS = {
    "uses_shard_map": "each call sends x through jax.shard_map and builds its result from it",
    "sharded": "x is split over every device of the mesh, each device getting its own part",
    "psum_inside": "the partial sums are added inside shard_map, with psum",
    "runs": "runs for every batch size",
    "values": "returns sum(x**2)",
}

RTOL = 1e-5
ATOL = 1e-5
PSUMS = ("psum", "psum_invariant")  # jax.lax.psum in a shard_map body (psum_invariant when check_vma is on)
SHARD_TIER = 2  # the hint tier on the mesh, in_specs, padding and psum


# ------------------------------------------------------------------------------------------------ the spy


_STATE = {"double": False}  # mutated, never rebound: the grader checks that this module's names stay put
_RECORDS: list = []


class _Record:
    def __init__(self, call: int, name: str) -> None:
        self.call, self.name = call, name
        self.jaxpr = None  # ClosedJaxpr of the shard_mapped function on this call's arguments
        self.error = ""
        self.arrays: list[np.ndarray] = []  # concrete arguments (none when called under the learner's jit)


def setup(g):
    real = jax.shard_map

    def shard_map(f=None, /, **options):
        if f is None:  # @jax.shard_map(mesh=..., in_specs=..., out_specs=...)
            return lambda fun: shard_map(fun, **options)
        return _Spied(g, real(f, **options), getattr(f, "__name__", "f"))

    functools.update_wrapper(shard_map, real)
    jax.shard_map = shard_map


class _Spied:
    """A shard_mapped function, watched: each call during the graded calls records the program it stands for."""

    def __init__(self, g, mapped, name: str) -> None:
        self._g, self._mapped, self.__name__ = g, mapped, name
        functools.update_wrapper(self, mapped, assigned=("__doc__",), updated=())

    def __call__(self, *args, **kwargs):
        g = self._g
        if g.current_call is not None:
            record = _Record(g.current_call, self.__name__)
            record.arrays = concrete_arrays((args, kwargs))
            try:
                with g.watch.paused(), g.recorder.mute():  # this trace is the grader's, not the learner's
                    record.jaxpr = jax.make_jaxpr(self._mapped)(*args, **kwargs)
            except Exception as exc:
                record.error = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
            _RECORDS.append(record)
        out = self._mapped(*args, **kwargs)
        return doubled(out) if _STATE["double"] else out

    def __getattr__(self, name):
        return getattr(self._mapped, name)


# ------------------------------------------------------------------------------------------------ reading a program


class _Map:
    """One shard_map in a recorded program: its mesh, its operands (global and per-device sizes) and its psums."""

    def __init__(self, eqn) -> None:
        mesh = eqn.params.get("mesh")
        self.axis_names = tuple(getattr(mesh, "axis_names", ()))
        sizes = getattr(mesh, "axis_sizes", None) or tuple(getattr(mesh, "shape", {}).values())
        self.mesh_size = int(np.prod(sizes)) if sizes else 0
        body = eqn.params.get("jaxpr")
        inner = getattr(body, "jaxpr", body)
        self.operands = []  # (global size, local size, is float, global shape, local shape)
        for outer, local in zip(eqn.invars, inner.invars):
            a, b = outer.aval, local.aval
            floating = np.issubdtype(np.dtype(a.dtype), np.floating)
            self.operands.append((int(np.prod(a.shape)), int(np.prod(b.shape)), floating, tuple(a.shape),
                                  tuple(b.shape)))
        self.in_specs = eqn.params.get("in_specs")
        self.out_specs = eqn.params.get("out_specs")
        psums = [e for e in iter_eqns(inner) if e.primitive.name in PSUMS]
        self.psum_axes = [tuple(e.params.get("axes", ())) for e in psums]
        self.psum_prims = [e.primitive for e in psums]

    def data(self, b: int) -> list:
        """The floating operands at least as large as x: where x's values can be."""
        return [op for op in self.operands if op[2] and op[0] >= b]


def _specs(specs) -> str:
    specs = tuple(specs or ())
    return str(specs[0]) if len(specs) == 1 else ", ".join(map(str, specs))


def _maps(records: list[_Record]) -> list[_Map]:
    """The shard_maps in the programs of one call's records (a record whose program did not trace holds none)."""
    return [_Map(e) for r in records if r.jaxpr is not None for e in iter_eqns(r.jaxpr)
            if e.primitive.name == "shard_map"]


# ------------------------------------------------------------------------------------------------ grading


def grade(g):
    sum_of_squares = g.graded(params=1)
    devices = jax.device_count()
    sizes = batch_sizes(g.rng, devices)
    xs = [batch_values(g.rng, b) for b in sizes]
    args = [(jax.device_put(x),) for x in xs]  # jax arrays, made before the graded calls
    # Every call traces afresh, so that the spy sees each call's shard_map even where a jit of the learner's would
    # reuse the program of an earlier call with the same padded shape (compiles are not graded here).
    calls = g.calls(sum_of_squares, args, before=lambda i, a: jax.clear_caches())

    records = {i: [r for r in _RECORDS if r.call == i] for i in range(1, len(sizes) + 1)}
    # Calls that got as far as shard_map with a program to read: every returned call, and the one that raised if
    # its shard_map traced.
    reached = [r.index for r in calls.records if r.ok or any(rec.jaxpr is not None for rec in records[r.index])]
    if reached and _check_uses(g, calls, reached, records, sizes, xs, devices):
        if _check_sharded(g, reached, records, sizes, devices):
            _check_psum(g, calls, reached, records, sizes)
    g.check_ran("runs", calls, _runs_advice, tier=SHARD_TIER, explain=_explain)
    _check_values(g, calls, sizes, xs, devices)


def _pad_advice(devices: int):
    return msg("advice.shard", "n = jax.device_count() ({devices} here): pad x with zeros to a multiple of n, put it "
               "on a mesh of all n devices split along its axis (in_specs=P('i'), the array placed with "
               "NamedSharding(mesh, P('i'))), and add the per-device sums with jax.lax.psum(..., 'i') inside",
               devices=devices)


def _explain(error):
    text = error.message
    if "not evenly divisible" in text or "evenly divide" in text or error.type == "IndivisibleError":
        return msg("explain.divisible", "A batch whose size is not a multiple of the device count cannot be split "
                   "into equal blocks, one per device")
    if "does not match the specs of the input" in text:
        return msg("explain.explicit", "jax.make_mesh makes Explicit axes by default: shard_map then wants x already "
                   "laid out the way in_specs says, and an array on one device is not")
    if "could not infer replication" in text or "which implies that the corresponding output value is replicated" in text:
        return msg("explain.replication", "out_specs=P() says every device returns the same value, but each "
                   "device's sum of its own block is different until the blocks' sums are added across devices")
    if "unbound axis name" in text:
        return msg("explain.axis_name", "A collective names an axis that no mesh around it defines")
    return None


def _runs_advice(error):
    devices = jax.device_count()
    text = error.message
    if "not evenly divisible" in text or "evenly divide" in text or error.type == "IndivisibleError":
        return msg("advice.pad", "pad x with zeros up to a multiple of the device count first: "
                   "jnp.pad(x, (0, -x.shape[0] % n))")
    if "does not match the specs of the input" in text:
        return msg("advice.place", "place x on the mesh before the call: jax.device_put(x, NamedSharding(mesh, "
                   "P('i'))) (or build the mesh with axis_types=(jax.sharding.AxisType.Auto,))")
    if "could not infer replication" in text:
        return msg("advice.psum", "add the partial sums across devices inside the function: "
                   "jax.lax.psum(jnp.sum(chunk**2), 'i')")
    if "negative values" in text:
        return msg("advice.negative_pad", "the padding is computed for a fixed size that some batches exceed: pad by "
                   "-x.shape[0] % n, which is never negative, so any B fits")
    if "must be >= the product of mesh_shape" in text or "devices" in text and "mesh" in text:
        return msg("advice.count", "build the mesh from the machine's count: jax.make_mesh((jax.device_count(),), "
                   "('i',))")
    return _pad_advice(devices) if "shard_map" in text else None


def _check_uses(g, calls, reached, records, sizes, xs, devices) -> bool:
    fail = lambda observation, advice=None: g.failed(  # noqa: E731
        "uses_shard_map", observation, advice or _pad_advice(devices), tier=SHARD_TIER)
    without = [i for i in reached if not _maps(records[i])]
    if without and len(without) == len(reached):
        if "experimental.shard_map" in g.code:
            return fail(msg("uses.experimental", "no jax.shard_map ran during any of the {calls}: your file uses "
                            "jax.experimental.shard_map, deprecated since JAX 0.8; this exercise grades "
                            "jax.shard_map", calls=count("call", len(reached))),
                        msg("advice.top_level", "call jax.shard_map(f, mesh=..., in_specs=..., out_specs=...)"))
        return fail(msg("uses.never", "no jax.shard_map ran during any of the {calls} of sum_of_squares: the sum was "
                        "computed without a per-device program", calls=count("call", len(reached))),
                    msg("advice.use", "build the per-device function with jax.shard_map(f, mesh=mesh, "
                        "in_specs=..., out_specs=...) and call it (jitted, or directly) with x"))
    if without:
        return fail(msg("uses.some", "{calls} (B = {sizes}) ran no jax.shard_map: those batches were computed without "
                        "splitting them over the devices", calls=calls_words(without),
                        sizes=[str(sizes[i - 1]) for i in without]),
                    msg("advice.every", "use the same shard_mapped function for every batch size, small ones "
                        "included: pad x to a multiple of the device count first"))
    for i in reached:
        x, b = xs[i - 1], sizes[i - 1]
        seen = [a for r in records[i] for a in r.arrays] + g.jit_spy.arrays_in(i)
        if missing_values(x, seen) == b:
            return fail(msg("uses.not_x", "call {call} (B = {b}) ran jax.shard_map, but none of x's values reached "
                            "it, nor any jitted function of yours: the work on x happened before, outside the "
                            "per-device program", call=i, b=b))
    # the first call that ran shard_map, run again with every shard_map result doubled: the same result ignores them
    unused = ignores_mapped_result(g, calls, lambda i: any(rec.call == i for rec in _RECORDS),
                                   lambda on: _STATE.update(double=on))
    if unused is not None:
        return fail(msg("uses.unused", "call {call} (B = {b}) ran jax.shard_map, but its result does not use what "
                        "shard_map returned: run again with every shard_map result doubled, sum_of_squares returned "
                        "the same {value:.6g}, so the sum came from work done beside it", call=unused,
                        b=sizes[unused - 1],
                        value=float(np.asarray(calls.records[unused - 1].result, dtype=np.float64).ravel()[0])),
                    msg("advice.use_result", "return what the shard_mapped function returns (the psum of the "
                        "per-device sums)"))
    return refuse_fetching(g, "uses_shard_map", programs=[r.jaxpr for r in _RECORDS if r.jaxpr is not None],
                           passed=msg("uses.ok", "{calls} sent x through jax.shard_map",
                                      calls=count("call", len(reached))))


def _check_sharded(g, reached, records, sizes, devices) -> bool:
    advice = _pad_advice(devices)
    for i in reached:
        b = sizes[i - 1]
        for m in _maps(records[i]):
            common = {"call": i, "b": b, "devices": count("device", devices)}
            if m.mesh_size != devices:
                observation = at_line(lines_writing(g, m.mesh_size), msg(
                    "sharded.mesh_line", "call {call} (B = {b}): the mesh has {size} devices, but this machine has "
                    "{devices}: line {line} writes a device count into the code, and the grader runs with a "
                    "different number of devices each time", size=m.mesh_size, **common), msg(
                    "sharded.mesh", "call {call} (B = {b}): the mesh has {size} devices, but this machine has "
                    "{devices}: the others got no part of x", size=m.mesh_size, **common))
                g.failed("sharded", observation, msg("advice.count", "build the mesh from the machine's count: "
                         "jax.make_mesh((jax.device_count(),), ('i',))"), tier=SHARD_TIER)
                return False
            data = m.data(b)
            if not data:
                g.failed("sharded", msg("sharded.no_data", "call {call} (B = {b}): no argument of the shard_mapped "
                         "function is as large as x (its floating-point arguments hold {sizes} values): x itself "
                         "was not what the devices shared out", sizes=[str(op[0]) for op in m.operands if op[2]] or
                         ["0"], **common), advice, tier=SHARD_TIER)
                return False
            for total, local, _, shape, local_shape in data:
                if local * devices == total:
                    continue
                if local == total:
                    observation = msg("sharded.replicated", "call {call} (B = {b}): every device received all of x "
                                      "(an array of shape {shape}, and each device's block has the same shape "
                                      "{local}): its in_specs entry does not split it, so all {devices} computed the "
                                      "whole sum and nothing was shared out", shape=str(shape),
                                      local=str(local_shape), **common)
                else:
                    observation = msg("sharded.partly", "call {call} (B = {b}): x (shape {shape}) reached each device "
                                      "as a block of shape {local}, {local_n} of its {total} values, where an even "
                                      "split over all {devices} gives each {share}", shape=str(shape),
                                      local=str(local_shape), local_n=local, total=total, share=total // devices,
                                      **common)
                g.failed("sharded", observation, advice, tier=SHARD_TIER)
                return False
    return g.passed("sharded", msg("sharded.ok", "x was split over all {devices}, one equal block each",
                                   devices=count("device", devices)))


def _check_psum(g, calls, reached, records, sizes) -> bool:
    advice = msg("advice.psum_inside", "inside the shard_mapped function, add every device's sum across the mesh "
                 "axis with jax.lax.psum(jnp.sum(chunk**2), 'i'), and return it with out_specs=P()")
    for i in reached:
        b = sizes[i - 1]
        for m in _maps(records[i]):
            covered = {name for axes in m.psum_axes for name in axes}
            if m.psum_axes and set(m.axis_names) <= covered:
                continue
            common = {"call": i, "b": b}
            if m.psum_axes:
                observation = msg("psum.partial_axes", "call {call} (B = {b}): the psum inside shard_map adds over "
                                  "{axes}, but the mesh has the axes {names}: some devices' sums are never added in",
                                  axes=sorted(covered), names=list(m.axis_names), **common)
            elif any(spec is not None and tuple(spec) != () for spec in (m.out_specs or ())):
                observation = msg("psum.outside", "call {call} (B = {b}): the shard_mapped function returns every "
                                  "device's own sum (out_specs {specs}), and they are added up outside shard_map: the "
                                  "reduction does not happen across the devices", specs=_specs(m.out_specs), **common)
            else:
                observation = msg("psum.none", "call {call} (B = {b}): the shard_mapped function adds nothing across "
                                  "devices (no psum in its body), so what it returns is one device's sum, not the "
                                  "total", **common)
            return g.failed("psum_inside", observation, advice, tier=SHARD_TIER)
    prims = [p for i in reached for m in _maps(records[i]) for p in m.psum_prims]
    if refuse_unused(g, "psum_inside", calls, reached, prims, graded="sum_of_squares", advice=advice, tier=SHARD_TIER):
        return False
    return g.passed("psum_inside", msg("psum.ok", "the per-device sums were added across the mesh with psum, inside "
                                       "shard_map"))


def expected(x: np.ndarray) -> float:
    return float(np.sum(x.astype(np.float64) ** 2))


def _check_values(g, calls, sizes, xs, devices) -> None:
    values_match(g, "values", calls.results, [expected(x) for x in xs], rtol=RTOL, atol=ATOL,
                 what=lambda i: msg("what.call", "the result of call {i} (B = {b})", i=i, b=sizes[i - 1]),
                 slip=lambda i, result: _value_slip(as_number(result), xs[i - 1], devices),
                 advice=msg("advice.values", "pad with zeros, which add nothing to a sum of squares, and return the "
                            "psum once"), tier=SHARD_TIER, ok=msg("values.ok", "all {n} results match", n=len(sizes)))


def _value_slip(got: float | None, x: np.ndarray, devices: int):
    """What a wrong sum is; its message begins with {why}, what differs (values_match fills it in)."""
    want = expected(x)
    padded = np.pad(x.astype(np.float64), (0, -x.size % devices))
    first = float(np.sum(padded[: padded.size // devices] ** 2))
    if got is not None and np.isclose(got, devices * want, rtol=1e-4):
        return msg("values.n_times", "{why}: that is {n} times the sum. psum gives every device the total, so adding "
                   "up the {n} per-device results again (or a psum of values every device already held whole) counts "
                   "it {n} times", n=devices)
    if got is not None and np.isclose(got, first, rtol=1e-4) and not np.isclose(first, want, rtol=1e-4):
        return msg("values.first_block", "{why}: that is the sum of the first device's block only; the other "
                   "devices' sums were never added to it")
    return msg("values.other", "{why}; expected the sum of x**2 over the B entries of x")

