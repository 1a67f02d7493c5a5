"""The open draft as the app sees it: what it last read from or wrote to disk, and whether the file changed since.

``known_text`` is the text the app knows to be on disk. The editor has unsaved edits exactly when its text differs
from it, which is how an outside change is told apart from the app's own autosave.
"""

from __future__ import annotations

import os
from pathlib import Path

from jittrainer.course.exercises import Exercise
from jittrainer.files import read_regular
from jittrainer.session.drafts import Drafts

Stamp = tuple[int, int, int]  # (inode, size, mtime_ns): an atomic replace changes the inode even within one tick


def _stamp(path: Path) -> Stamp | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns)


def decode(data: bytes) -> tuple[str, bool]:
    """The text, and whether it was valid UTF-8 (if not, undecodable bytes are shown as U+FFFD)."""
    try:
        return data.decode("utf-8"), True
    except UnicodeDecodeError:
        return data.decode("utf-8", errors="replace"), False


class DraftFile:
    def __init__(self, drafts: Drafts, exercise: Exercise) -> None:
        self.drafts = drafts
        self.exercise = exercise
        self.path = drafts.path(exercise)
        self.known_text = ""
        self.stamp: Stamp | None = None
        self.valid_utf8 = True
        self.disk_bytes = b""

    def load(self) -> str:
        """Read the draft (created from the starter on first use)."""
        data = self.drafts.read_bytes(self.exercise)
        self.stamp = _stamp(self.path)
        self.known_text, self.valid_utf8 = decode(data)
        return self.known_text

    def is_dirty(self, text: str) -> bool:
        return text != self.known_text

    def save(self, text: str) -> Path:
        """Atomic write (the previous version is kept as the backup). Raises OSError; then nothing changed."""
        path = self.drafts.save(self.exercise, text)
        self.known_text = text
        self.stamp = _stamp(self.path)
        self.valid_utf8 = True
        return path

    def changed_on_disk(self) -> str | None:
        """The file's text if someone else changed it since the app last read or wrote it, else None."""
        stamp = _stamp(self.path)
        if stamp == self.stamp or stamp is None:
            # A deleted draft is not news: the next save writes it again.
            return None
        try:
            data = read_regular(self.path)  # a FIFO in the draft's place must not freeze the app: refused, not read
        except OSError:
            return None
        self.stamp = stamp
        self.disk_bytes = data
        text, valid = decode(data)
        if text == self.known_text:
            return None
        self.valid_utf8 = valid
        return text

    def accept(self, text: str) -> None:
        """The editor now shows ``text``, which is what the disk holds."""
        self.known_text = text

    def keep_disk_version(self, text: str) -> Path:
        """Put the disk's version aside as ``backups/<id>-disk-<time>.py`` (the editor's version wins the draft)."""
        data = self.disk_bytes if decode(self.disk_bytes)[0] == text else text.encode("utf-8")
        kept = self.drafts.keep_aside(self.exercise, data)
        self.known_text = text
        return kept
