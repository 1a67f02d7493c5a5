"""When each drill card comes back: the spaced-repetition schedule, kept in the progress file."""

from __future__ import annotations

import dataclasses
import datetime as dt
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from jittrainer.course.drills.model import Card

BOX_INTERVAL_DAYS = {1: 1, 2: 3, 3: 7, 4: 14, 5: 30}
TOP_BOX = max(BOX_INTERVAL_DAYS)
RESULTS = ("right", "wrong", "timeout")
STATE_VERSION = 1


def _now() -> dt.datetime:
    return dt.datetime.now().astimezone()


@dataclass
class CardState:
    box: int = 0  # 0: never drilled
    due: str | None = None  # ISO date; None: new, due now
    seen: int = 0
    right: int = 0
    wrong: int = 0
    last_result: str | None = None
    last_seen: str | None = None

    @property
    def is_new(self) -> bool:
        return self.seen == 0

    def due_date(self) -> dt.date | None:
        try:
            return dt.date.fromisoformat(self.due) if self.due else None
        except ValueError:
            return None

    def is_due(self, today: dt.date) -> bool:
        due = self.due_date()
        return due is None or due <= today

    @classmethod
    def from_dict(cls, raw: Any) -> CardState:
        """Tolerant: anything malformed in the file counts as a new card rather than breaking the round."""
        if not isinstance(raw, dict):
            return cls()
        state = cls()
        for f in dataclasses.fields(cls):
            value = raw.get(f.name)
            if f.name in ("box", "seen", "right", "wrong"):
                if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
                    setattr(state, f.name, value)
            elif isinstance(value, str):
                setattr(state, f.name, value)
        state.box = min(state.box, TOP_BOX)
        return state

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


class Scheduler:
    """Leitner spaced repetition over the progress file's ``"drills"`` entry:
    ``{"version": 1, "cards": {card_id: CardState}}``, read and written with ``ProgressStore.update()`` (locked,
    atomic). ``clock`` returns the current (aware or naive) datetime; tests inject a fake one."""

    def __init__(self, store: Any = None, clock: Callable[[], dt.datetime] = _now) -> None:
        if store is None:
            from jittrainer.session.progress import ProgressStore

            store = ProgressStore()
        self.store = store
        self.clock = clock

    def today(self) -> dt.date:
        return self.clock().date()

    @staticmethod
    def _cards(progress: Any) -> dict[str, Any]:
        drills = progress.drills
        drills.setdefault("version", STATE_VERSION)
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
        """One answer: right moves the card up a box, wrong or timeout back to box 1 (due today). Persisted now."""
        if result not in RESULTS:
            raise ValueError(f"result must be one of {RESULTS}, got {result!r}")
        now = self.clock()
        today = now.date()
        with self.store.update() as data:
            cards = self._cards(data)
            state = CardState.from_dict(cards.get(card_id))
            state.seen += 1
            state.last_result = result
            state.last_seen = now.isoformat(timespec="seconds")
            if result == "right":
                state.right += 1
                state.box = min(max(state.box, 0) + 1, TOP_BOX)
                state.due = (today + dt.timedelta(days=BOX_INTERVAL_DAYS[state.box])).isoformat()
            else:
                state.wrong += 1
                state.box = 1
                state.due = today.isoformat()
            cards[card_id] = state.to_dict()
        return state

    def due_cards(self, cards: Iterable[Card], states: dict[str, CardState] | None = None) -> list[Card]:
        states = self.states() if states is None else states
        today = self.today()
        return [c for c in cards if states.get(c.id, CardState()).is_due(today)]

    def pick(
        self,
        cards: Sequence[Card],
        *,
        count: int | None = None,
        topic: str | None = None,
        due_only: bool = False,
        seed: int | None = None,
    ) -> list[Card]:
        """The cards of one round: due reviews first (missed ones first), then new cards, then — unless
        ``due_only`` — cards not yet due, soonest first. Ties are shuffled (``seed`` makes it repeatable)."""
        rng = random.Random(seed)
        states = self.states()
        today = self.today()
        pool = [c for c in cards if c.available and (topic is None or c.topic == topic)]
        rng.shuffle(pool)
        due, new, later = [], [], []
        for card in pool:
            state = states.get(card.id, CardState())
            if state.is_new:
                new.append(card)
            elif state.is_due(today):
                due.append((state.box, state.due_date() or today, card))
            else:
                later.append((state.due_date() or today, state.box, card))
        due.sort(key=lambda t: (t[0], t[1]))
        later.sort(key=lambda t: (t[0], t[1]))
        ordered = [c for *_, c in due] + new
        if not due_only:
            ordered += [c for *_, c in later]
        return ordered[:count] if count is not None else ordered

    def summary_counts(self, cards: Sequence[Card]) -> dict[str, int]:
        """How many of ``cards`` are new, due today (seen before) and scheduled later."""
        states = self.states()
        today = self.today()
        out = {"new": 0, "due": 0, "later": 0}
        for card in cards:
            state = states.get(card.id, CardState())
            out["new" if state.is_new else "due" if state.is_due(today) else "later"] += 1
        return out


def migrate_leitner(drills: Any) -> dict[str, Any]:
    """The drills entry of a schema-1 progress file, as schema 2 keeps it."""
    return drills if isinstance(drills, dict) else {}
