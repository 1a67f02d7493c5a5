"""The review of a passing program: what it costs against the reference solution, what is left in it, and which of
the exercise's known approaches it takes. It never changes the verdict.

The worker measures the program after the verdict (``grading.sandbox.review``) and sends plain numbers and
primitive names (``ProgramMeasures``); the host compares them with the reference's, measured the same way and
cached (``grading.host.review``), and writes typed comments (``grading.review.rules``). Every comment is a ``Msg``
with one of Exercism's analyzer types: ``essential``, ``actionable``, ``informative`` or ``celebratory``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from jittrainer.i18n.message import Msg

COMMENT_TYPES = ("essential", "actionable", "informative", "celebratory")
REVIEW_STATUSES = ("reviewed", "skipped", "failed")
MAX_PRIMITIVES = 512
# Facts about a program that are not primitives, for approach fingerprints (``course.approaches``): each holds when
# the measure named beside it is above zero. ``@recompiles`` holds when the graded calls compiled more than once,
# ``@no_program`` when no jitted program was found at all.
FACTS = {
    "@donation": "donated",
    "@constants": "const_bytes",
    "@float64": "float64",
    "@weak_input": "weak_inputs",
    "@callback": "callbacks",
    "@callback_in_loop": "callbacks_in_loop",
    "@precision_highest": "precision_highest",  # a matrix product asking for float32 accuracy (HIGHEST)
    "@precision_high": "precision_high",  # one asking for three bfloat16 passes (HIGH)
}


@dataclass
class ProgramMeasures:
    """What the worker measured (see ``grading.sandbox.review``), plus the compiles and traces of the graded calls
    (from the verdict). ``None``: not measured."""

    version: int = 1
    signature: str = ""
    program: str = ""
    programs: int | None = None
    eqns: int | None = None
    primitives: dict[str, int] = field(default_factory=dict)
    flops: float | None = None
    bytes_accessed: float | None = None
    temp_bytes: int | None = None
    argument_bytes: int | None = None
    output_bytes: int | None = None
    alias_bytes: int | None = None
    donated: int | None = None
    callbacks: int | None = None
    callbacks_in_loop: int | None = None
    float64: int | None = None
    weak_inputs: int | None = None
    constants: int | None = None
    const_bytes: int | None = None
    dead: int | None = None
    precision_highest: int | None = None
    precision_high: int | None = None
    compiles: int | None = None
    traces: int | None = None
    seconds: float | None = None
    error: str = ""

    @classmethod
    def from_dict(cls, data: Any) -> ProgramMeasures:
        """From a worker's frame (already bounded and escaped): anything of the wrong type is dropped, not trusted."""
        if not isinstance(data, dict):
            raise ValueError("measures: expected an object")
        kwargs: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            if f.name not in data:
                continue
            value = data[f.name]
            if f.name in ("signature", "program", "error"):
                if isinstance(value, str):
                    kwargs[f.name] = value[:200]
            elif f.name == "primitives":
                if isinstance(value, dict):
                    kwargs[f.name] = {str(k)[:64]: int(v) for k, v in list(value.items())[:MAX_PRIMITIVES]
                                      if _count(v)}
            elif f.name in ("flops", "bytes_accessed", "seconds"):
                if _number(value):
                    kwargs[f.name] = float(value)
            elif _count(value):
                kwargs[f.name] = int(value)
        return cls(**kwargs)

    def features(self) -> set[str]:
        """The program's primitives (nested ones included) and its facts (``FACTS``): what fingerprints match."""
        found = {name for name, n in self.primitives.items() if n > 0}
        found.update(fact for fact, measure in FACTS.items() if (getattr(self, measure) or 0) > 0)
        if (self.compiles or 0) > 1:
            found.add("@recompiles")
        if not self.program:
            found.add("@no_program")
        return found


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**62


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value == value and 0 <= value < 1e30


@dataclass
class Comment:
    id: str  # the message's key: "review.cost.compiles", ...
    type: str  # one of COMMENT_TYPES
    message: Msg


@dataclass
class Review:
    status: str = "reviewed"  # "reviewed" | "skipped" (nothing to review) | "failed" (the measuring failed)
    summary: Msg | str = ""
    comments: list[Comment] = field(default_factory=list)
    approach: str = ""  # the id of the approach the program matches, "" when none does
    approaches: list[str] = field(default_factory=list)  # the exercise's approaches, in precedence order
    reference: str = ""  # where the reference's figures came from: "cache", "measured", "self" or "" (none)
    measures: ProgramMeasures | None = None
    reference_measures: ProgramMeasures | None = None
    measure_s: float | None = None  # the worker's measuring, after the verdict and timing
    reference_s: float | None = None  # a reference run, when its figures were not cached
    seconds: float | None = None  # what the review added after the verdict: waiting for the measures, then composing

    @property
    def kinds(self) -> list[str]:
        return [c.type for c in self.comments]


# ------------------------------------------------------------------------------------------------ decoding


def decode_review(data: Any, what: str = "review") -> Review:
    """A review as ``Verdict.to_dict`` wrote it (a stored or piped verdict); ValueError when malformed."""
    if not isinstance(data, dict):
        raise ValueError(f"{what}: expected an object")
    comments = []
    for i, item in enumerate(data.get("comments") or []):
        if not isinstance(item, dict) or item.get("type") not in COMMENT_TYPES or not isinstance(item.get("id"), str):
            raise ValueError(f"{what}.comments[{i}]: malformed")
        comments.append(Comment(item["id"], item["type"], _msg(item.get("message"), f"{what}.comments[{i}]")))
    summary = data.get("summary", "")
    status = data.get("status", "reviewed")
    if status not in REVIEW_STATUSES:
        raise ValueError(f"{what}.status: {status!r}")
    review = Review(
        status=status,
        summary=summary if isinstance(summary, str) else _msg(summary, f"{what}.summary"),
        comments=comments,
        approach=str(data.get("approach") or ""),
        approaches=[str(a) for a in data.get("approaches") or [] if isinstance(a, str)],
        reference=str(data.get("reference") or ""),
    )
    for name in ("measures", "reference_measures"):
        if isinstance(data.get(name), dict):
            setattr(review, name, ProgramMeasures.from_dict(data[name]))
    for name in ("measure_s", "reference_s", "seconds"):
        if _number(data.get(name)):
            setattr(review, name, float(data[name]))
    return review


def _msg(value: Any, what: str) -> Msg:
    if isinstance(value, dict) and set(value) == {"$msg"}:
        return Msg.from_dict(value["$msg"])
    raise ValueError(f"{what}: expected a message")
