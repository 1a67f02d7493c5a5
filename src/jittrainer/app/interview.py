"""The mock interview in the app (F10, or the palette): a drill round of cards, then one or two short exercises in
an editor of their own (the interview's drafts, not the course's), all on one clock, then the report.

The cards phase is a ``DrillScreen`` pushed on top; its outcomes are read when it closes. Grading goes through the
app's dispatcher (workers post messages; the handlers here change the widgets).
"""

from __future__ import annotations

import time

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, Markdown, Static

from jittrainer.app.keys import translate_bindings
from jittrainer.app.messages import GradeFailed, TimingReady, VerdictReady
from jittrainer.app.widgets.editor import DraftEditor
from jittrainer.course.drills.loader import load_drills
from jittrainer.course.drills.round import Outcome, RoundOptions
from jittrainer.course.drills.schedule import Scheduler
from jittrainer.course.interview import (
    EXERCISE_MINUTES,
    ExerciseAttempt,
    InterviewPlan,
    draft_store,
    plan_interview,
    record,
    report_lines,
    save,
)
from jittrainer.i18n import N_, _
from jittrainer.session import Session
from jittrainer.units import duration


class InterviewScreen(Screen[None]):
    BINDINGS = [
        Binding("ctrl+r", "grade", N_("Grade"), id="interview.grade"),
        Binding("ctrl+n", "skip", N_("Next"), id="interview.next"),
        Binding("f10", "finish", N_("End"), id="interview.end"),
    ]

    def __init__(self, session: Session, *, minutes: float = 20.0, topic: str | None = None,
                 seed: int | None = None) -> None:
        super().__init__()
        translate_bindings(self)
        self.session = session
        self.deck = load_drills(session.course.root / "drills")
        self.scheduler = Scheduler(session.progress)
        self.plan: InterviewPlan = plan_interview(session.course, self.deck, self.scheduler, minutes=minutes,
                                                  topic=topic, seed=seed)
        self.drafts = draft_store()
        self.drafts.lang = session.lang
        self.outcomes: list[Outcome] = []
        self.attempts: list[ExerciseAttempt] = []
        self.started = time.monotonic()
        self.index = -1  # the exercise on screen
        self.run_id: int | None = None
        self.finished = False

    def compose(self) -> ComposeResult:
        with Vertical(id="interview-work"):
            yield Markdown("", id="interview-statement")
            yield DraftEditor.code_editor("", language="python", id="interview-editor")
            yield Static("", id="interview-verdict")
        yield Markdown("", id="interview-report")
        yield Footer()

    def on_mount(self) -> None:
        from jittrainer.course.drills.render import not_applying_note
        from jittrainer.course.drills.round import not_applying
        from jittrainer.course.versions import installed_jax

        note = not_applying_note(not_applying(self.deck), installed_jax())
        if note:
            self.notify(note, timeout=6)
        self.query_one("#interview-report").display = False
        self.set_interval(1.0, self._tick)
        if self.plan.cards:
            from jittrainer.app.drill import DrillScreen

            card_minutes = max(self.plan.minutes - len(self.plan.exercises) * EXERCISE_MINUTES, 1.0)
            drill = DrillScreen(self.deck, cards=self.plan.cards, scheduler=self.scheduler, choose_difficulty=False,
                                options=RoundOptions(count=len(self.plan.cards), minutes=card_minutes,
                                                     seed=self.plan.seed))
            self.app.push_screen(drill, lambda _summary: self._cards_done(drill))
        else:
            self._next_exercise()

    def _cards_done(self, drill) -> None:
        if drill.round is not None:
            self.outcomes = list(drill.round.outcomes)
        self._next_exercise()

    @property
    def left(self) -> float:
        return self.plan.budget_s - (time.monotonic() - self.started)

    def _tick(self) -> None:
        if self.finished:
            return
        if self.left <= 0:
            self.action_finish()
            return
        editor = self.query_one("#interview-editor", DraftEditor)
        if 0 <= self.index < len(self.plan.exercises):
            ex = self.plan.exercises[self.index]
            editor.border_title = _("{title} — {time} left").format(title=self.session.title(ex),
                                                                   time=duration(self.left))

    def _next_exercise(self) -> None:
        self._save()
        self.index += 1
        if self.index >= len(self.plan.exercises) or self.left <= 0:
            self.action_finish()
            return
        ex = self.plan.exercises[self.index]
        self.attempts.append(ExerciseAttempt(ex.id, ex.topic))
        self.drafts.reset(ex)
        self.query_one("#interview-statement", Markdown).update(ex.statement(self.session.lang))
        editor = self.query_one("#interview-editor", DraftEditor)
        editor.load_text(self.drafts.path(ex).read_text(encoding="utf-8"))
        editor.focus()
        self.query_one("#interview-verdict", Static).update(_("ctrl+r grades · ctrl+n next · f10 ends the interview"))
        self._tick()

    def _save(self) -> None:
        if 0 <= self.index < len(self.plan.exercises):
            ex = self.plan.exercises[self.index]
            self.drafts.save(ex, self.query_one("#interview-editor", DraftEditor).text)

    def action_grade(self) -> None:
        if self.finished or not 0 <= self.index < len(self.plan.exercises):
            return
        ex = self.plan.exercises[self.index]
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
        if message.run_id != self.run_id or self.finished:
            return
        attempt = self.attempts[-1]
        verdict = message.verdict
        attempt.runs += 1
        attempt.status = verdict.status
        attempt.first_failure = verdict.first_failure.id if verdict.first_failure else None
        word = {"pass": _("✔ PASSED"), "fail": _("✘ FAILED"), "error": _("⚠ ERROR")}[verdict.status]
        self.query_one("#interview-verdict", Static).update(f"{word}  {verdict.message}")
        if verdict.passed:
            self._next_exercise()

    @on(TimingReady)
    @on(GradeFailed)
    def _ignore(self) -> None:
        pass  # timing does not matter in an interview; a failed start shows as no verdict

    def action_skip(self) -> None:
        if not self.finished:
            self._next_exercise()

    def action_finish(self) -> None:
        if self.finished:
            self.dismiss(None)
            return
        self._save()
        self.finished = True
        self.app.dispatcher.cancel()
        entry = record(self.plan, self.outcomes, self.attempts)
        try:
            save(self.scheduler.store, entry)
        except OSError as exc:
            self.notify(_("Could not record the interview in your progress: {reason}").format(reason=exc),
                        severity="error")
        lines = report_lines(entry, self.deck, self.session.course)
        self.query_one("#interview-work").display = False
        report = self.query_one("#interview-report", Markdown)
        report.display = True
        report.update("# " + _("Interview report") + "\n\n" + "\n\n".join(lines) + "\n\n*" + _("f10 closes") + "*")
        report.focus()
