"""The scratch run in the app (F6): the draft's __main__ block run in a worker, shown over the Output, Jaxpr and
Recompiles tabs (marked), never recorded, and replaced by the next verdict."""

from __future__ import annotations

import dataclasses

import pytest
from apphelpers import failing_verdict, make_app, plain, screen, show_verdict, wait_for_verdict, wait_until
from textual.widgets import Static

from jittrainer.app.messages import ScratchReady
from jittrainer.grading.scratch import ScratchCall, ScratchRun
from jittrainer.grading.verdict import CacheMiss, ErrorInfo, Jaxpr, OutputSection
from jittrainer.i18n.message import Msg
from jittrainer.session.progress import ProgressStore


def made_run(exercise_id: str, *, error: ErrorInfo | None = None) -> ScratchRun:
    return ScratchRun(
        exercise=exercise_id, headline=Msg("test", "your program ran: 2 jitted calls"),
        calls=[ScratchCall(1, "normalize", ["float32[16]"], 1, 1), ScratchCall(2, "normalize", ["float32[16]"])],
        traces=1, compiles=1,
        cache_misses=[CacheMiss(function="normalize", reason=Msg("test", "first call of normalize"), call=1)],
        output_sections=[OutputSection("call 1", "mean of this batch: JitTracer(float32[])\n"),
                         OutputSection("call 2", "")],
        jaxprs=[Jaxpr(function="normalize", text="{ lambda ; a:f32[16]. let b:f32[] = reduce_sum a in (b,) }")],
        error=error, duration_s=0.5)


async def test_f6_in_the_editor_is_the_scratch_run_not_select_line():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        s = screen(app)
        started = []
        s._scratch = lambda *args: started.append(args)  # the worker part is the worker test's
        assert app.focused is s.editor
        await pilot.press("f6")
        assert started and s.grade_state is not None and s.grade_state.phase == "scratch"
        assert s.editor.selected_text == ""  # TextArea's own F6 (select the line) did not run
        assert s.panel.active == "output"


async def test_a_scratch_run_shows_over_three_tabs_marked_and_the_next_verdict_replaces_it():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        s = screen(app)
        ex = s.current
        s._scratch = lambda *args: None
        await pilot.press("f6")
        run_id = s.grade_state.run_id
        s.post_message(ScratchReady(run_id, ex.id, made_run(ex.id, error=ErrorInfo(
            "ValueError", "bad", line=3, traceback="Traceback (your code only):\n  line 3\nValueError: bad"))))
        await wait_until(pilot, lambda: s.grade_state is None, what="the scratch run shown")
        await pilot.pause()
        output = plain(s.panel.query_one("#output-body", Static))
        assert "▷ Scratch run · RAISED" in output and "ungraded, not recorded" in output
        assert "Where your code failed (line 3)" in output
        assert "── call 1 · normalize(float32[16]) ──" in output and "JitTracer" in output
        assert "── call 2 · normalize(float32[16]) ──" in output and "(printed nothing)" in output
        recompiles = plain(s.panel.query_one("#recompiles-body", Static))
        assert "1 trace, 1 compile over the program's jitted calls" in recompiles
        assert "first call of normalize" in recompiles and "cached" in recompiles
        assert "reduce_sum" in plain(s.panel.query_one("#jaxpr-code", Static))
        labels = {tab: str(s.panel.tabs.get_tab(f"tab-{tab}").label) for tab in ("output", "jaxpr", "recompiles")}
        assert all("▷" in label for label in labels.values()), labels
        assert "Press ctrl+r" in plain(s.panel.query_one("#checks-body", Static))  # no verdict came from it
        assert s.editor.error_row == 2  # line 3, 0-based
        assert ProgressStore().entry(ex.id).attempts == 0

        # Opening another exercise and coming back keeps it; a verdict replaces it.
        s.open_exercise(s.session.next_exercise(ex).id)
        await pilot.pause()
        s.open_exercise(ex.id)
        await pilot.pause()
        assert "▷ Scratch run" in plain(s.panel.query_one("#output-body", Static))
        await show_verdict(pilot, app, dataclasses.replace(failing_verdict(), exercise=ex.id), pane="output")
        assert "Scratch run" not in plain(s.panel.query_one("#output-body", Static))
        assert "▷" not in str(s.panel.tabs.get_tab("tab-output").label)


@pytest.mark.worker
async def test_scratch_run_of_the_starter_in_a_real_worker_then_grade():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        s = screen(app)
        ex = s.current
        await pilot.press("f6")
        await wait_until(pilot, lambda: ex.id in s.scratch_runs and s.grade_state is None, 90, "a scratch run")
        await pilot.pause()
        run = s.scratch_runs[ex.id]
        assert run.ok and len(run.calls) == 2, run.message
        output = plain(s.panel.query_one("#output-body", Static))
        # The starter's print runs while tracing: under the first call only, a tracer, not numbers.
        first, second = output.index("── call 1 · "), output.index("── call 2 · ")
        assert "Tracer" in output[first:second]
        assert ProgressStore().entry(ex.id).attempts == 0
        await pilot.press("ctrl+r")
        verdict = await wait_for_verdict(pilot, app)
        assert verdict.status == "fail"
        assert ex.id not in s.scratch_runs and "Scratch run" not in plain(s.panel.query_one("#output-body", Static))
        assert ProgressStore().entry(ex.id).attempts == 1
