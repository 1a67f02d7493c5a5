"""The draft editor: Textual's code editor, plus what a Python learner expects of one (indent after a colon, block
indent and dedent, backspace to the previous indent stop, a Home key that toggles between the first non-blank and
column 0, comment toggling, find, go to line) and a mark on the line where the learner's code failed.

Keys typed in a burst are applied in the order they were typed: the bindings run inline in ``_on_key`` (see
``jittrainer.app.keyorder``).

The mark is drawn through ``TextArea._build_highlight_map`` and ``_highlights``, which are private in Textual; that
is why pyproject pins textual exactly. The mark goes as soon as the marked line is edited or lines move.
"""

from __future__ import annotations

import dataclasses
import re

from rich.style import Style
from textual import events
from textual.widgets import TextArea
from textual.widgets.text_area import Selection, TextAreaTheme

from jittrainer.app.keyorder import run_bindings_inline
from jittrainer.app.keys import EDITOR_KEYS, bindings

ERROR_HIGHLIGHT = "jittrainer.error_line"
DARK_THEME = "jittrainer-dark"
LIGHT_THEME = "jittrainer-light"
INDENT = "    "
INDENT_WIDTH = len(INDENT)
OPENS_BLOCK = re.compile(r":\s*(#.*)?$")


def _theme(base_name: str, name: str, error_bg: str) -> TextAreaTheme:
    base = TextAreaTheme.get_builtin_theme(base_name)
    assert base is not None
    # get_builtin_theme returns the shared instance: copy, never mutate it.
    return dataclasses.replace(
        base, name=name, syntax_styles={**base.syntax_styles, ERROR_HIGHLIGHT: Style(bgcolor=error_bg)}
    )


def indent_lines(lines: list[str]) -> list[str]:
    """One level more on every non-blank line."""
    return [INDENT + ln if ln.strip() else ln for ln in lines]


def dedent_lines(lines: list[str]) -> list[str]:
    """One level less on every line: up to one indent of leading spaces (or one tab), to the previous stop."""
    out = []
    for ln in lines:
        if ln.startswith("\t"):
            out.append(ln[1:])
            continue
        spaces = len(ln) - len(ln.lstrip(" "))
        remove = min(spaces, (spaces - 1) % INDENT_WIDTH + 1) if spaces else 0
        out.append(ln[remove:])
    return out


def previous_stop(col: int) -> int:
    """The indent stop left of column ``col`` (> 0): 7 -> 4, 8 -> 4, 4 -> 0."""
    return (col - 1) // INDENT_WIDTH * INDENT_WIDTH


def toggle_comment_lines(lines: list[str]) -> list[str]:
    """Comment every line out at the block's indentation, or, when all non-blank ones are comments, uncomment."""
    code = [ln for ln in lines if ln.strip()]
    if not code:
        return lines
    if all(ln.lstrip().startswith("#") for ln in code):
        return [re.sub(r"^(\s*)# ?", r"\1", ln, count=1) if ln.strip() else ln for ln in lines]
    indent = min(len(ln) - len(ln.lstrip()) for ln in code)
    return [ln[:indent] + "# " + ln[indent:] if ln.strip() else ln for ln in lines]


class DraftEditor(TextArea):
    """Build it with ``DraftEditor.code_editor(language="python")``: Textual's code-editor defaults, this class."""

    opens_dialogs = False  # True where the screen opens the find bar and the go-to dialog (FindRequested, ...)

    def __init__(self, *args, **kwargs) -> None:
        # Before super().__init__: it builds the highlight map, which reads the mark.
        self.error_row: int | None = None
        self._marked = ("", 0)  # the marked line's text and the line count when it was marked
        super().__init__(*args, **kwargs)
        self.register_theme(_theme("monokai", DARK_THEME, "#6b1a1a"))
        self.register_theme(_theme("github_light", LIGHT_THEME, "#ffd0d0"))
        self.theme = DARK_THEME
        self.localize()

    def localize(self) -> None:
        """(Re)build the editor's key bindings with descriptions in the current language."""
        from textual.binding import BindingsMap

        inherited = [b for keyed in TextArea._merged_bindings.key_to_bindings.values() for b in keyed]
        self._bindings = BindingsMap([*inherited, *bindings(EDITOR_KEYS)])

    def use_dark(self, dark: bool) -> None:
        self.theme = DARK_THEME if dark else LIGHT_THEME

    # -- the error mark --------------------------------------------------------------------------------------

    def _build_highlight_map(self) -> None:
        super()._build_highlight_map()
        row = self.error_row
        if row is not None and row < self.document.line_count:
            # Prepended so syntax colours still apply on top of the background.
            self._highlights[row].insert(0, (0, None, ERROR_HIGHLIGHT))

    def mark_error(self, line: int, col: int | None = None, *, move: bool = True) -> None:
        """Mark 1-based ``line`` until it is edited. With ``move``, also put the cursor there (an explicit run);
        without it (live grading while the learner types) neither the cursor nor the view moves."""
        row = min(max(line - 1, 0), max(self.document.line_count - 1, 0))
        self.error_row = row
        self._marked = (self.document.get_line(row), self.document.line_count)
        self._build_highlight_map()
        if move:
            column = min(max((col or 1) - 1, 0), len(self.document.get_line(row)))
            self.selection = Selection.cursor((row, column))
            # Centre the line vertically only: centring on the column would scroll the code sideways.
            self.scroll_to(x=0, y=max(row - self.scrollable_content_region.height // 2, 0), animate=False,
                           immediate=True)
            self.scroll_cursor_visible()
        self.refresh()

    def clear_error(self) -> None:
        if self.error_row is not None:
            self.error_row = None
            self._build_highlight_map()
            self.refresh()

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        row = self.error_row
        if row is None:
            return
        text, count = self._marked
        if self.document.line_count != count or row >= count or self.document.get_line(row) != text:
            self.clear_error()

    # -- comforts --------------------------------------------------------------------------------------------

    async def _on_key(self, event: events.Key) -> None:
        hold = getattr(self.app, "key_hold", None)
        if hold is not None and hold.holding:
            # Forwarded here before an earlier key moved the focus: it goes where the focus lands, in order.
            event.stop()
            event.prevent_default()
            hold.divert(event)
            return
        if event.key == "escape":
            event.stop()
            event.prevent_default()
            if hold is not None:
                hold.hold(self)
            self.screen.focus_next()
            if hold is not None:
                hold.release()
            return
        if event.key == "enter" and not self.read_only:
            event.stop()
            event.prevent_default()
            self._restart_blink()
            row, col = self.cursor_location
            line = self.document.get_line(row)
            indent = line[: len(line) - len(line.lstrip())]
            if OPENS_BLOCK.search(line[:col]):
                indent += INDENT
            self.replace("\n" + indent, *self.selection)
            return
        if not event.is_printable and await run_bindings_inline(self, event):
            self._restart_blink()
            return
        await super()._on_key(event)

    # -- Python indentation ----------------------------------------------------------------------------------

    def _selected_rows(self) -> tuple[int, int]:
        start, end = sorted((self.selection.start, self.selection.end))
        first, last = start[0], end[0]
        if end[1] == 0 and last > first:
            last -= 1  # a selection ending at column 0 does not include that line
        return first, last

    def _rewrite_rows(self, first: int, last: int, new: list[str], *, keep_selection: bool) -> None:
        old = [self.document.get_line(r) for r in range(first, last + 1)]
        if new == old:
            return
        (start_row, start_col), (end_row, end_col) = self.selection.start, self.selection.end
        shift = {first + i: len(n) - len(o) for i, (o, n) in enumerate(zip(old, new))}
        self.replace("\n".join(new), (first, 0), (last, len(old[-1])))

        def moved(row: int, col: int) -> tuple[int, int]:
            if row not in shift or col == 0:  # a selection from column 0 keeps taking whole lines
                return row, col
            return row, max(0, min(col + shift[row], len(new[row - first])))

        if keep_selection:
            self.selection = Selection(moved(start_row, start_col), moved(end_row, end_col))
        else:
            self.selection = Selection.cursor(moved(end_row, end_col))

    def action_indent(self) -> None:
        """Tab: with a selection, indent its lines one level (the text stays, the selection grows with it);
        without one, spaces to the next indent stop."""
        if self.read_only:
            return
        if self.selection.is_empty:
            row, col = self.cursor_location
            self.replace(" " * (INDENT_WIDTH - col % INDENT_WIDTH), (row, col), (row, col),
                         maintain_selection_offset=False)
            return
        first, last = self._selected_rows()
        lines = [self.document.get_line(r) for r in range(first, last + 1)]
        self._rewrite_rows(first, last, indent_lines(lines), keep_selection=True)

    def action_dedent(self) -> None:
        """Shift+tab: the selected lines (or the cursor's line) one level less."""
        if self.read_only:
            return
        first, last = self._selected_rows()
        lines = [self.document.get_line(r) for r in range(first, last + 1)]
        self._rewrite_rows(first, last, dedent_lines(lines), keep_selection=not self.selection.is_empty)

    def action_delete_left(self) -> None:
        """Backspace: in the leading whitespace, back to the previous indent stop; elsewhere one character."""
        if self.read_only:
            return
        if self.selection.is_empty:
            row, col = self.cursor_location
            before = self.document.get_line(row)[:col]
            if col > 0 and before.strip(" ") == "":
                self._delete_via_keyboard((row, previous_stop(col)), (row, col))
                return
        super().action_delete_left()

    def action_cursor_line_start(self, select: bool = False) -> None:
        """Home: to the first non-blank character; pressed there, to column 0 (and back again). On a soft-wrapped
        line, past its first row, to the start of the row."""
        row, col = self.cursor_location
        line = self.document.get_line(row)
        if self.soft_wrap:
            target = self.navigator.get_location_home(self.cursor_location)
            if target[1] > 0:
                self.move_cursor(target, select=select)
                return
        first = len(line) - len(line.lstrip())
        self.move_cursor((row, 0 if col == first and first > 0 else first), select=select)

    def action_toggle_comment(self) -> None:
        if self.read_only:
            return
        start, end = sorted((self.selection.start, self.selection.end))
        first, last = start[0], end[0]
        if end[1] == 0 and last > first:
            last -= 1  # a selection ending at column 0 does not include that line
        lines = [self.document.get_line(r) for r in range(first, last + 1)]
        new = toggle_comment_lines(lines)
        if new != lines:
            self.replace("\n".join(new), (first, 0), (last, len(lines[-1])))
            self.selection = Selection((first, 0), (last, len(new[-1])))

    def action_toggle_wrap(self) -> None:
        self.soft_wrap = not self.soft_wrap
        self.post_message(self.WrapToggled(self.soft_wrap))

    def action_find(self) -> None:
        self._hold_keys()  # what is typed next goes into the find bar, once it has the focus
        self.post_message(self.FindRequested())

    def action_goto_line(self) -> None:
        self._hold_keys()  # what is typed next goes into the dialog, once it has the focus
        self.post_message(self.GotoRequested())

    def _hold_keys(self) -> None:
        """Hold the keys typed next for the find bar or the go-to dialog; the screen that opens it settles the
        claim once it has (``opens_dialogs``: the main screen handles these requests, the interview's does not)."""
        hold = getattr(self.app, "key_hold", None)
        if hold is not None and self.opens_dialogs:
            hold.hold(self)
            hold.claim()

    def find_next(self, needle: str, *, from_cursor: bool = True) -> bool:
        """Select the next match of ``needle`` (case-insensitive, wrapping around); False if there is none."""
        if not needle:
            return False
        text = self.text
        lower, target = text.lower(), needle.lower()
        offset = self._offset(self.selection.end) if from_cursor else 0
        at = lower.find(target, offset)
        if at < 0:
            at = lower.find(target)
        if at < 0:
            return False
        start, end = self._location(at), self._location(at + len(needle))
        self.selection = Selection(start, end)
        self.scroll_cursor_visible()
        return True

    def go_to(self, line: int) -> None:
        row = min(max(line - 1, 0), self.document.line_count - 1)
        self.selection = Selection.cursor((row, 0))
        self.scroll_to(x=0, y=max(row - self.scrollable_content_region.height // 2, 0), animate=False, immediate=True)
        self.scroll_cursor_visible()

    def _offset(self, location: tuple[int, int]) -> int:
        row, col = location
        return sum(len(self.document.get_line(r)) + 1 for r in range(row)) + col

    def _location(self, offset: int) -> tuple[int, int]:
        row = 0
        while row < self.document.line_count:
            length = len(self.document.get_line(row))
            if offset <= length:
                return row, offset
            offset -= length + 1
            row += 1
        last = self.document.line_count - 1
        return last, len(self.document.get_line(last))

    # -- messages --------------------------------------------------------------------------------------------

    class FindRequested(events.Message):
        pass

    class GotoRequested(events.Message):
        pass

    class WrapToggled(events.Message):
        def __init__(self, soft_wrap: bool) -> None:
            super().__init__()
            self.soft_wrap = soft_wrap
