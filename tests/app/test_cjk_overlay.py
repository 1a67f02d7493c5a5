"""The exercise list drawn over the editor (below 150 columns) shows every Chinese character it holds.

Textual's compositor divided the list's lines wherever a widget *under* it started or ended (the panel's tab
labels, the panel's inner edge), and a double-width character across such a place became two spaces: "十六格的托盘"
read "六格的托" at 120×40 and 80×24. What reaches the screen is compared with what the list itself draws, line by line,
at the sizes a learner uses (200×50: docked, nothing under it).
"""

from __future__ import annotations

import pytest
from apphelpers import make_app, wait_until
from textual.geometry import Region

SIZES = ((80, 24), (120, 40), (200, 50))


def screen_text(app, region: Region) -> list[str]:
    strips = app.screen._compositor.render_strips()  # as the snapshot plugin reads the screen
    return [strips[y].crop(region.x, region.right).text for y in range(region.y, region.bottom)]


def drawn_by(widget) -> list[str]:
    """What the widget itself draws (its scrollbars aside), before the compositor places it on the screen."""
    region, width = widget.region, widget.scrollable_content_region.width
    return [strip.crop(0, width).text for strip in widget.render_lines(Region(0, 0, region.width, region.height))]


async def open_list(pilot, app):
    s = app.main_screen
    if not s.sidebar.display or s.sidebar.region.width == 0:
        await pilot.press("f2")
    await wait_until(pilot, lambda: s.sidebar.region.width > 0, what="the list")
    option_list = s.sidebar.query_one("#exercise-list")
    await wait_until(pilot, lambda: option_list.option_count > 30, what="the list's options")
    await pilot.pause()
    return option_list


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("size", SIZES, ids=lambda size: "x".join(map(str, size)))
async def test_the_list_over_the_editor_shows_what_it_draws(size, lang):
    app = make_app(lang=lang)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        option_list = await open_list(pilot, app)
        lost = []
        seen = ""
        for step in range(4):  # the whole list, a page at a time
            await pilot.pause()
            want, got = drawn_by(option_list), screen_text(app, option_list.scrollable_content_region)
            seen += "".join(want)
            lost += [f"drawn {w!r}\nshown {g!r}" for w, g in zip(want, got) if w != g]
            option_list.scroll_page_down(animate=False)
        if lang == "zh":
            assert "十六格的托盘" in seen and "静态与追踪" in seen
        assert not lost, "\n".join(lost[:6])
