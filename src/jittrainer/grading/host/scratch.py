"""A scratch run seen from the host: the same worker, limits, channel and hostile-input handling as a grade (it is
a ``GradingRun`` that sends a ``RunJob``), ending in a ``ScratchRun`` instead of a verdict, never recorded."""

from __future__ import annotations

from collections.abc import Callable

from jittrainer.grading import protocol
from jittrainer.grading.host import untrusted
from jittrainer.grading.host.process import WorkerProcess
from jittrainer.grading.host.run import GradingRun, Submission, jax_version
from jittrainer.grading.limits import Limits, scratch_devices
from jittrainer.grading.scratch import ScratchRun
from jittrainer.grading.verdict import ErrorInfo, InternalError
from jittrainer.i18n import language
from jittrainer.i18n.message import Msg


class ScratchRunHost(GradingRun):
    def __init__(self, submission: Submission, limits: Limits | None = None,
                 worker: WorkerProcess | None = None) -> None:
        super().__init__(submission, limits, worker, devices=scratch_devices(submission.exercise))
        self.phase = "run"

    def job(self) -> protocol.RunJob:  # type: ignore[override]
        ex, sub = self.submission.exercise, self.submission
        return protocol.RunJob(exercise=ex.id, function=ex.function, call=ex.call, checks_path=str(ex.checks_path),
                               filename=str(sub.path), source=sub.source, token=self.token,
                               lang=sub.lang or language())

    def _fail(self, headline: Msg, *, error: ErrorInfo | None = None,  # type: ignore[override]
              internal: InternalError | None = None) -> ScratchRun:
        if internal is not None:  # the worker itself failed: said as an error, not blamed on the program
            error = ErrorInfo("InternalError", internal.message, traceback=internal.traceback)
        return ScratchRun.failure(self.submission.exercise.id, headline, error, jax_version=jax_version())

    def _outcome(self, message: protocol.Frame) -> ScratchRun:  # type: ignore[override]
        if not isinstance(message, protocol.TaskResult):
            return self._forged(f"an unexpected {message.type} frame before the result")
        if message.token != self.token:
            return self._forged("a result without this run's token")
        try:
            return ScratchRun.from_dict(untrusted.bounded(message.data))
        except ValueError as exc:
            return self._forged(str(exc))

    def _after_verdict(self, worker: WorkerProcess, verdict: ScratchRun,  # type: ignore[override]
                       on_verdict: Callable | None) -> None:
        pass  # nothing is timed after a scratch run


def scratch_run(submission: Submission, limits: Limits | None = None,
                worker: WorkerProcess | None = None) -> ScratchRun:
    """Run ``submission``'s file as a program in a fresh (or the given) worker."""
    return ScratchRunHost(submission, limits, worker).run()  # type: ignore[return-value]
