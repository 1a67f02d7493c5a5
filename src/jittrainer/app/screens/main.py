"""The one working screen: exercises on the left, the task above the draft in the middle, the verdict on the right.

It only lays things out. The app owns the state and fills these widgets in from its ``@on`` handlers.
Breakpoints set ``-narrow``/``-wide`` and ``-short``/``-tall`` on the screen; app.tcss collapses panes with them.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Header

from jittrainer.app.widgets.editor import DraftEditor
from jittrainer.app.widgets.lesson import Lesson
from jittrainer.app.widgets.sidebar import ExerciseList
from jittrainer.app.widgets.verdict import VerdictPanel


class MainScreen(Screen):
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (32, "-tall")]

    def compose(self) -> ComposeResult:
        yield Header(icon="λ")
        with Horizontal(id="main"):
            yield ExerciseList(id="sidebar")
            with Vertical(id="middle"):
                yield Lesson(id="lesson")
                yield DraftEditor.code_editor("", language="python", id="editor")
            yield VerdictPanel(id="verdict")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#sidebar").border_title = "Exercises"
        self.query_one("#lesson").border_title = "Task"
        self.query_one("#verdict").border_title = "Verdict"
        # The app owns the session; filling the screen here (not in App.on_mount, which runs before these
        # widgets exist) means the very first frame already shows the exercise.
        self.app.start_session()  # type: ignore[attr-defined]
