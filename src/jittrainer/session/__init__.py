"""The learner's session: the one place both faces (the CLI and the app) ask about the course as this learner sees
it: their language, drafts, progress, the next hint, the advice rule, revealing a solution, an exercise's limits.

No jax and no Textual here; nothing in it grades.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from pathlib import Path

from jittrainer import paths
from jittrainer.course import Course, load_course
from jittrainer.course.exercises import Exercise, Hint
from jittrainer.grading.limits import Limits, limits_for
from jittrainer.grading.verdict import Verdict
from jittrainer.i18n import detect, set_language
from jittrainer.session.drafts import Drafts
from jittrainer.session.progress import ExerciseProgress, Progress, ProgressStore
from jittrainer.session.settings import Settings, load_settings
from jittrainer.session.verdicts import VerdictStore


def installed_packs() -> list[Path]:
    """The learner's own packs: every folder of ``<home>/packs`` that holds a pack.toml, by name."""
    folder = paths.packs_dir()
    try:
        return sorted(p for p in folder.iterdir() if (p / "pack.toml").is_file())
    except OSError:
        return []


def pack_dirs(settings: Settings, extra: Iterable[str | Path] = ()) -> list[Path]:
    """The packs a session loads, in this order: the learner's ``packs/`` folder, the config's ``[course] packs``,
    then ``--pack DIR`` (a folder named twice loads once)."""
    found: list[Path] = []
    for folder in [*installed_packs(), *settings.packs, *(Path(p) for p in extra)]:
        folder = folder.expanduser().resolve()
        if folder not in found:
            found.append(folder)
    return found


class Session:
    def __init__(
        self,
        exercises_dir: str | Path | None = None,
        *,
        lang: str | None = None,
        settings: Settings | None = None,
        course: Course | None = None,
        packs: Iterable[str | Path] = (),
    ) -> None:
        self.settings = settings if settings is not None else load_settings()
        self.lang = set_language(detect(cli=lang, settings=self.settings.language))
        self.course = course if course is not None else load_course(
            Path(exercises_dir) if exercises_dir else None, pack_dirs(self.settings, packs))
        self.progress = ProgressStore()
        self.drafts = Drafts(lang=self.lang)
        self.last_verdicts = VerdictStore()

    # -- language -------------------------------------------------------------------------------------------

    def set_language(self, lang: str) -> str:
        self.lang = set_language(lang)
        self.drafts.lang = self.lang
        return self.lang

    # -- exercises ------------------------------------------------------------------------------------------

    @property
    def exercises(self) -> list[Exercise]:
        return self.course.exercises

    def find(self, key: str) -> Exercise:
        return self.course.find(key)

    def entry(self, exercise: Exercise, progress: Progress | None = None) -> ExerciseProgress:
        return self.progress.entry(exercise.id, progress)

    def statuses(self, progress: Progress | None = None) -> dict[str, str]:
        progress = progress if progress is not None else self.progress.load()
        return {ex.id: progress.peek(ex.id).status if ex.available else "unavailable" for ex in self.exercises}

    def limits(self, exercise: Exercise, timeout_s: float | None = None) -> Limits:
        return limits_for(exercise, timeout_s)

    def next_exercise(self, exercise: Exercise, direction: int = 1) -> Exercise | None:
        return self.course.next_after(exercise, direction)

    def title(self, exercise: Exercise) -> str:
        return exercise.title_in(self.lang)

    # -- hints ----------------------------------------------------------------------------------------------

    def hints(self, exercise: Exercise) -> list[Hint]:
        return exercise.hints(self.lang)

    def next_hint_level(self, exercise: Exercise, entry: ExerciseProgress | None = None) -> int:
        """The tier to show next: one past the highest taken, or the last tier again once all are taken."""
        entry = entry or self.entry(exercise)
        return min(entry.highest_hint + 1, max(len(exercise.hints()), 1))

    def take_hint(self, exercise: Exercise, level: int | None = None) -> tuple[Hint, list[int]]:
        """Show tier ``level`` (default: the next one) and record it. Raises IndexError for a tier that does not
        exist; OSError when progress cannot be saved (the hint is still the right one to show)."""
        hints = self.hints(exercise)
        level = level if level is not None else self.next_hint_level(exercise)
        if not 1 <= level <= len(hints):
            raise IndexError(level)
        used = self.progress.record_hint(exercise.id, level)
        return hints[level - 1], used

    # -- verdicts and the advice rule -----------------------------------------------------------------------

    def record_verdict(self, exercise: Exercise, verdict: Verdict, *, explicit: bool = True) -> ExerciseProgress:
        """Count the attempt (an explicit run also counts its first failing check towards that check's advice).
        Raises OSError when the progress cannot be written."""
        first = verdict.first_failure
        return self.progress.record_attempt(exercise.id, verdict.status, first.id if first else None, explicit)

    def advice_unlocked(self, exercise: Exercise, check_id: str, tier: int | None,
                        entry: ExerciseProgress) -> bool:
        """The rule: the learner took the hint tier the advice names (default: the last), failed this check in
        ``advice_after`` explicit runs, or asked for advice on this exercise."""
        if entry.advice_requested_at:
            return True
        if entry.highest_hint >= (tier or len(exercise.hints()) or 1):
            return True
        return entry.check_failures.get(check_id, 0) >= self.settings.advice_after

    def with_advice(self, exercise: Exercise, verdict: Verdict, entry: ExerciseProgress | None = None) -> Verdict:
        """The verdict as this learner may see it: each check's advice shown or kept back by the rule."""
        entry = entry if entry is not None else self.entry(exercise)
        last = len(exercise.hints()) or 1
        checks = []
        for c in verdict.checks:
            tier = (c.advice_tier or last) if c.advice is not None else None
            shown = c.advice is not None and self.advice_unlocked(exercise, c.id, tier, entry)
            checks.append(dataclasses.replace(c, advice_tier=tier, advice_shown=shown))
        return dataclasses.replace(verdict, checks=checks)

    def request_advice(self, exercise: Exercise) -> None:
        self.progress.record_advice_request(exercise.id)

    def advice_locked_hint(self, exercise: Exercise, verdict: Verdict, entry: ExerciseProgress | None = None) -> int:
        """How many more failing runs of the first failing check until its advice shows (0: shown or none)."""
        first = verdict.first_failure
        if first is None or first.advice is None or first.advice_shown:
            return 0
        entry = entry if entry is not None else self.entry(exercise)
        return max(self.settings.advice_after - entry.check_failures.get(first.id, 0), 0)

    # -- the reference solution -----------------------------------------------------------------------------

    def may_reveal_freely(self, exercise: Exercise) -> bool:
        """Passed, or revealed before: showing the solution again costs nothing."""
        entry = self.entry(exercise)
        return entry.status == "passed" or entry.revealed

    def reveal(self, exercise: Exercise) -> str:
        self.progress.record_reveal(exercise.id)
        return exercise.solution_file(self.lang).read_text(encoding="utf-8")
