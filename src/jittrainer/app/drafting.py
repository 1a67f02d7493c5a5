"""Keeping the open draft safe: autosave within a fraction of a second, edits made on disk by another editor, and a
disk that refuses writes. Owned by the main screen; it reads and writes the editor it is given, nothing else.

The draft on disk is never more than ``autosave_delay`` behind the editor, and never silently overwritten: if the
file changed on disk while the learner had unsaved typing, the editor's text wins the draft and the other version is
put aside in ``backups/``, and the learner is told where.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.timer import Timer

from jittrainer.app.draftfile import DraftFile
from jittrainer.app.widgets.editor import DraftEditor
from jittrainer.i18n import _

RETRY_S = 3.0


class DraftKeeper:
    def __init__(self, editor: Callable[[], DraftEditor | None], set_timer: Callable[..., Timer],
                 notify: Callable[..., object], autosave_delay: float = 0.5) -> None:
        self._editor = editor
        self._set_timer = set_timer
        self._notify = notify
        self.autosave_delay = autosave_delay  # keystroke -> on disk: at most this (a throttle, not a debounce)
        self.draft: DraftFile | None = None
        self.last_text: str | None = None  # for the save on exit, after the editor widget is gone
        self._timer: Timer | None = None
        self._failed = False

    def open(self, draft: DraftFile | None, text: str) -> None:
        self.draft = draft
        self.last_text = text
        if draft is not None and draft.is_dirty(text):
            self.schedule()

    def edited(self, text: str) -> None:
        self.last_text = text
        if self.draft is not None and self.draft.is_dirty(text):
            self.schedule()

    def schedule(self) -> None:
        # A throttle: the first change starts the clock and later ones ride along, so continuous typing is still
        # on disk within autosave_delay (a debounce would wait for a pause, and SIGKILL would lose more).
        if self._timer is None:
            self._timer = self._set_timer(self.autosave_delay, self._autosave)

    def _autosave(self) -> None:
        self._timer = None
        self.save_now()

    def current_text(self) -> str | None:
        editor = self._editor()
        return editor.text if editor is not None else self.last_text

    def save_now(self) -> bool:
        """Write the editor's text to the draft if it changed. False if the disk refused (the text stays)."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        draft = self.draft
        text = self.current_text()
        if draft is None or text is None or not draft.is_dirty(text):
            return True
        try:
            draft.save(text)
        except OSError as exc:
            if not self._failed:
                self._notify(_("Could not save your draft to {path}: {reason}. Your text stays in the editor; the app "
                               "keeps trying.").format(path=draft.path, reason=exc.strerror or exc),
                             title=_("Not saved"), severity="error", timeout=8)
            self._failed = True
            self._timer = self._set_timer(RETRY_S, self._autosave)
            return False
        if self._failed:
            self._failed = False
            self._notify(_("Saved again to {path}.").format(path=draft.path), timeout=3)
        return True

    def check_disk(self) -> bool:
        """Take in a change made to the draft by another program; True when the editor's text changed."""
        draft, editor = self.draft, self._editor()
        if draft is None or editor is None:
            return False
        dirty = draft.is_dirty(editor.text)
        disk_text = draft.changed_on_disk()
        if disk_text is None:
            return False
        if not dirty:
            draft.accept(disk_text)
            cursor = editor.cursor_location
            editor.clear_error()
            # replace() instead of load_text(): the reload can be undone with ctrl+z like any edit.
            editor.replace(disk_text, (0, 0), editor.document.end)
            row = min(cursor[0], editor.document.line_count - 1)
            editor.cursor_location = (row, min(cursor[1], len(editor.document.get_line(row))))
            self.last_text = disk_text
            self._notify(_("{name} changed on disk: reloaded.").format(name=draft.path.name), timeout=3)
            return True
        try:
            kept = draft.keep_disk_version(disk_text)
        except OSError as exc:
            self._notify(_("{name} changed on disk while you were typing here, and the disk version could not be put "
                           "aside ({reason}). Your editor text stays.").format(name=draft.path.name, reason=exc),
                         severity="error", timeout=8)
            return False
        self.save_now()
        self._notify(_("{name} changed on disk while you had unsaved typing here. Your editor text stays and is "
                       "saved; the version from disk is kept as {kept}.").format(name=draft.path.name, kept=kept),
                     title=_("Kept both"), severity="warning", timeout=8)
        return False
