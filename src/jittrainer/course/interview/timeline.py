"""The interview's clock, shared by both faces: when each part (and each exercise of the coding part) has to end,
and how long each part really took.

The plan's parts end one after another at fixed times (``InterviewPlan.ends_s``): a part finished early leaves its
time to the next, a part that runs long is ended at its planned end, as an interviewer moves on. ``clock`` is a
monotonic seconds source, injectable for tests.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from jittrainer.course.interview.plan import InterviewPlan, Part
from jittrainer.course.interview.record import PartTime


class Timeline:
    def __init__(self, plan: InterviewPlan, clock: Callable[[], float] = time.monotonic) -> None:
        self.plan = plan
        self.clock = clock
        self.started = clock()
        self.ends = plan.ends_s()
        self.times = [PartTime(p.id, round(p.budget_s, 1)) for p in plan.parts]
        self.index: int | None = None  # the part under way
        self._part_started = 0.0

    @property
    def part(self) -> Part | None:
        return self.plan.parts[self.index] if self.index is not None else None

    def begin(self, index: int) -> Part:
        self.end()
        self.index = index
        self._part_started = self.clock()
        self.times[index].reached = True
        return self.plan.parts[index]

    def end(self, *, ran_out: bool = False) -> None:
        """The part under way is over: its time is recorded (``ran_out``: its end came with questions left)."""
        if self.index is not None:
            self.times[self.index].used_s = round(self.clock() - self._part_started, 1)
            self.times[self.index].ran_out = ran_out
            self.index = None

    def deadline(self, index: int | None = None) -> float:
        index = self.index if index is None else index
        return self.started + (self.ends[index] if index is not None else self.plan.budget_s)

    def left(self, index: int | None = None) -> float:
        """Seconds left in the part (the one under way by default), never below 0."""
        return max(0.0, self.deadline(index) - self.clock())

    def interview_left(self) -> float:
        return max(0.0, self.started + self.plan.budget_s - self.clock())

    def exercise_left(self, k: int) -> float:
        """Seconds left for the coding part's exercise ``k``: its share of the part by size, plus whatever the
        exercises and parts before it left unused."""
        index = self.index
        assert index is not None
        part = self.plan.parts[index]
        start = self.ends[index] - part.budget_s
        end = min(start + part.exercise_ends()[k], self.ends[index])
        return max(0.0, self.started + end - self.clock())

    def used_s(self) -> float:
        return round(self.clock() - self.started, 1)
