"""Every key of the main screen, with its binding id: the one list the screen binds, F1 lists and any text that
names a key reads (through ``key_for``), so a ``[keymap]`` remap in the config shows everywhere.

Defaults are keys terminals deliver inside tmux and screen: no ctrl+b (tmux's prefix), no shift+F-keys (tmux
sends shift+F3 as F15), no ctrl+/ alone (most terminals send ctrl+_ for it). Descriptions are marked with ``N_``
and translated when the bindings are built, so a language switch rebuilds them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from textual.binding import Binding, BindingsMap
from textual.dom import DOMNode

from jittrainer.i18n import N_, _


@dataclass(frozen=True)
class Key:
    id: str
    keys: str
    action: str
    description: str
    tooltip: str
    show: bool = True
    priority: bool = False


MAIN_KEYS: tuple[Key, ...] = (
    Key("run", "ctrl+r", "run", N_("Run"), N_("Grade the editor's text in a worker process (stops a run in flight)")),
    Key("scratch-run", "f6", "scratch_run", N_("Try"),
        N_("Scratch run: run the draft as a program, its example block included, ungraded and not recorded; the "
           "Output, Jaxpr and Recompiles tabs show what it printed, traced and compiled"), priority=True),
    # Not in the footer (80 columns hold nine keys): a pass names it in the panel's title and the Checks tab.
    Key("next-exercise", "ctrl+n,alt+right", "next_exercise", N_("Next"), N_("Open the next exercise"), show=False),
    Key("previous-exercise", "alt+left", "previous_exercise", N_("Prev"), N_("Open the previous exercise"),
        show=False),
    Key("hint", "ctrl+t", "hint", N_("Hint"), N_("Show the next hint tier (recorded in your progress)")),
    Key("advice", "f5", "advice", N_("Advice"), N_("Show the advice for the failing check now (recorded)"),
        show=False),
    Key("live-grading", "ctrl+l", "toggle_live", N_("Live"),
        N_("Toggle live grading: grade again when you stop typing"), show=False),
    Key("help", "f1", "help", N_("Help"), N_("Every key, the panes, how grading works")),
    Key("exercises", "f2", "toggle_sidebar", N_("List"), N_("Show or hide the exercise list")),
    Key("next-pane", "f3", "cycle_pane(1)", N_("Panes"),
        N_("Show the next tab: Task, Hints, Checks, Output, Jaxpr, Timing, Recompiles, Why")),
    Key("previous-pane", "f4", "cycle_pane(-1)", N_("Prev pane"), N_("Show the previous tab"), show=False),
    Key("zoom", "f8", "zoom", N_("Zoom"), N_("Fill the screen with the editor or the panel, whichever has the focus "
                                            "(F8 or escape restores)"), show=False),
    Key("panel-page-down", "alt+pagedown,alt+down", "scroll_panel('page_down')", N_("Scroll"),
        N_("Scroll the panel's tab down a page, from anywhere (the focus stays where it is)")),
    Key("panel-page-up", "alt+pageup,alt+up", "scroll_panel('page_up')", N_("Scroll up"),
        N_("Scroll the panel's tab up a page, from anywhere"), show=False),
    Key("focus-editor", "escape", "focus_editor", N_("Editor"),
        N_("From the panel or the exercise list: back to the editor"), show=False),
    Key("drill", "f9", "drill", N_("Drill"), N_("A round of interview drill cards (predict the output)"),
        show=False),
    Key("interview", "f10", "interview", N_("Interview"),
        N_("A 45-minute mock interview: warm-up cards, an exercise and its follow-up, a debugging task, rapid "
           "questions"),
        show=False),
    Key("external-editor", "ctrl+o", "external_editor", N_("Editor"), N_("Open the draft in $VISUAL / $EDITOR; "
                                                                         "the app reloads it when you return"),
        show=False),
    Key("quit", "ctrl+q", "quit", N_("Quit"), N_("Save the draft and quit"), priority=True),
)

EDITOR_KEYS: tuple[Key, ...] = (
    Key("indent", "tab", "indent", N_("Indent"),
        N_("Indent the selected lines one level (no selection: spaces to the next indent stop)"), show=False),
    Key("dedent", "shift+tab", "dedent", N_("Dedent"), N_("Dedent the selected lines, or the cursor's line, one level"),
        show=False),
    Key("find", "ctrl+f", "find", N_("Find"), N_("Find text in the draft (enter: next match, escape: close)"),
        show=False),
    Key("goto-line", "ctrl+g", "goto_line", N_("Go to line"), N_("Jump to a line number"), show=False),
    Key("toggle-comment", "ctrl+underscore,ctrl+slash", "toggle_comment", N_("Comment"),
        N_("Comment or uncomment the line or the selected lines (ctrl+/ in most terminals)"), show=False),
    Key("soft-wrap", "alt+z", "toggle_wrap", N_("Wrap"), N_("Wrap long lines in the editor, or not"), show=False),
)

# What the editor itself does (Textual's TextArea), for F1.
EDITOR_BUILTIN = (
    ("ctrl+z / ctrl+y", N_("undo / redo")),
    ("ctrl+x / ctrl+c / ctrl+v", N_("cut / copy / paste")),
    ("F7", N_("select everything (F6 is the scratch run here)")),
    ("backspace", N_("in the indentation: back to the previous indent stop (4 spaces)")),
    ("home", N_("to the first non-blank character; again: to column 0 (shift+home selects)")),
    ("escape", N_("leave the editor: the focus moves to the panel (tab / shift+tab then move between panes, "
                  "escape comes back)")),
    ("enter", N_("new line, indented like the one above (one level more after a colon)")),
)

# Keys of the panel while it has the focus, for F1 (the panel binds them: ``InfoPanel.BINDINGS``).
PANEL_KEYS: tuple[Key, ...] = (
    Key("panel.scroll-down", "down,j", "scroll('down')", N_("Scroll"), N_("Panel: scroll the tab down a line"),
        show=False),
    Key("panel.scroll-up", "up,k", "scroll('up')", N_("Scroll up"), N_("Panel: scroll the tab up a line"), show=False),
    Key("panel.page-down", "pagedown,space", "scroll('page_down')", N_("Page down"),
        N_("Panel: scroll the tab down a page"), show=False),
    Key("panel.page-up", "pageup", "scroll('page_up')", N_("Page up"), N_("Panel: scroll the tab up a page"),
        show=False),
    Key("panel.top", "home", "scroll('home')", N_("Top"), N_("Panel: to the top of the tab"), show=False),
    Key("panel.bottom", "end", "scroll('end')", N_("Bottom"), N_("Panel: to the bottom of the tab"), show=False),
)


def bindings(keys: tuple[Key, ...]) -> list[Binding]:
    """The bindings in the current language."""
    return [Binding(k.keys, k.action, _(k.description), show=k.show, tooltip=_(k.tooltip), id=k.id,
                    priority=k.priority) for k in keys]


def translate_bindings(node: DOMNode) -> None:
    """A class's BINDINGS are made at import, in English (their words marked with N_): put the node's copy in the
    current language, so the footer speaks it."""
    english = node.__dict__.setdefault("_english_bindings", node._bindings)  # again on a language switch
    node._bindings = BindingsMap.from_keys({
        key: [replace(b, description=_(b.description) if b.description else "",
                      tooltip=_(b.tooltip) if b.tooltip else "") for b in found]
        for key, found in english.key_to_bindings.items()})


def relabel(node: DOMNode, binding_id: str, description: str) -> None:
    """Give one of the node's bindings another footer label (already translated), for this node only."""
    node._bindings = BindingsMap.from_keys({
        key: [replace(b, description=description) if b.id == binding_id else b for b in found]
        for key, found in node._bindings.key_to_bindings.items()})


def key_for(binding_id: str, keymap: dict[str, str]) -> str:
    """The first key now bound to ``binding_id`` (the learner's keymap wins), for texts that name it."""
    for k in (*MAIN_KEYS, *EDITOR_KEYS, *PANEL_KEYS):
        if k.id == binding_id:
            return keymap.get(binding_id, k.keys).split(",")[0]
    return binding_id


def key_rows(keymap: dict[str, str]) -> list[tuple[str, str, str]]:
    """(keys, what they do, binding id) for F1, in the learner's current keymap and language."""
    rows = []
    for k in (*MAIN_KEYS, *EDITOR_KEYS, *PANEL_KEYS):
        keys = keymap.get(k.id, k.keys)
        rows.append((keys.replace(",", ", "), _(k.tooltip), k.id))
    rows.append(("ctrl+p", _("Command palette: open any exercise, reset, reveal the solution, language, theme, …"), ""))
    return rows
