"""The parts of ``jittrainer interview`` that are not cards: the coding exercises and the explain-why prompt."""

from __future__ import annotations

import contextlib
import textwrap
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, Any

from jittrainer.cli.drill import _wrap
from jittrainer.cli.exercises import read_source
from jittrainer.cli.report import print_verdict
from jittrainer.cli.style import Style, UsageError
from jittrainer.cli.terminal_markdown import join_soft_breaks
from jittrainer.course.drills.present import Shown
from jittrainer.course.drills.round import Outcome
from jittrainer.course.interview import (
    ExerciseAttempt,
    ExplainAnswer,
    Part,
    Timeline,
    draft_store,
    explain_outcome,
    self_grade,
)
from jittrainer.grading.host.grading import Grading
from jittrainer.grading.host.pool import WorkerPool
from jittrainer.grading.host.run import Submission
from jittrainer.grading.limits import device_counts
from jittrainer.i18n import _, language
from jittrainer.session import Session
from jittrainer.units import duration

SKIP_WORDS = {"s", "skip"}
QUIT_WORDS = {"q", "quit", ":q"}


@dataclass
class Asker:
    """What the parts share: the session, the learner's input and the terminal."""

    session: Session
    inp: Any  # readline(), and .eof once the input has ended
    out: IO[str]
    say: Callable[..., None]
    style: Style
    clock: Callable[[], float] = time.monotonic

    def ask(self, prompt: str) -> str | None:
        """One line from the learner (echoed when piped); None at the end of input."""
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            self.say()
            return None
        text = line.rstrip("\n")
        if not self.inp.isatty():
            self.say(text)
        return text


def coding_part(asker: Asker, part: Part, timeline: Timeline, pool: WorkerPool,
                attempts: list[ExerciseAttempt]) -> bool:
    """Each exercise in turn, until its share of the part's time is up; True when the time ran out with an
    exercise not passed. ``s`` skips an exercise, ``q`` the rest of the part."""
    ran_out = False
    for k, ex in enumerate(part.exercises):
        left = timeline.exercise_left(k)
        if left <= 0 or asker.inp.eof:
            break
        pair = part.follows.get(ex.id)
        attempt = ExerciseAttempt.of(part, ex)
        attempts.append(attempt)
        pool.want(device_counts(ex))
        outcome = _exercise(asker, ex, attempt, pool, left, pair.note(language()) if pair else "",
                            (k + 1, len(part.exercises)))
        if outcome == "quit":
            break
        ran_out = ran_out or outcome == "time"
    return ran_out


def _exercise(asker: Asker, ex, attempt: ExerciseAttempt, pool: WorkerPool, left: float, note: str,
              position: tuple[int, int]) -> str:
    """One exercise: "pass", "skip", "quit" (the rest of the part), "time" or "eof"."""
    say, style, clock, session = asker.say, asker.style, asker.clock, asker.session
    drafts = draft_store()
    drafts.lang = session.lang
    path = drafts.path(ex)
    drafts.reset(ex)  # every interview starts from the starter
    started = clock()
    say()
    name = f"{ex.number:02d} {session.title(ex)}"
    if note:
        say(style.bold(_("── Follow-up: {exercise} ({time}) ──").format(exercise=name, time=duration(left))))
        say(_wrap(note, ""))
        say()
    else:
        say(style.bold(_("── Exercise {n} of {total}: {exercise} ({time}) ──").format(
            n=position[0], total=position[1], exercise=name, time=duration(left))))
    say(join_soft_breaks(ex.statement(session.lang)).rstrip())
    say()
    say(_("Write your fix in {path} (any editor), then press enter to grade it; s skips this exercise, q the rest "
          "of the part.").format(path=style.path(path)))
    how = "time"
    try:
        while clock() - started < left:
            line = asker.ask(_("grade ({time} left)> ").format(time=duration(left - (clock() - started))))
            if line is None:
                how = "eof"
                break
            word = line.strip().lower()
            if word in QUIT_WORDS | SKIP_WORDS:
                how = "quit" if word in QUIT_WORDS else "skip"
                break
            try:
                source = read_source(path)
            except UsageError as exc:  # a FIFO or a folder in its place: said, and the interview goes on
                say(style.bad(str(exc)))
                continue
            submission = Submission(ex, source, path.resolve(), timing=False, lang=session.lang)
            verdict = Grading(submission, session.limits(ex), take_worker=pool.take).run()
            attempt.graded(verdict.status, verdict.first_failure.id if verdict.first_failure else None)
            with contextlib.redirect_stdout(asker.out):
                print_verdict(verdict, ex, path, style)
            if verdict.passed:
                how = "pass"
                break
    finally:
        attempt.seconds = round(clock() - started, 1)
    if how == "time":
        say(style.dim(_("The time for this exercise is up.")))
    return how


def explain_part(asker: Asker, outcomes: list[Outcome], seed: int | None) -> ExplainAnswer | None:
    """One answered card to explain in the learner's words; then the card's explanation, and their own grade."""
    say, style, clock = asker.say, asker.style, asker.clock
    chosen = explain_outcome(outcomes)
    if chosen is None:
        say(_("No card was answered, so there is nothing to explain."))
        return None
    card = chosen.card
    lang = language()
    started = clock()
    say(_("Explain why, as you would to the interviewer. The question was:"))
    say(_wrap(card.text(lang).question))
    if card.code:
        say()
        say(textwrap.indent(card.code_in(lang).rstrip(), "    "))
    say()
    say(_("The answer: {answer}").format(answer=(chosen.shown or Shown.of(card, seed)).answer_text(lang)))
    answer = ExplainAnswer(card.id, card.topic)
    text = asker.ask(_("Why? Say it in a sentence or two, on one line> "))
    if text is None:
        return answer
    answer.text = text.strip()
    say()
    say(style.bold(_("The card's explanation:")))
    say(_wrap(card.text(lang).explanation))
    say()
    while True:
        line = asker.ask(_("Did yours name the same mechanism? y yes · p partly · n no> "))
        if line is None:
            break
        grade = self_grade(line)
        if grade is not None:
            answer.grade = grade
            break
        say("  " + _("(answer y, p or n)"))
    answer.seconds = round(clock() - started, 1)
    return answer
