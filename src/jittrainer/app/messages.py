"""Messages that grading threads post to the app; ``@on`` handlers on the app turn them into screen changes.

Every message carries the ``run_id`` it belongs to, so the app can drop news from a run that a newer one replaced.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from jittrainer.grading.scratch import ScratchRun
from jittrainer.grading.verdict import Verdict


@dataclass
class VerdictReady(Message):
    """The grader decided; ``timing_pending`` is True while the timing phase still runs in the worker,
    ``review_pending`` while a passing program's review is still to come."""

    run_id: int
    exercise_id: str
    verdict: Verdict
    timing_pending: bool
    review_pending: bool = False


@dataclass
class TimingReady(Message):
    """The same verdict, now with ``timing`` measured (or marked skipped/failed); the review may still follow."""

    run_id: int
    exercise_id: str
    verdict: Verdict
    review_pending: bool = False


@dataclass
class ReviewReady(Message):
    """The same verdict, now with its ``review`` (or None when there was none to make)."""

    run_id: int
    exercise_id: str
    verdict: Verdict


@dataclass
class ScratchReady(Message):
    """A scratch run (the draft run as a program, ungraded) is over: what it printed, traced, compiled, raised."""

    run_id: int
    exercise_id: str
    result: ScratchRun


@dataclass
class GradeFailed(Message):
    """The app could not even start a grade (no worker process could be spawned, ...)."""

    run_id: int
    exercise_id: str
    reason: str
