"""The statement's "How it is graded" rules, and the check each one names.

Every check of ``checks.py`` is stated by exactly one bullet of that section, and the bullet says which: it ends
with ``(check `id`)`` (``（检查项 `id`）`` in the Chinese edition). The pairing is written down, not guessed, so
a check without its rule, a rule for two checks, or a marker naming no check is a problem ``validate`` reports.
A bullet without a marker is context (the calls the grader makes, what is not graded). The Exercism report
(``cli/exercism.py``) shows each check beside its rule; the faces show the statement as written, markers included,
so the learner can match a failed check's id to its sentence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# The section's title in each edition of the statements.
HEADING = re.compile(r"^## (How it is graded|评分方式)\s*$", re.M)
SECTION = re.compile(r"^## ", re.M)
BULLET = re.compile(r"^( {0,2})[-*]\s+(.*)$")  # top level, or one level in (a rule's sub-rules)
LABEL = re.compile(r"^\*\*(.+?)\*\*")
MARKER = re.compile(r"\s*[(（](?:check|检查项)\s*`(?P<id>[a-z][a-z0-9_]*)`[)）]")


@dataclass(frozen=True)
class Rule:
    label: str | None  # the bold label, without its markup; None for a bullet that has none
    text: str  # the whole bullet, its lines joined, without its check marker
    checks: tuple[str, ...] = ()  # the ids its markers name (one, for a valid rule; none for context)


def grading_rules(statement: str) -> list[Rule]:
    """The bullets of the statement's "How it is graded" section, in order."""
    found = HEADING.search(statement)
    if found is None:
        return []
    section = statement[found.end():]
    end = SECTION.search(section)
    section = section[: end.start()] if end else section
    bullets: list[list[str]] = []
    fenced = False
    for line in section.splitlines():
        if line.strip().startswith("```"):
            fenced = not fenced
        bullet = None if fenced else BULLET.match(line)
        if bullet:
            bullets.append([bullet.group(2).strip()])
        elif bullets and line.strip():
            bullets[-1].append(line.strip())
    rules = []
    for lines in bullets:
        text = " ".join(lines)
        label = LABEL.match(text)
        rules.append(Rule(label.group(1).strip("`: ") if label else None, MARKER.sub("", text).strip(),
                          tuple(m["id"] for m in MARKER.finditer(text))))
    return rules


def rule_index(check_id: str, rules: list[Rule]) -> int | None:
    """The rule whose marker names ``check_id`` (the first, if an invalid statement names it twice)."""
    return next((n for n, rule in enumerate(rules) if check_id in rule.checks), None)


def rule_problems(checks: tuple[str, ...], statements: dict[str, str], where: str) -> list[str]:
    """What is wrong with the pairing of ``checks`` (CHECKS' ids) with each edition's rules: ``statements`` maps a
    language ("en" first) to its statement's text; ``where`` names the exercise folder."""
    problems: list[str] = []
    english = grading_rules(statements["en"])
    name = f"{where}/statement.md"
    if not english:
        return [f"{name}: no '## How it is graded' section with one bullet per check"]
    named: dict[str, int] = {}
    for n, rule in enumerate(english, 1):
        if len(rule.checks) > 1:
            problems.append(f"{name}: the rule {_quote(rule)} names {len(rule.checks)} checks "
                            f"({', '.join(rule.checks)}): one rule per check")
        for check in rule.checks:
            if check not in checks:
                problems.append(f"{name}: the rule {_quote(rule)} names (check `{check}`), not a check of checks.py")
            elif check in named:
                problems.append(f"{name}: (check `{check}`) marks two rules ({named[check]} and {n}): one per check")
            else:
                named[check] = n
    for check in checks:
        if check not in named:
            problems.append(f"{name}: check {check!r} has no rule: end the bullet that states it with "
                            f"(check `{check}`)")
    for lang, text in statements.items():
        if lang == "en":
            continue
        theirs = [rule.checks for rule in grading_rules(text)]
        if theirs != [rule.checks for rule in english]:
            problems.append(f"{where}/statement.{lang}.md: its rules name other checks than statement.md's "
                            f"(by bullet: {_by_bullet(theirs)}; English: {_by_bullet([r.checks for r in english])})")
    return problems


def _quote(rule: Rule) -> str:
    return repr(rule.text[:50] + ("…" if len(rule.text) > 50 else ""))


def _by_bullet(checks: list[tuple[str, ...]]) -> str:
    return " | ".join(",".join(c) or "-" for c in checks)
