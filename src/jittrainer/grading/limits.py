"""How long, how much memory and how many simulated devices a grade gets: the one place these rules live."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from jittrainer.course.exercises import Exercise

DEFAULT_TIMEOUT_S = 10.0
DEFAULT_DEVICES = 4  # simulated CPU devices of a worker unless the exercise asks for other counts


@dataclass(frozen=True)
class Limits:
    timeout_s: float = DEFAULT_TIMEOUT_S  # job hand-over to verdict: importing the learner's file and all checks
    timing_timeout_s: float = 20.0  # the timing phase after the verdict; running over only loses the timing
    review_timeout_s: float = 30.0  # the review's measuring after a pass (one more compile); running over loses it
    startup_timeout_s: float = 90.0  # python + jax start-up of the worker, before any learner code runs
    # Resident memory allowed above the worker's own use after jax start-up (a plain RLIMIT_AS would break jax:
    # with simulated devices it reserves ~1.6 GB of address space at start). None: no limit.
    memory_mb: int | None = 2048

    def with_timeout(self, seconds: float | None) -> Limits:
        return self if seconds is None else replace(self, timeout_s=float(seconds))


def limits_for(exercise: Exercise | None, timeout_s: float | None = None) -> Limits:
    """An exercise's limits: ``timeout_s`` (a ``--timeout``) wins, then the manifest's ``grading.timeout_s``."""
    limits = Limits()
    if timeout_s is not None:
        return limits.with_timeout(timeout_s)
    if exercise is not None and exercise.timeout_s:
        return limits.with_timeout(exercise.timeout_s)
    return limits


def device_counts(exercise: Exercise | None) -> tuple[int, ...]:
    """The simulated device counts an exercise is graded with: one worker per count. Exercises whose answer
    depends on the device count list two counts, so that a hard-coded count fails one of the runs."""
    if exercise is not None and exercise.devices:
        return tuple(exercise.devices)
    return (DEFAULT_DEVICES,)


def scratch_devices(exercise: Exercise | None) -> int:
    """The simulated device count of a scratch run, which runs the learner's file once: the first one it is graded
    with."""
    return device_counts(exercise)[0]
