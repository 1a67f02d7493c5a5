"""An exercise graded in several worker processes in turn (manifest ``grading.processes``): a folder they share,
what one hands the next, the first failure ending the grading, one verdict with every check where it ran."""

from __future__ import annotations

import uuid

import pytest

from helpers import REPO, grade_source
from jittrainer.course.exercises import find_exercise, load_exercises

pytestmark = pytest.mark.worker

FIXTURES = REPO / "tests" / "fixtures" / "processes"


@pytest.fixture(scope="module")
def twice():
    ex = find_exercise(load_exercises(FIXTURES), "twice")
    assert ex.processes == 2 and not ex.problems, ex.problems
    return ex


def test_both_processes_pass_and_each_check_is_reported_where_it_ran(twice, tmp_path):
    v = grade_source(twice, "def double(x):\n    return 2 * x\n", tmp_path)
    assert v.status == "pass", v.message
    assert [(c.id, c.status) for c in v.checks] == [("first", "pass"), ("second", "pass")]
    assert "── process 1 ──" not in v.output or "── process 2 ──" in v.output


def test_a_failure_in_the_first_process_ends_the_grading(twice, tmp_path):
    v = grade_source(twice, "def double(x):\n    return 3 * x\n", tmp_path)
    assert v.status == "fail" and v.first_failure.id == "first", v.message
    assert [c.status for c in v.checks] == ["fail", "skip"]


def test_the_second_process_sees_what_the_first_handed_on(twice, tmp_path):
    """A function that answers differently in a new process (it keeps a mark on disk) fails in the second one."""
    mark = tmp_path / f"seen-{uuid.uuid4().hex}"
    code = (f"import os\nFIRST = not os.path.exists({str(mark)!r})\nopen({str(mark)!r}, 'a').close()\n"
            "def double(x):\n    return 2 * x if FIRST else 3 * x\n")
    v = grade_source(twice, code, tmp_path)
    assert v.status == "fail" and v.first_failure.id == "second", v.message
    assert [c.status for c in v.checks] == ["pass", "fail"]
    assert "process 1 gave 12.0, process 2 18.0 (its file there: True)" in v.message


def test_a_manifest_asks_for_processes_with_one_device_count(tmp_path):
    import shutil

    folder = tmp_path / "01_twice"
    shutil.copytree(FIXTURES / "01_twice", folder)
    manifest = folder / "manifest.toml"
    manifest.write_text(manifest.read_text().replace("processes = 2", "processes = 2\ndevices = [2, 4]"))
    ex = load_exercises(tmp_path)[0]
    assert any("one device count" in p for p in ex.problems), ex.problems
    manifest.write_text(manifest.read_text().replace("processes = 2", "processes = 9"))
    assert any("from 1 to 4" in p for p in load_exercises(tmp_path)[0].problems)


def test_what_the_last_process_reports_early_is_the_whole_verdict(twice, tmp_path):
    """The verdict said before the timing (the CLI prints it then) and with the timing hold every process's checks,
    as the verdict at the end does: a check the first process ran is not shown as skipped."""
    from pathlib import Path

    from jittrainer.grading.host.grading import Grading
    from jittrainer.grading.host.run import Submission
    from jittrainer.grading.limits import Limits

    path = tmp_path / "submission.py"
    path.write_text("def double(x):\n    return 2 * x\n")
    sub = Submission(twice, path.read_bytes(), Path(path).resolve(), seed=0, timing=True, lang="en")
    early, timed = [], []
    final = Grading(sub, Limits(timeout_s=30)).run(on_verdict=early.append, on_timing=timed.append)
    assert final.status == "pass", final.message
    assert early, "the verdict was not reported before its timing"
    for v in early + timed:
        assert [(c.id, c.status) for c in v.checks] == [("first", "pass"), ("second", "pass")]
