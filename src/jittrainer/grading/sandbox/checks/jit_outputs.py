"""What each jitted call returned, kept, and which call returned given arrays: proof that a value the learner
hands back (a report, a result) came out of jitted code, and out of which call.

A value computed on the host and passed through a jitted identity function still "comes out of jit": pair this
with what the call received (``JitCall.holds``) and a rerun with changed data (``JitCall.rerun_replacing``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
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


@dataclass(frozen=True)
class MadeBy:
    """Which jitted call made a result: ``call`` (None when none returned it) and ``problem``: "" (it returned the
    result, received one of the inputs, and follows it), "not_returned", "no_input" or "not_following" (``error``:
    the rerun raised)."""

    call: JitCall | None
    problem: str
    error: str = ""


def made_by(calls: Sequence[JitCall], arrays: Sequence[Any], inputs: Sequence[np.ndarray]) -> MadeBy:
    """The last of ``calls`` that returned every one of ``arrays`` (``returned_by``), if it received one of
    ``inputs`` (``JitCall.holds``) and the outputs that were ``arrays`` move when it runs again, uncounted, with that
    input changed (times 1.5, plus 0.25): a result computed on the host and passed through jit does not::

        found = made_by([c for c in g.jit_spy.calls if c.call is not None], leaves(params), [x for x, _ in batches])
        if found.problem == "not_following": g.failed("in_jit", msg(…, function=found.call.function))
    """
    call = returned_by(calls, arrays)
    if call is None:
        return MadeBy(None, "not_returned")
    x = next((x for x in inputs if call.holds(x)), None)
    if x is None:
        return MadeBy(call, "no_input")
    try:
        same = call.rerun_replacing(x, x)
        moved = call.rerun_replacing(x, (x * 1.5 + 0.25).astype(x.dtype))
    except Exception as exc:  # the learner's function, run again: anything may happen
        return MadeBy(call, "not_following", f"{type(exc).__name__}: {exc}"[:200])
    wanted = [np.asarray(a, dtype=np.float64) for a in arrays]
    mine = [i for i, o in enumerate(same) if any(o.shape == w.shape and np.array_equal(o, w) for w in wanted)]
    follows = len(same) != len(moved) or any(same[i].shape != moved[i].shape or
                                             not np.allclose(same[i], moved[i], rtol=1e-6, atol=1e-7) for i in mine)
    return MadeBy(call, "" if follows else "not_following")
