"""The explain-why prompt: which answered card the candidate is asked to explain, and reading their own grade.

A real interviewer asks "why?" about an answer that could have been a guess: the hardest choice, spot-the-bug or
true/false card answered right (the latest among equals), else the hardest one missed. The candidate types an
explanation, reads the card's, and says whether theirs named the same mechanism (yes, partly, no).
"""

from __future__ import annotations

from collections.abc import Sequence

from jittrainer.course.drills.model import FALSE_WORDS, LEVELS, TRUE_WORDS
from jittrainer.course.drills.round import Outcome

GUESSABLE = ("choice", "bug", "truefalse")
PARTLY_WORDS = {"p", "partly", "partially", "部分", "一部分", "部分对"}


def explain_outcome(outcomes: Sequence[Outcome]) -> Outcome | None:
    rank = {level: i for i, level in enumerate(LEVELS)}
    right = [o for o in outcomes if o.correct and o.card.kind in GUESSABLE]
    pool = right or [o for o in outcomes if not o.correct] or list(outcomes)
    if not pool:
        return None
    return max(reversed(pool), key=lambda o: rank.get(o.card.level, 1))  # reversed: the latest wins a tie


def self_grade(text: str) -> str | None:
    """"y"/"p"/"n" (and their words, in either language) as a grade; None for anything else."""
    word = text.strip().lower()
    if word in TRUE_WORDS:
        return "yes"
    if word in PARTLY_WORDS:
        return "partly"
    if word in FALSE_WORDS:
        return "no"
    return None
