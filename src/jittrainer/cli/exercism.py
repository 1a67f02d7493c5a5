"""``jittrainer check --format exercism``: the verdict as Exercism's results.json version 3.

Exercism shows each test's ``test_code`` beside its result, so that a student reads what was tested. A jittrainer
check has no test function to show: its contract is the statement's "How it is graded" section, one bullet per
rule, most of them opening with a bold label (**Results**, **Compiles**, **Output**, ...). ``test_code`` carries
the check's description and the bullet it enforces. The bullet is found on the English statement, by the check's
id and description against the bullets' labels (the grader's call itself for ``runs``); the learner's edition
gives the text when its section has the same bullets.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from jittrainer.course.exercises import Exercise
from jittrainer.grading.verdict import Verdict
from jittrainer.i18n import _, language
from jittrainer.i18n.message import Msg, render

OUTPUT_CAP = 500
# The section's title in each edition of the statements (every statement has it: tests/test_exercism.py).
HEADING = re.compile(r"^## (How it is graded|评分方式)\s*$", re.M)
SECTION = re.compile(r"^## ", re.M)
BULLET = re.compile(r"^( {0,2})[-*]\s+(.*)$")  # top level, or one level in (a rule's sub-rules)
LABEL = re.compile(r"^\*\*(.+?)\*\*")
WORD = re.compile(r"[a-z0-9]+")
STOP = {"the", "a", "an", "of", "to", "in", "is", "it", "its", "and", "or", "for", "on", "at", "by", "be", "with",
        "every", "each", "all", "one", "per", "no", "not", "your", "from", "as", "that", "this", "are", "must"}
SYNONYMS = {"print": {"print", "output"}, "reach": {"reach", "computed"}}  # an id's word -> a label's words
ID_SYNONYMS = {"values": {"result", "value"}}  # a whole check id -> a label's words


@dataclass(frozen=True)
class Rule:
    label: str | None  # the bold label, without its markup; None for a bullet that has none
    text: str  # the whole bullet, its lines joined


def _stem(word: str) -> str:
    if len(word) > 3 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    if len(word) > 5 and word.endswith("ed"):
        return word[:-2]
    return word


def _words(text: str) -> set[str]:
    return {_stem(w) for w in WORD.findall(text.lower()) if w not in STOP}


def grading_rules(statement: str) -> list[Rule]:
    """The bullets of the statement's "How it is graded" section, in order."""
    found = HEADING.search(statement)
    if found is None:
        return []
    section = statement[found.end():]
    end = SECTION.search(section)
    section = section[: end.start()] if end else section
    rules: list[list[Any]] = []
    for line in section.splitlines():
        bullet = BULLET.match(line)
        if bullet:
            label = LABEL.match(bullet.group(2))
            rules.append([label.group(1).strip("`: ") if label else None, bullet.group(2).strip()])
        elif rules and line.strip():
            rules[-1][1] += " " + line.strip()
    return [Rule(label, text) for label, text in rules]


def rule_index(check_id: str, description: str, rules: list[Rule]) -> int | None:
    """Which rule a check enforces: the best match of its id and description with the rules' labels (the words
    of a whole bullet break ties); ``runs`` is the grader's call itself, the first rule without a label, unless a
    rule is labelled for it."""
    ids = {_stem(w) for w in check_id.split("_") if w not in STOP}
    id_words = ID_SYNONYMS.get(check_id) or set().union(set(), *(SYNONYMS.get(w, {w}) for w in ids))
    names = _words(description)
    best, best_score = None, 0.0
    for n, rule in enumerate(rules):
        score = 0.1 * len(names & _words(rule.text))
        if rule.label:
            label = _words(rule.label)
            score += 3 * len(id_words & label) + 2 * len(names & label)
        if score > best_score:
            best, best_score = n, score
    if check_id == "runs" and (best is None or "run" not in _words(rules[best].label or "")):
        plain = [n for n, rule in enumerate(rules) if rule.label is None]
        return plain[0] if plain else best
    return best


EMPHASIS = re.compile(r"(?<![\w*])\*(?!\s)([^*]+?)(?<!\s)\*(?![\w*])")


def _plain(markdown: str) -> str:
    """The bullet without its bold and italic markers (code in backticks stays: it reads as code)."""
    return EMPHASIS.sub(r"\1", markdown.replace("**", ""))


def rule_text(exercise: Exercise, check_id: str, description: str, lang: str) -> str | None:
    """The statement's rule for a check (``description`` in English), in ``lang`` when that edition has the same
    rules, else in English."""
    try:
        english = grading_rules(exercise.statement("en"))
        shown = grading_rules(exercise.statement(lang)) if lang != "en" else english
    except OSError:
        return None
    n = rule_index(check_id, description, english)
    if n is None:
        return None
    rules = shown if len(shown) == len(english) else english
    return _plain(rules[n].text)


def test_code(exercise: Exercise | None, check_id: str, description: str, english_description: str,
              lang: str) -> str:
    """What a student reads as the test: the check, then the statement's rule it enforces."""
    head = _("Check {id}: {description}").format(id=check_id, description=description)
    rule = rule_text(exercise, check_id, english_description, lang) if exercise is not None else None
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
            "test_code": test_code(exercise, check.id, description, _english(check.name), lang),
        })
    return {"version": 3, "status": verdict.status, "message": None if verdict.passed else verdict.message,
            "tests": tests}


def _english(name: Msg | str) -> str:
    return name.render("en") if isinstance(name, Msg) else str(name)


def _cap(text: str) -> str | None:
    if not text:
        return None
    return text if len(text) <= OUTPUT_CAP else text[: OUTPUT_CAP - 1] + "…"
