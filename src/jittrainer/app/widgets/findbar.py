"""The editor's find bar: type, enter for the next match, escape to go back to the editor."""

from __future__ import annotations

from textual import on
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import Input, Label

from jittrainer.app.keyorder import OrderedInput

from jittrainer.i18n import _


class FindBar(Horizontal):
    BINDINGS = [Binding("escape", "close", show=False)]

    def compose(self):
        yield Label(_("Find:"), id="find-label")
        yield OrderedInput(placeholder=_("text in your draft · enter: next · escape: close"), id="find-input")
        yield Label("", id="find-status")

    def open(self) -> None:
        self.display = True
        self.query_one(Input).focus()
        hold = getattr(self.app, "key_hold", None)
        if hold is not None:
            hold.settle()  # what was typed after ctrl+f goes into the bar, behind the focus change

    def action_close(self) -> None:
        self.display = False
        self.post_message(self.Closed())

    @on(Input.Submitted, "#find-input")
    def _next(self, event: Input.Submitted) -> None:
        event.stop()
        self.post_message(self.FindNext(event.value))

    def status(self, text: str) -> None:
        self.query_one("#find-status", Label).update(text)

    class FindNext(Message):
        def __init__(self, needle: str) -> None:
            super().__init__()
            self.needle = needle

    class Closed(Message):
        pass
