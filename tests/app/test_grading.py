"""Grading from the app: real worker processes for the starter, the solution, an error and a cancelled run."""

from __future__ import annotations

import threading

import pytest
from apphelpers import (
    failing_verdict, make_app, notifications, plain, screen, show_verdict, text, wait_for_verdict, wait_until,
)
from textual.widgets import Markdown, Static

from jittrainer.grading.verdict import Verdict
from jittrainer.session.progress import ProgressStore

pytestmark = pytest.mark.worker
SLEEPY = "import time\ntime.sleep(60)\n"


async def test_failing_starter_shows_failed_and_the_failing_check():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        s = screen(app)
        ex = s.current
        assert app.focused is s.editor  # app keys work while the editor has the focus
        # The grade waits at the gate until the screen has been read: forked from the fork server, a grade can
        # be over (verdict and timing) before the key press returns, and the in-flight state would be gone.
        gate, grade = threading.Event(), app.dispatcher.grade
        app.dispatcher.grade = lambda *args, **kwargs: gate.wait(60) and grade(*args, **kwargs)
        await pilot.press("ctrl+r")
        assert s.grade_state is not None
        assert "Grading your draft" in plain(s.panel.query_one("#checks-body", Static))
        gate.set()
        verdict = await wait_for_verdict(pilot, app)
        assert verdict.status == "fail"
        checks = plain(s.panel.query_one("#checks-body", Static))
        assert "✘ FAILED" in checks
        first_failure = verdict.first_failure
        assert first_failure is not None
        # the first failure comes before every passing check
        assert checks.index(str(first_failure.name)) < min(checks.index(str(c.name)) for c in verdict.checks
                                                            if c.status == "pass")
        # observation first: the advice (the code to write) is kept back on a first failure
        assert first_failure.advice is not None and not first_failure.advice_shown
        assert str(first_failure.advice) not in checks and "kept back" in checks
        assert ProgressStore().entry(ex.id).status == "attempted"
        assert s.statuses[ex.id] == "attempted"
        assert "◐" in s.sidebar.query_one("#exercise-list").get_option(ex.id).prompt.plain


async def test_solution_passes_records_progress_and_shows_the_next_step_and_the_diff():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        s = screen(app)
        ex = s.current
        s.editor.text = ex.solution_path.read_text()
        await pilot.press("ctrl+r")
        verdict = await wait_for_verdict(pilot, app)
        assert verdict.status == "pass", verdict.message
        checks = plain(s.panel.query_one("#checks-body", Static))
        assert "✔ PASSED" in checks
        nxt = s.session.next_exercise(ex)
        assert f"{nxt.number:02d} {nxt.title}" in checks and "ctrl+n" in checks
        entry = ProgressStore().entry(ex.id)
        assert entry.status == "passed" and entry.attempts == 1 and entry.passes == 1
        why = s.panel.markdown_source("why")
        assert ex.explanation().strip()[:40] in why
        assert "reference solution" in why.lower()
        # the review of the passing program tops the Why tab once it is in: the reference is as lean as itself
        await wait_until(pilot, lambda: s.grade_state is None and s.verdicts[ex.id].review is not None,
                         what="the review")
        why = s.panel.markdown_source("why")
        assert why.startswith("## Review of your program") and "As lean as the reference" in why, why[:400]
        assert why.index("As lean as") < why.index(ex.explanation().strip()[:40])
        assert "1 of" in str(s.sidebar.query_one("#progress-label").render())
        # what was graded is what the draft file holds
        assert s.keeper.draft.path.read_text() == ex.solution_path.read_text()
        assert not [n for n in notifications(app) if "passed" in n.lower()]  # nothing over the verdict
        assert "ctrl+n" in str(s.panel.border_title)


async def test_error_line_is_marked_in_the_editor_and_cleared_by_editing_it():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        s = screen(app)
        s.editor.text = "import jax\n\ndef normalize(x:\n    return x\n"
        await pilot.press("ctrl+r")
        verdict = await wait_for_verdict(pilot, app)
        assert verdict.status == "error" and verdict.error is not None and verdict.error.line == 3
        editor = s.editor
        assert editor.error_row == 2
        assert editor.cursor_location[0] == 2
        assert any(name == "jittrainer.error_line" for _, _, name in editor._highlights[2])
        assert "SyntaxError" in plain(s.panel.query_one("#checks-body", Static))
        # the mark stays while the learner edits another line, and goes once the marked line is edited
        editor.insert("  # ok", location=(3, len(editor.document.get_line(3))))
        await pilot.pause()
        assert editor.error_row == 2
        editor.insert("y", location=(2, 0))
        await pilot.pause()
        assert editor.error_row is None


async def test_a_new_run_kills_the_one_in_flight():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        s = screen(app)
        ex = s.current
        s.editor.text = SLEEPY
        await pilot.press("ctrl+r")
        history = app.dispatcher.history
        await wait_until(pilot, lambda: len(history) == 1, 30, "the first run")
        first = history[0]
        worker = first.runs[0].worker
        await wait_until(pilot, lambda: worker is not None and worker.used, 90, "the first job to reach its worker")
        s.editor.text = ex.solution_path.read_text()
        await pilot.press("ctrl+r")
        await wait_until(pilot, lambda: worker.supervisor.poll() is not None, 10, "the first worker to die")
        assert first.cancelled.is_set() and worker.killed
        verdict = await wait_for_verdict(pilot, app)
        assert verdict.status == "pass", (verdict.message, verdict.internal_error, verdict.error)
        assert len(history) == 2
        assert ProgressStore().entry(ex.id).attempts == 1  # the cancelled run is not an attempt


async def test_live_grading_regrades_after_typing_and_drops_stale_runs():
    app = make_app(live_delay=0.3)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        s = screen(app)
        ex = s.current
        await pilot.press("ctrl+l")
        assert app.settings.live_grading
        s.editor.text = SLEEPY
        history = app.dispatcher.history
        await wait_until(pilot, lambda: len(history) == 1, 30, "a live run")
        first = history[0]
        s.editor.text = ex.solution_path.read_text()  # a newer edit: the running grade is stale
        await wait_until(pilot, lambda: first.cancelled.is_set(), 5, "the stale run to be cancelled")
        verdict = await wait_for_verdict(pilot, app)
        assert verdict.status == "pass"
        assert "live" in s.panel.border_subtitle
        # a live run is not an explicit run: it does not count towards the advice rule
        assert ProgressStore().entry(ex.id).check_failures == {}


async def test_live_grading_never_moves_the_cursor():
    app = make_app(live_delay=0.2)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        s = screen(app)
        await pilot.press("ctrl+l")
        s.editor.text = "import jax\n\ndef normalize(x:\n    return x\n# end\n"
        s.editor.move_cursor((4, 5))
        await wait_for_verdict(pilot, app)
        assert s.editor.error_row == 2  # marked...
        assert s.editor.cursor_location == (4, 5)  # ...but the cursor stays where the learner types


async def test_hostile_verdicts_show_their_message_and_the_app_keeps_going():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        s = screen(app)
        ex_id = s.current.id
        for message in (
            "timed out after 10 s during call 1 of normalize: your code was still running",
            "the grading process crashed with signal SIGSEGV (segmentation fault) during call 1 of normalize",
        ):
            await show_verdict(pilot, app, Verdict.failure(ex_id, text(message), seed=1))
            shown = plain(s.panel.query_one("#checks-body", Static))
            assert "⚠ ERROR" in shown and message in shown
        flood = failing_verdict()
        flood.exercise = ex_id
        flood.output_sections[0].text = "spam\n" * 200_000
        flood.output_truncated = True
        await show_verdict(pilot, app, flood, "output")
        output = plain(s.panel.query_one("#output-body", Static))
        assert "more characters not shown" in output and "printed more than the grader keeps" in output
        injected = failing_verdict()
        injected.exercise = ex_id
        injected.output_sections[0].text = "\x1b[2J\x1b[32mPASSED\x1b[0m \x9b31m \u202eevil\n"
        await show_verdict(pilot, app, injected, "output")
        output = plain(s.panel.query_one("#output-body", Static))
        assert not any(raw in output for raw in ("\x1b", "\x9b", "\u202e"))  # control characters shown, not obeyed
        assert "\\x1b[32mPASSED" in output and "\\u202eevil" in output
        await pilot.press("ctrl+t")  # still responsive
        assert s.entry(s.current).highest_hint == 1
        assert not [n for n in notifications(app) if "Could not" in n]


async def test_the_apps_device_mode_reaches_the_timing_and_says_where_it_ran(monkeypatch):
    """`jittrainer --device auto` on a machine without a TPU runtime: the app's grades are timed on the CPU, and the
    Timing pane says so and why (the mode reaches each grade's submission, not only the CLI's)."""
    from jittrainer.grading.host import device

    monkeypatch.setattr(device, "tpu_runtime", lambda: False)
    app = make_app(device="auto", grade_timing=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        s = screen(app)
        assert app.dispatcher.device == device.Choice("auto", "", "no TPU runtime (libtpu) is installed on this machine")
        s.editor.text = s.current.solution_path.read_text()
        await pilot.press("ctrl+r")
        verdict = await wait_for_verdict(pilot, app)
        assert verdict.status == "pass", verdict.message
        assert verdict.timing.status == "measured" and verdict.timing.platform == "cpu"
        s.panel.switch("timing")
        await pilot.pause()
        shown = plain(s.panel.query_one("#timing-body"))
        assert "steady state on the CPU: --device auto found no accelerator here" in shown, shown
