"""What the learner reads besides the verdict, as Markdown: the task, the hints taken so far, and (after a pass or
a reveal) why the fix works, with the learner's code set beside the reference solution."""

from __future__ import annotations

import difflib

from jittrainer.course.exercises import Exercise, Hint
from jittrainer.i18n import _


def unavailable_markdown(exercise: Exercise, title: str) -> str:
    if not exercise.problems:  # sound, but written for other JAX releases than this one
        return (f"# {title}\n\n" + _("**This exercise does not apply to your JAX**: it was {reason}. Its lesson "
                                      "depends on how that JAX behaves.").format(reason=exercise.unavailable_reason())
                + "\n\n" + _("Pick another exercise from the list (F2). `jittrainer doctor` shows your JAX."))
    problems = "\n".join(f"- `{p}`" for p in exercise.problems)
    return (f"# {title}\n\n"
            + _("**This exercise is unavailable**: its folder `{folder}` is incomplete or malformed, so it cannot be "
                "graded yet. This is a problem with the course, not with your code.").format(folder=exercise.dir.name)
            + f"\n\n{problems}\n\n"
            + _("Pick another exercise from the list (F2). `jittrainer validate` lists the same problems."))


def fallback_note() -> str:
    return "*" + _("This text is not translated yet; it is shown in English.") + "*\n\n"


def hints_markdown(hints: list[Hint], shown: int, key: str) -> str:
    if not hints:
        return "*" + _("This exercise has no hints.") + "*"
    heading = _("Hint {level} of {total}: {title}")
    parts = [f"## {heading.format(level=h.level, total=len(hints), title=h.heading)}\n\n{h.body}"
             for h in hints[:shown]]
    if shown < len(hints):
        what = _("the first hint") if shown == 0 else _("the next hint")
        parts.append("*" + _("Press **{key}** for {what} ({left} of {total} left). Hints come one tier at a time, from "
                             "a nudge to nearly the answer.").format(key=key, what=what, left=len(hints) - shown,
                                                                     total=len(hints)) + "*")
    else:
        parts.append("*" + _("That was the last hint.") + "*")
    return "\n\n".join(parts)


def why_markdown(explanation: str | None, solution: str | None, draft: str | None, hint_key: str,
                 review: str = "") -> str:
    """After a pass: the review of the learner's program (when there is one), the explanation and a diff of the
    learner's code against the reference solution. After a reveal without a pass: the explanation and the solution.
    Before either: how to unlock it."""
    if explanation is None and solution is None:
        return ("*" + _("Pass the exercise to read why the fix works.") + "*\n\n"
                + _("Stuck? Take a hint with **{key}**, or reveal the reference solution from the command palette "
                    "(**ctrl+p** → *Reveal solution*).").format(key=hint_key))
    parts = [review] if review else []
    if explanation is not None:
        parts.append(explanation.strip())
    if solution is not None and draft is not None:
        diff = "".join(difflib.unified_diff(draft.splitlines(True), solution.splitlines(True),
                                            _("your code"), _("reference solution"), n=2))
        parts.append("## " + _("Your code beside the reference solution"))
        if diff.strip():
            parts.append(_("Lines starting with - are yours, + the reference's. Both pass: the point is to compare "
                           "the ideas, not the letters.") + f"\n\n```diff\n{diff.rstrip()}\n```")
        else:
            parts.append(_("Your code is the reference solution, letter for letter."))
    elif solution is not None:
        parts.append("## " + _("Reference solution") + f"\n\n```python\n{solution.rstrip()}\n```")
    return "\n\n".join(parts)
