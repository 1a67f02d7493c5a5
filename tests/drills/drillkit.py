"""Helpers for the drill tests: a small synthetic deck on disk and fake clocks (fixtures are in conftest.py)."""

from __future__ import annotations

import datetime as dt
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DRILLS = REPO / "exercises" / "drills"

TOPICS = """
format_version = 1

[topics.alpha]
title = "alpha topic"

[topics.beta]
title = "beta topic"
"""

# Four cards, one of each answer style; proofs are real and right (the verify tests run some of them).
CARDS = {
    "choice_one": """
        format_version = 1
        id = "choice_one"
        topic = "alpha"
        kind = "choice"
        question = "What does it print?"
        code = '''
        print(1 + 1)
        '''
        choices = ["1", "2", "3"]
        answer = 2
        explanation = "Two."

        [proof]
        observe = "stdout"
        """,
    "count_two": """
        format_version = 1
        id = "count_two"
        topic = "alpha"
        kind = "count"
        question = "How many lines?"
        code = '''
        print("a")
        print("b")
        '''
        answer = 2
        explanation = "Two prints."

        [proof]
        observe = "lines"
        """,
    "tf_false": """
        format_version = 1
        id = "tf_false"
        topic = "beta"
        kind = "truefalse"
        question = "One plus one is three."
        answer = false
        explanation = "It is two."

        [proof]
        code = "answer = 1 + 1 == 3"
        """,
    "text_hi": """
        format_version = 1
        id = "text_hi"
        topic = "beta"
        kind = "text"
        seconds = 30
        question = "Type the output."
        code = '''
        print("hi there")
        '''
        answer = "hi there"
        explanation = "It prints hi there."
        """,
}
CARDS["text_hi"] += "\n        [proof]\n        observe = \"stdout\"\n"


def write_deck(root: Path, cards: dict[str, str] | None = None, topics: str = TOPICS) -> Path:
    (root / "cards").mkdir(parents=True, exist_ok=True)
    (root.parent / "topics.toml").write_text(textwrap.dedent(topics), encoding="utf-8")  # the course's topics
    for name, text in (CARDS if cards is None else cards).items():
        (root / "cards" / f"{name}.toml").write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return root


class FakeClock:
    """Monotonic seconds that move only when told to."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class FakeDate:
    """Wall-clock datetimes for the scheduler that move only when told to."""

    def __init__(self, start: dt.datetime | None = None) -> None:
        self.now = start or dt.datetime(2026, 3, 2, 9, 0, tzinfo=dt.timezone.utc)

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += dt.timedelta(**delta)
