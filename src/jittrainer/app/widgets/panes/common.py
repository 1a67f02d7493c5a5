"""What the panel's panes share: the caption line each opens with, joining lines, and what the panes need to know
about the learner's keys and files (``PaneContext``), so no pane names a key the keymap has changed."""

from __future__ import annotations

from dataclasses import dataclass, field

from textual.content import Content

from jittrainer.i18n import _
from jittrainer.units import seconds  # noqa: F401  (the panes import it from here)


@dataclass
class PaneContext:
    run_key: str = "ctrl+r"
    hint_key: str = "ctrl+t"
    advice_key: str = "f5"
    next_key: str = "ctrl+n"
    aliases: dict[str, str] = field(default_factory=dict)  # the draft's full path -> what the learner knows it as
    locked_runs: int = 0  # failing runs left before the first failure's advice shows
    next_exercise: str = ""  # "05 The monitor screen" after a pass, when there is a next one
    limit_s: float | None = None  # the time limit of a grade of this exercise
    limit_from_manifest: bool = False  # the exercise's manifest sets it (else the grader's default)
    restored: str = ""  # the verdict on show is the last one of an earlier session: when, and what changed since


def caption(text: str) -> Content:
    """The dim line that says what a pane shows, for a learner who has never seen it."""
    return Content.styled(text, "italic $text-muted")


def lines(*parts: Content | str) -> Content:
    return Content("\n").join(Content(p) if isinstance(p, str) else p for p in parts)


def not_run(ctx: PaneContext) -> Content:
    return Content.styled(_("Press {key} to grade your draft.").format(key=ctx.run_key), "bold")
