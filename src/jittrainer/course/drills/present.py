"""A card as one presentation shows it: its choices in a shuffled order, drawn from the round's seed.

A card's choices have an identity, their place in the card's file (``answer = 2`` is the file's second choice, and
proofs and the choice-to-proof link work with that); a presentation only changes where each one is shown. The same
seed shows a card's choices in the same order again (``--seed`` repeats a round), and a round without a seed draws
one and records it, so every presentation can be told again. Pure Python.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from jittrainer.course.drills.model import AnswerError, Card
from jittrainer.i18n import language


def choice_order(card: Card, seed: int | str) -> tuple[int, ...]:
    """The file's choice numbers (1-based) in the order shown: a shuffle seeded by the round's seed and the card's
    id (a string seed hashes the same in every process)."""
    order = list(range(1, len(card.choices) + 1))
    random.Random(f"{seed}/{card.id}").shuffle(order)
    return tuple(order)


def new_seed() -> int:
    """A seed for a round that was given none: recorded with the round, so its order can be told again."""
    return random.SystemRandom().randrange(1, 10**6)


@dataclass(frozen=True)
class Shown:
    """A card and the order its choices are shown in (``order[i]`` is the file's number of shown choice i + 1)."""

    card: Card
    order: tuple[int, ...] = ()

    @classmethod
    def of(cls, card: Card, seed: int | str | None) -> Shown:
        if card.kind not in ("choice", "bug") or seed is None:
            return cls(card, tuple(range(1, len(card.choices) + 1)))
        return cls(card, choice_order(card, seed))

    def choices(self, lang: str | None = None) -> list[str]:
        """The choices in the order shown, in ``lang``."""
        text = self.card.text(lang or language()).choices
        return [text[n - 1] for n in self.order]

    def shown_number(self, file_number: int) -> int:
        return self.order.index(file_number) + 1

    @property
    def right_number(self) -> int | None:
        """The shown number of the right choice."""
        card = self.card
        if card.kind in ("choice", "bug") and isinstance(card.answer, int) and card.answer in self.order:
            return self.shown_number(card.answer)
        return None

    def parse(self, response: str) -> Any:
        """The learner's input as the card's answer type; a choice is the file's number of the choice picked."""
        value = self.card.parse(response)
        if self.card.kind in ("choice", "bug"):
            return self.order[value - 1]
        return value

    def is_correct(self, value: Any) -> bool:
        return self.card.is_correct(value)

    def answer_text(self, lang: str | None = None) -> str:
        """The right answer as shown: ``3) …`` with the shown number."""
        card = self.card
        number = self.right_number
        if number is not None:
            return f"{number}) {self.choices(lang)[number - 1]}"
        return card.answer_text(lang)

    def picked_number(self, response: str) -> int | None:
        """The shown number a response picked (None for input that is not a choice)."""
        try:
            return self.card.parse(response) if self.card.kind in ("choice", "bug") else None
        except AnswerError:
            return None
