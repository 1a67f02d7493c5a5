"""A warm worker pool: spare worker processes already started, jax imported, waiting for a job.

A learner presses ctrl+r dozens of times per exercise; starting Python and importing jax costs most of a cold grade.
The pool pays that while the learner reads. Each worker still grades exactly one submission and then exits, so no
JAX cache, monkeypatch or global crosses from one run into the next: only the start-up is done ahead of time.
Spares are kept per simulated device count, for the counts the current exercise needs (``want``).
"""

from __future__ import annotations

import atexit
import contextlib
import threading
import weakref
from collections.abc import Iterator

from jittrainer.grading.host import zygote
from jittrainer.grading.host.process import WorkerProcess
from jittrainer.grading.host.grading import Grading
from jittrainer.grading.host.run import Submission
from jittrainer.grading.limits import DEFAULT_DEVICES, Limits


live_pools: weakref.WeakSet[WorkerPool] = weakref.WeakSet()  # every pool of this process not yet shut down


class WorkerPool:
    def __init__(self, spares: int = 1, devices: tuple[int, ...] = (DEFAULT_DEVICES,), fork_server: bool = True,
                 refill: bool = True) -> None:
        if fork_server:  # a process that keeps a pool grades often: its workers are forked from one fork server
            zygote.start_shared()
        self.spares = max(0, spares)
        # False: a head start for one command's job (`check`, `run`: head_start below): the spares are started once
        # and a taken one is not replaced, so no process imports jax beside the job for nothing.
        self.refill = refill
        self.counts: tuple[int, ...] = tuple(devices)
        self._idle: list[WorkerProcess] = []
        self._lock = threading.Lock()
        self._closed = False
        self.started_workers = 0
        live_pools.add(self)
        atexit.register(self.shutdown)

    def want(self, devices: tuple[int, ...]) -> None:
        """Keep spares for these device counts from now on (the exercise on screen changed); spares of other
        counts are stopped."""
        with self._lock:
            self.counts = tuple(devices)
            stale = [w for w in self._idle if w.devices not in self.counts]
            self._idle = [w for w in self._idle if w.devices in self.counts]
        for worker in stale:
            worker.kill()
        self.start()

    def start(self) -> None:
        """Start spares up to ``spares`` per wanted count (returns at once; they import jax in the background)."""
        with self._lock:
            if self._closed:
                return
            self._idle = [w for w in self._idle if w.alive()]
            for count in self.counts:
                while sum(w.devices == count for w in self._idle) < self.spares:
                    self._idle.append(self._spawn(count))

    def _spawn(self, devices: int, now: bool = False) -> WorkerProcess:
        """A new worker; a spare (``now`` False) never waits for a fork server that is still starting: it is
        spawned instead, and starts in the background all the same."""
        self.started_workers += 1
        server = zygote.shared()
        if not now and server is not None and not server.ready_now():
            server = None
        return WorkerProcess(devices, zygote=server)

    def take(self, devices: int = DEFAULT_DEVICES) -> WorkerProcess:
        """A worker with ``devices`` simulated devices for one job: a live spare if there is one (the oldest, most
        likely warm), else a new one. The next spare starts at once."""
        with self._lock:
            worker = None
            for candidate in [w for w in self._idle if w.devices == devices]:
                self._idle.remove(candidate)
                if candidate.alive():
                    worker = candidate
                    break
                candidate.kill()  # a spare that died while waiting: never hand it out
            if worker is None:
                worker = self._spawn(devices, now=True)
        if self.refill:
            self.start()
        return worker

    def grade_run(self, submission: Submission, limits: Limits | None = None) -> Grading:
        """The grading of ``submission`` on spares, one per device count its exercise is graded with."""
        return Grading(submission, limits, take_worker=self.take)

    def idle(self) -> list[WorkerProcess]:
        with self._lock:
            return list(self._idle)

    def shutdown(self) -> None:
        live_pools.discard(self)
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
        for worker in idle:
            worker.kill()


@contextlib.contextmanager
def head_start() -> Iterator[WorkerPool]:
    """One command's worker (``check``, ``run``), started before the command reads the course and the draft, so that
    its import of jax overlaps them (about a fifth of ``check``'s time on 2 cores). It has the usual device count:
    ``want`` swaps it for an exercise's own. Nothing replaces a taken spare, and nothing is left running after."""
    pool = WorkerPool(spares=1, fork_server=False, refill=False)
    pool.start()
    try:
        yield pool
    finally:
        pool.shutdown()
