"""One grade in flight at a time, on the warm worker pool; a newer grade kills the older one's worker processes.

``GradeDispatcher.grade`` blocks (run it in a thread worker) and reports only through ``post``: it never touches a
widget. The UI process stays free of jax: the pool's workers import it, each in its own process.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from textual.message import Message

from jittrainer.app.messages import GradeFailed, TimingReady, VerdictReady
from jittrainer.course.exercises import Exercise
from jittrainer.grading.host.grading import Grading
from jittrainer.grading.host.pool import WorkerPool
from jittrainer.grading.host.run import Submission
from jittrainer.grading.limits import Limits, device_counts
from jittrainer.grading.verdict import Verdict


@dataclass(frozen=True)
class GradeClock:
    """How far a grade in flight has got against its time limit. ``elapsed_s`` is None while the job waits for a
    worker process: the limit counts from when a worker takes the job, not from the key that started the grade."""

    limit_s: float
    elapsed_s: float | None


class GradeDispatcher:
    def __init__(self, spares: int = 1, timing: bool = True) -> None:
        self.spares = spares
        self.timing = timing
        self._pool: WorkerPool | None = None
        self._lock = threading.Lock()
        self._latest = 0  # id of the newest grade asked for; older ones are stale
        self._current: Grading | None = None
        # The latest gradings started, oldest first (tests read it); bounded, as live grading starts many.
        self.history: deque[Grading] = deque(maxlen=20)
        self._closed = False

    @property
    def pool(self) -> WorkerPool:
        with self._lock:
            if self._pool is None:
                self._pool = WorkerPool(spares=self.spares)
            return self._pool

    def warm_up(self, exercise: Exercise | None = None) -> None:
        """Start the spare worker(s) the exercise needs: they import jax while the learner reads the statement."""
        if not self._closed:
            self.pool.want(device_counts(exercise))

    def begin(self) -> int:
        """A new grade's id. The grade in flight (if any) becomes stale and its workers are killed off the UI
        thread."""
        with self._lock:
            self._latest += 1
            stale, self._current = self._current, None
            run_id = self._latest
        if stale is not None:
            threading.Thread(target=stale.cancel, name="jittrainer-cancel", daemon=True).start()
        return run_id

    def cancel(self) -> None:
        """Stop the grade in flight, if any, and kill its workers."""
        self.begin()

    def grade(self, run_id: int, exercise: Exercise, source: bytes, path: Path, limits: Limits, lang: str,
              post: Callable[[Message], object]) -> None:
        """Blocking: grade ``source`` and post VerdictReady (then TimingReady) unless a newer grade replaced it."""
        try:
            submission = Submission(exercise, source, path, timing=self.timing, lang=lang)
            grading = Grading(submission, limits, take_worker=self.pool.take)
        except Exception as exc:  # noqa: BLE001 - a spawn failure must reach the learner, not kill the app
            if self._is_latest(run_id):
                post(GradeFailed(run_id, exercise.id, f"{type(exc).__name__}: {exc}"))
            return
        with self._lock:
            stale = run_id != self._latest or self._closed
            if not stale:
                self._current = grading
                self.history.append(grading)
        if stale:
            grading.cancel()
            return
        announced = False

        def on_verdict(verdict: Verdict) -> None:
            nonlocal announced
            if self._is_latest(run_id) and not grading.cancelled.is_set():
                announced = True
                post(VerdictReady(run_id, exercise.id, verdict, timing_pending=True))

        try:
            verdict = grading.run(on_verdict=on_verdict)
        except Exception as exc:  # noqa: BLE001
            verdict = None
            if self._is_latest(run_id):
                post(GradeFailed(run_id, exercise.id, f"the grader failed: {type(exc).__name__}: {exc}"))
        finally:
            with self._lock:
                if self._current is grading:
                    self._current = None
        if verdict is None or grading.cancelled.is_set() or not self._is_latest(run_id):
            return
        if announced:
            post(TimingReady(run_id, exercise.id, verdict))
        else:
            post(VerdictReady(run_id, exercise.id, verdict, timing_pending=False))

    def clock(self, run_id: int) -> GradeClock | None:
        """The clock of grade ``run_id`` while it is the one in flight (read from the UI thread: two attributes
        that the grading thread sets once)."""
        with self._lock:
            grading = self._current if run_id == self._latest and not self._closed else None
        if grading is None:
            return None
        started = grading.handed_over_at
        return GradeClock(grading.limits.timeout_s, None if started is None else time.monotonic() - started)

    def _is_latest(self, run_id: int) -> bool:
        with self._lock:
            return run_id == self._latest and not self._closed

    def shutdown(self) -> None:
        with self._lock:
            self._closed = True
            self._latest += 1
            current, self._current = self._current, None
            pool = self._pool
        if current is not None:
            current.cancel()
        if pool is not None:
            pool.shutdown()
