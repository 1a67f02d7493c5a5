"""Start grading workers, hand them a job, enforce the limits, and read the verdict off the private channel.

This runs in the CLI or UI process and never imports jax. A worker is a fresh ``python -m
jittrainer.core.worker`` process in its own session (so the whole group can be killed), with a clean environment
(the user's ``JAX_*`` and ``XLA_FLAGS`` removed, then set by us), stdin closed, its stdout/stderr drained and
capped by threads here, and a throwaway working directory. The runner trusts only the channel and the exit status.
"""

from __future__ import annotations

import base64
import contextlib
import dataclasses
import hashlib
import importlib.metadata
import json
import os
import queue
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jittrainer
from jittrainer.core import paths, procs, protocol
from jittrainer.core.exercises import Exercise
from jittrainer.core.verdict import ErrorInfo, InternalError, OutputSection, Timing, Verdict

SIMULATED_DEVICES = 4
RAW_OUTPUT_CAP = 32 * 1024
POLL_S = 0.05


@dataclass
class Limits:
    timeout_s: float = 10.0  # from job hand-over to verdict: import of the learner's file and all checks
    timing_timeout_s: float = 20.0  # the timing phase after the verdict; running over only loses the timing
    startup_timeout_s: float = 90.0  # python + jax start-up of the worker, before any learner code runs
    # Resident memory allowed above the worker's own use after jax start-up (a plain RLIMIT_AS would break jax:
    # with 4 simulated devices it reserves ~1.6 GB of address space at start). None: no limit.
    memory_mb: int | None = 2048


@dataclass
class Submission:
    exercise: Exercise
    source: bytes
    path: Path  # where the learner's file lives (tracebacks and the editor's marks point here)
    seed: int | None = None
    timing: bool = True


def worker_env(token: str = "") -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("JAX_") and k != "XLA_FLAGS"}
    env[procs.TOKEN_VAR] = token  # inherited by whatever the learner's code starts, so kill() can find it
    env["XLA_FLAGS"] = f"--xla_force_host_platform_device_count={SIMULATED_DEVICES}"
    env["TF_CPP_MIN_LOG_LEVEL"] = "2"  # XLA's C++ info logs are not the learner's output
    env["PYTHONUNBUFFERED"] = "1"
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.pop("PYTHONSTARTUP", None)
    src = str(Path(jittrainer.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (src, env.get("PYTHONPATH", "")) if p)
    return env


def jax_version() -> str:
    try:
        return importlib.metadata.version("jax")
    except importlib.metadata.PackageNotFoundError:
        return ""


def new_seed() -> int:
    return secrets.randbelow(2**31 - 1)


class _Drain(threading.Thread):
    """Reads one of the worker's std streams to the end, keeping the first RAW_OUTPUT_CAP bytes after ``mark``."""

    def __init__(self, stream: Any) -> None:
        super().__init__(daemon=True)
        self.stream = stream
        self.kept = bytearray()
        self.dropped = 0
        self.recording = False
        self.lock = threading.Lock()

    def run(self) -> None:
        with contextlib.suppress(Exception):
            while chunk := self.stream.read1(65536) if hasattr(self.stream, "read1") else self.stream.read(65536):
                with self.lock:
                    if not self.recording:
                        continue
                    room = RAW_OUTPUT_CAP - len(self.kept)
                    self.kept += chunk[: max(room, 0)]
                    self.dropped += max(0, len(chunk) - max(room, 0))

    def mark(self) -> None:
        with self.lock:
            self.recording = True

    def text(self) -> str:
        with self.lock:
            text = self.kept.decode("utf-8", "replace")
            if self.dropped:
                text += f"\n[… {self.dropped:,} more bytes not shown]\n"
            return text


class WorkerProcess:
    """One grading worker process, from spawn to kill. Grades exactly one job."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.token = secrets.token_hex(8)
        procs.become_subreaper()
        self.workdir = tempfile.mkdtemp(prefix="jittrainer-")
        job_r, self._job_w = os.pipe()
        self._result_r, result_w = os.pipe()
        cmd = [sys.executable, "-m", "jittrainer.core.worker", "--job-fd", str(job_r), "--result-fd", str(result_w)]
        try:
            self.proc = subprocess.Popen(
                cmd,
                pass_fds=(job_r, result_w),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=self.workdir,
                env=worker_env(self.token),
                start_new_session=True,
            )
        except BaseException:
            for fd in (self._job_w, self._result_r):
                os.close(fd)
            shutil.rmtree(self.workdir, ignore_errors=True)
            raise
        finally:
            os.close(job_r)
            os.close(result_w)
        self.started = time.monotonic()
        self.messages: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.ready: dict[str, Any] | None = None
        self.used = False
        self.killed = False
        self._stdout = _Drain(self.proc.stdout)
        self._stderr = _Drain(self.proc.stderr)
        self._reader = threading.Thread(target=self._read, daemon=True)
        for thread in (self._stdout, self._stderr, self._reader):
            thread.start()

    @property
    def pid(self) -> int:
        return self.proc.pid

    def _read(self) -> None:
        try:
            while True:
                self.messages.put(protocol.read_message(self._result_r))
        except Exception:
            self.messages.put(None)  # closed: the process exited (or was killed)
        finally:
            with contextlib.suppress(OSError):
                os.close(self._result_r)

    def wait_ready(self, timeout: float) -> bool:
        """Block until jax is imported in the worker; False if it died or took longer than ``timeout``."""
        if self.ready is not None:
            return True
        try:
            message = self.messages.get(timeout=timeout)
        except queue.Empty:
            return False
        if message is None or message.get("type") != protocol.READY:
            return False
        self.ready = message
        return True

    def send_job(self, job: dict[str, Any]) -> None:
        self.used = True
        self._stdout.mark()
        self._stderr.mark()
        try:
            protocol.write_message(self._job_w, job)
        finally:
            self._close_job_pipe()

    def _close_job_pipe(self) -> None:
        # Exactly once: a second close could hit a descriptor number another thread has reused meanwhile.
        with self._lock:
            fd, self._job_w = self._job_w, None
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)

    def next_message(self, timeout: float) -> dict[str, Any] | None:
        """The next message; None when the channel closed; raises queue.Empty after ``timeout`` seconds."""
        return self.messages.get(timeout=max(timeout, 0.0))

    def raw_output(self) -> str:
        parts = [(label, drain.text()) for label, drain in (("stdout", self._stdout), ("stderr", self._stderr))]
        return "".join(f"[{label}]\n{text}" if text.strip() else "" for label, text in parts)

    def exit_status(self, timeout: float = 2.0) -> int | None:
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def kill(self) -> None:
        """Kill the worker and everything it started (its group, setsid'd descendants, orphans), then reap it."""
        self.killed = True
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):
            self.proc.kill()
        procs.kill_job(self.token, self.proc.pid)
        with contextlib.suppress(Exception):
            self.proc.wait(timeout=5)
        self._close_job_pipe()
        for thread in (self._stdout, self._stderr):
            thread.join(timeout=1)
        shutil.rmtree(self.workdir, ignore_errors=True)


def describe_exit(status: int | None) -> str:
    if status is None:
        return "stopped responding"
    if status < 0:
        try:
            name = signal.Signals(-status).name
        except ValueError:
            name = f"signal {-status}"
        what = {
            "SIGSEGV": " (segmentation fault)",
            "SIGABRT": " (aborted)",
            "SIGKILL": " (killed)",
            "SIGBUS": " (bus error)",
            "SIGFPE": " (arithmetic error)",
            "SIGILL": " (illegal instruction)",
        }.get(name, "")
        return f"crashed with signal {name}{what}"
    return f"exited with status {status}"


class GradeRun:
    """One grade of one submission. ``run()`` blocks; ``cancel()`` (from any thread) kills the worker."""

    def __init__(self, submission: Submission, limits: Limits | None = None, worker: WorkerProcess | None = None):
        self.submission = submission
        self.limits = limits or Limits()
        self.worker = worker
        self.seed = submission.seed if submission.seed is not None else new_seed()
        self.cancelled = threading.Event()
        self.phase = "starting"
        self.baseline_rss: int | None = None
        self.handed_over_at: float | None = None  # monotonic time the job went to a ready worker
        self.verdict_at: float | None = None  # monotonic time the verdict arrived

    def cancel(self) -> None:
        self.cancelled.set()
        if self.worker is not None:
            self.worker.kill()

    def job(self) -> dict[str, Any]:
        ex, sub = self.submission.exercise, self.submission
        timing = {"enabled": sub.timing, "eager": ex.timing_eager, "starter": ex.timing_starter}
        if sub.timing and ex.timing_starter:
            timing["starter_cached"] = StarterTimingCache().get(ex)
        return {
            "type": protocol.JOB,
            "exercise": ex.id,
            "function": ex.function,
            "call": ex.call,
            "checks_path": str(ex.checks_path),
            "starter_path": str(ex.starter_path),
            "filename": str(sub.path),
            "source_b64": base64.b64encode(sub.source).decode("ascii"),
            "seed": self.seed,
            "timing": timing,
        }

    def _fail(self, message: str, *, error: ErrorInfo | None = None, internal: InternalError | None = None) -> Verdict:
        verdict = Verdict.failure(
            self.submission.exercise.id,
            message,
            error=error,
            internal_error=internal,
            seed=self.seed,
            jax_version=jax_version(),
            jittrainer_version=jittrainer.__version__,
        )
        return verdict

    def run(self, on_verdict: Callable[[Verdict], None] | None = None) -> Verdict:
        self.started = time.monotonic()
        verdict = self._run(on_verdict)
        if verdict.duration_s is None:
            verdict.duration_s = self._elapsed()
        return verdict

    def _elapsed(self) -> float:
        """Seconds from the start of this run (worker start-up included) to now."""
        return round(time.monotonic() - self.started, 4)

    def _run(self, on_verdict: Callable[[Verdict], None] | None) -> Verdict:
        limits = self.limits
        if self.cancelled.is_set():
            return self._fail("cancelled")
        worker = self.worker
        if worker is None:
            worker = self.worker = WorkerProcess()
        if self.cancelled.is_set():  # cancel() may have run before the worker existed
            worker.kill()
        try:
            if not worker.wait_ready(limits.startup_timeout_s):
                if self.cancelled.is_set():
                    return self._fail("cancelled")
                status = worker.exit_status(timeout=0.5)
                raw = worker.raw_output()
                worker.kill()
                detail = raw.strip().splitlines()[-1] if raw.strip() else describe_exit(status)
                return self._fail(
                    f"the grading worker did not start: {detail}",
                    internal=InternalError("grader", "jittrainer.core.worker", detail, raw[-4000:]),
                )
            self.handed_over_at = time.monotonic()
            worker.send_job(self.job())
            verdict = self._await_verdict(worker)
            self.verdict_at = time.monotonic()
            verdict.duration_s = self._elapsed()
            self._attach_raw_output(verdict, worker)
            if verdict.timing.status == "pending":
                if on_verdict is not None:
                    on_verdict(dataclasses.replace(verdict))
                verdict.timing = self._await_timing(worker, verdict)
            return verdict
        finally:
            worker.kill()

    def _over_memory(self, worker: WorkerProcess) -> str:
        """'' or the memory-limit message, after killing the worker, when it uses more than allowed."""
        if self.limits.memory_mb is None or self.baseline_rss is None:
            return ""
        rss = procs.rss_bytes(worker.pid)
        allowed = self.limits.memory_mb * 2**20
        if rss is None or rss - self.baseline_rss <= allowed:
            return ""
        worker.kill()
        where = _phase_words(self.phase, self.submission.exercise.function)
        return (
            f"memory limit exceeded ({(rss - self.baseline_rss) / 2**30:.2f} GiB above the grader's own use, "
            f"{allowed / 2**30:.2f} GiB allowed) {where}"
        )

    def _await_verdict(self, worker: WorkerProcess) -> Verdict:
        timeout = self.limits.timeout_s
        deadline = time.monotonic() + timeout
        ex = self.submission.exercise
        self.baseline_rss = procs.rss_bytes(worker.pid)
        while True:
            over = self._over_memory(worker)
            if over:
                return self._fail(over, error=ErrorInfo("MemoryLimit", over, phase=self.phase))
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                worker.kill()
                if self.cancelled.is_set():
                    return self._fail("cancelled")
                where = _phase_words(self.phase, ex.function)
                message = (
                    f"timed out after {timeout:g} s {where}: your code was still running "
                    f"(an endless loop, or far more work than the exercise needs)"
                )
                return self._fail(message, error=ErrorInfo("Timeout", message, phase=self.phase))
            try:
                message = worker.next_message(min(remaining, POLL_S))
            except queue.Empty:
                continue
            if message is None:
                status = worker.exit_status()
                if self.cancelled.is_set():
                    return self._fail("cancelled")
                where = _phase_words(self.phase, ex.function)
                how = describe_exit(status)
                if status is not None and status >= 0:
                    text = (
                        f"your code ended the grading process {where} ({how}, e.g. os._exit()) "
                        f"before any verdict was reached"
                    )
                    kind = "Exit"
                else:
                    text = f"the grading process {how} {where}"
                    kind = "Crash"
                return self._fail(text, error=ErrorInfo(kind, text, phase=self.phase))
            kind = message.get("type")
            if kind == protocol.PHASE:
                self.phase = str(message.get("phase", self.phase))
            elif kind == protocol.VERDICT:
                return Verdict.from_dict(message["verdict"])
            elif kind == protocol.CRASH:
                tb = str(message.get("traceback", ""))
                last = tb.strip().splitlines()[-1] if tb.strip() else "unknown error"
                return self._fail(
                    f"the grader itself failed (a bug in jittrainer): {last}",
                    internal=InternalError("grader", "jittrainer.core.worker", last, tb),
                )

    def _await_timing(self, worker: WorkerProcess, verdict: Verdict) -> Timing:
        timing = verdict.timing
        deadline = time.monotonic() + self.limits.timing_timeout_s
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return dataclasses.replace(timing, status="failed", note=f"timing ran over {self.limits.timing_timeout_s:g} s")
            if self._over_memory(worker):
                return dataclasses.replace(timing, status="failed", note="timing stopped: memory limit exceeded")
            try:
                message = worker.next_message(min(remaining, POLL_S))
            except queue.Empty:
                continue
            if message is None:
                return dataclasses.replace(timing, status="failed", note="the worker ended before timing finished")
            if message.get("type") == protocol.TIMING:
                measured = Timing(**message["timing"])
                if measured.starter_calls_s is not None and not measured.starter_cached:
                    StarterTimingCache().put(self.submission.exercise, measured)
                return measured

    def _attach_raw_output(self, verdict: Verdict, worker: WorkerProcess) -> None:
        raw = worker.raw_output()
        if not raw.strip():
            return
        label = "process output (written straight to file descriptors 1 and 2)"
        verdict.output_sections.append(OutputSection(label, raw))
        verdict.output = (verdict.output + ("\n" if verdict.output and not verdict.output.endswith("\n") else "")
                          + f"── {label} ──\n{raw}")


def _phase_words(phase: str, function: str) -> str:
    if phase == "import":
        return "while importing your file"
    if phase.startswith("call "):
        return f"during {phase} of {function}"
    if phase == "checks":
        return "while grading"
    return "while the grader was starting"


class StarterTimingCache:
    """The starter's timing for exercises that compare against it: measured once per starter and JAX version."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or paths.cache_dir() / "starter-timing.json"

    def key(self, exercise: Exercise) -> str:
        digest = hashlib.sha256(exercise.starter_path.read_bytes()).hexdigest()[:16]
        return f"{exercise.id}:{digest}:{jax_version()}"

    def _load(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            return data if isinstance(data, dict) else {}
        except (OSError, ValueError):
            return {}

    def get(self, exercise: Exercise) -> dict[str, Any] | None:
        try:
            return self._load().get(self.key(exercise))
        except OSError:
            return None

    def put(self, exercise: Exercise, timing: Timing) -> None:
        from jittrainer.core.store import atomic_write_text

        with contextlib.suppress(OSError):
            data = self._load()
            data[self.key(exercise)] = {"calls_s": timing.starter_calls_s, "compiles": timing.starter_compiles}
            atomic_write_text(self.path, json.dumps(data, indent=1))


def run_task(kind: str, payload: dict[str, Any], timeout_s: float = 10.0, worker: WorkerProcess | None = None) -> dict[str, Any]:
    """Run a non-grading job (``kind`` in the worker's TASKS, or "probe") in a fresh worker; returns its result
    dict with ``ok``, or ``{"ok": False, "error": ...}`` on a timeout, crash or start-up failure. Seconds spent
    are in ``start_s`` (worker start-up) and ``task_s`` (the job itself)."""
    started = time.monotonic()
    worker = worker or WorkerProcess()
    try:
        if not worker.wait_ready(Limits.startup_timeout_s):
            raw = worker.raw_output().strip()
            return {"ok": False, "error": raw.splitlines()[-1] if raw else describe_exit(worker.exit_status(0.5))}
        start_s = time.monotonic() - started
        worker.send_job({"type": protocol.JOB, "kind": kind, **payload})
        deadline = time.monotonic() + timeout_s
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return {"ok": False, "error": f"timed out after {timeout_s:g} s"}
            try:
                message = worker.next_message(remaining)
            except queue.Empty:
                continue
            if message is None:
                return {"ok": False, "error": f"the worker {describe_exit(worker.exit_status())}"}
            if message.get("type") == protocol.RESULT:
                return {**message, "start_s": start_s, "task_s": time.monotonic() - started - start_s}
    finally:
        worker.kill()


def probe_worker(timeout_s: float = 30.0) -> dict[str, Any]:
    """Start a worker and ask for its facts (jax version, devices); ``start_s`` is its start-up time."""
    return run_task("probe", {}, timeout_s)


def grade(submission: Submission, limits: Limits | None = None, **kwargs: Any) -> Verdict:
    """Grade once in a fresh (cold) worker process: the CLI's path."""
    return GradeRun(submission, limits, **kwargs).run()
