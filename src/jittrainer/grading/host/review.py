"""The review of a passing program, on the host: the learner's measures (from its own worker, after the verdict)
against the reference solution's, then the comments (``grading.review.rules``). Never a verdict change.

The reference's figures depend only on the exercise's solution, the graded inputs' shapes and dtypes (the measures'
``signature``), the device count and the JAX version, so they are cached by those (as the starter's timing is)
instead of importing the solution into the learner's worker. On a miss the solution is graded once more, in a
worker of its own, on the same seed, and measured the same way; a submission that *is* the solution is its own
reference. ``cancel()`` stops that run (a newer grade started).
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from jittrainer import paths
from jittrainer.course.approaches import load_approaches
from jittrainer.course.exercises import Exercise
from jittrainer.files import atomic_write_text, read_json_object
from jittrainer.grading.host.process import WorkerProcess
from jittrainer.grading.host.run import GradingRun, Submission, jax_version
from jittrainer.grading.limits import Limits
from jittrainer.grading.review import ProgramMeasures, Review
from jittrainer.grading.review.rules import review_of
from jittrainer.grading.verdict import Verdict
from jittrainer.i18n.message import msg

MAX_ENTRIES = 256  # reference figures kept, newest last


class ReferenceCache:
    """The reference's measures by (exercise, solution digest, JAX version, platform, devices, input signature). The
    platform is where the measures were taken: the CPU's simulated devices today, for every ``--device``."""

    def __init__(self, path: Path | None = None, jax_version: str = "", platform: str = "cpu") -> None:
        self.path = path or paths.cache_dir() / "reference-review.json"
        self.jax_version = jax_version
        self.platform = platform
        self._lock = threading.Lock()

    def key(self, exercise: Exercise, devices: int, signature: str) -> str:
        digest = hashlib.sha256(exercise.solution_path.read_bytes()).hexdigest()[:16]
        return f"{exercise.id}:{digest}:{self.jax_version}:{self.platform}:{devices}:{signature}"

    def _load(self) -> dict[str, Any]:
        return read_json_object(self.path)

    def get(self, exercise: Exercise, devices: int, signature: str) -> ProgramMeasures | None:
        try:
            found = self._load().get(self.key(exercise, devices, signature))
            return ProgramMeasures.from_dict(found) if isinstance(found, dict) else None
        except (OSError, ValueError):
            return None

    def put(self, exercise: Exercise, devices: int, measures: ProgramMeasures) -> None:
        with self._lock, contextlib.suppress(OSError):
            data = self._load()
            key = self.key(exercise, devices, measures.signature)
            data.pop(key, None)
            data[key] = dataclasses.asdict(measures)
            while len(data) > MAX_ENTRIES:
                data.pop(next(iter(data)))
            atomic_write_text(self.path, json.dumps(data, indent=1))


PROBLEMS = {
    "timeout": "it ran over its time",
    "memory": "the memory limit was reached",
    "ended": "the worker ended first",
    "malformed": "the report was malformed",
    "cancelled": "a newer grade started",
}


class Reviewer:
    """Composes one review; ``review()`` blocks (it may grade the solution once), ``cancel()`` from any thread."""

    def __init__(self, submission: Submission, limits: Limits, devices: int,
                 take_worker: Callable[[int], WorkerProcess] | None = None, cache: ReferenceCache | None = None) -> None:
        self.submission = submission
        self.limits = limits
        self.devices = devices
        self.take_worker = take_worker
        self.cache = cache or ReferenceCache(jax_version=jax_version())
        self.cancelled = threading.Event()
        self._run: GradingRun | None = None
        self._lock = threading.Lock()

    def cancel(self) -> None:
        with self._lock:
            self.cancelled.set()
            run = self._run
        if run is not None:
            run.cancel()

    def review(self, verdict: Verdict, measures: ProgramMeasures | None, problem: str = "",
               waited: float | None = None) -> Review:
        """``waited``: seconds from the verdict to the measures (the worker's measuring, as the host saw it)."""
        started = time.monotonic()
        if measures is None:
            why = PROBLEMS.get(problem, problem or "no report")
            return Review(status="failed", summary=msg("review.failed", "Your program passed, but the review could "
                                                       "not measure it: {why}.", why=why))
        measures = dataclasses.replace(measures, compiles=verdict.compiles, traces=verdict.traces)
        ex = self.submission.exercise
        reference, source, reference_s = self.reference(measures)
        approaches = load_approaches(ex.dir, ex.id)
        review = review_of(measures, reference, approaches, reference=source, measure_s=measures.seconds,
                           reference_s=reference_s)
        review.seconds = round(time.monotonic() - started + (waited or 0.0), 4)
        return review

    def reference(self, mine: ProgramMeasures) -> tuple[ProgramMeasures | None, str, float | None]:
        """The reference's measures on the same inputs, and where they came from ("self", "cache", "measured")."""
        ex = self.submission.exercise
        try:
            solution = ex.solution_path.read_bytes()
        except OSError:
            return None, "", None
        if self.submission.source == solution:
            self.cache.put(ex, self.devices, mine)
            return mine, "self", None
        cached = self.cache.get(ex, self.devices, mine.signature)
        if cached is not None:
            return cached, "cache", None
        started = time.monotonic()
        measured = self._measure(solution)
        if measured is None:
            return None, "", None
        self.cache.put(ex, self.devices, measured)
        return measured, "measured", round(time.monotonic() - started, 4)

    def _measure(self, solution: bytes) -> ProgramMeasures | None:
        sub = self.submission
        # The device mode too: an exercise with a device check passes only where its device decides it.
        reference = Submission(sub.exercise, solution, sub.exercise.solution_path.resolve(), seed=sub.seed,
                               timing=False, lang=sub.lang, review=True, device=sub.device,
                               device_mode=sub.device_mode, device_reason=sub.device_reason)
        with self._lock:
            if self.cancelled.is_set():
                return None
            worker = self.take_worker(self.devices) if self.take_worker is not None else None
            run = self._run = GradingRun(reference, self.limits, worker=worker, devices=self.devices)
        verdict = run.run()
        if not verdict.passed or run.measures is None:
            return None
        return dataclasses.replace(run.measures, compiles=verdict.compiles, traces=verdict.traces)
