"""Is a drill card complete in every edition? (``jittrainer validate`` for the shipped course.)"""

from __future__ import annotations

from jittrainer.course.drills.model import Card
from jittrainer.course.translations import EDITIONS


def check_card_languages(card: Card) -> list[str]:
    problems = []
    for lang in EDITIONS:
        text = card.translations.get(lang)
        name = card.path.name
        if text is None:
            problems.append(f"{name}: [{lang}]: missing (every card ships in {lang} too)")
            continue
        for field in ("question", "explanation"):
            if not getattr(text, field):
                problems.append(f"{name}: {lang}.{field}: missing")
        if len(text.choices) != len(card.choices):
            problems.append(f"{name}: {lang}.choices: {len(text.choices)} choices, the card has {len(card.choices)}")
    return problems
