"""Planning a mock interview: the plan file's parts, scaled to the minutes asked for and filled from the course.

A part is given a budget (its share of the interview) and content whose stated durations fill it: a card's
countdown, an exercise's size in minutes (``interview.toml``), a debugging task's cards' countdowns. The coding and
debugging parts take whole items (a pair of exercises, a task's questions) that fit, and the card parts absorb the
rest, so the plan's expected time stays close to the minutes asked for at any length. Pure: no jax, no Textual.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from jittrainer.course import Course
from jittrainer.course.drills.model import LEVELS, Card, Deck
from jittrainer.course.drills.present import new_seed
from jittrainer.course.drills.round import drawable
from jittrainer.course.drills.schedule import Scheduler
from jittrainer.course.exercises import Exercise
from jittrainer.course.interview.spec import DebugTask, FollowUp, InterviewSpec, load_spec, part_title
from jittrainer.i18n import _

FIT = 1.25  # an item fits a budget it overruns by at most a quarter (a 10-minute exercise in 8 minutes does not)
SHORT = 0.75  # the coding part asks one exercise cut short to this share of its size, not shorter
MIN_CARD_PART_S = 30.0  # a card part with less time than this asks nothing


@dataclass
class Part:
    id: str
    kind: str  # cards | coding | debugging | explain
    budget_s: float  # the time it is given (its deadline is the sum of the budgets up to it)
    cards: list[Card] = field(default_factory=list)
    exercises: list[Exercise] = field(default_factory=list)
    sizes: dict[str, int] = field(default_factory=dict)  # coding: exercise id -> minutes (its weight)
    follows: dict[str, FollowUp] = field(default_factory=dict)  # coding: a follow-up's id -> its pair
    task: DebugTask | None = None  # debugging: the task its cards ask about
    card_seconds: int | None = None  # cards: each countdown cut to this

    @property
    def title(self) -> str:
        return part_title(self.id)

    def card_s(self, card: Card) -> float:
        """A card's countdown in this part."""
        return float(min(card.seconds, self.card_seconds or card.seconds))

    @property
    def expected_s(self) -> float:
        """The stated durations of what the part asks: the time a prepared candidate is planned to take."""
        if self.kind == "coding":
            return 60.0 * sum(self.sizes[ex.id] for ex in self.exercises)
        if self.kind in ("cards", "debugging"):
            return sum(self.card_s(c) for c in self.cards)
        return self.budget_s

    @property
    def empty(self) -> bool:
        return self.kind != "explain" and not self.cards and not self.exercises

    def exercise_ends(self) -> list[float]:
        """Coding: when each exercise's time is up, in seconds from the part's planned start (its share of the
        budget, by size)."""
        total = sum(self.sizes[ex.id] for ex in self.exercises) or 1
        ends, done = [], 0
        for ex in self.exercises:
            done += self.sizes[ex.id]
            ends.append(self.budget_s * done / total)
        return ends


@dataclass
class InterviewPlan:
    parts: list[Part]
    minutes: float
    topic: str | None = None
    seed: int | None = None  # shuffles the cards' choices (recorded with the interview)

    @property
    def budget_s(self) -> float:
        return self.minutes * 60.0

    @property
    def cards(self) -> list[Card]:
        return [c for p in self.parts for c in p.cards]

    @property
    def exercises(self) -> list[Exercise]:
        return [ex for p in self.parts for ex in p.exercises]

    @property
    def expected_s(self) -> float:
        return sum(p.expected_s for p in self.parts if not p.empty)

    def part(self, part_id: str) -> Part | None:
        return next((p for p in self.parts if p.id == part_id), None)

    def ends_s(self) -> list[float]:
        """Each part's planned end, in seconds from the start: a part that finishes early leaves its time to the
        next one, and no part runs past its end (so the interview never runs past its minutes)."""
        out, total = [], 0.0
        for part in self.parts:
            total += part.budget_s
            out.append(min(total, self.budget_s))
        return out


def interview_exercises(course: Course, topic: str | None = None) -> list[Exercise]:
    return [ex for ex in course.available if ex.interview and (topic is None or ex.topic == topic)]


def plan_interview(course: Course, deck: Deck, scheduler: Scheduler, *, minutes: float | None = None,
                   topic: str | None = None, seed: int | None = None, spec: InterviewSpec | None = None
                   ) -> InterviewPlan:
    """The plan file's parts scaled to ``minutes`` (default: the file's), filled with the learner's due and missed
    cards first, exercises not passed yet first (pairs of ``prefer_topics`` before others), all of ``topic`` when
    one is given."""
    if topic is not None and topic not in course.topics and topic not in deck.topics:
        raise KeyError(_("no topic called {topic!r} (known: {known})").format(
            topic=topic, known=", ".join(course.topics) or _("none")))
    spec = spec or load_spec(course.root)
    minutes = float(minutes or spec.minutes)
    seed = new_seed() if seed is None else seed
    rng = random.Random(seed)
    scale = minutes / (sum(p.minutes for p in spec.parts) or minutes)
    progress = scheduler.store.load()
    ranked = scheduler.pick(drawable(deck), topic=topic, seed=seed)
    debug_ids = {c for task in spec.debugging for c in task.cards}
    pool = [c for c in ranked if c.id not in debug_ids]
    parts = [Part(p.id, p.kind, p.minutes * scale * 60.0, card_seconds=p.card_seconds) for p in spec.parts]
    for part, part_spec in zip(parts, spec.parts):
        if part.kind == "coding":
            _fill_coding(part, course, spec, progress, topic, rng)
        elif part.kind == "debugging":
            _fill_debugging(part, spec, deck, ranked, topic, rng)
        elif part.kind == "explain":
            part.budget_s = min(part.budget_s, part_spec.minutes * 60.0)
    _balance(parts, minutes * 60.0)
    for part, part_spec in zip(parts, spec.parts):
        if part.kind == "cards":
            part.cards, short = _fill_cards(part, part_spec.levels, pool)
            pool = [c for c in pool if c not in part.cards]
            if short:  # a topic without the cards to fill the part: it takes what its cards take
                part.budget_s = min(part.budget_s, part.expected_s + MIN_CARD_PART_S)
    return InterviewPlan([p for p in parts if not p.empty], minutes, topic, seed)


def _balance(parts: list[Part], total_s: float) -> None:
    """The coding and debugging parts take the time of what they ask; the card parts share what is left, in
    proportion to their budgets, so the parts add up to the interview."""
    for part in parts:
        if part.kind in ("coding", "debugging"):
            part.budget_s = part.expected_s
    fixed = sum(p.budget_s for p in parts if p.kind != "cards")
    flexible = [p for p in parts if p.kind == "cards"]
    share = sum(p.budget_s for p in flexible)
    left = max(0.0, total_s - fixed)
    for part in flexible:
        part.budget_s = left * part.budget_s / share if share else left / len(flexible)


def _fill_coding(part: Part, course: Course, spec: InterviewSpec, progress, topic: str | None,
                 rng: random.Random) -> None:
    """Whole pairs (an exercise and its follow-up) that fit the budget, then single exercises; at least one
    exercise when the part has ``SHORT`` of its size or more."""
    exercises = interview_exercises(course, topic)
    by_id = {ex.id: ex for ex in exercises}
    passed = {ex.id for ex in exercises if progress.peek(ex.id).status == "passed"}
    preferred = set(spec.prefer_topics)
    pairs = [fu for fu in spec.follow_ups if fu.first in by_id and fu.then in by_id]
    rng.shuffle(pairs)
    pairs.sort(key=lambda fu: (by_id[fu.first].topic not in preferred, (fu.first in passed) + (fu.then in passed)))
    singles = list(exercises)
    rng.shuffle(singles)
    singles.sort(key=lambda ex: (ex.id in passed, ex.topic not in preferred))
    items: list[tuple[list[Exercise], FollowUp | None]] = [([by_id[fu.first], by_id[fu.then]], fu) for fu in pairs]
    items += [([ex], None) for ex in singles]
    left = part.budget_s
    for item, pair in items:
        if any(ex in part.exercises for ex in item):
            continue
        sizes = [spec.size(ex.id) * 60.0 for ex in item]
        if sum(sizes) > left * FIT:
            if pair is None or part.exercises or sizes[0] > left * FIT:
                continue
            item, sizes, pair = item[:1], sizes[:1], None  # no time for the follow-up: the first alone
        part.exercises += item
        if pair is not None:
            part.follows[pair.then] = pair
        left -= sum(sizes)
    if not part.exercises and items and spec.size(items[0][0][0].id) * 60.0 * SHORT <= part.budget_s:
        part.exercises = items[0][0][:1]  # most of its size: one exercise, cut short, is still worth asking
    part.sizes = {ex.id: spec.size(ex.id) for ex in part.exercises}


def _fill_debugging(part: Part, spec: InterviewSpec, deck: Deck, ranked: list[Card], topic: str | None,
                    rng: random.Random) -> None:
    """One debugging task whose questions fit (one the learner has not seen first); with too little time, only
    its core question, the one that asks why."""
    cards = {c.id: c for c in ranked}
    order = {c.id: i for i, c in enumerate(ranked)}
    tasks = [t for t in spec.debugging if all(c in cards for c in t.cards)
             and (topic is None or cards[t.core].topic == topic)]
    rng.shuffle(tasks)
    tasks.sort(key=lambda t: order[t.core])  # the scheduler's order: due and new before those seen lately
    if not tasks or part.budget_s < MIN_CARD_PART_S:
        return
    task = tasks[0]
    chosen = [cards[c] for c in task.cards]
    if sum(part.card_s(c) for c in chosen) > part.budget_s * FIT:
        chosen = [cards[task.core]]
    part.task, part.cards = task, chosen


def _fill_cards(part: Part, levels: tuple[tuple[str, float], ...], pool: list[Card]) -> tuple[list[Card], bool]:
    """As many cards as the budget holds at their countdowns, in the part's level shares, easier first; and
    whether the pool had fewer than that."""
    allowed = [level for level, _share in levels] or list(LEVELS)
    candidates = [c for c in pool if c.level in allowed]
    if part.budget_s < MIN_CARD_PART_S:
        return [], False
    if not candidates:
        return [], True
    sample = candidates[:20]
    mean_s = sum(part.card_s(c) for c in sample) / len(sample)
    count = max(1, math.floor(part.budget_s / mean_s + 0.5))
    cards = spread(candidates, count, levels or tuple((level, 1 / len(LEVELS)) for level in LEVELS))
    return cards, len(cards) < count


def spread(ranked: list[Card], count: int, shares: tuple[tuple[str, float], ...] = (
        ("easy", 0.3), ("medium", 0.4), ("hard", 0.3))) -> list[Card]:
    """``count`` cards from ``ranked`` (the scheduler's order: due first) with every level in its share where the
    pool allows, asked in the order of ``shares`` (an interview warms up, then gets harder); a level with too few
    cards leaves its places to the others, in the scheduler's order."""
    levels = [level for level, _share in shares]
    by_level = {level: [c for c in ranked if c.level == level] for level in levels}
    quota = {level: math.floor(count * share + 0.5) for level, share in shares}
    quota[levels[len(levels) // 2]] += count - sum(quota.values())  # rounding: the middle level takes the rest
    chosen = {level: by_level[level][: max(0, quota[level])] for level in levels}
    short = count - sum(len(v) for v in chosen.values())
    for card in ranked:
        if short <= 0:
            break
        if card.level in chosen and all(card is not other for other in chosen[card.level]):
            chosen[card.level].append(card)
            short -= 1
    return [card for level in levels for card in chosen[level]]
