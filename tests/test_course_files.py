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


# The grading code of the exercises (every .py in an exercise folder but the starter, the solution, their
# translations and wrong/), counted at the project's line width: a line longer than 120 columns counts once per 120
# columns it spans, so joining lines does not shrink it. What two exercises share belongs in the authoring API.
LINE_WIDTH = 120
GRADING_LINES = 8_000  # issue 19's target for the whole course
EXERCISE_GRADING_LINES = 400  # ... and for one exercise
# Where the course stands after the shared diagnoses moved into the authoring API: the rest is each exercise's own
# wording and slips. It may shrink, never grow; the total target test below passes once it is 8,000. Issue 30 grew
# it by 51 for rules its statements now promise and checks enforce (unique_indices on repeated items, a copy of the
# weights held across a donated step, a softmax row a global shift underflows, a frozenset's lost order, the
# Explicit-axis with_sharding_constraint errors), with the shareable parts in the toolkit (keep_held_copies,
# unique_promises).
GRADING_LINES_NOW = 9_204
# Exercises written after the toolkit rounds (numbered above FIRST_NEW) start on the grown toolkit: each one's grading
# code stays within this stricter budget, and is not part of GRADING_LINES_NOW.
FIRST_NEW = 33
NEW_EXERCISE_GRADING_LINES = 250


def grading_lines(folder) -> int:
    files = [p for p in folder.rglob("*.py")
             if "wrong" not in p.relative_to(folder).parts and not p.name.startswith(("starter", "solution"))]
    return sum(max(1, -(-len(line) // LINE_WIDTH)) for p in files for line in p.read_text("utf-8").splitlines())


def _number(ex) -> int:
    return int(ex.checks_path.parent.name.split("_", 1)[0])


def _sizes(new: bool = False) -> dict[str, int]:
    return {ex.id: grading_lines(ex.checks_path.parent) for ex in EXERCISE_LIST if (_number(ex) >= FIRST_NEW) == new}


def test_grading_code_does_not_grow():
    sizes = _sizes()
    over = {k: n for k, n in sizes.items() if n > EXERCISE_GRADING_LINES}
    assert not over, f"grading code over its budget (move what exercises share into the authoring API): {over}"
    assert sum(sizes.values()) <= GRADING_LINES_NOW, f"{sum(sizes.values())} lines of grading code"


def test_new_exercises_stay_within_their_budget():
    over = {k: n for k, n in _sizes(new=True).items() if n > NEW_EXERCISE_GRADING_LINES}
    assert not over, f"grading code over {NEW_EXERCISE_GRADING_LINES} lines (grow the authoring API instead): {over}"


@pytest.mark.xfail(strict=True, reason="issue 19's total is not reached yet: see GRADING_LINES_NOW")
def test_the_course_meets_the_total_target():
    assert sum(_sizes().values()) <= GRADING_LINES
