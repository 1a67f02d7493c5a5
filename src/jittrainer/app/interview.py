"""The mock interview in the app (F10, or the palette): the plan's parts in order on one clock, then the report.

Card parts (the warm-up, the debugging task's questions, the rapid questions) are a ``DrillScreen`` pushed on top in
its interview mode (labelled with the part and its clock); its outcomes are read when it closes. The coding part
happens here: each exercise (and its follow-up) in an editor of its own (the interview's drafts, not the course's),
until it passes, is skipped or its time is up. The explain-why question is an ``ExplainScreen``. Skipping a part or
ending early asks first; the report counts nothing the interview did not reach. Grading goes through the app's
dispatcher (workers post messages; the handlers here change the widgets).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Markdown, Static

from jittrainer.app.keys import translate_bindings
from jittrainer.app.messages import GradeFailed, TimingReady, VerdictReady
from jittrainer.app.screens.confirm import ConfirmScreen
from jittrainer.app.widgets.editor import DraftEditor
from jittrainer.app.widgets.panes.checks import status_word
from jittrainer.course.drills.loader import load_drills
from jittrainer.course.drills.round import Outcome, RoundOptions
from jittrainer.course.drills.schedule import Scheduler
from jittrainer.course.interview import (
    ExerciseAttempt,
    ExplainAnswer,
    InterviewPlan,
    Timeline,
    draft_store,
    explain_outcome,
    next_words,
    plan_interview,
    record,
    report_lines,
    save,
)
from jittrainer.i18n import N_, _, language, pgettext
from jittrainer.i18n.message import count
from jittrainer.session import Session
from jittrainer.units import duration


class InterviewScreen(Screen[None]):
    BINDINGS = [
        Binding("ctrl+r", "grade", N_("Grade"), id="interview.grade"),
        Binding("ctrl+n", "skip", N_("Skip exercise"), id="interview.next",
                tooltip=N_("Skip this exercise (asks first); it counts as not tried")),
        Binding("f10", "finish", N_("End interview"), id="interview.end",
                tooltip=N_("End the interview now and see the report (asks first)")),
        Binding("f10,escape", "close", N_("Close"), id="interview.close", tooltip=N_("Close the report")),
    ]

    def __init__(self, session: Session, *, minutes: float | None = None, topic: str | None = None,
                 seed: int | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        translate_bindings(self)
        self.session = session
        self.deck = load_drills(session.course.root / "drills")
        self.scheduler = Scheduler(session.progress)
        self.plan: InterviewPlan = plan_interview(session.course, self.deck, self.scheduler, minutes=minutes,
                                                  topic=topic, seed=seed)
        self.clock = clock
        self.timeline = Timeline(self.plan, clock)
        self.drafts = draft_store()
        self.drafts.lang = session.lang
        self.outcomes: list[Outcome] = []
        self.attempts: list[ExerciseAttempt] = []
        self.explain: ExplainAnswer | None = None
        self.part_index = -1
        self.exercise_index = -1  # in the coding part: the exercise on screen
        self.exercise_started = 0.0
        self.ran_out = False  # the part under way ended at its time with something left
        self.run_id: int | None = None
        self.finished = False
        self.report_text = ""

    @property
    def part(self):
        return self.timeline.part

    @property
    def coding(self) -> bool:
        part = self.part
        return not self.finished and part is not None and part.kind == "coding" and \
            0 <= self.exercise_index < len(part.exercises)

    def compose(self) -> ComposeResult:
        with Vertical(id="interview-work"):
            yield Markdown("", id="interview-statement")
            yield DraftEditor.code_editor("", language="python", id="interview-editor")
            yield Static("", id="interview-verdict")
        with VerticalScroll(id="interview-report"):  # a long report scrolls (the keys, or the wheel)
            yield Markdown("", id="interview-report-text")
        yield Footer()

    def on_mount(self) -> None:
        from jittrainer.course.drills.render import not_applying_note
        from jittrainer.course.drills.round import not_applying
        from jittrainer.course.versions import installed_jax

        note = not_applying_note(not_applying(self.deck), installed_jax())
        if note:
            self.notify(note, timeout=6)
        self.query_one("#interview-report").display = False
        self.query_one("#interview-work").display = False
        self.timeline = Timeline(self.plan, self.clock)  # the clock starts when the interview shows
        self.set_interval(1.0, self._tick)
        self._next_part()

    # -- parts ---------------------------------------------------------------------------------------------------

    def _next_part(self) -> None:
        if self.finished:
            return
        if self.timeline.index is not None:
            self.timeline.end(ran_out=self.ran_out)
        self.part_index += 1
        self.ran_out = False
        if self.part_index >= len(self.plan.parts) or self.timeline.interview_left() <= 0:
            self.finish()
            return
        part = self.timeline.begin(self.part_index)
        self.refresh_bindings()
        if part.kind in ("cards", "debugging"):
            from jittrainer.app.drill import DrillScreen

            if part.task is not None:  # the card's title line has no room for it
                self.notify(_("A program from a code review: {task}.").format(task=part.task.title(language())),
                            timeout=8)
            drill = DrillScreen(self.deck, cards=part.cards, scheduler=self.scheduler, choose_difficulty=False,
                                options=RoundOptions(count=len(part.cards), minutes=self.timeline.left() / 60,
                                                     seed=self.plan.seed, card_seconds=part.card_seconds),
                                clock=self.clock, interview_left=self.timeline.left, interview_part=part.title,
                                interview_next=next_words(self._following()))
            self.app.push_screen(drill, lambda _summary: self._cards_done(drill))
        elif part.kind == "coding":
            self.query_one("#interview-work").display = True
            self.exercise_index = -1
            self._next_exercise()
        else:
            chosen = explain_outcome(self.outcomes)
            if chosen is None:
                self._next_part()
                return
            from jittrainer.app.interview_explain import ExplainScreen

            self.app.push_screen(ExplainScreen(chosen, self.plan.seed, self.timeline.left, self.clock),
                                 self._explained)

    def _cards_done(self, drill) -> None:
        if drill.round is not None:
            self.outcomes += drill.round.outcomes
            self.ran_out = drill.round.ended_by == "budget" or self.timeline.left() <= 0
        self._next_part()

    def _explained(self, answer: ExplainAnswer | None) -> None:
        self.explain = answer
        self.ran_out = self.timeline.left() <= 0
        self._next_part()

    def _next_exercise(self) -> None:
        """The coding part's next exercise, or the next part when none is left or its time is up."""
        self._save()
        part = self.part
        if self.attempts and 0 <= self.exercise_index < len(part.exercises):
            self.attempts[-1].seconds = round(self.clock() - self.exercise_started, 1)
        self.exercise_index += 1
        if self.exercise_index >= len(part.exercises) or self.timeline.exercise_left(self.exercise_index) <= 0:
            self.query_one("#interview-work").display = False
            self.exercise_index = -1
            self._next_part()
            return
        ex = part.exercises[self.exercise_index]
        pair = part.follows.get(ex.id)
        self.attempts.append(ExerciseAttempt.of(part, ex))
        self.exercise_started = self.clock()
        self.drafts.reset(ex)
        # a quote, not bold: ** next to Chinese punctuation is not emphasis in CommonMark (issue 37, item 11)
        head = ("> " + _("Follow-up: {note}").format(note=pair.note(language())) + "\n\n") if pair else ""
        self.query_one("#interview-statement", Markdown).update(head + ex.statement(self.session.lang))
        editor = self.query_one("#interview-editor", DraftEditor)
        editor.load_text(self.drafts.path(ex).read_text(encoding="utf-8"))
        editor.focus()
        self.query_one("#interview-verdict", Static).update(
            _("ctrl+r grades · ctrl+n skips this exercise · f10 ends the interview (both ask first)"))
        self.refresh_bindings()
        self._tick()

    def _tick(self) -> None:
        if not self.coding:
            return  # a card part's screen and the explain screen keep their own clock
        left = self.timeline.exercise_left(self.exercise_index)
        if left <= 0:
            self.ran_out = self.ran_out or self.attempts[-1].status != "pass"
            self.notify(_("The time for this exercise is up."), timeout=4)
            self.app.dispatcher.cancel()
            self._next_exercise()
            return
        part = self.part
        ex = part.exercises[self.exercise_index]
        label = _("follow-up") if ex.id in part.follows else _("exercise {n} of {total}").format(
            n=self.exercise_index + 1, total=len(part.exercises))
        self.query_one("#interview-editor", DraftEditor).border_title = _(
            "Interview · {part} · {which} · {time} left · {title}").format(
            part=part.title, which=label, title=self.session.title(ex), time=duration(left))

    def _save(self) -> None:
        if self.coding:
            ex = self.part.exercises[self.exercise_index]
            self.drafts.save(ex, self.query_one("#interview-editor", DraftEditor).text)

    # -- grading ---------------------------------------------------------------------------------------------------

    def action_grade(self) -> None:
        if not self.coding:
            return
        ex = self.part.exercises[self.exercise_index]
        self._save()
        dispatcher = self.app.dispatcher
        self.run_id = dispatcher.begin()
        self.query_one("#interview-verdict", Static).update(_("⟳ grading…"))
        self._grade(dispatcher, self.run_id, ex, self.drafts.path(ex).read_bytes(), self.drafts.path(ex))

    @work(thread=True, group="interview-grade", exit_on_error=False)
    def _grade(self, dispatcher, run_id, ex, source, path) -> None:
        dispatcher.grade(run_id, ex, source, path, self.session.limits(ex), self.session.lang, self.post_message)

    @on(VerdictReady)
    def _verdict(self, message: VerdictReady) -> None:
        if message.run_id != self.run_id or not self.coding:
            return
        attempt = self.attempts[-1]
        verdict = message.verdict
        attempt.graded(verdict.status, verdict.first_failure.id if verdict.first_failure else None)
        word = status_word(verdict.status)
        self.query_one("#interview-verdict", Static).update(f"{word}  {verdict.message}")
        if verdict.passed:
            self._next_exercise()

    @on(TimingReady)
    @on(GradeFailed)
    def _ignore(self) -> None:
        pass  # timing does not matter in an interview; a failed start shows as no verdict

    def action_skip(self) -> None:
        if not self.coding:
            return
        later = len(self.part.exercises) - self.exercise_index - 1
        then = _("The next exercise comes up.") if later else _(
            "It is the last one: the interview goes on with {next}.").format(next=next_words(self._following()))
        question = _("This exercise counts as not tried. {then}").format(then=then)
        self.app.push_screen(ConfirmScreen(_("Skip this exercise?"), question, yes=_("Skip")),
                             lambda yes: self._next_exercise() if yes and self.coding else None)

    def _following(self) -> str | None:
        at = self.part_index + 1
        return self.plan.parts[at].id if at < len(self.plan.parts) else None

    # -- the end ---------------------------------------------------------------------------------------------------

    def not_reached(self) -> tuple[int, int]:
        """Cards never answered and exercises never opened, so far (one on screen counts as opened)."""
        opened = {a.exercise for a in self.attempts}
        return (len(self.plan.cards) - len(self.outcomes),
                sum(ex.id not in opened for ex in self.plan.exercises))

    def action_finish(self) -> None:
        if self.finished:
            self.action_close()
            return
        cards, exercises = self.not_reached()
        left = ([str(count("card", cards))] if cards else []) + (
            [str(count("exercise", exercises))] if exercises else [])
        question = _("Not reached yet: {what}. The report does not count them.").format(
            what=pgettext("list.separator", ", ").join(left)) if left else _("The report comes next.")
        self.app.push_screen(ConfirmScreen(_("End the interview now?"), question, yes=_("End")),
                             lambda yes: self.finish() if yes else None)

    def action_close(self) -> None:
        if self.finished:
            self.dismiss(None)

    def finish(self) -> None:
        if self.finished:
            return
        self._save()
        if self.coding and self.attempts:
            self.attempts[-1].seconds = round(self.clock() - self.exercise_started, 1)
        self.timeline.end(ran_out=self.ran_out)
        self.finished = True
        self.app.dispatcher.cancel()
        entry = record(self.plan, self.outcomes, self.attempts, self.timeline.times, self.explain)
        try:
            save(self.scheduler.store, entry)
        except OSError as exc:
            self.notify(_("Could not record the interview in your progress: {reason}").format(reason=exc),
                        severity="error")
        lines = report_lines(entry, self.deck, self.session.course, commands=False)
        self.report_text = "# " + _("Interview report") + "\n\n" + markdown_lines(lines) + "\n\n*" + _(
            "f10 or escape closes") + "*"
        self.query_one("#interview-work").display = False
        self.query_one("#interview-report-text", Markdown).update(self.report_text)
        report = self.query_one("#interview-report", VerticalScroll)
        report.display = True
        report.focus()
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("grade", "skip"):
            return self.coding  # hidden outside the coding part, and on the report
        if action == "finish":
            return not self.finished
        if action == "close":
            return self.finished
        return True


_MARKDOWN_SPECIAL = str.maketrans({c: "\\" + c for c in "\\`*_[]<>#|"})


def markdown_lines(lines: list[str]) -> str:
    """The report's lines as Markdown: an indented line is an item of the list under the line before it; the
    words are the report's own (card titles hold underscores and brackets), so Markdown's marks are escaped."""
    out: list[str] = []
    for line in lines:
        text = line.strip().translate(_MARKDOWN_SPECIAL)
        if line.startswith("  "):
            out.append("- " + text)
        else:
            out.append(("\n" if out else "") + text + "\n")
    return "\n".join(out).replace("\n\n\n", "\n\n")
