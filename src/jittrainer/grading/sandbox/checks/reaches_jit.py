"""Whether one graded call's data reached jitted code, and whether that code's result follows the data: the jit
spy's record of the call is run again, outside the counted calls, with one input changed."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from jittrainer.grading.sandbox.checks.context import CheckContext


@dataclass
class JitReach:
    """What the grader found; ``problem`` is "" when the data reached jitted code (and the result followed it)."""

    problem: str  # "", "no_jit" (no jitted call at all), "missing", "rerun_failed" or "not_following"
    index: int = 0  # for "missing": which of the arrays (from 0) reached no jitted function
    names: list[str] = field(default_factory=list)  # the jitted functions that ran during the call
    function: str = ""  # the jitted function run again
    error: str = ""  # for "rerun_failed": "ValueError: …", at most 200 characters


def jit_reach(g: CheckContext, call: int, arrays: Sequence[np.ndarray], probe: np.ndarray | None = None,
              other: np.ndarray | None = None) -> JitReach:
    """During graded ``call``: did every one of ``arrays`` reach a jitted function (as an argument, or a row of
    one)? With ``probe`` (one of them) and ``other``: does the first jitted call that received ``probe`` return
    something else when run again with ``other`` in its place?"""
    during = [c for c in g.jit_spy.calls if c.call == call]
    if not during:
        return JitReach("no_jit")
    names = list(dict.fromkeys(c.function for c in during))
    for k, x in enumerate(arrays):
        if not any(c.holds(x) for c in during):
            return JitReach("missing", k, names)
    if probe is None or other is None:
        return JitReach("", names=names)
    first = next(c for c in during if c.holds(probe))
    try:
        before, after = first.rerun_replacing(probe, probe), first.rerun_replacing(probe, other)
    except Exception as exc:  # the learner's function, run again: anything may happen
        return JitReach("rerun_failed", names=names, function=first.function,
                        error=f"{type(exc).__name__}: {exc}"[:200])
    moved = len(before) == len(after) and any(
        a.shape != b.shape or not np.allclose(a, b, rtol=1e-6, atol=1e-7) for a, b in zip(before, after))
    return JitReach("" if moved else "not_following", names=names, function=first.function)
