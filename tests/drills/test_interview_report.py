"""The interview's report, from a record alone: the score weighs an exercise by its size, a topic under three items
is too few to judge, an exercise never opened is no item, each part's time against the plan, the level reached,
the explain-why answer, and plural forms in both languages (issues 36 and 37 item 7)."""

from __future__ import annotations

import pytest
from interviewkit import make_course

from jittrainer.course import load_course
from jittrainer.course.drills.loader import load_drills
from jittrainer.course.drills.round import Outcome
from jittrainer.course.interview import card_weight, explain_outcome, report_lines, self_grade
from jittrainer.i18n import set_language


@pytest.fixture
def course_and_deck(tmp_path):
    root = make_course(tmp_path / "course")
    return load_course(root), load_drills(root / "drills")


def card(card_id, topic="alpha", result="right", level="medium", weight=1, part="warmup"):
    return {"card": card_id, "topic": topic, "level": level, "result": result, "order": [], "part": part,
            "weight": weight}


def exercise(ex_id="double", status="pass", size=10, opened=True, runs=2, follows=None, topic="alpha"):
    return {"exercise": ex_id, "topic": topic, "status": status,
            "first_failure": None if status == "pass" else "values", "runs": runs, "seconds": 300.0,
            "opened": opened, "size": size, "follows": follows}


def entry(cards=(), exercises=(), parts=(), explain=None, planned_cards=None, minutes=30):
    cards = list(cards)
    return {"at": "2026-03-02T09:00:00+00:00", "minutes": minutes, "topic": None, "cards": cards,
            "exercises": list(exercises), "seed": 1, "parts": list(parts), "explain": explain, "task": None,
            "planned_cards": len(cards) if planned_cards is None else planned_cards, "version": 2}


def test_the_score_weighs_an_exercise_by_its_size(course_and_deck):
    course, deck = course_and_deck
    lines = report_lines(entry([card("tf_false"), card("choice_one", result="wrong", weight=2)],
                               [exercise(size=12)]), deck, course)
    assert lines[0] == "Score: 13 of 15 points (87%) on what the interview reached."
    assert lines[1] == "  1 of 2 cards right · 1 of 1 exercise passed"
    assert "an exercise its size, the minutes a prepared candidate needs (12 min here)" in lines[2]
    failed = report_lines(entry([card("tf_false")] * 10, [exercise(status="fail", size=10)]), deck, course)
    assert failed[0].startswith("Score: 10 of 20 points (50%)")  # a failed exercise weighs as much as ten cards
    assert [card_weight(s) for s in (30, 45, 60, 75, 90, 150)] == [1, 1, 1, 1, 2, 3]


def test_a_topic_under_three_items_is_too_few_to_judge(course_and_deck):
    course, deck = course_and_deck
    cards = [card("a1", "alpha"), card("a2", "alpha")]  # two right answers: not a strength yet
    cards += [card("b1", "beta"), card("b2", "beta"), card("b3", "beta", result="wrong"),
              card("b4", "beta", result="wrong"), card("b5", "beta", result="wrong")]
    text = "\n".join(report_lines(entry(cards), deck, course))
    assert "alpha topic: 2 of 2 items right — too few to judge" in text
    assert "beta topic: 2 of 5 items right — weak" in text
    assert "strong" not in text
    lonely = "\n".join(report_lines(entry([card("a1", "alpha")]), deck, course))
    assert "alpha topic: 1 of 1 item right — too few to judge" in lonely
    assert "No topic had 3 items or more: too few to name strengths or weaknesses." in lonely
    strong = "\n".join(report_lines(entry([card(f"a{i}", "alpha") for i in range(3)]), deck, course))
    assert "alpha topic: 3 of 3 items right — strong" in strong


def test_an_exercise_never_opened_is_not_an_item(course_and_deck):
    course, deck = course_and_deck
    record = entry([card("tf_false")], [exercise(status="fail"), exercise("twice", "skipped", 8, opened=False,
                                                                          runs=0, follows="double")])
    lines = report_lines(record, deck, course)
    text = "\n".join(lines)
    assert lines[0].startswith("Score: 1 of 11 points")  # the card and the exercise shown; not the follow-up
    assert "0 of 1 exercise passed" in text and "1 exercises" not in text
    assert "Not reached before the end (not counted): 1 exercise." in text
    assert "02 Double it (follow-up): not reached" in text
    assert "alpha topic: 1 of 2 items right" in text  # the card and the exercise opened, not the one never opened
    assert "jittrainer show double" in text and "jittrainer show twice" not in text
    shown = "\n".join(report_lines(entry([], [exercise(status="skipped", runs=0)]), deck, course))
    assert "01 Double it: not tried · 0 grades" in shown and "0 of 1 exercise passed" in shown  # shown: an item


def test_each_part_is_timed_against_the_plan(course_and_deck):
    course, deck = course_and_deck
    parts = [{"part": "warmup", "planned_s": 300.0, "used_s": 185.0, "reached": True, "ran_out": False},
             {"part": "coding", "planned_s": 1320.0, "used_s": 1500.0, "reached": True, "ran_out": True},
             {"part": "debugging", "planned_s": 330.0, "used_s": 0.0, "reached": False, "ran_out": False}]
    lines = report_lines(entry([card("tf_false")], parts=parts, minutes=45), deck, course)
    at = lines.index("Time: 28 min 5 s of the 45 min planned.")
    assert lines[at + 1:at + 4] == ["  Warm-up:         3 min 5 s of 5 min",
                                    "  Coding exercise: 25 min of 22 min (its time ran out)",
                                    "  Debugging:       not reached (5 min 30 s planned)"]


def test_the_level_reached_is_the_highest_with_half_right_or_more(course_and_deck):
    course, deck = course_and_deck
    cards = [card("e1", level="easy"), card("e2", level="easy"), card("m1", level="medium"),
             card("m2", level="medium", result="wrong"), card("h1", level="hard", result="wrong"),
             card("h2", level="hard", result="timeout")]
    text = "\n".join(report_lines(entry(cards), deck, course))
    assert "By difficulty: easy 2/2 · medium 1/2 · hard 0/2 · level reached: medium" in text
    low = "\n".join(report_lines(entry([card("e1", level="easy", result="wrong"), card("h", level="hard")]),
                                 deck, course))
    assert "level reached: not yet easy" in low  # a lucky hard card does not make up for the easy one


def test_the_explain_question_picks_a_guessable_right_answer_and_is_reported(course_and_deck):
    course, deck = course_and_deck
    tf, choice, count = deck.find("tf_false"), deck.find("choice_one"), deck.find("count_two")
    choice.level = "hard"
    outcomes = [Outcome(count, "right"), Outcome(tf, "right"), Outcome(choice, "right"), Outcome(tf, "wrong")]
    assert explain_outcome(outcomes).card is choice  # the hardest answer that could have been a guess
    assert explain_outcome([Outcome(count, "right"), Outcome(tf, "wrong")]).card is tf  # else a miss
    assert explain_outcome([]) is None
    assert [self_grade(w) for w in ("y", "P", "no", "部分", "是", "maybe")] == ["yes", "partly", "no", "partly", "yes",
                                                                              None]
    explained = {"card": "choice_one", "topic": "alpha", "text": "it adds", "grade": "partly", "seconds": 40.0}
    text = "\n".join(report_lines(entry([card("choice_one")], explain=explained), deck, course))
    assert "Explain why (self-graded, not in the score): “What does it print?”: you judged that it named part of " \
           "it." in text
    unanswered = dict(explained, text="", grade="")
    lines = report_lines(entry(explain=unanswered), deck, course)
    assert "Explain why: “What does it print?”: not answered." in lines


def test_the_report_reads_in_chinese(course_and_deck):
    course, deck = course_and_deck
    parts = [{"part": "warmup", "planned_s": 300.0, "used_s": 185.0, "reached": True, "ran_out": False}]
    record = entry([card("tf_false"), card("choice_one", result="wrong")],
                   [exercise(status="fail"), exercise("twice", "skipped", 8, opened=False, runs=0, follows="double")],
                   parts, planned_cards=4)
    set_language("zh")
    try:
        text = "\n".join(report_lines(record, deck, course))
    finally:
        set_language("en")
    for english in ("Score", "points", "exercise", "card", "Time", "planned", "not reached", "too few", "Practise"):
        assert english not in text, english
    assert "1 道练习" in text and "2 张卡片" in text
    assert "  热身：3 分 5 秒，计划 5 分" in text  # no space beside full-width punctuation
    assert "（追问）：没做到" in text
