"""A scratch run: the learner's draft run as a program (its ``if __name__ == "__main__":`` block), ungraded.

What it reports is what the grader would watch, without judging it: what each jitted call printed, which calls
traced and compiled and why (JAX's cache-miss reasons, in the same words as a verdict's), the jaxpr of every jitted
function called, and the error with the learner's line if the program raised. It runs in a worker under the same
limits, isolation and channel as a grade, and is never recorded as an attempt.

Its fields that a verdict has too keep the verdict's names and types (``output_sections``, ``cache_misses``,
``jaxpr``, ``error`` …), so the app shows it in the same Output, Jaxpr and Recompiles panes, marked as a scratch run.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from jittrainer.grading.verdict import (
    CacheMiss,
    ErrorInfo,
    Jaxpr,
    OutputSection,
    _build,
    _encode,
    _list,
    _msg,
    _msg_or_text,
)
from jittrainer.i18n import _
from jittrainer.i18n.message import Msg, render


@dataclass
class ScratchCall:
    """One call of a jitted function from the program's own code (calls made while tracing another are not)."""

    number: int  # 1-based, in the order the program made them
    function: str  # "normalize"
    # the arguments as jit saw them: "f32[8]", "~f32[]" (weak), a static one as "windows=(12, 24)"
    types: list[str] = field(default_factory=list)
    traces: int = 0
    compiles: int = 0
    raised: str = ""  # the exception type when the call raised instead of returning (it then hit no cache)

    def outcome(self) -> str:
        """What became of the call, in a word or two: it raised, compiled, traced, or ran from the cache."""
        if self.raised:
            return _("raised {type}").format(type=self.raised)
        return _("compiled") if self.compiles else _("cached") if not self.traces else _("traced")


@dataclass
class ScratchRun:
    exercise: str
    headline: Msg  # what happened, in one line
    main_block: bool = True  # whether the file has an ``if __name__ == "__main__":`` block
    calls: list[ScratchCall] = field(default_factory=list)
    traces: int = 0
    compiles: int = 0
    cache_misses: list[CacheMiss] = field(default_factory=list)
    output: str = ""
    output_truncated: bool = False
    output_sections: list[OutputSection] = field(default_factory=list)
    jaxprs: list[Jaxpr] = field(default_factory=list)
    error: ErrorInfo | None = None
    duration_s: float | None = None
    jax_version: str = ""
    scratch: bool = True  # what the app's panes read to say "scratch run" instead of "graded calls"

    @property
    def jaxpr(self) -> Jaxpr | None:
        """The first jitted function's program (the Jaxpr pane lists the others after it)."""
        return self.jaxprs[0] if self.jaxprs else None

    @property
    def message(self) -> str:
        return render(self.headline)

    @property
    def ok(self) -> bool:
        return self.error is None

    def section_title(self, label: str) -> str:
        """An output section's label in words: "call 2 · normalize(f32[8])", "after call 2", ..."""
        if label == "run":
            return _("before the first jitted call")
        if label.startswith("after ") and label[6:].isdigit():
            return _("after call {n}").format(n=label[6:])
        if label.startswith("call ") and label[5:].isdigit():
            n = int(label[5:])
            call = next((c for c in self.calls if c.number == n), None)
            if call is not None:
                return _("call {n} · {function}({types})").format(n=n, function=call.function,
                                                                  types=", ".join(call.types))
            return _("call {n}").format(n=n)
        return {"process": _("process output (written straight to file descriptors 1 and 2)")}.get(label, label)

    def to_dict(self) -> dict[str, Any]:
        return _encode(self)

    @classmethod
    def from_dict(cls, data: Any) -> ScratchRun:
        """Raises ValueError for anything malformed (a frame the worker did not write)."""
        try:
            return _build(cls, data, "scratch", {
                "headline": _msg,
                "calls": lambda v, w: _list(v, w, lambda c, w2: _build(ScratchCall, c, w2)),
                "cache_misses": lambda v, w: _list(v, w, lambda m, w2: _build(CacheMiss, m, w2, {"reason": _msg})),
                "output_sections": lambda v, w: _list(v, w, lambda s, w2: _build(OutputSection, s, w2)),
                "jaxprs": lambda v, w: _list(v, w, lambda j, w2: _build(Jaxpr, j, w2, {"function": _msg_or_text})),
                "error": lambda v, w: None if v is None else _build(ErrorInfo, v, w),
            })
        except ValueError:
            raise
        except (TypeError, KeyError, AttributeError) as exc:
            raise ValueError(f"malformed scratch run: {type(exc).__name__}: {exc}") from None

    @classmethod
    def failure(cls, exercise: str, headline: Msg, error: ErrorInfo | None = None, **extra: Any) -> ScratchRun:
        """A run that ended before the program could report anything (timeout, crash, a forged frame)."""
        return cls(exercise=exercise, headline=headline, error=error, **extra)
