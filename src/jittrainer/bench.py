"""``jittrainer bench``: how fast feedback is on this machine, measured, not asserted in tests.

- ``cold_grade_s``: one-shot grades of black_box_print's reference solution, process start included (the CLI path).
- ``forked_grade_s``: the same file forked from a ready fork server (no spare waiting), fork and backend start
  included: what a grade costs when there is no spare (``validate``, ``check --all``, a second device count).
- ``warm_grade_s``: the same file through the warm pool, from job hand-over to verdict, with the spare already
  warm, as it is while a learner reads.
- ``check_s`` / ``bare_jax_s`` / ``check_vs_jax_ratio``: ``jittrainer check --no-review`` of that file from the
  shell (timing off), against a bare ``python -c "import jax; jax.numpy.ones(1)"``: what the command costs beyond
  JAX to reach the verdict (a default check prints the verdict at the same moment, then the review).
- ``review_s``: what the review of a passing program adds after its verdict (the worker's measuring, then the
  comments), the reference's figures cached; ``review_first_s``: the first review of the exercise, which grades and
  measures the reference once. The file is black_box_print's solution with a comment added, so it is not the
  reference itself.
- ``startup_s``: app launch to first interactive frame, measured headless in a subprocess.
- ``ui_rss_mb``: the app process's resident memory after start-up.
"""

from __future__ import annotations

import dataclasses
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from jittrainer.course.exercises import find_exercise, load_exercises
from jittrainer.grading.host import zygote
from jittrainer.grading.host.grading import Grading
from jittrainer.grading.host.pool import WorkerPool
from jittrainer.grading.host.review import ReferenceCache
from jittrainer.grading.host.run import GradingRun, Submission, jax_version
from jittrainer.grading.limits import Limits

EXERCISE = "black_box_print"
TARGETS = {"warm_grade_s": 0.25, "cold_warm_ratio": 3.0, "check_vs_jax_ratio": 1.3, "startup_s": 0.5,
           "ui_rss_mb": 150.0}
SETTLE_S = 0.3  # a breath between runs so one run's clean-up does not bill the next


def stats(samples: list[float]) -> dict[str, float]:
    return {
        "min": round(min(samples), 4),
        "median": round(statistics.median(samples), 4),
        "max": round(max(samples), 4),
    }


def _submission(exercises_dir: str | None) -> Submission:
    ex = find_exercise(load_exercises(Path(exercises_dir) if exercises_dir else None), EXERCISE)
    return Submission(ex, ex.solution_path.read_bytes(), ex.solution_path, seed=0, timing=False)


def cold_grades(sub: Submission, runs: int, progress: Callable[[str], None]) -> list[float]:
    samples = []
    for i in range(runs):
        run = GradingRun(sub, Limits())
        verdict = run.run()
        if not verdict.passed:
            raise RuntimeError(f"the reference solution did not pass: {verdict.message}")
        samples.append(run.verdict_at - run.started)
        progress(f"cold grade {i + 1}/{runs}: {samples[-1]:.3f} s")
        time.sleep(SETTLE_S)
    return samples


def forked_grades(sub: Submission, runs: int, progress: Callable[[str], None]) -> list[float]:
    server = zygote.start_shared()
    if not server.wait_ready():
        raise RuntimeError(f"the fork server did not start: {server.broken}")
    samples = []
    for i in range(runs):
        time.sleep(SETTLE_S)
        run = GradingRun(sub, Limits())
        verdict = run.run()
        if not verdict.passed:
            raise RuntimeError(f"the reference solution did not pass: {verdict.message}")
        samples.append(run.verdict_at - run.started)
        progress(f"forked grade {i + 1}/{runs} ({run.worker.mode}): {samples[-1]:.3f} s")
    return samples


def warm_grades(sub: Submission, runs: int, progress: Callable[[str], None]) -> list[float]:
    pool = WorkerPool(spares=1)
    pool.start()
    samples = []
    try:
        for i in range(runs):
            spare = pool.idle()[0]
            if not spare.wait_ready(Limits.startup_timeout_s):
                raise RuntimeError("the spare worker did not start")
            time.sleep(SETTLE_S)  # the learner is reading: nothing else is starting up
            run = pool.grade_run(sub, Limits())
            verdict = run.run()
            if not verdict.passed:
                raise RuntimeError(f"the reference solution did not pass: {verdict.message}")
            samples.append(run.verdict_at - run.handed_over_at)
            progress(f"warm grade {i + 1}/{runs}: {samples[-1]:.3f} s")
    finally:
        pool.shutdown()
    return samples


def review_times(sub: Submission, runs: int, progress: Callable[[str], None]) -> tuple[float, list[float]]:
    """(the first review, with the reference measured; the later ones, its figures cached), in seconds."""
    import dataclasses

    sub = dataclasses.replace(sub, source=sub.source + b"\n# a learner's own copy\n", review=True)
    pool = WorkerPool(spares=1)
    pool.start()
    samples: list[float] = []
    first = 0.0
    try:
        with tempfile.TemporaryDirectory(prefix="jittrainer-bench-") as tmp:
            cache = ReferenceCache(Path(tmp) / "reference-review.json", jax_version())
            for i in range(-1, runs):
                spare = pool.idle()[0]
                if not spare.wait_ready(Limits.startup_timeout_s):
                    raise RuntimeError("the spare worker did not start")
                time.sleep(SETTLE_S)
                grading = Grading(sub, Limits(), take_worker=pool.take, review_cache=cache)
                verdict = grading.run()
                review = verdict.review
                if review is None or review.seconds is None or review.status != "reviewed":
                    raise RuntimeError(f"no review of the reference solution: {verdict.message}")
                if i < 0:
                    first = review.seconds
                    progress(f"first review (reference measured): {first:.3f} s")
                    continue
                samples.append(review.seconds)
                progress(f"review {i + 1}/{runs}: {samples[-1]:.3f} s")
    finally:
        pool.shutdown()
    return first, samples


def command_times(runs: int, progress: Callable[[str], None], exercises_dir: str | None) -> tuple[list[float], list[float]]:
    """Seconds of ``jittrainer check <solution>`` and of a bare jax process, interleaved so load hits both alike."""
    sub = _submission(exercises_dir)
    check, bare = [], []
    with tempfile.TemporaryDirectory(prefix="jittrainer-bench-") as tmp:
        env = {**os.environ, "JITTRAINER_HOME": str(Path(tmp) / "home")}
        exercises = ["--exercises", exercises_dir] if exercises_dir else []
        commands = {
            "check": [sys.executable, "-m", "jittrainer", *exercises, "check", EXERCISE, str(sub.path), "--json",
                      "--no-review"],
            "bare": [sys.executable, "-c", "import jax; jax.numpy.ones(1).block_until_ready()"],
        }
        for i in range(-1, runs):  # the first round, unmeasured, writes the bytecode caches
            for name, cmd in commands.items():
                started = time.perf_counter()
                subprocess.run(cmd, env=env, stdin=subprocess.DEVNULL, capture_output=True, timeout=120)
                if i >= 0:
                    (check if name == "check" else bare).append(time.perf_counter() - started)
            if i < 0:
                continue
            progress(f"check {i + 1}/{runs}: {check[-1]:.3f} s, bare jax {bare[-1]:.3f} s")
            time.sleep(SETTLE_S)
    return check, bare


def app_startups(runs: int, progress: Callable[[str], None], exercises_dir: str | None) -> tuple[list[float], list[float]]:
    """Launch the app headless, told to report its first interactive frame and exit; (seconds, rss MB) per run.
    One launch first, unmeasured, writes the bytecode caches a fresh install would already have."""
    times, rss = [], []
    with tempfile.TemporaryDirectory(prefix="jittrainer-bench-") as tmp:
        for i in range(-1, runs):
            ready_file = Path(tmp) / f"ready-{i}.json"
            env = {**os.environ, "JITTRAINER_HOME": str(Path(tmp) / "home"), "JITTRAINER_EXIT_WHEN_READY": "1",
                   "JITTRAINER_HEADLESS": "1", "JITTRAINER_READY_FILE": str(ready_file)}
            cmd = [sys.executable, "-m", "jittrainer"] + (["--exercises", exercises_dir] if exercises_dir else [])
            started = time.time()
            proc = subprocess.run(cmd, env=env, stdin=subprocess.DEVNULL, capture_output=True, timeout=60)
            if proc.returncode != 0 or not ready_file.exists():
                tail = proc.stderr.decode(errors="replace").strip().splitlines()[-1:] or ["no ready report"]
                raise RuntimeError(f"the app did not report a first frame: {tail[0]}")
            report = json.loads(ready_file.read_text())
            if i < 0:
                continue
            times.append(report["ready_at"] - started)
            rss.append(report["rss_mb"])
            progress(f"app start-up {i + 1}/{runs}: {times[-1]:.3f} s, {rss[-1]:.0f} MB")
            time.sleep(SETTLE_S)
    return times, rss


def device_times(sub: Submission, platform: str, runs: int, progress: Callable[[str], None]) -> dict[str, Any]:
    """--device: the executor's start (the device opened once), then each grade's wait from its verdict to its
    timing measured on the device (the CPU timing, the export and the executor's job together)."""
    from jittrainer.grading.host.device import SESSION

    t0 = time.monotonic()
    executor = SESSION.get(platform)  # Unavailable: said by the caller
    out: dict[str, Any] = {"device_start_s": round(time.monotonic() - t0, 3), "device": dict(executor.facts)}
    pool = WorkerPool(spares=1)
    pool.start()
    samples, steady = [], []
    timed = dataclasses.replace(sub, timing=True, device=platform)
    try:
        for i in range(runs):
            run = pool.grade_run(timed, Limits())
            verdict = run.run()
            if verdict.timing.platform != executor.facts.get("platform"):
                raise RuntimeError(f"not timed on the device: {verdict.timing.device_note}")
            samples.append(time.monotonic() - run.verdict_at)
            steady.append(verdict.timing.steady_s)
            progress(f"device timing {i + 1}/{runs}: {samples[-1]:.3f} s")
    finally:
        pool.shutdown()
    out["device_timing_s"], out["device_steady_s"] = stats(samples), stats(steady)
    return out


def run_bench(runs: int = 7, progress: Callable[[str], None] | None = None, exercises_dir: str | None = None,
              device: str = "") -> dict[str, Any]:
    progress = progress or (lambda line: None)
    # Every process measured here may write Python's bytecode caches, as on any install: with
    # PYTHONDONTWRITEBYTECODE set (some shells and containers do), each launch after an edit compiles again.
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sub = _submission(exercises_dir)
    cold_grades(sub, 1, lambda line: None)  # unmeasured: writes the worker's caches
    cold = cold_grades(sub, runs, progress)  # before any fork server exists: spawned, as a one-shot check
    forked = forked_grades(sub, runs, progress)
    warm = warm_grades(sub, runs, progress)
    result: dict[str, Any] = {"runs": runs, "cold_grade_s": stats(cold), "forked_grade_s": stats(forked),
                              "warm_grade_s": stats(warm), "isolation": zygote.shared().mode}  # type: ignore[union-attr]
    result["cold_warm_ratio"] = round(statistics.median(cold) / statistics.median(warm), 2)
    first_review, reviews = review_times(sub, runs, progress)
    result["review_first_s"], result["review_s"] = round(first_review, 4), stats(reviews)
    check, bare = command_times(runs, progress, exercises_dir)
    result["check_s"], result["bare_jax_s"] = stats(check), stats(bare)
    result["check_vs_jax_ratio"] = round(statistics.median(check) / statistics.median(bare), 2)
    try:
        startup, rss = app_startups(runs, progress, exercises_dir)
        result["startup_s"] = stats(startup)
        result["ui_rss_mb"] = round(statistics.median(rss), 1)
    except (RuntimeError, subprocess.TimeoutExpired, ValueError, KeyError) as exc:
        result["startup_s"] = None
        result["ui_rss_mb"] = None
        result["startup_error"] = str(exc)
    if device:
        try:
            result.update(device_times(sub, device, runs, progress))
        except Exception as exc:  # noqa: BLE001 (Unavailable, or not timed there): said in the result
            result["device_error"] = str(exc)[:300]
    result["targets"] = TARGETS
    result["machine"] = {"cpus": os.cpu_count(), "python": sys.version.split()[0]}
    return result


def meets(result: dict[str, Any]) -> dict[str, bool | None]:
    """Each target: True (met), False (missed), None (not measured)."""
    def median(key: str) -> float | None:
        value = result.get(key)
        return value["median"] if isinstance(value, dict) else value

    checks = {
        "warm_grade_s": lambda v: v <= TARGETS["warm_grade_s"],
        "cold_warm_ratio": lambda v: v >= TARGETS["cold_warm_ratio"],
        "check_vs_jax_ratio": lambda v: v <= TARGETS["check_vs_jax_ratio"],
        "startup_s": lambda v: v <= TARGETS["startup_s"],
        "ui_rss_mb": lambda v: v <= TARGETS["ui_rss_mb"],
    }
    out: dict[str, bool | None] = {}
    for key, ok in checks.items():
        value = median(key)
        out[key] = None if value is None else ok(value)
    return out
