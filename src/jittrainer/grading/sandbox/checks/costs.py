"""What a program costs, read before or beside running it: the bytes XLA plans for it, and how often its equations run.

``program_memory`` compiles a function ahead of time with the real ``jax.jit`` and reads
``compiled.memory_analysis()``. On XLA:CPU the ``temp`` bytes hold every intermediate the program keeps alive at
once: for a gradient, the activations the forward pass saves for the backward pass live there. The numbers are
XLA's plan for one program, not a measurement of a run, so the same program gives the same bytes on every run of
one JAX release; that is what lets a check hold a memory budget (the reading itself is ``jax_compat.memory_stats``:
JAX calls it "not a reliably programmable API", so a budget needs a margin, checked on every tested release).

``run_count`` counts what the program does at run time from its jaxpr: an equation inside a ``scan`` body runs once
per iteration, so it counts ``length`` times (nested loops multiply). A gradient that recomputes its forward pass
(``jax.checkpoint``) shows as more matrix products than one that saved them.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from jittrainer.grading.sandbox.checks.jaxprs import eqns_of, sub_jaxprs
from jittrainer.grading.sandbox.jax_compat import loop_trips, memory_stats

if TYPE_CHECKING:
    from jittrainer.grading.sandbox.checks.context import CheckContext

MIB = 2**20


@dataclass(frozen=True)
class MemoryUse:
    """Bytes XLA planned for one compiled program (``temp``: intermediates; the rest: its inputs and outputs)."""

    temp: int
    argument: int = 0
    output: int = 0
    alias: int = 0
    generated_code: int = 0

    @property
    def temp_mib(self) -> float:
        return self.temp / MIB


def memory_use(compiled: Any) -> MemoryUse | None:
    """The memory plan of a ``Compiled`` (``jax.jit(f).lower(...).compile()``), or None where the backend gives none."""
    stats = memory_stats(compiled)
    return MemoryUse(**stats) if stats is not None else None


def program_memory(g: CheckContext, fn: Callable, *args: Any, **kwargs: Any) -> MemoryUse | None:
    """``fn`` compiled ahead of time for ``args``, and its memory plan: a jitted ``fn`` as it is (a program the graded
    calls already compiled comes from JAX's caches), anything else under the grader's own jax.jit (the real one, not
    the learner's spy). The learner's code may be traced again: its prints are muted and what it compiles is not
    counted in any window. Raises what tracing or compiling raises (call it after the graded calls ran)."""
    jitted = fn if hasattr(fn, "lower") else g.jit_spy.real(fn)
    with g.recorder.mute(), g.watch.paused():
        compiled = jitted.lower(*args, **kwargs).compile()
    return memory_use(compiled)


def run_count(jaxpr: Any, primitives: Collection[str]) -> int | None:
    """How many times one run of the program executes an equation of ``primitives``, nested jaxprs included: inside
    a ``scan`` an equation counts once per iteration. None when such an equation sits in a ``while`` loop, whose
    count is data."""
    total = 0
    for eqn in eqns_of(jaxpr):
        if eqn.primitive.name in primitives:
            total += 1
        subs = list(sub_jaxprs(eqn))
        if not subs:
            continue
        trips = loop_trips(eqn)
        inner = [run_count(sub, primitives) for sub in subs]
        if any(n is None for n in inner) or (trips is None and any(inner)):
            return None
        # A cond's branches: the costliest one; a scan's or a jit's single body: itself.
        most = max(n for n in inner if n is not None) if eqn.primitive.name == "cond" else sum(
            n for n in inner if n is not None)
        total += (trips or 1) * most
    return total
