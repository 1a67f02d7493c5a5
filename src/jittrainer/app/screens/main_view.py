"""How the main screen shows things: the lesson (task, hints, why), the verdict in the panel, the panel's titles and
the grading spinner. ``MainScreen`` extends this class (a Screen, so Textual sees its handlers and watchers)."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from jittrainer.app.screens.main_actions import Actions
from jittrainer.app.widgets.lesson import (comment_lines, fallback_note, hints_markdown, unavailable_markdown,
                                           why_markdown)
from jittrainer.app.widgets.panes.common import PaneContext
from jittrainer.app.widgets.panes.review import review_markdown
from jittrainer.course.exercises import Exercise
from jittrainer.grading.verdict import Verdict
from jittrainer.i18n import _
from jittrainer.i18n.message import render
from jittrainer.units import duration

if TYPE_CHECKING:
    from jittrainer.app.screens.grade_state import GradeState

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"


class View(Actions):
    def _show_lesson(self, ex: Exercise, *, keep_tab: bool = False) -> None:
        lang = self.session.lang
        self._titles(ex)
        if not ex.available:
            self.panel.show_markdown("task", unavailable_markdown(ex, self.session.title(ex)))
        else:
            try:
                note = "" if ex.translated("statement", lang) else fallback_note()
                self.panel.show_markdown("task", note + ex.statement(lang), scroll_home=not keep_tab)
            except OSError as exc:
                self.panel.show_markdown("task", f"# {ex.title}\n\n*{exc}*")
        self.show_hints(ex, newest_on_top=False)
        self.show_why(ex)
        if not keep_tab:
            self.panel.switch("task")

    def show_hints(self, ex: Exercise, newest_on_top: bool) -> None:
        try:
            hints = self.session.hints(ex) if ex.available else []
        except OSError:
            hints = []
        shown = min(self.entry(ex).highest_hint, len(hints))
        text = hints_markdown(hints, shown, self.key("hint"))
        if ex.available and not ex.translated("hints", self.session.lang):
            text = fallback_note() + text
        # A callable, not a coroutine: a worker cancelled before it starts leaves no coroutine never awaited.
        self.run_worker(partial(self.panel.show_hints, text, shown, len(hints), newest_on_top), group="hints",
                        exclusive=True)

    def show_why(self, ex: Exercise) -> None:
        entry = self.entry(ex)
        passed, revealed = self.statuses.get(ex.id) == "passed", entry.revealed
        explanation = solution = draft = None
        starter_comments: frozenset[str] = frozenset()
        if ex.available and (passed or revealed):
            try:
                explanation = ex.explanation(self.session.lang)
            except OSError as exc:
                explanation = f"*{exc}*"
            try:
                solution = ex.solution_file(self.session.lang).read_text(encoding="utf-8")
            except OSError as exc:
                solution = f"# {exc}"
            if passed:
                draft = self.keeper.current_text()
                starters = {ex.starter_path, ex.starter_file(self.session.lang)}
                starter_comments = comment_lines(*(p.read_text(encoding="utf-8") for p in starters if p.is_file()))
        state, verdict = self.grade_state, self.verdicts.get(ex.id)
        reviewing = state is not None and state.exercise_id == ex.id and state.phase == "review"
        review = review_markdown(verdict.review if verdict is not None and verdict.passed else None, reviewing)
        self.panel.show_markdown("why", why_markdown(explanation, solution, draft, self.key("hint"), review,
                                                     starter_comments))
        self.panel.set_why_locked(explanation is None and solution is None)

    def keep_verdict(self, run_id: int, exercise_id: str, verdict: Verdict) -> None:
        """A verdict of this session: on show from now on, and kept for the next one (with what it graded)."""
        self.verdicts[exercise_id] = verdict
        self.restored.pop(exercise_id, None)
        graded_run, text = self._graded
        if verdict.internal_error is None and graded_run == run_id:
            try:
                self.session.last_verdicts.save(exercise_id, verdict, text)
            except OSError:
                pass  # a convenience for the next session; the progress file has the attempt

    def restore_verdict(self, ex: Exercise) -> None:
        """An exercise opened with no verdict of this session shows the last one an earlier session gave."""
        if ex.id in self.verdicts or not ex.available:
            return
        last = self.session.last_verdicts.load(ex.id)
        if last is not None and last.verdict.exercise == ex.id:
            self.verdicts[ex.id] = last.verdict
            self.restored[ex.id] = last

    def restored_note(self, ex: Exercise) -> str:
        last = self.restored.get(ex.id)
        if last is None:
            return ""
        note = _("Your last verdict, given at {time} in an earlier session.").format(time=last.local_time())
        text = self.keeper.current_text()
        if text is not None and not last.graded(text):
            note += " " + _("Your draft has changed since: {key} grades it again.").format(key=self.key("run"))
        return note

    def pane_context(self, ex: Exercise, verdict: Verdict | None) -> PaneContext:
        nxt = self.session.next_exercise(ex)
        return PaneContext(
            run_key=self.key("run"), hint_key=self.key("hint"), advice_key=self.key("advice"),
            next_key=self.key("next-exercise"), aliases=getattr(self, "context_aliases", {}),
            locked_runs=self.session.advice_locked_hint(ex, verdict, self.entry(ex)) if verdict else 0,
            next_exercise=f"{nxt.number:02d} {self.session.title(nxt)}" if nxt is not None else "",
            limit_s=self.session.limits(ex).timeout_s, limit_from_manifest=bool(ex.timeout_s),
            restored=self.restored_note(ex),
        )

    def shown_verdict(self, ex: Exercise) -> Verdict | None:
        raw = self.verdicts.get(ex.id)
        return self.session.with_advice(ex, raw, self.entry(ex)) if raw is not None else None

    def show_verdict(self, ex: Exercise, scroll_home: bool = False) -> None:
        state = self.grade_state
        mine = state is not None and state.exercise_id == ex.id
        verdict = self.shown_verdict(ex)
        context = self.pane_context(ex, verdict)
        self.panel.show_verdict(verdict, context, running=mine and state.phase == "grading",
                                timing_pending=mine and state.phase == "timing", scroll_home=scroll_home)
        scratch = self.scratch_runs.get(ex.id)
        if scratch is not None:
            self.panel.show_scratch(scratch, context, scroll_home=scroll_home)
        self._panel_titles(verdict)

    def _panel_titles(self, verdict: Verdict | None) -> None:
        state = self.grade_state
        if state is not None and state.phase in ("grading", "scratch") and self.current is not None \
                and state.exercise_id == self.current.id:
            # the previous verdict's word would read as this run's
            self.panel.border_title = _("⟳ GRADING…") if state.phase == "grading" else _("▷ RUNNING YOUR PROGRAM…")
        elif verdict is None:
            self.panel.border_title = _("Task and verdict")
        elif verdict.passed:
            nxt = self.session.next_exercise(self.current) if self.current is not None else None
            self.panel.border_title = _("✔ PASSED") + ("  ·  " + _("next exercise: {key}").format(
                key=self.key("next-exercise")) if nxt is not None else "")
        else:
            first = verdict.first_failure
            word = _("✘ FAILED") if verdict.status == "fail" else _("⚠ ERROR")
            # the check's own words, not its id (prints_each_call), which is English in every language
            self.panel.border_title = f"{word} · {render(first.name)}" if first is not None else word
        self._idle_subtitle()

    def watch_grade_state(self, state: GradeState | None) -> None:
        if self._spin_timer is not None:
            self._spin_timer.resume() if state is not None else self._spin_timer.pause()
        if state is None or state.phase != "grading":
            self.panel.show_clock(None)
        if self.current is not None:
            self.show_verdict(self.current)

    def clock_text(self, state: GradeState) -> str:
        """'3.2 s of 40 s' once a worker has the job; before that, that it waits for one."""
        clock = self.app.dispatcher.clock(state.run_id)
        if clock is None or clock.elapsed_s is None:
            return _("waiting for a worker process (the clock starts when one takes the job)")
        return _("{elapsed} of {limit}").format(elapsed=_("{s:.1f} s").format(s=clock.elapsed_s),
                                                limit=duration(clock.limit_s))

    def _spin(self) -> None:
        state = self.grade_state
        if state is None:
            return
        self._spin_at = (self._spin_at + 1) % len(SPINNER)
        spinner = SPINNER[self._spin_at]
        if state.phase in ("grading", "scratch"):
            clock, word = self.clock_text(state), _("grading…") if state.phase == "grading" else _("running…")
            self.panel.border_subtitle = f"{spinner} {word} {clock}"
            mine = state.exercise_id == getattr(self.current, "id", None)
            self.panel.show_clock(f"{spinner} {clock}" if mine and state.phase == "grading" else None)
        else:
            word = _("measuring timing…") if state.phase == "timing" else _("reviewing…")
            self.panel.border_subtitle = f"{spinner} {word}"

    def _idle_subtitle(self) -> None:
        if self.grade_state is None:
            self.panel.border_subtitle = _("live grading on") if self.app.settings.live_grading else ""

    def mark_error(self, verdict: Verdict, *, move: bool) -> None:
        error = verdict.error
        if error is not None and error.line:
            self.editor.mark_error(error.line, error.col, move=move)
        else:
            self.editor.clear_error()

