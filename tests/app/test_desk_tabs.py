"""Where the panel's tabs and the focus go at the desk: a verdict opens on Checks after a scratch run (issue 37,
item 1), and keys typed while the panel has the focus reach the code (item 3). At the three sizes a learner uses,
in both languages."""

from __future__ import annotations

import dataclasses

import pytest
from apphelpers import failing_verdict, make_app, post_keys, screen, wait_until

from jittrainer.app.messages import ScratchReady, VerdictReady

SIZES = ((80, 24), (120, 40), (200, 50))
size_ids = lambda size: "x".join(map(str, size))  # noqa: E731


async def scratch_then_grade(pilot, app, s):
    """F6, its result, then ctrl+r and the verdict: with no worker (the worker tests run real ones)."""
    from test_scratch_app import made_run

    ex = s.current
    await pilot.press("f6")
    s.post_message(ScratchReady(s.grade_state.run_id, ex.id, made_run(ex.id)))
    await wait_until(pilot, lambda: s.grade_state is None, what="the scratch run shown")
    await pilot.press("ctrl+r")
    s.post_message(VerdictReady(s.grade_state.run_id, ex.id, dataclasses.replace(failing_verdict(), exercise=ex.id),
                                timing_pending=False))
    await wait_until(pilot, lambda: s.grade_state is None, what="the verdict")
    await pilot.pause()


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("size", SIZES, ids=size_ids)
async def test_after_a_scratch_run_the_next_verdict_opens_on_checks(size, lang):
    app = make_app(lang=lang)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        s = screen(app)
        s._scratch = s._grade = lambda *args: None  # the verdicts come from the test
        await scratch_then_grade(pilot, app, s)
        assert s.panel.active == "checks"
        # twice in a row, as a learner iterates
        await scratch_then_grade(pilot, app, s)
        assert s.panel.active == "checks"


@pytest.mark.parametrize("size", SIZES, ids=size_ids)
async def test_a_verdict_tab_the_learner_chose_stays(size):
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        s = screen(app)
        s._scratch = s._grade = lambda *args: None
        await scratch_then_grade(pilot, app, s)
        await pilot.press("f3")  # Checks → Output, by the learner's own key: to watch what each call prints
        await wait_until(pilot, lambda: s.panel.active == "output", what="the Output tab")
        ex = s.current
        await pilot.press("ctrl+r")
        s.post_message(VerdictReady(s.grade_state.run_id, ex.id, dataclasses.replace(failing_verdict(), exercise=ex.id),
                                    timing_pending=False))
        await wait_until(pilot, lambda: s.grade_state is None, what="the verdict")
        assert s.panel.active == "output"
        # the Task the exercise opened on is not a verdict tab: a grade from there opens Checks
        await pilot.press("f4", "f4", "f4")
        await wait_until(pilot, lambda: s.panel.active == "task", what="the Task tab")
        await pilot.press("ctrl+r")
        assert s.panel.active == "checks"


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("size", SIZES, ids=size_ids)
async def test_typing_while_the_panel_has_the_focus_goes_into_the_code(size, lang):
    app = make_app(lang=lang)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        s = screen(app)
        before = s.editor.text
        in_panel = lambda: app.focused is not None and s.panel in app.focused.ancestors_with_self  # noqa: E731
        # escape, then a line typed in one burst (as a terminal delivers it): every key reaches the code, in order
        post_keys(app, "escape", *"x = 1")
        await wait_until(pilot, lambda: s.editor.text == "x = 1" + before, what="the typing in the editor")
        assert app.focused is s.editor
        # the panel's own keys still scroll it, and leave the focus there
        await pilot.press("escape")
        await wait_until(pilot, in_panel, what="the panel's focus")
        await pilot.press("j")
        assert in_panel() and s.editor.text == "x = 1" + before
        # zoomed on the panel: the key brings the editor back, typed
        await pilot.press("f8")
        await wait_until(pilot, lambda: s.maximized is s.panel, what="the zoom")
        post_keys(app, *"yz")
        await wait_until(pilot, lambda: s.editor.text.startswith("x = 1yz"), what="the typing after the zoom")
        assert s.maximized is None and app.focused is s.editor
