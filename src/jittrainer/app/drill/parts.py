"""What the drill screen shows, as Rich text: the choices (in the round's shuffled order), the proof's words.

Pure rendering, no widgets: the screen puts these into its ``Static``s.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text

from jittrainer.course.drills.model import LEVELS, Card, Deck
from jittrainer.course.drills.present import Shown
from jittrainer.course.drills.render import card_title, summary_lines
from jittrainer.course.drills.round import DrillRound, Summary
from jittrainer.course.drills.schedule import Scheduler
from jittrainer.i18n import _, language
from jittrainer.units import duration

DIFFICULTIES = (None, *LEVELS)  # what the difficulty key cycles through: all levels, then each one


def choices_text(shown: Shown, response: str | None = None, answered: bool = False) -> Text | None:
    """The choices as shown (``1) …``), or t/f for a true/false card; after answering, the right one in green and
    the learner's pick in red. None for a typed card."""
    card = shown.card
    if card.kind in ("choice", "bug"):
        options = [(str(i), choice, shown.order[i - 1]) for i, choice in enumerate(shown.choices(language()), 1)]
    elif card.kind == "truefalse":
        options = [("t", _("True"), True), ("f", _("False"), False)]
    else:
        return None
    picked = None
    if answered and response:
        try:
            picked = shown.parse(response)
        except ValueError:
            picked = None
    text = Text()
    for i, (key, label, value) in enumerate(options):
        style, mark = "", "  "
        if answered:
            if value == card.answer and type(value) is type(card.answer):
                style, mark = "bold green", "✓ "
            elif picked is not None and value == picked and type(value) is type(picked):
                style, mark = "bold red", "✗ "
            else:
                style = "dim"
        if i:
            text.append("\n")
        text.append(f"{mark}{key}) ", style=style or "bold")
        text.append(label, style=style)
    return text


def difficulty_word(level: str | None) -> str:
    return _("all levels") if level is None else _(LEVELS[level])


def next_difficulty(level: str | None) -> str | None:
    return DIFFICULTIES[(DIFFICULTIES.index(level) + 1) % len(DIFFICULTIES)]


def proof_words(card: Card) -> str:
    expected = card.expected_observation()
    observe = card.proof.observe
    if observe == "raises":
        return _("the exception {name}").format(name=expected)
    if observe == "traces":
        return _("{n} traces of {function}").format(n=expected, function=card.proof.function)
    if observe == "compiles":
        return _("{n} compiles of {function}").format(n=expected, function=card.proof.function)
    if observe == "lines":
        return _("{n} printed lines").format(n=expected)
    if observe == "stdout":
        return _("exactly this output: {text}").format(text=repr(expected))
    return f"answer = {expected!r}"


def card_name(card: Card) -> str:
    """A short name for a card in lists: the start of its question, in the learner's language."""
    return card_title(card)


def summary_text(drill: DrillRound, summary: Summary | None, deck: Deck, scheduler: Scheduler | None,
                 nothing_reason: str, exercise_name: Callable[[str], str] | None = None) -> Text:
    """The round's summary: the scores, the cards missed, the keys; or why there was nothing to drill."""
    text = Text()
    if not drill.cards:
        text.append(_("Nothing to drill.") + "\n\n", style="bold")
        text.append(nothing_reason)
    else:
        text.append(_("Round over") + "\n\n", style="bold")
        lines = summary_lines(summary, deck, scheduler, drill.cards, exercise_name)
        text.append(lines[0] + "\n", style="bold")
        for line in lines[1:]:
            text.append(line + "\n")
        missed = [o for o in drill.outcomes if not o.correct]
        if missed:
            text.append("\n" + _("Missed:") + "\n", style="bold")
            for o in missed:
                mark = "⏱" if o.result == "timeout" else "✗"
                text.append(f"  {mark} {deck.topic_title(o.card.topic)}: ", style="red")
                text.append(f"{o.card.label}: {card_name(o.card)}\n")
    keys = _("enter or escape: close · r: another round · d: a round of the next difficulty")
    text.append("\n" + keys, style="dim")
    return text


def title_text(card: Card, deck: Deck, n: int, total: int, *, interview_left: float | None = None,
               interview_part: str = "") -> Text:
    """The card's title line: "Drill · card 2/10 · topic · label · level"; in a mock interview, "Interview", the
    part and its time left instead of "Drill"."""
    position = "· " + _("card {n}/{total}").format(n=n, total=total) + " · "
    if interview_left is not None:
        left = _("{time} left").format(time=duration(max(interview_left, 0.0)))
        part = (interview_part + " ") if interview_part else ""
        head = Text.assemble((" " + _("Interview") + " ", "bold reverse"), " ", part, position, (left, "bold"), " · ")
    else:
        head = Text.assemble((_("Drill") + " ", "bold"), position)
    return Text.assemble(head, (deck.topic_title(card.topic), "bold"), f" · {card.label} · ",
                         (card.level_label, "bold" if card.level == "hard" else ""))
