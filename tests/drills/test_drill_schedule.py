"""The spaced-repetition schedule (Leitner boxes, fake wall clock) and the round's rules (fake monotonic clock)."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from drillkit import FakeClock

from jittrainer.course.drills.model import AnswerError
from jittrainer.course.drills.round import DrillRound, RoundOptions, plan_round
from jittrainer.course.drills.schedule import BOX_INTERVAL_DAYS, TOP_BOX, CardState, Scheduler
from jittrainer.session.progress import ProgressStore

# ------------------------------------------------------------------------------------------------------ schedule


def test_new_cards_are_due(deck, scheduler):
    assert scheduler.due_cards(deck.cards) == deck.cards
    assert scheduler.state("choice_one").is_new


def test_right_moves_up_a_box_and_schedules_later(scheduler, date):
    state = scheduler.record("choice_one", "right")
    assert state.box == 1 and state.due == "2026-03-03" and state.right == 1 and state.seen == 1
    date.advance(days=1)
    state = scheduler.record("choice_one", "right")
    assert state.box == 2 and state.due == "2026-03-06"  # 3 days in box 2


def test_wrong_and_timeout_go_back_to_box_one_due_today(scheduler, date):
    for _ in range(3):
        scheduler.record("count_two", "right")
    assert scheduler.state("count_two").box == 3
    state = scheduler.record("count_two", "wrong")
    assert state.box == 1 and state.due == "2026-03-02" and state.wrong == 1
    state = scheduler.record("count_two", "timeout")
    assert state.box == 1 and state.wrong == 2 and state.last_result == "timeout"


def test_top_box_is_a_ceiling(scheduler):
    for _ in range(TOP_BOX + 3):
        state = scheduler.record("tf_false", "right")
    assert state.box == TOP_BOX
    assert dt.date.fromisoformat(state.due) == dt.date(2026, 3, 2) + dt.timedelta(days=BOX_INTERVAL_DAYS[TOP_BOX])


def test_due_cards_follow_the_clock(deck, scheduler, date):
    scheduler.record("choice_one", "right")  # due tomorrow
    scheduler.record("count_two", "wrong")  # due today
    due = {c.id for c in scheduler.due_cards(deck.cards)}
    assert due == {"count_two", "tf_false", "text_hi"}
    date.advance(days=1)
    assert "choice_one" in {c.id for c in scheduler.due_cards(deck.cards)}


def test_schedule_persists_across_stores_and_runs(deck, store, date, learner_home):
    Scheduler(store, clock=date).record("choice_one", "right")
    Scheduler(store, clock=date).record("count_two", "wrong")
    fresh = Scheduler(ProgressStore(learner_home / "progress.json"), clock=date)
    assert fresh.state("choice_one").box == 1 and fresh.state("count_two").last_result == "wrong"
    data = json.loads((learner_home / "progress.json").read_text())
    assert data["drills"]["cards"]["choice_one"]["due"] == "2026-03-03"
    assert data["exercises"] == {}  # drills do not touch exercise progress
    assert (learner_home / "progress.json.bak").exists()  # written through the store's atomic write


def test_a_corrupt_drills_entry_counts_as_new(deck, store, date):
    with store.update() as progress:
        progress.drills = {"cards": {"choice_one": "garbage", "count_two": {"box": "x", "seen": -3, "due": 7}}}
    scheduler = Scheduler(store, clock=date)
    assert scheduler.state("choice_one") == CardState()
    assert scheduler.state("count_two").box == 0 and scheduler.state("count_two").seen == 0
    assert scheduler.record("choice_one", "right").box == 1


def test_unknown_result_is_refused(scheduler):
    with pytest.raises(ValueError):
        scheduler.record("choice_one", "meh")


def test_pick_puts_missed_first_then_new_then_later(deck, scheduler, date):
    scheduler.record("choice_one", "right")  # later
    scheduler.record("count_two", "right")
    date.advance(days=1)
    scheduler.record("tf_false", "wrong")  # due today, box 1
    # count_two: due today (box 1 interval = 1 day), seen; text_hi: new
    order = [c.id for c in scheduler.pick(deck.cards, seed=1)]
    assert order[0] in ("tf_false", "count_two", "choice_one")
    assert order.index("text_hi") > max(order.index("tf_false"), order.index("count_two"))
    assert set(order) == {c.id for c in deck.cards}
    due_only = [c.id for c in scheduler.pick(deck.cards, due_only=True, seed=1)]
    assert set(due_only) == {"tf_false", "count_two", "choice_one", "text_hi"}  # choice_one is due today too
    date.advance(days=-1)
    assert "choice_one" not in {c.id for c in scheduler.pick(deck.cards, due_only=True)}


def test_pick_filters_by_topic_counts_and_is_repeatable(deck, scheduler):
    assert {c.topic for c in scheduler.pick(deck.cards, topic="beta")} == {"beta"}
    assert len(scheduler.pick(deck.cards, count=2)) == 2
    assert scheduler.pick(deck.cards, seed=7) == scheduler.pick(deck.cards, seed=7)


def test_plan_round_rejects_unknown_topics(deck, scheduler):
    with pytest.raises(KeyError, match="no topic called 'gamma'"):
        plan_round(deck, RoundOptions(topic="gamma"), scheduler)


def test_unavailable_cards_are_never_picked(deck, scheduler):
    deck.find("choice_one").problems.append("broken")
    assert "choice_one" not in {c.id for c in scheduler.pick(deck.cards)}


# --------------------------------------------------------------------------------------------------------- round


def _round(deck, ids, scheduler=None, **kw):
    clock = FakeClock()
    return DrillRound([deck.find(i) for i in ids], scheduler=scheduler, clock=clock, **kw), clock


def test_a_round_right_wrong_and_timeout(deck, scheduler):
    drill, clock = _round(deck, ["choice_one", "count_two", "tf_false"], scheduler)
    assert drill.start().id == "choice_one"
    clock.advance(5)
    outcome = drill.answer("2")
    assert outcome.result == "right" and outcome.seconds == 5 and outcome.state.box == 1
    assert drill.next().id == "count_two"
    assert drill.answer("3").result == "wrong"
    assert drill.next().id == "tf_false"
    clock.advance(59.9)
    assert not drill.expired()
    clock.advance(0.2)
    assert drill.expired()
    assert drill.time_out().result == "timeout"
    assert drill.next() is None and drill.finished
    summary = drill.summary()
    assert (summary.asked, summary.right, summary.wrong, summary.timeouts, summary.skipped) == (3, 1, 1, 1, 0)
    assert summary.ended_by == "done" and summary.score_text == "1/3"
    assert [t for t, *_ in summary.weak_topics] == ["beta", "alpha"]  # beta: 1 of 1 missed, alpha: 1 of 2
    assert scheduler.state("tf_false").last_result == "timeout"


def test_an_answer_after_the_deadline_is_a_timeout(deck):
    drill, clock = _round(deck, ["choice_one"])
    drill.start()
    clock.advance(61)
    assert drill.answer("2").result == "timeout"


def test_input_that_is_not_an_answer_records_nothing(deck, scheduler):
    drill, _ = _round(deck, ["choice_one"], scheduler)
    drill.start()
    with pytest.raises(AnswerError):
        drill.answer("9")
    assert not drill.answered and scheduler.state("choice_one").is_new
    assert drill.answer("2").correct


def test_dont_know_is_a_miss(deck):
    drill, _ = _round(deck, ["count_two"])
    drill.start()
    assert drill.answer_dont_know().result == "wrong"


def test_the_budget_cuts_countdowns_and_ends_the_round(deck):
    drill, clock = _round(deck, ["choice_one", "count_two", "tf_false"], budget_s=90)
    drill.start()
    assert drill.seconds_left() == 60
    clock.advance(50)
    drill.answer("2")
    drill.next()
    assert drill.seconds_left() == pytest.approx(40)  # 90 s budget - 50 s spent
    clock.advance(40)
    assert drill.expired()
    drill.time_out()
    assert drill.next() is None
    summary = drill.summary()
    assert summary.ended_by == "budget" and summary.skipped == 1 and summary.seconds == 90


def test_per_card_seconds(deck):
    drill, _ = _round(deck, ["text_hi"])
    drill.start()
    assert drill.seconds_left() == 30


def test_quit_mid_round(deck):
    drill, clock = _round(deck, ["choice_one", "count_two"])
    drill.start()
    drill.answer("1")
    clock.advance(3)
    drill.quit()
    summary = drill.summary()
    assert summary.ended_by == "quit" and summary.asked == 1 and summary.skipped == 1
    assert drill.current is None


def test_answering_twice_or_skipping_is_refused(deck):
    drill, _ = _round(deck, ["choice_one", "count_two"])
    drill.start()
    with pytest.raises(RuntimeError):
        drill.next()
    drill.answer("2")
    with pytest.raises(RuntimeError):
        drill.answer("2")
