"""Drills in words: an answer's headline, when the card comes back, a round's summary, and the cards as the source
article's missing sections. Everything in the learner's language."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Sequence

from jittrainer.course.drills.model import Card, Deck
from jittrainer.course.drills.round import Outcome, Summary
from jittrainer.course.drills.schedule import CardState, Scheduler
from jittrainer.i18n import _, flow, language, ngettext, pgettext
from jittrainer.units import duration


def outcome_headline(outcome: Outcome) -> str:
    answer = outcome.shown.answer_text() if outcome.shown is not None else outcome.card.answer_text()
    if outcome.result == "right":
        return _("✓ Right ({time}).").format(time=duration(outcome.seconds))
    if outcome.result == "timeout":
        return _("⏱ Time's up: the answer is {answer}").format(answer=answer)
    return _("✗ Wrong: the answer is {answer}").format(answer=answer)


def comes_back(state: CardState | None, now: dt.datetime) -> str:
    """'This card comes back later today.' / '… on 2026-03-04.'"""
    if state is None or state.due is None:
        return ""
    due = state.due.astimezone(now.tzinfo) if now.tzinfo else state.due
    if due.date() <= now.date():
        return _("This card comes back later today.")
    return _("This card comes back on {date}.").format(date=due.date().isoformat())


_SENTENCE_END = re.compile(r"(?<=[。？！：])|(?<=[.?!:])\s")
TITLE_CELLS = 48


def card_title(card: Card, lang: str | None = None, cells: int = TITLE_CELLS) -> str:
    """A card as a list names it: the first sentence of its question in ``lang``, cut to ``cells`` terminal cells
    (its id is a file name, English in every language)."""
    from jittrainer.i18n import cells as width

    question = " ".join(card.text(lang or language()).question.replace("`", "").split())
    first = _SENTENCE_END.split(question, maxsplit=1)[0].strip() or card.id.replace("_", " ")
    if width(first) <= cells:
        return first
    out = ""
    for char in first:
        if width(out + char) > cells - 1:
            break
        out += char
    return out.rstrip(" ，,、：:") + "…"


def summary_lines(summary: Summary, deck: Deck, scheduler: Scheduler | None, cards: Sequence[Card],
                  exercise_name: Callable[[str], str] | None = None) -> list[str]:
    """The round summary in words: score and time, weak topics (with the exercises that teach them), schedule.
    ``exercise_name``: inside the app, where the learner opens an exercise from the list, not with a command; the
    exercises are named by it and the command-line lines (``--due``, ``--seed``) are left out."""
    how = {"budget": _(" (the round's time ran out)"), "quit": _(" (ended early)")}.get(summary.ended_by, "")
    parts = [_("Score {score} in {time}").format(score=summary.score_text, time=duration(summary.seconds)) + how]
    if summary.wrong or summary.timeouts:
        parts.append(_("{wrong} wrong, {timeouts} timed out").format(wrong=summary.wrong, timeouts=summary.timeouts))
    if summary.skipped:
        parts.append(_("{n} not reached").format(n=summary.skipped))
    lines = [" · ".join(parts)]
    if summary.weak_topics:
        weak = pgettext("list.separator", ", ").join(
            _("{topic} ({missed} of {asked} missed)").format(topic=deck.topic_title(t), missed=missed, asked=asked)
            for t, missed, asked in summary.weak_topics)
        lines.append(_("Weak topics: {topics}").format(topics=weak))
        exercises = [e for t, *_rest in summary.weak_topics for e in deck.practice.get(t, [])[:2]]
        if exercises and exercise_name is not None:
            names = pgettext("list.separator", ", ").join(exercise_name(e) for e in dict.fromkeys(exercises))
            lines.append(_("Practise with the exercises {names} (F2 opens the list).").format(names=names))
        elif exercises:
            commands = pgettext("list.separator", ", ").join(f"jittrainer show {e}" for e in dict.fromkeys(exercises))
            lines.append(_("Practise: {commands}").format(commands=commands))
    elif summary.asked:
        lines.append(_("No weak topics this round."))
    if scheduler is not None and summary.asked:
        counts = scheduler.summary_counts(cards)
        line = _("Schedule: {due} of these cards due again today, {later} later").format(due=counts["due"],
                                                                                         later=counts["later"])
        shell = exercise_name is None
        lines.append(line + (" · " + _("next: jittrainer drill --due") if counts["due"] and shell else ""))
    if summary.seed is not None and summary.asked and exercise_name is None:
        lines.append(_("Seed {seed}: --seed {seed} shuffles the cards and their choices the same way again").format(
            seed=summary.seed))
    return lines


def level_note(cards: Sequence[Card]) -> str:
    """How a round's cards spread over the levels: 'easy 3 · medium 4 · hard 3'."""
    from jittrainer.course.drills.model import LEVELS

    counts = {level: sum(c.level == level for c in cards) for level in LEVELS}
    return " · ".join(f"{_(word)} {counts[level]}" for level, word in LEVELS.items() if counts[level])


def not_applying_note(cards: Sequence[Card], jax_version: str) -> str:
    """'2 cards do not apply to your JAX 0.8.1 and are left out: a (jax >=0.9.1), b (jax <0.9).'"""
    if not cards:
        return ""
    names = pgettext("list.separator", ", ").join(f"{c.id} (jax {c.jax})" for c in cards)
    return ngettext("{n} card does not apply to your JAX {version} and is left out: {cards}",
                    "{n} cards do not apply to your JAX {version} and are left out: {cards}",
                    len(cards)).format(n=len(cards), version=jax_version or "?", cards=names)


def render_sections(deck: Deck, lang: str | None = None) -> str:
    """The seed article's two empty sections, filled from the proved cards: 常见误区 (common misconceptions)
    and 面试题 (interview questions), as Markdown, in ``lang``."""
    lang = lang or language()
    headings = {"misconception": "## 常见误区" if lang == "zh" else "## 常见误区 — Common misconceptions",
                "interview": "## 面试题" if lang == "zh" else "## 面试题 — Interview questions"}
    out = ["<!-- generated by `jittrainer drill --markdown` from exercises/drills/cards; do not edit -->", ""]
    for section in ("misconception", "interview"):
        out += [headings[section], ""]
        cards = [c for c in deck.available if c.section == section]
        for n, card in enumerate(cards, 1):
            text = card.text(lang)
            lead = _("True or false: ") if card.kind == "truefalse" else ""
            facts = [deck.topic_title(card.topic, lang), card.label, card.level_label]
            if card.jax:
                facts.append(f"jax {card.jax}")
            about = "（" + "；".join(facts) + "）" if lang == "zh" else "(" + "; ".join(facts) + ")"
            out.append(f"**{n}. {lead}{_md(text.question.strip())}** {_md(about)}")
            out.append("")
            if card.code:
                out += ["```python", card.code_in(lang).rstrip(), "```", ""]
            for i, choice in enumerate(text.choices, 1):
                out.append(f"{i}. {_md(choice)}")
            if text.choices:
                out.append("")
            answer = _("Answer:")
            out.append(f"*{answer}* {_md(card.answer_text(lang))}")
            out.append("")
            out.append(_md(flow(text.explanation)))
            out.append("")
    return "\n".join(out).rstrip() + "\n"


def _md(text: str) -> str:
    """Plain text for a Markdown paragraph: characters Markdown would read as markup are escaped."""
    text = " / ".join(line.strip() for line in text.splitlines() if line.strip())
    return re.sub(r"([\\`*_\[\]<>#|~])", r"\\\1", text)
