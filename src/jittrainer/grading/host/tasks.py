"""Non-grading jobs in the same isolation as a grade: a drill card's proof, a probe of the worker's facts."""

from __future__ import annotations

import queue
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from jittrainer.grading import protocol
from jittrainer.grading.host.process import WorkerProcess, describe_exit
from jittrainer.grading.limits import Limits


@dataclass
class TaskOutcome:
    ok: bool
    data: dict[str, Any] = field(default_factory=dict)
    error: str = ""
    start_s: float = 0.0  # worker start-up
    task_s: float = 0.0  # the job itself


def run_task(job: protocol.ProofJob | protocol.ProbeJob, timeout_s: float = 10.0,
             worker: WorkerProcess | None = None) -> TaskOutcome:
    """Run ``job`` in a fresh worker; a timeout, crash or start-up failure is an outcome with ``ok`` False."""
    started = time.monotonic()
    worker = worker or WorkerProcess()
    try:
        if not worker.wait_ready(Limits.startup_timeout_s):
            raw = worker.raw_output().strip()
            return TaskOutcome(False, error=raw.splitlines()[-1] if raw else " ".join(describe_exit(worker.exit_status(0.5))))
        start_s = time.monotonic() - started
        worker.send_job(job)
        deadline = time.monotonic() + timeout_s
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return TaskOutcome(False, error=f"timed out after {timeout_s:g} s", start_s=start_s)
            try:
                message = worker.next_message(remaining)
            except queue.Empty:
                continue
            if message is None:
                return TaskOutcome(False, error=f"the worker {' '.join(describe_exit(worker.exit_status()))}",
                                   start_s=start_s)
            if isinstance(message, protocol.TaskResult) and message.token == job.token:
                return TaskOutcome(message.ok, message.data, message.error, start_s,
                                   time.monotonic() - started - start_s)
    finally:
        worker.kill()


def prove(card: str, code: str, setup: str, timeout_s: float) -> TaskOutcome:
    return run_task(protocol.ProofJob(card=card, code=code, setup=setup, token=secrets.token_hex(16)), timeout_s)


def probe(timeout_s: float = 30.0) -> TaskOutcome:
    """Start a worker and ask for its facts (jax version, devices); ``start_s`` is its start-up time."""
    return run_task(protocol.ProbeJob(token=secrets.token_hex(16)), timeout_s)
