"""A yes/no question in a modal; dismisses with True for yes."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Markdown

from jittrainer.app.keys import translate_bindings
from jittrainer.i18n import N_, _


class ConfirmScreen(ModalScreen[bool]):
    BINDINGS = [
        Binding("escape,n", "dismiss(False)", N_("No"), tooltip=N_("Close without doing it")),
        Binding("y", "dismiss(True)", N_("Yes"), tooltip=N_("Go ahead")),
    ]

    def __init__(self, title: str, question: str, yes: str | None = None, no: str | None = None) -> None:
        super().__init__()
        translate_bindings(self)
        self.title_text = title
        self.question = question
        self.yes = yes or _("Yes")
        self.no = no or _("Cancel")

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-dialog"):
            yield Label(self.title_text, id="confirm-title")
            yield Markdown(self.question, id="confirm-question")
            with Horizontal(id="confirm-buttons"):
                yield Button(f"{self.yes} (y)", variant="warning", id="confirm-yes")
                yield Button(f"{self.no} (n)", id="confirm-no")

    def on_mount(self) -> None:
        self.query_one("#confirm-no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "confirm-yes")
