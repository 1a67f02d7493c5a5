"""What an interview leaves behind: its exercise attempts, each part's time, the explain-why answer, and the record
in the progress file's ``interviews`` list (the report reads only that record). Pure bookkeeping.

An exercise the interview never showed (it ended first) is recorded as not opened: the report lists it as not
reached and counts it nowhere. One shown and never graded counts as not tried.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import asdict, dataclass, field
from typing import Any

from jittrainer import paths
from jittrainer.course.drills.round import Outcome
from jittrainer.course.exercises import Exercise
from jittrainer.course.interview.plan import InterviewPlan, Part
from jittrainer.session.drafts import Drafts

RECORD_VERSION = 2  # 2: parts, sizes, weights, the explain-why answer; 1 had cards and exercises only


@dataclass
class ExerciseAttempt:
    exercise: str
    topic: str
    status: str = "skipped"  # pass | fail | error | skipped (shown, never graded)
    first_failure: str | None = None
    runs: int = 0
    seconds: float = 0.0
    opened: bool = True  # False: the interview ended before it was shown
    size: int = 0  # minutes: its weight in the score
    follows: str | None = None  # the exercise it follows up

    @classmethod
    def of(cls, part: Part, exercise: Exercise, *, opened: bool = True) -> ExerciseAttempt:
        """The attempt at ``exercise`` of the coding ``part``: its size and the exercise it follows up, from the
        plan."""
        pair = part.follows.get(exercise.id)
        return cls(exercise.id, exercise.topic, opened=opened, size=part.sizes.get(exercise.id, 0),
                   follows=pair.first if pair else None)

    def graded(self, status: str, first_failure: str | None) -> None:
        """One more grade: its status and first failed check count, the earlier runs' do not."""
        self.runs += 1
        self.status = status
        self.first_failure = first_failure


@dataclass
class PartTime:
    part: str
    planned_s: float
    used_s: float = 0.0
    reached: bool = False
    ran_out: bool = False  # it ended at its planned end, with questions left


@dataclass
class ExplainAnswer:
    """The explain-why prompt: the card it asked about, what the candidate typed, and how they graded it against
    the card's explanation (``grade`` empty when they never did)."""

    card: str
    topic: str
    text: str = ""
    grade: str = ""
    seconds: float = 0.0


@dataclass
class InterviewRecord:
    at: str
    minutes: float
    topic: str | None
    # {"card", "topic", "level", "result", "order", "part", "weight"}
    cards: list[dict[str, Any]] = field(default_factory=list)
    exercises: list[dict[str, Any]] = field(default_factory=list)  # ExerciseAttempt as a dict
    seed: int | None = None
    parts: list[dict[str, Any]] = field(default_factory=list)  # PartTime as a dict, in plan order
    explain: dict[str, Any] | None = None  # ExplainAnswer as a dict
    task: str | None = None  # the debugging task's id
    planned_cards: int = 0  # the cards the plan held (those not answered were not reached)
    version: int = RECORD_VERSION


def card_weight(seconds: float) -> int:
    """A card's points: its countdown in whole minutes, at least one (a 45 s card 1, a 90 s one 2, 150 s 3)."""
    return max(1, int(seconds / 60.0 + 0.5))


def record(plan: InterviewPlan, outcomes: list[Outcome], attempts: list[ExerciseAttempt],
           times: list[PartTime] | None = None, explain: ExplainAnswer | None = None) -> InterviewRecord:
    """The record of a finished interview. ``attempts`` holds those of the exercises shown; the plan's others are
    added as not opened."""
    part_of = {c.id: p for p in plan.parts for c in p.cards}
    shown = {a.exercise for a in attempts}
    attempts = list(attempts)
    for part in plan.parts:
        for ex in part.exercises:
            if ex.id not in shown:
                attempts.append(ExerciseAttempt.of(part, ex, opened=False))
    return InterviewRecord(
        at=dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        minutes=plan.minutes,
        topic=plan.topic,
        cards=[{"card": o.card.id, "topic": o.card.topic, "level": o.card.level, "result": o.result,
                "order": list(o.shown.order) if o.shown is not None else [],
                "part": part_of[o.card.id].id if o.card.id in part_of else "",
                "weight": card_weight(part_of[o.card.id].card_s(o.card) if o.card.id in part_of else o.card.seconds)}
               for o in outcomes],
        exercises=[asdict(a) for a in attempts],
        seed=plan.seed,
        parts=[asdict(t) for t in times or []],
        explain=asdict(explain) if explain is not None else None,
        task=next((p.task.id for p in plan.parts if p.task is not None), None),
        planned_cards=len(plan.cards),
    )


def save(store: Any, entry: InterviewRecord) -> None:
    with store.update() as progress:
        progress.interviews.append(asdict(entry))


def draft_store() -> Drafts:
    """Interview answers live apart from the course drafts, and start from the starter every interview."""
    return Drafts(workspace=paths.home() / "interview", backups=paths.home() / "interview" / "backups")
