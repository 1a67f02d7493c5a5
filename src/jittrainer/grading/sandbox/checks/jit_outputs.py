"""What each jitted call returned, kept, and which call returned given arrays: proof that a value the learner
hands back (a report, a result) came out of jitted code, and out of which call.

A value computed on the host and passed through a jitted identity function still "comes out of jit": pair this
with what the call received (``JitCall.holds``) and a rerun with changed data (``JitCall.rerun_replacing``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import jax
import numpy as np

from jittrainer.grading.sandbox.checks.jit_calls import JitCall
from jittrainer.grading.sandbox.checks.values import is_tracer


def keep_jit_outputs(spy: Any) -> None:
    """From ``setup(g)`` or before the graded calls: every call of a jitted (or ahead-of-time compiled) function
    keeps what it returned in ``JitCall.outputs``, as NumPy copies of its array leaves, taken when it returned
    (a later call that donates the buffer cannot change them). Calls traced inside another jitted function return
    tracers and keep nothing."""
    open_calls: list[JitCall] = []  # recorded, not yet returned (innermost last)

    def returned_with(origin: Any, out: Any) -> None:
        # A call that raised never returns: the calls above it are dropped on the way to this one.
        while open_calls:
            call = open_calls.pop()
            if call.origin is origin:
                leaves = jax.tree_util.tree_leaves(out)
                if not any(is_tracer(leaf) for leaf in leaves):
                    call.outputs = [copy for leaf in leaves if (copy := _copy(leaf)) is not None]
                break

    spy.on_record, spy.on_return = open_calls.append, returned_with


def _copy(leaf: Any) -> np.ndarray | None:
    if not hasattr(leaf, "shape"):
        return None
    try:
        return np.array(leaf, copy=True)
    except Exception:  # a typed PRNG key or a deleted buffer: not numbers to compare
        return None


def returned_by(calls: Sequence[JitCall], arrays: Sequence[Any]) -> JitCall | None:
    """The last of ``calls`` whose outputs hold every one of ``arrays`` (same shape, the same values exactly, in
    any order), or None::

        step = returned_by([c for c in g.jit_spy.calls if c.call == epoch], jax.tree_util.tree_leaves(params))
    """
    wanted = [np.asarray(a, dtype=np.float64) for a in arrays]
    for call in reversed(list(calls)):
        outs = [np.asarray(o, dtype=np.float64) for o in call.outputs or [] if np.asarray(o).dtype.kind in "fiub"]
        if outs and all(any(o.shape == w.shape and np.array_equal(o, w) for o in outs) for w in wanted):
            return call
    return None
