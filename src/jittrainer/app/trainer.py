"""The jittrainer app: owns the session's state and turns the engine's verdicts into what the screen shows.

Rules it keeps: it never grades and never imports jax (the engine's worker processes do both); grading threads only
post messages (messages.py) and the ``@on`` handlers here change widgets; the draft on disk is never more than a
fraction of a second behind the editor, and never silently overwritten.
"""

from __future__ import annotations

import os
import time
from functools import partial
from itertools import cycle
from pathlib import Path

from textual import on
from textual.app import App
from textual.binding import Binding
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import OptionList, TextArea

from jittrainer.app.commands import TrainerCommands
from jittrainer.app.draftfile import DraftFile
from jittrainer.app.grading import Grader
from jittrainer.app.messages import GradeFailed, TimingReady, VerdictReady
from jittrainer.app.screens.confirm import ConfirmScreen
from jittrainer.app.screens.help import HelpScreen
from jittrainer.app.screens.main import MainScreen
from jittrainer.app.settings import DEFAULT_THEME, LIGHT_THEME, load_settings, save_setting
from jittrainer.app.widgets.editor import DraftEditor
from jittrainer.app.widgets.lesson import Lesson, unavailable_markdown
from jittrainer.app.widgets.sidebar import ExerciseList
from jittrainer.app.widgets.verdict import VerdictPanel
from jittrainer.core import paths
from jittrainer.core.exercises import Exercise, load_exercises
from jittrainer.core.store import Drafts, ProgressStore
from jittrainer.core.verdict import Verdict

EXIT_WHEN_READY = "JITTRAINER_EXIT_WHEN_READY"
READY_FILE = "JITTRAINER_READY_FILE"  # where `jittrainer bench` reads the first-frame time and memory
SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
# Actions that act on the exercise on the main screen; hidden and inert while a dialog is open.
MAIN_ONLY = {
    "run", "next_exercise", "previous_exercise", "hint", "reset", "reveal", "toggle_sidebar", "zoom", "drill", "cycle_pane",
    "toggle_live",
}


class TrainerApp(App[int], inherit_bindings=False):
    CSS_PATH = "app.tcss"
    TITLE = "jittrainer"
    COMMANDS = App.COMMANDS | {TrainerCommands}
    BINDINGS = [
        Binding("ctrl+r", "run", "Run", tooltip="Grade the editor's text in a worker process (restarts a run "
                "in flight)", id="run"),
        Binding("ctrl+n,alt+right", "next_exercise", "Next", tooltip="Open the next exercise", id="next-exercise"),
        Binding("ctrl+b,alt+left", "previous_exercise", "Prev", tooltip="Open the previous exercise "
                "(alt+left inside tmux, where ctrl+b is the prefix)", id="previous-exercise"),
        Binding("ctrl+t", "hint", "Hint", tooltip="Show the next hint tier (recorded in your progress)", id="hint"),
        Binding("ctrl+l", "toggle_live", "Live", tooltip="Toggle live grading: grade again when you stop typing",
                id="live-grading"),
        Binding("f1", "help", "Help", tooltip="Every key, the panes, how grading works", id="help"),
        Binding("f2", "toggle_sidebar", "Exercises", tooltip="Show or hide the exercise list", id="exercises"),
        Binding("f4", "drill", "Drill", tooltip="A round of interview drill cards: predict the output, count the "
                "compiles (proved on your JAX)", id="drill"),
        # Function keys: alt+digit arrives as a typed character in some terminals, and the editor has focus.
        Binding("f3", "cycle_pane(1)", "Panes", tooltip="Show the next verdict pane: Checks, Output, Jaxpr, "
                "Timing, Recompiles", id="next-pane"),
        Binding("shift+f3", "cycle_pane(-1)", "Prev pane", show=False, tooltip="Show the previous verdict pane",
                id="previous-pane"),
        Binding("f8", "zoom", "Zoom", tooltip="Fill the screen with the focused pane (escape restores)",
                id="zoom", show=False),
        Binding("ctrl+q", "quit", "Quit", tooltip="Save the draft and quit", priority=True, id="quit"),
        Binding("ctrl+c", "help_quit", show=False, system=True),
    ]

    def __init__(
        self,
        exercises_dir: str | Path | None = None,
        *,
        prestart_workers: bool = True,
        grade_timing: bool = True,
        autosave_delay: float = 0.5,
        live_delay: float = 0.5,
        disk_poll_interval: float = 1.0,
    ) -> None:
        super().__init__()
        self.exercises_dir = Path(exercises_dir) if exercises_dir else None
        self.prestart_workers = prestart_workers
        self.autosave_delay = autosave_delay  # keystroke -> on disk: at most this (a throttle, not a debounce)
        self.live_delay = live_delay
        self.disk_poll_interval = disk_poll_interval
        self.launched_at = time.monotonic()
        self.first_frame_at: float | None = None  # monotonic time of the first frame (the startup benchmark)
        self.settings = load_settings()
        self.live_grading = self.settings.live_grading
        self.drafts = Drafts()
        self.progress = ProgressStore()
        self.grader = Grader(spares=1 if prestart_workers else 0, timing=grade_timing)
        self.exercises: list[Exercise] = []
        self.current: Exercise | None = None
        self.draft: DraftFile | None = None
        self.statuses: dict[str, str] = {}
        self.verdicts: dict[str, Verdict] = {}  # this session's last verdict per exercise
        self.hints_shown: dict[str, int] = {}
        self.revealed: set[str] = set()
        self.unsaved: dict[str, str] = {}  # editor text that could not be written when leaving an exercise
        self.run_id: int | None = None  # the grade whose news the screen shows
        self.run_exercise: str | None = None
        self.grading = False  # a grade is in flight (until its verdict)
        self.measuring = False  # its timing is still being measured
        self._save_timer: Timer | None = None
        self._live_timer: Timer | None = None
        self._save_failed = False
        self._live_baseline: str | None = None
        self._editor_text: str | None = None  # for the save on exit, after the editor widget is gone
        self._spinner = cycle(SPINNER)
        self._spin_timer: Timer | None = None

    # ------------------------------------------------------------------------------------------ start and stop

    def get_default_screen(self) -> Screen:
        return MainScreen()

    def on_mount(self) -> None:
        if self.settings.theme in self.available_themes:
            self.theme = self.settings.theme
        else:
            self.settings.problems.append(f"unknown theme {self.settings.theme!r} in the config; using {self.theme}")
        self.theme_changed_signal.subscribe(self, self._theme_changed)
        if self.settings.keymap:
            self.set_keymap(self.settings.keymap)

    def start_session(self) -> None:
        """Fill the main screen (called from its on_mount, so the first frame already shows the exercise)."""
        self.exercises = load_exercises(self.exercises_dir)
        data = self.progress.load()
        self.statuses = {
            ex.id: self.progress.status(ex.id, data) if ex.available else "unavailable" for ex in self.exercises
        }
        for ex in self.exercises:
            entry = self.progress.entry(ex.id, data)
            self.hints_shown[ex.id] = max(entry["hints_used"] or [0])
            if entry["solution_revealed_at"]:
                self.revealed.add(ex.id)
        self.sidebar.show(self.exercises, self.statuses, None)
        self.editor.use_dark(self.current_theme.dark)
        self._spin_timer = self.set_interval(0.1, self._spin, pause=True)
        start = self._start_exercise(data.get("last_open"))
        if start is None:
            self.lesson.show_task("# No exercises found\n\nThe exercises folder is empty or missing: "
                                  f"`{self.exercises_dir or 'the bundled exercises'}`.")
            self.editor.read_only = True
        else:
            self.open_exercise(start.id)
        self.editor.focus()
        self._show_idle_subtitle()

    def _start_exercise(self, last_open: object) -> Exercise | None:
        available = [ex for ex in self.exercises if ex.available]
        for ex in available:
            if ex.id == last_open:
                return ex
        for ex in available:
            if self.statuses[ex.id] != "passed":
                return ex
        return (available or self.exercises or [None])[0]

    def on_ready(self) -> None:
        self.first_frame_at = time.monotonic()
        if os.environ.get(READY_FILE):
            _report_ready(Path(os.environ[READY_FILE]))
        if os.environ.get(EXIT_WHEN_READY) == "1":
            self.exit(0)
            return
        # The spare worker imports jax: on a small machine that competes with our own start-up, so it waits.
        self.call_after_refresh(self._after_first_frame)

    def _after_first_frame(self) -> None:
        if self.prestart_workers:
            self.run_worker(self.grader.warm_up, thread=True, group="warm-up", exit_on_error=False)
        self.set_interval(self.disk_poll_interval, self._check_disk)
        for notice in [*self.progress.notices, *self.settings.problems]:
            self.notify(notice, title="Heads up", severity="warning", timeout=20)
        self.progress.notices.clear()
        self.settings.problems.clear()

    async def action_quit(self) -> None:
        if self.save_now():
            self.exit(0)
            return
        question = (f"Your draft could not be saved to `{self.draft.path if self.draft else '?'}`. "
                    "Quitting now loses your latest typing. Quit anyway?")
        self.push_screen(ConfirmScreen("Unsaved draft", question, yes="Quit"),
                         lambda yes: self.exit(0) if yes else None)

    def on_unmount(self) -> None:
        self.save_now()
        self.grader.shutdown()

    # ------------------------------------------------------------------------------------------ widgets

    @property
    def main_screen(self) -> Screen:
        for screen in self.screen_stack:
            if isinstance(screen, MainScreen):
                return screen
        raise NoMatches("the main screen is not (or no longer) mounted")

    @property
    def sidebar(self) -> ExerciseList:
        return self.main_screen.query_one("#sidebar", ExerciseList)

    @property
    def lesson(self) -> Lesson:
        return self.main_screen.query_one("#lesson", Lesson)

    @property
    def editor(self) -> DraftEditor:
        return self.main_screen.query_one("#editor", DraftEditor)

    @property
    def verdict_panel(self) -> VerdictPanel:
        return self.main_screen.query_one("#verdict", VerdictPanel)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in MAIN_ONLY and not isinstance(self.screen, MainScreen):
            return False
        return True

    # ------------------------------------------------------------------------------------------ exercises

    def status_of(self, exercise: Exercise) -> str:
        return self.statuses.get(exercise.id, "new")

    def find(self, exercise_id: str) -> Exercise | None:
        return next((ex for ex in self.exercises if ex.id == exercise_id), None)

    def open_exercise(self, exercise_id: str) -> None:
        ex = self.find(exercise_id)
        if ex is None or ex is self.current:
            return
        self._leave_current()
        self.current = ex
        self.sub_title = f"{ex.number:02d} · {ex.title or ex.id}"
        editor = self.editor
        editor.clear_error()
        if ex.available:
            self.draft = DraftFile(self.drafts, ex)
            try:
                text = self.draft.load()
            except OSError as exc:
                self.draft = None
                text = ""
                self.notify(f"Could not read or create your draft for {ex.id}: {exc}", severity="error", timeout=20)
            if self.draft is not None and ex.id in self.unsaved:
                text = self.unsaved.pop(ex.id)  # typing that never reached the disk: it wins over the file
            try:
                statement = ex.statement()
            except OSError as exc:
                statement = f"# {ex.title}\n\n*The statement could not be read: {exc}*"
            self.lesson.show_task(statement)
            editor.read_only = self.draft is None
            editor.load_text(text)
            if self.draft is not None and not self.draft.valid_utf8:
                self.notify(f"{self.draft.path} is not valid UTF-8; undecodable bytes show as �.", severity="warning")
            if self.draft is not None and self.draft.is_dirty(text):
                self._schedule_save()
        else:
            self.draft = None
            self.lesson.show_task(unavailable_markdown(ex))
            editor.load_text("")
            editor.read_only = True
        self._live_baseline = self._editor_text = editor.text
        self.editor.border_title = f"workspace/{ex.id}.py" if ex.available else "no draft: exercise unavailable"
        if self.draft is not None:
            self.verdict_panel.path_aliases = {str(self.draft.path): f"workspace/{ex.id}.py"}
        self._show_hints(ex)
        self._show_explanation(ex)
        self.lesson.switch("task")
        self._show_verdict(ex)
        self.sidebar.select(ex.id)
        try:
            self.progress.set_last_open(ex.id)
        except OSError:
            pass  # only a convenience for next time; a failing disk is reported by the autosave

    def _leave_current(self) -> None:
        if self.current is None or self.draft is None:
            return
        if self._live_timer is not None:
            self._live_timer.stop()
            self._live_timer = None
        if not self.save_now():
            self.unsaved[self.current.id] = self.editor.text

    def _step(self, direction: int) -> None:
        available = [ex for ex in self.exercises if ex.available]
        if not available:
            return
        number = self.current.number if self.current is not None else -1
        later = [ex for ex in available if (ex.number - number) * direction > 0]
        if not later:
            self.notify("That was the last exercise." if direction > 0 else "This is the first exercise.")
            return
        self.open_exercise((later[0] if direction > 0 else later[-1]).id)

    def action_next_exercise(self) -> None:
        self._step(+1)

    def action_previous_exercise(self) -> None:
        self._step(-1)

    @on(OptionList.OptionSelected, "#exercise-list")
    def _exercise_chosen(self, event: OptionList.OptionSelected) -> None:
        if event.option.id:
            self.open_exercise(event.option.id)
            if self.main_screen.has_class("-narrow"):
                self.main_screen.remove_class("-sidebar-toggled")  # it stood in for the verdict: give it back
            self.editor.focus()

    def _set_status(self, exercise: Exercise, status: str) -> None:
        self.statuses[exercise.id] = status
        self.sidebar.set_status(exercise, status)
        self.sidebar.update_progress(self.statuses)

    # ------------------------------------------------------------------------------------------ grading

    def action_run(self, live: bool = False) -> None:
        ex = self.current
        if ex is None or not ex.available or self.draft is None:
            why = "this exercise is unavailable" if ex is None or not ex.available else "your draft could not be read"
            self.notify(f"Nothing to grade: {why}.", severity="warning")
            return
        if self._live_timer is not None:
            self._live_timer.stop()
            self._live_timer = None
        text = self.editor.text
        self.save_now()  # the draft on disk is what was graded (a failed save still grades the editor's text)
        self._live_baseline = text
        run_id = self.grader.begin()
        self.run_id, self.run_exercise = run_id, ex.id
        self.grading, self.measuring = True, False
        self._spinning(True)
        self.verdict_panel.show_running(True, self.verdicts.get(ex.id))
        self.verdict_panel.switch("checks")
        self.run_worker(
            partial(self.grader.grade, run_id, ex, text.encode("utf-8"), self.draft.path, self.post_message),
            thread=True,
            group="grade",
            exit_on_error=False,
            description=f"grade {ex.id}" + (" (live)" if live else ""),
        )

    def _stop_grading(self) -> None:
        self.grader.cancel()
        self.run_id = None
        self.grading = self.measuring = False
        self._spinning(False)
        if self.current is not None:
            self._show_verdict(self.current)
        self._show_idle_subtitle()

    def _is_news(self, run_id: int) -> bool:
        return run_id == self.run_id

    @on(VerdictReady)
    def _verdict_ready(self, message: VerdictReady) -> None:
        if not self._is_news(message.run_id):
            return
        ex = self.find(message.exercise_id)
        if ex is None:
            return
        verdict = message.verdict
        self.verdicts[ex.id] = verdict
        self.grading = False
        self.measuring = message.timing_pending
        self._spinning(self.measuring)
        self._show_idle_subtitle()
        was_passed = self.statuses.get(ex.id) == "passed"
        if verdict.internal_error is None:
            try:
                entry = self.progress.record_attempt(ex.id, verdict.status)
            except OSError as exc:
                self.notify(f"Could not record this attempt in your progress: {exc}", severity="error")
            else:
                self._set_status(ex, entry["status"])
        if ex is self.current:
            self._show_verdict(ex, scroll_home=True)
            self._mark_error(verdict)
            if verdict.passed:
                self._show_explanation(ex)
                self.lesson.switch("explanation")
        if verdict.passed and not was_passed:
            self.notify(f"{ex.title}: all checks passed. The Explanation tab says why the fix works.",
                        title="PASSED", timeout=8)
        elif verdict.internal_error is not None:
            self.notify("This exercise or the grader is broken (not your code). See the Checks tab.",
                        severity="error")

    @on(TimingReady)
    def _timing_ready(self, message: TimingReady) -> None:
        if not self._is_news(message.run_id):
            return
        self.verdicts[message.exercise_id] = message.verdict
        self.measuring = False
        self._spinning(False)
        self._show_idle_subtitle()
        if self.current is not None and self.current.id == message.exercise_id:
            self._show_verdict(self.current)

    @on(GradeFailed)
    def _grade_failed(self, message: GradeFailed) -> None:
        if not self._is_news(message.run_id):
            return
        self.grading = self.measuring = False
        self._spinning(False)
        self._show_idle_subtitle()
        if self.current is not None:
            self._show_verdict(self.current)
        self.notify(f"Could not grade: {message.reason}", severity="error", timeout=20)

    def _show_verdict(self, ex: Exercise, scroll_home: bool = False) -> None:
        mine = self.run_exercise == ex.id
        self.verdict_panel.show(
            self.verdicts.get(ex.id),
            running=mine and self.grading,
            timing_pending=mine and self.measuring,
            scroll_home=scroll_home,
        )

    def _mark_error(self, verdict: Verdict) -> None:
        error = verdict.error
        if error is not None and error.line:
            self.editor.mark_error(error.line, error.col)
            self.notify(f"{error.type} on line {error.line}. The editor marks it.", severity="warning", timeout=6)
        else:
            self.editor.clear_error()

    def _spinning(self, on: bool) -> None:
        if self._spin_timer is not None:
            self._spin_timer.resume() if on else self._spin_timer.pause()

    def _spin(self) -> None:
        word = "grading" if self.grading else "measuring timing"
        try:
            self.verdict_panel.border_subtitle = f"{next(self._spinner)} {word}…"
        except NoMatches:
            pass  # shutting down

    def _show_idle_subtitle(self) -> None:
        if self.grading or self.measuring:
            self._spin()
            return
        self.verdict_panel.border_subtitle = "live grading on" if self.live_grading else ""

    def action_toggle_live(self) -> None:
        self.live_grading = not self.live_grading
        self._save_setting("live_grading", self.live_grading)
        self._show_idle_subtitle()
        if self.live_grading:
            self.notify("Live grading on: your draft is graded half a second after you stop typing.")
        else:
            if self._live_timer is not None:
                self._live_timer.stop()
                self._live_timer = None
            self.notify("Live grading off: ctrl+r grades.")

    # ------------------------------------------------------------------------------------------ the draft

    @on(TextArea.Changed, "#editor")
    def _draft_edited(self, event: TextArea.Changed) -> None:
        if self.draft is None:
            return
        text = self._editor_text = self.editor.text
        if self.draft.is_dirty(text):
            self._schedule_save()
        if self.live_grading and text != self._live_baseline:
            if self.grading or self.measuring:
                self._stop_grading()  # stale: it grades text the learner has already changed
            if self._live_timer is not None:
                self._live_timer.stop()
            self._live_timer = self.set_timer(self.live_delay, partial(self.action_run, live=True))

    def _schedule_save(self) -> None:
        # A throttle: the first change starts the clock and later ones ride along, so continuous typing is still
        # on disk within autosave_delay (a debounce would wait for a pause, and SIGKILL would lose more).
        if self._save_timer is None:
            self._save_timer = self.set_timer(self.autosave_delay, self._autosave)

    def _autosave(self) -> None:
        self._save_timer = None
        self.save_now()

    def save_now(self) -> bool:
        """Write the editor's text to the draft if it changed. False if the disk refused (the text stays)."""
        if self._save_timer is not None:
            self._save_timer.stop()
            self._save_timer = None
        draft = self.draft
        if draft is None or self.current is None:
            return True
        try:
            text = self.editor.text
        except NoMatches:  # the screen went first while quitting: the last text the editor reported
            text = self._editor_text
            if text is None:
                return True
        if not draft.is_dirty(text):
            return True
        try:
            draft.save(text)
        except OSError as exc:
            if not self._save_failed:
                self.notify(
                    f"Could not save your draft to {draft.path}: {exc.strerror or exc}. Your text stays in the "
                    "editor; the app keeps trying.",
                    title="Not saved", severity="error", timeout=30,
                )
            self._save_failed = True
            self._save_timer = self.set_timer(3.0, self._autosave)
            return False
        if self._save_failed:
            self._save_failed = False
            self.notify(f"Saved again to {draft.path}.")
        return True

    def _check_disk(self) -> None:
        draft = self.draft
        if draft is None:
            return
        try:
            editor_text = self.editor.text
        except NoMatches:
            return  # shutting down: the screen is gone, on_unmount saves
        dirty = draft.is_dirty(editor_text)
        disk_text = draft.changed_on_disk()
        if disk_text is None:
            return
        if not dirty:
            draft.accept(disk_text)
            cursor = self.editor.cursor_location
            self.editor.clear_error()
            # replace() instead of load_text(): the reload can be undone with ctrl+z like any edit.
            self.editor.replace(disk_text, (0, 0), self.editor.document.end)
            row = min(cursor[0], self.editor.document.line_count - 1)
            self.editor.cursor_location = (row, min(cursor[1], len(self.editor.document.get_line(row))))
            self._live_baseline = None if self.live_grading else self._live_baseline
            self.notify(f"{draft.path.name} changed on disk: reloaded.", timeout=4)
            return
        try:
            kept = draft.keep_disk_version(disk_text)
        except OSError as exc:
            self.notify(f"{draft.path.name} changed on disk while you were typing here, and the disk version could "
                        f"not be put aside ({exc}). Your editor text stays.", severity="error", timeout=30)
            return
        self.save_now()
        self.notify(
            f"{draft.path.name} changed on disk while you had unsaved typing here. Your editor text stays and is "
            f"saved; the version from disk is kept as {kept}.",
            title="Kept both", severity="warning", timeout=30,
        )

    # ------------------------------------------------------------------------------------------ lesson

    def _show_hints(self, ex: Exercise) -> None:
        try:
            hints = ex.hints() if ex.available else []
        except OSError:
            hints = []
        shown = min(self.hints_shown.get(ex.id, 0), len(hints))
        self.lesson.show_hints(hints, shown, self._key_for("hint"))

    def _show_explanation(self, ex: Exercise) -> None:
        explanation = solution = None
        if ex.available and (self.statuses.get(ex.id) == "passed" or ex.id in self.revealed):
            try:
                explanation = ex.explanation()
            except OSError as exc:
                explanation = f"*The explanation could not be read: {exc}*"
        if ex.available and ex.id in self.revealed:
            try:
                solution = ex.solution_path.read_text(encoding="utf-8")
            except OSError as exc:
                solution = f"# the solution could not be read: {exc}"
        self.lesson.show_explanation(explanation, solution)

    def action_hint(self) -> None:
        ex = self.current
        if ex is None or not ex.available:
            return
        hints = ex.hints()
        shown = self.hints_shown.get(ex.id, 0)
        if shown >= len(hints):
            self.notify("That was the last hint. The reference solution is in the command palette (ctrl+p).")
        else:
            shown += 1
            self.hints_shown[ex.id] = shown
            try:
                self.progress.record_hint(ex.id, shown)
            except OSError as exc:
                self.notify(f"Could not record the hint in your progress: {exc}", severity="error")
        self._show_hints(ex)
        self.lesson.switch("hints")

    def action_reveal(self) -> None:
        ex = self.current
        if ex is None or not ex.available:
            return
        if self.statuses.get(ex.id) == "passed" or ex.id in self.revealed:
            self._reveal(ex)
            return
        question = ("You have not passed this exercise yet. Seeing the reference solution now is recorded in your "
                    "progress. Your draft stays as it is.\n\nReveal the solution?")
        self.push_screen(ConfirmScreen("Reveal the solution?", question, yes="Reveal"),
                         lambda yes: self._reveal(ex) if yes else None)

    def _reveal(self, ex: Exercise) -> None:
        try:
            self.progress.record_reveal(ex.id)
        except OSError as exc:
            self.notify(f"Could not record the reveal in your progress: {exc}", severity="error")
        self.revealed.add(ex.id)
        if ex is self.current:
            self._show_explanation(ex)
            self.lesson.switch("explanation")

    def action_reset(self) -> None:
        ex = self.current
        if ex is None or not ex.available or self.draft is None:
            return
        question = ("Put the starter code back in the editor? Your current draft is not lost: it is kept in "
                    "the backups folder, and the path is shown after the reset.")
        self.push_screen(ConfirmScreen("Reset this exercise?", question, yes="Reset"),
                         lambda yes: self._reset(ex) if yes else None)

    def _reset(self, ex: Exercise) -> None:
        if ex is not self.current or self.draft is None:
            return
        self.save_now()
        try:
            kept = self.drafts.reset(ex)
            text = self.draft.load()
        except OSError as exc:
            self.notify(f"Could not reset the draft: {exc}. Nothing was changed.", severity="error", timeout=20)
            return
        self.editor.clear_error()
        self.editor.load_text(text)
        self._live_baseline = self._editor_text = text
        where = f" Your previous draft is kept as {kept}." if kept else ""
        self.notify(f"The starter is back in the editor.{where}", title="Reset", timeout=15)

    # ------------------------------------------------------------------------------------------ look and keys

    def action_toggle_theme(self) -> None:
        self.theme = LIGHT_THEME if self.current_theme.dark else DEFAULT_THEME

    def _theme_changed(self, theme) -> None:
        try:
            self.editor.use_dark(theme.dark)
        except Exception:  # noqa: BLE001 - the main screen may not be mounted yet
            pass
        if theme.name != self.settings.theme:
            self.settings.theme = theme.name
            self._save_setting("theme", theme.name)

    def _save_setting(self, key: str, value: str | bool) -> None:
        try:
            save_setting(key, value)
        except (OSError, ValueError) as exc:
            self.notify(f"Could not store this setting in {paths.config_path()}: {exc}", severity="warning")

    def action_cycle_pane(self, step: int) -> None:
        self.verdict_panel.cycle(step)

    def action_drill(self) -> None:
        from jittrainer.app.drill import DrillScreen

        self.save_now()
        self.push_screen(DrillScreen())

    def action_help(self) -> None:
        if isinstance(self.screen, HelpScreen):
            return
        self.push_screen(HelpScreen(self.key_rows(), str(paths.config_path())))

    def action_toggle_sidebar(self) -> None:
        screen = self.main_screen
        screen.toggle_class("-sidebar-toggled")
        showing = screen.has_class("-narrow") == screen.has_class("-sidebar-toggled")
        if showing:
            self.sidebar.query_one(OptionList).focus()
        elif self.focused is None or self.sidebar in self.focused.ancestors_with_self:
            self.editor.focus()

    def action_zoom(self) -> None:
        screen = self.main_screen
        if screen.maximized is not None:
            screen.minimize()
        else:
            screen.action_maximize()

    def key_rows(self) -> list[tuple[str, str, str]]:
        rows = []
        for binding in self._bindings_with_keymap():
            if binding.id:
                rows.append((binding.key.replace(",", ", "), binding.tooltip or binding.description, binding.id))
        rows.append(("ctrl+p", "Command palette: open any exercise, reset, reveal the solution, themes, …", ""))
        return rows

    def _bindings_with_keymap(self) -> list[Binding]:
        keymap = self.settings.keymap
        out = []
        for binding in self.BINDINGS:
            assert isinstance(binding, Binding)
            keys = keymap.get(binding.id or "", binding.key)
            out.append(Binding(keys, binding.action, binding.description, tooltip=binding.tooltip, id=binding.id))
        return out

    def _key_for(self, binding_id: str) -> str:
        for binding in self._bindings_with_keymap():
            if binding.id == binding_id:
                return binding.key.split(",")[0]
        return binding_id


def _report_ready(path: Path) -> None:
    """Wall-clock time of the first frame and this process's resident memory, for `jittrainer bench`."""
    import json

    from jittrainer.core.procs import rss_bytes

    rss = rss_bytes(os.getpid()) or 0
    path.write_text(json.dumps({"ready_at": time.time(), "rss_mb": rss / 2**20}))
