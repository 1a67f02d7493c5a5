"""The warm pool: spares replenish, a dead spare is never handed out, no worker grades twice, cancel kills."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest

from helpers import REPO
from jittrainer.course.exercises import find_exercise, load_exercises
from jittrainer.grading.host.pool import WorkerPool
from jittrainer.grading.host.run import Submission
from jittrainer.grading.limits import Limits

pytestmark = pytest.mark.worker

FIXTURES = REPO / "tests" / "fixtures" / "exercises"
SOLUTION = b"def double(x):\n    return 2 * x\n"


@pytest.fixture
def double():
    return find_exercise(load_exercises(FIXTURES), "double")


@pytest.fixture
def pool():
    pool = WorkerPool(spares=1)
    pool.start()
    yield pool
    pool.shutdown()


def submission(ex, tmp_path, source=SOLUTION):
    path = tmp_path / "draft.py"
    path.write_bytes(source)
    return Submission(ex, source, path, seed=1, timing=False)


def wait_until(predicate, timeout=60.0):
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "condition not reached"
        time.sleep(0.02)


def test_spare_is_warm_and_replenished_after_each_job(pool, double, tmp_path):
    spare = pool.idle()[0]
    assert spare.wait_ready(60)
    seen = set()
    for _ in range(3):
        run = pool.grade_run(submission(double, tmp_path))
        assert run.worker.supervisor_pid not in seen  # never reused
        seen.add(run.worker.supervisor_pid)
        assert len(pool.idle()) == 1 and pool.idle()[0] is not run.worker  # the next spare started at once
        assert run.run().status == "pass"
        assert run.worker.supervisor.poll() is not None  # a worker grades one job, then it is gone
    assert pool.started_workers == 4


def test_a_dead_spare_is_never_handed_out(pool, double, tmp_path):
    spare = pool.idle()[0]
    assert spare.wait_ready(60)
    os.kill(spare.supervisor_pid, signal.SIGKILL)  # its job dies with it (forked), or is left an orphan (spawned)
    assert spare.supervisor.wait(10) is not None
    run = pool.grade_run(submission(double, tmp_path))
    assert run.worker is not spare
    assert run.run().status == "pass"


def test_a_crashing_submission_does_not_break_the_next_grade(pool, double, tmp_path):
    crash = b"import ctypes\nctypes.string_at(0)\n"
    first = pool.grade_run(submission(double, tmp_path, crash)).run()
    assert "SIGSEGV" in first.message
    assert pool.grade_run(submission(double, tmp_path)).run().status == "pass"


def test_cancel_kills_the_worker(pool, double, tmp_path):
    run = pool.grade_run(submission(double, tmp_path, b"while True:\n    pass\n"))
    result = {}
    thread = threading.Thread(target=lambda: result.update(v=run.run()))
    thread.start()
    wait_until(lambda: run.runs[0].phase == "import")
    run.cancel()
    thread.join(10)
    assert not thread.is_alive()
    assert result["v"].message == "cancelled"
    assert run.worker.supervisor.poll() is not None


def test_shutdown_kills_idle_spares(double):
    pool = WorkerPool(spares=2)
    pool.start()
    spares = pool.idle()
    pool.shutdown()
    assert all(w.supervisor.poll() is not None for w in spares)
    pool.start()  # closed pools stay closed
    assert pool.idle() == []


def test_cold_and_warm_paths_give_the_same_verdict(pool, double, tmp_path):
    from jittrainer.grading.host.run import grade_once

    cold = grade_once(submission(double, tmp_path), Limits())
    warm = pool.grade_run(submission(double, tmp_path)).run()
    assert (cold.status, cold.compiles, cold.output, [c.status for c in cold.checks]) == (
        warm.status, warm.compiles, warm.output, [c.status for c in warm.checks]
    )


def test_a_head_start_is_not_refilled_and_swaps_a_spare_of_the_wrong_count(double, tmp_path):
    """`check`'s pool (refill=False): the spare it started early serves the grade and no other starts after it; an
    exercise graded with other device counts stops that spare for one of its own counts."""
    pool = WorkerPool(spares=1, fork_server=False, refill=False)
    try:
        pool.start()
        (early,) = pool.idle()
        pool.want((2,))
        (swapped,) = pool.idle()
        assert swapped.devices == 2 and early.supervisor.wait(10) is not None
        taken = pool.take(2)
        assert taken is swapped and pool.idle() == [] and pool.started_workers == 2
        taken.kill()
        run = pool.grade_run(submission(double, tmp_path))  # a count with no spare: started for it, none after
        assert run.run().status == "pass"
        assert pool.idle() == [] and pool.started_workers == 3
    finally:
        pool.shutdown()
