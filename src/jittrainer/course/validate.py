"""Authoring QA: every starter fails on its target checks, every solution passes, every wrong fix gets the verdict
it declares (``# expect: …``), every manifest is complete, and (for the shipped course) every exercise and card
has its Chinese text. Grades run through the real worker, in parallel on all cores."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

from jittrainer.course.drills.model import Deck
from jittrainer.course.exercises import Exercise
from jittrainer.course.expect import ExpectationMissing, judge, read_expectation
from jittrainer.grading.host import zygote
from jittrainer.grading.host.device import Choice
from jittrainer.grading.host.grading import grade
from jittrainer.grading.host.run import Submission, new_seed
from jittrainer.grading.limits import limits_for
from jittrainer.grading.verdict import Verdict
from jittrainer.i18n import _


@dataclass
class Result:
    exercise: str
    role: str  # "starter" | "solution" | "wrong"
    file: str
    ok: bool
    status: str
    problem: str = ""
    seconds: float = 0.0


@dataclass
class Report:
    seed: int
    exercises: int = 0
    grades: int = 0
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # exercises written for other JAX releases than this one
    results: list[Result] = field(default_factory=list)
    cards: int = 0  # drill cards whose proofs ran
    cards_seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_dict(self) -> dict:
        return {**asdict(self), "ok": self.ok}


def judge_file(ex: Exercise, role: str, path: Path, verdict: Verdict) -> str:
    """'' if the verdict is what ``role`` requires, else the problem in one line."""
    name = f"{ex.dir.name}/{path.relative_to(ex.dir)}"
    if verdict.internal_error is not None:
        return f"{name}: the exercise broke while grading it: {verdict.internal_error.message}"
    if role == "solution":
        return "" if verdict.passed else f"{name}: the solution does not pass: {verdict.message}"
    if role == "wrong":
        try:
            expectation = read_expectation(path)
        except ExpectationMissing as exc:
            return f"{name}: {exc}"
        if "pass" in expectation.values:
            return f"{name}: a wrong fix cannot declare 'expect: pass'"
        mismatch = judge(expectation, verdict)
        return f"{name}: {mismatch}" if mismatch else ""
    if verdict.passed:
        return f"{name}: passes, but a {role} must fail"
    statuses = {c.id: c.status for c in verdict.checks}
    for target in ex.targets:
        if target not in statuses:
            return f"{ex.dir.name}/manifest.toml: grading.targets: {target!r} is not a check declared in checks.py"
        if statuses[target] not in ("fail", "error"):
            return f"{name}: must fail on target check {target!r}, but it is {statuses[target]} (verdict: {verdict.message})"
    return ""


def _has_example_block(ex: Exercise) -> bool:
    from jittrainer.course.example_block import example_block_lines

    try:
        return example_block_lines(ex.starter_path.read_text(encoding="utf-8")) is not None
    except (OSError, UnicodeDecodeError):
        return True  # the loader reports an unreadable starter


def static_problems(ex: Exercise, *, languages: bool) -> list[str]:
    """Every problem ``validate`` finds in an exercise without grading anything: its folder and manifest, the
    ``TODO(author)`` marks, ``CHECKS``, the targets and the wrong fixes' declarations, the statement's rule for each
    check, the starter's example block and, with ``languages``, every edition (tests/test_course_static.py runs it
    over the course and the pack)."""
    from jittrainer.course.check_ids import declared_checks
    from jittrainer.course.rules import rule_problems
    from jittrainer.course.translations import check_exercise_languages

    problems = list(ex.problems)  # layout, manifest, TODOs: found when the folder loaded
    if ex.problems:
        return problems
    if languages:
        problems += check_exercise_languages(ex)
    if not _has_example_block(ex):
        problems.append(_("{folder}/starter.py: no `if __name__ == \"__main__\":` block at its end: the scratch "
                          "run (F6, `jittrainer run`) runs it to show the learner what their code does").format(
            folder=ex.dir.name))
    checks = declared_checks(ex.checks_path) if ex.checks_path.is_file() else ()
    if ex.checks_path.is_file() and not checks:
        problems.append(f"{ex.dir.name}/checks.py: CHECKS must be assigned once, as a dict display with string "
                        "keys (CHECKS = {\"runs\": ..., ...}): the host reads the ids without running the file, "
                        "to refuse a pass that leaves a check out")
        return problems
    statements = {"en": ex.text("statement")}
    for lang in ex.editions if languages else ():
        translated = ex.dir / f"statement.{lang}.md"
        if translated.is_file():
            statements[lang] = translated.read_text(encoding="utf-8")
    problems += rule_problems(checks, statements, ex.dir.name)
    for target in ex.targets:
        if target not in checks:
            problems.append(f"{ex.dir.name}/manifest.toml: grading.targets: {target!r} is not a check declared in "
                            "checks.py")
    for path in ex.wrong_paths:
        try:
            values = read_expectation(path).values
        except ExpectationMissing as exc:
            problems.append(f"{ex.dir.name}/{path.relative_to(ex.dir)}: {exc}")
            continue
        unknown = [v for v in values if v not in checks and v != "pass" and not v.startswith("error:")]
        if unknown:
            problems.append(f"{ex.dir.name}/{path.relative_to(ex.dir)}: declares {unknown[0]!r}, not a check of "
                            "checks.py")
    return problems


def _result_words(file: str, role: str) -> str:
    """A grade that went as its role requires, in the author's language."""
    if role == "solution":
        return _("{file}: the solution passes").format(file=file)
    if role == "starter":
        return _("{file}: the starter fails its targets").format(file=file)
    return _("{file}: the wrong fix fails as it declares").format(file=file)


def validate(
    exercises: list[Exercise],
    *,
    seed: int | None = None,
    jobs: int | None = None,
    on_result: Callable[[str, bool], None] | None = None,
    deck: Deck | None = None,
    languages: bool = False,
    device: Choice | None = None,
) -> Report:
    """Grade every starter, solution and wrong fix; with a ``deck``, also run every drill card's proof; with
    ``languages``, require every exercise (and card) to ship its Chinese text; with ``device``, device checks are
    made on its platform."""
    from jittrainer.course.drills.proofs import verify_cards

    report = Report(seed=seed if seed is not None else new_seed(), exercises=len(exercises))
    started = time.monotonic()
    tasks: list[tuple[Exercise, str, Path]] = []
    for ex in exercises:
        problems = static_problems(ex, languages=languages)
        if problems:
            report.problems.extend(problems)
            if on_result:
                for problem in problems:
                    on_result(problem, False)
        if ex.problems:
            continue
        if not ex.applies or ex.device_reason:  # another JAX, or a device this mode does not give
            report.skipped.append(f"{ex.dir.name}: {ex.unavailable_reason()}")
            if on_result:
                on_result(f"{ex.dir.name}: skipped, {ex.unavailable_reason()}", True)
            continue
        tasks.append((ex, "starter", ex.starter_path))
        tasks.append((ex, "solution", ex.solution_path))
        tasks.extend((ex, "wrong", p) for p in ex.wrong_paths)

    if tasks or deck is not None:
        zygote.start_shared()  # hundreds of grades and proofs: each forked from one process that imported jax once

    def run(task: tuple[Exercise, str, Path]) -> Result:
        ex, role, path = task
        submission = Submission(ex, path.read_bytes(), path.resolve(), seed=report.seed, timing=False, lang="en")
        if device is not None:
            submission = submission.on_device(device)
        verdict = grade(submission, limits_for(ex))
        problem = judge_file(ex, role, path, verdict)
        result = Result(ex.id, role, str(path.relative_to(ex.dir.parent)), not problem, verdict.status, problem,
                        verdict.duration_s or 0.0)
        if on_result:
            on_result(problem or _result_words(result.file, role), not problem)
        return result

    with ThreadPoolExecutor(max_workers=jobs or os.cpu_count() or 1) as pool:
        for result in pool.map(run, tasks):
            report.results.append(result)
            if result.problem:
                report.problems.append(result.problem)
    report.grades = len(tasks)
    report.seconds = round(time.monotonic() - started, 2)
    if deck is not None:
        started = time.monotonic()
        report.problems.extend(verify_cards(deck, jobs=jobs, on_result=on_result, languages=languages))
        report.cards = len(deck.cards)
        report.cards_seconds = round(time.monotonic() - started, 2)
    return report
