"""How many compiled programs are alive while the learner's code runs, and whose they are.

Every ``jax.jit`` function keeps one program per cache key it met (a shape, a dtype, a static value) until
``clear_cache()`` or ``jax.clear_caches()`` empties its cache; an ahead-of-time compiled function is one program
while something holds it; JAX keeps its own programs for eager ``jax.numpy`` calls. A long sweep over shapes keeps
all of them. The count is JAX's own executables, each known while alive (``jax_compat.track_executables``), so it
is the same whatever route made them.

The jit spy keeps every jitted function it saw (to run calls again), so the programs of a jitted function the
learner dropped stay alive here: a check that counts them says so in its statement.
"""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from jittrainer.grading.sandbox import jax_compat

if TYPE_CHECKING:
    from jittrainer.grading.sandbox.checks.context import CheckContext
    from jittrainer.grading.sandbox.checks.spies import JitSpy


@dataclass
class LiveSample:
    """The programs alive at one moment: just after a call of a jitted function returned, or when asked."""

    call: int | None  # the graded call (or phase, see ``mark_phase``) it was read in
    function: str  # the jitted function that had just run ("" when read on request)
    programs: list[jax_compat.Executable] = field(default_factory=list)

    @property
    def live(self) -> int:
        return len(self.programs)

    def by_function(self) -> Counter[str]:
        """How many of them each function holds, by JAX's name for it ("jit(batch_loss)")."""
        return Counter(p.name for p in self.programs)

    def inputs_of(self, name: str) -> list[tuple[str, ...]]:
        """The input types of the programs compiled for ``name``, sorted."""
        return sorted(p.inputs for p in self.programs if p.name == name)


class LiveWatch:
    """Counts the compiled programs alive: ``now()`` at any time; once ``watching``, after every call of one of the
    learner's jitted functions during the graded calls, kept in ``samples`` (``peak``: the first with the most)."""

    def __init__(self, spy: JitSpy) -> None:
        self.spy = spy
        self.samples: list[LiveSample] = []
        self.tracking = jax_compat.track_executables()  # False: this JAX hides its executables, nothing is counted

    def now(self, function: str = "") -> LiveSample:
        context = self.spy.context
        return LiveSample(context.current_call if context is not None else None, function,
                          jax_compat.live_executables() or [])

    @property
    def peak(self) -> LiveSample | None:
        return max(self.samples, key=lambda s: s.live, default=None)

    def watching(self) -> None:
        """Sample after every call of a spied jitted function made during a graded call (the spy's ``around``)."""
        before, spy = self.spy.around, self.spy

        @contextlib.contextmanager
        def around(name: str, args: tuple, kwargs: dict) -> Iterator[None]:
            with before(name, args, kwargs):
                yield
            if spy.context is None or spy.context.current_call is not None:
                self.samples.append(self.now(name))

        spy.around = around


def watch_live(g: CheckContext) -> LiveWatch:
    """From ``setup(g)`` (so that a program compiled ahead of time at import is seen too) or before the graded
    calls: a ``LiveWatch`` sampling the live programs after every call of the learner's jitted functions."""
    watch = LiveWatch(g.jit_spy)
    watch.watching()
    return watch
