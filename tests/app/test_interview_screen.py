"""F10 runs the mock interview part by part: labelled with the part and its clock, asking before it skips
anything, its footer offering only what works where the candidate is, and a report that counts nothing the
interview did not reach, with each part's time, in plural forms (issues 22, 36 and 37 item 7). Every wait waits for
a condition."""

from __future__ import annotations

from apphelpers import make_app, plain, wait_until
from textual.widgets import Input, Markdown, Static

from jittrainer.app.drill import DrillScreen
from jittrainer.app.interview import InterviewScreen
from jittrainer.app.interview_explain import ExplainScreen
from jittrainer.app.screens.confirm import ConfirmScreen
from jittrainer.session.progress import ProgressStore

KEYS = {"truefalse": ["t"], "text": ["0", "enter"], "count": ["0", "enter"]}


async def _open(pilot, app) -> DrillScreen:
    await pilot.press("f10")
    await wait_until(pilot, lambda: isinstance(app.screen, DrillScreen), what="the warm-up's cards")
    return app.screen


async def _answer(pilot, drill: DrillScreen) -> None:
    answered = len(drill.round.outcomes)
    await pilot.press(*KEYS.get(drill.card.kind, ["1"]))
    await wait_until(pilot, lambda: len(drill.round.outcomes) > answered, what="the card's outcome")


async def _skip_cards(pilot, app, drill: DrillScreen) -> None:
    await pilot.press("escape")
    await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the skip question")
    await pilot.press("y")
    await wait_until(pilot, lambda: app.screen is not drill and not isinstance(app.screen, ConfirmScreen),
                     what="the next part")


def _footer_actions(screen) -> set[str]:
    return {b.binding.action for b in screen.active_bindings.values() if b.enabled}


async def test_the_warm_up_is_labelled_with_its_part_and_clock_and_asks_before_skipping():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        drill = await _open(pilot, app)
        interview = app.screen_stack[-2]
        assert isinstance(interview, InterviewScreen)
        assert [p.id for p in interview.plan.parts] == ["warmup", "coding", "debugging", "rapid", "explain"]
        title = plain(drill.query_one("#drill-title", Static))
        assert title.lstrip().startswith("Interview") and "Warm-up" in title and "card 1/" in title
        assert "left" in title and "Drill" not in title
        assert "skip the cards left (asks first)" in plain(drill.query_one("#drill-hint", Static))
        footer = {b.binding.description for b in drill.active_bindings.values() if b.binding.action == "end_round"}
        assert footer == {"Skip the rest"}  # not "End round" (issue 37's zh review: the footer and the hint disagreed)
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the skip question")
        question = app.screen.question
        assert f"{len(drill.round.cards)} cards are not answered yet" in question
        assert "goes on with the coding exercise" in question
        await pilot.press("n")  # no: the cards go on
        await wait_until(pilot, lambda: app.screen is drill, what="the cards again")
        assert not drill.round.finished


async def test_the_coding_part_then_the_report_counts_only_what_was_reached():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:  # the smallest size a learner uses: the report must scroll
        drill = await _open(pilot, app)
        interview = app.screen_stack[-2]
        coding = interview.plan.part("coding")
        assert len(coding.exercises) == 2 and coding.exercises[1].id in coding.follows  # a pair from the plan file
        total = len(drill.round.cards)
        await _answer(pilot, drill)
        await _skip_cards(pilot, app, drill)
        assert app.screen is interview and interview.coding
        editor = interview.query_one("#interview-editor")
        assert str(editor.border_title).startswith("Interview · Coding exercise · exercise 1 of 2 · ")
        assert {"grade", "skip", "finish"} <= _footer_actions(interview)
        await pilot.press("ctrl+n")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the skip question")
        assert "not tried" in app.screen.question
        await pilot.press("y")
        await wait_until(pilot, lambda: app.screen is interview and interview.exercise_index == 1,
                         what="the follow-up")
        assert "· follow-up ·" in str(editor.border_title)
        statement = interview.query_one("#interview-statement", Markdown).source
        assert statement.startswith("> Follow-up: ") and coding.follows[coding.exercises[1].id].note("en") in statement
        await pilot.press("f10")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the end question")
        left = len(interview.plan.cards) - 1  # the warm-up's others, the debugging task's, the rapid questions
        assert total < left and f"{left} cards" in app.screen.question
        assert "exercise" not in app.screen.question  # both exercises were opened
        await pilot.press("y")
        await wait_until(pilot, lambda: interview.finished, what="the report")
        report = interview.query_one("#interview-report-text", Markdown).source
        assert "0 of 2 exercises passed" in report and "1 exercises" not in report
        assert "Not reached before the end (not counted): " + f"{left} cards" in report
        assert "- Warm-up: " in report and "- Coding exercise: " in report and "- Debugging: " in report
        assert "Debugging:       not reached" in report
        assert "(follow-up): not tried · 0 grades" in report
        scroll = interview.query_one("#interview-report")
        await wait_until(pilot, lambda: scroll.max_scroll_y > 0, what="a report taller than the screen")
        await pilot.press("end")  # the report scrolls to its last lines
        await wait_until(pilot, lambda: scroll.scroll_y == scroll.max_scroll_y, what="the report's end")
        mine = {"grade", "skip", "finish", "close"}
        assert _footer_actions(interview) & mine == {"close"}  # no Grade, no Skip exercise on the report (37, 7)
        saved = ProgressStore().load().interviews
        assert len(saved) == 1 and [a["opened"] for a in saved[0]["exercises"]] == [True, True]
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, (InterviewScreen, ConfirmScreen)),
                         what="the interview closed")


async def test_an_exercise_never_opened_is_not_an_item_and_the_explain_question_is_recorded():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        drill = await _open(pilot, app)
        interview = app.screen_stack[-2]
        await _answer(pilot, drill)
        await _skip_cards(pilot, app, drill)
        await pilot.press("ctrl+n")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the skip question")
        await pilot.press("y")
        await wait_until(pilot, lambda: app.screen is interview and interview.exercise_index == 1,
                         what="the follow-up")
        await pilot.press("ctrl+n")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the skip question")
        assert "the interview goes on with the debugging task" in app.screen.question
        await pilot.press("y")
        await wait_until(pilot, lambda: isinstance(app.screen, DrillScreen), what="the debugging task")
        debug = app.screen
        assert "Debugging" in plain(debug.query_one("#drill-title", Static))
        assert all(c.id.startswith("debug_") for c in debug.round.cards)
        await _answer(pilot, debug)
        await _skip_cards(pilot, app, debug)
        rapid = app.screen
        assert isinstance(rapid, DrillScreen) and "Rapid questions" in plain(rapid.query_one("#drill-title", Static))
        await _skip_cards(pilot, app, rapid)
        explain = app.screen
        assert isinstance(explain, ExplainScreen)
        assert explain.outcome.card.id in {o.card.id for o in interview.outcomes}
        assert "grade" not in _footer_actions(explain)  # y, p and n are letters of the explanation until it is typed
        explain.query_one("#explain-input", Input).value = "it compiles once per shape"
        await pilot.press("enter")
        await wait_until(pilot, lambda: explain.compared, what="the card's explanation")
        assert "The card's explanation:" in plain(explain.query_one("#explain-feedback", Static))
        await pilot.press("p")
        await wait_until(pilot, lambda: interview.finished, what="the report")
        report = interview.query_one("#interview-report-text", Markdown).source
        assert "you judged that it named part of it" in report
        entry = ProgressStore().load().interviews[-1]
        assert entry["explain"]["text"] == "it compiles once per shape" and entry["explain"]["grade"] == "partly"
        assert entry["task"] and [c["part"] for c in entry["cards"]] == ["warmup", "debugging"]


async def test_an_interview_ended_during_the_first_exercise_never_opens_the_follow_up():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        drill = await _open(pilot, app)
        interview = app.screen_stack[-2]
        await _skip_cards(pilot, app, drill)
        await pilot.press("f10")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the end question")
        assert "1 exercise" in app.screen.question and "1 exercises" not in app.screen.question
        await pilot.press("y")
        await wait_until(pilot, lambda: interview.finished, what="the report")
        report = interview.query_one("#interview-report-text", Markdown).source
        assert "0 of 1 exercise passed" in report and "(follow-up): not reached" in report
        assert "Not reached before the end (not counted): " in report and "1 exercise" in report
