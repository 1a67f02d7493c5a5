"""Code blocks in the lesson panes (Task, Hints, Why) that show every character at any width.

Textual's code block (``MarkdownFence``) never wraps and scrolls sideways only with a mouse; in the panel left and
right switch tabs, so a long line was cut at the pane's edge. The statements quote JAX's errors in code blocks, the
very text the learner is about to meet, and they ended mid-word (``…while trying to hash an object of``). Here a line
longer than the pane is folded at its edge and each continuation starts with a dim ``↪``, so it reads as one line
of code, not two.
"""

from __future__ import annotations

from textual import events
from textual.content import Content
from textual.widgets import Markdown
from textual.widgets._markdown import MarkdownFence

MARK = "↪ "
PADDING = 4  # the block's Label pads its code by 2 cells on each side (MarkdownFence's DEFAULT_CSS)


def fold_code(code: Content, width: int) -> Content:
    """``code`` with every line longer than ``width`` cells folded, continuations marked."""
    if width < 8:
        return code
    lines: list[Content] = []
    for line in code.split("\n", allow_blank=True):
        if line.cell_length <= width:
            lines.append(line)
            continue
        first, *rest = line.fold(width)
        lines.append(first)
        if rest:
            for piece in Content("").join(rest).fold(width - len(MARK)):
                lines.append(Content.assemble((MARK, "dim"), piece))
    return Content("\n").join(lines)


class WrappedFence(MarkdownFence):
    """A code block folded to its width (the pane's), each continuation marked with ``↪``."""

    DEFAULT_CSS = """
    WrappedFence {
        overflow: hidden hidden;
    }
    """

    def _folded(self) -> Content:
        return fold_code(self._highlighted_code, self.size.width - PADDING)

    def set_content(self, content: Content) -> None:
        self._highlighted_code = content
        super().set_content(self._folded())

    def on_resize(self, event: events.Resize) -> None:
        super().set_content(self._folded())


class LessonMarkdown(Markdown):
    """The Markdown of the lesson panes: its code blocks fold instead of running off the pane."""

    BLOCKS = {**Markdown.BLOCKS, "fence": WrappedFence, "code_block": WrappedFence}
