"""Is a drill card complete in every edition? (``jittrainer validate`` for the shipped course.)"""

from __future__ import annotations

import re

from jittrainer.course.drills.model import LINE_COMMENT, Card, code_comments
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
        shown = code_comments(card.code) + code_comments(card.proof.code)  # the app shows the proof too (p)
        for comment in shown:
            if re.search("[A-Za-z]{2}", comment) and not LINE_COMMENT.match(comment) and comment not in text.comments:
                problems.append(f"{name}: {lang}.comments: the code's comment {comment!r} has no {lang} text "
                                f"(add it to [{lang}] comments)")
        for comment in text.comments:
            if comment not in shown:
                problems.append(f"{name}: {lang}.comments: {comment!r} is not a comment of the code")
    return problems
