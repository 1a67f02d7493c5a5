"""A keyboard-only learner: keys sent in a burst keep their order, the panel scrolls and zooms without the mouse, the
focus goes back and forth between the editor and the panel, and Python indentation is edited by level.

Bursts are posted with ``post_keys`` (all keys queued before the app reads the first), not ``pilot.press``, which
waits for the app to go idle after every key and so cannot show a reordering.
"""

from __future__ import annotations

from apphelpers import FIXTURE_EXERCISES, lesson_drawn, make_app, palette_offers, post_keys, screen, wait_until
from textual.widgets import Input, Markdown, Tabs
from textual.widgets.text_area import Selection

from jittrainer.app.screens.goto_line import GotoLineScreen

STARTER_LINES = 7  # the fixture exercise's starter


async def settle(pilot, times: int = 4) -> None:
    for _ in range(times):
        await pilot.pause()


# ---------------------------------------------------------------------------------------------- item 10: key order


async def test_a_backspace_in_a_burst_deletes_what_was_typed_before_it():
    app = make_app(FIXTURE_EXERCISES)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        editor = screen(app).editor
        editor.load_text("")
        post_keys(app, "a", "b", "c", "backspace", "X")
        await wait_until(pilot, lambda: len(editor.text) >= 3, 15)
        await settle(pilot)
        assert editor.text == "abX"


async def test_end_and_backspaces_in_a_burst_edit_the_end_of_the_line():
    app = make_app(FIXTURE_EXERCISES)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        editor = screen(app).editor
        editor.load_text("y = x * SCALE\n")
        editor.selection = Selection.cursor((0, 0))
        post_keys(app, "end", *["backspace"] * 5, *"scale)")
        await wait_until(pilot, lambda: editor.text.startswith("y = x * scale)"), 15,
                         f"the edited line (have {editor.text!r})")
        await settle(pilot)
        assert editor.text == "y = x * scale)\n"


async def test_keys_typed_right_after_ctrl_g_go_into_the_dialog_and_then_back_to_the_editor():
    app = make_app(FIXTURE_EXERCISES)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        editor = screen(app).editor
        before = editor.text
        post_keys(app, "ctrl+g", "7", "enter", "end", *["backspace"] * 5, *"3 * x")
        await wait_until(pilot, lambda: "3 * x" in editor.text, 15, f"the edit (have {editor.text!r})")
        await settle(pilot)
        assert not isinstance(app.screen, GotoLineScreen)
        lines = editor.text.splitlines()
        assert lines[6] == "    return 3 * x", lines
        assert editor.text.replace("3 * x", "2 * x") == before  # nothing typed into line 1


async def test_keys_typed_right_after_ctrl_f_go_into_the_find_bar():
    app = make_app(FIXTURE_EXERCISES)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        s = screen(app)
        before = s.editor.text
        post_keys(app, "ctrl+f", *"retx", "backspace", "enter")
        find = s.query_one("#find-input", Input)
        await wait_until(pilot, lambda: find.value == "ret", 15, f"the find text (have {find.value!r})")
        await settle(pilot)
        assert s.editor.text == before
        assert s.editor.selected_text == "ret"


async def test_keys_typed_right_after_opening_the_palette_go_into_it():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        s = screen(app)
        target = s.session.course.available[2]
        before = s.editor.text
        typed = f"Open exercise: {target.number:02d}"
        post_keys(app, "ctrl+p", *typed)
        await palette_offers(pilot, app, typed, f"{typed} {s.session.title(target)}")
        await pilot.press("enter")
        await wait_until(pilot, lambda: s.current is target, 15, "the exercise to open")
        assert s.session.drafts.path(s.session.course.available[0]).read_text() == before  # nothing typed there


async def test_keys_typed_right_after_escape_scroll_the_panel_not_the_editor():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await lesson_drawn(pilot, app)
        s = screen(app)
        await settle(pilot)
        cursor = s.editor.cursor_location
        text = s.editor.text
        post_keys(app, "escape", "pagedown", "j")
        body = s.panel.scroller("task")
        await wait_until(pilot, lambda: body.scroll_y > 0, 15, "the task to scroll")
        await settle(pilot)
        assert s.editor.cursor_location == cursor and s.editor.text == text
        assert s.panel in app.focused.ancestors_with_self


# ---------------------------------------------------------------------------------------------- items 1-3: the panel


async def test_the_panel_scrolls_from_the_keyboard_when_it_has_the_focus():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await lesson_drawn(pilot, app)
        s = screen(app)
        body = s.panel.scroller("task")
        assert body.max_scroll_y > 10, "the statement is longer than the pane"
        await pilot.press("escape")
        assert isinstance(app.focused, Tabs)  # the tab strip: left/right still switch tabs
        await pilot.press("pagedown")
        first = body.scroll_y
        assert first > 0
        await pilot.press("down", "j")
        assert body.scroll_y == first + 2
        await pilot.press("k", "up")
        assert body.scroll_y == first
        await pilot.press("end")
        assert body.scroll_y == body.max_scroll_y
        await pilot.press("home")
        assert body.scroll_y == 0
        await pilot.press("space")
        assert body.scroll_y == first
        await pilot.press("pageup")
        assert body.scroll_y == 0


async def test_quick_page_keys_each_move_a_page():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await lesson_drawn(pilot, app)
        s = screen(app)
        body = s.panel.scroller("task")
        page = body.scrollable_content_region.height
        assert page < body.max_scroll_y
        post_keys(app, "alt+pagedown", "alt+pagedown")  # from the editor, in a burst
        await wait_until(pilot, lambda: body.scroll_y > 0, 15, "the scroll")
        await settle(pilot)
        assert body.scroll_y == min(2 * page, body.max_scroll_y) > page
        post_keys(app, "escape", "pageup", "pageup", "down")
        await wait_until(pilot, lambda: body.scroll_y <= page, 15, "the scroll back")
        await settle(pilot)
        assert body.scroll_y == 1


async def test_alt_pagedown_scrolls_the_panel_from_the_editor_without_leaving_it():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await lesson_drawn(pilot, app)
        s = screen(app)
        body = s.panel.scroller("task")
        cursor = s.editor.cursor_location
        await pilot.press("alt+pagedown")
        assert body.scroll_y > 0
        assert app.focused is s.editor and s.editor.cursor_location == cursor
        await pilot.press("alt+pageup")
        assert body.scroll_y == 0
        await pilot.press("alt+down")
        assert body.scroll_y > 0
        footer = " ".join(str(key.description) for key in app.query("FooterKey"))
        assert "Scroll" in footer


async def test_f8_zooms_the_panel_when_the_panel_has_the_focus():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await lesson_drawn(pilot, app)
        s = screen(app)
        await pilot.press("f8")
        assert s.maximized is s.editor
        await pilot.press("f8")
        assert s.maximized is None
        await pilot.press("escape", "f8")
        assert s.maximized is s.panel
        assert s.panel.region.width == 120
        await pilot.press("pagedown")  # it still scrolls, zoomed
        assert s.panel.scroller("task").scroll_y > 0
        await pilot.press("escape")  # escape restores (Textual's minimize), a second one goes back to the editor
        assert s.maximized is None
        await pilot.press("escape")
        assert app.focused is s.editor


async def test_f8_zooms_the_panel_to_the_whole_screen_in_every_layout():
    for size in ((200, 50), (80, 24)):
        app = make_app()
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            await lesson_drawn(pilot, app)
            s = screen(app)
            await pilot.press("escape", "f8")
            await settle(pilot)
            assert s.maximized is s.panel
            assert s.panel.region.width == size[0] and s.panel.region.height >= size[1] - 2, (size, s.panel.region)


async def test_tab_and_shift_tab_move_between_panes_and_escape_returns_to_the_editor():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await lesson_drawn(pilot, app)
        s = screen(app)
        await pilot.press("escape")
        assert s.panel in app.focused.ancestors_with_self
        await pilot.press("shift+tab")
        assert app.focused is s.editor
        await pilot.press("escape")
        seen = []
        for _ in range(6):
            await pilot.press("tab")
            seen.append(app.focused)
            if app.focused is s.editor:
                break
        assert app.focused is s.editor, f"tab never came back to the editor: {seen}"
        await pilot.press("escape")
        await pilot.press("escape")
        assert app.focused is s.editor
        await pilot.press("f2")
        assert s.sidebar in app.focused.ancestors_with_self
        await pilot.press("escape")
        assert app.focused is s.editor


async def test_every_markdown_tab_scrolls():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await lesson_drawn(pilot, app)
        s = screen(app)
        assert isinstance(s.panel.scroller("task"), Markdown)
        for tab in ("hints", "why"):
            s.panel.switch(tab)
            await settle(pilot)
            assert s.panel.scroller() is s.panel.query_one(f"#{tab}-body")


# ---------------------------------------------------------------------------------------------- item 4: indentation

BLOCK = "def f(x):\n    if x:\n        y = 1\n        z = 2\n    return x\n"


async def editor_with(pilot, app, text: str):
    await pilot.pause()
    editor = screen(app).editor
    editor.load_text(text)
    editor.focus()
    await pilot.pause()
    return editor


async def test_tab_indents_a_selected_block_and_shift_tab_dedents_it():
    app = make_app(FIXTURE_EXERCISES)
    async with app.run_test(size=(120, 40)) as pilot:
        editor = await editor_with(pilot, app, BLOCK)
        editor.selection = Selection((2, 0), (3, 13))  # "y = 1" and "z = 2", the last one up to its end
        await pilot.press("tab")
        assert editor.text == "def f(x):\n    if x:\n            y = 1\n            z = 2\n    return x\n"
        assert editor.selection == Selection((2, 0), (3, 17))  # the code is still selected
        await pilot.press("shift+tab", "shift+tab")
        assert editor.text == "def f(x):\n    if x:\n    y = 1\n    z = 2\n    return x\n"
        await pilot.press("ctrl+z")
        assert "        y = 1\n        z = 2" in editor.text  # one undo step per key
        await pilot.press("shift+tab", "shift+tab", "shift+tab")  # never past column 0
        assert editor.text == "def f(x):\n    if x:\ny = 1\nz = 2\n    return x\n"


async def test_a_selection_inside_one_line_is_indented_not_replaced():
    app = make_app(FIXTURE_EXERCISES)
    async with app.run_test(size=(120, 40)) as pilot:
        editor = await editor_with(pilot, app, BLOCK)
        editor.selection = Selection((4, 4), (4, 10))  # "return"
        await pilot.press("tab")
        assert editor.document.get_line(4) == "        return x"
        assert editor.selected_text == "return"


async def test_tab_without_a_selection_goes_to_the_next_indent_stop_and_shift_tab_dedents_the_line():
    app = make_app(FIXTURE_EXERCISES)
    async with app.run_test(size=(120, 40)) as pilot:
        editor = await editor_with(pilot, app, "  x = 1\n")
        editor.selection = Selection.cursor((0, 2))
        await pilot.press("tab")
        assert editor.text == "    x = 1\n" and editor.cursor_location == (0, 4)
        await pilot.press("end", "shift+tab")
        assert editor.text == "x = 1\n" and editor.cursor_location == (0, 5)


async def test_backspace_in_the_indentation_goes_back_one_indent_stop():
    app = make_app(FIXTURE_EXERCISES)
    async with app.run_test(size=(120, 40)) as pilot:
        editor = await editor_with(pilot, app, "def f():\n    def g():\n        return 1\n        \n")
        editor.selection = Selection.cursor((3, 8))
        await pilot.press("backspace")
        assert editor.document.get_line(3) == "    " and editor.cursor_location == (3, 4)
        await pilot.press("backspace")
        assert editor.document.get_line(3) == "" and editor.cursor_location == (3, 0)
        editor.selection = Selection.cursor((2, 6))  # inside the indentation, off a stop: back to column 4
        await pilot.press("backspace")
        assert editor.document.get_line(2) == "      return 1" and editor.cursor_location == (2, 4)
        editor.selection = Selection.cursor((2, 14))  # after code: one character
        await pilot.press("backspace")
        assert editor.document.get_line(2) == "      return "


async def test_home_toggles_between_the_first_non_blank_and_column_0():
    app = make_app(FIXTURE_EXERCISES)
    async with app.run_test(size=(120, 40)) as pilot:
        editor = await editor_with(pilot, app, "def f():\n    return 1\n")
        editor.selection = Selection.cursor((1, 12))
        await pilot.press("home")
        assert editor.cursor_location == (1, 4)
        await pilot.press("home")
        assert editor.cursor_location == (1, 0)
        await pilot.press("home")
        assert editor.cursor_location == (1, 4)
        await pilot.press("home", "shift+end")  # from column 0: the whole line, indentation included
        assert editor.selected_text == "    return 1"
        await pilot.press(*"    return 2")
        assert editor.document.get_line(1) == "    return 2"


# ---------------------------------------------------------------------------------------------- item 9: 80x24


def code_columns(editor) -> int:
    return editor.scrollable_content_region.width - editor.gutter_width


async def test_at_80x24_the_open_list_leaves_60_code_columns_and_every_tab_in_view():
    for lang in ("en", "zh"):
        app = make_app(lang=lang)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            s = screen(app)
            without = code_columns(s.editor)
            await pilot.press("f2")
            await settle(pilot)
            assert s.sidebar.display and s.sidebar in app.focused.ancestors_with_self
            assert code_columns(s.editor) >= 60 and code_columns(s.editor) == without
            tabs = list(s.panel.query("ContentTabs Tab"))
            assert len(tabs) == 8
            right = s.panel.region.right
            assert all(tab.region.width > 0 and tab.region.right <= right for tab in tabs), \
                [(str(t.label), t.region) for t in tabs]
            footer = " ".join(str(key.description) for key in app.query("FooterKey"))
            assert ("Quit" if lang == "en" else "退出") in footer
            last = max(app.query("FooterKey"), key=lambda k: k.region.right)
            assert last.region.right <= 80
            await pilot.press("escape")  # back to the editor: the list closes
            await settle(pilot)
            assert app.focused is s.editor and not s.sidebar.display


async def test_choosing_from_the_list_over_the_editor_opens_the_exercise_and_closes_the_list():
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        s = screen(app)
        first = s.current
        await pilot.press("f2", "down", "down", "enter")
        await settle(pilot)
        assert s.current is not first
        assert app.focused is s.editor and not s.sidebar.display


# ---------------------------------------------------------------------------------------------- F1 and the README


async def test_f1_and_the_readme_list_the_new_keys():
    from apphelpers import REPO

    from jittrainer.app.screens.help import HelpScreen

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        help_text = app.screen.query_one("#help-text", Markdown).source
        for keys in ("alt+pagedown, alt+down", "alt+pageup, alt+up", "tab", "shift+tab", "down, j", "up, k",
                     "pagedown, space", "pageup", "home", "end", "f8", "backspace"):
            assert f"`{keys}`" in help_text, keys
        for words in ("panel.page-down", "Reading without the mouse", "comes back** to the editor", "3.2 s of 40 s"):
            assert words in help_text, words
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    for words in ("alt+PageDown / alt+PageUp", "tab / shift+tab", "whichever has the focus",
                  "from the panel or the exercise list, back to the editor", "applied in the order they"):
        assert words in readme, words
