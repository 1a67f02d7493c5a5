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

import datetime as dt
import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from fsrs import Card as FsrsCard
from fsrs import Rating
from fsrs import Scheduler as FsrsScheduler

from jittrainer.course.drills.card_state import STATE_VERSION, CardState, aware, local_now, migrate_leitner
from jittrainer.course.drills.model import Card

RESULTS = ("right", "wrong", "timeout")
STEP = dt.timedelta(minutes=10)


class Scheduler:
    """Spaced repetition over the progress file, read and written with ``ProgressStore.update()`` (locked, atomic).
    ``clock`` returns the current datetime (tests inject a fake one); ``fuzz`` spreads due dates a little, as FSRS
    recommends (tests turn it off)."""

    def __init__(self, store: Any = None, clock: Callable[[], dt.datetime] = local_now, *, fuzz: bool = True) -> None:
        if store is None:
            from jittrainer.session.progress import ProgressStore

            store = ProgressStore()
        self.store = store
        self.clock = clock
        self.fsrs = FsrsScheduler(enable_fuzzing=fuzz, learning_steps=(STEP,), relearning_steps=(STEP,))

    def now(self) -> dt.datetime:
        return aware(self.clock())

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
