"""The one verdict model: what the worker reports, what the CLI prints as JSON and what the app's panes show.

Shaped after Exercism's results.json (``status`` pass/fail/error, ordered checks, first failure first), plus what a
jit trainer needs: traces, compiles, why each compile happened, captured output, the jaxpr and timing.

Everything a learner reads is a ``Msg`` (an id, an English template and parameters), rendered when shown, so a
verdict on screen follows a language switch. A failed check carries an **observation** (what happened, which
pitfall it shows) and, separately, an **advice** (the code to write), locked until the learner takes the hint tier
it names, fails the same check often enough, or asks. The worker always sends both; the session on the host decides
whether the advice is shown (``CheckResult.advice_shown``).

``Verdict.from_dict`` is the one decoder: anything malformed raises ``ValueError`` (a frame the worker never wrote
becomes an error verdict, never a traceback).
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from typing import Any, Literal

from jittrainer.grading.review import Review, decode_review
from jittrainer.i18n import N_, _
from jittrainer.i18n.message import Msg, msg, render

VERDICT_VERSION = 4

Status = Literal["pass", "fail", "error"]
CheckStatus = Literal["pass", "fail", "error", "skip"]
STATUSES = ("pass", "fail", "error")
CHECK_STATUSES = ("pass", "fail", "error", "skip")


@dataclass
class CheckResult:
    id: str
    name: Msg  # the check's description, from the exercise's CHECKS
    status: CheckStatus
    observation: Msg | None = None  # fail/error: what happened; pass: what held; skip: why it did not run
    advice: Msg | None = None  # what to write instead (fail/error only)
    advice_tier: int | None = None  # the hint tier that unlocks the advice
    advice_shown: bool = False  # decided on the host by the session's rule, never by the worker

    @property
    def message(self) -> str:
        return render(self.observation)

    @property
    def failed(self) -> bool:
        return self.status in ("fail", "error")

    def shown_advice(self) -> str | None:
        return render(self.advice) if self.advice is not None and self.advice_shown else None


@dataclass
class ErrorInfo:
    """Where the learner's code failed: the editor marks ``line`` (1-based) and ``col`` (1-based, may be None).
    ``message`` is the exception's own text (JAX's words are quoted as they are)."""

    type: str
    message: str
    line: int | None = None
    col: int | None = None
    traceback: str = ""
    phase: str = ""  # "compile" (syntax), "import", "call 2", ...

    def shown_traceback(self) -> str:
        """The traceback with its heading in the learner's language (the worker writes it in English), less JAX's
        note under a rule of dashes that it removed its internal frames (set JAX_TRACEBACK_FILTERING=off): the
        learner's frames are all there is to read, and the variable does nothing in a grade."""
        text = JAX_FOOTER.split(self.traceback, maxsplit=1)[0].rstrip("\n")
        head, _sep, rest = text.partition("\n")
        if head in TRACEBACK_HEADINGS:
            return _(TRACEBACK_HEADINGS[head]) + ("\n" + rest if rest else "")
        syntax = SYNTAX_LINE.match(head)
        if syntax:  # a SyntaxError's first line, as the worker writes it: in the words of the verdict's headline
            head = msg("read.syntax", "{type} on line {line}: {detail}", type=syntax["type"], line=int(syntax["line"]),
                       detail=syntax["detail"]).render()
            return head + ("\n" + rest if rest else "")
        return text


JAX_FOOTER = re.compile(r"^\s*-{10,}\s*$", re.MULTILINE)
SYNTAX_LINE = re.compile(r"^(?P<type>\w+Error) on line (?P<line>\d+): (?P<detail>.*)$")


TRACEBACK_HEADINGS = {
    "Traceback (your code only):": N_("Traceback (your code only):"),
    "Stuck here (your code only):": N_("Stuck here (your code only):"),
}


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
    reason: Msg  # plain words
    detail: str = ""  # JAX's own explanation text, when it gave one
    # "first" | "new_function" | "static" | "types" | "weak_type" | "structure" | "context" | "unknown", "aot" for
    # an ahead-of-time compile made before the graded calls, "placement" for a recompile of the learner's own jitted
    # function that JAX did not explain (no retrace: the rest of the key changed), "derived" for a second program
    # compiled from one trace of the learner's function (its backward pass under jax.grad), or "jax_internal" for a
    # compile JAX did not explain
    kind: str = "unknown"
    # "" in the graded calls; the name of a later counting window the checks count apart (exercise 26's "jax.grad")
    window: str = ""


@dataclass
class OutputSection:
    label: str  # "import", "call 1", ... or "process" for raw fd output
    text: str
    dropped: int = 0  # characters the section printed beyond what the worker keeps: the text is cut that much


@dataclass
class Jaxpr:
    text: str
    function: Msg | str = ""
    primitives: dict[str, int] = field(default_factory=dict)
    callbacks: list[str] = field(default_factory=list)  # callback primitives found (debug_print, io_callback, ...)
    constants: list[str] = field(default_factory=list)  # captured constants, e.g. "f32[3] (12 bytes)"
    effects: list[str] = field(default_factory=list)


@dataclass
class Timing:
    """Measured after the verdict is known; never changes it. Seconds."""

    status: str = "pending"  # "pending" | "measured" | "skipped" | "failed"
    note: Msg | str = ""
    compile_s: float | None = None  # backend compile time during the graded calls
    trace_s: float | None = None  # Python tracing time during the graded calls
    calls_s: float | None = None  # wall time of all graded calls, compiles included
    steady_s: float | None = None  # one call after warm-up, median, block_until_ready
    steady_samples: list[float] = field(default_factory=list)
    eager_s: float | None = None  # same call under jax.disable_jit(), median (opt-in)
    starter_calls_s: float | None = None  # the starter over the same graded calls (opt-in)
    starter_compiles: int | None = None
    starter_cached: bool = False
    # Where the steady state was measured (``--device``): "cpu", or the accelerator's platform and kind. On a device,
    # cpu_steady_s keeps the CPU's figure, device_note says which program was timed there or why it stayed on the
    # CPU, and the device's compile and analyses come along (trace, compile, calls, eager, starter: always the CPU).
    platform: str = "cpu"
    device_kind: str = ""
    device_note: Msg | str = ""
    cpu_steady_s: float | None = None
    device_compile_s: float | None = None
    device_flops: float | None = None
    device_memory: dict[str, int] = field(default_factory=dict)


@dataclass
class Verdict:
    exercise: str
    status: Status
    headline: Msg
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
    devices: list[dict[str, Any]] = field(default_factory=list)  # one entry per worker that graded it
    review: Review | None = None  # a passing program's review, composed on the host after the verdict (never by it)
    version: int = VERDICT_VERSION

    @property
    def passed(self) -> bool:
        return self.status == "pass"

    @property
    def message(self) -> str:
        """The headline in the current language: the first failure's observation, or what went wrong."""
        return render(self.headline)

    @property
    def first_failure(self) -> CheckResult | None:
        return next((c for c in self.checks if c.failed), None)

    @property
    def advice(self) -> str | None:
        """The first failure's advice, when the session has unlocked it."""
        first = self.first_failure
        return first.shown_advice() if first is not None else None

    # -- encoding --------------------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Everything, messages as ids with parameters: what travels between processes and is stored."""
        return _encode(self)

    @classmethod
    def from_dict(cls, data: Any) -> Verdict:
        """The inverse of ``to_dict``; raises ValueError for anything malformed."""
        try:
            return _decode_verdict(data)
        except ValueError:
            raise
        except (TypeError, KeyError, AttributeError) as exc:
            raise ValueError(f"malformed verdict: {type(exc).__name__}: {exc}") from None

    @classmethod
    def failure(
        cls,
        exercise: str,
        headline: Msg,
        *,
        error: ErrorInfo | None = None,
        internal_error: InternalError | None = None,
        **extra: Any,
    ) -> Verdict:
        """A verdict for when no check could run (syntax error, timeout, crash, broken exercise)."""
        from jittrainer.i18n.message import msg

        timing = Timing(status="skipped", note=msg("timing.no_check_ran", "nothing to time: no check ran"))
        return cls(exercise=exercise, status="error", headline=headline, error=error, internal_error=internal_error,
                   timing=timing, **extra)


# ------------------------------------------------------------------------------------------------ encoding


def _encode(value: Any) -> Any:
    if isinstance(value, Msg):
        return {"$msg": value.to_dict()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(k): _encode(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_encode(v) for v in value]
    return value


def _msg(value: Any, what: str) -> Msg:
    if isinstance(value, dict) and set(value) == {"$msg"}:
        return Msg.from_dict(value["$msg"])
    raise ValueError(f"{what}: expected a message")


def _msg_or_text(value: Any, what: str) -> Msg | str:
    if isinstance(value, str):
        return value
    return _msg(value, what)


def _opt_msg(value: Any, what: str) -> Msg | None:
    return None if value is None else _msg(value, what)


def _build(kind: type, data: Any, what: str, converters: dict[str, Any] | None = None) -> Any:
    if not isinstance(data, dict):
        raise ValueError(f"{what}: expected an object")
    converters = converters or {}
    known = {f.name: f for f in dataclasses.fields(kind)}
    kwargs = {}
    for name, value in data.items():
        if name not in known:
            continue  # a newer worker's extra field: ignored
        kwargs[name] = converters[name](value, f"{what}.{name}") if name in converters else value
    missing = [f.name for f in known.values() if f.name not in kwargs and f.default is dataclasses.MISSING
               and f.default_factory is dataclasses.MISSING]
    if missing:
        raise ValueError(f"{what}: missing {', '.join(missing)}")
    obj = kind(**kwargs)
    _check_types(obj, what)
    return obj


_TYPES: dict[str, tuple[type, ...]] = {
    "id": (str,), "type": (str,), "message": (str,), "traceback": (str,), "phase": (str,), "where": (str,),
    "file": (str,), "exercise": (str,), "function": (str, Msg), "label": (str,), "text": (str,), "output": (str,),
    "status": (str,), "detail": (str,), "kind": (str,), "jax_version": (str,), "jittrainer_version": (str,),
    "line": (int, type(None)), "col": (int, type(None)), "call": (int, type(None)), "seed": (int, type(None)),
    "traces": (int, type(None)), "compiles": (int, type(None)), "advice_tier": (int, type(None)),
    "output_truncated": (bool,), "advice_shown": (bool,), "version": (int,),
}


def _check_types(obj: Any, what: str) -> None:
    for f in dataclasses.fields(obj):
        allowed = _TYPES.get(f.name)
        value = getattr(obj, f.name)
        if allowed and not isinstance(value, allowed) or allowed == (int,) and isinstance(value, bool):
            raise ValueError(f"{what}.{f.name}: unexpected {type(value).__name__}")


def _list(value: Any, what: str, item: Any) -> list:
    if not isinstance(value, list):
        raise ValueError(f"{what}: expected a list")
    return [item(v, f"{what}[{i}]") for i, v in enumerate(value)]


def _check(value: Any, what: str) -> CheckResult:
    check = _build(CheckResult, value, what, {"name": _msg, "observation": _opt_msg, "advice": _opt_msg})
    if check.status not in CHECK_STATUSES:
        raise ValueError(f"{what}.status: {check.status!r}")
    return check


def _timing(value: Any, what: str) -> Timing:
    timing = _build(Timing, value or {}, what, {"note": _msg_or_text, "device_note": _msg_or_text})
    if not isinstance(timing.steady_samples, list):
        raise ValueError(f"{what}.steady_samples: expected a list")
    if not isinstance(timing.platform, str) or not isinstance(timing.device_memory, dict):
        raise ValueError(f"{what}.platform: unexpected")
    return timing


def _decode_verdict(data: Any) -> Verdict:
    converters = {
        "headline": _msg,
        "checks": lambda v, w: _list(v, w, _check),
        "error": lambda v, w: None if v is None else _build(ErrorInfo, v, w),
        "internal_error": lambda v, w: None if v is None else _build(InternalError, v, w),
        "cache_misses": lambda v, w: _list(v, w, lambda m, w2: _build(CacheMiss, m, w2, {"reason": _msg})),
        "output_sections": lambda v, w: _list(v, w, lambda s, w2: _build(OutputSection, s, w2)),
        "jaxpr": lambda v, w: None if v is None else _build(Jaxpr, v, w, {"function": _msg_or_text}),
        "timing": _timing,
        "devices": lambda v, w: _list(v, w, lambda d, w2: d if isinstance(d, dict) else _bad(w2)),
        "review": lambda v, w: None if v is None else decode_review(v, w),
    }
    verdict = _build(Verdict, data, "verdict", converters)
    if verdict.status not in STATUSES:
        raise ValueError(f"verdict.status: {verdict.status!r}")
    return verdict


def _bad(what: str) -> Any:
    raise ValueError(f"{what}: malformed")
