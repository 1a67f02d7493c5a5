"""The grading of one submission: one run per simulated device count its exercise is graded with, one verdict.

Most exercises need one run. One whose answer depends on the number of devices is graded in two workers with two
different counts, side by side, so a count written into the code fails one of them; the verdict is the worse of
the two, and says which count it came from when they disagree.

A submission that asks for a review gets one after a pass (``grading.host.review``): measured in the first run's
worker after its verdict and timing, composed here, and stopped by ``cancel()`` like the runs.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable

from jittrainer.course.check_ids import declared_checks
from jittrainer.grading.host.process import WorkerProcess
from jittrainer.grading.host.workdir import make_workdir, remove_tree
from jittrainer.grading.host.review import ReferenceCache, Reviewer
from jittrainer.grading.host.run import GradingRun, Submission, new_seed
from jittrainer.grading.limits import Limits, device_counts, limits_for
from jittrainer.grading.verdict import CheckResult, Verdict
from jittrainer.i18n.message import count, msg

_RANK = {"error": 0, "fail": 1, "pass": 2}


class Grading:
    def __init__(self, submission: Submission, limits: Limits | None = None,
                 take_worker: Callable[[int], WorkerProcess] | None = None,
                 review_cache: ReferenceCache | None = None) -> None:
        if submission.seed is None:
            submission = dataclasses.replace(submission, seed=new_seed())  # every count grades the same inputs
        self.submission = submission
        self.limits = limits or limits_for(submission.exercise)
        self.take_worker = take_worker
        self.review_cache = review_cache  # where the reference's figures are kept (default: the learner's cache)
        self.reviewer: Reviewer | None = None
        self._cancelled = threading.Event()
        counts = device_counts(submission.exercise)
        self.processes = submission.exercise.processes
        if self.processes > 1:
            self.runs: list[GradingRun] = []  # one per process, made in turn (_run_processes)
            return
        self.runs = [
            GradingRun(dataclasses.replace(submission, timing=submission.timing and i == 0,
                                           review=submission.review and i == 0), self.limits,
                       worker=take_worker(n) if take_worker else None, devices=n)
            for i, n in enumerate(counts)
        ]

    @property
    def main(self) -> GradingRun | None:
        """The run whose verdict, timing and review the grading reports: the first (the only one, for most
        exercises); for an exercise graded in several processes, the latest."""
        if not self.runs:
            return None
        return self.runs[-1] if self.processes > 1 else self.runs[0]

    @property
    def worker(self) -> WorkerProcess | None:
        main = self.main
        return main.worker if main is not None else None

    @property
    def seed(self) -> int:
        return self.submission.seed  # type: ignore[return-value]

    @property
    def handed_over_at(self) -> float | None:
        return self.runs[0].handed_over_at if self.runs else None

    @property
    def verdict_at(self) -> float | None:
        times = [r.verdict_at for r in self.runs]
        return None if None in times else max(times)  # type: ignore[type-var]

    @property
    def cancelled(self) -> threading.Event:
        return self._cancelled

    def cancel(self) -> None:
        self._cancelled.set()
        for run in list(self.runs):
            run.cancel()
        reviewer = self.reviewer
        if reviewer is not None:
            reviewer.cancel()

    def run(self, on_verdict: Callable[[Verdict], None] | None = None,
            on_timing: Callable[[Verdict], None] | None = None) -> Verdict:
        """Blocks until every run has its verdict, its timing and its review; ``on_verdict`` sees the merged verdict
        before timing and the review are done, ``on_timing`` sees it with its timing while the review still runs."""
        if self.processes > 1:
            return self._reviewed(self._run_processes(on_verdict, on_timing))
        if len(self.runs) == 1:
            self.runs[0].on_timing = on_timing
            return self._reviewed(self.runs[0].run(on_verdict))
        merged = self._run_all(on_verdict)
        if on_timing is not None and self._review_follows(merged):
            on_timing(dataclasses.replace(merged))
        return self._reviewed(merged)

    def _review_follows(self, verdict: Verdict) -> bool:
        return self.submission.review and verdict.passed and not self.cancelled.is_set()

    def _reviewed(self, verdict: Verdict) -> Verdict:
        if not self._review_follows(verdict):
            return verdict
        first = self.main
        assert first is not None
        self.reviewer = Reviewer(self.submission, self.limits, first.devices, self.take_worker, self.review_cache)
        if self.cancelled.is_set():
            self.reviewer.cancel()
        waited = first.measures_at - first.verdict_at if first.measures_at and first.verdict_at else None
        verdict.review = self.reviewer.review(verdict, first.measures, first.review_problem, waited)
        return verdict

    def _run_all(self, on_verdict: Callable[[Verdict], None] | None) -> Verdict:
        n = len(self.runs)
        verdicts: list[Verdict | None] = [None] * n
        early: list[Verdict] = []  # run 0's verdict before its timing
        first_known = threading.Event()
        raised: list[BaseException] = []  # a run that raised: said like a single run's, never merged away

        def go(i: int) -> None:
            def note(v: Verdict) -> None:
                early.append(v)
                first_known.set()

            try:
                verdicts[i] = self.runs[i].run(note if i == 0 and on_verdict is not None else None)
            except BaseException as exc:  # noqa: BLE001 - re-raised below, in the caller's thread
                raised.append(exc)
            finally:
                if i == 0:
                    first_known.set()

        threads = [threading.Thread(target=go, args=(i,), daemon=True) for i in range(n)]
        for t in threads:
            t.start()
        for t in threads[1:]:
            t.join()
        first_known.wait()
        if on_verdict is not None and early and verdicts[0] is None and not raised:
            on_verdict(merge([early[0], *[v for v in verdicts[1:] if v is not None]]))
        threads[0].join()
        if raised:
            raise raised[0]
        return merge([v for v in verdicts if v is not None])


    def _run_processes(self, on_verdict: Callable[[Verdict], None] | None,
                       on_timing: Callable[[Verdict], None] | None) -> Verdict:
        """An exercise graded in several processes in turn, sharing one folder (a cache on disk, say): each process
        runs the checks it can, hands what it measured to the next (``g.carry``), and the first failure ends the
        grading. Timing and the review come from the last one."""
        sub, n = self.submission, self.processes
        devices = device_counts(sub.exercise)[0]
        shared = make_workdir()
        carried: dict = {}
        done: list[Verdict] = []
        try:
            for i in range(n):
                if self._cancelled.is_set():
                    return dataclasses.replace(done[-1]) if done else GradingRun(sub, self.limits)._cancelled()
                last = i == n - 1
                run = GradingRun(dataclasses.replace(sub, timing=sub.timing and last, review=sub.review and last),
                                 self.limits, worker=self.take_worker(devices) if self.take_worker else None,
                                 devices=devices, process=(i, n, shared, carried))
                # What the last process reports early (before its timing, with it) is said whole, as the end will be.
                run.on_timing = _combined(on_timing, done, sub.exercise.checks_path) if last else None
                self.runs.append(run)
                verdict = run.run(_combined(on_verdict, done, sub.exercise.checks_path) if last else None)
                done.append(verdict)
                if not verdict.passed or last:
                    break
                carried = run.carried_out
        finally:
            remove_tree(shared)
        return combine(done, sub.exercise.checks_path)


def _combined(report: Callable[[Verdict], None] | None, done: list[Verdict],
              checks_path) -> Callable[[Verdict], None] | None:
    """``report`` given the verdict of the processes so far (``done``) and the last one's, put together."""
    if report is None:
        return None
    return lambda verdict: report(combine([*done, verdict], checks_path))


def combine(verdicts: list[Verdict], checks_path) -> Verdict:
    """One verdict from the processes an exercise was graded in, in turn: the last one's, with each check as the
    process that ran it reported it, and every process's output. A pass needs every declared check passed in one of
    them; anything else is not a pass."""
    last = verdicts[-1]
    found = {c.id: c for v in verdicts for c in v.checks if c.status != "skip"}
    checks = [found.get(c.id, c) for c in last.checks]
    output = "\n".join(f"── process {i} ──\n{v.output}" for i, v in enumerate(verdicts, 1) if v.output)
    sections = [s for v in verdicts for s in v.output_sections]
    combined = dataclasses.replace(last, checks=checks, output=output, output_sections=sections)
    if last.passed and any(c.status != "pass" for c in checks):
        declared = declared_checks(checks_path)
        missing = [c.id for c in checks if c.status != "pass"] or declared
        return dataclasses.replace(combined, status="error", headline=msg(
            "processes.unchecked", "no process ran the check(s) {ids}: the exercise is broken",
            ids=", ".join(missing)))
    return combined


def merge(verdicts: list[Verdict]) -> Verdict:
    """One verdict from the runs with different device counts: the worst status wins, a check fails if it failed
    in any run (saying with how many devices), and ``devices`` lists every run's devices."""
    if len(verdicts) == 1:
        return verdicts[0]
    devices = [d for v in verdicts for d in v.devices]
    if all(v.passed for v in verdicts):
        return dataclasses.replace(verdicts[0], devices=devices)
    worst = min(verdicts, key=lambda v: (_RANK[v.status], v.internal_error is None))
    disagree = len({(v.status, v.first_failure.id if v.first_failure else None) for v in verdicts}) > 1

    def with_devices(v: Verdict, text):  # the observation, said for the device count it came from
        n = v.devices[0]["count"] if v.devices else 0
        return msg("devices.with", "with {devices}: {text}", devices=count("device", n), text=text) if disagree else text

    checks: list[CheckResult] = []
    for i, check in enumerate(worst.checks):
        failing = next(((v, v.checks[i]) for v in verdicts if i < len(v.checks) and v.checks[i].failed), None)
        if failing is not None and not check.failed:
            v, other = failing
            checks.append(dataclasses.replace(other, observation=with_devices(v, other.observation)))
        elif check.failed:
            checks.append(dataclasses.replace(check, observation=with_devices(worst, check.observation)))
        else:
            checks.append(check)
    first = next((c for c in checks if c.failed), None)
    headline = first.observation if first is not None and first.observation is not None else with_devices(
        worst, worst.headline)
    status = worst.status if worst.status != "pass" else "fail"
    timing = verdicts[0].timing
    return dataclasses.replace(worst, status=status, headline=headline, checks=checks, devices=devices,
                               timing=timing, duration_s=max(v.duration_s or 0.0 for v in verdicts))


def grade(submission: Submission, limits: Limits | None = None,
          take_worker: Callable[[int], WorkerProcess] | None = None) -> Verdict:
    """Grade ``submission`` in fresh (or the pool's) workers, one per device count, and merge the verdicts."""
    return Grading(submission, limits, take_worker).run()
