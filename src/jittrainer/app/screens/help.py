"""F1: every key (as the learner's keymap has them now), the panel's tabs, and how grading works."""

from __future__ import annotations

from importlib import resources

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown

from jittrainer.app.keys import EDITOR_BUILTIN, translate_bindings
from jittrainer.i18n import N_, _, join_cjk_breaks, language


def keys_markdown(rows: list[tuple[str, str, str]]) -> str:
    # Lists, not tables: a Markdown table in Textual draws a rule between rows and doubles the height.
    # The punctuation is the language's too: "：" and "（id：…）" in Chinese.
    keys = [_("- `{keys}`: {what}").format(keys=keys, what=what)
            + (_(" *(id `{id}`)*").format(id=binding_id) if binding_id else "") for keys, what, binding_id in rows]
    editor = [_("- `{keys}`: {what}").format(keys=keys, what=_(what)) for keys, what in EDITOR_BUILTIN]
    return "\n".join(["## " + _("Keys"), "", *keys, "", _("The editor itself:"), "", *editor])


def help_text(rows: list[tuple[str, str, str]], config_path: str, lang: str | None = None) -> str:
    lang = lang or language()
    folder = resources.files("jittrainer.app")
    name = f"help.{lang}.md" if lang != "en" and folder.joinpath(f"help.{lang}.md").is_file() else "help.md"
    guide = folder.joinpath(name).read_text(encoding="utf-8")
    # A soft line break in Chinese is no space: joined as in the exercises' texts
    return join_cjk_breaks(guide.replace("{KEYS}", keys_markdown(rows)).replace("{CONFIG}", config_path))


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,f1,q", "dismiss", N_("Close help"), tooltip=N_("Back to the exercise"))]

    def __init__(self, key_rows: list[tuple[str, str, str]], config_path: str) -> None:
        super().__init__()
        translate_bindings(self)
        self.key_rows = key_rows
        self.config_path = config_path

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-dialog"):
            yield Markdown(help_text(self.key_rows, self.config_path), id="help-text")

    def on_mount(self) -> None:
        dialog = self.query_one("#help-dialog")
        dialog.border_title = _("Help")
        dialog.border_subtitle = _("escape closes")
        dialog.focus()
