"""The draft editor: Textual's code editor plus a mark on the line where the learner's code failed.

The mark is drawn through ``TextArea._build_highlight_map`` and ``_highlights``, which are private in Textual; that
is why pyproject pins textual exactly. The mark survives cursor moves and edits on other lines, and is cleared when
the line count changes (the marked row would then point at the wrong code).
"""

from __future__ import annotations

import dataclasses

from rich.style import Style
from textual.widgets import TextArea
from textual.widgets.text_area import Selection, TextAreaTheme

ERROR_HIGHLIGHT = "jittrainer.error_line"
DARK_THEME = "jittrainer-dark"
LIGHT_THEME = "jittrainer-light"


def _theme(base_name: str, name: str, error_bg: str) -> TextAreaTheme:
    base = TextAreaTheme.get_builtin_theme(base_name)
    assert base is not None
    # get_builtin_theme returns the shared instance: copy, never mutate it.
    return dataclasses.replace(
        base, name=name, syntax_styles={**base.syntax_styles, ERROR_HIGHLIGHT: Style(bgcolor=error_bg)}
    )


class DraftEditor(TextArea):
    """Build it with ``DraftEditor.code_editor(language="python")``: Textual's code-editor defaults, this class."""

    def __init__(self, *args, **kwargs) -> None:
        # Before super().__init__: it builds the highlight map, which reads the mark.
        self.error_row: int | None = None
        self._marked_line_count = 0
        super().__init__(*args, **kwargs)
        self.register_theme(_theme("monokai", DARK_THEME, "#6b1a1a"))
        self.register_theme(_theme("github_light", LIGHT_THEME, "#ffd0d0"))
        self.theme = DARK_THEME

    def use_dark(self, dark: bool) -> None:
        self.theme = DARK_THEME if dark else LIGHT_THEME

    def _build_highlight_map(self) -> None:
        super()._build_highlight_map()
        row = self.error_row
        if row is not None and row < self.document.line_count:
            # Prepended so syntax colours still apply on top of the background.
            self._highlights[row].insert(0, (0, None, ERROR_HIGHLIGHT))

    def mark_error(self, line: int, col: int | None = None) -> None:
        """Put the cursor on 1-based ``line`` (and ``col``), centred, and mark the line until it is fixed."""
        row = min(max(line - 1, 0), max(self.document.line_count - 1, 0))
        self.error_row = row
        self._marked_line_count = self.document.line_count
        self._build_highlight_map()
        column = max((col or 1) - 1, 0)
        column = min(column, len(self.document.get_line(row)))
        self.selection = Selection.cursor((row, column))
        # Centre the line vertically only: centring on the column would scroll the code sideways.
        self.scroll_to(y=max(row - self.scrollable_content_region.height // 2, 0), animate=False, immediate=True)
        self.scroll_cursor_visible()
        self.refresh()

    def clear_error(self) -> None:
        if self.error_row is not None:
            self.error_row = None
            self._build_highlight_map()
            self.refresh()

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        if self.error_row is not None and self.document.line_count != self._marked_line_count:
            self.clear_error()
