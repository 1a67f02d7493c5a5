"""Running one recorded jitted call again with its data moved: where a vector sits among the call's arguments (a
contiguous run, along a row or down a column), a copy of an argument with those places shifted, and what the call
returns when run again, outside the counted calls. An exercise proves that a result follows the data with these:
shift the data by a known amount, run the jitted call again, and see whether its output moved by what it should."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import jax
import numpy as np

from jittrainer.grading.sandbox.checks.values import is_tracer

if TYPE_CHECKING:
    from jittrainer.grading.sandbox.checks.context import CheckContext
    from jittrainer.grading.sandbox.checks.jit_calls import JitCall


def runs_in(leaf: Any, v: np.ndarray, *, tol: float | None = None, limit: int = 64) -> list[np.ndarray]:
    """Flat indices (into ``leaf.reshape(-1)``) of every place ``v`` sits in a floating array ``leaf`` as one
    contiguous run: in row-major order, or (2-D and up) down a column. Values match within ``tol``, relative
    (default: 4 units of the array's precision, at least 1e-6), or exactly with ``tol=0`` (``v`` cast to the array's
    dtype); at most ``limit`` runs each way. ``[]`` for what is not a concrete floating array::

        places = [(k, idx) for k, a in enumerate(call.arrays) for idx in runs_in(a, seq)]
    """
    if not isinstance(leaf, (np.ndarray, jax.Array)) or is_tracer(leaf):
        return []
    try:
        a = np.asarray(leaf)
    except Exception:  # a deleted (donated) buffer, or something else that cannot be read
        return []
    n = v.size
    if a.dtype.kind != "f" or a.size < n or n == 0:
        return []
    if tol is None:
        try:
            tol = max(1e-6, 4 * float(np.finfo(a.dtype).eps))
        except Exception:
            tol = 1e-3
    if tol == 0:
        flat, s = a.reshape(-1), np.asarray(v).astype(a.dtype).reshape(-1)
    else:
        flat, s = a.astype(np.float64).reshape(-1), np.asarray(v, dtype=np.float64).reshape(-1)
    index = np.arange(a.size).reshape(a.shape)
    orders = [index.reshape(-1)] + ([np.swapaxes(index, -1, -2).reshape(-1)] if a.ndim >= 2 else [])
    found = []
    with np.errstate(invalid="ignore", over="ignore"):
        for order in orders:
            values = flat[order]
            matched = 0
            for j in np.flatnonzero(np.abs(values[: values.size - n + 1] - s[0]) <= tol * abs(s[0]) + 1e-12):
                if np.all(np.abs(values[j : j + n] - s) <= tol * np.abs(s) + 1e-12):
                    found.append(order[j : j + n])
                    matched += 1
                    if matched == limit:
                        break
    return found


def shifted(leaf: Any, places: Iterable[tuple[np.ndarray, float]], *, wide: bool = False) -> np.ndarray:
    """A copy of ``leaf`` with ``c`` added at the flat indices of each ``(indices, c)`` (each index once): in the
    array's own dtype, or (``wide``) in float64, rounded back once::

        moved = shifted(a, [(np.unique(np.concatenate(runs)), 2.5)])
    """
    a = np.asarray(leaf)
    out = a.astype(np.float64) if wide else np.array(a, copy=True)
    flat = out.reshape(-1)
    for idx, c in places:
        flat[np.unique(idx)] += c if wide else np.asarray(c, out.dtype)
    return out.astype(a.dtype) if wide else out


@dataclass
class Rerun:
    """What running a recorded jitted call again gave: its output leaves as float64 (those that are numbers), or
    the error it raised."""

    function: str = ""
    outputs: list[np.ndarray] | None = None  # None: the rerun raised (``error``) or never ran
    error: str = ""  # "ValueError: first line of the message"

    @property
    def flat(self) -> np.ndarray:
        """Every output number, in one flat float64 array."""
        parts = [o.reshape(-1) for o in self.outputs or []]
        return np.concatenate(parts) if parts else np.empty(0)

    @property
    def scalars(self) -> list[float]:
        """The one-element outputs, as numbers (a loss, a total)."""
        return [float(o.reshape(-1)[0]) for o in self.outputs or [] if o.size == 1]


def rerun(g: CheckContext, call: JitCall, args: tuple | None = None, kwargs: dict | None = None, *,
          mute: bool = True, width: int = 200) -> Rerun:
    """Run ``call`` again (outside the counted calls; ``mute``: the learner's prints stay out of the output) with
    ``args`` and ``kwargs`` (default: as at the call, copied). The error, when it raises, is its type and the first
    line of its message, at most ``width`` characters::

        before = rerun(g, call)
        after = rerun(g, call, *call.arguments(moved_arrays))
        if before.outputs is not None and after.outputs is not None: delta = after.flat - before.flat
    """
    if args is None:
        args, kwargs = call.arguments([a.copy() for a in call.arrays])
    try:
        with g.recorder.mute() if mute else contextlib.nullcontext():
            out = call.reinvoke(tuple(args), kwargs)
    except Exception as exc:  # the learner's code runs again: anything may happen
        first = str(exc).splitlines()[0] if str(exc) else ""
        return Rerun(call.function, error=f"{type(exc).__name__}: {first}"[:width])
    outputs = []
    for leaf in jax.tree_util.tree_leaves(out):
        try:
            outputs.append(np.asarray(leaf, dtype=np.float64))
        except Exception:  # an output that is not numbers
            pass
    return Rerun(call.function, outputs)


def places_of(leaves: Iterable[Any], vectors: Iterable[np.ndarray],
              **find: Any) -> dict[int, list[tuple[int, np.ndarray]]]:
    """Where each of ``vectors`` sits among ``leaves`` (a call's arrays, or its argument leaves), found by
    ``runs_in`` (``find``: its ``tol`` and ``limit``): {vector index: [(leaf index, flat indices), …]}, for the
    vectors found only::

        slots = places_of(call.arrays, seqs)   # {0: [(0, array([0, 1, 2]))], 2: [(0, array([64, 65]))]}
    """
    leaves = list(leaves)
    found = {}
    for i, v in enumerate(vectors):
        places = [(k, idx) for k, leaf in enumerate(leaves) for idx in runs_in(leaf, v, **find)]
        if places:
            found[i] = places
    return found


def shift_rerun(g: CheckContext, call: JitCall, slots: dict[int, list[tuple[int, np.ndarray]]],
                amounts: Any) -> tuple[np.ndarray | None, str]:
    """Run ``call`` again twice (muted, uncounted): as it was, and with ``amounts[i]`` added (in float64, rounded
    back once) at every place of vector ``i`` in ``slots`` (from ``places_of`` over ``call.arrays``). How its
    outputs moved, ``(after.flat - before.flat, "")``, or ``(None, error)`` when a rerun raised or the outputs
    changed size::

        delta, error = shift_rerun(g, call, places_of(call.arrays, seqs), shifts)
        follows = delta is not None and np.any(np.isclose(delta, shifts[0]))
    """
    moved: dict[int, list] = {}
    for i, places in slots.items():
        for k in {k for k, _ in places}:  # a run found both row-wise and column-wise is shifted once
            moved.setdefault(k, []).append((np.concatenate([idx for j, idx in places if j == k]), amounts[i]))
    arrays = [shifted(a, moved[k], wide=True) if k in moved else a for k, a in enumerate(call.arrays)]
    before = rerun(g, call)
    after = rerun(g, call, *call.arguments(arrays)) if before.outputs is not None else before
    if after.outputs is None or before.flat.shape != after.flat.shape:
        return None, after.error
    return after.flat - before.flat, ""
