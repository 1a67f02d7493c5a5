"""A mock interview: predict-the-output cards and one or two short graded exercises under one clock, then a report
of strengths and weak topics with what to practise next.

Pure planning and bookkeeping (no jax, no Textual): the faces ask the questions and grade the exercises. Exercises
marked ``interview = true`` in their manifest are the ones short enough for it. The learner's interview code is kept
apart from their course drafts (``$JITTRAINER_HOME/interview/``), and a finished interview is recorded in the
progress file's ``interviews`` list.
"""

from __future__ import annotations

import datetime as dt
import random
from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

from jittrainer import paths
from jittrainer.course import Course
from jittrainer.course.drills.model import LEVELS, Card, Deck
from jittrainer.course.drills.present import new_seed
from jittrainer.course.drills.round import Outcome, drawable
from jittrainer.course.drills.schedule import Scheduler
from jittrainer.course.exercises import Exercise
from jittrainer.i18n import _
from jittrainer.session.drafts import Drafts

DEFAULT_MINUTES = 20.0
CARD_MINUTES = 1.5  # about what one card takes, answer and explanation read
EXERCISE_MINUTES = 8.0
SPREAD = {"easy": 0.3, "medium": 0.4, "hard": 0.3}  # the share of each level among an interview's cards


@dataclass
class InterviewPlan:
    cards: list[Card]
    exercises: list[Exercise]
    minutes: float
    topic: str | None = None
    seed: int | None = None  # shuffles the cards' choices (recorded with the interview)

    @property
    def budget_s(self) -> float:
        return self.minutes * 60.0


@dataclass
class ExerciseAttempt:
    exercise: str
    topic: str
    status: str = "skipped"  # pass | fail | error | skipped
    first_failure: str | None = None
    runs: int = 0
    seconds: float = 0.0


@dataclass
class InterviewRecord:
    """What a finished interview leaves in the progress file."""

    at: str
    minutes: float
    topic: str | None
    cards: list[dict[str, Any]] = field(default_factory=list)  # {"card", "topic", "level", "result", "order"}
    exercises: list[dict[str, Any]] = field(default_factory=list)  # ExerciseAttempt as a dict
    seed: int | None = None


def interview_exercises(course: Course, topic: str | None = None) -> list[Exercise]:
    return [ex for ex in course.available if ex.interview and (topic is None or ex.topic == topic)]


def plan_interview(course: Course, deck: Deck, scheduler: Scheduler, *, minutes: float = DEFAULT_MINUTES,
                   topic: str | None = None, seed: int | None = None) -> InterviewPlan:
    """One or two interview-sized exercises (ones not passed yet first) and as many cards as the rest of the time
    holds (due and missed cards first, then new ones), all of ``topic`` when one is given."""
    if topic is not None and topic not in course.topics and topic not in deck.topics:
        raise KeyError(_("no topic called {topic!r} (known: {known})").format(
            topic=topic, known=", ".join(course.topics) or _("none")))
    rng = random.Random(seed)
    progress = scheduler.store.load()
    pool = interview_exercises(course, topic)
    rng.shuffle(pool)
    pool.sort(key=lambda ex: progress.peek(ex.id).status == "passed")
    n_exercises = 0 if not pool else (2 if minutes >= 2 * EXERCISE_MINUTES + 4 * CARD_MINUTES and len(pool) > 1 else 1)
    exercises = pool[:n_exercises]
    card_minutes = max(minutes - n_exercises * EXERCISE_MINUTES, CARD_MINUTES)
    count = max(1, int(card_minutes // CARD_MINUTES))
    cards = spread(scheduler.pick(drawable(deck), topic=topic, seed=seed), count)
    return InterviewPlan(cards, exercises, minutes, topic, seed=new_seed() if seed is None else seed)


def spread(ranked: list[Card], count: int) -> list[Card]:
    """``count`` cards from ``ranked`` (the scheduler's order: due first) with every level in its ``SPREAD`` share
    where the pool allows, asked from easy to hard: an interview warms up, then gets harder."""
    by_level = {level: [c for c in ranked if c.level == level] for level in LEVELS}
    quota = {level: round(count * share) for level, share in SPREAD.items()}
    quota["medium"] = count - quota["easy"] - quota["hard"]
    chosen = {level: by_level[level][: max(0, quota[level])] for level in LEVELS}
    short = count - sum(len(v) for v in chosen.values())
    for card in ranked:  # a level with too few cards: the others fill in, in the scheduler's order
        if short <= 0:
            break
        if all(card is not other for other in chosen[card.level]):
            chosen[card.level].append(card)
            short -= 1
    return [card for level in LEVELS for card in chosen[level]]


def draft_store() -> Drafts:
    """Interview answers live apart from the course drafts, and start from the starter every interview."""
    return Drafts(workspace=paths.home() / "interview", backups=paths.home() / "interview" / "backups")


def record(plan: InterviewPlan, outcomes: list[Outcome], attempts: list[ExerciseAttempt]) -> InterviewRecord:
    return InterviewRecord(
        at=dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        minutes=plan.minutes,
        topic=plan.topic,
        cards=[{"card": o.card.id, "topic": o.card.topic, "level": o.card.level, "result": o.result,
                "order": list(o.shown.order) if o.shown is not None else []} for o in outcomes],
        exercises=[asdict(a) for a in attempts],
        seed=plan.seed,
    )


def save(store: Any, entry: InterviewRecord) -> None:
    with store.update() as progress:
        progress.interviews.append(asdict(entry))


def report_lines(entry: InterviewRecord, deck: Deck, course: Course) -> list[str]:
    """Strengths, weak topics, and what to practise next: the exercises and cards to redo."""
    asked, right = Counter(), Counter()
    for card in entry.cards:
        asked[card["topic"]] += 1
        right[card["topic"]] += card["result"] == "right"
    for attempt in entry.exercises:
        asked[attempt["topic"]] += 1
        right[attempt["topic"]] += attempt["status"] == "pass"
    title = lambda t: course.topic_title(t) if t in course.topics else deck.topic_title(t)  # noqa: E731
    lines = []
    score = sum(right.values())
    lines.append(_("Interview over: {right} of {asked} right ({cards} cards, {exercises} exercises).").format(
        right=score, asked=sum(asked.values()), cards=len(entry.cards), exercises=len(entry.exercises)))
    levels = [level for level in LEVELS if any(c.get("level") == level for c in entry.cards)]
    if levels:
        lines.append(_("By difficulty: {levels}").format(levels=" · ".join(
            "{} {}/{}".format(_(LEVELS[level]), sum(c["result"] == "right" for c in entry.cards if c.get("level") == level),
                              sum(c.get("level") == level for c in entry.cards)) for level in levels)))
    for attempt in entry.exercises:
        ex = course.get(attempt["exercise"])
        name = f"{ex.number:02d} {ex.title_in(_lang())}" if ex else attempt["exercise"]
        status = {"pass": _("passed"), "fail": _("failed"), "error": _("error"), "skipped": _("not tried")}[
            attempt["status"]]
        runs = _("{n} runs").format(n=attempt["runs"])
        lines.append(f"  {name}: {status} ({runs})")
    strong = [t for t in asked if right[t] == asked[t]]
    weak = sorted((t for t in asked if right[t] < asked[t]), key=lambda t: right[t] / asked[t])
    if strong:
        lines.append(_("Strong: {topics}").format(topics=", ".join(title(t) for t in strong)))
    if weak:
        lines.append(_("Weak: {topics}").format(topics=", ".join(
            _("{topic} ({right} of {asked})").format(topic=title(t), right=right[t], asked=asked[t]) for t in weak)))
        redo = [a["exercise"] for a in entry.exercises if a["status"] != "pass"]
        redo += [e for t in weak for e in deck.practice.get(t, [])[:1]]
        if redo:
            lines.append(_("Practise next: {commands}").format(
                commands=", ".join(f"jittrainer show {e}" for e in dict.fromkeys(redo))))
        missed = [c["card"] for c in entry.cards if c["result"] != "right"]
        if missed:
            lines.append(_("Cards to redo: {ids} (they come back in your next drill rounds)").format(
                ids=", ".join(missed)))
    else:
        lines.append(_("No weak topics this time."))
    return lines


def _lang() -> str:
    from jittrainer.i18n import language

    return language()
