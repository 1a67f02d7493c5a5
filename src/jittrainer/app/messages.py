"""Messages that grading threads post to the app; ``@on`` handlers on the app turn them into screen changes.

Every message carries the ``run_id`` it belongs to, so the app can drop news from a run that a newer one replaced.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from jittrainer.grading.verdict import Verdict


@dataclass
class VerdictReady(Message):
    """The grader decided; ``timing_pending`` is True while the timing phase still runs in the worker."""

    run_id: int
    exercise_id: str
    verdict: Verdict
    timing_pending: bool


@dataclass
class TimingReady(Message):
    """The same verdict, now with ``timing`` measured (or marked skipped/failed)."""

    run_id: int
    exercise_id: str
    verdict: Verdict


@dataclass
class GradeFailed(Message):
    """The app could not even start a grade (no worker process could be spawned, ...)."""

    run_id: int
    exercise_id: str
    reason: str
