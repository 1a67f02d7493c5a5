"""The grading worker: a child process that imports jax, waits for one job, does it, reports, and exits.

Forked from the fork server (``zygote.py``, then ``forked.py``), or run as ``python -m
jittrainer.grading.sandbox.worker --job-fd J --result-fd R`` by a host without one; both join at ``serve``. Frames go over
the private result fd (see ``grading.protocol``); the learner's prints land in capture streams and travel inside
the verdict. One worker does exactly one job, so no JAX cache, monkeypatch or global survives from one learner run
into the next. On SIGUSR1 (sent by the host when the time limit runs out) it writes every thread's Python stack to
the stack pipe (``--stack-fd``), which only the host reads, so a timeout can say which line was running.
"""

from __future__ import annotations

import argparse
import contextlib
import faulthandler
import os
import signal
import sys
import time
import traceback
from typing import Any

from jittrainer.grading import protocol
from jittrainer.grading.sandbox.capture import CaptureStream, OutputRecorder


def preload() -> None:
    """Import everything a job needs, touching no backend: a spawned worker does it at start, and the fork server
    once for all its jobs (each forked job then starts its own backend with its own device count)."""
    import jax  # noqa: F401  (the slow part of start-up: done before any job arrives)
    import numpy  # noqa: F401

    import jittrainer.authoring  # noqa: F401  (what every job needs, imported while nobody waits)
    # The jobs' own modules too: imported on the job's clock they were ~45 ms of a 0.1 s warm grade.
    import jittrainer.grading.sandbox.compile_watch  # noqa: F401
    import jittrainer.grading.sandbox.proofs  # noqa: F401
    import jittrainer.grading.sandbox.review  # noqa: F401
    import jittrainer.grading.sandbox.scratch  # noqa: F401
    import jittrainer.grading.sandbox.submission  # noqa: F401
    import jittrainer.i18n  # noqa: F401


class Worker:
    def __init__(self, result_fd: int) -> None:
        self.result_fd = result_fd
        self.recorder = OutputRecorder()
        self.stdout = CaptureStream(self.recorder, "<stdout>", 1)
        self.stderr = CaptureStream(self.recorder, "<stderr>", 2)
        t0 = time.perf_counter()
        preload()
        import jax
        import numpy as np

        from jittrainer.grading.sandbox.compile_watch import CompileWatch

        jax.devices()  # initialise the backend now, not inside the first timed call
        # One throwaway compile pays XLA's first-use set-up. It is a fresh function, so no learner call can hit
        # its cache entry, and it runs before the CompileWatch exists, so it is never counted.
        jax.block_until_ready(jax.jit(lambda v: v * 2.0)(np.float32(1.0)))
        self.watch = CompileWatch()
        self.import_s = time.perf_counter() - t0

    def send(self, message: Any) -> None:
        protocol.write(self.result_fd, message)

    def install_streams(self) -> None:
        sys.stdout, sys.stderr = self.stdout, self.stderr

    def phase(self, name: str) -> None:
        self.send(protocol.Phase(name))

    @staticmethod
    def facts() -> dict[str, Any]:
        import jax

        import jittrainer

        devices = jax.devices()
        return {
            "jax_version": jax.__version__,
            "jittrainer_version": jittrainer.__version__,
            "devices": {
                "platform": jax.default_backend(),
                "count": len(devices),
                "local_count": jax.local_device_count(),
                "kind": devices[0].device_kind if devices else "",
            },
        }


def _hide_result_fd(fd: int) -> int:
    """Move the result channel off the descriptor number named on the command line: writing a fake frame to that
    number then fails. (A submission that searches /proc for the new one still lacks the job's token.)"""
    try:
        moved = os.dup(fd)
        os.close(fd)
        return moved
    except OSError:
        return fd


def serve_task(worker: Worker, job: protocol.ProofJob | protocol.ProbeJob, token: str) -> None:
    """A non-grading job: answer with one TaskResult, then exit."""
    try:
        if isinstance(job, protocol.ProbeJob):
            data = {"import_s": worker.import_s, **worker.facts()}
        else:
            from jittrainer.grading.sandbox.proofs import run_proof

            worker.install_streams()
            data = run_proof(worker, job)
        worker.send(protocol.TaskResult(token, True, data))
    except BaseException:
        with contextlib.suppress(BaseException):
            worker.send(protocol.TaskResult(token, False, error=traceback.format_exc()[-4000:]))
    os._exit(0)


def grade(worker: Worker, job: protocol.GradeJob, token: str) -> None:
    from jittrainer.grading.sandbox.submission import SubmissionGrader
    from jittrainer.i18n import set_language

    set_language(job.lang)
    try:
        def record(check: str, status: str) -> None:  # each result leaves the process when its check ends
            with contextlib.suppress(OSError):
                worker.send(protocol.CheckFrame(token, check, status))

        grader = SubmissionGrader(worker, job, record)
        verdict = grader.run()
        if job.process < job.processes - 1 and verdict.passed and grader.context is not None:
            worker.send(protocol.CarryFrame(token, grader.context.carried_out))  # for the next process
        worker.send(protocol.VerdictFrame(token, verdict.to_dict()))
        if job.device_check and verdict.passed:  # the program whose device check the host decides next
            worker.send(grader.device_program(token, job.device_check, with_inputs=False))  # the executor makes them
        if verdict.timing.status == "pending":
            worker.send(protocol.TimingFrame(token, grader.timing(verdict)))
            if job.timing.device:  # the program for the host's device executor (after the CPU timing)
                worker.send(grader.device_program(token, job.timing.device))
        if job.review and verdict.passed:
            worker.send(protocol.ReviewFrame(token, grader.review()))
    except BaseException:
        # A grader bug, not the learner's: report it on the channel (the streams are captured).
        tb = traceback.format_exc()
        with contextlib.suppress(BaseException):
            worker.send(protocol.Crash(token, tb[-8000:]))
        os.write(2, tb.encode("utf-8", "replace"))
        os._exit(3)
    # os._exit: threads or atexit handlers the learner left behind must not keep the process alive.
    os._exit(0)


def scratch_run(worker: Worker, job: protocol.RunJob, token: str) -> None:
    """Run the learner's file as a program and report what happened: one TaskResult, then exit."""
    from jittrainer.grading.sandbox.scratch import ScratchRunner
    from jittrainer.i18n import set_language

    set_language(job.lang)
    try:
        data = ScratchRunner(worker, job).run().to_dict()
        worker.send(protocol.TaskResult(token, True, data))
    except BaseException:
        tb = traceback.format_exc()
        with contextlib.suppress(BaseException):
            worker.send(protocol.Crash(token, tb[-8000:]))
        os.write(2, tb.encode("utf-8", "replace"))
        os._exit(3)
    os._exit(0)


def serve(job_fd: int, result_fd: int) -> None:
    """Start up (jax, the toolkit, the backend), say Ready, then do the one job that arrives and exit. A spare that is
    never handed a job exits when its job pipe closes. Never returns."""
    worker = Worker(result_fd)
    import jax

    worker.send(protocol.Ready(os.getpid(), worker.import_s, jax.device_count()))
    try:
        payload = protocol.read_payload(job_fd)
    except protocol.ChannelClosed:
        os._exit(0)  # a spare that was never used
    os.close(job_fd)
    worker.result_fd = _hide_result_fd(result_fd)
    job = protocol.decode_job(payload)
    token, job.token = job.token, ""  # the token stays here, not in the job the learner's code could find
    del payload
    if isinstance(job, protocol.GradeJob):
        grade(worker, job, token)
    if isinstance(job, protocol.RunJob):
        scratch_run(worker, job, token)
    serve_task(worker, job, token)
    os._exit(0)


def main(argv: list[str] | None = None) -> int:
    """The spawned worker (``python -m jittrainer.grading.sandbox.worker``): the path a one-shot check, and any host
    without a fork server, takes. A forked worker starts in ``forked.py`` and joins at ``serve``."""
    parser = argparse.ArgumentParser(prog="jittrainer-worker")
    parser.add_argument("--job-fd", type=int, required=True)
    parser.add_argument("--result-fd", type=int, required=True)
    parser.add_argument("--stack-fd", type=int, default=None)
    args = parser.parse_args(argv)
    if args.stack_fd is not None:
        with contextlib.suppress(OSError, ValueError, RuntimeError, AttributeError):
            faulthandler.register(signal.SIGUSR1, file=args.stack_fd, all_threads=True)
    serve(args.job_fd, args.result_fd)
    return 0


if __name__ == "__main__":
    main()
