"""The collectives of a compiled program, read from its HLO text (``compiled.as_text()``, public API): which
communication XLA inserted (all-reduce, all-gather, reduce-scatter, all-to-all, collective-permute) and the shape
each one produces. JAX's own sharding guide checks its programs the same way (``'all-reduce(' in text``); the
shapes say *what* moved: a weight gathered whole, or only partial sums added up.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jittrainer.grading.sandbox.checks.context import CheckContext

KINDS = ("all-reduce", "all-gather", "reduce-scatter", "all-to-all", "collective-permute", "collective-broadcast")

# "%all-gather.1 = f32[16,5]{1,0} all-gather(%param.2), …"; an async pair writes "…-start(" then "…-done(": the
# start is the collective (its result is a tuple holding the operands and the results).
_OP = re.compile(r"=\s*(?P<result>\([^=]*?\)|\S+)\s+(?P<kind>" + "|".join(KINDS) + r")(?:-start)?\(")
_ARRAY = re.compile(r"(?P<dtype>[a-z]+[0-9]*)\[(?P<dims>[0-9,]*)\]")


@dataclass(frozen=True)
class Collective:
    """One collective of a program: its ``kind`` ("all-gather"), the arrays it produces (``results``: (dtype,
    shape) pairs, e.g. ("f32", (16, 5))) and its HLO ``line``."""

    kind: str
    results: tuple[tuple[str, tuple[int, ...]], ...]
    line: str

    @property
    def shapes(self) -> list[tuple[int, ...]]:
        return [shape for _, shape in self.results]

    def makes(self, shape: tuple[int, ...]) -> bool:
        """Whether it produces an array of this shape."""
        return tuple(shape) in self.shapes


def collectives(text: str) -> list[Collective]:
    """Every collective in an HLO module's text, in program order::

        found = collectives(jax.jit(f).lower(x, w).compile().as_text())
        gathered = [c for c in found if c.kind == "all-gather" and c.makes(w.shape)]   # w gathered whole"""
    found = []
    for line in text.splitlines():
        match = _OP.search(line)
        if match is None:
            continue
        results = tuple((m["dtype"], tuple(int(d) for d in m["dims"].split(",") if d))
                        for m in _ARRAY.finditer(match["result"]))
        found.append(Collective(match["kind"], results, line.strip()))
    return found


def compiled_text(g: CheckContext, fn: Any, *args: Any, **kwargs: Any) -> tuple[str, str]:
    """The HLO text of ``fn`` compiled for these arguments (a jitted function is lowered and compiled again, an
    ahead-of-time compiled one gives its own), with the learner's prints muted: ``(text, "")``, or ``("", error)``
    when it cannot be compiled ("ValueError: …", at most 200 characters). Call it after the graded calls: its
    compile is not counted."""
    try:
        with g.recorder.mute():
            if hasattr(fn, "lower"):
                return fn.lower(*args, **kwargs).compile().as_text(), ""
            return fn.as_text(), ""
    except Exception as exc:  # the learner's code, traced again: anything may happen
        return "", f"{type(exc).__name__}: {exc}"[:200]
