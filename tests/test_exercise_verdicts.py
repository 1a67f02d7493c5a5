"""Every shipped exercise through the real worker: the starter fails on its target checks, the solution passes, and
every wrong/ fix and every independently written submission in tests/alt_submissions/<id>/ (a pack's:
tests/alt_submissions/<pack>/<id>/) gets exactly the verdict it declares (``# expect: pass``, ``# expect: <check id>``, ``# expect: error:<kind>``). A failure here means a
learner would be graded wrongly, or caught by the wrong check.

Each verdict is also held against its golden (``tests/goldens.py``): the message a learner reads, in both languages,
must not change unless a commit means it to. A right alternative file is graded with the learner's side of the
review measured, and the approach it takes is held against tests/review/approaches.json (``approach_table.py``): one
grade per file for both."""

from __future__ import annotations

from pathlib import Path

import approach_table
import goldens
import pytest

from helpers import ALT, EXERCISES, REPO, grade_file
from jittrainer.course import load_course
from jittrainer.course.expect import judge, outcome, read_expectation

pytestmark = pytest.mark.worker


# The example pack is held to the course's bar (issue 30): its files are graded and held to goldens too.
COURSE = load_course(EXERCISES, packs=[REPO / "packs" / "vmap_under_jit"])


def _alt_dir(ex) -> Path:
    return ALT / ex.pack / ex.short_id if ex.pack else ALT / ex.id


def _cases():
    for ex in COURSE.exercises:
        yield pytest.param(ex.id, "starter", ex.starter_path, id=f"{ex.id}-starter")
        yield pytest.param(ex.id, "solution", ex.solution_path, id=f"{ex.id}-solution")
        for path in ex.wrong_paths:
            yield pytest.param(ex.id, "wrong", path, id=f"{ex.id}-wrong-{path.stem}")
        for path in sorted(_alt_dir(ex).glob("*.py")):
            yield pytest.param(ex.id, "alt", path, id=f"{ex.id}-alt-{path.stem}")


def test_every_alternative_folder_belongs_to_an_exercise():
    folders = {_alt_dir(ex) for ex in COURSE.exercises}
    found = {p.parent for p in ALT.rglob("*.py")}
    assert found <= folders, sorted(map(str, found - folders))


@pytest.mark.parametrize(("exercise_id", "role", "path"), list(_cases()))
def test_verdict(exercise_id: str, role: str, path: Path) -> None:
    ex = COURSE.find(exercise_id)
    if ex.device_reason:  # CI has no accelerator: tools/tpu_proof.sh grades these files on a TPU (docs/proofs/)
        pytest.skip(f"{ex.id} is {ex.device_reason}")
    assert ex.available, ex.problems
    seed = goldens.seed_for(ex.id, path)
    # The review's approaches are the course's (a pack lists none): a pack's right files are graded, not measured.
    measured = role == "alt" and not ex.pack and approach_table.expects_pass(path)
    if measured:
        verdict, approach = approach_table.grade_measured(ex, path, seed)
    else:
        verdict = grade_file(ex, path, seed=seed, warm=True)
    assert verdict.internal_error is None, verdict.internal_error
    _declared(ex, role, path, verdict)
    _hold_golden(ex.id, role, path, verdict)
    if measured:
        approach_table.hold(ex.id, path.name, approach, verdict.jax_version)


def _declared(ex, role: str, path: Path, verdict) -> None:
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
    expectation = read_expectation(path)  # a wrong fix or an alternative submission
    assert judge(expectation, verdict) == "", f"{path.name}: {judge(expectation, verdict)}"
    if not verdict.passed:
        first = verdict.first_failure
        if first is not None:  # the headline is the first failure's observation, never an incidental one
            assert first.message == verdict.message
        assert outcome(verdict) != "pass"


def _hold_golden(exercise_id: str, role: str, path: Path, verdict) -> None:
    got = goldens.golden_of(verdict, path)
    name = goldens.entry_name(role, path)
    if goldens.RECORD:
        goldens.record(exercise_id, name, got, verdict.jax_version)
        return
    recorded = goldens.load(exercise_id)
    if recorded.get("jax_version") != verdict.jax_version:
        return  # recorded on the primary JAX; here only the declared verdict is checked
    expected = recorded.get("files", {}).get(name)
    assert expected is not None, f"no golden verdict for {exercise_id} {name}: record it (see tests/goldens.py)"
    diff = goldens.difference(expected, got)
    assert not diff, f"{exercise_id} {name}: the verdict differs from its golden (tests/goldens.py):\n{diff}"
