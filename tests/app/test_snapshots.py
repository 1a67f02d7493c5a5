"""Pictures of the main screen and each verdict pane, from fixed exercises and hand-made verdicts.

The fixture exercises in fixtures/exercises never change with the course, and no text on screen depends on time.
Update after a deliberate change with ``pytest tests/app/test_snapshots.py --snapshot-update`` and look at the SVGs.
"""

from __future__ import annotations

from apphelpers import (FIXTURE_EXERCISES, error_verdict, failing_verdict, lesson_drawn, make_app, show_verdict,
                        wait_until)

WIDE = (120, 40)
SMALL = (80, 24)


def app(lang: str = "en"):
    return make_app(FIXTURE_EXERCISES, lang=lang)


async def no_blink(pilot) -> None:
    # A blinking cursor is drawn or not depending on when the picture is taken (so it is stopped first, as soon as
    # the editor is there); the task's text, on how loaded the machine is (it is parsed in a thread).
    await pilot.pause()
    editor = pilot.app.main_screen.editor
    editor.cursor_blink = False
    # Textual's TextArea caches each drawn line under a key that holds the cursor only while it blinks: a line drawn
    # in a blink's "off" half has the key of one drawn once the blink is stopped, and came back from the cache
    # without its cursor (test_checks_pane under load; reproduced by drawing in the off half, then stopping the
    # blink). So the lines are drawn again.
    editor._line_cache.clear()
    editor.refresh()
    await lesson_drawn(pilot, pilot.app)


async def editor_focused(pilot) -> None:
    # The pictures show the editor with the focus (its cursor drawn). On a loaded machine the focus the screen asks
    # for at mount could still be on its way when the picture was taken (CI-like load: the cursor missing from
    # test_chinese_main_screen): wait for it, bounded (10 s).
    editor = pilot.app.main_screen.editor
    editor.focus()
    for _ in range(200):
        if editor.has_focus:
            break
        await pilot.pause(0.05)
    assert editor.has_focus, "the editor never took the focus"
    await pilot.pause()


def pane(name: str, verdict=failing_verdict):
    async def run_before(pilot) -> None:
        await no_blink(pilot)
        await show_verdict(pilot, pilot.app, verdict(), name)
        await editor_focused(pilot)

    return run_before


async def test_no_blink_draws_the_cursor_after_a_blinks_off_half():
    """The pictures' own helper: a line drawn while the blinking cursor was off is not reused once no_blink stopped
    the blink (it was, and the picture lost its cursor)."""
    shown = app()
    async with shown.run_test(size=WIDE) as pilot:
        await pilot.pause()
        editor = shown.main_screen.editor
        # the cursor blinks every 0.5 s
        await wait_until(pilot, lambda: editor.has_focus and not editor._cursor_visible, 10, "a blink's off half")
        without = [str(segment.style) for segment in editor.render_line(0)]
        await no_blink(pilot)
        cursor = str(editor._theme.cursor_style)
        assert cursor not in without and cursor in [str(segment.style) for segment in editor.render_line(0)]


def test_main_screen(snap_compare):
    async def run_before(pilot) -> None:
        await no_blink(pilot)
        await editor_focused(pilot)

    assert snap_compare(app(), terminal_size=WIDE, run_before=run_before)


def test_main_screen_small_terminal(snap_compare):
    assert snap_compare(app(), terminal_size=SMALL, run_before=pane("checks"))


def test_main_screen_light_theme(snap_compare):
    async def run_before(pilot) -> None:
        pilot.app.action_toggle_dark()
        await pane("checks")(pilot)

    assert snap_compare(app(), terminal_size=WIDE, run_before=run_before)


def test_checks_pane(snap_compare):
    assert snap_compare(app(), terminal_size=WIDE, run_before=pane("checks"))


def test_output_pane(snap_compare):
    assert snap_compare(app(), terminal_size=WIDE, run_before=pane("output"))


def test_jaxpr_pane(snap_compare):
    assert snap_compare(app(), terminal_size=WIDE, run_before=pane("jaxpr"))


def test_timing_pane(snap_compare):
    assert snap_compare(app(), terminal_size=WIDE, run_before=pane("timing"))


def test_recompiles_pane(snap_compare):
    assert snap_compare(app(), terminal_size=WIDE, run_before=pane("recompiles"))


def test_error_marks_the_line(snap_compare):
    assert snap_compare(app(), terminal_size=WIDE, run_before=pane("checks", error_verdict))


def test_chinese_main_screen(snap_compare):
    assert snap_compare(app("zh"), terminal_size=WIDE, run_before=pane("checks", lambda: failing_verdict("zh")))


def test_chinese_small_terminal(snap_compare):
    assert snap_compare(app("zh"), terminal_size=SMALL, run_before=pane("checks", lambda: failing_verdict("zh")))


def test_small_terminal_with_the_exercise_list(snap_compare):
    # Below 150 columns the list (F2) lies over the editor: the editor keeps its columns, the panel all its tabs.
    async def run_before(pilot) -> None:
        await no_blink(pilot)
        await pilot.press("f2")
        list_ = pilot.app.main_screen.sidebar
        for _ in range(200):  # until the list has its width on screen (bounded: 10 s)
            if list_.size.width:
                break
            await pilot.pause(0.05)
        # Its entries wrap for that width: lay them out for it now rather than racing its resize events, whose
        # number depends on the machine's load (a loaded machine took a different picture).
        list_.show(*list_._shown, pilot.app.main_screen.current.id)
        await pilot.pause()
        await pilot.pause()

    assert snap_compare(app(), terminal_size=SMALL, run_before=run_before)
