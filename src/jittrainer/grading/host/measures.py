"""The review's measures of a passing program, read off a grading run's channel after its verdict and timing."""

from __future__ import annotations

import dataclasses
import time
from typing import TYPE_CHECKING

from jittrainer.grading import protocol
from jittrainer.grading.host.frames import TIMED_OUT
from jittrainer.grading.host import untrusted
from jittrainer.grading.review import ProgramMeasures
from jittrainer.i18n.message import Msg

if TYPE_CHECKING:
    from jittrainer.grading.host.process import WorkerProcess
    from jittrainer.grading.host.run import GradingRun
    from jittrainer.grading.verdict import Verdict


def await_measures(run: GradingRun, worker: WorkerProcess, verdict: Verdict) -> tuple[ProgramMeasures | None, str]:
    """The measures, or None and why there are none. Like timing, the review comes after the verdict and can only
    lose itself: a slow, oversized, untokened or malformed report is dropped, never trusted. ``run.on_timing`` first
    sees the verdict with its timing, when timing was measured."""
    if run.on_timing is not None and verdict.timing.status in ("measured", "failed"):
        run.on_timing(dataclasses.replace(verdict))
    deadline = time.monotonic() + run.limits.review_timeout_s
    frames = run.frames(worker, after="review")
    while True:
        if run.cancelled.is_set():
            return None, "cancelled"
        message = frames.next(deadline)
        if message is TIMED_OUT:
            return None, "timeout"
        if isinstance(message, Msg):
            return None, "memory"
        if message is None:
            return None, "ended"
        if isinstance(message, protocol.ReviewFrame) and message.token == run.token:
            run.measures_at = time.monotonic()
            try:
                return ProgramMeasures.from_dict(untrusted.bounded(message.measures)), ""
            except (ValueError, TypeError):
                return None, "malformed"
