"""F1: every key (as the learner's keymap has them now), the panes, and how grading works."""

from __future__ import annotations

from importlib import resources

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown

EDITOR_KEYS = [
    ("ctrl+z / ctrl+y", "undo / redo"),
    ("ctrl+x / ctrl+c / ctrl+v", "cut / copy / paste"),
    ("F6 / F7", "select the line / select everything"),
    ("tab", "indent (4 spaces)"),
    ("escape", "leave the editor (then tab / shift+tab move between panes)"),
]


def keys_markdown(rows: list[tuple[str, str, str]]) -> str:
    # Lists, not tables: a Markdown table in Textual draws a rule between rows and doubles the height.
    keys = [f"- `{keys}` — {what}" + (f" *(id `{binding_id}`)*" if binding_id else "") for keys, what, binding_id in rows]
    editor = [f"- `{keys}` — {what}" for keys, what in EDITOR_KEYS]
    return "\n".join(["## Keys", "", "These work everywhere, also while you type in the editor:", "", *keys, "",
                      "In the editor:", "", *editor])


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,f1,q", "dismiss", "Close help", tooltip="Back to the exercise")]

    def __init__(self, key_rows: list[tuple[str, str, str]], config_path: str) -> None:
        super().__init__()
        self.key_rows = key_rows
        self.config_path = config_path

    def compose(self) -> ComposeResult:
        guide = resources.files("jittrainer.app").joinpath("help.md").read_text(encoding="utf-8")
        text = guide.replace("{KEYS}", keys_markdown(self.key_rows)).replace("{CONFIG}", self.config_path)
        with VerticalScroll(id="help-dialog"):
            yield Markdown(text, id="help-text")

    def on_mount(self) -> None:
        dialog = self.query_one("#help-dialog")
        dialog.border_title = "Help"
        dialog.border_subtitle = "escape closes"
        dialog.focus()
