"""The working screen: the editor, the panel (task, hints, verdict panes) and the exercise list, with the keys that
act on them. It owns its bindings, its grading state (one reactive, one watcher), the draft's autosave and live
grading; the app only holds the settings, the session and the screens.

Rules it keeps: it never grades and never imports jax (worker processes do both); grading threads only post
messages (``app.messages``) and the ``@on`` handlers here change widgets.
"""

from __future__ import annotations

from functools import partial

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import BindingsMap
from textual.containers import Container, Horizontal
from textual.reactive import reactive
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, OptionList, TextArea

from jittrainer.app.drafting import DraftKeeper
from jittrainer.app.draftfile import DraftFile
from jittrainer.app.keys import MAIN_KEYS, bindings, key_for
from jittrainer.app.messages import GradeFailed, ReviewReady, TimingReady, VerdictReady
from jittrainer.app.screens.main_view import View
from jittrainer.app.widgets.editor import DraftEditor
from jittrainer.app.widgets.findbar import FindBar
from jittrainer.app.screens.grade_state import GradeState
from jittrainer.app.widgets.panel import VERDICT_TABS, InfoPanel
from jittrainer.app.widgets.sidebar import Entry, ExerciseList
from jittrainer.course.exercises import Exercise
from jittrainer.grading.scratch import ScratchRun
from jittrainer.grading.verdict import Verdict
from jittrainer.i18n import _
from jittrainer.session.progress import ExerciseProgress
from jittrainer.session.verdicts import LastVerdict

class MainScreen(View):
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (150, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (32, "-tall")]

    grade_state: reactive[GradeState | None] = reactive(None)

    def __init__(self, *, live_delay: float = 0.5, autosave_delay: float = 0.5,
                 disk_poll_interval: float = 1.0) -> None:
        super().__init__()
        self.live_delay = live_delay
        self.disk_poll_interval = disk_poll_interval
        self.current: Exercise | None = None
        self.statuses: dict[str, str] = {}
        self.entries: dict[str, ExerciseProgress] = {}
        self.verdicts: dict[str, Verdict] = {}  # this session's last verdict per exercise, as the worker sent it
        self.scratch_runs: dict[str, ScratchRun] = {}  # a scratch run newer than the verdict, shown over it
        self.restored: dict[str, LastVerdict] = {}  # verdicts on show that an earlier session gave (verdicts/)
        self._graded: tuple[int, str] = (0, "")  # the run id of the last grade and the text it grades
        self.unsaved: dict[str, str] = {}  # editor text that could not be written when leaving an exercise
        self.keeper = DraftKeeper(self._editor_or_none, self.set_timer, self.notify, autosave_delay)
        self._live_timer: Timer | None = None
        self._live_baseline: str | None = None
        self._spin_at = 0
        self._spin_timer: Timer | None = None
        self._progress_stamp: tuple[int, int] | None = None
        self.localize_bindings()

    # ------------------------------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            yield ExerciseList(id="sidebar")
            with Container(id="work"):
                with Container(id="editor-box"):
                    yield DraftEditor.code_editor("", language=None, id="editor",
                                                  soft_wrap=self.app.settings.soft_wrap)
                    yield FindBar(id="find")
                yield InfoPanel(id="panel")
        yield Footer()

    def on_resize(self, event: events.Resize) -> None:
        # Below 100 columns the footer drops its padding and the palette's key (F1 lists ctrl+p), so that every
        # key it lists still fits at 80.
        footer = self.query_one(Footer)
        footer.compact = event.size.width < 100
        footer.show_command_palette = event.size.width >= 100

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        # Below 150 columns the list lies over the editor: it closes when the focus leaves it (tab, escape).
        if self.has_class("-narrow") and self.has_class("-sidebar-toggled") \
                and self.sidebar not in event.widget.ancestors_with_self:
            self.remove_class("-sidebar-toggled")

    def localize_bindings(self) -> None:
        # Screen's own bindings stay (tab / shift+tab move the focus, ctrl+c copies): ours come on top of them.
        inherited = [b for keyed in Screen._merged_bindings.key_to_bindings.values() for b in keyed]
        self._bindings = BindingsMap([*inherited, *bindings(MAIN_KEYS)])

    @property
    def session(self):
        return self.app.session

    @property
    def editor(self) -> DraftEditor:
        return self.query_one("#editor", DraftEditor)

    def _editor_or_none(self) -> DraftEditor | None:
        try:
            return self.editor
        except Exception:  # noqa: BLE001 - the screen went first while quitting
            return None

    @property
    def panel(self) -> InfoPanel:
        return self.query_one("#panel", InfoPanel)

    @property
    def sidebar(self) -> ExerciseList:
        return self.query_one("#sidebar", ExerciseList)

    def key(self, binding_id: str) -> str:
        return key_for(binding_id, self.app.settings.keymap)

    def on_mount(self) -> None:
        self.editor.opens_dialogs = True  # FindRequested and GotoRequested are handled here (main_actions.py)
        self.query_one("#find", FindBar).display = False
        self.sidebar.border_title = _("Exercises")
        self._spin_timer = self.set_interval(0.1, self._spin, pause=True)
        self.reload_progress()
        self.show_exercise_list()
        self.editor.use_dark(self.app.current_theme.dark)
        start = self._start_exercise()
        if start is None:
            self.panel.show_markdown("task", "# " + _("No exercises found") + "\n\n" + _(
                "The exercises folder is empty or missing: `{root}`.").format(root=self.session.course.root))
            self.editor.read_only = True
        else:
            self.open_exercise(start.id)
        self.editor.focus()
        self.set_interval(self.disk_poll_interval, self._poll)
        # Building the highlighter costs ~40 ms: the first frame shows the code a moment before its colours.
        self.call_after_refresh(self._highlight)

    def _highlight(self) -> None:
        self.editor.language = "python"

    def _start_exercise(self) -> Exercise | None:
        available = self.session.course.available
        last_open = self.session.progress.load().last_open
        for ex in available:
            if ex.id == last_open:
                return ex
        for ex in available:
            if self.statuses[ex.id] != "passed":
                return ex
        return (available or self.session.exercises or [None])[0]

    def show_exercise_list(self) -> None:
        course = self.session.course
        packs = {p.name: p.title_in(self.session.lang) for p in course.packs}
        if packs:
            packs[""] = _("The course")
        entries = [Entry(ex, self.session.title(ex), course.topic_title(ex.topic) if ex.topic else "",
                         packs.get(ex.pack, ""))
                   for ex in course.exercises]
        # Chinese titles are broken only between phrases, which needs a wider list (app.tcss)
        self.set_class(self.session.lang == "zh", "-lang-zh")
        self.sidebar.show(entries, self.statuses, self.current.id if self.current else None)

    def localize(self) -> None:
        """Everything on screen again, in the language the session now has."""
        self.localize_bindings()
        self.editor.localize()
        self.panel.localize()
        self.sidebar.border_title = _("Exercises")
        self.show_exercise_list()
        if self.current is not None:
            self._show_lesson(self.current)
            self.show_verdict(self.current)
        self.refresh_bindings()

    # ------------------------------------------------------------------------------------------ progress

    def reload_progress(self) -> None:
        progress = self.session.progress.load()
        self.statuses = self.session.statuses(progress)
        self.entries = {ex.id: progress.peek(ex.id) for ex in self.session.exercises}
        self._progress_stamp = self.session.progress.stamp()

    def entry(self, ex: Exercise) -> ExerciseProgress:
        return self.entries.get(ex.id) or ExerciseProgress()

    def set_status(self, ex: Exercise, status: str) -> None:
        self.statuses[ex.id] = status
        self.sidebar.set_status(ex, status)
        self.sidebar.update_progress(self.statuses)

    def _poll(self) -> None:
        self.app.show_notices()  # a progress file read again, here or by our own writes, may have needed mending
        if self.keeper.check_disk():
            self._live_baseline = None if self.app.settings.live_grading else self._live_baseline
        stamp = self.session.progress.stamp()
        if stamp != self._progress_stamp:  # another process (jittrainer check, watch) recorded something
            before = dict(self.statuses)
            self.reload_progress()
            if self.statuses != before:
                self.show_exercise_list()
            if self.current is not None:
                self._show_lesson(self.current, keep_tab=True)
                self.show_verdict(self.current)

    # ------------------------------------------------------------------------------------------ exercises

    def open_exercise(self, exercise_id: str) -> None:
        ex = self.session.course.get(exercise_id)
        if ex is None or ex is self.current:
            return
        self._leave_current()
        self.current = ex
        editor = self.editor
        editor.clear_error()
        draft: DraftFile | None = None
        if ex.available:
            draft = DraftFile(self.session.drafts, ex)
            try:
                text = draft.load()
            except OSError as exc:
                draft, text = None, ""
                self.notify(_("Could not read or create your draft for {id}: {reason}").format(id=ex.id, reason=exc),
                            severity="error", timeout=8)
            if draft is not None and ex.id in self.unsaved:
                text = self.unsaved.pop(ex.id)  # typing that never reached the disk: it wins over the file
            editor.read_only = draft is None
            editor.load_text(text)
            if draft is not None and not draft.valid_utf8:
                self.notify(_("{path} is not valid UTF-8; undecodable bytes show as �.").format(path=draft.path),
                            severity="warning", timeout=6)
        else:
            editor.load_text("")
            editor.read_only = True
        self.keeper.open(draft, editor.text)
        self._live_baseline = editor.text
        self.restore_verdict(ex)
        self._show_lesson(ex)
        self.show_verdict(ex)
        self.sidebar.select(ex.id)
        if self.app.warmed:
            self.app.dispatcher.warm_up(ex)
        try:
            self.session.progress.set_last_open(ex.id)
            self._progress_stamp = self.session.progress.stamp()
        except OSError:
            pass  # only a convenience for next time; a failing disk is reported by the autosave
        editor.focus()

    def _leave_current(self) -> None:
        if self.current is None:
            return
        if self._live_timer is not None:
            self._live_timer.stop()
            self._live_timer = None
        if self.keeper.draft is not None and not self.keeper.save_now():
            self.unsaved[self.current.id] = self.editor.text

    def _titles(self, ex: Exercise) -> None:
        title = f"{ex.number:02d} · {self.session.title(ex)}"
        self.editor.border_title = f"{title} — workspace/{ex.draft_name}" if ex.available else title
        if self.keeper.draft is not None:
            self.context_aliases = {str(self.keeper.draft.path): f"workspace/{ex.draft_name}"}

    # ------------------------------------------------------------------------------------------ grading

    def begin_job(self, phase: str, *, live: bool = False) -> tuple[int, Exercise, str] | None:
        """Save the draft and make a new job (a grade or a scratch run) the one whose news the screen shows:
        (its id, the exercise, the text it runs), or None when there is no draft to run."""
        ex = self.current
        if ex is None or not ex.available or self.keeper.draft is None:
            return None
        if self._live_timer is not None:
            self._live_timer.stop()
            self._live_timer = None
        self.keeper.save_now()
        run_id = self.app.dispatcher.begin()
        self.grade_state = GradeState(run_id, ex.id, phase, live)
        return run_id, ex, self.editor.text

    def start_grade(self, *, live: bool = False) -> None:
        job = self.begin_job("grading", live=live)
        if job is None:
            return
        run_id, ex, text = job
        self._live_baseline = text
        self._graded = (run_id, text)
        # A new verdict opens on Checks, unless the learner moved to a verdict tab themselves (Output to watch the
        # prints, Recompiles): the Output a scratch run opened is not their choice.
        active = self.panel.active
        if not live and active != "checks" and not (active in VERDICT_TABS and self.panel.learner_chose(active)):
            self.panel.switch("checks")
        self._grade(self.app.dispatcher, run_id, ex, text.encode("utf-8"), self.keeper.draft.path)

    @work(thread=True, exclusive=False, group="grade", exit_on_error=False)
    def _grade(self, dispatcher, run_id: int, ex: Exercise, source: bytes, path) -> None:
        dispatcher.grade(run_id, ex, source, path, self.session.limits(ex), self.session.lang, self.post_message)

    def _is_news(self, run_id: int) -> bool:
        return self.grade_state is not None and self.grade_state.run_id == run_id

    @on(VerdictReady)
    def _verdict_ready(self, message: VerdictReady) -> None:
        if not self._is_news(message.run_id):
            return
        state = self.grade_state
        ex = self.session.course.get(message.exercise_id)
        verdict = message.verdict
        self.keep_verdict(message.run_id, message.exercise_id, verdict)
        self.scratch_runs.pop(message.exercise_id, None)
        after = "timing" if message.timing_pending else "review" if message.review_pending else None
        self.grade_state = GradeState(message.run_id, message.exercise_id, after, state.live) if after else None
        if ex is None:
            return
        if verdict.internal_error is None:
            try:
                entry = self.session.record_verdict(ex, verdict, explicit=not state.live)
            except OSError as exc:
                self.notify(_("Could not record this attempt in your progress: {reason}").format(reason=exc),
                            severity="error", timeout=6)
            else:
                self.entries[ex.id] = entry
                self._progress_stamp = self.session.progress.stamp()
                self.set_status(ex, entry.status)
        if ex is self.current:
            unchanged = self.editor.text == self._live_baseline
            self.mark_error(verdict, move=not state.live and unchanged)
            self.show_verdict(ex, scroll_home=True)
            if verdict.passed:
                self.show_why(ex)
        if verdict.internal_error is not None:
            self.notify(_("This exercise or the grader is broken (not your code). See the Checks tab."),
                        severity="error", timeout=6)
        # A pass has no notice of its own: one sat over the Checks and Why text for seconds. The panel's title
        # says it (with the key to the next exercise) and the Checks tab names the next exercise.

    @on(TimingReady)
    def _timing_ready(self, message: TimingReady) -> None:
        if not self._is_news(message.run_id):
            return
        self.keep_verdict(message.run_id, message.exercise_id, message.verdict)
        state = self.grade_state
        self.grade_state = GradeState(state.run_id, state.exercise_id, "review", state.live) \
            if message.review_pending else None

    @on(ReviewReady)
    def _review_ready(self, message: ReviewReady) -> None:
        if not self._is_news(message.run_id):
            return
        self.keep_verdict(message.run_id, message.exercise_id, message.verdict)
        self.grade_state = None
        if self.current is not None and self.current.id == message.exercise_id:
            self.show_why(self.current)

    @on(GradeFailed)
    def _grade_failed(self, message: GradeFailed) -> None:
        if not self._is_news(message.run_id):
            return
        self.grade_state = None
        self.notify(_("Could not grade: {reason}").format(reason=message.reason), severity="error", timeout=8)

    def stop_grading(self) -> None:
        if self.grade_state is not None:
            self.app.dispatcher.cancel()
            self.grade_state = None

    # ------------------------------------------------------------------------------------------ the draft

    @on(TextArea.Changed, "#editor")
    def _draft_edited(self, event: TextArea.Changed) -> None:
        if self.keeper.draft is None:
            return
        text = self.editor.text
        self.keeper.edited(text)
        if self.app.settings.live_grading and text != self._live_baseline:
            if self.grade_state is not None:
                self.stop_grading()  # stale: it grades text the learner has already changed
            if self._live_timer is not None:
                self._live_timer.stop()
            self._live_timer = self.set_timer(self.live_delay, partial(self.start_grade, live=True))

    @on(OptionList.OptionSelected, "#exercise-list")
    def _exercise_chosen(self, event: OptionList.OptionSelected) -> None:
        if event.option.id:
            self.open_exercise(event.option.id)
            if self.has_class("-narrow"):
                self.remove_class("-sidebar-toggled")  # it took room from the editor: give it back
