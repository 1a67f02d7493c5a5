"""Smaller things at the desk (issue 37, item 7): inside the app the drill summary names exercises and cards, not
shell commands and file ids; every footer fits at 80 columns, the drill's and the interview's too, whatever size
the terminal had when they opened; the exercise list over the editor is wide enough for its titles."""

from __future__ import annotations

import pytest
from apphelpers import list_wrapped, make_app, screen, wait_until
from textual.widgets import Footer, Static

from jittrainer.course.drills.loader import load_drills
from jittrainer.course.drills.round import RoundOptions

SIZES = ((80, 24), (120, 40), (200, 50))
size_ids = lambda size: "x".join(map(str, size))  # noqa: E731


def footer_cut(app) -> list[str]:
    """The footer's keys that do not fit in the terminal's width."""
    width = app.size.width
    footer = app.screen.query_one(Footer)
    return [str(key.description) for key in footer.query("FooterKey")
            if key.display and key.region.width and key.region.right > width]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("size", SIZES, ids=size_ids)
async def test_the_drill_summary_in_the_app_names_exercises_and_cards(size, lang):
    app = make_app(lang=lang)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        deck = load_drills(app.session.course.root / "drills")
        cards = [card for card in deck.cards if card.kind in ("choice", "bug")][:2]
        from jittrainer.app.drill import DrillScreen

        app.push_screen(DrillScreen(deck, cards=cards, options=RoundOptions(count=2), exercise_name=app.exercise_name))
        await wait_until(pilot, lambda: isinstance(app.screen, DrillScreen), what="the drill")
        drill = app.screen
        for card in cards:
            await wait_until(pilot, lambda: drill.round is not None and drill.round.current is not None,
                             what="a card")
            shown = drill.round.current_shown
            wrong = next(i for i in range(1, len(shown.order) + 1) if i != shown.right_number)
            await pilot.press(str(wrong))
            await pilot.pause()
            await pilot.press("enter")
            await pilot.pause()
        await wait_until(pilot, lambda: drill.has_class("-finished"), what="the summary")
        summary = str(drill.query_one("#drill-summary-text", Static).render())
        assert "jittrainer" not in summary and "--" not in summary, summary
        for card in cards:
            assert card.id not in summary and card.id.replace("_", " ") not in summary
        practise = [line for line in summary.splitlines() if "F2" in line]
        assert practise and any(f"{ex.number:02d} {app.session.title(ex)}" in practise[0]
                                for ex in app.session.exercises), summary
        assert not footer_cut(app), footer_cut(app)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("opener", ["f9", "f10"])
async def test_every_footer_fits_at_80_columns_after_a_resize(opener, lang):
    app = make_app(lang=lang)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press(opener)
        await wait_until(pilot, lambda: app.screen is not app.main_screen, what="the drill or the interview")
        await pilot.resize_terminal(80, 24)
        await wait_until(pilot, lambda: app.screen.query_one(Footer).compact, what="the footer fitted")
        await pilot.pause()
        assert not footer_cut(app), footer_cut(app)
        while app.screen is not app.main_screen and len(app.screen_stack) > 1:
            app.pop_screen()
            await pilot.pause()
        await wait_until(pilot, lambda: app.screen is app.main_screen, what="the desk")
        await pilot.pause()
        assert not footer_cut(app), footer_cut(app)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("size", SIZES[:2], ids=size_ids)
async def test_the_list_over_the_editor_has_room_for_its_titles(size, lang):
    app = make_app(lang=lang)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        s = screen(app)
        await pilot.press("f2")
        await wait_until(pilot, lambda: list_wrapped(s), what="the list wrapped for its width")
        option_list = s.sidebar.query_one("#exercise-list")
        lines = {ex.id: len(option_list.get_option(ex.id).prompt.plain.split("\n"))
                 for ex in s.session.course.exercises if ex.available}
        assert s.sidebar.region.width >= min(46, size[0] // 2)
        most = 2 if size[0] >= 120 or lang == "zh" else 3
        assert max(lines.values()) <= most, {k: v for k, v in lines.items() if v > most}
