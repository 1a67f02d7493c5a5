"""``jittrainer check --format exercism``: the verdict as Exercism's results.json version 3.

Exercism shows each test's ``test_code`` beside its result, so that a student reads what was tested. A jittrainer
check has no test function to show: its contract is the statement's "How it is graded" section, one bullet per
rule, and the bullet that states a check names it (``(check `id`)``, ``course/rules.py``; ``validate`` requires
exactly one per check). ``test_code`` carries the check's description and that bullet, in the learner's edition.
"""

from __future__ import annotations

import re
from typing import Any

from jittrainer.course.exercises import Exercise
from jittrainer.course.rules import grading_rules, rule_index
from jittrainer.grading.verdict import Verdict
from jittrainer.i18n import _, language
from jittrainer.i18n.message import render

OUTPUT_CAP = 500


EMPHASIS = re.compile(r"(?<![\w*])\*(?!\s)([^*]+?)(?<!\s)\*(?![\w*])")


def _plain(markdown: str) -> str:
    """The bullet without its bold and italic markers (code in backticks stays: it reads as code)."""
    return EMPHASIS.sub(r"\1", markdown.replace("**", ""))


def rule_text(exercise: Exercise, check_id: str, lang: str) -> str | None:
    """The statement's rule for a check, in ``lang`` when that edition names it, else in English."""
    for edition in dict.fromkeys((lang, "en")):
        try:
            rules = grading_rules(exercise.statement(edition))
        except OSError:
            continue
        n = rule_index(check_id, rules)
        if n is not None:
            return _plain(rules[n].text)
    return None


def test_code(exercise: Exercise | None, check_id: str, description: str, lang: str) -> str:
    """What a student reads as the test: the check, then the statement's rule it enforces."""
    head = _("Check {id}: {description}").format(id=check_id, description=description)
    rule = rule_text(exercise, check_id, lang) if exercise is not None else None
    if rule is None:
        return head
    return head + "\n" + _("Rule it enforces (the statement's “How it is graded”): {rule}").format(rule=rule)


def exercism_json(verdict: Verdict, exercise: Exercise | None = None) -> dict[str, Any]:
    """Exercism's results.json version 3: a skipped check becomes an error saying which check failed first."""
    lang = language()
    tests = []
    for check in verdict.checks:
        status = {"pass": "pass", "fail": "fail"}.get(check.status, "error")
        message = None if check.status == "pass" else check.message
        description = render(check.name)
        tests.append({
            "name": description,
            "status": status,
            "message": message,
            "output": _cap(verdict.output) if check.failed else None,
            "test_code": test_code(exercise, check.id, description, lang),
        })
    return {"version": 3, "status": verdict.status, "message": None if verdict.passed else verdict.message,
            "tests": tests}


def _cap(text: str) -> str | None:
    if not text:
        return None
    return text if len(text) <= OUTPUT_CAP else text[: OUTPUT_CAP - 1] + "…"
