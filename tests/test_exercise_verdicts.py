"""Every shipped exercise through the real worker: the starter fails on its target checks, the solution passes, and
every wrong/ fix and every independently written submission in tests/alt_submissions/<id>/ gets exactly the verdict
it declares (``# expect: pass``, ``# expect: <check id>``, ``# expect: error:<kind>``). A failure here means a
learner would be graded wrongly, or caught by the wrong check."""

from __future__ import annotations

import zlib
from pathlib import Path

import pytest

from helpers import ALT, EXERCISES, exercise, grade_file
from jittrainer.course.exercises import load_exercises
from jittrainer.course.expect import judge, outcome, read_expectation

pytestmark = pytest.mark.worker


def _cases():
    for ex in load_exercises(EXERCISES):
        yield pytest.param(ex.id, "starter", ex.starter_path, id=f"{ex.id}-starter")
        yield pytest.param(ex.id, "solution", ex.solution_path, id=f"{ex.id}-solution")
        for path in ex.wrong_paths:
            yield pytest.param(ex.id, "declared", path, id=f"{ex.id}-wrong-{path.stem}")
        for path in sorted((ALT / ex.id).glob("*.py")):
            yield pytest.param(ex.id, "declared", path, id=f"{ex.id}-alt-{path.stem}")


def _seed(path: Path) -> int:
    # Fixed per file, different across files: reproducible failures, varied inputs.
    return zlib.crc32(str(path.relative_to(EXERCISES.parent)).encode())


@pytest.mark.parametrize(("exercise_id", "role", "path"), list(_cases()))
def test_verdict(exercise_id: str, role: str, path: Path) -> None:
    ex = exercise(exercise_id)
    assert ex.available, ex.problems
    verdict = grade_file(ex, path, seed=_seed(path), warm=True)
    assert verdict.internal_error is None, verdict.internal_error
    assert verdict.message.strip()
    if role == "solution":
        assert verdict.status == "pass", f"{path.name} should pass: {verdict.message}"
        assert all(c.status == "pass" for c in verdict.checks)
        return
    if role == "starter":
        statuses = {c.id: c.status for c in verdict.checks}
        for target in ex.targets:
            assert statuses.get(target) in ("fail", "error"), f"starter must fail {target}: {statuses}"
        return
    expectation = read_expectation(path)
    assert judge(expectation, verdict) == "", f"{path.name}: {judge(expectation, verdict)}"
    if not verdict.passed:
        first = verdict.first_failure
        if first is not None:  # the headline is the first failure's observation, never an incidental one
            assert first.message == verdict.message
        assert outcome(verdict) != "pass"
