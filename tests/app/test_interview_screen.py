"""F10 says it is an interview from its first screen, asks before it skips a part, and its report counts what was
not reached, in plural forms (issue 22, item 6)."""

from __future__ import annotations

from apphelpers import make_app, plain, screen
from textual.widgets import Markdown, Static

from jittrainer.app.drill import DrillScreen
from jittrainer.app.interview import InterviewScreen
from jittrainer.app.screens.confirm import ConfirmScreen


async def test_the_interview_is_labelled_with_its_clock_and_asks_before_skipping_cards():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("f10")
        await pilot.pause()
        drill = app.screen
        assert isinstance(drill, DrillScreen)
        title = plain(drill.query_one("#drill-title", Static))
        assert title.lstrip().startswith("Interview") and "card 1/" in title and "min" in title and "left" in title
        assert "Drill" not in title
        hint = plain(drill.query_one("#drill-hint", Static))
        assert "skip the cards left (asks first)" in hint and "ends the round" not in hint
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        question = app.screen.question
        total = len(drill.round.cards)
        assert f"{total} cards are not answered yet" in question
        await pilot.press("n")  # no: the cards go on
        await pilot.pause()
        assert app.screen is drill and not drill.round.finished


async def test_the_report_counts_what_was_not_reached_in_plural_forms():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("f10")
        await pilot.pause()
        drill = app.screen
        total = len(drill.round.cards)
        kind = drill.card.kind
        keys = {"truefalse": ["t"], "text": ["0", "enter"], "count": ["0", "enter"]}.get(kind, ["1"])
        await pilot.press(*keys)  # answer one card, right or wrong
        await pilot.pause()
        assert drill.round.answered
        await pilot.press("escape", "y")
        await pilot.pause()
        interview = app.screen
        assert isinstance(interview, InterviewScreen)
        editor = interview.query_one("#interview-editor")
        assert str(editor.border_title).startswith("Interview · exercise 1 of ")
        await pilot.press("ctrl+n")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen) and "not tried" in app.screen.question
        await pilot.press("n")
        await pilot.pause()
        assert app.screen is interview and interview.index == 0
        await pilot.press("f10")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        left = total - 1
        assert f"{left} cards" in app.screen.question and "1 exercise" in app.screen.question
        await pilot.press("y")
        await pilot.pause(0.3)
        report = interview.query_one("#interview-report", Markdown).source
        exercises = len(interview.plan.exercises)
        assert "(1 card, 1 exercise)" in report, report
        assert f"Not reached before the end: {left} cards" in report
        if exercises > 1:
            assert f"{exercises - 1} exercise" in report.split("Not reached before the end:")[1].split("\n")[0]
        assert "(0 runs)" in report and "1 runs" not in report and "1 exercises" not in report
        assert screen(app).current is not None
        await pilot.press("f10")  # closes the report: no question once it is over
        await pilot.pause()
        assert not isinstance(app.screen, (InterviewScreen, ConfirmScreen))
