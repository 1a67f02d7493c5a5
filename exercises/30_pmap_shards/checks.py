"""Checks for pmap_shards: sum_of_squares(x) called as plain Python for five batch sizes drawn from the seed.

The exercise is graded in two workers with different device counts (manifest: devices = [3, 6]), so a count
written into the code fails at least one of them. The sizes are drawn per worker from its own device count: one
below it, one equal, one multiple above it and two non-multiples above it, in a random order.

The pmap spy (installed before the learner's file is imported; ``jax.pmap``, ``from jax import pmap``, decorators
and ``pmap(f).lower(x).compile()`` alike) records every call of a pmapped function: the size of each mapped axis
and the concrete arrays passed along a mapped axis. Each graded call must reach pmap with x itself on a mapped axis
(not broadcast, not summed on the host), and every pmapped call must map exactly jax.local_device_count() entries.
Afterwards one more call, with every pmapped result doubled, must return something else: the result is built from
what pmap returned, not from work done beside it.
"""

import jax
import numpy as np

from jittrainer.authoring import (
    as_floats,
    at_line,
    batch_sizes,
    batch_values,
    calls_words,
    compare,
    count,
    doubled,
    hooked,
    ignores_mapped_result,
    lines_writing,
    missing_values,
    msg,
    refuse_fetching,
)

CHECKS = {
    "uses_pmap": "each call splits x itself over the devices with jax.pmap",
    "all_devices": "every pmapped call maps an axis of jax.local_device_count() entries",
    "runs": "runs for every batch size",
    "values": "returns sum(x**2)",
}

RTOL = 1e-5
ATOL = 1e-5
PAD_TIER = 2  # the hint tier that explains padding, reshaping to (devices, -1) and adding up the partial sums


# ------------------------------------------------------------------------------------- what reached the devices


def setup(g):
    # The spy keeps the concrete arrays of each pmapped call; a pmap inside the learner's own jit only gets
    # tracers. Also note how many floating elements each call passed along a mapped axis (tracers included), so
    # that a pmap under jit that maps a dummy axis and broadcasts x is caught too.
    spy = g.pmap_spy
    record = spy.record

    def recording(real, args, kwargs, spec):
        call = record(real, args, kwargs, spec)
        call.mapped_floats = _mapped_floats(args, kwargs, spec)
        return call

    spy.record = recording

    # Every pmapped function the learner's code builds returns its results doubled while _STATE["double"] is on
    # (ahead-of-time compiled ones too): a rerun then shows whether sum_of_squares uses what pmap returned.
    spy_pmap = spy.pmap

    def pmap(fun, axis_name=None, **options):
        return hooked(spy_pmap(fun, axis_name, **options), _doubled)

    spy.pmap = pmap  # installed as jax.pmap right after setup


_STATE = {"double": False}  # mutated, never rebound: the grader checks that this module's names stay put


def _doubled(out):
    return doubled(out) if _STATE["double"] else out


def _float_elements(tree) -> int:
    total = 0
    for leaf in jax.tree_util.tree_leaves(tree):
        dtype = getattr(leaf, "dtype", None)
        if dtype is not None and np.issubdtype(dtype, np.floating):
            total += int(np.prod(np.shape(leaf), dtype=np.int64))
    return total


def _mapped_floats(args, kwargs, spec) -> int | None:
    try:
        axes = spec.in_axes if isinstance(spec.in_axes, (list, tuple)) else [spec.in_axes] * len(args)
        total = 0
        for i, (arg, axis) in enumerate(zip(args, axes)):
            if i in spec.static or axis is None:
                continue
            if isinstance(axis, int):
                total += _float_elements(arg)
            else:
                pairs = []
                jax.tree_util.tree_map(lambda ax, sub: pairs.append((ax, sub)), axis, arg,
                                       is_leaf=lambda v: v is None)
                total += sum(_float_elements(sub) for ax, sub in pairs if ax is not None)
        return total + _float_elements(list(kwargs.values()))
    except Exception:
        return None


def _shapes(arrays: list[np.ndarray]) -> list[str]:
    seen = list(dict.fromkeys(f"{a.dtype}{list(a.shape)}" for a in arrays))
    return seen[:4] or ["-"]


# ----------------------------------------------------------------------------------------------------- advice


def _pad_advice(devices: int):
    return msg("advice.pad", "n = jax.local_device_count() ({devices} here): pad x with zeros up to a multiple of n "
               "(jnp.pad(x, (0, -len(x) % n))), reshape it to (n, -1) and pmap a function that sums the squares of "
               "its row", devices=devices)


def _runs_advice(error):
    devices = jax.local_device_count()
    text = error.message
    if "cannot reshape" in text:
        return msg("advice.reshape", "a length that is not a multiple of the device count ({devices}) cannot be "
                   "reshaped to (n, -1): pad x with zeros first (jnp.pad or np.pad), then reshape", devices=devices)
    if "squeeze out" in text or "evenly divide" in text or error.type == "IndivisibleError" or (
            "devices" in text and ("requires" in text or "available" in text)):
        return _pad_advice(devices)
    if "negative values" in text:
        return msg("advice.negative_pad", "the padding is computed for a fixed size that some batches exceed: pad "
                   "by -len(x) % n, which is never negative, so any B fits")
    if "at least one argument with a mapped axis" in text:
        return msg("advice.map_x", "pmap must map x (padded and reshaped) along axis 0: leave in_axes at its "
                   "default, 0")
    if "unbound axis name" in text:
        return msg("advice.axis_name", "psum and axis_index need the axis_name given to pmap: "
                   "jax.pmap(f, axis_name='i') with jax.lax.psum(v, 'i')")
    return None


# ------------------------------------------------------------------------------------------------------ grade


def grade(g):
    sum_of_squares = g.graded(params=1)
    spy = g.pmap_spy
    devices = jax.local_device_count()
    sizes = batch_sizes(g.rng, devices)
    xs = [batch_values(g.rng, b) for b in sizes]
    args = [(jax.device_put(x),) for x in xs]  # jax arrays, made before the graded calls
    calls = g.calls(sum_of_squares, args)

    # Calls that got as far as they could: every returned call, plus the one that raised if it reached pmap.
    reached = [r.index for r in calls.records if r.ok or spy.calls_in(r.index)]
    if reached:
        _check_uses_pmap(g, calls, reached, sizes, xs, devices)
        _check_all_devices(g, reached, sizes, devices)

    g.check_ran("runs", calls, _runs_advice, tier=PAD_TIER)
    _check_values(g, calls, sizes, xs, devices)


def _check_uses_pmap(g, calls, reached, sizes, xs, devices):
    spy = g.pmap_spy
    fail = lambda observation, advice=None: g.failed(  # noqa: E731
        "uses_pmap", observation, advice or _pad_advice(devices), tier=PAD_TIER)

    missing = [r.index for r in calls.records if r.ok and not spy.calls_in(r.index)]
    if missing and not any(spy.calls_in(i) for i in reached):
        return fail(msg("pmap.never", "no pmapped function ran during any of the {calls} of sum_of_squares: this "
                        "exercise grades pmap's one-entry-per-device rule, so the work must go through jax.pmap (new "
                        "code would use jax.shard_map or jit with shardings, which split the data in their own way)",
                        calls=count("call", len(reached))),
                    msg("advice.use_pmap", "build the per-device function with jax.pmap (a decorator, a wrapper, or "
                        "jax.pmap(f).lower(rows).compile()) and pass it x, padded and reshaped to one row per device"))
    if missing:
        return fail(msg("pmap.some_calls", "{calls} (B = {sizes}) made no jax.pmap call: those batches were computed "
                        "without splitting them over the devices",
                        calls=calls_words(missing), sizes=[str(sizes[i - 1]) for i in missing]),
                    msg("advice.every_call", "use the same pmapped function for every batch size, small ones included: "
                        "pad x up to a multiple of jax.local_device_count() and reshape it to (n, -1)"))

    for i in reached:
        pmapped = spy.calls_in(i)
        x, b = xs[i - 1], sizes[i - 1]
        concrete = any(c.arrays for c in pmapped)
        if not concrete:  # pmap inside the learner's jit: only tracers, so count what was mapped
            mapped = [getattr(c, "mapped_floats", None) for c in pmapped]
            if None not in mapped and sum(mapped) < b:
                return fail(msg("pmap.traced_dummy", "call {call} (B = {b}) passed pmap only {n} floating-point values "
                                "along a mapped axis, fewer than the {b} values of x: x was not split over the devices "
                                "(it went to every device whole, as a broadcast argument or a captured value)",
                                call=i, b=b, n=sum(mapped)))
            continue
        along = [a for c in pmapped for a in c.mapped_arrays]
        lost = missing_values(x, along)
        if lost:
            everywhere = missing_values(x, [a for c in pmapped for a in c.arrays])
            common = {"call": i, "b": b, "got": _shapes(along)}
            if everywhere == 0:
                observation = msg(
                    "pmap.broadcast", "call {call} (B = {b}) passed x to its pmapped function whole, as an argument "
                    "that is not mapped (its in_axes entry is None), and mapped only {got}: every device received "
                    "all of x, so nothing was split", **common)
            elif lost == b:
                observation = msg(
                    "pmap.not_x", "call {call} (B = {b}) called a pmapped function, but none of x's values was among "
                    "the arrays it split over the devices (it mapped {got}): the work on x happened outside pmap, "
                    "or every device saw all of x", **common)
            else:
                observation = msg(
                    "pmap.part_of_x", "call {call} (B = {b}) split only part of x over the devices: {lost} of its "
                    "{b} values never reached the pmapped function (it mapped {got}): they were dropped, or "
                    "handled outside pmap", lost=lost, **common)
            return fail(observation)
    idle = next((i for i in reached if spy.calls_in(i) and all(c.passes_input_through() for c in spy.calls_in(i))),
                None)
    if idle is not None:
        return fail(msg("pmap.identity", "call {call} (B = {b}) sent x through jax.pmap, but the pmapped function "
                        "returned its input unchanged: the squares and the sum were computed outside pmap",
                        call=idle, b=sizes[idle - 1]),
                    msg("advice.inside", "square and sum inside the pmapped function (jnp.sum(row**2)) and only add "
                        "up the per-device results outside"))
    # the first call that reached pmap, run again with every pmapped result doubled: the same result ignores them
    unused = ignores_mapped_result(g, calls, g.pmap_spy.calls_in, lambda on: _STATE.update(double=on))
    if unused is not None:
        return fail(msg("pmap.unused", "call {call} (B = {b}) ran jax.pmap, but its result does not use what the "
                        "pmapped function returned: run again with every pmapped result doubled, sum_of_squares "
                        "returned the same {value:.6g}, so the sum came from work done outside pmap", call=unused,
                        b=sizes[unused - 1],
                        value=float(np.asarray(calls.records[unused - 1].result, dtype=np.float64).ravel()[0])),
                    msg("advice.use_result", "return each device's partial sum from the pmapped function "
                        "(jnp.sum(row**2)) and build the result from those: jnp.sum(per_device)"))
    refuse_fetching(g, "uses_pmap", passed=msg("pmap.ok", "{calls} split x over the devices with jax.pmap",
                                               calls=count("call", len(reached))))


def _check_all_devices(g, reached, sizes, devices):
    spy = g.pmap_spy
    pmapped = [c for i in reached for c in spy.calls_in(i)]
    if not pmapped:
        return  # uses_pmap has failed already: no pmap call to judge
    bad = [c for c in pmapped if not c.mapped_sizes or any(s != c.devices for s in c.mapped_sizes)]
    if not bad:
        return g.passed("all_devices", msg("devices.ok", "every pmapped call mapped an axis of size {n}, the device "
                                           "count: one row per device", n=devices))
    advice = _pad_advice(devices)
    first = bad[0]
    b = sizes[first.call - 1]
    if not first.mapped_sizes:
        return g.failed("all_devices", msg("devices.none", "call {call} (B = {b}) called a pmapped function that "
                                           "maps no axis at all", call=first.call, b=b), advice, tier=PAD_TIER)
    size = next(n for n in first.mapped_sizes if n != devices)
    others = sorted({c.call for c in bad} - {first.call})
    # One size that is not the device count, whatever B was (or, when only one call got that far, a size that
    # follows neither B nor the device count, written as a number in the code): a device count written in.
    wrong_sizes = {n for c in bad for n in c.mapped_sizes if n != devices}
    bad_calls = {c.call for c in bad}
    literal = lines_writing(g, size)
    if len(reached) > 1:
        fixed = (wrong_sizes == {size} and len(bad_calls) == len(reached) and size > 1
                 and len({sizes[i - 1] for i in reached}) > 1)
    else:
        fixed = bool(literal) and size not in (b, -(-b // devices))
    if fixed:
        common = {"size": size, "devices": count("device", devices), "calls": count("call", len(reached))}
        if len(reached) > 1:
            observation = at_line(literal, msg(
                "devices.hard_coded_line", "all {calls} mapped an axis of size {size} whatever B was, but this run "
                "has {devices}: line {line} writes a device count into the code, and the grader runs with a "
                "different number of devices each time", **common), msg(
                "devices.hard_coded", "all {calls} mapped an axis of size {size} whatever B was, but this run has "
                "{devices}: a fixed device count, while the grader runs with a different number of devices each "
                "time", **common))
        else:
            observation = msg("devices.hard_coded_first", "call {call} (B = {b}) mapped an axis of size {size}, "
                              "but this run has {devices}: line {line} writes a device count into the code, and the "
                              "grader runs with a different number of devices each time", call=first.call, b=b,
                              line=literal[0], **{k: v for k, v in common.items() if k != "calls"})
        return g.failed("all_devices", observation, msg("advice.ask_count", "ask JAX for the count when the function "
                        "runs, n = jax.local_device_count(), and shape x to (n, -1)"), tier=PAD_TIER)
    common = {"call": first.call, "b": b, "size": size, "devices": count("device", devices)}
    if size < devices:
        observation = msg("devices.idle", "call {call} (B = {b}) mapped an axis of size {size} over {devices}: "
                          "pmap gives each device one entry of the mapped axis, so only {size} of them got work and "
                          "the rest sat idle", **common)
    else:
        observation = msg("devices.too_many", "call {call} (B = {b}) mapped an axis of size {size} over "
                          "{devices}: pmap gives each device one entry of the mapped axis, so it needs one device "
                          "per entry, and there are fewer", **common)
    if others:
        other_sizes = [str(next(n for n in c.mapped_sizes if n != devices)) if c.mapped_sizes else "0"
                       for c in [next(c for c in bad if c.call == i) for i in others]]
        if len(others) == 1:
            observation = msg("devices.also_one", "{first}; call {call} mapped an axis of size {size}",
                              first=observation, call=others[0], size=other_sizes[0])
        else:
            observation = msg("devices.also_many", "{first}; calls {calls} mapped axes of size {sizes}",
                              first=observation, calls=[str(i) for i in others], sizes=other_sizes)
    g.failed("all_devices", observation, advice, tier=PAD_TIER)


def _check_values(g, calls, sizes, xs, devices):
    wrong = []  # (index, got as float or None, want, why)
    for i, (x, result) in enumerate(zip(xs, calls.results), 1):
        want = float(np.sum(x.astype(np.float64) ** 2))
        ok, why = compare(result, want, rtol=RTOL, atol=ATOL, what=msg("what.call", "the result of call {i} "
                                                                       "(B = {b})", i=i, b=sizes[i - 1]))
        if not ok:
            wrong.append((i, as_floats(result), want, why))
    if not wrong:
        return g.passed("values", msg("values.ok", "all {n} results match", n=len(sizes)))
    i, got, want, why = wrong[0]
    b = sizes[i - 1]
    pad = -b % devices
    scalar = got is not None and got.size == 1
    value = float(got.reshape(())) if scalar else None
    advice = msg("advice.sum", "pad with zeros, which add nothing to a sum of squares, and add up the per-device "
                 "partial sums once (jnp.sum of the pmap's result, or one entry of a psum)")
    # Padding with something other than zero: every wrong call is too large by (padding entries) x (one square),
    # and every call that needed no padding is right.
    per_pad = [_extra_per_pad(got_j, want_j, -sizes[j - 1] % devices) for j, got_j, want_j, _ in wrong]
    if scalar and pad and all(p is not None and p > 0 for p in per_pad) and np.allclose(per_pad, per_pad[0],
                                                                                          rtol=1e-3):
        g.failed("values", msg("values.padding", "{why}: that is {extra:.4g} too much, {each:.4g} for each of the "
                               "{pad} padding entries, and only the calls whose B is not a multiple of the device "
                               "count ({devices}) are wrong: the padding value adds its square to the sum", why=why,
                               extra=value - want, each=per_pad[0], pad=pad, devices=devices),
                 msg("advice.pad_zeros", "pad with zeros, which add nothing to a sum of squares: jnp.pad(x, (0, k)) "
                     "pads with zeros by default"), tier=PAD_TIER)
    elif scalar and np.isclose(value, devices * want, rtol=1e-4):
        g.failed("values", msg("values.psum_twice", "{why}: that is {n} times the sum, one total per device. After "
                               "lax.psum every device already holds the total across devices, so adding up the {n} "
                               "per-device results counts it {n} times", why=why, n=devices),
                 msg("advice.psum_once", "after a psum take one entry of the result (result[0]), or drop the psum "
                     "and add up the partial sums with jnp.sum"), tier=PAD_TIER)
    elif got is not None and got.ndim == 1 and got.size == devices:
        g.failed("values", msg("values.partial_sums", "{why}: that is one partial sum per device, not their total",
                               why=why), msg("advice.add_up", "add up what pmap returns into one number: "
                                             "jnp.sum(per_device)"), tier=PAD_TIER)
    else:
        g.failed("values", msg("values.other", "{why}; expected the sum of x**2 over the B entries of x", why=why),
                 advice, tier=PAD_TIER)


def _extra_per_pad(got, want: float, pad: int) -> float | None:
    """How much too large a scalar result is, per padding entry (None: no padding, or not a scalar)."""
    if not pad or got is None or got.size != 1:
        return None
    return (float(got.reshape(())) - want) / pad
