"""One drill card's schedule as the progress file keeps it (an FSRS state plus counts), and the migration of the
Leitner boxes older progress files kept. Read by the scheduler and by the progress store's schema migration, so it
depends on neither.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from dataclasses import dataclass
from typing import Any

from fsrs import Card as FsrsCard
from fsrs import State

STATE_VERSION = 2
LEITNER_INTERVAL_DAYS = {1: 1, 2: 3, 3: 7, 4: 14, 5: 30}
MIGRATED_DIFFICULTY = 5.0  # the middle of FSRS's 1..10 scale: a box says nothing about difficulty


def local_now() -> dt.datetime:
    return dt.datetime.now().astimezone()


def aware(value: dt.datetime) -> dt.datetime:
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
        return aware(card.due) if card is not None else None

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
        due_date = local_now().date()
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
