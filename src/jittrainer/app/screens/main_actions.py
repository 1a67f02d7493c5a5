"""What the main screen's keys and palette commands do: grading, moving between exercises, hints and advice,
reveal and reset, the editor's comforts, layout. ``MainScreen`` extends this class; it is a Screen itself so that
Textual registers its ``@on`` handlers."""

from __future__ import annotations

import os
import shlex
import subprocess

from textual import events, on, work
from textual.screen import Screen

from jittrainer.app.messages import ScratchReady
from jittrainer.app.screens.confirm import ConfirmScreen
from jittrainer.app.screens.goto_line import GotoLineScreen
from jittrainer.app.widgets.editor import DraftEditor
from jittrainer.app.widgets.findbar import FindBar
from jittrainer.i18n import _


class Actions(Screen):
    # ------------------------------------------------------------------------------------------ grading

    def action_run(self) -> None:
        self.start_grade()

    def action_scratch_run(self) -> None:
        """Run the draft as a program (its ``__main__`` block), ungraded: what it prints, traces, compiles and raises
        goes to the Output, Jaxpr and Recompiles tabs, marked. Replaces a grade in flight, as ctrl+r does."""
        job = self.begin_job("scratch")
        if job is None:
            return
        run_id, ex, text = job
        if self.panel.active not in ("output", "jaxpr", "recompiles"):
            self.panel.switch("output")
        self._scratch(self.app.dispatcher, run_id, ex, text.encode("utf-8"), self.keeper.draft.path)

    @work(thread=True, exclusive=False, group="grade", exit_on_error=False)
    def _scratch(self, dispatcher, run_id: int, ex, source: bytes, path) -> None:
        dispatcher.scratch(run_id, ex, source, path, self.session.limits(ex), self.session.lang, self.post_message)

    @on(ScratchReady)
    def _scratch_ready(self, message: ScratchReady) -> None:
        if not self._is_news(message.run_id):
            return
        self.scratch_runs[message.exercise_id] = message.result
        self.grade_state = None
        if self.current is None or self.current.id != message.exercise_id:
            return
        self.show_verdict(self.current, scroll_home=True)  # the last verdict, the scratch run over three of its tabs
        error = message.result.error
        if error is not None and error.line:
            self.editor.mark_error(error.line, error.col, move=False)

    def action_toggle_live(self) -> None:
        settings = self.app.settings
        settings.live_grading = not settings.live_grading
        self.app.save_setting("live_grading", settings.live_grading)
        self._idle_subtitle()
        if settings.live_grading:
            self.notify(_("Live grading on: your draft is graded half a second after you stop typing."), timeout=3)
        else:
            if self._live_timer is not None:
                self._live_timer.stop()
                self._live_timer = None
            self.notify(_("Live grading off: {key} grades.").format(key=self.key("run")), timeout=3)

    # ------------------------------------------------------------------------------------------ exercises

    def step(self, direction: int) -> None:
        if self.current is None:
            return
        nxt = self.session.next_exercise(self.current, direction)
        if nxt is None:
            self.notify(_("That was the last exercise.") if direction > 0 else _("This is the first exercise."),
                        timeout=3)
            return
        self.open_exercise(nxt.id)

    def action_next_exercise(self) -> None:
        self.step(+1)

    def action_previous_exercise(self) -> None:
        self.step(-1)

    # ------------------------------------------------------------------------------------------ hints, advice

    def action_hint(self) -> None:
        ex = self.current
        if ex is None or not ex.available:
            return
        hints = self.session.hints(ex)
        entry = self.entry(ex)
        if entry.highest_hint >= len(hints):
            self.notify(_("That was the last hint. The reference solution is in the command palette (ctrl+p)."),
                        timeout=4)
        else:
            try:
                self.session.take_hint(ex)
            except OSError as exc:
                self.notify(_("Could not record the hint in your progress: {reason}").format(reason=exc),
                            severity="error", timeout=6)
            self.reload_progress()
        self.show_hints(ex, newest_on_top=True)
        self.panel.switch("hints")
        self.show_verdict(ex)  # a hint tier may unlock the advice on screen

    def action_advice(self) -> None:
        ex = self.current
        if ex is None or not ex.available:
            return
        verdict = self.verdicts.get(ex.id)
        first = verdict.first_failure if verdict is not None else None
        if first is None or first.advice is None:
            self.notify(_("There is no advice to show: grade a failing draft first."), timeout=3)
            return
        try:
            self.session.request_advice(ex)
        except OSError as exc:
            self.notify(_("Could not record this in your progress: {reason}").format(reason=exc), severity="error")
        self.reload_progress()
        self.show_verdict(ex)
        self.panel.switch("checks")

    # ------------------------------------------------------------------------------------------ reveal, reset

    def action_reveal(self) -> None:
        ex = self.current
        if ex is None or not ex.available:
            return
        if self.session.may_reveal_freely(ex):
            self._reveal(ex)
            return
        question = _("You have not passed this exercise yet. Seeing the reference solution now is recorded in your "
                     "progress. Your draft stays as it is.\n\nReveal the solution?")
        self.app.push_screen(ConfirmScreen(_("Reveal the solution?"), question, yes=_("Reveal")),
                             lambda yes: self._reveal(ex) if yes else None)

    def _reveal(self, ex) -> None:
        try:
            self.session.reveal(ex)
        except OSError as exc:
            self.notify(_("Could not record the reveal in your progress: {reason}").format(reason=exc),
                        severity="error")
        self.reload_progress()
        if ex is self.current:
            self.show_why(ex)
            self.panel.switch("why")

    def action_reset(self) -> None:
        ex = self.current
        if ex is None or not ex.available or self.keeper.draft is None:
            return
        question = _("Put the starter code back in the editor? Your current draft is not lost: it is kept in the "
                     "backups folder, and the path is shown after the reset.")
        self.app.push_screen(ConfirmScreen(_("Reset this exercise?"), question, yes=_("Reset")),
                             lambda yes: self._reset(ex) if yes else None)

    def _reset(self, ex) -> None:
        draft = self.keeper.draft
        if ex is not self.current or draft is None:
            return
        self.keeper.save_now()
        try:
            kept = self.session.drafts.reset(ex)
            text = draft.load()
        except OSError as exc:
            self.notify(_("Could not reset the draft: {reason}. Nothing was changed.").format(reason=exc),
                        severity="error", timeout=8)
            return
        self.stop_grading()  # a grade in flight grades the code the reset replaced
        self.verdicts.pop(ex.id, None)  # and so does the verdict on screen: the starter is not graded yet
        self.restored.pop(ex.id, None)
        self.scratch_runs.pop(ex.id, None)  # a scratch run of the replaced code too
        self.editor.clear_error()
        self.editor.load_text(text)
        self.keeper.open(draft, text)
        self._live_baseline = text
        self.show_verdict(ex, scroll_home=True)
        where = (" " + _("Your previous draft is kept as {path}.").format(path=kept)) if kept else ""
        self.notify(_("The starter is back in the editor.") + where, title=_("Reset"), timeout=6)

    # ------------------------------------------------------------------------------------------ the editor

    def action_external_editor(self) -> None:
        draft = self.keeper.draft
        if draft is None or not self.keeper.save_now():
            return
        command = os.environ.get("VISUAL") or os.environ.get("EDITOR")
        if not command:
            self.notify(_("Set $VISUAL or $EDITOR to your editor (e.g. export EDITOR=vim) to edit the draft there."),
                        severity="warning", timeout=6)
            return
        try:
            with self.app.suspend():
                subprocess.run([*shlex.split(command), str(draft.path)], check=False)
        except Exception as exc:  # noqa: BLE001 - no terminal to hand over (headless), or no such editor
            self.notify(_("Could not open {editor}: {reason}").format(editor=command, reason=exc), severity="error",
                        timeout=6)
            return
        self.keeper.check_disk()
        self.editor.focus()

    @on(DraftEditor.FindRequested)
    def _find(self) -> None:
        self.query_one("#find", FindBar).open()

    @on(FindBar.FindNext)
    def _find_next(self, event: FindBar.FindNext) -> None:
        found = self.editor.find_next(event.needle)
        self.query_one("#find", FindBar).status("" if found else _("not found"))

    @on(FindBar.Closed)
    def _find_closed(self) -> None:
        self.editor.focus()

    @on(DraftEditor.GotoRequested)
    def _goto(self) -> None:
        editor = self.editor

        def go(line: int | None) -> None:
            if line is not None:
                editor.go_to(line)
            editor.focus()

        self.app.push_screen(GotoLineScreen(editor.document.line_count), go)
        self.app.key_hold.settle()  # the editor's claim on the keys typed after ctrl+g: the dialog has its own

    @on(DraftEditor.WrapToggled)
    def _wrap(self, event: DraftEditor.WrapToggled) -> None:
        self.app.settings.soft_wrap = event.soft_wrap
        self.app.save_setting("soft_wrap", event.soft_wrap)

    # ------------------------------------------------------------------------------------------ layout

    def action_cycle_pane(self, step: int) -> None:
        self.panel.cycle(step)

    def action_toggle_sidebar(self) -> None:
        hold = self.app.key_hold
        hold.hold(self.focused)  # keys typed right after F2 go to the list (or back to the editor)
        self.toggle_class("-sidebar-toggled")
        showing = self.has_class("-narrow") == self.has_class("-sidebar-toggled")
        if showing:
            self.sidebar.query_one("OptionList").focus()
        elif self.focused is None or self.sidebar in self.focused.ancestors_with_self:
            self.editor.focus()
        hold.release()

    def action_zoom(self) -> None:
        if self.maximized is not None:
            self.minimize()
            return
        focused = self.focused
        in_panel = focused is not None and self.panel in focused.ancestors_with_self
        self.maximize(self.panel if in_panel else self.editor, container=False)

    def action_scroll_panel(self, how: str) -> None:
        self.panel.scroll(how)

    def action_focus_editor(self) -> None:
        hold = self.app.key_hold
        hold.hold(self.focused)  # keys typed right after escape go to the editor
        if self.maximized is not None and self.maximized is not self.editor:
            self.minimize()
        self.editor.focus()
        hold.release()

    def type_into_editor(self, event: events.Key) -> bool:
        """A printable key the panel has no use for (escape moved the focus there, and a newcomer reads escape as
        "dismiss") goes back to the editor, typed: the focus moves first and the key follows it, in typing order
        (``KeyHold``). The panel's own keys (j, k, space) still scroll it. True when the key was taken."""
        focused = self.focused
        if not event.is_printable or focused is None or self.panel not in focused.ancestors_with_self:
            return False
        if any(event.key in chain.key_to_bindings for _, chain in self._modal_binding_chain):
            return False
        hold = self.app.key_hold
        hold.hold(focused)
        hold.take(event)
        self.action_focus_editor()
        return True

    def action_help(self) -> None:
        self.app.show_help()

    def action_drill(self) -> None:
        self.keeper.save_now()
        self.app.start_drill()

    def action_interview(self) -> None:
        self.keeper.save_now()
        self.app.start_interview()
