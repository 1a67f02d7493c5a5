"""Splitting a batch over the devices (pmap, shard_map): batch sizes around the device count and the values to
split, which values of x reached the per-device program, and whether the result is built from what that program
returned."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import jax
import numpy as np

from jittrainer.i18n.message import Msg, msg

if TYPE_CHECKING:
    from jittrainer.grading.sandbox.checks.calls import CallRecord, GradedCalls
    from jittrainer.grading.sandbox.checks.context import CheckContext


def batch_sizes(rng: np.random.Generator, devices: int) -> list[int]:
    """Five sizes around the device count d: below d (1 in half of the runs, else 1..d-1), d itself, a multiple
    2d..4d, a non-multiple between d and 4d, and a larger non-multiple; shuffled, so no size class sits at a fixed
    call. A count written into the code, or a split that needs B to be a multiple of d, fails one of them."""
    d = devices
    sizes = [d, d * int(rng.integers(2, 5))]
    if d > 1:
        sizes.append(1 if rng.random() < 0.5 else int(rng.integers(1, d)))
        sizes.append(d * int(rng.integers(1, 4)) + int(rng.integers(1, d)))
        sizes.append(d * int(rng.integers(5, 9)) + int(rng.integers(1, d)))
    else:
        sizes += [1 + int(rng.integers(1, 8)), int(rng.integers(10, 40))]
    return [sizes[i] for i in rng.permutation(len(sizes))]


def batch_values(rng: np.random.Generator, size: int) -> np.ndarray:
    """float32[size] to split over the devices: magnitudes 0.5 to 2 with random signs, so each square adds at least
    0.25 to a sum of squares (a value lost, counted twice or padded with something else shows) and no value looks
    like the padding zeros (``missing_values`` tells them apart)."""
    return (rng.choice([-1.0, 1.0], size) * rng.uniform(0.5, 2.0, size)).astype(np.float32)


def lines_writing(g: CheckContext, n: int) -> list[int]:
    """Lines of the learner's file that write the whole number ``n`` (above 1) as it is, not inside a name or a
    decimal nor right after a ``*``: where a device count (a mesh size, a mapped axis) was written into the code::

        at_line(lines_writing(g, mesh_size), msg("mesh_line", "… line {line} writes a device count …"), msg(…))
    """
    return g.lines_calling(rf"(?<![\w.*]){n}(?![\w.])") if n > 1 else []


def missing_values(x: np.ndarray, arrays: list[np.ndarray]) -> int:
    """How many values of x appear in none of the floating ``arrays`` (in any layout, padded, or as a copy of
    another dtype)."""
    pools = [a.astype(np.float64).ravel() for a in arrays if a.dtype.kind == "f"]
    pool = np.sort(np.concatenate(pools)) if pools else np.empty(0)
    if pool.size == 0:
        return x.size
    want = x.astype(np.float64).ravel()
    at = np.clip(np.searchsorted(pool, want), 1, max(pool.size - 1, 1))
    nearest = np.minimum(np.abs(pool[np.minimum(at, pool.size - 1)] - want), np.abs(pool[at - 1] - want))
    return int(np.sum(nearest > 1e-6 * np.abs(want) + 1e-12))


def doubled(out: Any) -> Any:
    """``out`` with every floating array doubled."""
    return jax.tree_util.tree_map(
        lambda o: o * 2 if hasattr(o, "dtype") and np.issubdtype(o.dtype, np.floating) else o, out)


def doubling_binds(primitives: Iterable[Any]) -> Callable[[bool], None]:
    """A switch for ``ignores_mapped_result``: while on, every one of ``primitives`` (``eqn.primitive`` objects read
    from a recorded jaxpr, such as psum) gives its results doubled wherever it is bound, whichever function of JAX's
    bound it (``jax.lax.psum``, ``pmean``, …)."""
    prims = list(dict.fromkeys(primitives))

    def switch(on: bool) -> None:
        for prim in prims:
            if on:
                real = type(prim).bind.__get__(prim)
                prim.bind = lambda *args, _real=real, **params: doubled(_real(*args, **params))
            else:
                vars(prim).pop("bind", None)

    return switch


def ignores_mapped_result(g: CheckContext, calls: GradedCalls,
                          record: CallRecord | Callable[[int], Any] | None,
                          doubling: Callable[[bool], None]) -> int | None:
    """Run the graded function again on ``record``'s arguments, outside the counted calls, with the per-device
    program's results doubled (``doubling(True)`` turns the exercise's spy on): the call's number when the result
    stays the same (it is not built from what that program returned), else None. ``record`` may be a test of a
    call's number instead: the first graded call that returned and passes it (ran the mapped function)::

        unused = ignores_mapped_result(g, calls, g.pmap_spy.calls_in, lambda on: _STATE.update(double=on))
    """
    if callable(record):
        record = next((r for r in calls.records if r.ok and record(r.index)), None)
    if record is None:
        return None
    try:
        before = np.asarray(record.result, dtype=np.float64)
    except Exception:
        return None
    jax.clear_caches()  # a jit of the learner's around the mapped function must trace again, through the doubling
    doubling(True)
    try:
        with g.recorder.mute():  # the learner's prints would run again
            again = calls.fn(*record.args)
            jax.block_until_ready(again)
            jax.effects_barrier()
        again = np.asarray(again, dtype=np.float64)
    except Exception:
        return None
    finally:
        doubling(False)
        jax.clear_caches()
    if again.shape == before.shape and before.size and np.allclose(again, before, rtol=1e-6, atol=0):
        return record.index
    return None


def refuse_unused(g: CheckContext, check: str, calls: GradedCalls, among: Iterable[int], primitives: list[Any],
                  *, graded: str, advice: Msg | None = None, tier: int | None = None) -> bool:
    """Fail ``check`` (and return True) when ``graded``'s result, run again on the first call ``among`` those (their
    numbers) that returned, stays the same with every result of ``primitives`` (a collective such as psum, found in
    the per-device program) doubled: the program holds the operation, but the result is made another way
    (``0 * psum(...)``, a sum taken outside)."""
    among = set(among)
    record = next((r for r in calls.records if r.ok and r.index in among), None)
    unused = ignores_mapped_result(g, calls, record, doubling_binds(primitives))
    if unused is None:
        return False
    names = sorted({p.name for p in primitives})
    g.failed(check, msg("splits.unused", "call {call}: the per-device program holds {names}, but the result does "
                        "not use what it computes: run again with every result of {names} doubled, {graded} returned "
                        "the same value, so the result was made another way", call=unused, names=names,
                        graded=graded), advice, tier=tier)
    return True
