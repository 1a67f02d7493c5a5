"""Opening the app: which exercise, what the screen holds, settings, notices, broken exercises, no jax."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from apphelpers import FIXTURE_EXERCISES, make_app, notifications, screen, wait_until
from textual.widgets import Markdown, OptionList

from jittrainer import paths
from jittrainer.course.exercises import load_exercises
from jittrainer.session.progress import ProgressStore, drain_notices


def test_import_leaves_jax_out():
    code = "import sys, jittrainer.app; bad = [m for m in ('jax', 'jaxlib') if m in sys.modules]; print(bad)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


async def test_opens_first_exercise_with_statement_and_draft():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        s = screen(app)
        first = s.session.course.available[0]
        assert s.current is first
        assert app.focused is s.editor
        draft = paths.draft_path(first.id)
        assert draft.read_text() == first.starter_path.read_text() == s.editor.text
        assert s.editor.is_syntax_aware and s.editor.language == "python"
        assert s.editor.show_line_numbers
        statement = s.panel.query_one("#task-body", Markdown)
        assert statement.source == first.statement()
        assert s.editor.border_title.endswith(f"workspace/{first.id}.py") and first.title in s.editor.border_title
        assert app.first_frame_at is not None and app.first_frame_at >= app.launched_at


async def test_opens_last_open_exercise_else_first_not_passed():
    exercises = [ex for ex in load_exercises() if ex.available]
    store = ProgressStore()
    store.record_attempt(exercises[0].id, "pass")
    app = make_app()
    async with app.run_test() as pilot:
        await pilot.pause()
        assert screen(app).current is not None and screen(app).current.id == exercises[1].id
    store.set_last_open(exercises[2].id)
    app = make_app()
    async with app.run_test() as pilot:
        await pilot.pause()
        assert screen(app).current.id == exercises[2].id


async def test_broken_exercise_is_listed_as_unavailable_with_its_reason():
    app = make_app(FIXTURE_EXERCISES)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        s = screen(app)
        assert s.current.id == "demo_print"
        option_list = s.sidebar.query_one(OptionList)
        prompt = option_list.get_option("broken_manifest").prompt
        assert "unavailable: manifest.toml: not valid TOML" in prompt.plain.replace("\n     ", " ")
        s.open_exercise("broken_manifest")
        await pilot.pause()
        assert s.editor.read_only
        assert "This exercise is unavailable" in s.panel.markdown_source("task")
        await pilot.press("ctrl+r")
        assert not app.dispatcher.history
        await pilot.press("alt+left")  # next/previous skip unavailable exercises
        assert s.current.id == "demo_print"


async def test_progress_notice_is_shown_once_at_start():
    paths.progress_path().parent.mkdir(parents=True, exist_ok=True)
    paths.progress_path().write_text("{not json")
    app = make_app()
    async with app.run_test() as pilot:
        await wait_until(pilot, lambda: notifications(app), what="a notice")
        assert any("progress file could not be read" in n for n in notifications(app))
        app.main_screen._poll()  # the poll shows what is queued: nothing twice
        await pilot.pause()
        assert sum("progress file could not be read" in n for n in notifications(app)) == 1
        assert drain_notices() == []


async def test_keymap_from_config_remaps_a_binding():
    paths.config_path().parent.mkdir(parents=True, exist_ok=True)
    paths.config_path().write_text('# mine\n[keymap]\nhint = "f9"\ndrill = "f12"\n')
    app = make_app()
    async with app.run_test() as pilot:
        await pilot.pause()
        s = screen(app)
        await pilot.press("ctrl+t")
        assert s.entry(s.current).highest_hint == 0  # ctrl+t no longer gives a hint
        await pilot.press("f9")
        assert s.entry(s.current).highest_hint == 1
        from jittrainer.app.keys import key_rows

        assert ("f9", ) == tuple(k for k, _, i in key_rows(app.settings.keymap) if i == "hint")
        # texts that name the key follow the keymap
        assert "Press **f9** for the next hint" in s.panel.markdown_source("hints")


async def test_theme_toggle_is_stored_and_editor_follows():
    paths.config_path().parent.mkdir(parents=True, exist_ok=True)
    paths.config_path().write_text('# keep me\n[keymap]\nhint = "ctrl+t"\n')
    app = make_app()
    async with app.run_test() as pilot:
        await pilot.pause()
        s = screen(app)
        assert app.current_theme.dark and s.editor.theme == "jittrainer-dark"
        app.action_toggle_dark()
        await pilot.pause()
        assert not app.current_theme.dark and s.editor.theme == "jittrainer-light"
        s.action_toggle_live()
    text = paths.config_path().read_text()
    assert text.startswith("# keep me\n[keymap]\nhint = \"ctrl+t\"\n")
    assert 'theme = "textual-light"' in text and "live_grading = true" in text
    app = make_app()
    async with app.run_test() as pilot:
        await pilot.pause()
        assert app.theme == "textual-light" and app.settings.live_grading
        assert screen(app).editor.theme == "jittrainer-light"


def test_exit_when_ready_exits_zero_after_the_first_frame(tmp_path):
    env = {**os.environ, "JITTRAINER_EXIT_WHEN_READY": "1", "TERM": "xterm-256color"}
    started = time.monotonic()
    result = subprocess.run(
        [sys.executable, "-c", "import sys, jittrainer.app; sys.exit(jittrainer.app.run())"],
        env=env, capture_output=True, timeout=60, stdin=subprocess.DEVNULL,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert time.monotonic() - started < 30


def test_an_ending_app_leaves_sigcont_and_sigtstp_to_the_system():
    """Textual's driver answers SIGCONT by starting application mode again (a new non-daemon input thread), even
    after the app has ended: a terminal closed while the app was ending (SIGHUP, SIGCONT) left the process running
    for ever, that thread spinning on the dead terminal. The app gives both signals back as it unmounts."""
    app = make_app()
    assert not app.is_headless  # not run: the path a real terminal takes
    before = {signum: signal.getsignal(signum) for signum in (signal.SIGCONT, signal.SIGTSTP)}
    try:
        for signum in before:
            signal.signal(signum, lambda *_: None)  # as Textual's Linux driver installs them
        app._release_job_control()
        assert [signal.getsignal(signum) for signum in before] == [signal.SIG_DFL, signal.SIG_DFL]
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)


def test_settings_line_editor_keeps_other_lines():
    from jittrainer.session.settings import load_settings, set_toml_value

    text = '# comment\n[app]\ntheme = "nord"  # mine\n\n[keymap]\nrun = "f9"\n'
    edited = set_toml_value(text, "app", "live_grading", True)
    assert edited == '# comment\n[app]\ntheme = "nord"  # mine\nlive_grading = true\n\n[keymap]\nrun = "f9"\n'
    assert set_toml_value("", "app", "theme", "x") == '[app]\ntheme = "x"\n'
    paths.config_path().parent.mkdir(parents=True, exist_ok=True)
    paths.config_path().write_text(edited)
    settings = load_settings()
    assert (settings.theme, settings.live_grading, settings.keymap) == ("nord", True, {"run": "f9"})
    paths.config_path().write_text("[app]\nlive_grading = 3\nlanguage = \"fr\"\n[keymap]\nrun = 4\n")
    assert len(load_settings().problems) == 3


async def test_no_exercises_still_opens(tmp_path):
    app = make_app(tmp_path / "nothing-here")
    async with app.run_test() as pilot:
        await pilot.pause()
        s = screen(app)
        assert s.current is None and s.editor.read_only
        assert "No exercises found" in s.panel.markdown_source("task")
        await pilot.press("ctrl+r", "ctrl+n", "ctrl+t")
        assert not app.dispatcher.history
