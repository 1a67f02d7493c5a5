"""The Jaxpr pane: the program jit recorded, highlighted, with its host callbacks and captured constants called out."""

from __future__ import annotations

import re

from textual.content import Content

from jittrainer.app.widgets.panes.common import PaneContext, caption, lines, not_run
from jittrainer.grading.verdict import Verdict
from jittrainer.i18n import _, ljust
from jittrainer.i18n.message import render

CALLBACK_RE = re.compile(r"\b(debug_print|debug_callback|io_callback|pure_callback|callback)\b")
KEYWORD_RE = re.compile(r"\b(lambda|let|in)\b")
TYPE_RE = re.compile(r"\b(?:f|i|u|bf|c)(?:8|16|32|64|128)\[[^\]]*\]|\bbool\[[^\]]*\]")
PRIMITIVE_RE = re.compile(r"(?<== )[a-z_][a-z0-9_]*")
# In "{ lambda a:f32[3] b:i32[]; c:f32[16]. let", the variables before ";" are constants captured at trace time.
CONSTVARS_RE = re.compile(r"(?<=lambda )[^;.{}]+(?=;)")


def highlight(text: str) -> Content:
    content = Content(text)
    content = content.highlight_regex(KEYWORD_RE, style="italic $text-secondary")
    content = content.highlight_regex(TYPE_RE, style="$text-muted")
    content = content.highlight_regex(PRIMITIVE_RE, style="$text-primary")
    content = content.highlight_regex(CONSTVARS_RE, style="bold $text-warning")
    content = content.highlight_regex(CALLBACK_RE, style="bold reverse $text-warning")
    return content


def _caption() -> Content:
    return caption(_("The program jit recorded from your function (its jaxpr). Only what is in here runs on each "
                     "call: host callbacks are the only way back to Python, and captured constants were frozen in "
                     "while tracing."))


def render_jaxpr(verdict: Verdict | None, ctx: PaneContext) -> Content:
    if verdict is None:
        return lines(_caption(), "", not_run(ctx))
    jaxpr = verdict.jaxpr
    if jaxpr is None:
        why = (_("No jaxpr: your code failed before jit could trace it.") if verdict.status == "error"
               else _("No jaxpr: this exercise does not record one."))
        return lines(_caption(), "", Content.styled(why, "bold"))
    label = lambda text: (ljust(text, 11), "bold")  # noqa: E731
    parts: list[Content | str] = [_caption(), ""]
    if jaxpr.function:
        parts.append(Content.assemble(label(_("function")), render(jaxpr.function)))
    if jaxpr.callbacks:
        parts.append(Content.assemble(label(_("callbacks")), (", ".join(jaxpr.callbacks), "bold $text-warning"),
                                      ("  " + _("run on the host, on every call"), "$text-muted")))
    else:
        parts.append(Content.assemble(label(_("callbacks")), (_("none: nothing here calls back to Python at run "
                                                               "time"), "$text-muted")))
    if jaxpr.constants:
        parts.append(Content.assemble(label(_("constants")), (", ".join(jaxpr.constants), "bold $text-warning"),
                                      ("  " + _("captured while tracing: later changes are not seen"),
                                       "$text-muted")))
    else:
        parts.append(Content.assemble(label(_("constants")), (_("none captured"), "$text-muted")))
    if jaxpr.effects:
        parts.append(Content.assemble(label(_("effects")), ", ".join(jaxpr.effects)))
    if jaxpr.primitives:
        counts = "  ".join(f"{name}×{n}" for name, n in jaxpr.primitives.items())
        parts.append(Content.assemble(label(_("primitives")), (counts, "$text-muted")))
    return lines(*parts)


def render_jaxpr_code(verdict: Verdict | None) -> Content:
    if verdict is None or verdict.jaxpr is None:
        return Content("")
    return highlight(verdict.jaxpr.text)
