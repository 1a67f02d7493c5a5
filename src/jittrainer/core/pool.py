"""A warm worker pool: spare worker processes already started, jax imported, waiting for a job.

A learner presses ctrl+r dozens of times per exercise; starting Python and importing jax costs most of a cold grade.
The pool pays that while the learner reads. Each worker still grades exactly one submission and then exits, so no
JAX cache, monkeypatch or global crosses from one run into the next — only the start-up is done ahead of time.
"""

from __future__ import annotations

import atexit
import threading

from jittrainer.core.runner import GradeRun, Limits, Submission, WorkerProcess


class WorkerPool:
    def __init__(self, spares: int = 1) -> None:
        self.spares = max(0, spares)
        self._idle: list[WorkerProcess] = []
        self._lock = threading.Lock()
        self._closed = False
        self.started_workers = 0
        atexit.register(self.shutdown)

    def start(self) -> None:
        """Start spares up to ``spares`` (returns at once; the workers import jax in the background)."""
        with self._lock:
            if self._closed:
                return
            self._idle = [w for w in self._idle if w.proc.poll() is None]
            while len(self._idle) < self.spares:
                self._idle.append(self._spawn())

    def _spawn(self) -> WorkerProcess:
        self.started_workers += 1
        return WorkerProcess()

    def take(self) -> WorkerProcess:
        """A worker for one job: a live spare if there is one (the oldest, most likely warm), else a new one.
        The next spare starts at once."""
        with self._lock:
            worker = None
            while self._idle:
                candidate = self._idle.pop(0)
                if candidate.proc.poll() is None:
                    worker = candidate
                    break
                candidate.kill()  # a spare that died while waiting: never hand it out
            if worker is None:
                worker = self._spawn()
        self.start()
        return worker

    def idle(self) -> list[WorkerProcess]:
        with self._lock:
            return list(self._idle)

    def grade_run(self, submission: Submission, limits: Limits | None = None) -> GradeRun:
        return GradeRun(submission, limits, worker=self.take())

    def shutdown(self) -> None:
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
        for worker in idle:
            worker.kill()
