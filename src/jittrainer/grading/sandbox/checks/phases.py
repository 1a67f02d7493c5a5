"""Phases inside one graded call: the epochs of a training loop, the tasks of a sweep.

A graded call is the unit the grader counts traces, compiles and jitted calls by (``calls.compiles_in_call(i)``,
``JitCall.call``, ``CacheMiss.call``). A training loop that runs all its epochs in one call needs a finer unit: the
learner's loop calls a hook the grader hands it (``report(epoch, params)``), and from then on everything JAX does
is counted as the next phase, numbered like calls (phase 1 is the call's start, up to the first report).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import jax
import numpy as np

if TYPE_CHECKING:
    from jittrainer.grading.sandbox.checks.context import CheckContext


def mark_phase(g: CheckContext, phase: int) -> None:
    """From now until the next mark (or the call's end), traces, compiles, cache misses and jitted calls count as
    ``phase`` (in place of the graded call's number). Only inside a graded call: outside one nothing is counted."""
    if g.watch.call is not None:
        g.watch.call = phase


class PhaseLog:
    """A hook for the learner's loop, called once per phase with what the statement says (``report(epoch,
    params)``): each call's arguments are kept (every array leaf copied as NumPy, so a buffer donated or refilled
    later cannot change them), then the next phase starts (``mark_phase``). ``entries`` holds the arguments of every
    report, in order; ``phase`` the phase now. ``on_report(entry)`` may look at each one as it comes."""

    def __init__(self, g: CheckContext, on_report: Callable[[tuple], None] | None = None) -> None:
        self._g = g
        self._on_report = on_report
        self.entries: list[tuple] = []
        self.phase = 1

    def __call__(self, *args: Any) -> None:
        entry = tuple(jax.tree_util.tree_map(_copied, arg) for arg in args)
        self.entries.append(entry)
        if self._on_report is not None:
            self._on_report(entry)
        self.phase += 1
        mark_phase(self._g, self.phase)

    def reset(self) -> None:
        """Forget every report (before the same loop runs again, uncounted)."""
        self.entries.clear()
        self.phase = 1


def _copied(leaf: Any) -> Any:
    if hasattr(leaf, "shape") and hasattr(leaf, "dtype"):
        try:
            return np.array(leaf, copy=True)
        except Exception:  # a tracer (a report from inside jitted code): kept as it is, for the check to name
            return leaf
    return leaf
