"""Grading from the app: real worker processes for the starter, the solution, an error and a cancelled run."""

from __future__ import annotations

from apphelpers import failing_verdict, make_app, notifications, plain, show_verdict, wait_for_verdict, wait_until
from textual.widgets import Static

from jittrainer.session.progress import ProgressStore
from jittrainer.grading.verdict import Verdict

SLEEPY = "import time\ntime.sleep(60)\n"


async def test_failing_starter_shows_failed_and_the_failing_check():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        ex = app.current
        assert app.focused is app.editor  # app keys work while the editor has the focus
        await pilot.press("ctrl+r")
        assert app.grading
        assert "Grading your draft" in plain(app.verdict_panel.query_one("#checks-body", Static))
        verdict = await wait_for_verdict(pilot, app)
        assert verdict.status == "fail"
        checks = plain(app.verdict_panel.query_one("#checks-body", Static))
        assert "✘ FAILED" in checks
        first_failure = verdict.first_failure
        assert first_failure is not None
        # the first failure comes before every passing check
        assert checks.index(str(first_failure.name)) < min(checks.index(str(c.name)) for c in verdict.checks if c.status == "pass")
        assert ProgressStore().entry(ex.id)["status"] == "attempted"
        assert app.statuses[ex.id] == "attempted"
        assert "◐" in app.sidebar.query_one("#exercise-list").get_option(ex.id).prompt.plain


async def test_solution_passes_records_progress_and_shows_the_explanation():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        ex = app.current
        app.editor.text = ex.solution_path.read_text()
        await pilot.press("ctrl+r")
        verdict = await wait_for_verdict(pilot, app)
        assert verdict.status == "pass", verdict.message
        assert "✔ PASSED" in plain(app.verdict_panel.query_one("#checks-body", Static))
        entry = ProgressStore().entry(ex.id)
        assert entry["status"] == "passed" and entry["attempts"] == 1 and entry["passes"] == 1
        assert app.lesson.tabs.active == "tab-explanation"
        assert app.lesson.query_one("#explanation").source.strip().startswith(ex.explanation().strip()[:40])
        assert "1 of" in str(app.sidebar.query_one("#progress-label").render())
        # what was graded is what the draft file holds
        assert app.draft.path.read_text() == ex.solution_path.read_text()


async def test_error_line_is_marked_in_the_editor():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.editor.text = "import jax\n\ndef normalize(x:\n    return x\n"
        await pilot.press("ctrl+r")
        verdict = await wait_for_verdict(pilot, app)
        assert verdict.status == "error" and verdict.error is not None and verdict.error.line == 3
        editor = app.editor
        assert editor.error_row == 2
        assert editor.cursor_location[0] == 2
        assert any(name == "jittrainer.error_line" for _, _, name in editor._highlights[2])
        assert "SyntaxError" in plain(app.verdict_panel.query_one("#checks-body", Static))
        # the mark stays while the learner edits that line, and goes when lines move
        editor.insert("y", location=(2, 0))
        await pilot.pause()
        assert editor.error_row == 2
        editor.insert("\n", location=(0, 0))
        await pilot.pause()
        assert editor.error_row is None


async def test_a_new_run_kills_the_one_in_flight():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        ex = app.current
        app.editor.text = SLEEPY
        await pilot.press("ctrl+r")
        await wait_until(pilot, lambda: len(app.grader.history) == 1, 30, "the first run")
        first = app.grader.history[0]
        await wait_until(pilot, lambda: first.worker.used, 90, "the first job to reach its worker")
        app.editor.text = ex.solution_path.read_text()
        await pilot.press("ctrl+r")
        await wait_until(pilot, lambda: first.worker.proc.poll() is not None, 10, "the first worker to die")
        assert first.cancelled.is_set() and first.worker.killed
        verdict = await wait_for_verdict(pilot, app)
        assert verdict.status == "pass"
        assert len(app.grader.history) == 2
        assert ProgressStore().entry(ex.id)["attempts"] == 1  # the cancelled run is not an attempt


async def test_live_grading_regrades_after_typing_and_drops_stale_runs():
    app = make_app(live_delay=0.3)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        ex = app.current
        await pilot.press("ctrl+l")
        assert app.live_grading
        app.editor.text = SLEEPY
        await wait_until(pilot, lambda: len(app.grader.history) == 1, 30, "a live run")
        first = app.grader.history[0]
        app.editor.text = ex.solution_path.read_text()  # a newer edit: the running grade is stale
        await wait_until(pilot, lambda: first.cancelled.is_set(), 5, "the stale run to be cancelled")
        verdict = await wait_for_verdict(pilot, app)
        assert verdict.status == "pass"
        assert "live" in app.verdict_panel.border_subtitle


async def test_hostile_verdicts_show_their_message_and_the_app_keeps_going():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        ex_id = app.current.id
        for message in (
            "timed out after 10 s during call 1 of normalize: your code was still running",
            "the grading process crashed with signal SIGSEGV (segmentation fault) during call 1 of normalize",
        ):
            await show_verdict(pilot, app, Verdict.failure(ex_id, message, seed=1))
            text = plain(app.verdict_panel.query_one("#checks-body", Static))
            assert "⚠ ERROR" in text and message in text
        flood = failing_verdict()
        flood.exercise = ex_id
        flood.output_sections[0].text = "spam\n" * 200_000
        flood.output_truncated = True
        await show_verdict(pilot, app, flood, "output")
        output = plain(app.verdict_panel.query_one("#output-body", Static))
        assert "more characters not shown" in output and "printed more than the grader keeps" in output
        await pilot.press("ctrl+t")  # still responsive
        assert app.hints_shown[ex_id] == 1
        assert not [n for n in notifications(app) if "Could not" in n]
