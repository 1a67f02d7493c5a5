"""One drill round: the cards in order, a countdown per card, the round's time budget, and the outcomes.

Both faces (plain text, the Textual screen) drive a ``DrillRound``; ``clock`` is injectable for tests.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from jittrainer.course.drills.model import LEVELS, Card, Deck
from jittrainer.course.drills.present import Shown, new_seed
from jittrainer.course.drills.schedule import CardState, Scheduler
from jittrainer.i18n import _

DEFAULT_COUNT = 10


@dataclass
class RoundOptions:
    """What ``jittrainer drill`` was asked for; the app's drill screen takes the same."""

    topic: str | None = None
    count: int = DEFAULT_COUNT
    minutes: float | None = None  # the whole round's budget; None: only the per-card countdowns
    due_only: bool = False
    seed: int | None = None  # the order of the cards and of each card's choices
    difficulty: str | None = None  # a level of LEVELS: only cards of that level
    card_seconds: float | None = None  # every card's countdown cut to this (a mock interview's rapid questions)

    @property
    def budget_s(self) -> float | None:
        return None if self.minutes is None else self.minutes * 60.0


def plan_round(deck: Deck, options: RoundOptions, scheduler: Scheduler) -> list[Card]:
    """The cards of one round, in order (see ``Scheduler.pick``). New cards of the topics whose exercises the
    learner has attempted come first, so a beginner is not asked about what the course has not reached yet."""
    if options.topic is not None and options.topic not in deck.topics:
        raise KeyError(_("no topic called {topic!r} (known: {known})").format(
            topic=options.topic, known=", ".join(deck.topics) or _("none")))
    if options.difficulty is not None and options.difficulty not in LEVELS:
        raise KeyError(_("no difficulty called {level!r} (known: {known})").format(
            level=options.difficulty, known=", ".join(LEVELS)))
    cards = drawable(deck, options.difficulty)
    return scheduler.pick(cards, count=options.count, topic=options.topic, due_only=options.due_only,
                          seed=options.seed, prefer_topics=attempted_topics(deck, scheduler))


def drawable(deck: Deck, difficulty: str | None = None) -> list[Card]:
    """The cards a round may draw: available, about the installed JAX, and of ``difficulty`` when one is given."""
    return [c for c in deck.available if c.applies() and (difficulty is None or c.level == difficulty)]


def not_applying(deck: Deck) -> list[Card]:
    """The cards whose answer does not hold on the installed JAX (their ``jax`` range excludes it)."""
    return [c for c in deck.available if not c.applies()]


def attempted_topics(deck: Deck, scheduler: Scheduler) -> list[str]:
    """Topics with at least one exercise the learner has attempted or passed."""
    try:
        progress = scheduler.store.load()
    except AttributeError:  # a store of another kind (tests): no preference
        return []
    attempted = {ex_id for ex_id, entry in progress.exercises.items() if entry.status != "new"}
    return [topic for topic, exercises in deck.practice.items() if attempted & set(exercises)]


@dataclass
class Outcome:
    card: Card
    result: str  # right | wrong | timeout
    response: str = ""
    seconds: float = 0.0
    state: CardState | None = None  # the card's schedule after this answer
    shown: Shown | None = None  # the order its choices were shown in

    @property
    def correct(self) -> bool:
        return self.result == "right"


@dataclass
class Summary:
    asked: int
    right: int
    wrong: int
    timeouts: int
    skipped: int  # cards of the round never reached (quit early, out of time)
    seconds: float
    weak_topics: list[tuple[str, int, int]]  # (topic, missed, asked), most missed first
    ended_by: str  # "done" | "quit" | "budget"
    seed: int | None = None  # what --seed repeats this round's card and choice order with

    @property
    def score_text(self) -> str:
        return f"{self.right}/{self.asked}" if self.asked else "0/0"


class DrillRound:
    """One round: the cards in order, a countdown per card, the round's time budget, and the outcomes.

    The faces (plain text, the Textual screen) drive it: ``start()`` the current card, then ``answer(text)`` or
    ``time_out()``, then ``next()``. ``clock`` is a monotonic seconds source (injectable for tests); the
    scheduler (optional) records every outcome as it happens, so quitting mid-round loses nothing. ``seed`` shuffles
    each card's choices (a round without one draws one and keeps it in ``seed``)."""

    def __init__(
        self,
        cards: Sequence[Card],
        *,
        scheduler: Scheduler | None = None,
        budget_s: float | None = None,
        clock: Callable[[], float] = time.monotonic,
        seed: int | None = None,
        card_seconds: float | None = None,
    ) -> None:
        self.cards = list(cards)
        self.card_seconds = card_seconds  # a cap on every card's own countdown
        self.seed = new_seed() if seed is None else seed
        self.shown = [Shown.of(card, self.seed) for card in self.cards]
        self.scheduler = scheduler
        self.budget_s = budget_s
        self.clock = clock
        self.index = 0
        self.outcomes: list[Outcome] = []
        self.started_at: float | None = None
        self.card_started_at: float | None = None
        self.deadline: float | None = None
        self.ended_by: str | None = None
        self.finished_at: float | None = None

    # -- state -------------------------------------------------------------------------------------------------

    @property
    def current(self) -> Card | None:
        if self.ended_by is not None or self.index >= len(self.cards):
            return None
        return self.cards[self.index]

    @property
    def current_shown(self) -> Shown | None:
        """The current card as shown: its choices in this round's order."""
        return self.shown[self.index] if self.current is not None else None

    @property
    def answered(self) -> bool:
        """The current card has an outcome (feedback is showing)."""
        return len(self.outcomes) > self.index

    @property
    def finished(self) -> bool:
        return self.ended_by is not None

    @property
    def position(self) -> tuple[int, int]:
        return min(self.index + 1, len(self.cards)), len(self.cards)

    def budget_left(self, now: float | None = None) -> float | None:
        if self.budget_s is None:
            return None
        now = self.clock() if now is None else now
        spent = 0.0 if self.started_at is None else now - self.started_at
        return max(0.0, self.budget_s - spent)

    def seconds_for(self, card: Card, now: float | None = None) -> float:
        """The card's own countdown (at most ``card_seconds``), cut short when the round's budget has less left."""
        left = self.budget_left(now)
        own = float(card.seconds) if self.card_seconds is None else min(float(card.seconds), self.card_seconds)
        return own if left is None else min(own, left)

    def seconds_left(self, now: float | None = None) -> float:
        if self.deadline is None:
            return 0.0
        now = self.clock() if now is None else now
        return max(0.0, self.deadline - now)

    def expired(self, now: float | None = None) -> bool:
        return self.deadline is not None and not self.answered and self.seconds_left(now) <= 0

    # -- flow --------------------------------------------------------------------------------------------------

    def start(self) -> Card | None:
        """Start the current card's countdown (the round's clock starts with the first card)."""
        card = self.current
        if card is None:
            self._finish("done")
            return None
        now = self.clock()
        if self.started_at is None:
            self.started_at = now
        if self.budget_s is not None and self.budget_left(now) <= 0:
            self._finish("budget")
            return None
        self.card_started_at = now
        self.deadline = now + self.seconds_for(card, now)
        return card

    def answer(self, response: str) -> Outcome:
        """Grade the learner's input for the current card. Raises ``AnswerError`` for input that is not an
        answer (nothing is recorded then); an answer after the deadline counts as a time-out."""
        card = self._need_open()
        now = self.clock()
        if self.deadline is not None and now > self.deadline:
            return self._close(card, "timeout", response, now)
        value = self.shown[self.index].parse(response)
        return self._close(card, "right" if card.is_correct(value) else "wrong", response, now)

    def answer_dont_know(self) -> Outcome:
        """The learner gave up on the card: a miss (or a time-out, if the time was already up)."""
        card = self._need_open()
        now = self.clock()
        late = self.deadline is not None and now > self.deadline
        return self._close(card, "timeout" if late else "wrong", "?", now)

    def time_out(self) -> Outcome:
        card = self._need_open()
        return self._close(card, "timeout", "", self.clock())

    def next(self) -> Card | None:
        """Move past the answered card and start the next one; None when the round is over."""
        if self.current is not None and not self.answered:
            raise RuntimeError("answer the current card first")
        if self.finished:
            return None
        self.index += 1
        self.deadline = None
        if self.budget_s is not None and self.budget_left() <= 0 and self.index < len(self.cards):
            self._finish("budget")
            return None
        return self.start()

    def quit(self) -> None:
        if not self.finished:
            self._finish("quit")

    def _need_open(self) -> Card:
        card = self.current
        if card is None:
            raise RuntimeError("the round is over")
        if self.answered:
            raise RuntimeError("this card is already answered")
        if self.deadline is None:
            self.start()
        return card

    def _close(self, card: Card, result: str, response: str, now: float) -> Outcome:
        started = self.card_started_at if self.card_started_at is not None else now
        outcome = Outcome(card, result, response, round(now - started, 3), shown=self.shown[self.index])
        if self.scheduler is not None:
            outcome.state = self.scheduler.record(card.id, result)
        self.outcomes.append(outcome)
        return outcome

    def _finish(self, how: str) -> None:
        self.ended_by = how
        self.finished_at = self.clock()

    # -- summary -----------------------------------------------------------------------------------------------

    def summary(self) -> Summary:
        outcomes = self.outcomes
        asked = Counter(o.card.topic for o in outcomes)
        missed = Counter(o.card.topic for o in outcomes if not o.correct)
        weak = sorted(((t, missed[t], asked[t]) for t in missed), key=lambda t: (-t[1] / t[2], -t[1], t[0]))
        end = self.finished_at if self.finished_at is not None else self.clock()
        seconds = 0.0 if self.started_at is None else max(0.0, end - self.started_at)
        return Summary(
            asked=len(outcomes),
            right=sum(o.result == "right" for o in outcomes),
            wrong=sum(o.result == "wrong" for o in outcomes),
            timeouts=sum(o.result == "timeout" for o in outcomes),
            skipped=max(0, len(self.cards) - len(outcomes)),
            seconds=round(seconds, 1),
            weak_topics=weak,
            ended_by=self.ended_by or "quit",
            seed=self.seed,
        )
