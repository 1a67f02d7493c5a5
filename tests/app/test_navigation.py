"""Moving around: next/previous, the command palette, hint tiers, advice, revealing the solution, help, keys."""

from __future__ import annotations

from apphelpers import (failing_verdict, make_app, notifications, palette_offers, plain, screen, show_verdict,
                        wait_until)
from textual.widgets import Markdown, Static, TabbedContent

from jittrainer.app.screens.confirm import ConfirmScreen
from jittrainer.app.screens.help import HelpScreen
from jittrainer.session.progress import ProgressStore


async def test_next_and_previous_exercise():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        s = screen(app)
        available = s.session.course.available
        assert s.current is available[0]
        await pilot.press("ctrl+n")
        assert s.current is available[1]
        await pilot.press("alt+right")
        assert s.current is available[2]
        await pilot.press("alt+left")
        assert s.current is available[1]
        await pilot.press("alt+left")
        assert s.current is available[0]
        await pilot.press("alt+left")
        assert s.current is available[0] and "first exercise" in notifications(app)[-1]
        assert ProgressStore().load().last_open == available[0].id
        assert s.panel.markdown_source("task") == available[0].statement()
        assert app.focused is s.editor  # a new exercise puts the focus in the editor


async def test_palette_opens_an_exercise():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        s = screen(app)
        target = s.session.course.available[2]
        await pilot.press("ctrl+p")
        typed = f"Open exercise: {target.number:02d}"
        await pilot.press(*typed)
        await palette_offers(pilot, app, typed, f"{typed} {s.session.title(target)}")
        await pilot.press("enter")
        await pilot.pause()
        assert s.current is target
        assert app.focused is s.editor


async def test_hints_come_one_tier_at_a_time_are_recorded_and_scroll_into_view():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        s = screen(app)
        ex = s.current
        hints = [hint.heading for hint in ex.hints()]
        hints_md = s.panel.query_one("#hints-body", Markdown)
        assert hints[0] not in hints_md.source
        await pilot.press("ctrl+t")
        await pilot.pause()
        assert s.panel.active == "hints"
        assert hints[0] in hints_md.source and hints[1] not in hints_md.source
        assert "Hint 1 of" in hints_md.source and "1. " + hints[0] not in hints_md.source  # numbered once
        assert ProgressStore().entry(ex.id).hints_used == [1]
        await pilot.press("ctrl+t")
        await pilot.pause()
        assert hints[1] in hints_md.source
        assert ProgressStore().entry(ex.id).hints_used == [1, 2]
        assert str(s.panel.tabs.get_tab("tab-hints").label) == f"Hints 2/{len(hints)}"
        # The blocks are mounted once the text is parsed (in a thread: a loaded machine takes its time), and the
        # scroll comes after they are laid out: wait for the second tier's heading, then for the scroll.
        await wait_until(pilot, lambda: any(hints[1] in (h2.source or "") for h2 in hints_md.query("MarkdownH2")),
                         what="the second hint's heading")
        newest = list(hints_md.query("MarkdownH2"))[-1]
        # the newest hint scrolled into view: its heading sits in the top half of the pane
        await wait_until(pilot, lambda: hints_md.region.y <= newest.region.y
                         < hints_md.region.y + hints_md.region.height // 2, what="the newest hint scrolled to the top")
        for _ in range(len(hints)):
            await pilot.press("ctrl+t")
        assert ProgressStore().entry(ex.id).hints_used == list(range(1, len(hints) + 1))
        assert "last hint" in notifications(app)[-1]
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:  # taken hints are still there next time
        await pilot.pause()
        await pilot.pause()
        assert hints[-1] in screen(app).panel.markdown_source("hints")


async def test_advice_shows_on_request_and_with_its_hint_tier():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        s = screen(app)
        verdict = failing_verdict()
        verdict.exercise = s.current.id
        await show_verdict(pilot, app, verdict)
        checks = plain(s.panel.query_one("#checks-body", Static))
        assert "print with jax.debug.print" not in checks and "kept back" in checks
        await pilot.press("ctrl+t", "ctrl+t")  # the advice names tier 2
        await pilot.pause()
        checks = plain(s.panel.query_one("#checks-body", Static))
        assert "print with jax.debug.print" in checks
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        s = screen(app)
        await pilot.press("ctrl+n")
        verdict = failing_verdict()
        verdict.exercise = s.current.id
        await show_verdict(pilot, app, verdict)
        await pilot.press("f5")
        await pilot.pause()
        assert "print with jax.debug.print" in plain(s.panel.query_one("#checks-body", Static))
        assert ProgressStore().entry(s.current.id).advice_requested_at


async def test_reveal_asks_first_before_a_pass_and_is_recorded():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        s = screen(app)
        ex = s.current
        s.action_reveal()
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        assert ProgressStore().entry(ex.id).solution_revealed_at is None
        await pilot.press("ctrl+p")
        await pilot.press(*"Reveal solution")
        await palette_offers(pilot, app, "Reveal solution", "Reveal solution")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await pilot.pause()
        entry = ProgressStore().entry(ex.id)
        assert entry.solution_revealed_at and entry.revealed_before_pass
        source = s.panel.markdown_source("why")
        assert ex.solution_path.read_text().strip() in source
        assert s.panel.active == "why"
        assert s.editor.text == ex.starter_path.read_text()  # the draft is left alone


async def test_f1_lists_every_key():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        help_text = app.screen.query_one("#help-text", Markdown).source
        for keys in ("ctrl+r", "ctrl+n, alt+right", "alt+left", "ctrl+t", "ctrl+p", "f1", "ctrl+q", "ctrl+l",
                     "ctrl+f", "ctrl+g", "ctrl+underscore, ctrl+slash", "alt+z", "escape", "ctrl+o", "f5"):
            assert f"`{keys}`" in help_text
        await pilot.press("ctrl+r")  # main-screen keys are off while help is open
        assert not app.dispatcher.history
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)


async def test_sidebar_choice_opens_the_exercise():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        s = screen(app)
        await pilot.press("f2")
        target = s.session.course.available[1]
        option_list = s.sidebar.query_one("#exercise-list")
        assert app.focused is option_list
        option_list.highlighted = option_list.get_option_index(target.id)
        await pilot.press("enter")
        await pilot.pause()
        assert s.current is target and app.focused is s.editor


async def test_f3_and_f4_cycle_the_panel_tabs_from_the_editor():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        s = screen(app)
        assert app.focused is s.editor
        tabs = s.panel.query_one(TabbedContent)
        seen = []
        for _ in range(8):
            await pilot.press("f3")
            seen.append(tabs.active)
        assert seen == ["tab-hints", "tab-checks", "tab-output", "tab-jaxpr", "tab-timing", "tab-recompiles",
                        "tab-why", "tab-task"]
        await pilot.press("f4")
        assert tabs.active == "tab-why"
        assert s.editor.text == s.current.starter_path.read_text()  # nothing was typed into the draft


async def test_escape_leaves_the_editor_and_tab_indents_in_it():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        s = screen(app)
        s.editor.move_cursor((0, 0))
        await pilot.press("tab")
        assert s.editor.text.startswith("    import jax") and app.focused is s.editor
        await pilot.press("escape")
        assert app.focused is not s.editor and s.panel in app.focused.ancestors


async def test_f9_opens_a_drill_round_from_this_course_and_escape_comes_back():
    from jittrainer.app.drill import DrillScreen
    from jittrainer.app.screens.main import MainScreen

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("f9")
        await pilot.pause()
        assert isinstance(app.screen, DrillScreen)
        assert app.screen.deck.root == screen(app).session.course.root / "drills"
        assert not app.screen.active_bindings.get("ctrl+r")  # the trainer's keys are off while drilling
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)


async def test_f10_runs_a_mock_interview_and_records_its_report():
    from jittrainer.app.drill import DrillScreen
    from jittrainer.app.interview import InterviewScreen

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("f10")
        await pilot.pause()
        assert isinstance(app.screen, DrillScreen)  # the cards come first
        await pilot.press("escape")  # skip the cards: it asks first
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, InterviewScreen)
        interview = app.screen
        assert interview.plan.exercises and interview.plan.exercises[0].interview
        editor = interview.query_one("#interview-editor")
        assert editor.text == interview.plan.exercises[0].starter_path.read_text()
        await pilot.press("f10")  # end the interview: it asks first
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await wait_until(pilot, lambda: interview.finished, what="the report")
        report = interview.query_one("#interview-report-text", Markdown).source
        assert "Score:" in report and "Practise next" in report
        assert len(ProgressStore().load().interviews) == 1
        assert not (screen(app).session.drafts.path(interview.plan.exercises[0])).exists() or \
            interview.plan.exercises[0].id == screen(app).current.id  # the course draft is not the interview's
