"""The draft file: autosave, changes made in another editor, a disk that refuses writes, reset, quit."""

from __future__ import annotations

import errno
import os

from apphelpers import make_app, notifications, screen, wait_until

from jittrainer import paths
from jittrainer.session.drafts import Drafts


async def test_typing_is_autosaved_within_a_second():
    app = make_app()
    async with app.run_test() as pilot:
        await pilot.pause()
        s = screen(app)
        draft = paths.draft_path(s.current.id)
        # The promise is kept by the timer the first keystroke starts, not by how soon a loaded machine runs it:
        # the test reads the delay asked for, then waits for that timer's save.
        delays: list[float] = []
        set_timer = s.keeper._set_timer
        s.keeper._set_timer = lambda delay, callback: delays.append(delay) or set_timer(delay, callback)
        s.editor.move_cursor((0, 0))
        await pilot.press(*"# mine", "enter")
        await wait_until(pilot, lambda: draft.read_text().startswith("# mine\n"), 10, "the autosave")
        assert delays and delays[0] < 1.0
        assert draft.read_text() == s.editor.text


async def test_continuous_typing_is_still_saved_every_half_second():
    app = make_app(autosave_delay=0.3)
    async with app.run_test() as pilot:
        await pilot.pause()
        s = screen(app)
        draft = paths.draft_path(s.current.id)
        s.editor.move_cursor((0, 0))
        # Keep typing for longer than the delay: a debounce would never fire, a throttle does.
        for n in range(12):
            await pilot.press("x")
            await pilot.pause(0.1)
            if n == 8:
                assert draft.read_text().startswith("x" * 4)


async def test_outside_change_is_reloaded_when_nothing_is_unsaved():
    app = make_app()
    async with app.run_test() as pilot:
        await pilot.pause()
        s = screen(app)
        draft = paths.draft_path(s.current.id)
        new_text = draft.read_text() + "\n# added in my own editor\n"
        draft.write_text(new_text)
        await wait_until(pilot, lambda: s.editor.text == new_text, 5, "the reload")
        assert any("changed on disk: reloaded" in n for n in notifications(app))
        await pilot.pause(0.8)
        assert draft.read_text() == new_text  # the reload is not written back as an edit


async def test_outside_change_with_unsaved_typing_keeps_both():
    app = make_app(autosave_delay=60)  # nothing is saved on its own: the typing below stays unsaved
    async with app.run_test() as pilot:
        await pilot.pause()
        s = screen(app)
        draft = paths.draft_path(s.current.id)
        s.editor.move_cursor((0, 0))
        await pilot.press(*"# typed here", "enter")
        mine = s.editor.text
        theirs = "# written elsewhere\n"
        draft.write_text(theirs)
        await wait_until(pilot, lambda: any("Kept both" in n or "kept as" in n for n in notifications(app)), 5,
                         "the conflict notice")
        assert s.editor.text == mine
        assert draft.read_text() == mine
        kept = sorted(paths.backups_dir().glob(f"{s.current.id}-disk-*.py"))
        assert len(kept) == 1 and kept[0].read_text() == theirs
        assert str(kept[0]) in notifications(app)[-1]


async def test_a_refused_save_warns_and_keeps_the_text(monkeypatch):
    def full_disk(self, exercise, text):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    app = make_app(autosave_delay=0.1)
    async with app.run_test() as pilot:
        await pilot.pause()
        s = screen(app)
        monkeypatch.setattr(Drafts, "save", full_disk)
        draft = paths.draft_path(s.current.id)
        before = draft.read_text()
        s.editor.move_cursor((0, 0))
        await pilot.press(*"# lost?")
        await wait_until(pilot, lambda: s.keeper._failed, 5, "the failed save")
        errors = notifications(app, "error")
        assert len(errors) == 1 and "No space left on device" in errors[0]
        assert s.editor.text.startswith("# lost?") and draft.read_text() == before
        monkeypatch.undo()
        await wait_until(pilot, lambda: draft.read_text().startswith("# lost?"), 6, "the retry")
        assert "Saved again" in notifications(app)[-1]


async def test_reset_restores_the_starter_and_keeps_a_backup():
    app = make_app()
    async with app.run_test() as pilot:
        await pilot.pause()
        s = screen(app)
        ex = s.current
        s.editor.text = "# my attempt\n"
        s.action_reset()
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert s.editor.text == ex.starter_path.read_text() == paths.draft_path(ex.id).read_text()
        backups = sorted(paths.backups_dir().glob(f"{ex.id}-2*.py"))
        assert [b.read_text() for b in backups] == ["# my attempt\n"]
        assert str(backups[0]) in notifications(app)[-1]


async def test_quit_saves_the_latest_typing():
    app = make_app(autosave_delay=60)
    async with app.run_test() as pilot:
        await pilot.pause()
        s = screen(app)
        draft = paths.draft_path(s.current.id)
        s.editor.move_cursor((0, 0))
        await pilot.press(*"# last words")
        await pilot.press("ctrl+q")
    assert draft.read_text().startswith("# last words")
