"""``jittrainer interview [--minutes M] [--topic T] [--seed N]``: a mock interview in the terminal.

The plan's parts in order, on one clock (``course.interview``): warm-up cards (answered as in ``jittrainer drill
--plain``), a coding exercise and its follow-up (the learner edits ``$JITTRAINER_HOME/interview/<id>.py`` in any
editor and presses enter to grade it), a debugging task (one program, its questions asked as cards), rapid
questions, and one answer explained in the learner's own words. Then the report. In a part, ``q`` skips the rest
of it; end of input or ctrl-c ends the interview, and what it did not reach is not counted. The interview's code
never touches the course drafts.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from typing import IO

from jittrainer.cli.argtypes import positive_float
from jittrainer.cli.drill import PRELUDE_NOTE, run_plain
from jittrainer.cli.exercises import session_for
from jittrainer.cli.interview_parts import Asker, coding_part, explain_part
from jittrainer.cli.style import EXIT_PASS, EXIT_USAGE, Style, save_progress, warn
from jittrainer.course.drills.loader import load_drills
from jittrainer.course.drills.model import Deck
from jittrainer.course.drills.render import not_applying_note
from jittrainer.course.drills.round import Outcome, RoundOptions, not_applying
from jittrainer.course.drills.schedule import Scheduler
from jittrainer.course.interview import (
    DEFAULT_MINUTES,
    ExerciseAttempt,
    ExplainAnswer,
    InterviewPlan,
    Part,
    Timeline,
    plan_interview,
    record,
    report_lines,
    save,
)
from jittrainer.course.versions import installed_jax
from jittrainer.grading.host.pool import WorkerPool
from jittrainer.grading.limits import device_counts
from jittrainer.i18n import _, cells, language, ljust, pgettext
from jittrainer.i18n.message import count, msgn
from jittrainer.session import Session
from jittrainer.units import duration


def add_interview_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--minutes", type=positive_float, default=None, metavar="M",
                   help=_("the interview's length; every part scales with it (default {n} minutes)").format(
                       n=int(DEFAULT_MINUTES)))
    p.add_argument("--topic", metavar="T", help=_("only this topic's cards and exercises"))
    p.add_argument("--seed", type=int, help=_("shuffle seed, to repeat an interview's questions"))


def cmd_interview(args: argparse.Namespace) -> int:
    session = session_for(args)
    deck = load_drills(session.course.root / "drills")
    scheduler = Scheduler(session.progress)
    try:
        plan = plan_interview(session.course, deck, scheduler, minutes=args.minutes, topic=args.topic, seed=args.seed)
    except KeyError as exc:
        warn(exc.args[0])
        return EXIT_USAGE
    if not plan.cards and not plan.exercises:
        print(_("Nothing to ask for this topic."))
        return EXIT_PASS
    note = not_applying_note(not_applying(deck), installed_jax())
    if note:
        warn(note)
    run_interview(session, deck, scheduler, plan, sys.stdin, sys.stdout)
    return EXIT_PASS


def plan_lines(plan: InterviewPlan, style: Style) -> list[str]:
    """The plan, as an interviewer would announce it: each part, its time, and what it asks."""
    lines = [style.bold(_("Mock interview: {time} in {parts} (seed {seed}).").format(
        time=duration(plan.budget_s), parts=msgn("interview.parts", "{n} part", "{n} parts", n=len(plan.parts)),
        seed=plan.seed))]
    width = max(cells(p.title) for p in plan.parts)
    times = [duration(p.budget_s) for p in plan.parts]
    time_width = max(cells(t) for t in times)
    for i, (part, spent) in enumerate(zip(plan.parts, times), 1):
        lines.append(f"  {i}. {ljust(part.title, width)}  {ljust(spent, time_width)}  {part_contents(part)}")
    lines.append(_("Planned for a prepared candidate: {time}.").format(time=duration(plan.expected_s)))
    if plan.expected_s < 0.9 * plan.budget_s:
        lines.append(_("The course holds less material than that for this topic: the interview ends sooner."))
    return lines


def part_contents(part: Part, lang: str | None = None) -> str:
    lang = lang or language()
    if part.kind == "cards":
        text = str(count("card", len(part.cards)))
        if part.card_seconds:
            text += " · " + _("{time} each at most").format(time=duration(part.card_seconds))
        return text
    if part.kind == "debugging":
        return str(msgn("interview.plan.debugging", "one program, {n} question about it",
                        "one program, {n} questions about it", n=len(part.cards)))
    if part.kind == "coding":
        names = []
        for ex in part.exercises:
            name = f"{ex.number:02d} {ex.title_in(lang)}"
            names.append(_("then the follow-up {exercise}").format(exercise=name) if ex.id in part.follows else name)
        return pgettext("list.separator", ", ").join(names)
    return _("one of your answers, explained in your own words")


class _Input:
    """The learner's input, remembering end of input (which ends the interview; ``q`` only ends a part)."""

    def __init__(self, inp: IO[str]) -> None:
        self.inp = inp
        self.eof = False

    def readline(self, *args) -> str:
        line = self.inp.readline(*args)
        if not line:
            self.eof = True
        return line

    def isatty(self) -> bool:
        return hasattr(self.inp, "isatty") and self.inp.isatty()


def run_interview(session: Session, deck: Deck, scheduler: Scheduler, plan: InterviewPlan, inp: IO[str],
                  out: IO[str], clock: Callable[[], float] = time.monotonic) -> list[str]:
    """Run the plan's parts in order within their times; record the interview; print and return the report."""
    style = Style(out)
    reader = _Input(inp)

    def say(text: str = "") -> None:
        out.write(text + "\n")
        out.flush()

    timeline = Timeline(plan, clock)
    pool = WorkerPool(spares=1, devices=device_counts(plan.exercises[0]) if plan.exercises else (4,))
    if plan.exercises:
        pool.start()  # the worker imports jax while the learner answers the warm-up
    for line in plan_lines(plan, style):
        say(line)
    say(_("Cards: answer with a choice's number, t or f, a number, or the exact output; ? if you don't know. "
          "q skips the rest of a part; end of input ends the interview."))
    say(_(PRELUDE_NOTE))
    outcomes: list[Outcome] = []
    attempts: list[ExerciseAttempt] = []
    explain: ExplainAnswer | None = None
    asker = Asker(session, reader, out, say, style, clock)
    try:
        for i, part in enumerate(plan.parts):
            if reader.eof or timeline.interview_left() <= 0:
                break
            timeline.begin(i)
            say()
            say(style.bold(_("── Part {n} of {total} · {part} · {planned} planned, {left} left ──").format(
                n=i + 1, total=len(plan.parts), part=part.title, planned=duration(part.budget_s),
                left=duration(timeline.left()))))
            ran_out = False
            if part.kind in ("cards", "debugging"):
                if part.task is not None:
                    say(_("A program from a code review: {task}. {questions}").format(
                        task=part.task.title(language()), questions=str(msgn(
                            "interview.debug.intro", "Answer {n} question about it.", "Answer {n} questions about it, "
                            "in order: how it behaves, why, and the fix.", n=len(part.cards)))))
                options = RoundOptions(count=len(part.cards), minutes=timeline.left() / 60, seed=plan.seed,
                                       card_seconds=part.card_seconds)
                summary = run_plain(deck, part.cards, options, scheduler, reader, out, clock, outcomes=outcomes,
                                    framed=False)
                ran_out = summary.ended_by == "budget"
            elif part.kind == "coding":
                ran_out = coding_part(asker, part, timeline, pool, attempts)
            else:
                explain = explain_part(asker, outcomes, plan.seed)
            timeline.end(ran_out=ran_out)
    except KeyboardInterrupt:
        say()
    finally:
        timeline.end()
        pool.shutdown()
    entry = record(plan, outcomes, attempts, timeline.times, explain)
    save_progress(save, scheduler.store, entry)
    lines = report_lines(entry, deck, session.course, commands=True)
    say()
    say(style.bold(_("── Report ──")))
    for line in lines:
        say(line)
    return lines
