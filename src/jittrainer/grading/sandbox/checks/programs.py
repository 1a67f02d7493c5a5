"""The programs-per-step counter: how many compiled programs a training step runs. A step jitted whole runs one; a step
whose gradient or optimizer update is left eager runs one small program per operation ("jit(add)", "jit(sqrt)", ...),
each dispatched on its own. JAX has no public event per execution: ``jax_compat.watch_executions`` reports each one
(it turns JAX's C++ dispatch fast path off to see them). Installed from an exercise's ``setup(g)``; pair it with
``spy_compiles`` and ``EventLog`` to split the events by graded call."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable

from jittrainer.grading.sandbox.jax_compat import watch_executions


def spy_programs(on_run: Callable[[str], None]) -> Callable[[], None]:
    """``on_run(name)`` for every compiled program that runs from now on: "jit(step)" for a jitted function (or a
    compiled copy of it), "jit(mul)"-style names for eager operations. Returns the undo."""
    return watch_executions(on_run)


def programs_text(names: Iterable[str], limit: int = 4) -> str:
    """The programs that ran, commonest first, with their counts: "jit(add) ×21, jit(multiply) ×20, …"."""
    counts = Counter(names).most_common()
    items = [f"{name} ×{n}" if n > 1 else name for name, n in counts[:limit]]
    return ", ".join(items) + (", …" if len(counts) > limit else "")
