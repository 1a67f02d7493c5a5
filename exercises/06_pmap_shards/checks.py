"""Checks for pmap_shards: sum_of_squares(x) for B = 3, 8, 9, 13, called as plain Python.

The pmap spy (installed before the learner's file is imported, so ``jax.pmap`` and ``from jax import pmap`` are
both covered) records the size of every mapped axis. Each graded call must reach jax.pmap, and every pmap call
must map an axis of exactly jax.local_device_count() entries: one row per device, all devices busy.
"""

import jax
import numpy as np

from jittrainer.core.toolkit import compare, plural

CHECKS = {
    "uses_pmap": "each call splits its work over the devices with jax.pmap",
    "all_devices": "every pmap maps an axis of jax.local_device_count() entries",
    "runs": "runs for B = 3, 8, 9 and 13",
    "values": "returns sum(x**2)",
}

SIZES = (3, 8, 9, 13)
RTOL = 1e-5
ATOL = 1e-5


def setup(g):
    g.spy_pmap()


def make_x(rng: np.random.Generator, size: int) -> np.ndarray:
    """float32[size], magnitudes 0.5..2 with random signs: each square adds at least 0.25."""
    return (rng.choice([-1.0, 1.0], size) * rng.uniform(0.5, 2.0, size)).astype(np.float32)


def expected(x: np.ndarray) -> float:
    return float(np.sum(x.astype(np.float64) ** 2))


def fix(devices: int) -> str:
    return (
        f"pad x with zeros to a multiple of jax.local_device_count() ({devices}) and reshape it to "
        f"(devices, -1), so each device gets one row"
    )


def values_not_sent(x: np.ndarray, pmapped) -> int:
    """How many values of x appear in none of the concrete floating arrays passed to the pmapped calls (any layout,
    padding, dtype copy). 0 when every pmapped call got tracers (pmap inside jit): nothing concrete to compare."""
    arrays = [np.asarray(a) for c in pmapped for a in c.arrays]
    pools = [a.astype(np.float64).ravel() for a in arrays if a.dtype.kind == "f"]
    if not any(c.arrays for c in pmapped):
        return 0
    pool = np.sort(np.concatenate(pools)) if pools else np.empty(0)
    if pool.size == 0:
        return x.size
    want = x.astype(np.float64).ravel()
    if pool.size == 1:
        nearest = np.abs(pool[0] - want)
    else:
        at = np.clip(np.searchsorted(pool, want), 1, pool.size - 1)
        nearest = np.minimum(np.abs(pool[at] - want), np.abs(pool[at - 1] - want))
    return int(np.sum(nearest > 1e-6 * np.abs(want) + 1e-12))


def advice(error) -> str:
    devices = jax.local_device_count()
    text = error.message
    if "cannot reshape" in text:
        return (
            f"B is not always a multiple of {devices}: pad x with zeros first (jnp.pad or np.pad), then reshape it "
            f"to ({devices}, -1)"
        )
    if "squeeze out" in text:
        return (
            f"pmap gives each device one entry of axis 0, so that axis may have at most {devices} entries (one per "
            f"device) and had more; the shape in the message is what each device would have got. Instead, {fix(devices)}"
        )
    if "evenly divide" in text or error.type == "IndivisibleError":
        return (
            f"pmap could not split axis 0 over the {devices} devices: like 9 buns for 4 stoves, the entries do not "
            f"divide evenly. Instead, {fix(devices)}"
        )
    if "devices" in text and ("requires" in text or "available" in text):
        return f"pmap needs one device per entry of the mapped axis and there are {devices}: {fix(devices)}"
    if "at least one argument with a mapped axis" in text:
        return "pmap must map x along axis 0: leave in_axes at its default, 0"
    if "unbound axis name" in text:
        return "psum and axis_index need the axis_name you gave pmap: jax.pmap(f, axis_name='i')"
    return ""


def grade(g):
    sum_of_squares = g.graded(params=1)
    spy = g.pmap_spy
    xs = [make_x(g.rng, b) for b in SIZES]
    args = [(jax.device_put(x),) for x in xs]  # jax arrays, made before the graded calls
    calls = g.calls(sum_of_squares, args)
    devices = jax.local_device_count()

    def label(i: int) -> str:
        return f"call {i} (B={SIZES[i - 1]})"

    # Calls that got as far as they could: every returned call, plus the one that raised if it reached pmap.
    reached = [r.index for r in calls.records if r.ok or spy.calls_in(r.index)]
    if reached:
        missing = [r.index for r in calls.records if r.ok and not spy.calls_in(r.index)]
        if missing:
            if not any(spy.calls_in(i) for i in reached):
                message = (
                    f"sum_of_squares never called jax.pmap ({plural(len(reached), 'call')}). This exercise grades "
                    "jax.pmap: split the work over the devices with it (new code would use jax.shard_map or jit with "
                    "shardings, but here the point is pmap's one-entry-per-device rule)"
                )
            else:
                message = (
                    ", ".join(label(i) for i in missing)
                    + " made no jax.pmap call: every call must split its work over the devices with jax.pmap"
                )
            g.check("uses_pmap", False, message)
        else:
            unsent = next(((i, n) for i in reached if (n := values_not_sent(xs[i - 1], spy.calls_in(i)))), None)
            idle = next((i for i in reached if all(c.passes_input_through() for c in spy.calls_in(i))), None)
            if unsent is None and idle is not None:
                g.check(
                    "uses_pmap",
                    False,
                    f"{label(idle)} called jax.pmap, but the pmapped function returned its input unchanged: the "
                    "squares and the sum were computed outside pmap. Square and sum inside the pmapped function",
                )
            elif unsent is None:
                g.check("uses_pmap", True, passed=f"{plural(len(reached), 'call')} used jax.pmap on all of x")
            else:
                i, n = unsent
                b = SIZES[i - 1]
                got = ", ".join(f"{a.dtype}{list(a.shape)}" for c in spy.calls_in(i) for a in c.arrays[:3])
                which = "none of x's values reached" if n == b else f"{n} of x's {b} values never reached"
                g.check(
                    "uses_pmap",
                    False,
                    f"{label(i)} called jax.pmap, but {which} the pmapped function (it got {got or 'no arrays'}): "
                    "the work was done outside pmap. Pass x itself, padded and reshaped to (devices, -1), to the "
                    "pmapped function",
                )

        mapped = [c for i in reached for c in spy.calls_in(i)]
        bad = [c for c in mapped if not c.mapped_sizes or any(s != c.devices for s in c.mapped_sizes)]
        if mapped and not bad:
            g.check("all_devices", True, passed=f"every pmap mapped an axis of {devices}: one row per device")
        elif mapped:
            parts = []
            for i in sorted({c.call for c in bad}):
                c = next(c for c in bad if c.call == i)
                if not c.mapped_sizes:
                    parts.append(f"{label(i)} called a pmapped function that maps no axis")
                    continue
                size = next(n for n in c.mapped_sizes if n != c.devices)
                if not parts:
                    text = f"{label(i)} mapped an axis of {size} over {c.devices} devices"
                    if size < c.devices:
                        text += f", so only {size} of them got work"
                    else:
                        text += ", but pmap needs one device per entry"
                    parts.append(text)
                else:
                    parts.append(f"{label(i)} mapped {size}")
            message = "; ".join(parts)
            g.check("all_devices", False, f"{message}: {fix(devices)}")

    g.check_ran("runs", calls, advice=advice)

    for i, (x, result) in enumerate(zip(xs, calls.results), 1):
        want = expected(x)
        ok, why = compare(result, want, rtol=RTOL, atol=ATOL, what=f"the result of {label(i)}")
        if ok:
            continue
        pad = -SIZES[i - 1] % devices
        try:
            got = np.asarray(result, dtype=np.float64)
        except Exception:
            got = None
        if got is not None and got.size == 1 and pad and np.isclose(float(got.reshape(())) - want, pad, rtol=1e-4):
            why += (
                f": that is {pad} too much, one for each of the {pad} padding entries. Pad with zeros, which add "
                "nothing to a sum of squares"
            )
        elif got is not None and got.size == 1 and np.isclose(float(got.reshape(())), devices * want, rtol=1e-4):
            why += (
                f": that is {devices} times the sum. After lax.psum every device already holds the total across "
                f"devices, so adding up the {devices} per-device results counts it {devices} times: take one entry "
                "(result[0]), or drop the psum and add up the partial sums"
            )
        elif got is not None and got.ndim == 1 and got.size == devices:
            why += ": add up the per-device partial sums into one number (after a psum, take one entry)"
        else:
            why += "; expected the sum of x**2 over the B entries of x"
        g.check("values", False, why)
        return
    g.check("values", True, passed=f"all {len(SIZES)} results match")
