"""The learner's progress file, typed: per exercise, per drill card, and what was open last.

``progress.json`` carries a schema version. Older files are migrated by one chain of functions, never discarded;
a file that cannot be read is moved aside (the learner is told) and rebuilt from its backup where possible. Every
change is a read-modify-write under a file lock (the CLI and the app may both be running) and an atomic write that
keeps the previous versions as ``progress.json.bak`` (the last), ``.bak.2`` and ``.bak.3``: a program that overwrites
the file and its last backup still leaves an older good generation to rebuild from. What the learner must be told
(a file moved aside, where the progress came back from) is kept in ``notices`` and in the process-wide queue that
every command, watch mode and the app print (``drain_notices``).

Schema 2 (this version) adds, per exercise, ``check_failures`` (explicit runs in which a check was the first to
fail: the repeated-failure rule that unlocks its advice) and ``advice_requested_at``; drill cards move from Leitner
boxes to FSRS states (see ``course.drills.schedule``).
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import datetime as dt
import fcntl
import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jittrainer import paths
from jittrainer.files import atomic_write_text, stamped_path
from jittrainer.i18n.message import Msg, msg

SCHEMA_VERSION = 2
RESULTS = ("pass", "fail", "error")
GENERATIONS = 3  # backups kept: .bak, .bak.2, .bak.3
_pending: list[Msg] = []  # notices not yet shown, from every store of this process


def drain_notices() -> list[Msg]:
    """The notices not shown yet (every store's), oldest first; the queue is emptied."""
    out = list(_pending)
    _pending.clear()
    return out


def now() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")


class ProgressError(Exception):
    """A progress file that parses but does not hold progress; ``reason`` says why in the learner's language."""

    def __init__(self, reason: Msg) -> None:
        super().__init__(reason.text.format(**reason.params))
        self.reason = reason


def _wrong_field(where: str) -> ProgressError:
    return ProgressError(msg("progress.reason.field", "{field} has the wrong type or value", field=where))


def _reason(exc: Exception) -> Msg:
    """Why a progress file could not be read, said to a learner (not a library's English exception text)."""
    if isinstance(exc, ProgressError):
        return exc.reason
    if isinstance(exc, json.JSONDecodeError):
        return msg("progress.reason.json", "it is not valid JSON at line {line}, column {column}", line=exc.lineno,
                   column=exc.colno)
    if isinstance(exc, UnicodeDecodeError):
        return msg("progress.reason.encoding", "it is not UTF-8 text")
    if isinstance(exc, OSError):
        return msg("progress.reason.os", "the system refused to read it: {error}", error=exc.strerror or str(exc))
    return msg("progress.reason.shape", "its contents have the wrong shape ({error})", error=type(exc).__name__)


@dataclass
class ExerciseProgress:
    status: str = "new"  # new | attempted | passed
    attempts: int = 0
    passes: int = 0
    hints_used: list[int] = field(default_factory=list)
    first_attempt_at: str | None = None
    first_pass_at: str | None = None
    last_attempt_at: str | None = None
    last_result: str | None = None
    solution_revealed_at: str | None = None
    revealed_before_pass: bool = False
    check_failures: dict[str, int] = field(default_factory=dict)
    advice_requested_at: str | None = None

    @property
    def highest_hint(self) -> int:
        return max(self.hints_used, default=0)

    @property
    def revealed(self) -> bool:
        return self.solution_revealed_at is not None

    @classmethod
    def from_dict(cls, raw: Any, where: str = "entry") -> ExerciseProgress:
        if not isinstance(raw, dict):
            raise _wrong_field(where)
        entry = cls()
        for f in dataclasses.fields(cls):
            if f.name in raw:
                setattr(entry, f.name, raw[f.name])
        if entry.status not in ("new", "attempted", "passed"):
            raise _wrong_field(f"{where}.status")
        if not isinstance(entry.hints_used, list) or not all(isinstance(h, int) for h in entry.hints_used):
            raise _wrong_field(f"{where}.hints_used")
        if not isinstance(entry.check_failures, dict):
            raise _wrong_field(f"{where}.check_failures")
        entry.check_failures = {str(k): int(v) for k, v in entry.check_failures.items()
                                if isinstance(v, int) and not isinstance(v, bool)}
        for name in ("attempts", "passes"):
            if not isinstance(getattr(entry, name), int):
                raise _wrong_field(f"{where}.{name}")
        return entry

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclass
class Progress:
    last_open: str | None = None
    exercises: dict[str, ExerciseProgress] = field(default_factory=dict)
    drills: dict[str, Any] = field(default_factory=dict)  # owned by course.drills.schedule
    interviews: list[dict[str, Any]] = field(default_factory=list)  # owned by course.interview
    extra: dict[str, Any] = field(default_factory=dict)  # top-level keys this version does not know: kept as they are

    def exercise(self, exercise_id: str) -> ExerciseProgress:
        """The entry, created when missing (a change to it is saved by ``ProgressStore.update``)."""
        return self.exercises.setdefault(exercise_id, ExerciseProgress())

    def peek(self, exercise_id: str) -> ExerciseProgress:
        """The entry, or a fresh one that is not added."""
        return self.exercises.get(exercise_id) or ExerciseProgress()

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Progress:
        exercises = data.get("exercises", {})
        drills = data.get("drills", {})
        interviews = data.get("interviews", [])
        if not isinstance(exercises, dict) or not isinstance(drills, dict) or not isinstance(interviews, list):
            raise _wrong_field("exercises/drills/interviews")
        known = {"schema_version", "last_open", "exercises", "drills", "interviews"}
        last_open = data.get("last_open")
        return cls(
            last_open=last_open if isinstance(last_open, str) else None,
            exercises={str(k): ExerciseProgress.from_dict(v, f"exercises.{k}") for k, v in exercises.items()},
            drills=drills,
            interviews=interviews,
            extra={k: v for k, v in data.items() if k not in known},
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.extra,
            "schema_version": SCHEMA_VERSION,
            "last_open": self.last_open,
            "exercises": {k: v.to_dict() for k, v in sorted(self.exercises.items())},
            "drills": self.drills,
            "interviews": self.interviews,
        }


# ------------------------------------------------------------------------------------------------ migrations


def _migrate_v0(data: dict[str, Any]) -> dict[str, Any]:
    """Version 0 (before schema_version existed): ``{"passed": [ids], "attempted": [ids], "current": id}``."""
    out: dict[str, Any] = {"schema_version": 1, "last_open": data.get("current"), "exercises": {}, "drills": {}}
    for key, status in (("attempted", "attempted"), ("passed", "passed")):
        for exercise_id in data.get(key) or []:
            entry = out["exercises"].setdefault(str(exercise_id), {"status": "new", "attempts": 0, "passes": 0})
            entry["status"] = status
            entry["attempts"] = max(entry["attempts"], 1)
            if status == "passed":
                entry["passes"] = max(entry["passes"], 1)
    return out


def _migrate_v1(data: dict[str, Any]) -> dict[str, Any]:
    """Version 1 → 2: advice counters per exercise (start at zero: earlier runs showed advice anyway), FSRS drill
    states (a Leitner box becomes a review state whose stability is the box's interval, due date kept), and an
    empty interview history."""
    from jittrainer.course.drills.card_state import migrate_leitner

    out = dict(data)
    exercises = out.get("exercises")
    if isinstance(exercises, dict):
        for entry in exercises.values():
            if isinstance(entry, dict):
                entry.setdefault("check_failures", {})
                entry.setdefault("advice_requested_at", None)
    out["drills"] = migrate_leitner(out.get("drills"))
    out.setdefault("interviews", [])
    out["schema_version"] = 2
    return out


MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {0: _migrate_v0, 1: _migrate_v1}


def upgrade(data: dict[str, Any]) -> dict[str, Any]:
    """Run the migration chain from the file's version to ``SCHEMA_VERSION``."""
    version = data.get("schema_version", 0)
    if not isinstance(version, int) or isinstance(version, bool) or version > SCHEMA_VERSION:
        raise ProgressError(msg("progress.reason.newer", "it was written by a newer jittrainer, schema version {version}",
                                version=str(version)[:40]))
    while version < SCHEMA_VERSION:
        data = MIGRATIONS[version](data)
        version = data["schema_version"]
    return data


# ---------------------------------------------------------------------------------------------------- store


class ProgressStore:
    def __init__(self, path: Path | None = None) -> None:
        self.path = Path(path) if path else paths.progress_path()
        self.notices: list[Msg] = []  # things the learner should be told (a corrupt file moved aside, ...)

    @property
    def backup(self) -> Path:
        return self.path.with_name(self.path.name + ".bak")

    @property
    def backups(self) -> list[Path]:
        """Every kept generation, newest first."""
        return [self.backup] + [self.path.with_name(f"{self.path.name}.bak.{n}") for n in range(2, GENERATIONS + 1)]

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path.with_name(".progress.lock"), "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

    def _read(self, path: Path) -> Progress:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            raise ProgressError(msg("progress.reason.not_object", "it holds JSON, but not a JSON object"))
        return Progress.from_dict(upgrade(data))

    def load(self) -> Progress:
        """The progress; never raises for a bad file (it is moved aside and rebuilt from the backup)."""
        if not self.path.exists():
            return Progress()
        try:
            return self._read(self.path)
        except (OSError, ValueError, ProgressError, KeyError, TypeError) as exc:
            return self._recover(exc)

    def stamp(self) -> tuple[int, int] | None:
        """(inode, mtime) of the file: changes when any process writes it (the app polls this)."""
        try:
            st = os.stat(self.path)
        except OSError:
            return None
        return st.st_ino, st.st_mtime_ns

    def _recover(self, exc: Exception) -> Progress:
        aside = stamped_path(self.path.parent, f"{self.path.name}.corrupt", "")
        moved = False
        with contextlib.suppress(OSError):
            os.replace(self.path, aside)
            moved = True
        rebuilt, source = None, None
        for backup in self.backups:
            if backup.exists():
                with contextlib.suppress(OSError, ValueError, ProgressError, KeyError, TypeError):
                    rebuilt, source = self._read(backup), backup
                    break
        reason = _reason(exc)
        if source is not None:
            notice = msg("progress.recovered", "your progress file could not be read ({reason}); it was moved to "
                         "{aside} and your progress was restored from {backup}", reason=reason, aside=aside.name,
                         backup=source.name) if moved else msg(
                "progress.recovered_in_place", "your progress file could not be read ({reason}) nor moved aside; "
                "your progress was restored from {backup}", reason=reason, backup=source.name)
        else:
            notice = msg("progress.lost", "your progress file could not be read ({reason}) and no backup could be "
                         "either; it was moved to {aside} and progress starts afresh", reason=reason,
                         aside=aside.name) if moved else msg(
                "progress.lost_in_place", "your progress file could not be read ({reason}), nor moved aside, and no "
                "backup could be either: progress starts afresh", reason=reason)
        self.notices.append(notice)
        _pending.append(notice)
        data = rebuilt if rebuilt is not None else Progress()
        with contextlib.suppress(OSError):
            self._write(data, rotate=False)  # the unreadable file is not a generation worth keeping
        return data

    def _write(self, progress: Progress, rotate: bool = True) -> None:
        text = json.dumps(progress.to_dict(), indent=2, sort_keys=True) + "\n"
        if rotate and self.path.exists():
            older = self.backups
            for newer, old in zip(older[-2::-1], older[:0:-1]):  # .bak.2 → .bak.3, then .bak → .bak.2
                if newer.exists():
                    with contextlib.suppress(OSError):
                        os.replace(newer, old)
        atomic_write_text(self.path, text, backup=self.backup if rotate else None)

    @contextlib.contextmanager
    def update(self) -> Iterator[Progress]:
        """Read-modify-write under a lock, so the CLI and the app never overwrite each other's changes."""
        with self._locked():
            progress = self.load()
            before = copy.deepcopy(progress.to_dict())
            yield progress
            if progress.to_dict() != before:
                self._write(progress)

    # -- queries -----------------------------------------------------------------------------------------------

    def entry(self, exercise_id: str, progress: Progress | None = None) -> ExerciseProgress:
        return (progress if progress is not None else self.load()).peek(exercise_id)

    def status(self, exercise_id: str, progress: Progress | None = None) -> str:
        return self.entry(exercise_id, progress).status

    # -- changes -----------------------------------------------------------------------------------------------

    def record_attempt(self, exercise_id: str, result: str, first_failure: str | None = None,
                       explicit: bool = True) -> ExerciseProgress:
        """``result`` is a verdict status. An explicit run (ctrl+r, ``check``, a save in watch mode) whose first
        failing check is ``first_failure`` counts towards that check's advice."""
        if result not in RESULTS:
            raise ValueError(f"result must be one of {RESULTS}, got {result!r}")
        with self.update() as progress:
            entry = progress.exercise(exercise_id)
            stamp = now()
            entry.attempts += 1
            entry.first_attempt_at = entry.first_attempt_at or stamp
            entry.last_attempt_at = stamp
            entry.last_result = result
            if result == "pass":
                entry.passes += 1
                entry.first_pass_at = entry.first_pass_at or stamp
                entry.status = "passed"
            elif entry.status != "passed":
                entry.status = "attempted"
            if explicit and first_failure:
                entry.check_failures[first_failure] = entry.check_failures.get(first_failure, 0) + 1
            return copy.deepcopy(entry)

    def record_hint(self, exercise_id: str, level: int) -> list[int]:
        with self.update() as progress:
            entry = progress.exercise(exercise_id)
            if level not in entry.hints_used:
                entry.hints_used = sorted([*entry.hints_used, level])
            return list(entry.hints_used)

    def record_reveal(self, exercise_id: str) -> None:
        with self.update() as progress:
            entry = progress.exercise(exercise_id)
            if not entry.solution_revealed_at:
                entry.solution_revealed_at = now()
                entry.revealed_before_pass = entry.status != "passed"

    def record_advice_request(self, exercise_id: str) -> None:
        with self.update() as progress:
            entry = progress.exercise(exercise_id)
            entry.advice_requested_at = entry.advice_requested_at or now()

    def set_last_open(self, exercise_id: str) -> None:
        with self.update() as progress:
            progress.last_open = exercise_id


def save_progress(action: Callable[..., Any], *args: Any, warn: Callable[[str], None] | None = None) -> Any:
    """Run ``action(*args)``, which records progress: a read-only or full disk is a warning (to ``warn``, by default
    on stderr), never a lost verdict; None then."""
    try:
        return action(*args)
    except OSError as exc:
        from jittrainer.i18n import _

        text = _("warning: progress not saved ({reason}: {where})").format(reason=exc.strerror or exc,
                                                                          where=exc.filename or paths.home())
        if warn is not None:
            warn(text)
        else:
            import sys

            print(f"jittrainer: {text}", file=sys.stderr)
        return None
