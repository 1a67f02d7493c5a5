"""The interview's report, from its record alone: the score weighed by size, the time of each part against the
plan, the exercises and the debugging task, the levels reached, each topic with its counts, the explain-why answer,
and what to practise next. Pure: both faces print these lines (the app as Markdown).

An item is a card answered (or run out of time) or an exercise the interview showed; an exercise never shown is
not reached and counts nowhere. A topic with fewer than ``JUDGE_MIN`` items is too few to judge.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, is_dataclass
from typing import Any

from jittrainer.course import Course
from jittrainer.course.drills import render
from jittrainer.course.drills.model import LEVELS, Deck
from jittrainer.course.interview.spec import part_title
from jittrainer.i18n import N_, _, cells, language, pgettext
from jittrainer.i18n.message import count, msgn
from jittrainer.units import duration

JUDGE_MIN = 3  # items a topic needs before the report calls it strong or weak
STRONG, WEAK = 0.8, 0.5  # the share of a topic's items answered right
PRACTISE_MAX = 4
RESULT = {"pass": N_("passed"), "fail": N_("failed"), "error": N_("error"), "skipped": N_("not tried")}


def report_lines(entry: Any, deck: Deck, course: Course, *, commands: bool = True) -> list[str]:
    """``entry``: an ``InterviewRecord`` or its dict. ``commands``: name exercises as shell commands (the CLI);
    else by number and title (the app, whose list opens them)."""
    e = asdict(entry) if is_dataclass(entry) else dict(entry)
    lang = language()
    sep = pgettext("list.separator", ", ")
    cards = e.get("cards", [])
    attempts = e.get("exercises", [])
    opened = [a for a in attempts if a.get("opened", True)]
    unopened = [a for a in attempts if not a.get("opened", True)]
    debug = [c for c in cards if c.get("part") == "debugging"]
    plain = [c for c in cards if c.get("part") != "debugging"]

    def name(ex_id: str) -> str:
        ex = course.get(ex_id)
        return f"{ex.number:02d} {ex.title_in(lang)}" if ex else ex_id

    def topic_title(t: str) -> str:
        return course.topic_title(t) if t in course.topics else deck.topic_title(t)

    right_points = sum(c.get("weight", 1) for c in cards if c["result"] == "right")
    right_points += sum(a.get("size", 1) or 1 for a in opened if a["status"] == "pass")
    total_points = sum(c.get("weight", 1) for c in cards) + sum(a.get("size", 1) or 1 for a in opened)
    percent = round(100 * right_points / total_points) if total_points else 0
    lines = [str(msgn("interview.score", "Score: {right} of {n} point ({percent}%) on what the interview reached.",
                      "Score: {right} of {n} points ({percent}%) on what the interview reached.",
                      right=right_points, n=total_points, percent=percent))]
    counted = [str(msgn("interview.cards_right", "{right} of {n} card right", "{right} of {n} cards right",
                        right=sum(c["result"] == "right" for c in plain), n=len(plain)))]
    if attempts:
        counted.append(str(msgn("interview.exercises_passed", "{right} of {n} exercise passed",
                                "{right} of {n} exercises passed",
                                right=sum(a["status"] == "pass" for a in opened), n=len(opened))))
    if debug:
        counted.append(str(msgn("interview.debug_right", "debugging: {right} of {n} question right",
                                "debugging: {right} of {n} questions right",
                                right=sum(c["result"] == "right" for c in debug), n=len(debug))))
    lines.append("  " + " · ".join(counted))
    sizes = sorted({a.get("size", 0) for a in opened if a.get("size")})
    if sizes:
        lines.append("  " + _("Points: a card is worth its countdown in whole minutes (1 for most cards); an exercise "
                              "its size, the minutes a prepared candidate needs ({sizes} here).").format(
            sizes=sep.join(_("{n} min").format(n=s) for s in sizes)))
    missed_cards = _not_reached_cards(e)
    left = ([str(count("card", missed_cards))] if missed_cards else []) + (
        [str(count("exercise", len(unopened)))] if unopened else [])
    if left:
        lines.append(_("Not reached before the end (not counted): {what}.").format(what=sep.join(left)))

    lines += _time_lines(e)
    if attempts:
        lines.append(_("Exercises:"))
        for a in attempts:
            lines.append("  " + _exercise_line(a, name))
    if debug:
        lines.append(_("Debugging task: {right} of {n} right.").format(
            right=sum(c["result"] == "right" for c in debug), n=len(debug)))
    lines += _level_lines(cards)
    lines += _topic_lines(cards, opened, topic_title)
    explain = e.get("explain")
    if explain:
        lines.append(_explain_line(explain, deck))
    lines += _practise_lines(cards, opened, deck, name, commands, sep)
    return lines


def _not_reached_cards(e: dict) -> int:
    planned = e.get("planned_cards")
    return max(0, planned - len(e.get("cards", []))) if isinstance(planned, int) else 0


def _time_lines(e: dict) -> list[str]:
    parts = e.get("parts") or []
    if not parts:
        return []
    used = sum(p.get("used_s", 0.0) for p in parts)
    lines = [_("Time: {used} of the {planned} planned.").format(used=duration(used),
                                                                 planned=duration(e.get("minutes", 0) * 60))]
    heads = [_("{part}:").format(part=part_title(p["part"])) for p in parts]
    width = max(cells(h) for h in heads)
    for p, head in zip(parts, heads):
        # aligned after an ASCII colon; after a full-width one, Chinese puts no space at all
        head += " " * (width - cells(head) + 1) if head.endswith(":") else ""
        if not p.get("reached"):
            lines.append(f"  {head}" + _("not reached ({planned} planned)").format(planned=duration(p["planned_s"])))
            continue
        template = _("{used} of {planned} (its time ran out)") if p.get("ran_out") else _("{used} of {planned}")
        lines.append(f"  {head}" + template.format(used=duration(p["used_s"]), planned=duration(p["planned_s"])))
    return lines


def _exercise_line(a: dict, name) -> str:
    label = name(a["exercise"])
    if a.get("follows"):
        label = _("{exercise} (follow-up)").format(exercise=label)
    if not a.get("opened", True):
        return _("{exercise}: not reached").format(exercise=label)
    runs = str(count("grade", a["runs"]))
    status = _(RESULT.get(a["status"], a["status"]))
    line = _("{exercise}: {status} · {runs} · {time} (size {size} min)").format(
        exercise=label, status=status, runs=runs, time=duration(a.get("seconds", 0.0)), size=a.get("size", 0))
    if a["status"] != "pass" and a.get("first_failure"):
        line += " · " + _("first failing check: {check}").format(check=a["first_failure"])
    return line


def _level_lines(cards: list[dict]) -> list[str]:
    asked = Counter(c.get("level") for c in cards)
    right = Counter(c.get("level") for c in cards if c["result"] == "right")
    levels = [level for level in LEVELS if asked[level]]
    if not levels:
        return []
    reached = None
    for level in levels:
        if right[level] * 2 < asked[level]:
            break
        reached = level
    what = _(LEVELS[reached]) if reached else _("not yet easy")
    return [_("By difficulty: {levels} · level reached: {level}").format(
        levels=" · ".join(f"{_(LEVELS[lv])} {right[lv]}/{asked[lv]}" for lv in levels), level=what)]


def _topic_lines(cards: list[dict], opened: list[dict], title) -> list[str]:
    asked, right = Counter(), Counter()
    for c in cards:
        asked[c["topic"]] += 1
        right[c["topic"]] += c["result"] == "right"
    for a in opened:
        asked[a["topic"]] += 1
        right[a["topic"]] += a["status"] == "pass"
    if not asked:
        return []

    def verdict(t: str) -> tuple[int, str]:
        if asked[t] < JUDGE_MIN:
            return 3, _("too few to judge")
        share = right[t] / asked[t]
        return (0, _("weak")) if share < WEAK else (2, _("strong")) if share >= STRONG else (1, _("mixed"))

    lines = [_("Topics (an exercise counts as one item):")]
    for t in sorted(asked, key=lambda t: (verdict(t)[0], right[t] / asked[t])):
        lines.append("  " + str(msgn("interview.topic", "{topic}: {right} of {n} item right — {verdict}",
                                     "{topic}: {right} of {n} items right — {verdict}", topic=title(t),
                                     right=right[t], n=asked[t], verdict=verdict(t)[1])))
    judged = [t for t in asked if asked[t] >= JUDGE_MIN]
    if not judged:
        lines.append("  " + str(msgn("interview.too_few", "No topic had {n} item or more: too few to name strengths "
                                     "or weaknesses.", "No topic had {n} items or more: too few to name strengths or "
                                     "weaknesses.", n=JUDGE_MIN)))
    return lines


def _explain_line(explain: dict, deck: Deck) -> str:
    title = card_title(deck, explain["card"])
    grade = {"yes": _("it named the same mechanism"), "partly": _("it named part of it"),
             "no": _("it missed the mechanism")}.get(explain.get("grade", ""))
    if not explain.get("text"):
        return _("Explain why: “{card}”: not answered.").format(card=title)
    if grade is None:
        return _("Explain why: “{card}”: answered, not compared with the card's explanation.").format(card=title)
    return _("Explain why (self-graded, not in the score): “{card}”: you judged that {grade}.").format(
        card=title, grade=grade)


def _practise_lines(cards: list[dict], opened: list[dict], deck: Deck, name, commands: bool, sep: str) -> list[str]:
    asked, missed = Counter(), Counter()
    for c in cards:
        asked[c["topic"]] += 1
        missed[c["topic"]] += c["result"] != "right"
    redo = [a["exercise"] for a in opened if a["status"] != "pass"]
    for t in sorted((t for t in missed if missed[t]), key=lambda t: -missed[t] / asked[t]):
        redo += [e for e in deck.practice.get(t, [])[:1] if e not in redo]
    redo = redo[:PRACTISE_MAX]
    lines = []
    if redo:
        if commands:
            lines.append(_("Practise next: {commands}").format(commands=sep.join(f"jittrainer show {e}" for e in redo)))
        else:
            lines.append(_("Practise next: {names} (F2 opens the list).").format(names=sep.join(name(e) for e in redo)))
    wrong = [c["card"] for c in cards if c["result"] != "right"]
    if wrong:
        lines.append(_("Cards to redo (they come back in your next drill rounds): {cards}").format(
            cards=sep.join(f"“{card_title(deck, c)}”" for c in wrong)))
    if not redo and not wrong:
        lines.append(_("Nothing missed this time."))
    return lines


def card_title(deck: Deck, card_id: str, cells_max: int = render.TITLE_CELLS) -> str:
    """A card named in a report, as a list names it (``drills.render.card_title``); a card the deck no longer has by
    its id."""
    try:
        card = deck.find(card_id)
    except KeyError:
        return card_id.replace("_", " ")
    return render.card_title(card, cells=cells_max)
