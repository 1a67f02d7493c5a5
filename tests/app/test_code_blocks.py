"""Code blocks in the Task pane show every character of every line, zoomed or not, at the three sizes a learner uses
and in both languages (issue 37, item 2): the statements quote JAX's errors in them, and those ended mid-word at the
pane's edge (13: ``…while trying to hash an object of``; 31: ``…for arg: flo``)."""

from __future__ import annotations

import pytest
from apphelpers import lesson_drawn, make_app, screen, wait_until
from textual.widgets._markdown import MarkdownFence

SIZES = ((80, 24), (120, 40), (200, 50))


def screen_rows(app, region) -> list[str]:
    strips = app.screen._compositor.render_strips()
    return [strips[y].crop(region.x, region.right).text for y in range(region.y, region.bottom)]


async def fence_text(pilot, app, pane, fence) -> str:
    """What the screen shows of ``fence``, every row of it (scrolled into view a page at a time)."""
    rows: dict[int, str] = {}
    height = fence.outer_size.height
    page = max(1, pane.scrollable_content_region.height - 1)
    pane.scroll_to_widget(fence, top=True, animate=False, immediate=True)
    await pilot.pause()
    top = pane.scroll_y + fence.region.y - pane.scrollable_content_region.y  # the fence's row in the pane's text
    for offset in range(0, height, page):
        pane.scroll_to(y=top + offset, animate=False, immediate=True)
        await pilot.pause()
        visible = fence.region.intersection(pane.scrollable_content_region)
        for i, row in enumerate(screen_rows(app, visible)):
            rows[visible.y - fence.region.y + i] = row
    assert len(rows) == height, f"rows {sorted(rows)} of {height}"
    return "\n".join(rows[y] for y in sorted(rows))


def bare(text: str) -> str:
    return "".join(text.replace("↪", "").split())


@pytest.mark.parametrize("zoom", [False, True], ids=["panel", "zoomed"])
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("size", SIZES, ids=lambda size: "x".join(map(str, size)))
async def test_every_character_of_a_quoted_error_is_on_screen(size, lang, zoom):
    app = make_app(lang=lang)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        s = screen(app)
        checked = 0
        for exercise_id in ("unhashable_static", "shard_map_psum"):
            s.open_exercise(exercise_id)
            await wait_until(pilot, lambda: s.current.id == exercise_id, what=exercise_id)
            await lesson_drawn(pilot, app)
            task = s.panel.query_one("#task-body")
            if zoom:
                await pilot.press("escape")  # the focus to the panel, then F8 fills the screen with it
                await wait_until(pilot, lambda: s.panel in app.focused.ancestors_with_self, what="the panel's focus")
                await pilot.press("f8")
                await wait_until(pilot, lambda: s.maximized is s.panel, what="the zoom")
                await pilot.pause()
            fences = list(task.query(MarkdownFence))
            assert fences, f"{exercise_id}: no code block in the task"
            for fence in fences:
                shown = await fence_text(pilot, app, task, fence)
                assert bare(fence.code) == bare(shown), f"{exercise_id}:\n{fence.code}\n--- on screen:\n{shown}"
                checked += any(len(line) > 60 for line in fence.code.splitlines())
            if zoom:
                await pilot.press("f8")
                await wait_until(pilot, lambda: s.maximized is None, what="the zoom undone")
            s.editor.focus()
        assert checked >= 2  # the long quoted errors were among them
