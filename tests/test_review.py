"""The review of a passing program, through the real worker.

- Every exercise's solution: reviewed against itself, the review is celebratory (no essential or actionable
  comment: no false alarm on the reference) and names one of the exercise's approaches.
- Every right file in tests/alt_submissions/<id>/ (``# expect: pass``): the approach its program matches is held
  against tests/review/approaches.json by ``test_exercise_verdicts.py``, which grades those files anyway
  (``approach_table.py``). ``test_review_rules.py`` holds the table to the issue's bar without a worker: every
  approach matched by at least one file, at most a quarter unrecognised.
- Every deliberately heavy right fix in tests/review_submissions/<id>/ passes and its review holds the comment it
  declares on its ``# review: <comment id>`` line.
"""

from __future__ import annotations

import re
from pathlib import Path

import goldens
import pytest

from helpers import EXERCISES, exercise, warm_pool
from jittrainer.course.exercises import load_exercises
from jittrainer.grading.host.grading import Grading
from jittrainer.grading.host.review import ReferenceCache
from jittrainer.grading.host.run import Submission, jax_version
from jittrainer.grading.limits import Limits

pytestmark = pytest.mark.worker

HERE = Path(__file__).resolve().parent
HEAVY = HERE / "review_submissions"
DECLARED = re.compile(r"^# review: (?P<id>[a-z0-9_.]+)\s*$", re.MULTILINE)


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> ReferenceCache:
    """One reference cache for the module: a solution's own review fills it for the heavy fixes graded after it."""
    return ReferenceCache(tmp_path_factory.mktemp("review") / "reference-review.json", jax_version())


def _submission(ex, path: Path, seed: int) -> Submission:
    return Submission(ex, path.read_bytes(), path.resolve(), seed=seed, timing=False, lang="en", review=True)


def _limits(ex) -> Limits:
    return Limits(timeout_s=ex.timeout_s or 10.0)


def _reviewed(ex, path: Path, cache: ReferenceCache):
    """The verdict with its review, on the seed of the exercise's solution (so the reference is measured once)."""
    seed = goldens.seed_for(ex.id, ex.solution_path)
    return Grading(_submission(ex, path, seed), _limits(ex), take_worker=warm_pool().take, review_cache=cache).run()


def _ids(review) -> list[str]:
    return [c.id for c in review.comments]


@pytest.mark.parametrize("exercise_id", [ex.id for ex in load_exercises(EXERCISES)])
def test_the_solution_review_is_celebratory(exercise_id: str, cache: ReferenceCache) -> None:
    ex = exercise(exercise_id)
    if ex.device_reason:  # CI has no accelerator: tools/tpu_proof.py --files reviews it on a TPU (docs/proofs/)
        pytest.skip(f"{ex.id} is {ex.device_reason}")
    verdict = _reviewed(ex, ex.solution_path, cache)
    assert verdict.passed, verdict.message
    review = verdict.review
    assert review is not None and review.status == "reviewed", review
    assert review.reference == "self"
    kinds = review.kinds
    assert "celebratory" in kinds and not {"essential", "actionable"} & set(kinds), \
        [(c.id, c.message.render("en")) for c in review.comments]
    assert review.approach, f"{exercise_id}: the solution matches none of its approaches ({review.approaches})"


# ---------------------------------------------------------------------------------------------- heavy right fixes


def _heavy():
    for path in sorted(HEAVY.glob("*/*.py")):
        yield pytest.param(path.parent.name, path, id=f"{path.parent.name}-{path.stem}")


@pytest.mark.parametrize(("exercise_id", "path"), list(_heavy()))
def test_a_heavy_right_fix_hears_about_it(exercise_id: str, path: Path, cache: ReferenceCache) -> None:
    declared = DECLARED.search(path.read_text(encoding="utf-8"))
    assert declared, f"{path.name}: no '# review: <comment id>' line"
    ex = exercise(exercise_id)
    verdict = _reviewed(ex, path, cache)
    assert verdict.passed, f"{path.name}: {verdict.message}"
    review = verdict.review
    assert review is not None and review.status == "reviewed" and review.reference in ("cache", "measured")
    assert declared["id"] in _ids(review), [(c.id, c.message.render("en")) for c in review.comments]


# ------------------------------------------------------------------------------------------------- the channel


def test_a_review_frame_forged_by_the_submission_is_refused(tmp_path: Path, cache: ReferenceCache) -> None:
    """A review frame written by the learner's code (here at import, before any verdict) is a forgery like any other:
    the grade is refused, and no review is made from it."""
    from test_channel import forge_frame

    ex = exercise("black_box_print")
    fake = {"type": "review", "token": "guess", "measures": {"eqns": 1, "program": "normalize"}}
    path = tmp_path / "forged.py"
    path.write_text(forge_frame(fake, every_fd=True).replace(
        "def double(x):\n    return 3 * x\n", ex.solution_path.read_text(encoding="utf-8")), encoding="utf-8")
    verdict = _reviewed(ex, path, cache)
    assert verdict.status == "error" and verdict.error.type == "ForgedVerdict", verdict.message
    assert verdict.review is None


def test_a_new_grade_stops_the_review_and_its_reference_run(cache: ReferenceCache, tmp_path: Path) -> None:
    """The review's reference run is cancelled with the grading (as the app does when a newer grade starts): the
    verdict stands, the review goes without the reference's figures, and the reference's worker is killed."""
    import threading
    import time

    ex = exercise("boolean_mask")
    path = HEAVY / "boolean_mask" / "one_hot_matmul.py"
    empty = ReferenceCache(tmp_path / "empty.json", jax_version())
    seed = goldens.seed_for(ex.id, ex.solution_path)
    grading = Grading(_submission(ex, path, seed), _limits(ex), take_worker=warm_pool().take, review_cache=empty)
    result: list = []
    thread = threading.Thread(target=lambda: result.append(grading.run()), daemon=True)
    thread.start()
    end = time.monotonic() + 120
    while not (grading.reviewer is not None and grading.reviewer._run is not None) and time.monotonic() < end:
        time.sleep(0.02)
    assert grading.reviewer is not None and grading.reviewer._run is not None, "the reference run never started"
    grading.cancel()
    thread.join(30)
    assert not thread.is_alive() and result
    verdict = result[0]
    assert verdict.passed and verdict.review is not None
    assert verdict.review.reference == "" and "review.no_reference" in _ids(verdict.review)
    assert grading.reviewer._run.cancelled.is_set()
