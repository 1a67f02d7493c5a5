"""Pilot tests of a drill round in the app: right, wrong, time out, typed answers, the summary, the schedule."""

from __future__ import annotations

import json

from drillkit import FakeClock
from helpers import wait_until
from textual.widgets import Input, Static

from jittrainer.app.drill import DrillApp, DrillScreen
from jittrainer.course.drills.round import RoundOptions, Summary


def text_of(app, selector: str) -> str:
    widget = app.screen.query_one(selector, Static)
    content = widget.content
    return str(getattr(content, "plain", content))


def right_key(app) -> str:
    """The key of the right choice as this round shows it (choices are shuffled per round)."""
    return str(app.screen.round.current_shown.right_number)


def wrong_key(app) -> str:
    shown = app.screen.round.current_shown
    return str(next(i for i in range(1, len(shown.order) + 1) if i != shown.right_number))


def make_app(deck, scheduler, ids, clock=None, **options):
    clock = clock or FakeClock()
    cards = [deck.find(i) for i in ids] if ids is not None else None
    return DrillApp(deck=deck, cards=cards, options=RoundOptions(**options), scheduler=scheduler, clock=clock), clock


async def test_right_answer(deck, scheduler):
    seen = []
    app, clock = make_app(deck, scheduler, ["choice_one", "count_two"])
    async with app.run_test(size=(100, 40), message_hook=seen.append) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, DrillScreen)
        assert "card 1/2" in text_of(app, "#drill-title")
        assert "What does it print?" in text_of(app, "#drill-question")
        shown = app.screen.round.current_shown
        choices = text_of(app, "#drill-choices")
        assert [line.strip() for line in choices.splitlines()] == [f"{i}) {n}" for i, n in enumerate(shown.order, 1)]
        assert "medium" in text_of(app, "#drill-title")  # the card's level
        assert "⏱ 60 s" in text_of(app, "#drill-countdown")
        clock.advance(4)
        key = right_key(app)
        await pilot.press(key)
        await pilot.pause()
        feedback = text_of(app, "#drill-feedback")
        assert "✓ Right (4 s)." in feedback and "Two." in feedback
        assert f"✓ {key}) 2" in text_of(app, "#drill-choices")
        answered = list({id(m): m for m in seen if isinstance(m, DrillScreen.Answered)}.values())  # hook sees bubbling
        assert len(answered) == 1 and answered[0].outcome.result == "right"
        assert scheduler.state("choice_one").right == 1
        await pilot.press(wrong_key(app))  # already answered: ignored
        await pilot.pause()
        assert scheduler.state("choice_one").seen == 1
        await pilot.press("enter")
        await pilot.pause()
        assert "card 2/2" in text_of(app, "#drill-title")


async def test_wrong_answer_shows_the_answer_and_explanation(deck, scheduler):
    app, _ = make_app(deck, scheduler, ["choice_one"])
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        shown = app.screen.round.current_shown
        wrong = shown.order.index(3) + 1  # the choice "3", wherever this round shows it
        await pilot.press(str(wrong))
        await pilot.pause()
        feedback = text_of(app, "#drill-feedback")
        right = shown.right_number
        assert f"✗ Wrong: the answer is {right}) 2" in feedback and "Two." in feedback
        assert "comes back later today" in feedback
        choices = text_of(app, "#drill-choices")
        assert f"✗ {wrong}) 3" in choices and f"✓ {right}) 2" in choices
        assert app.screen.query_one("#drill-feedback").has_class("-wrong")
        assert scheduler.state("choice_one").last_result == "wrong"


async def test_time_out(deck, scheduler):
    app, clock = make_app(deck, scheduler, ["tf_false", "choice_one"])
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        clock.advance(59)
        # the countdown's own timer (every 0.25 s) may run late on a loaded machine: wait for what its tick shows
        await wait_until(pilot, lambda: "⏱ 1 s" in text_of(app, "#drill-countdown"), 20, "the countdown at 1 s")
        assert not app.screen.round.answered
        clock.advance(1.5)
        await wait_until(pilot, lambda: app.screen.round.answered, 20, "the card to run out of time")
        assert "⏱ Time's up: the answer is False" in text_of(app, "#drill-feedback")
        assert scheduler.state("tf_false").last_result == "timeout"
        await pilot.press("t")  # too late: nothing changes
        await pilot.pause()
        assert scheduler.state("tf_false").seen == 1


async def test_true_false_and_typed_answers(deck, scheduler):
    app, _ = make_app(deck, scheduler, ["tf_false", "count_two", "text_hi"])
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        assert not app.screen.query_one("#drill-input", Input).display
        await pilot.press("2")  # a number on a true/false card: the wrong kind of answer, asked again
        await pilot.pause()
        assert "no numbered choices" in text_of(app, "#drill-hint") and not app.screen.round.answered
        assert scheduler.state("tf_false").is_new
        await pilot.press("f")
        await pilot.pause()
        assert "✓ Right" in text_of(app, "#drill-feedback")
        await pilot.press("enter")
        await pilot.pause()
        box = app.screen.query_one("#drill-input", Input)
        assert box.display and app.focused is box
        await pilot.press("t", "w", "o", "enter")  # not a number: asked again, nothing recorded
        await pilot.pause()
        assert "whole number" in text_of(app, "#drill-hint")
        assert scheduler.state("count_two").is_new
        box.value = ""
        await pilot.press("2", "enter")
        await pilot.pause()
        assert "✓ Right" in text_of(app, "#drill-feedback")
        await pilot.press("enter")
        await pilot.pause()
        assert "card 3/3" in text_of(app, "#drill-title")
        assert "⏱ 30 s" in text_of(app, "#drill-countdown")  # the card's own seconds
        await pilot.press(*"hi  there", "enter")
        await pilot.pause()
        assert "✓ Right" in text_of(app, "#drill-feedback")


async def test_full_round_summary_and_schedule(deck, scheduler, learner_home):
    finished = []
    app, clock = make_app(deck, scheduler, ["choice_one", "count_two", "tf_false"])
    async with app.run_test(size=(100, 40), message_hook=finished.append) as pilot:
        await pilot.pause()
        await pilot.press(right_key(app))  # right
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("5", "enter")  # wrong
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        clock.advance(61)  # time out
        app.screen.tick()
        await pilot.pause()
        assert "enter: see the summary" in text_of(app, "#drill-hint")
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen.has_class("-finished")
        summary_text = text_of(app, "#drill-summary-text")
        assert "Score 1/3 in 1 min 1 s" in summary_text
        assert "1 wrong, 1 timed out" in summary_text
        assert "Weak topics: beta topic (1 of 1 missed), alpha topic (1 of 2 missed)" in summary_text
        assert "count the printed lines: How many lines?" in summary_text  # the card by its question, not its id
        assert any(isinstance(m, DrillScreen.Finished) for m in finished)
        await pilot.press("enter")
        await pilot.pause()
    summary = app.return_value
    assert isinstance(summary, Summary) and (summary.right, summary.wrong, summary.timeouts) == (1, 1, 1)
    data = json.loads((learner_home / "progress.json").read_text())
    assert {k: v["last_result"] for k, v in data["drills"]["cards"].items()} == {
        "choice_one": "right", "count_two": "wrong", "tf_false": "timeout"}


async def test_escape_ends_the_round_and_r_starts_another(deck, scheduler):
    app, _ = make_app(deck, scheduler, ["choice_one", "count_two"], count=2, seed=1)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await pilot.press(right_key(app))
        await pilot.press("escape")
        await pilot.pause()
        screen = app.screen
        assert "(ended early)" in text_of(app, "#drill-summary-text") and "1 not reached" in text_of(app, "#drill-summary-text")
        await pilot.press("r")  # another round, planned from the schedule: the missed/new cards first
        await pilot.pause()
        assert app.screen is screen and not screen.has_class("-finished")
        assert screen.round.position == (1, 2)
        assert screen.round.current.id != "choice_one"  # answered right, so not due again today


async def test_budget_ends_the_round(deck, scheduler):
    app, clock = make_app(deck, scheduler, ["choice_one", "count_two"], minutes=0.5)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        assert "⏱ 30 s" in text_of(app, "#drill-countdown")
        clock.advance(31)
        await wait_until(pilot, lambda: app.screen.round.answered, 20, "the card to run out of the round's time")
        await pilot.press("enter")
        await pilot.pause()
        assert "the round's time ran out" in text_of(app, "#drill-summary-text")


async def test_proof_is_shown_after_answering(deck, scheduler):
    app, _ = make_app(deck, scheduler, ["choice_one", "count_two"])
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await pilot.press("p")  # before answering: nothing to show
        await pilot.pause()
        assert not app.screen.query_one("#drill-proof").display
        await pilot.press(right_key(app), "p")
        await pilot.pause()
        assert app.screen.query_one("#drill-proof").display
        assert "print(1 + 1)" in text_of(app, "#drill-proof") and "exactly this output: '2'" in text_of(app, "#drill-proof")
        await pilot.press("p")
        await pilot.pause()
        assert not app.screen.query_one("#drill-proof").display
        await pilot.press("enter", "2", "enter", "p")  # a typed card: p works once the answer is in
        await pilot.pause()
        assert 'print("a")' in text_of(app, "#drill-proof") and "2 printed lines" in text_of(app, "#drill-proof")


async def test_nothing_due(deck, scheduler):
    for card in deck.cards:
        scheduler.record(card.id, "right")
    app, _ = make_app(deck, scheduler, None, due_only=True)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        assert "Nothing to drill" in text_of(app, "#drill-summary-text")
        await pilot.press("escape")
        await pilot.pause()
    assert app.return_value is None


async def test_screen_pushed_by_another_app_dismisses_with_the_summary(deck, scheduler):
    from textual.app import App

    results = []

    class Host(App):
        def on_mount(self) -> None:
            self.push_screen(DrillScreen(deck, cards=[deck.find("choice_one")], scheduler=scheduler),
                             callback=results.append)

    app = Host()
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await pilot.press(right_key(app), "enter")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert not isinstance(app.screen, DrillScreen)
    assert len(results) == 1 and results[0].right == 1


async def test_the_one_line_hook_opens_a_round_of_the_bundled_deck():
    """What the main app will do: push_screen(DrillScreen()) — bundled deck, 10 cards, this learner's schedule."""
    from textual.app import App

    class Host(App):
        def on_mount(self) -> None:
            self.push_screen(DrillScreen())

    app = Host()
    async with app.run_test(size=(110, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, DrillScreen)
        assert screen.round.position == (1, 10)
        assert not screen.query_one("#drill-summary").display  # drill.tcss applies inside another app too
        assert "card 1/10" in text_of(app, "#drill-title")
        await pilot.press("escape")
        await pilot.pause()
        assert screen.query_one("#drill-summary").display
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, DrillScreen)


async def test_escape_while_typing_ends_the_round(deck, scheduler):
    app, _ = make_app(deck, scheduler, ["count_two", "choice_one"])
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        assert app.focused is app.screen.query_one("#drill-input")
        await pilot.press("3", "escape")
        await pilot.pause()
        assert app.screen.has_class("-finished")
        assert "Score 0/0" in text_of(app, "#drill-summary-text") and "2 not reached" in text_of(app, "#drill-summary-text")
        assert scheduler.state("count_two").is_new  # a half-typed answer is not an answer


async def test_d_starts_a_round_of_the_next_difficulty(deck, scheduler):
    for card in deck.cards:
        card.level = {"choice_one": "easy", "count_two": "hard"}.get(card.id, "medium")
    app, _ = make_app(deck, scheduler, None, count=4, seed=2)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert len(screen.round.cards) == 4
        await pilot.press("escape")  # the summary (a typed card's input would take the d as text)
        await pilot.pause()
        await pilot.press("d")  # all levels -> easy
        await pilot.pause()
        assert screen.options.difficulty == "easy" and [c.id for c in screen.round.cards] == ["choice_one"]
        assert "easy" in text_of(app, "#drill-title")
        assert scheduler.states() == {}  # nothing was answered
        assert app.focused is None  # the easy round's card is a choice card: d works mid-round too
        await pilot.press("d")  # -> medium
        await pilot.pause()
        assert {c.level for c in screen.round.cards} == {"medium"}
        await pilot.press("d")  # -> hard: one typed card, whose input takes what is typed
        await pilot.pause()
        assert [c.id for c in screen.round.cards] == ["count_two"]
        await pilot.press("escape", "d")  # from the summary: all levels again
        await pilot.pause()
        assert screen.options.difficulty is None and len(screen.round.cards) == 4


async def test_a_wrong_kind_of_key_is_asked_again(deck, scheduler):
    app, _ = make_app(deck, scheduler, ["choice_one", "tf_false"])
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await pilot.press("t")  # t on a choice card
        await pilot.pause()
        assert "not true or false" in text_of(app, "#drill-hint") and not app.screen.round.answered
        await pilot.press(right_key(app), "enter")
        await pilot.pause()
        await pilot.press("1")  # 1 on a true/false card
        await pilot.pause()
        assert "no numbered choices" in text_of(app, "#drill-hint") and not app.screen.round.answered


async def test_choices_show_in_the_rounds_order_and_the_seed_repeats_it(deck, scheduler):
    orders = []
    for _ in range(2):
        app, _ = make_app(deck, scheduler, ["choice_one"], seed=5)
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.pause()
            orders.append(text_of(app, "#drill-choices"))
    assert orders[0] == orders[1]
