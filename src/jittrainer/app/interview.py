"""The mock interview in the app (F10, or the palette): a drill round of cards, then one or two short exercises in
an editor of their own (the interview's drafts, not the course's), all on one clock, then the report.

The cards phase is a ``DrillScreen`` pushed on top, in its interview mode (labelled as the interview, with its
clock); its outcomes are read when it closes. Skipping cards, skipping an exercise or ending early asks first; the
report counts what was not reached. Grading goes through the app's dispatcher (workers post messages; the handlers
here change the widgets).
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
from jittrainer.app.screens.confirm import ConfirmScreen
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
from jittrainer.i18n import N_, _, ngettext
from jittrainer.session import Session
from jittrainer.units import duration


class InterviewScreen(Screen[None]):
    BINDINGS = [
        Binding("ctrl+r", "grade", N_("Grade"), id="interview.grade"),
        Binding("ctrl+n", "skip", N_("Skip exercise"), id="interview.next",
                tooltip=N_("Skip this exercise (asks first); it counts as not tried")),
        Binding("f10", "finish", N_("End interview"), id="interview.end",
                tooltip=N_("End the interview now and see the report (asks first)")),
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
                                                     seed=self.plan.seed),
                                interview_left=lambda: self.left)
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
        if self.finished or self.index < 0:  # the cards' screen keeps the clock while it is up
            return
        if self.left <= 0:
            self.finish()
            return
        editor = self.query_one("#interview-editor", DraftEditor)
        if 0 <= self.index < len(self.plan.exercises):
            ex = self.plan.exercises[self.index]
            editor.border_title = _("Interview · exercise {n} of {total} · {title} — {time} left").format(
                n=self.index + 1, total=len(self.plan.exercises), title=self.session.title(ex),
                time=duration(max(self.left, 0.0)))

    def _next_exercise(self) -> None:
        self._save()
        self.index += 1
        if self.index >= len(self.plan.exercises) or self.left <= 0:
            self.finish()
            return
        ex = self.plan.exercises[self.index]
        self.attempts.append(ExerciseAttempt(ex.id, ex.topic))
        self.drafts.reset(ex)
        self.query_one("#interview-statement", Markdown).update(ex.statement(self.session.lang))
        editor = self.query_one("#interview-editor", DraftEditor)
        editor.load_text(self.drafts.path(ex).read_text(encoding="utf-8"))
        editor.focus()
        self.query_one("#interview-verdict", Static).update(
            _("ctrl+r grades · ctrl+n skips this exercise · f10 ends the interview (both ask first)"))
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
        if self.finished or not 0 <= self.index < len(self.plan.exercises):
            return
        later = len(self.plan.exercises) - self.index - 1
        question = _("This exercise counts as not tried.") + " " + (
            _("The next exercise comes up.") if later else _("It is the last one: the report comes next."))
        self.app.push_screen(ConfirmScreen(_("Skip this exercise?"), question, yes=_("Skip")),
                             lambda yes: self._next_exercise() if yes and not self.finished else None)

    def not_reached(self) -> tuple[int, int]:
        """Cards never answered and exercises never opened, so far."""
        return len(self.plan.cards) - len(self.outcomes), len(self.plan.exercises) - len(self.attempts)

    def action_finish(self) -> None:
        if self.finished:
            self.dismiss(None)
            return
        cards, exercises = self.not_reached()
        exercises += 1 if 0 <= self.index < len(self.plan.exercises) and self.attempts[-1].runs == 0 else 0
        left = [ngettext("{n} card", "{n} cards", cards).format(n=cards)] if cards else []
        left += [ngettext("{n} exercise", "{n} exercises", exercises).format(n=exercises)] if exercises else []
        question = _("Not reached or not tried yet: {what}. They count as such in the report.").format(
            what=", ".join(left)) if left else _("The report comes next.")
        self.app.push_screen(ConfirmScreen(_("End the interview now?"), question, yes=_("End")),
                             lambda yes: self.finish() if yes else None)

    def finish(self) -> None:
        if self.finished:
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
        lines = self.report(entry)
        self.query_one("#interview-work").display = False
        report = self.query_one("#interview-report", Markdown)
        report.display = True
        report.update("# " + _("Interview report") + "\n\n" + "\n\n".join(lines) + "\n\n*" + _("f10 closes") + "*")
        report.focus()

    def report(self, entry) -> list[str]:
        """``report_lines``, with its head and its exercise lines said here: in plural forms, and with what the
        interview never reached (the cards left when it ended, the exercises never opened)."""
        lines = report_lines(entry, self.deck, self.session.course)
        right = sum(c["result"] == "right" for c in entry.cards) + sum(e["status"] == "pass" for e in entry.exercises)
        asked = len(entry.cards) + len(entry.exercises)
        head = _("Interview over: {right} of {asked} right ({cards}, {exercises}).").format(
            right=right, asked=asked,
            cards=ngettext("{n} card", "{n} cards", len(entry.cards)).format(n=len(entry.cards)),
            exercises=ngettext("{n} exercise", "{n} exercises", len(entry.exercises)).format(n=len(entry.exercises)))
        cards, exercises = self.not_reached()
        missed = [ngettext("{n} card", "{n} cards", cards).format(n=cards)] if cards else []
        missed += [ngettext("{n} exercise", "{n} exercises", exercises).format(n=exercises)] if exercises else []
        out = [head]
        if missed:
            out.append(_("Not reached before the end: {what}.").format(what=", ".join(missed)))
        attempts = iter(entry.exercises)
        for line in lines[1:]:
            attempt = next(attempts, None) if line.startswith("  ") else None
            if attempt is None:
                out.append(line)
                continue
            ex = self.session.course.get(attempt["exercise"])
            name = f"{ex.number:02d} {self.session.title(ex)}" if ex else attempt["exercise"]
            status = {"pass": _("passed"), "fail": _("failed"), "error": _("error"), "skipped": _("not tried")}[
                attempt["status"]]
            runs = ngettext("{n} run", "{n} runs", attempt["runs"]).format(n=attempt["runs"])
            out.append(f"  {name}: {status} ({runs})")
        return out
