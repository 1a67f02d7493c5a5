"""Moving around: next/previous, the command palette, hint tiers, revealing the solution, help."""

from __future__ import annotations

from apphelpers import make_app, notifications
from textual.widgets import Markdown

from jittrainer.app.screens.confirm import ConfirmScreen
from jittrainer.app.screens.help import HelpScreen
from jittrainer.app.widgets.lesson import NUMBERED
from jittrainer.session.progress import ProgressStore


async def test_next_and_previous_exercise():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        available = [ex for ex in app.exercises if ex.available]
        assert app.current is available[0]
        await pilot.press("ctrl+n")
        assert app.current is available[1]
        await pilot.press("alt+right")
        assert app.current is available[2]
        await pilot.press("ctrl+b")
        assert app.current is available[1]
        await pilot.press("alt+left")
        assert app.current is available[0]
        await pilot.press("ctrl+b")
        assert app.current is available[0] and "first exercise" in notifications(app)[-1]
        assert ProgressStore().load()["last_open"] == available[0].id
        assert app.lesson.query_one("#statement", Markdown).source == available[0].statement()


async def test_palette_opens_an_exercise():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        target = [ex for ex in app.exercises if ex.available][2]
        await pilot.press("ctrl+p")
        await pilot.press(*f"Open exercise: {target.number:02d}")
        await pilot.pause(0.5)
        await pilot.press("enter")
        await pilot.pause()
        assert app.current is target


async def test_hints_come_one_tier_at_a_time_and_are_recorded():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        ex = app.current
        hints = [NUMBERED.sub("", hint.title) for hint in ex.hints()]
        hints_md = app.lesson.query_one("#hints", Markdown)
        assert hints[0] not in hints_md.source
        await pilot.press("ctrl+t")
        await pilot.pause()
        assert app.lesson.tabs.active == "tab-hints"
        assert hints[0] in hints_md.source and hints[1] not in hints_md.source
        assert ProgressStore().entry(ex.id)["hints_used"] == [1]
        await pilot.press("ctrl+t")
        await pilot.pause()
        assert hints[1] in hints_md.source
        assert ProgressStore().entry(ex.id)["hints_used"] == [1, 2]
        assert str(app.lesson.tabs.get_tab("tab-hints").label) == f"Hints 2/{len(hints)}"
        for _ in range(len(hints)):
            await pilot.press("ctrl+t")
        assert ProgressStore().entry(ex.id)["hints_used"] == list(range(1, len(hints) + 1))
        assert "last hint" in notifications(app)[-1]
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:  # taken hints are still there next time
        await pilot.pause()
        await pilot.pause()
        assert hints[-1] in app.lesson.query_one("#hints", Markdown).source


async def test_reveal_asks_first_before_a_pass_and_is_recorded():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        ex = app.current
        app.action_reveal()
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        assert ProgressStore().entry(ex.id)["solution_revealed_at"] is None
        await pilot.press("ctrl+p")
        await pilot.press(*"Reveal solution")
        await pilot.pause(0.5)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await pilot.pause()
        entry = ProgressStore().entry(ex.id)
        assert entry["solution_revealed_at"] and entry["revealed_before_pass"]
        source = app.lesson.query_one("#explanation", Markdown).source
        assert ex.solution_path.read_text().strip() in source
        assert app.lesson.tabs.active == "tab-explanation"
        assert app.editor.text == ex.starter_path.read_text()  # the draft is left alone


async def test_f1_lists_every_key():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = app.screen.query_one("#help-text", Markdown).source
        for keys in ("ctrl+r", "ctrl+n, alt+right", "ctrl+b, alt+left", "ctrl+t", "ctrl+p", "f1", "ctrl+q", "ctrl+l"):
            assert f"`{keys}`" in text
        await pilot.press("ctrl+r")  # main-screen keys are off while help is open
        assert not app.grader.history
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)


async def test_sidebar_choice_opens_the_exercise():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        target = [ex for ex in app.exercises if ex.available][1]
        option_list = app.sidebar.query_one("#exercise-list")
        option_list.focus()
        option_list.highlighted = option_list.get_option_index(target.id)
        await pilot.press("enter")
        await pilot.pause()
        assert app.current is target and app.focused is app.editor


async def test_f3_cycles_the_verdict_panes_from_the_editor():
    from textual.widgets import TabbedContent

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert app.focused is app.editor
        tabs = app.verdict_panel.query_one(TabbedContent)
        seen = []
        for _ in range(5):
            await pilot.press("f3")
            seen.append(tabs.active)
        assert seen == ["tab-output", "tab-jaxpr", "tab-timing", "tab-recompiles", "tab-checks"]
        await pilot.press("shift+f3")
        assert tabs.active == "tab-recompiles"
        assert app.editor.text == app.current.starter_path.read_text()  # nothing was typed into the draft


async def test_f4_opens_a_drill_round_and_escape_comes_back():
    from jittrainer.app.drill import DrillScreen
    from jittrainer.app.screens.main import MainScreen

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("f4")
        await pilot.pause()
        assert isinstance(app.screen, DrillScreen)
        assert not app.screen.active_bindings.get("ctrl+r")  # the trainer's keys are off while drilling
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
