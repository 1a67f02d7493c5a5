"""The Output pane: what the learner's code printed, call by call (``jax.debug.print`` included), saying which calls
printed nothing: for a print inside jit, that silence is the whole lesson."""

from __future__ import annotations

from textual.content import Content

from jittrainer.app.widgets.panes.common import PaneContext, caption, lines, not_run
from jittrainer.grading.host.untrusted import visible
from jittrainer.grading.labels import section_label
from jittrainer.grading.verdict import Verdict
from jittrainer.i18n import _

# The engine keeps up to 64 KiB (plus raw process output); wrapping that much text costs the UI seconds, and a
# flood says all it has to say in its first lines.
SHOWN_CHARS = 16 * 1024
SHOWN_LINES = 400


def render_output(verdict: Verdict | None, ctx: PaneContext) -> Content:
    # What happened, not the fix: the API that prints on every call is exercise 1's lesson, for its hints to give.
    head = caption(_("What your code printed, per graded call. Python's print runs while jit traces (once, showing "
                     "tracers), not on every call."))
    if verdict is None:
        return lines(head, "", not_run(ctx))
    parts: list[Content | str] = [head, ""]
    sections = [(s.label, s.text, s.dropped) for s in verdict.output_sections]
    if not sections and verdict.output:
        sections = [("output", verdict.output, 0)]
    if not any(text.strip() for _label, text, _dropped in sections):
        parts.append(Content.styled(_("Your code printed nothing during grading."), "bold"))
        if sections:
            parts.append(caption(_("Not one of the graded calls printed anything.")))
        return lines(*parts)
    silent = [label for label, text, _dropped in sections if label.startswith("call ") and not text.strip()]
    if silent:
        parts.append(Content.styled(_("Printed nothing: {calls}").format(
            calls=", ".join(section_label(label) for label in silent)), "bold $text-warning"))
        parts.append("")
    budget = SHOWN_CHARS
    for label, text, dropped in sections:
        parts.append(Content.styled(f"── {section_label(label)} ──", "bold $text-accent"))
        text = text.rstrip("\n")
        if not text:
            parts.append(caption(_("(printed nothing)")))
            continue
        cut = min(budget, len(text))
        newline_at = -1
        for _i in range(SHOWN_LINES):
            newline_at = text.find("\n", newline_at + 1)
            if newline_at < 0 or newline_at >= cut:
                break
        else:
            cut = newline_at
        if cut < len(text) or dropped:  # what the pane leaves out, and what the worker never kept
            text = text[:cut] + "\n" + _("[… {n} more characters not shown here]").format(
                n=f"{len(text) - cut + dropped:,}")
        budget = max(budget - cut, 0)
        parts.append(Content(visible(text)))  # the host made it visible already; a verdict from elsewhere too
    if verdict.output_truncated:
        parts += ["", caption(_("The output was cut: your code printed more than the grader keeps."))]
    return lines(*parts)
