"""Helpers the verdict panes share: seconds in human units and the caption line each pane opens with."""

from __future__ import annotations

from textual.content import Content

from jittrainer.core.units import plural, seconds  # noqa: F401  (the panes import them from here)


def caption(text: str) -> Content:
    """The dim line that says what a pane shows, for a learner who has never seen it."""
    return Content.styled(text, "italic $text-muted")


def lines(*parts: Content | str) -> Content:
    return Content("\n").join(Content(p) if isinstance(p, str) else p for p in parts)


NOT_RUN = "Press ctrl+r to grade your draft."
