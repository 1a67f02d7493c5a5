"""The review of a passing program on the command line: as text after the verdict, and as Exercism's analysis.json
(``check --analysis FILE``; the format is in docs/analysis.schema.json, from Exercism's analyzer interface)."""

from __future__ import annotations

from typing import Any

from jittrainer.cli.style import Style
from jittrainer.grading.review import Comment, Review
from jittrainer.grading.verdict import Verdict
from jittrainer.i18n import _
from jittrainer.i18n.message import Msg, render
from jittrainer.units import seconds

ICONS = {"celebratory": "★", "essential": "‼", "actionable": "→", "informative": "·"}
COMMENT_PREFIX = "jittrainer."  # an analysis.json comment is a pointer string: "jittrainer.review.cost.work"


def type_word(kind: str) -> str:
    return {"celebratory": _("celebratory"), "essential": _("essential"), "actionable": _("actionable"),
            "informative": _("informative")}[kind]


def print_review(review: Review, style: Style, platform: str = "cpu") -> None:
    print()
    print(style.bold(_("Review")) + "  " + render(review.summary))
    for comment in review.comments:
        paint = {"celebratory": style.ok, "essential": style.bad, "actionable": style.bold}.get(comment.type, style.dim)
        text = render(comment.message).replace("\n", "\n      ")
        print(f"  {paint(ICONS[comment.type])} {text}")
    source = {"cache": _("the reference's figures were cached"),
              "measured": _("the reference was measured now ({t})").format(t=seconds(review.reference_s)),
              "self": _("this is the reference solution")}.get(review.reference, "")
    parts = [_("review {t}").format(t=seconds(review.seconds))] + ([source] if source else [])
    if platform != "cpu":  # --device timed the steady state elsewhere: the review's figures are still the CPU's
        parts.append(_("its figures are from the CPU's simulated devices"))
    print(style.dim("  " + " · ".join(parts)))


def print_review_pending(style: Style) -> None:
    print(style.dim("  " + _("reviewing your program…")), flush=True)


def _param(value: Any) -> Any:
    if isinstance(value, Msg):
        return value.render()
    if isinstance(value, (list, tuple)):
        return ", ".join(str(_param(v)) for v in value)
    return value if isinstance(value, (int, float, str, bool)) or value is None else str(value)


def analysis_comment(comment: Comment) -> dict[str, Any]:
    """One comment as Exercism's analyzer interface has it: a pointer string, its params, its type. ``params.text``
    holds the whole comment, rendered in the learner's language, for readers without jittrainer's catalogs."""
    params = {str(k): _param(v) for k, v in comment.message.params.items()}
    params["text"] = render(comment.message)
    return {"comment": COMMENT_PREFIX + comment.id, "params": params, "type": comment.type}


def analysis_json(verdict: Verdict) -> dict[str, Any]:
    """Exercism's analysis.json: ``summary`` (plain text) and ``comments`` (typed). A verdict that did not pass, or
    was not reviewed, has a summary that says so and no comments."""
    review = verdict.review
    if review is None or review.status != "reviewed":
        if not verdict.passed:
            summary = _("Not reviewed: the program does not pass yet ({message}).").format(message=verdict.message)
        elif review is not None:
            summary = render(review.summary)
        else:
            summary = _("Not reviewed.")
        return {"summary": summary, "comments": []}
    return {"summary": render(review.summary), "comments": [analysis_comment(c) for c in review.comments]}
