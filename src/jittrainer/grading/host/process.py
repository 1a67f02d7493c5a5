"""One grading worker process, from spawn to kill: its pipes, its captured output, its exit.

A worker is a fresh ``python -m jittrainer.grading.sandbox.worker`` process in its own session (so the whole group
can be killed), with a clean environment (the user's ``JAX_*`` and ``XLA_FLAGS`` removed, then set here), stdin
closed, stdout/stderr drained and capped by threads, and a throwaway working directory. Frames from the worker are
decoded here; one that does not decode is passed on as a ``ProtocolError`` for the run to turn into a verdict.
"""

from __future__ import annotations

import contextlib
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
from pathlib import Path
from typing import Any

import jittrainer
from jittrainer.grading import protocol
from jittrainer.grading.host import procs
from jittrainer.grading.limits import DEFAULT_DEVICES

RAW_OUTPUT_CAP = 32 * 1024
STACK_FILE = "stack.txt"  # where the worker's faulthandler writes its stacks when asked (SIGUSR1)
WORKER_MODULE = "jittrainer.grading.sandbox.worker"


def worker_env(token: str = "", devices: int = DEFAULT_DEVICES) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("JAX_") and k != "XLA_FLAGS"}
    env[procs.TOKEN_VAR] = token  # inherited by whatever the learner's code starts, so kill() can find it
    env["XLA_FLAGS"] = f"--xla_force_host_platform_device_count={devices}"
    env["JAX_PLATFORMS"] = "cpu"  # the simulated devices are CPU devices, on any machine
    env["TF_CPP_MIN_LOG_LEVEL"] = "2"  # XLA's C++ info logs are not the learner's output
    env["PYTHONUNBUFFERED"] = "1"
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.pop("PYTHONSTARTUP", None)
    src = str(Path(jittrainer.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (src, env.get("PYTHONPATH", "")) if p)
    return env


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
    """One grading worker process. Grades exactly one job; ``devices`` simulated CPU devices."""

    def __init__(self, devices: int = DEFAULT_DEVICES) -> None:
        self._lock = threading.Lock()
        self.devices = devices
        self.kill_token = secrets.token_hex(8)
        procs.become_subreaper()
        self.workdir = tempfile.mkdtemp(prefix="jittrainer-")
        job_r, self._job_w = os.pipe()
        self._result_r, result_w = os.pipe()
        cmd = [sys.executable, "-m", WORKER_MODULE, "--job-fd", str(job_r), "--result-fd", str(result_w)]
        try:
            self.proc = subprocess.Popen(
                cmd,
                pass_fds=(job_r, result_w),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=self.workdir,
                env=worker_env(self.kill_token, devices),
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
        # Decoded frames; a ProtocolError for a frame that did not decode; None once the channel closed.
        self.messages: queue.Queue[protocol.Frame | protocol.ProtocolError | None] = queue.Queue()
        self.ready: protocol.Ready | None = None
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

    def alive(self) -> bool:
        return self.proc.poll() is None

    def _read(self) -> None:
        try:
            while True:
                payload = protocol.read_payload(self._result_r)
                try:
                    self.messages.put(protocol.decode_frame(payload))
                except protocol.ProtocolError as exc:
                    self.messages.put(exc)
        except protocol.ProtocolError as exc:  # an oversized frame: nothing after it can be trusted
            self.messages.put(exc)
            self.messages.put(None)
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
        if not isinstance(message, protocol.Ready):
            return False
        self.ready = message
        return True

    def send_job(self, job: protocol.Job) -> None:
        self.used = True
        self._stdout.mark()
        self._stderr.mark()
        try:
            protocol.write(self._job_w, job)
        finally:
            self._close_job_pipe()

    def _close_job_pipe(self) -> None:
        # Exactly once: a second close could hit a descriptor number another thread has reused meanwhile.
        with self._lock:
            fd, self._job_w = self._job_w, None
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)

    def next_message(self, timeout: float) -> protocol.Frame | protocol.ProtocolError | None:
        """The next frame; None when the channel closed; raises queue.Empty after ``timeout`` seconds."""
        return self.messages.get(timeout=max(timeout, 0.0))

    def raw_output(self) -> str:
        parts = [(label, drain.text()) for label, drain in (("stdout", self._stdout), ("stderr", self._stderr))]
        return "".join(f"[{label}]\n{text}" if text.strip() else "" for label, text in parts)

    def exit_status(self, timeout: float = 2.0) -> int | None:
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def dump_stacks(self, wait_s: float = 0.5) -> str:
        """Ask the running worker for its Python stacks (faulthandler on SIGUSR1) before it is killed: where a
        timed-out submission was stuck. '' when it cannot say."""
        path = Path(self.workdir) / STACK_FILE
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(self.proc.pid, signal.SIGUSR1)
        end = time.monotonic() + wait_s
        text = ""
        while time.monotonic() < end:
            with contextlib.suppress(OSError):
                text = path.read_text(encoding="utf-8", errors="replace")
            if "File " in text and text.endswith("\n"):
                time.sleep(0.02)  # let the other threads' stacks land too
                with contextlib.suppress(OSError):
                    text = path.read_text(encoding="utf-8", errors="replace")
                break
            time.sleep(0.02)
        return text

    def kill(self) -> None:
        """Kill the worker and everything it started (its group, setsid'd descendants, orphans), then reap it."""
        self.killed = True
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):
            self.proc.kill()
        procs.kill_job(self.kill_token, self.proc.pid)
        with contextlib.suppress(Exception):
            self.proc.wait(timeout=5)
        self._close_job_pipe()
        for thread in (self._stdout, self._stderr):
            thread.join(timeout=1)
        shutil.rmtree(self.workdir, ignore_errors=True)


def describe_exit(status: int | None) -> tuple[str, str]:
    """(key, English words) for a worker's exit status, e.g. ("signal", "crashed with signal SIGSEGV …")."""
    if status is None:
        return "stopped", "stopped responding"
    if status < 0:
        try:
            name = signal.Signals(-status).name
        except ValueError:
            name = f"signal {-status}"
        return "signal", name
    return "status", str(status)
