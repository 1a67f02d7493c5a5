"""``jittrainer drill``: a round of interview drill cards, in the app or as plain text on stdin/stdout.

``add_drill_parser(sub, command)`` registers the command and its options on the CLI's parser.

No jax here, and no Textual unless the app is opened: cards are proved by ``jittrainer validate``, not here.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from jittrainer.cli.argtypes import positive_float, positive_int
from jittrainer.cli.style import show_notices
from jittrainer.course.drills.loader import default_root as default_drills_root
from jittrainer.course.drills.loader import load_drills
from jittrainer.course.drills.model import LEVELS, AnswerError, Card, Deck
from jittrainer.course.drills.present import Shown
from jittrainer.course.drills.render import (
    level_note,
    not_applying_note,
    outcome_headline,
    render_sections,
    summary_lines,
)
from jittrainer.course.drills.round import (
    DEFAULT_COUNT,
    DrillRound,
    Outcome,
    RoundOptions,
    Summary,
    not_applying,
    plan_round,
)
from jittrainer.course.versions import installed_jax
from jittrainer.course.drills.schedule import Scheduler
from jittrainer.i18n import N_, _, cells, flow, language, ljust, ngettext, pgettext, wrap
from jittrainer.units import duration

EXIT_OK, EXIT_USAGE, EXIT_INTERRUPTED = 0, 2, 130
QUIT_WORDS = {"q", ":q", "quit"}
DONT_KNOW = {"?", "skip", "pass"}
WIDTH = 100
PRELUDE_NOTE = N_("Every snippet runs with jax, jax.numpy as jnp and numpy as np imported, on 4 CPU devices.")


class DrillUsageError(Exception):
    """The command could not run: one line on stderr, exit 2."""


# ------------------------------------------------------------------------------------------------------ parser


def add_drill_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--topic", metavar="T", help=_("only cards of topic T (see --topics: trace_time, static, "
                                                  "recompiles, …)"))
    p.add_argument("--count", type=positive_int, default=DEFAULT_COUNT, metavar="N",
                   help=_("cards in the round (default {n})").format(n=DEFAULT_COUNT))
    p.add_argument("--minutes", type=positive_float, metavar="M",
                   help=_("time budget for the whole round (each card also has its own countdown)"))
    p.add_argument("--due", action="store_true", help=_("only cards due by the end of today (missed ones come back "
                                                        "sooner)"))
    p.add_argument("--plain", action="store_true",
                   help=_("ask in plain text on stdin, without the app (also used when stdin or stdout is not a "
                          "terminal)"))
    p.add_argument("--difficulty", choices=tuple(LEVELS), metavar="D",
                   help=_("only cards of this difficulty: easy, medium or hard (default: all)"))
    p.add_argument("--seed", type=int, help=_("shuffle seed, to repeat a round's order of cards and choices"))
    p.add_argument("--topics", action="store_true", help=_("list the topics with their card counts and what is due"))
    p.add_argument("--markdown", action="store_true",
                   help=_("print the cards as Markdown: the article's 'common misconceptions' and 'interview "
                          "questions'"))
    p.add_argument("--anki", metavar="FILE",
                   help=_("write the deck as an Anki package (.apkg) in the chosen language, and exit; needs the "
                          "anki extra (pip install 'jittrainer[anki]'); your schedule stays here"))
    p.add_argument("--drills", metavar="DIR", help=argparse.SUPPRESS)


def add_drill_parser(subparsers: Any, command: Callable[..., argparse.ArgumentParser]) -> argparse.ArgumentParser:
    """Register ``drill`` through the CLI's ``command(name, func, help)`` helper."""
    p = command("drill", cmd_drill, _("a round of interview drill cards: predict the output, count the compiles, "
                                      "spot the bug"))
    add_drill_options(p)
    return p


# ----------------------------------------------------------------------------------------------------- command


def _deck(args: argparse.Namespace) -> Deck:
    if getattr(args, "drills", None):
        root = Path(args.drills).expanduser()
    elif getattr(args, "exercises", None):
        root = Path(args.exercises).expanduser() / "drills"
    else:
        root = default_drills_root()
    deck = load_drills(root)
    if not deck.cards:
        raise DrillUsageError(deck.problems[0] if deck.problems else f"{root}: no drill cards there")
    return deck


def options_from(args: argparse.Namespace) -> RoundOptions:
    return RoundOptions(topic=args.topic, count=args.count, minutes=args.minutes, due_only=args.due, seed=args.seed,
                        difficulty=args.difficulty)


def cmd_drill(args: argparse.Namespace) -> int:
    try:
        return _cmd_drill(args)
    except DrillUsageError as exc:
        print(f"jittrainer: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("\njittrainer: " + _("interrupted"), file=sys.stderr)
        return EXIT_INTERRUPTED


def _cmd_drill(args: argparse.Namespace) -> int:
    deck = _deck(args)
    if args.markdown:
        sys.stdout.write(render_sections(deck))
        return EXIT_OK
    if args.anki:
        return export_anki(deck, Path(args.anki).expanduser(), args)
    scheduler = Scheduler()
    show_notices()
    if args.topics:
        print_topics(deck, scheduler, sys.stdout)
        return EXIT_OK
    options = options_from(args)
    try:
        cards = plan_round(deck, options, scheduler)
    except KeyError as exc:
        raise DrillUsageError(exc.args[0]) from None
    broken = [c for c in deck.cards if not c.available]
    for card in broken:
        print("jittrainer: " + _("skipping an unavailable card: {problem}").format(problem=card.problems[0]),
              file=sys.stderr)
    note = not_applying_note(not_applying(deck), installed_jax())
    if note:
        print("jittrainer: " + note, file=sys.stderr)
    if not cards:
        print(nothing_due_text(deck, scheduler, options))
        return EXIT_OK
    if args.plain or not (sys.stdin.isatty() and sys.stdout.isatty()):
        run_plain(deck, cards, options, scheduler, sys.stdin, sys.stdout)
        return EXIT_OK
    from jittrainer.app.drill import DrillApp

    DrillApp(deck=deck, cards=cards, options=options, scheduler=scheduler).run()
    return EXIT_OK


def export_anki(deck: Deck, path: Path, args: argparse.Namespace) -> int:
    from jittrainer.course.drills.anki import AnkiMissing, write_apkg

    cards = [c for c in deck.available if (args.topic is None or c.topic == args.topic)
             and (args.difficulty is None or c.level == args.difficulty)]
    if args.topic is not None and args.topic not in deck.topics:
        raise DrillUsageError(_("no topic called {topic!r} (known: {known})").format(
            topic=args.topic, known=", ".join(deck.topics)))
    try:
        written = write_apkg(deck, cards, path, language())
    except AnkiMissing as exc:
        raise DrillUsageError(str(exc)) from None
    except OSError as exc:
        raise DrillUsageError(_("could not write {path}: {reason}").format(path=path, reason=exc)) from None
    print(ngettext("Wrote {n} card to {path}.", "Wrote {n} cards to {path}.", written).format(n=written, path=path))
    print(_("Anki schedules these notes itself: your jittrainer schedule (FSRS state) is not exported, and an "
            "export of the same deck again updates the notes instead of adding new ones."))
    return EXIT_OK


def nothing_due_text(deck: Deck, scheduler: Scheduler, options: RoundOptions) -> str:
    cards = [c for c in deck.available if c.applies() and (options.topic is None or c.topic == options.topic)
             and (options.difficulty is None or c.level == options.difficulty)]
    if not cards:
        return _("No drill cards to ask.")
    states = scheduler.states()
    dates = sorted(s.due for c in cards if (s := states.get(c.id)) is not None and s.due is not None)
    nxt = (" " + _("The next card is due on {date}.").format(date=dates[0].date().isoformat())) if dates else ""
    return _("Nothing is due today.") + nxt + " " + _("Run `jittrainer drill` without --due to practise anyway.")


def print_topics(deck: Deck, scheduler: Scheduler, out: IO[str]) -> None:
    """One row per topic (its id is what --topic takes), with the exercises that teach it beneath."""
    width = max([len(t) for t in deck.topics] + [cells(_("topic"))])
    heads = [_("cards"), _("new"), _("due"), _("later")]
    sizes = [max(5, cells(h)) for h in heads]
    print(ljust(_("topic"), width) + "  " + "  ".join(" " * (n - cells(h)) + h for h, n in zip(heads, sizes))
          + "  " + _("title"), file=out)
    for topic_id in deck.topics:
        cards = [c for c in deck.available if c.topic == topic_id]
        counts = scheduler.summary_counts(cards)
        numbers = [len(cards), counts["new"], counts["due"], counts["later"]]
        print(f"{topic_id:<{width}}  " + "  ".join(f"{n:>{size}}" for n, size in zip(numbers, sizes))
              + f"  {deck.topic_title(topic_id)}", file=out)
        exercises = deck.practice.get(topic_id, [])
        if exercises:
            ids = pgettext("list.separator", ", ").join(exercises)
            print(" " * (width + 2) + _("exercises: {ids}").format(ids=ids), file=out)
    print(_("Difficulty: {levels} (--difficulty picks one)").format(levels=level_note(deck.available)), file=out)
    note = not_applying_note(not_applying(deck), installed_jax())
    if note:
        print(note, file=out)


# -------------------------------------------------------------------------------------------------- plain mode


def _wrap(text: str, indent: str = "  ") -> str:
    paragraphs = [p for p in text.strip().split("\n\n") if p.strip()]
    return "\n\n".join("\n".join(indent + line for line in wrap(flow(p), WIDTH - len(indent))) for p in paragraphs)


def render_card(shown: Shown | Card, deck: Deck, position: tuple[int, int], seconds: float, *,
                same_code: bool = False) -> str:
    """``same_code``: the card before it showed the same program, which is not printed again."""
    if isinstance(shown, Card):
        shown = Shown.of(shown, None)
    card = shown.card
    text = card.text(language())
    head = _("── Card {n}/{total} · {topic} · {label} · {level} · {time} ──").format(
        n=position[0], total=position[1], topic=deck.topic_title(card.topic), label=card.label,
        level=card.level_label, time=duration(seconds))
    lines = [head, _wrap(text.question, "")]
    if card.code and same_code:
        lines += ["", "    " + _("(the same program as above)")]
    elif card.code:
        lines += ["", textwrap.indent(card.code_in(language()).rstrip(), "    ")]
    if card.kind == "truefalse":
        lines += ["", "  t) " + _("True"), "  f) " + _("False")]
    for i, choice in enumerate(shown.choices(), 1):
        first, *rest = choice.splitlines()
        lines.append(("" if i > 1 else "\n") + f"  {i}) {first}")
        lines += [f"     {more}" for more in rest]
    return "\n".join(lines)


def render_outcome(outcome: Outcome) -> str:
    return f"{outcome_headline(outcome)}\n{_wrap(outcome.card.text(language()).explanation)}"


def run_plain(
    deck: Deck,
    cards: list[Card],
    options: RoundOptions,
    scheduler: Scheduler | None,
    inp: IO[str],
    out: IO[str],
    clock: Callable[[], float] = time.monotonic,
    outcomes: list[Outcome] | None = None,
    framed: bool = True,
) -> Summary:
    """Ask ``cards`` one by one on ``inp``/``out``. The countdown is checked when the answer arrives (a line read
    from a pipe cannot be interrupted): an answer after a card's time counts as a time-out. End of input, "q" or
    ctrl-c ends the round early; every answer is already in the schedule by then. ``framed``: the round's head line and
    summary (a mock interview says its own)."""

    def say(text: str = "") -> None:
        out.write(text + "\n")
        out.flush()

    drill = DrillRound(cards, scheduler=scheduler, budget_s=options.budget_s, clock=clock, seed=options.seed,
                       card_seconds=options.card_seconds)
    if framed:
        budget = (" · " + _("{time} in all").format(time=duration(options.budget_s))) if options.budget_s else ""
        head = ngettext("Drill round: {n} card", "Drill round: {n} cards", len(cards)).format(n=len(cards)) + budget
        say(_("{head}. Answer with a choice's number, t or f, a number, or the exact output; ? if you don't know, q "
              "to stop.").format(head=head))
        say(_(PRELUDE_NOTE))
    card = drill.start()
    shown_code = ""
    try:
        while card is not None:
            say()
            say(render_card(drill.current_shown, deck, drill.position, drill.seconds_for(card, drill.card_started_at),
                            same_code=bool(card.code) and card.code == shown_code))
            shown_code = card.code
            outcome = None
            while outcome is None:
                out.write(_("answer ({how})> ").format(how=card.prompt))
                out.flush()
                line = inp.readline()
                if not line:  # end of input
                    say()
                    drill.quit()
                    break
                text = line.rstrip("\n")
                if text.strip().lower() in QUIT_WORDS:
                    drill.quit()
                    break
                if not (hasattr(inp, "isatty") and inp.isatty()):
                    say(text)  # echo piped answers, so the transcript reads like a session
                try:
                    if text.strip().lower() in DONT_KNOW:
                        outcome = drill.answer_dont_know()
                    else:
                        outcome = drill.answer(text)
                except AnswerError as exc:
                    if drill.expired():
                        outcome = drill.time_out()
                    else:
                        say("  " + _("({problem})").format(problem=exc))
            if outcome is None:
                break
            say(render_outcome(outcome))
            card = drill.next()
    except KeyboardInterrupt:
        drill.quit()
        say()
    summary = drill.summary()
    if outcomes is not None:
        outcomes.extend(drill.outcomes)
    if framed:
        say()
        say(_("── Round over ──"))
        say("\n".join(summary_lines(summary, deck, scheduler, cards)))
    return summary
