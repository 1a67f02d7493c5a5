"""The one verdict model: what the CLI prints as JSON and what the app's panes show.

Shaped after Exercism's results.json v3 (``status`` pass/fail/error, ordered checks, first failure first-class),
plus what a jit trainer needs: traces, compiles, why each compile happened, captured output, the jaxpr and timing.
Plain data only: the worker builds it as a dict, every other process reads it back with ``Verdict.from_dict``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Literal

VERDICT_VERSION = 3

Status = Literal["pass", "fail", "error"]
CheckStatus = Literal["pass", "fail", "error", "skip"]


@dataclass
class CheckResult:
    id: str
    name: str
    status: CheckStatus
    message: str = ""


@dataclass
class ErrorInfo:
    """Where the learner's code failed: the editor marks ``line`` (1-based) and ``col`` (1-based, may be None)."""

    type: str
    message: str
    line: int | None = None
    col: int | None = None
    traceback: str = ""
    phase: str = ""  # "compile" (syntax), "import", "call 2", ...


@dataclass
class InternalError:
    """The exercise or the grader itself broke (not the learner): ``jittrainer check`` exits 2."""

    where: str  # "exercise" | "grader"
    file: str
    message: str
    traceback: str = ""


@dataclass
class CacheMiss:
    """One backend compile during the graded calls, and why it happened."""

    call: int | None  # 1-based graded call during which it compiled
    function: str  # as JAX names it: "jit(normalize)", "jit(_pad)"
    reason: str  # plain words
    detail: str = ""  # JAX's own explanation text, when it gave one
    # "first" | "new_function" | "static" | "types" | "weak_type" | "structure" | "context" | "unknown", or
    # "jax_internal" for a compile JAX did not explain (its own ops: eager jnp calls, pmap internals)
    kind: str = "unknown"


@dataclass
class OutputSection:
    label: str  # "import", "call 1", ... or "process" for raw fd output
    text: str


@dataclass
class Jaxpr:
    text: str
    function: str = ""
    primitives: dict[str, int] = field(default_factory=dict)
    callbacks: list[str] = field(default_factory=list)  # callback primitives found (debug_print, io_callback, ...)
    constants: list[str] = field(default_factory=list)  # captured constants, e.g. "f32[3] (12 bytes)"
    effects: list[str] = field(default_factory=list)


@dataclass
class Timing:
    """Measured after the verdict is known; never changes it. Seconds."""

    status: str = "pending"  # "pending" | "measured" | "skipped" | "failed"
    note: str = ""
    compile_s: float | None = None  # backend compile time during the graded calls
    trace_s: float | None = None  # Python tracing time during the graded calls
    calls_s: float | None = None  # wall time of all graded calls, compiles included
    steady_s: float | None = None  # one call after warm-up, median, block_until_ready
    steady_samples: list[float] = field(default_factory=list)
    eager_s: float | None = None  # same call under jax.disable_jit(), median (opt-in)
    starter_calls_s: float | None = None  # the starter over the same graded calls (opt-in)
    starter_compiles: int | None = None
    starter_cached: bool = False


@dataclass
class Verdict:
    exercise: str
    status: Status
    message: str
    checks: list[CheckResult] = field(default_factory=list)
    error: ErrorInfo | None = None
    internal_error: InternalError | None = None
    traces: int | None = None
    compiles: int | None = None
    cache_misses: list[CacheMiss] = field(default_factory=list)
    output: str = ""
    output_truncated: bool = False
    output_sections: list[OutputSection] = field(default_factory=list)
    jaxpr: Jaxpr | None = None
    timing: Timing = field(default_factory=Timing)
    seed: int | None = None
    duration_s: float | None = None  # wall time from starting the grade to the verdict, worker start-up included
    jax_version: str = ""
    jittrainer_version: str = ""
    devices: dict[str, Any] = field(default_factory=dict)
    version: int = VERDICT_VERSION

    @property
    def passed(self) -> bool:
        return self.status == "pass"

    @property
    def first_failure(self) -> CheckResult | None:
        return next((c for c in self.checks if c.status in ("fail", "error")), None)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Verdict:
        data = dict(data)
        data["checks"] = [CheckResult(**c) for c in data.get("checks") or []]
        data["cache_misses"] = [CacheMiss(**c) for c in data.get("cache_misses") or []]
        data["output_sections"] = [OutputSection(**s) for s in data.get("output_sections") or []]
        for key, kind in (("error", ErrorInfo), ("internal_error", InternalError), ("jaxpr", Jaxpr)):
            if data.get(key) is not None:
                data[key] = kind(**data[key])
        data["timing"] = Timing(**(data.get("timing") or {}))
        known = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})

    @classmethod
    def failure(
        cls,
        exercise: str,
        message: str,
        *,
        error: ErrorInfo | None = None,
        internal_error: InternalError | None = None,
        **extra: Any,
    ) -> Verdict:
        """A verdict for when no check could run (syntax error, timeout, crash, broken exercise)."""
        timing = Timing(status="skipped", note="nothing to time: no check ran")
        return cls(
            exercise=exercise,
            status="error",
            message=message,
            error=error,
            internal_error=internal_error,
            timing=timing,
            **extra,
        )
