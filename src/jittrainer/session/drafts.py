"""The learner's drafts: ``workspace/<id>.py`` (``workspace/<pack>/<id>.py`` in a pack), plain files they may also
open in any editor.

A draft starts as a copy of the exercise's starter in the learner's language (``starter.zh.py`` carries Chinese
comments); a draft that exists keeps its text whatever the language is now. Saves are atomic and keep the previous
version as ``backups/<id>.py.bak``; a reset keeps the old draft as a time-stamped copy.
"""

from __future__ import annotations

from pathlib import Path

from jittrainer import paths
from jittrainer.course.exercises import Exercise
from jittrainer.files import NotARegularFile, atomic_write_bytes, atomic_write_text, keep_copy, read_regular


class Drafts:
    def __init__(self, workspace: Path | None = None, backups: Path | None = None, lang: str = "en") -> None:
        self.workspace = Path(workspace) if workspace else paths.workspace_dir()
        self.backups = Path(backups) if backups else paths.backups_dir()
        self.lang = lang

    def path(self, exercise: Exercise) -> Path:
        return self.workspace / exercise.draft_name

    def backup_path(self, exercise: Exercise) -> Path:
        return self.backups / f"{exercise.draft_name}.bak"

    def starter_bytes(self, exercise: Exercise) -> bytes:
        return exercise.starter_file(self.lang).read_bytes()

    def ensure(self, exercise: Exercise) -> Path:
        """The draft's path, created from the starter on first use."""
        path = self.path(exercise)
        if not path.exists():
            atomic_write_bytes(path, self.starter_bytes(exercise))
        return path

    def read_bytes(self, exercise: Exercise) -> bytes:
        """The draft's bytes; NotARegularFile (an OSError) at once when it is a FIFO, a device or a folder."""
        return read_regular(self.ensure(exercise))

    def save(self, exercise: Exercise, text: str) -> Path:
        path = self.path(exercise)
        atomic_write_text(path, text, backup=self.backup_path(exercise))
        return path

    def reset(self, exercise: Exercise) -> Path | None:
        """Draft back to the starter. The old draft is kept as ``backups/<id>-<time>.py``; returns that path."""
        path = self.path(exercise)
        try:
            kept = keep_copy(self.backups, paths.key_file(exercise.id), read_regular(path)) if path.exists() else None
        except NotARegularFile:  # nothing of the learner's to keep: the starter replaces it
            kept = None
        atomic_write_bytes(path, self.starter_bytes(exercise))
        return kept

    def keep_aside(self, exercise: Exercise, data: bytes, why: str = "disk") -> Path:
        """A version the editor did not take (changed on disk while the learner typed): ``backups/<id>-disk-…``."""
        return keep_copy(self.backups, f"{paths.key_file(exercise.id)}-{why}", data)
