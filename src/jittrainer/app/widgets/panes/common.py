"""Helpers the verdict panes share: seconds in human units and the caption line each pane opens with."""

from __future__ import annotations

from textual.content import Content


def seconds(value: float | None) -> str:
    if value is None:
        return "—"
    if value < 1e-3:
        return f"{value * 1e6:.1f} µs"
    if value < 1:
        return f"{value * 1e3:.1f} ms"
    return f"{value:.2f} s"


def caption(text: str) -> Content:
    """The dim line that says what a pane shows, for a learner who has never seen it."""
    return Content.styled(text, "italic $text-muted")


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def lines(*parts: Content | str) -> Content:
    return Content("\n").join(Content(p) if isinstance(p, str) else p for p in parts)


NOT_RUN = "Press ctrl+r to grade your draft."
