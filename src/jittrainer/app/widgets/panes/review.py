"""The review of a passing program, at the top of the Why tab: the summary, each typed comment, and the figures it
rests on (the learner's program against the reference's)."""

from __future__ import annotations

from jittrainer.grading.review import ProgramMeasures, Review
from jittrainer.i18n import _
from jittrainer.i18n.message import render

ICONS = {"celebratory": "★ ", "essential": "‼ ", "actionable": "→ ", "informative": ""}


def _type_word(kind: str) -> str:
    return {"celebratory": _("well done"), "essential": _("fix this first"), "actionable": _("worth changing"),
            "informative": _("for your information")}[kind]


def _figure(value: float | int | None) -> str:
    return "–" if value is None else f"{value:,.0f}"


def figures_table(mine: ProgramMeasures, ref: ProgramMeasures | None) -> str:
    rows = [(_("compiles"), "compiles"), (_("traces"), "traces"), (_("equations (nested included)"), "eqns"),
            (_("flops (XLA's estimate)"), "flops"), (_("bytes read and written"), "bytes_accessed"),
            (_("temporary bytes"), "temp_bytes")]
    yours, reference = _("your program"), _("the reference")
    head = f"| | {yours} | {reference} |\n|---|--:|--:|"
    body = [f"| {label} | {_figure(getattr(mine, name))} | {_figure(getattr(ref, name) if ref else None)} |"
            for label, name in rows if getattr(mine, name) is not None]
    return "\n".join([head, *body]) if body else ""


def review_markdown(review: Review | None, pending: bool = False) -> str:
    """The review's section of the Why tab ("" when there is none)."""
    title = "## " + _("Review of your program")
    if pending:
        return f"{title}\n\n*" + _("Reviewing your program: its cost against the reference, and its approach…") + "*"
    if review is None:
        return ""
    parts = [title, "**" + render(review.summary) + "**"]
    items = [f"- {ICONS[c.type]}*{_type_word(c.type)}* — {render(c.message)}" for c in review.comments]
    if items:
        parts.append("\n".join(items))
    if review.measures is not None and review.status == "reviewed":
        table = figures_table(review.measures, review.reference_measures)
        if table:
            parts.append(table)
    return "\n\n".join(parts)
