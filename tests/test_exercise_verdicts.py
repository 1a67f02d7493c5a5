"""Every shipped exercise through the real worker: the starter fails on its target checks, the solution passes,
every wrong/ fix fails, and independently written fixes in tests/alt_submissions/<id>/ pass (pass_*.py) or fail
(fail_*.py). A failure here means a learner would be graded wrongly."""

from __future__ import annotations

import zlib
from pathlib import Path

import pytest

from helpers import ALT, EXERCISES, exercise, grade_file
from jittrainer.core.exercises import load_exercises


def _cases():
    for ex in load_exercises(EXERCISES):
        yield pytest.param(ex.id, "starter", ex.starter_path, id=f"{ex.id}-starter")
        yield pytest.param(ex.id, "solution", ex.solution_path, id=f"{ex.id}-solution")
        for path in ex.wrong_paths:
            yield pytest.param(ex.id, "wrong", path, id=f"{ex.id}-wrong-{path.stem}")
        for path in sorted((ALT / ex.id).glob("*.py")):
            role = "pass" if path.name.startswith("pass_") else "fail"
            yield pytest.param(ex.id, role, path, id=f"{ex.id}-alt-{path.stem}")


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
    if role in ("solution", "pass"):
        assert verdict.status == "pass", f"{path.name} should pass: {verdict.message}"
        assert all(c.status == "pass" for c in verdict.checks)
        return
    assert verdict.status in ("fail", "error"), f"{path.name} should not pass"
    failing = [c for c in verdict.checks if c.status in ("fail", "error")]
    if verdict.status == "fail":
        assert failing and failing[0].message == verdict.message
    if role == "starter":
        statuses = {c.id: c.status for c in verdict.checks}
        for target in ex.targets:
            assert statuses.get(target) in ("fail", "error"), f"starter must fail {target}: {statuses}"


def test_every_exercise_has_alternative_submissions() -> None:
    for ex in load_exercises(EXERCISES):
        alt = sorted((ALT / ex.id).glob("*.py"))
        assert sum(p.name.startswith("pass_") for p in alt) >= 3, f"{ex.id}: too few independent right fixes"
        assert sum(p.name.startswith("fail_") for p in alt) >= 3, f"{ex.id}: too few independent wrong fixes"
