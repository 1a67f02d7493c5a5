"""The Recompiles pane: every backend compile during the graded calls, and why it happened, in plain words."""

from __future__ import annotations

from collections import Counter

from textual.content import Content

from jittrainer.app.widgets.panes.common import NOT_RUN, caption, lines, plural
from jittrainer.core.verdict import Verdict

CAPTION = ("jit compiles once per new input shape, dtype, static value or function. Each compile below says "
           "what was new. Many compiles usually mean something changes on every call.")


def why(reason: str) -> str:
    """The general part of a reason ("s changed from f32[3] to f32[4]: a new shape ..." -> "a new shape ...")."""
    return reason.rsplit(": ", 1)[-1] if ": " in reason else reason


def render_recompiles(verdict: Verdict | None) -> Content:
    if verdict is None:
        return lines(caption(CAPTION), "", NOT_RUN)
    parts: list[Content | str] = [caption(CAPTION), ""]
    if verdict.compiles is None:
        parts.append(Content.styled("No graded call ran, so nothing was compiled.", "bold"))
        return lines(*parts)
    summary = f"{plural(verdict.traces or 0, 'trace')}, {plural(verdict.compiles, 'compile')} over the graded calls"
    parts.append(Content.styled(summary, "bold"))
    if not verdict.cache_misses:
        if verdict.compiles == 0:
            parts.append(caption("Nothing new was compiled: every call reused a compiled program."))
        return lines(*parts)
    if len(verdict.cache_misses) > 3:
        # A storm: say what keeps happening before the long list.
        groups = Counter(why(miss.reason) for miss in verdict.cache_misses)
        parts.append("")
        parts.append(Content.styled("Why, in short:", "bold"))
        for reason, n in groups.most_common(4):
            parts.append(Content.assemble((f"  {n}×", "bold $text-accent"), f" {reason}"))
    width = len(str(len(verdict.cache_misses)))
    for n, miss in enumerate(verdict.cache_misses, 1):
        where = f"call {miss.call}" if miss.call is not None else "outside the graded calls"
        parts.append("")
        parts.append(Content.assemble((f"#{n:<{width}} ", "bold $text-accent"), (miss.function, "bold"),
                                      (f"  {where}", "$text-muted")))
        parts.append(Content(f"{' ' * (width + 2)}{miss.reason}"))
    return lines(*parts)
