"""One grade (or scratch run) in flight at a time, on the warm worker pool; a newer one kills the older one's worker
processes.

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

from jittrainer.app.messages import GradeFailed, ReviewReady, ScratchReady, TimingReady, VerdictReady
from jittrainer.course.exercises import Exercise
from jittrainer.grading.host.device import Choice
from jittrainer.grading.host.grading import Grading
from jittrainer.grading.host.pool import WorkerPool
from jittrainer.grading.host.run import Submission
from jittrainer.grading.host.scratch import ScratchRunHost
from jittrainer.grading.limits import Limits, device_counts, scratch_devices
from jittrainer.grading.verdict import Verdict


@dataclass(frozen=True)
class GradeClock:
    """How far a grade in flight has got against its time limit. ``elapsed_s`` is None while the job waits for a
    worker process: the limit counts from when a worker takes the job, not from the key that started the grade."""

    limit_s: float
    elapsed_s: float | None


class GradeDispatcher:
    def __init__(self, spares: int = 1, timing: bool = True, review: bool = True, device: Choice | None = None) -> None:
        self.spares = spares
        self.timing = timing
        self.device = device or Choice("cpu", "")  # --device / [grading] device: where the steady state is timed
        self.review = review  # after a pass: the review (its cost against the reference, its approach)
        self._pool: WorkerPool | None = None
        self._lock = threading.Lock()
        self._latest = 0  # id of the newest grade asked for; older ones are stale
        self._current: Grading | ScratchRunHost | None = None
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
        """Blocking: grade ``source`` and post VerdictReady (then TimingReady, then ReviewReady after a pass) unless a
        newer grade replaced it (which also stops its review)."""
        grading = self._start(run_id, exercise, post, lambda: Grading(
            Submission(exercise, source, path, timing=self.timing, lang=lang, review=self.review).on_device(
                self.device), limits,
            take_worker=self.pool.take))
        if grading is None:
            return
        announced = False

        def on_verdict(verdict: Verdict) -> None:
            nonlocal announced
            if self._is_latest(run_id) and not grading.cancelled.is_set():
                announced = True
                post(VerdictReady(run_id, exercise.id, verdict, timing_pending=verdict.timing.status == "pending",
                                  review_pending=self.review and verdict.passed))

        def on_timing(verdict: Verdict) -> None:
            if self._is_latest(run_id) and not grading.cancelled.is_set():
                post(TimingReady(run_id, exercise.id, verdict, review_pending=True))

        verdict = self._finish(run_id, exercise, post, grading, lambda: grading.run(on_verdict, on_timing),
                               "the grader failed")
        if verdict is None or grading.cancelled.is_set() or not self._is_latest(run_id):
            return
        if announced and self.review and verdict.passed:
            post(ReviewReady(run_id, exercise.id, verdict))
        elif announced:
            post(TimingReady(run_id, exercise.id, verdict))
        else:
            post(VerdictReady(run_id, exercise.id, verdict, timing_pending=False))

    def scratch(self, run_id: int, exercise: Exercise, source: bytes, path: Path, limits: Limits, lang: str,
                post: Callable[[Message], object]) -> None:
        """Blocking: run ``source`` as a program (its ``__main__`` block), ungraded, and post ScratchReady unless a
        newer grade or run replaced it. Same pool, limits and channel as a grade; nothing is recorded."""
        run = self._start(run_id, exercise, post, lambda: ScratchRunHost(
            Submission(exercise, source, path, timing=False, lang=lang), limits,
            self.pool.take(scratch_devices(exercise))))
        if run is None:
            return
        result = self._finish(run_id, exercise, post, run, run.run, "the scratch run failed")
        if result is not None and not run.cancelled.is_set() and self._is_latest(run_id):
            post(ScratchReady(run_id, exercise.id, result))

    def _start(self, run_id: int, exercise: Exercise, post: Callable[[Message], object], make: Callable):
        """The job ``make`` builds, now the one in flight; None (said, or cancelled) when it could not start or a
        newer one replaced it."""
        try:
            job = make()
        except Exception as exc:  # noqa: BLE001 - a spawn failure must reach the learner, not kill the app
            if self._is_latest(run_id):
                post(GradeFailed(run_id, exercise.id, f"{type(exc).__name__}: {exc}"))
            return None
        with self._lock:
            stale = run_id != self._latest or self._closed
            if not stale:
                self._current = job
                if isinstance(job, Grading):
                    self.history.append(job)
        if stale:
            job.cancel()
            return None
        return job

    def _finish(self, run_id: int, exercise: Exercise, post: Callable[[Message], object], job, run: Callable,
                failed: str):
        """What ``run`` returns; None, said as ``failed``, when it raised. The job is no longer in flight after."""
        try:
            return run()
        except Exception as exc:  # noqa: BLE001
            if self._is_latest(run_id):
                post(GradeFailed(run_id, exercise.id, f"{failed}: {type(exc).__name__}: {exc}"))
            return None
        finally:
            with self._lock:
                if self._current is job:
                    self._current = None

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
