"""What the main screen is waiting for from the worker pool: a grade, its timing or review, or a scratch run."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GradeState:
    """The job whose news the screen shows: its id, its exercise, and what is still to come."""

    run_id: int
    exercise_id: str
    phase: str  # "grading" | "timing" | "review" | "scratch" (a scratch run: the draft as a program, ungraded)
    live: bool = False
