"""The last verdict of each exercise, kept in the learner's home (``verdicts/<id>.json``): reopening the app shows
where the learner left off, not a blank Checks tab. The progress file counts attempts; this keeps what the last one
said, with a digest of the code it graded, so a restored verdict can say when the draft has changed since.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from jittrainer import paths
from jittrainer.files import atomic_write_text
from jittrainer.grading.verdict import Verdict

FORMAT = 1


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class LastVerdict:
    verdict: Verdict
    at: str  # when it was given, ISO 8601 with the UTC offset
    source_digest: str  # of the code it graded

    def graded(self, text: str) -> bool:
        """Whether ``text`` is the code this verdict graded."""
        return digest(text) == self.source_digest

    def local_time(self) -> str:
        """When, in the learner's own clock: '14:05' today, else '2026-11-29 14:05'."""
        try:
            when = dt.datetime.fromisoformat(self.at).astimezone()
        except ValueError:
            return self.at
        same_day = when.date() == dt.datetime.now().astimezone().date()
        return when.strftime("%H:%M" if same_day else "%Y-%m-%d %H:%M")


class VerdictStore:
    def __init__(self, folder: Path | None = None) -> None:
        self.folder = Path(folder) if folder else paths.home() / "verdicts"

    def path(self, exercise_id: str) -> Path:
        return self.folder / f"{paths.key_file(exercise_id)}.json"

    def save(self, exercise_id: str, verdict: Verdict, source: str) -> None:
        """Raises OSError when the disk refuses (the caller decides whether that matters: it never loses work)."""
        record = {"format": FORMAT, "at": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
                  "source_sha256": digest(source), "verdict": verdict.to_dict()}
        atomic_write_text(self.path(exercise_id), json.dumps(record, ensure_ascii=False))

    def load(self, exercise_id: str) -> LastVerdict | None:
        """The last verdict kept for the exercise; None when there is none or it cannot be read (it only saves the
        learner a grade: an unreadable one is skipped, not reported)."""
        try:
            record = json.loads(self.path(exercise_id).read_text(encoding="utf-8"))
            if not isinstance(record, dict) or record.get("format") != FORMAT:
                return None
            return LastVerdict(Verdict.from_dict(record["verdict"]), str(record["at"]), str(record["source_sha256"]))
        except (OSError, ValueError, KeyError, TypeError):
            return None
