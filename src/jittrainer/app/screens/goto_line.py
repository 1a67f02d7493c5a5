"""Go to line: a small modal that asks for a line number; dismisses with the number, or None."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label

from jittrainer.app.keyorder import OrderedInput
from jittrainer.i18n import _


class GotoLineScreen(ModalScreen[int | None]):
    BINDINGS = [Binding("escape", "dismiss(None)", show=False)]

    def __init__(self, lines: int) -> None:
        super().__init__()
        self.lines = lines

    def compose(self) -> ComposeResult:
        with Vertical(id="goto-dialog"):
            yield Label(_("Go to line (1–{n}):").format(n=self.lines))
            yield OrderedInput(type="integer", id="goto-input", hold_on_submit=True)

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted, "#goto-input")
    def _go(self, event: Input.Submitted) -> None:
        try:
            self.dismiss(int(event.value))
        except ValueError:
            self.dismiss(None)
