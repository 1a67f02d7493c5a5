"""Helpers shared by the test modules (import as ``from helpers import ...``; conftest.py holds only fixtures)."""

from __future__ import annotations

import os
import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path

from jittrainer.course.exercises import Exercise, find_exercise, load_exercises
from jittrainer.grading.host.grading import grade
from jittrainer.grading.host.run import Submission
from jittrainer.grading.limits import Limits
from jittrainer.grading.verdict import Verdict

REPO = Path(__file__).resolve().parent.parent
EXERCISES = REPO / "exercises"
ALT = Path(__file__).resolve().parent / "alt_submissions"
BIN = Path(sys.executable).parent


def exercise(key: str) -> Exercise:
    return find_exercise(load_exercises(EXERCISES), key)


_POOL = None


def warm_pool():
    """One session-wide pool: spare workers start (import jax) while earlier grades run, halving test time."""
    global _POOL
    if _POOL is None:
        from jittrainer.grading.host.pool import WorkerPool

        _POOL = WorkerPool(spares=2)
        _POOL.start()
    return _POOL


def pool_supervisors() -> set[int]:
    """The supervisors of idle spares of pools still open (the session-wide one, a module's own): they outlive a test
    on purpose."""
    from jittrainer.grading.host.pool import live_pools

    return {w.supervisor_pid for pool in list(live_pools) for w in pool.idle()}


def grade_file(
    ex: Exercise, path: Path, *, seed: int | None = 0, timing: bool = False, timeout: float | None = None, warm: bool = False
) -> Verdict:
    """Grade one file; the time limit is the exercise's own (its manifest), else the default 10 s."""
    timeout = timeout or ex.timeout_s or 10.0
    sub = Submission(ex, Path(path).read_bytes(), Path(path).resolve(), seed=seed, timing=timing, lang="en")
    if warm:
        return warm_pool().grade_run(sub, Limits(timeout_s=timeout)).run()
    return grade(sub, Limits(timeout_s=timeout))


def grade_source(ex: Exercise, source: str | bytes, tmp_path: Path, *, name: str = "submission.py", **kwargs) -> Verdict:
    path = tmp_path / name
    path.write_bytes(source.encode("utf-8") if isinstance(source, str) else source)
    return grade_file(ex, path, **kwargs)


def copy_exercise(ex: Exercise, root: Path) -> Path:
    """A copy of one exercise folder under ``root`` (to break it on purpose)."""
    target = root / ex.dir.name
    shutil.copytree(ex.dir, target)
    return target


def jittrainer_cmd() -> list[str]:
    """The installed entry point, as a learner runs it."""
    exe = BIN / "jittrainer"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "jittrainer"]


def clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env.update(extra)
    return env


async def wait_until(pilot, predicate: Callable[[], bool], timeout: float = 10.0, what: str = "") -> None:
    """In a Pilot test: wait, the app running, until ``predicate()`` holds (an AssertionError after ``timeout``)."""
    end = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > end:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what or predicate}")
        await pilot.pause(0.05)
