"""``jittrainer interview [--minutes M] [--topic T]``: a mock interview in the terminal.

Cards first (answered as in ``jittrainer drill --plain``), then one or two short exercises: the learner edits
``$JITTRAINER_HOME/interview/<id>.py`` in any editor and presses enter to grade it, as often as the clock allows.
Then a report: strengths, weak topics, what to practise next. The interview's code never touches the course drafts.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from collections.abc import Callable
from typing import IO

from jittrainer.cli.argtypes import positive_float
from jittrainer.cli.drill import run_plain
from jittrainer.cli.exercises import read_source, session_for
from jittrainer.cli.report import print_verdict
from jittrainer.cli.style import EXIT_PASS, EXIT_USAGE, Style, UsageError, save_progress, warn
from jittrainer.course.drills.loader import load_drills
from jittrainer.course.drills.model import Deck
from jittrainer.course.drills.render import not_applying_note
from jittrainer.course.drills.round import Outcome, RoundOptions, not_applying
from jittrainer.course.drills.schedule import Scheduler
from jittrainer.course.versions import installed_jax
from jittrainer.course.interview import (
    DEFAULT_MINUTES,
    ExerciseAttempt,
    InterviewPlan,
    draft_store,
    plan_interview,
    record,
    report_lines,
    save,
)
from jittrainer.grading.host.grading import Grading
from jittrainer.grading.host.pool import WorkerPool
from jittrainer.grading.host.run import Submission
from jittrainer.grading.limits import device_counts
from jittrainer.i18n import _
from jittrainer.session import Session
from jittrainer.units import duration


def add_interview_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--minutes", type=positive_float, default=DEFAULT_MINUTES, metavar="M",
                   help=_("the interview's length (default {n} minutes)").format(n=int(DEFAULT_MINUTES)))
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


def run_interview(session: Session, deck: Deck, scheduler: Scheduler, plan: InterviewPlan, inp: IO[str],
                  out: IO[str], clock: Callable[[], float] = time.monotonic) -> list[str]:
    """Ask the plan's cards, then its exercises, within the plan's time; record it; print and return the report."""
    style = Style(out)

    def say(text: str = "") -> None:
        out.write(text + "\n")
        out.flush()

    started = clock()
    pool = WorkerPool(spares=1, devices=device_counts(plan.exercises[0]) if plan.exercises else (4,))
    if plan.exercises:
        pool.start()  # the worker imports jax while the learner answers the cards
    say(style.bold(_("Mock interview: {cards} cards and {exercises} exercise(s), {time} in all.").format(
        cards=len(plan.cards), exercises=len(plan.exercises), time=duration(plan.budget_s))))
    outcomes: list[Outcome] = []
    attempts: list[ExerciseAttempt] = []
    try:
        if plan.cards:
            card_budget = max(plan.budget_s - len(plan.exercises) * 8 * 60, 60.0)
            options = RoundOptions(count=len(plan.cards), minutes=card_budget / 60, seed=plan.seed)
            run_plain(deck, plan.cards, options, scheduler, inp, out, clock, outcomes=outcomes)
        for ex in plan.exercises:
            left = plan.budget_s - (clock() - started)
            attempt = ExerciseAttempt(ex.id, ex.topic)
            attempts.append(attempt)
            if left <= 0:
                break
            _exercise(session, ex, attempt, pool, left, inp, out, say, style, clock)
    except KeyboardInterrupt:
        say()
    finally:
        pool.shutdown()
    entry = record(plan, outcomes, attempts)
    save_progress(save, scheduler.store, entry)
    lines = report_lines(entry, deck, session.course)
    say()
    say(style.bold(_("── Report ──")))
    for line in lines:
        say(line)
    return lines


def _exercise(session: Session, ex, attempt: ExerciseAttempt, pool: WorkerPool, left: float, inp: IO[str],
              out: IO[str], say: Callable[[str], None], style: Style, clock: Callable[[], float]) -> None:
    drafts = draft_store()
    drafts.lang = session.lang
    path = drafts.path(ex)
    drafts.reset(ex)  # every interview starts from the starter
    started = clock()
    say()
    say(style.bold(_("── Exercise: {number:02d} {title} ({time} left) ──").format(
        number=ex.number, title=session.title(ex), time=duration(left))))
    say(ex.statement(session.lang).rstrip())
    say()
    say(_("Write your fix in {path} (any editor), then press enter to grade it; s skips, q ends the interview.").format(
        path=style.path(path)))
    while clock() - started < left:
        say(_("grade ({time} left)> ").format(time=duration(left - (clock() - started))))
        line = inp.readline()
        if not line or line.strip().lower() in ("q", "quit"):
            raise KeyboardInterrupt
        if line.strip().lower() in ("s", "skip"):
            break
        try:
            source = read_source(path)
        except UsageError as exc:  # a FIFO or a folder in its place: said, and the interview goes on
            say(style.bad(str(exc)))
            continue
        submission = Submission(ex, source, path.resolve(), timing=False, lang=session.lang)
        verdict = Grading(submission, session.limits(ex), take_worker=pool.take).run()
        attempt.runs += 1
        attempt.status = verdict.status
        attempt.first_failure = verdict.first_failure.id if verdict.first_failure else None
        with contextlib.redirect_stdout(out):
            print_verdict(verdict, ex, path, style)
        if verdict.passed:
            break
    attempt.seconds = round(clock() - started, 1)
