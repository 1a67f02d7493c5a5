"""What the learner reads besides the verdict, as Markdown: the task, the hints taken so far, and (after a pass or
a reveal) why the fix works, with the learner's code set beside the reference solution."""

from __future__ import annotations

import difflib
import re

from jittrainer.course.example_block import example_block_lines
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


def graded_code(text: str, starter_comments: frozenset[str] = frozenset()) -> str:
    """The part of a file the grader looks at: without its ``__main__`` block (the scratch run's example, never
    graded) and without the starter's own comment lines the learner left in (its TODOs), blank runs closed up."""
    lines = text.splitlines()
    drop = set(example_block_lines(text) or ())
    kept = [line for n, line in enumerate(lines)
            if n not in drop and not (line.lstrip().startswith("#") and line.strip() in starter_comments)]
    return re.sub(r"\n{3,}", "\n\n\n", "\n".join(kept)).strip("\n") + "\n"


def comment_lines(*texts: str) -> frozenset[str]:
    """The full-line comments of the given files (a starter in each language), stripped."""
    return frozenset(line.strip() for text in texts for line in text.splitlines() if line.lstrip().startswith("#"))


def why_markdown(explanation: str | None, solution: str | None, draft: str | None, hint_key: str,
                 review: str = "", starter_comments: frozenset[str] = frozenset()) -> str:
    """After a pass: the review of the learner's program (when there is one), the explanation and a diff of the
    learner's code against the reference solution, both as graded (``graded_code``). After a reveal without a pass:
    the explanation and the solution. Before either: how to unlock it."""
    if explanation is None and solution is None:
        return ("*" + _("Pass the exercise to read why the fix works.") + "*\n\n"
                + _("Stuck? Take a hint with **{key}**, or reveal the reference solution from the command palette "
                    "(**ctrl+p** → *Reveal solution*).").format(key=hint_key))
    parts = [review] if review else []
    if explanation is not None:
        parts.append(explanation.strip())
    if solution is not None and draft is not None:
        mine, reference = graded_code(draft, starter_comments), graded_code(solution, starter_comments)
        diff = "".join(difflib.unified_diff(mine.splitlines(True), reference.splitlines(True),
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
