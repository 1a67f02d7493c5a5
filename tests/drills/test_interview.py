"""The mock interview: planning from the course and the deck, the report, and a whole interview through a pipe."""

from __future__ import annotations

import io
import shutil

import pytest
from drillkit import FakeClock, write_deck

from helpers import REPO
from jittrainer.course import load_course
from jittrainer.course.drills.loader import load_drills
from jittrainer.course.drills.round import Outcome
from jittrainer.course.drills.schedule import Scheduler
from jittrainer.course.interview import ExerciseAttempt, InterviewPlan, plan_interview, record, report_lines
from jittrainer.session.progress import ProgressStore

FIXTURE = REPO / "tests" / "fixtures" / "exercises" / "01_double"


@pytest.fixture
def course_dir(tmp_path):
    root = tmp_path / "course"
    root.mkdir()
    shutil.copytree(FIXTURE, root / "01_double")
    write_deck(root / "drills")
    for text in (root / "01_double" / "manifest.toml",):
        text.write_text(text.read_text().replace('topic = "Fixture"', 'topic = "alpha"'))
    return root


def test_plan_mixes_cards_and_an_interview_sized_exercise(course_dir, learner_home):
    course = load_course(course_dir)
    deck = load_drills(course_dir / "drills")
    scheduler = Scheduler(ProgressStore(), fuzz=False)
    plan = plan_interview(course, deck, scheduler, minutes=12, seed=1)
    assert [ex.id for ex in plan.exercises] == ["double"]
    assert 1 <= len(plan.cards) <= len(deck.cards)
    only = plan_interview(course, deck, scheduler, minutes=12, topic="beta", seed=1)
    assert only.exercises == [] and {c.topic for c in only.cards} == {"beta"}
    with pytest.raises(KeyError):
        plan_interview(course, deck, scheduler, topic="nope")


def test_plan_records_a_seed_and_orders_levels(course_dir, learner_home):
    course = load_course(course_dir)
    deck = load_drills(course_dir / "drills")
    levels = {"choice_one": "hard", "count_two": "easy", "tf_false": "medium", "text_hi": "easy"}
    for card in deck.cards:
        card.level = levels[card.id]
    plan = plan_interview(course, deck, Scheduler(ProgressStore(), fuzz=False), minutes=30)
    assert plan.seed is not None
    order = ["easy", "medium", "hard"]
    assert [c.level for c in plan.cards] == sorted((c.level for c in plan.cards), key=order.index)


def test_report_names_strengths_weak_topics_and_what_to_redo(course_dir):
    course = load_course(course_dir)
    deck = load_drills(course_dir / "drills")
    plan = InterviewPlan(cards=deck.cards[:2], exercises=course.exercises, minutes=10)
    outcomes = [Outcome(deck.cards[0], "right"), Outcome(deck.cards[1], "wrong")]
    attempts = [ExerciseAttempt("double", "alpha", status="fail", first_failure="values", runs=2)]
    lines = report_lines(record(plan, outcomes, attempts), deck, course)
    text = "\n".join(lines)
    assert text.startswith("Interview over: 1 of 3 right (2 cards, 1 exercises).")
    assert "Weak:" in text and "jittrainer show double" in text and deck.cards[1].id in text


@pytest.mark.worker
def test_a_whole_interview_through_a_pipe(course_dir, learner_home):
    from jittrainer.cli.interview import run_interview
    from jittrainer.course.drills.present import choice_order
    from jittrainer.course.interview import draft_store
    from jittrainer.session import Session

    session = Session(course_dir, lang="en")
    deck = load_drills(course_dir / "drills")
    scheduler = Scheduler(ProgressStore(), fuzz=False)
    plan = plan_interview(session.course, deck, scheduler, minutes=12, seed=3)
    answers = {"count_two": "2", "tf_false": "f", "text_hi": "hi there"}
    right = {c.id: str(choice_order(c, plan.seed).index(c.answer) + 1) for c in plan.cards if c.kind == "choice"}
    ex = plan.exercises[0]
    lines = [right.get(c.id) or answers[c.id] for c in plan.cards]

    class Input(io.StringIO):
        """Answers the cards, then writes a right fix into the interview draft and grades it."""

        def readline(self, *args):
            line = super().readline(*args)
            if line == "GRADE\n":
                draft_store().path(ex).write_text("def double(x):\n    return 2 * x\n")
                return "\n"
            return line

    out = io.StringIO()
    report = run_interview(session, deck, scheduler, plan, Input("\n".join(lines) + "\nGRADE\n"), out, FakeClock())
    text = out.getvalue()
    assert "Mock interview:" in text and "PASSED" in text
    assert report[0].startswith(f"Interview over: {len(plan.cards) + 1} of {len(plan.cards) + 1} right")
    saved = ProgressStore().load().interviews
    assert len(saved) == 1 and saved[0]["exercises"][0]["status"] == "pass"
    assert saved[0]["seed"] == plan.seed  # the shuffle is recorded with the interview
    assert {c["card"]: c["level"] for c in saved[0]["cards"]} == {c.id: c.level for c in plan.cards}
    assert "By difficulty: medium " in text
    assert not session.drafts.path(ex).exists()  # the course draft was never touched
