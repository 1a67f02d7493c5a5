"""One grading run of one submission, seen from the host: hand the job to a worker, enforce the limits, read the
verdict off the private channel, and turn every way it can go wrong into a verdict a learner can read.

This runs in the CLI or UI process and never imports jax. The host trusts only frames that carry the job's token,
and the worker's exit status.
"""

from __future__ import annotations

import dataclasses
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from pathlib import Path

import jittrainer
from jittrainer.course.exercises import Exercise
from jittrainer.grading import protocol
from jittrainer.course.check_ids import declared_checks
from jittrainer.grading.host import device_check, device_timing, untrusted
from jittrainer.grading.host import mishaps
from jittrainer.grading.host.frames import TIMED_OUT, FrameReader
from jittrainer.grading.host.measures import await_measures
from jittrainer.grading.host.mishaps import phase_words
from jittrainer.grading.host.process import WorkerProcess, describe_exit
from jittrainer.grading.host.timing_cache import StarterTimingCache
from jittrainer.grading.limits import DEFAULT_DEVICES, Limits, limits_for
from jittrainer.grading.verdict import ErrorInfo, InternalError, OutputSection, Timing, Verdict
from jittrainer.i18n import language
from jittrainer.i18n.message import Msg, msg



@dataclass
class Submission:
    exercise: Exercise
    source: bytes
    path: Path  # where the learner's file lives (tracebacks and the editor's marks point here)
    seed: int | None = None
    timing: bool = True
    lang: str | None = None  # the verdict's language (None: the current one)
    review: bool = False  # after a pass: measure the program for the review (grading.review, host.measures)
    # --device (grading.host.device.Choice): the platform the session's executor times the steady state on ('': none,
    # the CPU timing alone), the mode asked for, and why there is none when the mode asked for one
    device: str = ""
    device_mode: str = "cpu"
    device_reason: str = ""

    def on_device(self, choice: Any) -> Submission:
        """This submission timed as ``choice`` (a ``grading.host.device.Choice``) says."""
        return dataclasses.replace(self, device=choice.platform, device_mode=choice.mode, device_reason=choice.reason)


def jax_version() -> str:
    import importlib.metadata  # only when a result needs it: the app's start-up does not

    try:
        return importlib.metadata.version("jax")
    except importlib.metadata.PackageNotFoundError:
        return ""


def new_seed() -> int:
    return secrets.randbelow(2**31 - 1)


class GradingRun:
    """One grading of one submission in one worker. ``run()`` blocks; ``cancel()`` (any thread) kills the worker."""

    def __init__(
        self,
        submission: Submission,
        limits: Limits | None = None,
        worker: WorkerProcess | None = None,
        devices: int = DEFAULT_DEVICES,
        process: tuple[int, int, str, dict] = (0, 1, "", {}),
    ) -> None:
        # (index, count, shared folder, carried): one of the processes an exercise is graded in, in turn
        self.process, self.processes, self.shared_dir, self.carried_in = process
        self.carried_out: dict = {}  # what this process hands to the next (a CarryFrame), bounded
        self.submission = submission
        self.limits = limits or limits_for(submission.exercise)
        self.worker = worker
        self.devices = worker.devices if worker is not None else devices
        self.seed = submission.seed if submission.seed is not None else new_seed()
        self.token = secrets.token_hex(16)
        self.cancelled = threading.Event()
        self.phase = "starting"
        self.baseline_rss: int | None = None
        self.started: float | None = None
        self.handed_over_at: float | None = None  # monotonic time the job went to a ready worker
        self.verdict_at: float | None = None  # monotonic time the verdict arrived
        self.on_timing: Callable[[Verdict], None] | None = None  # the verdict with its timing, when a review follows
        self.measures, self.review_problem, self.measures_at = None, "", None  # the review's (host.measures)
        self.reported: dict[str, str] = {}  # each check's status as the worker sent it when the check ran

    def cancel(self) -> None:
        self.cancelled.set()
        if self.worker is not None:
            self.worker.kill()

    def job(self) -> protocol.GradeJob:
        ex, sub = self.submission.exercise, self.submission
        timing = protocol.TimingRequest(enabled=sub.timing, eager=ex.timing_eager, starter=ex.timing_starter,
                                        device=device_timing.requested(self))
        if sub.timing and ex.timing_starter:
            timing.starter_cached = StarterTimingCache(jax_version=jax_version()).get(ex)
        return protocol.GradeJob(
            exercise=ex.id,
            function=ex.function,
            call=ex.call,
            checks_path=str(ex.checks_path),
            starter_path=str(ex.starter_path),
            filename=str(sub.path),
            source=sub.source,
            seed=self.seed,
            token=self.token,
            lang=sub.lang or language(),
            timing=timing,
            review=sub.review,
            process=self.process,
            processes=self.processes,
            shared_dir=self.shared_dir,
            carried=self.carried_in,
            device_check=device_check.platform_for(self),
        )

    def _fail(self, headline: Msg, *, error: ErrorInfo | None = None, internal: InternalError | None = None) -> Verdict:
        return Verdict.failure(
            self.submission.exercise.id,
            headline,
            error=error,
            internal_error=internal,
            seed=self.seed,
            jax_version=jax_version(),
            jittrainer_version=jittrainer.__version__,
        )

    def run(self, on_verdict: Callable[[Verdict], None] | None = None) -> Verdict:
        self.started = time.monotonic()
        verdict = self._run(on_verdict)
        if verdict.duration_s is None:
            verdict.duration_s = self._elapsed()
        return verdict

    def _elapsed(self) -> float:
        """Seconds from the start of this run (worker start-up included) to now."""
        return round(time.monotonic() - (self.started or time.monotonic()), 4)

    def _cancelled(self) -> Verdict:
        return self._fail(msg("run.cancelled", "cancelled"))

    def _run(self, on_verdict: Callable[[Verdict], None] | None) -> Verdict:
        if self.cancelled.is_set():
            return self._cancelled()
        worker = self.worker
        if worker is None:
            worker = self.worker = WorkerProcess(self.devices)
        if self.cancelled.is_set():  # cancel() may have run before the worker existed
            worker.kill()
        try:
            if not worker.wait_ready(self.limits.startup_timeout_s):
                if self.cancelled.is_set():
                    return self._cancelled()
                status = worker.exit_status(timeout=0.5)
                raw = untrusted.visible(worker.raw_output())
                worker.kill()
                detail = raw.strip().splitlines()[-1] if raw.strip() else " ".join(describe_exit(status))
                return self._fail(
                    msg("run.not_started", "the grading worker did not start: {detail}", detail=detail),
                    internal=InternalError("grader", "jittrainer.grading.sandbox.worker", detail, raw[-4000:]),
                )
            # The grader's own use, taken before the job: what the job adds on top is what the limit counts.
            self.baseline_rss = worker.rss()
            self.handed_over_at = time.monotonic()
            try:
                worker.send_job(self.job())
            except OSError:
                pass  # it died after start-up: the channel reports how below
            verdict = self._await_verdict(worker)
            self.verdict_at = time.monotonic()
            verdict.duration_s = self._elapsed()
            self._attach_raw_output(verdict, worker)
            self._after_verdict(worker, verdict, on_verdict)
            return verdict
        finally:
            worker.kill()

    def _after_verdict(self, worker: WorkerProcess, verdict: Verdict,
                       on_verdict: Callable[[Verdict], None] | None) -> None:
        """What runs once the verdict is in: an exercise's device check (after a pass: it decides the check the
        worker left waiting, ``device_check``), then the timing and (after a pass) the review's measures, which
        never change the verdict."""
        if self.submission.exercise.device_check is not None and verdict.passed:
            decided = device_check.judge(self, worker, verdict)
            for name in ("status", "headline", "checks"):  # in place: the caller holds this verdict
                setattr(verdict, name, getattr(decided, name))
        review_follows = self.submission.review and verdict.passed
        if (verdict.timing.status == "pending" or review_follows) and on_verdict is not None:
            on_verdict(dataclasses.replace(verdict))
        if verdict.timing.status == "pending":
            verdict.timing = self._await_timing(worker, verdict)
            if verdict.timing.status == "measured":
                verdict.timing = device_timing.finish(self, worker, verdict.timing)
        if review_follows:
            self.measures, self.review_problem = await_measures(self, worker, verdict)

    def _over_memory(self, worker: WorkerProcess, after: str = "") -> Msg | None:
        """The memory-limit message, after killing the worker, when the job uses more than allowed. ``after`` names
        what ran once the verdict was in ("timing", "review"): the overrun is then said to have happened there."""
        if self.limits.memory_mb is None or self.baseline_rss is None:
            return None
        rss = worker.rss()
        allowed = self.limits.memory_mb * 2**20
        if rss is None or rss - self.baseline_rss <= allowed:
            return None
        worker.kill()
        where = (mishaps.after_verdict_words(after) if after
                 else phase_words(self.phase, self.submission.exercise.function))
        return mishaps.memory_words((rss - self.baseline_rss) / 2**30, allowed / 2**30, where)

    def frames(self, worker: WorkerProcess, after: str = "") -> FrameReader:
        """A reader of ``worker``'s frames that judges memory as ``_over_memory(worker, after)``."""
        return FrameReader(worker, lambda: self._over_memory(worker, after))

    def _timeout(self, worker: WorkerProcess) -> Verdict:
        stacks = worker.dump_stacks()
        worker.kill()
        if self.cancelled.is_set():
            return self._cancelled()
        sub = self.submission
        headline, error = mishaps.timeout_words(stacks, str(sub.path), sub.exercise.function, self.limits.timeout_s,
                                                self.phase, sub.source)
        return self._fail(headline, error=error)

    def _await_verdict(self, worker: WorkerProcess) -> Verdict:
        deadline = time.monotonic() + self.limits.timeout_s
        ex = self.submission.exercise
        frames = self.frames(worker)
        while True:
            message = frames.next(deadline)
            if message is TIMED_OUT:
                return self._timeout(worker)
            if isinstance(message, Msg):
                return self._fail(message, error=ErrorInfo("MemoryLimit", message.render("en"), phase=self.phase))
            if message is None:
                return self._closed(worker, ex)
            if isinstance(message, protocol.ProtocolError):
                return self._forged(str(message))
            if isinstance(message, protocol.Phase):
                self.phase = message.phase
            elif isinstance(message, protocol.CheckFrame):
                refused = self._reported(message)
                if refused:
                    return self._forged(refused)
            elif isinstance(message, protocol.CarryFrame) and self.processes > 1:
                if message.token != self.token:
                    return self._forged("a hand-over without this run's token")
                self.carried_out = untrusted.bounded(message.data)
            elif isinstance(message, protocol.Crash):
                if message.token != self.token:
                    return self._forged("a crash report without this run's token")
                tb = untrusted.visible(message.traceback)
                last = tb.strip().splitlines()[-1] if tb.strip() else "unknown error"
                return self._fail(
                    msg("run.grader_crashed", "the grader itself failed (a bug in jittrainer): {error}", error=last),
                    internal=InternalError("grader", "jittrainer.grading.sandbox.worker", last, tb),
                )
            else:
                return self._outcome(message)

    def _reported(self, frame: protocol.CheckFrame) -> str:
        """Keep one check's result as it was sent when the check ran; why the frame is refused ('' when it is not)."""
        if frame.token != self.token:
            return "a check result without this run's token"
        if frame.check in self.reported or len(self.reported) >= 256:
            return "a check reported twice"
        self.reported[frame.check] = frame.status
        return ""

    def _outcome(self, message: protocol.Frame) -> Verdict:
        """The verdict a result frame carries, or a forged-frame verdict for any other frame."""
        if not isinstance(message, protocol.VerdictFrame):
            return self._forged(f"an unexpected {message.type} frame before the verdict")
        if message.token != self.token:
            return self._forged("a verdict without this run's token")
        try:
            verdict = Verdict.from_dict({**untrusted.bounded(message.verdict), "review": None})
        except ValueError as exc:
            return self._forged(str(exc))
        refused = self._inconsistent(verdict)
        if refused:
            return self._forged(refused)
        changed = self._changed_since_reported(verdict)
        return self._rewritten(changed) if changed else verdict

    def _inconsistent(self, verdict: Verdict) -> str:
        """Why a verdict cannot be what the grader reached ('' when it can): its status must follow from its checks,
        and a pass must report exactly the exercise's declared checks, all passed."""
        ex = self.submission.exercise
        if verdict.exercise != ex.id:
            return f"a verdict for another exercise ({verdict.exercise[:40]})"
        if verdict.status != "pass":
            return ""
        declared = declared_checks(ex.checks_path)
        ids = [c.id for c in verdict.checks]
        if declared and sorted(ids) != sorted(declared):
            return "a pass that does not report the exercise's own checks"
        # One of several processes passes with the other processes' checks skipped; Grading puts them together.
        done = ("pass", "skip") if self.processes > 1 else ("pass",)
        waiting = ex.device_check.check if ex.device_check else None  # decided next, on the device (device_check)
        if not ids or any(c.status not in done and not (c.id == waiting and c.status == "skip")
                          for c in verdict.checks):
            return "a pass with a check that did not pass"
        if verdict.error is not None or verdict.internal_error is not None:
            return "a pass with an error"
        return ""

    def _changed_since_reported(self, verdict: Verdict) -> str:
        """For a pass: the first check that was not sent as passed when it ran ('' when each was). A verdict is built
        after every check ran; code the learner's file left running (a thread) could rewrite the results between."""
        if verdict.status != "pass":
            return ""
        return next((c.id for c in verdict.checks if c.status == "pass" and self.reported.get(c.id) != "pass"), "")

    def _rewritten(self, check: str) -> Verdict:
        if self.worker is not None:
            self.worker.kill()
        headline = msg("run.rewritten", "the verdict said every check passed, but “{check}” had not passed when it "
                       "ran: code your file left running (a thread, say) changed the grader's results, so nothing "
                       "was graded", check=untrusted.visible(check[:80]))
        return self._fail(headline, error=ErrorInfo("GraderTampered", headline.render("en"), phase=self.phase))

    def _closed(self, worker: WorkerProcess, ex: Exercise) -> Verdict:
        status = worker.exit_status()
        if self.cancelled.is_set():
            return self._cancelled()
        headline, kind = mishaps.ended_words(status, phase_words(self.phase, ex.function))
        return self._fail(headline, error=ErrorInfo(kind, headline.render("en"), phase=self.phase))

    def _forged(self, detail: str) -> Verdict:
        if self.worker is not None:
            self.worker.kill()
        headline = mishaps.forged_words(detail)
        return self._fail(headline, error=ErrorInfo("ForgedVerdict", headline.render("en"), phase=self.phase))

    def _await_timing(self, worker: WorkerProcess, verdict: Verdict) -> Timing:
        timing = verdict.timing
        limit = self.limits.timing_timeout_s
        deadline = time.monotonic() + limit
        frames = self.frames(worker, after="timing")
        while True:
            message = frames.next(deadline)
            if message is TIMED_OUT:
                return dataclasses.replace(timing, status="failed", note=msg(
                    "timing.ran_over", "timing ran over {seconds:g} s", seconds=limit))
            if isinstance(message, Msg):
                return dataclasses.replace(timing, status="failed", note=msg(
                    "timing.memory", "timing stopped: {why}", why=message))
            if message is None:
                return dataclasses.replace(timing, status="failed", note=msg(
                    "timing.worker_ended", "the worker ended before timing finished"))
            if isinstance(message, protocol.TimingFrame) and message.token == self.token:
                try:
                    timing_data = untrusted.bounded(message.timing)
                    measured = Verdict.from_dict({**verdict.to_dict(), "timing": timing_data}).timing
                except ValueError:
                    return dataclasses.replace(timing, status="failed", note=msg(
                        "timing.malformed", "the timing report was malformed"))
                if measured.starter_calls_s is not None and not measured.starter_cached:
                    StarterTimingCache(jax_version=jax_version()).put(self.submission.exercise, measured)
                return measured

    def _attach_raw_output(self, verdict: Verdict, worker: WorkerProcess) -> None:
        raw = untrusted.visible(worker.raw_output())
        if not raw.strip():
            return
        label = "process"
        verdict.output_sections.append(OutputSection(label, raw))
        joiner = "\n" if verdict.output and not verdict.output.endswith("\n") else ""
        verdict.output = f"{verdict.output}{joiner}── {label} ──\n{raw}"


def grade_once(submission: Submission, limits: Limits | None = None, *, devices: int = DEFAULT_DEVICES) -> Verdict:
    """Grade once in a fresh (cold) worker process."""
    return GradingRun(submission, limits, devices=devices).run()
