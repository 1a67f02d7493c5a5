"""When each drill card comes back: FSRS spaced repetition (the maintained ``fsrs`` package), kept in the progress
file's ``drills`` entry as ``{"version": 2, "cards": {card_id: state}}``.

A right answer is rated Good, a wrong one or a time-out Again; FSRS then sets the card's stability, difficulty and
next due time. Learning and relearning take one step of ten minutes: a right answer to a new card brings it back in
about two days, and a miss brings the card back ten minutes later, so it is due again today. "Due" means due by the
end of today (local time), so ``--due`` drills everything that comes back today.

Older progress files kept Leitner boxes; a card in box b becomes a review card whose stability is that box's interval
(1, 3, 7, 14 or 30 days), with its due date kept. The state of a card that the deck no longer has (retired) stays in
the file, unused: if the card comes back, so does its schedule.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from fsrs import Card as FsrsCard
from fsrs import Rating
from fsrs import Scheduler as FsrsScheduler
from fsrs import State

from jittrainer.course.drills.model import Card

RESULTS = ("right", "wrong", "timeout")
STATE_VERSION = 2
LEITNER_INTERVAL_DAYS = {1: 1, 2: 3, 3: 7, 4: 14, 5: 30}
STEP = dt.timedelta(minutes=10)
MIGRATED_DIFFICULTY = 5.0  # the middle of FSRS's 1..10 scale: a box says nothing about difficulty


def _now() -> dt.datetime:
    return dt.datetime.now().astimezone()


def _aware(value: dt.datetime) -> dt.datetime:
    return value if value.tzinfo is not None else value.astimezone()


@dataclass
class CardState:
    fsrs: dict[str, Any] | None = None  # fsrs.Card.to_dict(); None: never drilled
    seen: int = 0
    right: int = 0
    wrong: int = 0
    last_result: str | None = None
    last_seen: str | None = None

    @property
    def is_new(self) -> bool:
        return self.fsrs is None

    def card(self) -> FsrsCard | None:
        if self.fsrs is None:
            return None
        try:
            return FsrsCard.from_dict(self.fsrs)  # type: ignore[arg-type]
        except (KeyError, TypeError, ValueError):
            return None

    @property
    def due(self) -> dt.datetime | None:
        card = self.card()
        return _aware(card.due) if card is not None else None

    @property
    def stability(self) -> float | None:
        card = self.card()
        return card.stability if card is not None else None

    def is_due(self, end_of_today: dt.datetime) -> bool:
        due = self.due
        return due is None or due <= end_of_today

    @classmethod
    def from_dict(cls, raw: Any) -> CardState:
        """Tolerant: anything malformed in the file counts as a new card rather than breaking the round. A Leitner
        state (a ``box``) from before is converted."""
        if not isinstance(raw, dict):
            return cls()
        if "box" in raw and "fsrs" not in raw:
            raw = migrate_card(raw)
        state = cls()
        for name in ("seen", "right", "wrong"):
            value = raw.get(name)
            if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
                setattr(state, name, value)
        for name in ("last_result", "last_seen"):
            if isinstance(raw.get(name), str):
                setattr(state, name, raw[name])
        fsrs_state = raw.get("fsrs")
        if isinstance(fsrs_state, dict):
            state.fsrs = fsrs_state
            if state.card() is None:
                state.fsrs = None
        return state

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def migrate_card(raw: dict[str, Any]) -> dict[str, Any]:
    """A Leitner card state as an FSRS one: box b is a review card with stability = that box's interval."""
    out = {k: raw.get(k) for k in ("seen", "right", "wrong", "last_result", "last_seen")}
    box = raw.get("box")
    if not isinstance(box, int) or isinstance(box, bool) or box <= 0:
        out["fsrs"] = None
        return out
    days = LEITNER_INTERVAL_DAYS.get(min(box, max(LEITNER_INTERVAL_DAYS)), 1)
    try:
        due_date = dt.date.fromisoformat(str(raw.get("due")))
    except ValueError:
        due_date = _now().date()
    due = dt.datetime.combine(due_date, dt.time(0, 0)).astimezone(dt.timezone.utc)
    card = FsrsCard(state=State.Review, stability=float(days), difficulty=MIGRATED_DIFFICULTY, due=due,
                    last_review=due - dt.timedelta(days=days))
    out["fsrs"] = card.to_dict()
    return out


def migrate_leitner(drills: Any) -> dict[str, Any]:
    """The drills entry of a schema-1 progress file (Leitner boxes), as schema 2 keeps it (FSRS states)."""
    if not isinstance(drills, dict):
        return {"version": STATE_VERSION, "cards": {}}
    cards = drills.get("cards")
    cards = cards if isinstance(cards, dict) else {}
    return {"version": STATE_VERSION,
            "cards": {str(k): migrate_card(v) if isinstance(v, dict) and "box" in v else v for k, v in cards.items()}}


class Scheduler:
    """Spaced repetition over the progress file, read and written with ``ProgressStore.update()`` (locked, atomic).
    ``clock`` returns the current datetime (tests inject a fake one); ``fuzz`` spreads due dates a little, as FSRS
    recommends (tests turn it off)."""

    def __init__(self, store: Any = None, clock: Callable[[], dt.datetime] = _now, *, fuzz: bool = True) -> None:
        if store is None:
            from jittrainer.session.progress import ProgressStore

            store = ProgressStore()
        self.store = store
        self.clock = clock
        self.fsrs = FsrsScheduler(enable_fuzzing=fuzz, learning_steps=(STEP,), relearning_steps=(STEP,))

    def now(self) -> dt.datetime:
        return _aware(self.clock())

    def end_of_today(self) -> dt.datetime:
        now = self.now()
        return dt.datetime.combine(now.date(), dt.time.max, tzinfo=now.tzinfo)

    @staticmethod
    def _cards(progress: Any) -> dict[str, Any]:
        drills = progress.drills
        if drills.get("version") != STATE_VERSION:
            drills.update(migrate_leitner(drills))
        cards = drills.get("cards")
        if not isinstance(cards, dict):
            cards = drills["cards"] = {}
        return cards

    def states(self) -> dict[str, CardState]:
        drills = self.store.load().drills
        cards = drills.get("cards") if isinstance(drills, dict) else None
        if not isinstance(cards, dict):
            return {}
        return {str(k): CardState.from_dict(v) for k, v in cards.items()}

    def state(self, card_id: str) -> CardState:
        return self.states().get(card_id, CardState())

    def record(self, card_id: str, result: str) -> CardState:
        """One answer: right is Good, wrong or timeout Again (the card comes back soon). Persisted now."""
        if result not in RESULTS:
            raise ValueError(f"result must be one of {RESULTS}, got {result!r}")
        now = self.now()
        with self.store.update() as progress:
            cards = self._cards(progress)
            state = CardState.from_dict(cards.get(card_id))
            card = state.card() or FsrsCard()
            rating = Rating.Good if result == "right" else Rating.Again
            card, _log = self.fsrs.review_card(card, rating, now.astimezone(dt.timezone.utc))
            state.fsrs = card.to_dict()
            state.seen += 1
            state.last_result = result
            state.last_seen = now.isoformat(timespec="seconds")
            if result == "right":
                state.right += 1
            else:
                state.wrong += 1
            cards[card_id] = state.to_dict()
        return state

    def due_cards(self, cards: Iterable[Card], states: dict[str, CardState] | None = None) -> list[Card]:
        states = self.states() if states is None else states
        end = self.end_of_today()
        return [c for c in cards if states.get(c.id, CardState()).is_due(end)]

    def pick(
        self,
        cards: Sequence[Card],
        *,
        count: int | None = None,
        topic: str | None = None,
        due_only: bool = False,
        seed: int | None = None,
        prefer_topics: Sequence[str] = (),
    ) -> list[Card]:
        """The cards of one round: due reviews first (the longest overdue first), then new cards (those of
        ``prefer_topics``, the topics of exercises the learner has attempted, first), then, unless ``due_only``,
        cards not yet due, soonest first. Ties are shuffled (``seed`` makes it repeatable)."""
        rng = random.Random(seed)
        states = self.states()
        end = self.end_of_today()
        pool = [c for c in cards if c.available and (topic is None or c.topic == topic)]
        rng.shuffle(pool)
        due, new, later = [], [], []
        for card in pool:
            state = states.get(card.id, CardState())
            if state.is_new:
                new.append(card)
            elif state.is_due(end):
                due.append((state.due, card))
            else:
                later.append((state.due, card))
        preferred = set(prefer_topics)
        new.sort(key=lambda c: c.topic not in preferred)  # stable: the shuffle stays within each group
        due.sort(key=lambda t: t[0])
        later.sort(key=lambda t: t[0])
        ordered = [c for _d, c in due] + new
        if not due_only:
            ordered += [c for _d, c in later]
        return ordered[:count] if count is not None else ordered

    def summary_counts(self, cards: Sequence[Card]) -> dict[str, int]:
        """How many of ``cards`` are new, due by the end of today (seen before) and scheduled later."""
        states = self.states()
        end = self.end_of_today()
        out = {"new": 0, "due": 0, "later": 0}
        for card in cards:
            state = states.get(card.id, CardState())
            out["new" if state.is_new else "due" if state.is_due(end) else "later"] += 1
        return out
