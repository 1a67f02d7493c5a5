"""The Output pane: what the learner's code printed, call by call (``jax.debug.print`` included)."""

from __future__ import annotations

from textual.content import Content

from jittrainer.app.widgets.panes.common import NOT_RUN, caption, lines
from jittrainer.core.verdict import Verdict

# The engine keeps up to 64 KiB (plus raw process output); wrapping that much text costs the UI seconds, and a
# flood says all it has to say in its first lines.
SHOWN_CHARS = 16 * 1024
SHOWN_LINES = 400

CAPTION = ("What your code printed, per graded call. Python's print runs while jit traces (once, showing "
           "tracers); jax.debug.print runs on every call with real values.")


def render_output(verdict: Verdict | None) -> Content:
    if verdict is None:
        return lines(caption(CAPTION), "", NOT_RUN)
    parts: list[Content | str] = [caption(CAPTION), ""]
    sections = [(s.label, s.text) for s in verdict.output_sections]
    if not sections and verdict.output:
        sections = [("output", verdict.output)]
    if not sections:
        parts.append(Content.styled("Your code printed nothing during grading.", "bold"))
        return lines(*parts)
    budget = SHOWN_CHARS
    for label, text in sections:
        parts.append(Content.styled(f"── {label} ──", "bold $text-accent"))
        text = text.rstrip("\n")
        cut = min(budget, len(text))
        newline_at = -1
        for _ in range(SHOWN_LINES):
            newline_at = text.find("\n", newline_at + 1)
            if newline_at < 0 or newline_at >= cut:
                break
        else:
            cut = newline_at
        if cut < len(text):
            text = text[:cut] + f"\n[… {len(text) - cut:,} more characters not shown here]"
        budget = max(budget - cut, 0)
        parts.append(Content(text) if text else caption("(nothing)"))
    if verdict.output_truncated:
        parts += ["", caption("The output was cut: your code printed more than the grader keeps.")]
    return lines(*parts)
