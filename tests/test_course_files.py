"""The course's files, without grading them: every wrong fix and alternative submission declares its verdict, and
there are enough of them for each exercise."""

from __future__ import annotations

import pytest

from helpers import ALT, EXERCISES
from jittrainer.course.exercises import load_exercises
from jittrainer.course.expect import Expectation, ExpectationMissing, read_expectation

EXERCISE_LIST = load_exercises(EXERCISES)


@pytest.mark.parametrize("ex", EXERCISE_LIST, ids=lambda ex: ex.id)
def test_every_graded_file_declares_its_verdict(ex):
    declared = {}
    for path in [*ex.wrong_paths, *sorted((ALT / ex.id).glob("*.py"))]:
        try:
            expectation = read_expectation(path)
        except ExpectationMissing as exc:
            raise AssertionError(f"{path.name}: {exc}") from None
        declared[path] = expectation
        for value in expectation.values:
            check = Expectation(value).check
            assert check is None or check in _checks(ex), f"{path.name}: {check!r} is not a check of {ex.id}"
    wrong = [p for p in ex.wrong_paths]
    assert all(not Expectation(v).passes for p in wrong for v in declared[p].values), \
        "a shipped wrong fix cannot expect to pass, on any JAX version"
    alt = [declared[p] for p in sorted((ALT / ex.id).glob("*.py"))]
    assert sum(e.passes for e in alt) >= 4, f"{ex.id}: too few independent right fixes"
    assert sum(not e.passes for e in alt) >= 4, f"{ex.id}: too few independent wrong fixes"


def _checks(ex) -> set[str]:
    from jittrainer.i18n.extract import extract_file

    return {item.context.split(":", 1)[1] for item in extract_file(ex.checks_path) if item.context.startswith("check:")}


def test_the_readme_lists_the_course_as_it_is():
    readme = (EXERCISES.parent / "README.md").read_text(encoding="utf-8")
    rows = [line for line in readme.splitlines() if line.startswith("| ") and "` |" in line]
    listed = [row.split("`")[1] for row in rows if row.split("|")[1].strip().isdigit()]
    assert listed == [ex.id for ex in EXERCISE_LIST], "README's exercise table is out of step with exercises/"
    for ex in EXERCISE_LIST:
        assert f"| `{ex.id}` | {ex.title} |" in readme
