"""What the panel says after a grade, a pass and a reset (issue 22, item 8): nothing stale, nothing covering the
verdict, nothing said twice."""

from __future__ import annotations

import dataclasses

from apphelpers import (FIXTURE_EXERCISES, failing_verdict, make_app, notifications, plain, screen, show_verdict,
                        text)
from textual.widgets import Static

from jittrainer.grading.verdict import ErrorInfo, Verdict


def passing_verdict() -> Verdict:
    verdict = failing_verdict()
    checks = [dataclasses.replace(c, status="pass", advice=None) for c in verdict.checks]
    return dataclasses.replace(verdict, status="pass", headline=text("All checks passed."), checks=checks)


def syntax_error_verdict() -> Verdict:
    message = "SyntaxError on line 5: expected ':'"
    return Verdict.failure("demo_print", text(message),
                           error=ErrorInfo("SyntaxError", "expected ':'", line=5, col=15,
                                           traceback=f"{message}\n    def double(x)\n                 ^",
                                           phase="compile"), seed=7)


async def test_a_reset_clears_the_verdict_of_the_code_it_replaced():
    app = make_app(FIXTURE_EXERCISES)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        s = screen(app)
        await show_verdict(pilot, app, syntax_error_verdict())
        checks = s.panel.query_one("#checks-body", Static)
        assert "SyntaxError" in plain(checks) and s.editor.error_row == 4
        s.action_reset()
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert "SyntaxError" not in plain(checks)
        assert "not graded" in plain(checks).lower() or "ctrl+r" in plain(checks)
        assert str(s.panel.border_title) == "Task and verdict"
        assert s.editor.error_row is None
        assert s.current.id not in s.verdicts


async def test_a_pass_puts_no_notice_over_the_panel_and_says_it_in_the_panel_title():
    app = make_app()  # the real course: there is a next exercise
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await pilot.pause()
        s = screen(app)
        await show_verdict(pilot, app, dataclasses.replace(passing_verdict(), exercise=s.current.id))
        await pilot.pause()
        assert notifications(app) == []
        assert not app.query("Toast")
        assert str(s.panel.border_title) == "✔ PASSED  ·  next exercise: ctrl+n"
        checks = plain(s.panel.query_one("#checks-body", Static))
        assert "✔ PASSED" in checks and "Why tab" in checks and "ctrl+n" in checks


async def test_a_syntax_errors_message_is_shown_once():
    app = make_app(FIXTURE_EXERCISES)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        s = screen(app)
        await show_verdict(pilot, app, syntax_error_verdict())
        checks = plain(s.panel.query_one("#checks-body", Static))
        assert checks.count("SyntaxError on line 5: expected ':'") == 1, checks
        assert "def double(x)" in checks  # the code and the caret are still there


def test_the_cli_prints_a_syntax_errors_message_once(capsys):
    from pathlib import Path

    from jittrainer.cli.report import print_verdict
    from jittrainer.cli.style import Style
    from jittrainer.course.exercises import load_exercises

    ex = load_exercises(FIXTURE_EXERCISES)[0]

    class Plain:
        def isatty(self):
            return False

    print_verdict(syntax_error_verdict(), ex, Path("demo_print.py"), Style(Plain()))
    out = capsys.readouterr().out
    assert out.count("SyntaxError on line 5: expected ':'") == 1, out
    assert "def double(x)" in out


async def test_failing_verdict_still_shows_in_full():
    app = make_app(FIXTURE_EXERCISES)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        s = screen(app)
        await show_verdict(pilot, app, failing_verdict())
        assert "FAILED" in str(s.panel.border_title)
