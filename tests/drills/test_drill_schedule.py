"""The spaced-repetition schedule (FSRS, fuzzing off, fake wall clock) and the round's rules (fake monotonic clock)."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from drillkit import FakeClock

from jittrainer.course.drills.model import AnswerError
from jittrainer.course.drills.round import DrillRound, RoundOptions, plan_round
from jittrainer.course.drills.schedule import CardState, Scheduler
from jittrainer.session.progress import ProgressStore

# ------------------------------------------------------------------------------------------------------ schedule


def test_new_cards_are_due(deck, scheduler):
    assert scheduler.due_cards(deck.cards) == deck.cards
    assert scheduler.state("choice_one").is_new


def test_right_is_good_and_comes_back_in_days(scheduler, date):
    state = scheduler.record("choice_one", "right")
    assert state.right == 1 and state.seen == 1 and not state.is_new
    first = state.due - date.now
    assert dt.timedelta(days=1) < first <= dt.timedelta(days=3)
    date.now = state.due
    state = scheduler.record("choice_one", "right")
    assert state.due - date.now > 2 * first  # each success stretches the interval


def test_wrong_and_timeout_are_again_and_come_back_sooner(scheduler, date):
    for _ in range(3):
        date.now = scheduler.record("count_two", "right").due
    before = scheduler.state("count_two").stability
    state = scheduler.record("count_two", "wrong")
    assert state.due - date.now <= dt.timedelta(minutes=10) and state.wrong == 1  # relearning: today
    assert state.stability < before
    state = scheduler.record("count_two", "timeout")
    assert state.wrong == 2 and state.last_result == "timeout"
    new = scheduler.record("tf_false", "wrong")  # a new card missed comes back today too
    assert new.due - date.now <= dt.timedelta(minutes=10)


def test_a_retired_cards_state_stays_unused_and_returns_with_the_card(deck, scheduler, store, date):
    retired = scheduler.record("retired_card", "wrong")
    scheduler.record("choice_one", "right")
    assert "retired_card" not in {c.id for c in scheduler.due_cards(deck.cards)}  # the deck has no such card
    kept = json.loads(store.path.read_text())["drills"]["cards"]
    assert set(kept) == {"retired_card", "choice_one"}
    again = Scheduler(store, clock=date, fuzz=False).state("retired_card")
    assert again.wrong == 1 and again.due == retired.due


def test_due_means_by_the_end_of_today(deck, scheduler, date):
    scheduler.record("choice_one", "right")  # in about two days
    date.now = date.now.replace(hour=9)
    scheduler.record("tf_false", "right")
    date.advance(days=2)
    date.now = date.now.replace(hour=1)  # early morning of the day it is due: due "today"
    due = {c.id for c in scheduler.due_cards(deck.cards)}
    assert {"choice_one", "tf_false"} <= due


def test_due_cards_follow_the_clock(deck, scheduler, date):
    scheduler.record("choice_one", "right")  # due in two days
    for _ in range(2):
        date.now = scheduler.record("count_two", "right").due
    scheduler.record("count_two", "wrong")  # relearning: due today
    due = {c.id for c in scheduler.due_cards(deck.cards)}
    assert "count_two" in due and {"tf_false", "text_hi"} <= due
    date.advance(days=30)
    assert "choice_one" in {c.id for c in scheduler.due_cards(deck.cards)}


def test_leitner_boxes_become_fsrs_review_cards(store, date):
    with store.update() as progress:
        progress.drills = {"version": 1, "cards": {"choice_one": {"box": 3, "due": "2026-03-09", "seen": 4, "right": 3,
                                                                   "wrong": 1, "last_result": "right"}}}
    state = Scheduler(store, clock=date, fuzz=False).state("choice_one")
    assert state.stability == 7.0 and state.due.date() == dt.date(2026, 3, 9)
    assert (state.seen, state.right, state.wrong, state.last_result) == (4, 3, 1, "right")


def test_schedule_persists_across_stores_and_runs(deck, store, date, learner_home):
    Scheduler(store, clock=date).record("choice_one", "right")
    Scheduler(store, clock=date).record("count_two", "wrong")
    fresh = Scheduler(ProgressStore(learner_home / "progress.json"), clock=date)
    assert fresh.state("choice_one").right == 1 and fresh.state("count_two").last_result == "wrong"
    data = json.loads((learner_home / "progress.json").read_text())
    assert data["drills"]["version"] == 2 and data["drills"]["cards"]["choice_one"]["fsrs"]["state"] == 2
    assert data["exercises"] == {}  # drills do not touch exercise progress
    assert (learner_home / "progress.json.bak").exists()  # written through the store's atomic write


def test_a_corrupt_drills_entry_counts_as_new(deck, store, date):
    with store.update() as progress:
        progress.drills = {"cards": {"choice_one": "garbage", "count_two": {"box": "x", "seen": -3, "due": 7}}}
    scheduler = Scheduler(store, clock=date)
    assert scheduler.state("choice_one") == CardState()
    assert scheduler.state("count_two").is_new and scheduler.state("count_two").seen == 0
    assert scheduler.record("choice_one", "right").seen == 1


def test_unknown_result_is_refused(scheduler):
    with pytest.raises(ValueError):
        scheduler.record("choice_one", "meh")


def test_pick_puts_due_first_then_new_then_later(deck, scheduler, date):
    for _ in range(2):
        date.now = scheduler.record("count_two", "right").due
    scheduler.record("count_two", "wrong")  # due today (relearning)
    scheduler.record("choice_one", "right")  # later
    order = [c.id for c in scheduler.pick(deck.cards, seed=1)]
    assert order[0] == "count_two"
    assert order.index("choice_one") > max(order.index("tf_false"), order.index("text_hi"))
    assert set(order) == {c.id for c in deck.cards}
    due_only = [c.id for c in scheduler.pick(deck.cards, due_only=True, seed=1)]
    assert set(due_only) == {"count_two", "tf_false", "text_hi"}  # new cards are due; choice_one is not yet


def test_first_rounds_prefer_the_topics_of_attempted_exercises(deck, scheduler):
    for seed in range(5):
        order = scheduler.pick(deck.cards, seed=seed, prefer_topics=["beta"])
        topics = [c.topic for c in order]
        assert topics == sorted(topics, key=lambda t: t != "beta")  # every beta card before any other new card


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
    outcome = drill.answer(str(drill.current_shown.right_number))
    assert outcome.result == "right" and outcome.seconds == 5 and outcome.state.right == 1
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
    assert drill.answer(str(drill.current_shown.right_number)).correct


def test_choices_are_shuffled_per_round_and_the_seed_repeats_it(deck):
    card = deck.find("choice_one")
    orders = {DrillRound([card], seed=seed).shown[0].order for seed in range(40)}
    assert len(orders) == 6  # every order of 3 choices turns up
    assert DrillRound([card], seed=11).shown[0].order == DrillRound([card], seed=11).shown[0].order
    unseeded = DrillRound([card])
    assert unseeded.seed is not None  # drawn and recorded, so the round can be told again
    assert DrillRound([card], seed=unseeded.seed).shown[0].order == unseeded.shown[0].order
    assert unseeded.summary().seed == unseeded.seed


def test_an_answer_is_judged_by_the_choice_it_names_not_its_position(deck):
    card = deck.find("choice_one")  # choices "1", "2", "3"; the right one is the file's second, "2"
    for seed in range(12):
        drill = DrillRound([card], seed=seed)
        drill.start()
        shown = drill.current_shown
        assert shown.choices("en")[shown.right_number - 1] == "2"
        pick = shown.order.index(1) + 1  # wherever the choice "1" is shown
        outcome = drill.answer(str(pick))
        assert not outcome.correct and outcome.shown.order == shown.order
        assert shown.answer_text("en") == f"{shown.right_number}) 2"


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
