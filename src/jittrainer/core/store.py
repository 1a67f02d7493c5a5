"""The learner's drafts and progress, written so that nothing is lost.

Every write goes to a temp file, is fsynced, and renamed over the old file (atomic on POSIX); the previous version
is kept as a backup first. The progress file carries a schema version; older files are migrated, never discarded,
and a corrupt one is moved aside (the learner is told) and rebuilt from its backup where possible.
"""

from __future__ import annotations

import contextlib
import copy
import datetime as dt
import fcntl
import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from jittrainer.core import paths
from jittrainer.core.exercises import Exercise

SCHEMA_VERSION = 1
STATUSES = ("new", "attempted", "passed")


def now() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")


def _fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def atomic_write_bytes(path: Path, data: bytes, *, backup: Path | None = None) -> None:
    """Write ``data`` to ``path`` atomically; if ``backup`` is given, the old file is kept there first."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if backup is not None and path.exists():
            _keep_backup(path, Path(backup))
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    _fsync_dir(path.parent)


def atomic_write_text(path: Path, text: str, *, backup: Path | None = None) -> None:
    atomic_write_bytes(path, text.encode("utf-8"), backup=backup)


def _keep_backup(path: Path, backup: Path) -> None:
    backup.parent.mkdir(parents=True, exist_ok=True)
    staged = backup.with_name(f".{backup.name}.{os.getpid()}.tmp")
    with contextlib.suppress(OSError):
        staged.unlink()
    try:
        os.link(path, staged)  # the old inode survives the rename below: no copy, no window without a file
    except OSError:
        shutil.copy2(path, staged)
    os.replace(staged, backup)


# ------------------------------------------------------------------------------------------------------ drafts


class Drafts:
    """``workspace/<id>.py``: plain files the learner may also open in any editor."""

    def __init__(self, workspace: Path | None = None, backups: Path | None = None) -> None:
        self.workspace = Path(workspace) if workspace else paths.workspace_dir()
        self.backups = Path(backups) if backups else paths.backups_dir()

    def path(self, exercise: Exercise) -> Path:
        return self.workspace / f"{exercise.id}.py"

    def backup_path(self, exercise: Exercise) -> Path:
        return self.backups / f"{exercise.id}.py.bak"

    def ensure(self, exercise: Exercise) -> Path:
        """The draft's path, created from the starter on first use."""
        path = self.path(exercise)
        if not path.exists():
            atomic_write_bytes(path, exercise.starter_path.read_bytes())
        return path

    def read_bytes(self, exercise: Exercise) -> bytes:
        return self.ensure(exercise).read_bytes()

    def save(self, exercise: Exercise, text: str) -> Path:
        path = self.path(exercise)
        atomic_write_text(path, text, backup=self.backup_path(exercise))
        return path

    def reset(self, exercise: Exercise) -> Path | None:
        """Draft back to the starter. The old draft is kept as ``backups/<id>-<time>.py``; returns that path."""
        path = self.path(exercise)
        kept = None
        if path.exists():
            stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
            kept = self.backups / f"{exercise.id}-{stamp}.py"
            n = 1
            while kept.exists():
                n += 1
                kept = self.backups / f"{exercise.id}-{stamp}-{n}.py"
            atomic_write_bytes(kept, path.read_bytes())
        atomic_write_bytes(path, exercise.starter_path.read_bytes())
        return kept


# ---------------------------------------------------------------------------------------------------- progress


def _empty() -> dict[str, Any]:
    return {"schema_version": SCHEMA_VERSION, "last_open": None, "exercises": {}, "drills": {}}


def _entry() -> dict[str, Any]:
    return {
        "status": "new",
        "attempts": 0,
        "passes": 0,
        "hints_used": [],
        "first_attempt_at": None,
        "first_pass_at": None,
        "last_attempt_at": None,
        "last_result": None,
        "solution_revealed_at": None,
        "revealed_before_pass": False,
    }


def _migrate_v0(data: dict[str, Any]) -> dict[str, Any]:
    """Version 0 (before schema_version existed): ``{"passed": [ids], "attempted": [ids], "current": id}``."""
    out = _empty()
    for key, status in (("attempted", "attempted"), ("passed", "passed")):
        for exercise_id in data.get(key) or []:
            entry = out["exercises"].setdefault(str(exercise_id), _entry())
            entry["status"] = status
            entry["attempts"] = max(entry["attempts"], 1)
            if status == "passed":
                entry["passes"] = max(entry["passes"], 1)
    out["last_open"] = data.get("current")
    return out


MIGRATIONS = {0: _migrate_v0}


class ProgressError(Exception):
    pass


class ProgressStore:
    """``progress.json``: status per exercise, attempts, hints used, first-pass time, drill schedules."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = Path(path) if path else paths.progress_path()
        self.notices: list[str] = []  # things the learner should be told (a corrupt file moved aside, ...)

    @property
    def backup(self) -> Path:
        return self.path.with_name(self.path.name + ".bak")

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path.with_name(".progress.lock"), "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

    def _read(self, path: Path) -> dict[str, Any]:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            raise ProgressError("the top level is not a JSON object")
        return self._upgrade(data)

    def _upgrade(self, data: dict[str, Any]) -> dict[str, Any]:
        version = data.get("schema_version", 0)
        if not isinstance(version, int) or version > SCHEMA_VERSION:
            raise ProgressError(f"schema_version {version!r} is newer than this jittrainer understands")
        while version < SCHEMA_VERSION:
            data = MIGRATIONS[version](data)
            version = data["schema_version"]
        merged = _empty()
        merged.update(data)
        if not isinstance(merged.get("exercises"), dict) or not isinstance(merged.get("drills"), dict):
            raise ProgressError("'exercises' or 'drills' is not an object")
        for exercise_id, entry in list(merged["exercises"].items()):
            if not isinstance(entry, dict):
                raise ProgressError(f"the entry for {exercise_id!r} is not an object")
            merged["exercises"][exercise_id] = {**_entry(), **entry}
        return merged

    def load(self) -> dict[str, Any]:
        """The progress data; never raises for a bad file (it is moved aside and rebuilt from the backup)."""
        if not self.path.exists():
            return _empty()
        try:
            return self._read(self.path)
        except (OSError, ValueError, ProgressError, KeyError, TypeError) as exc:
            return self._recover(exc)

    def _recover(self, exc: Exception) -> dict[str, Any]:
        stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
        aside = self.path.with_name(f"{self.path.name}.corrupt-{stamp}")
        moved = False
        with contextlib.suppress(OSError):
            os.replace(self.path, aside)
            moved = True
        rebuilt = None
        if self.backup.exists():
            with contextlib.suppress(OSError, ValueError, ProgressError, KeyError, TypeError):
                rebuilt = self._read(self.backup)
        where = f"moved it to {aside.name}" if moved else "could not move it aside"
        source = "rebuilt from the backup" if rebuilt is not None else "starting fresh"
        self.notices.append(f"Your progress file could not be read ({exc}); {where} and {source}.")
        data = rebuilt if rebuilt is not None else _empty()
        with contextlib.suppress(OSError):
            self._write(data)
        return data

    def _write(self, data: dict[str, Any]) -> None:
        data["schema_version"] = SCHEMA_VERSION
        atomic_write_text(self.path, json.dumps(data, indent=2, sort_keys=True) + "\n", backup=self.backup)

    @contextlib.contextmanager
    def update(self) -> Iterator[dict[str, Any]]:
        """Read-modify-write under a lock, so the CLI and the app never overwrite each other's changes."""
        with self._locked():
            data = self.load()
            before = copy.deepcopy(data)
            yield data
            if data != before:
                self._write(data)

    # -- queries -----------------------------------------------------------------------------------------------

    def entry(self, exercise_id: str, data: dict[str, Any] | None = None) -> dict[str, Any]:
        data = data if data is not None else self.load()
        return {**_entry(), **data["exercises"].get(exercise_id, {})}

    def status(self, exercise_id: str, data: dict[str, Any] | None = None) -> str:
        return self.entry(exercise_id, data)["status"]

    # -- changes -----------------------------------------------------------------------------------------------

    def record_attempt(self, exercise_id: str, result: str) -> dict[str, Any]:
        """``result`` is a verdict status: "pass", "fail" or "error"."""
        with self.update() as data:
            entry = data["exercises"].setdefault(exercise_id, _entry())
            stamp = now()
            entry["attempts"] += 1
            entry["first_attempt_at"] = entry["first_attempt_at"] or stamp
            entry["last_attempt_at"] = stamp
            entry["last_result"] = result
            if result == "pass":
                entry["passes"] += 1
                entry["first_pass_at"] = entry["first_pass_at"] or stamp
                entry["status"] = "passed"
            elif entry["status"] != "passed":
                entry["status"] = "attempted"
            return dict(entry)

    def record_hint(self, exercise_id: str, level: int) -> list[int]:
        with self.update() as data:
            entry = data["exercises"].setdefault(exercise_id, _entry())
            if level not in entry["hints_used"]:
                entry["hints_used"] = sorted([*entry["hints_used"], level])
            return list(entry["hints_used"])

    def record_reveal(self, exercise_id: str) -> None:
        with self.update() as data:
            entry = data["exercises"].setdefault(exercise_id, _entry())
            if not entry["solution_revealed_at"]:
                entry["solution_revealed_at"] = now()
                entry["revealed_before_pass"] = entry["status"] != "passed"

    def set_last_open(self, exercise_id: str) -> None:
        with self.update() as data:
            data["last_open"] = exercise_id
