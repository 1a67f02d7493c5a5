"""The device setting and the session's device executor, seen from the host (no jax here).

``--device cpu|auto|tpu`` (``[grading] device`` in the config): ``cpu``, the default, is today's grading and starts
nothing. Otherwise the steady-state timing of a single-device program is measured again on the accelerator by one
executor process for the whole session (``grading.executor``), started at the first job that needs it: the chip is
opened once, and only one process at a time may hold it. ``auto`` asks for a TPU when a TPU runtime (libtpu) is
installed and says why not when none is.
"""

from __future__ import annotations

import atexit
import base64
import contextlib
import importlib.util
import os
import select
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from typing import Any

from jittrainer.grading import device_wire as wire
from jittrainer.grading.host.workenv import executor_env
from jittrainer.grading.protocol import ChannelClosed, ProtocolError

MODES = ("cpu", "auto", "tpu")
OPEN_TIMEOUT_S = 120.0  # opening a TPU took ~9 s; a machine under load, more
JOB_TIMEOUT_S = 60.0


@dataclass(frozen=True)
class Choice:
    """What a device mode comes to on this machine: the platform the executor times on ('' for none: the CPU
    timing alone, as always), and why there is none when the mode asked for one ('' when it did not)."""

    mode: str
    platform: str
    reason: str = ""


def tpu_runtime() -> bool:
    """Whether a TPU runtime is installed (found without importing it or jax)."""
    with contextlib.suppress(ImportError, ValueError):
        return importlib.util.find_spec("libtpu") is not None
    return False


def choose(mode: str) -> Choice:
    if mode not in MODES:
        raise ValueError(f"device mode {mode!r}: expected one of {', '.join(MODES)}")
    if mode == "cpu":
        return Choice("cpu", "")
    if mode == "tpu" or tpu_runtime():
        return Choice(mode, "tpu")
    return Choice(mode, "", "no TPU runtime (libtpu) is installed on this machine")


class Unavailable(RuntimeError):
    """The executor could not be started or stopped answering: the reason, in words."""


class DeviceExecutor:
    """One executor process. ``time_program`` is safe from several threads (one job at a time)."""

    def __init__(self, platform: str, argv: list[str] | None = None) -> None:
        self.platform = platform
        self.lock = threading.Lock()
        self.facts: dict[str, Any] = {}
        self.started_at = time.monotonic()
        job_r, self.job_w = os.pipe()
        self.reply_r, reply_w = os.pipe()
        env = executor_env(platform)
        argv = argv or [sys.executable, "-m", "jittrainer.grading.executor", "--platform", platform]
        self.log = tempfile.TemporaryFile()  # the runtime's own logs: a file, so a chatty one never blocks it
        self.process = subprocess.Popen(
            [*argv, "--job-fd", str(job_r), "--reply-fd", str(reply_w)], pass_fds=(job_r, reply_w), env=env,
            stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log, start_new_session=True)
        os.close(job_r)
        os.close(reply_w)

    def ready(self, timeout: float = OPEN_TIMEOUT_S) -> dict[str, Any]:
        """The device's facts once it is open; Unavailable with the reason when it cannot be."""
        message = self._reply(timeout)
        if message.get("type") != "ready" or not message.get("ok"):
            self.close()
            raise Unavailable(str(message.get("error") or "the executor did not start")[:300])
        self.facts = {k: message.get(k) for k in ("platform", "device_kind", "jax_version", "count", "open_s")}
        self.facts["start_s"] = round(time.monotonic() - self.started_at, 3)  # the process started, jax, the device
        return self.facts

    def time_program(self, program: bytes, inputs: list[bytes], timeout: float = JOB_TIMEOUT_S) -> dict[str, Any]:
        """The executor's reply for one program (``ok``, the figures or ``reason``/``detail``)."""
        if len(program) > wire.MAX_PROGRAM_BYTES or len(inputs) > wire.MAX_INPUTS or \
                sum(map(len, inputs)) > wire.MAX_INPUT_BYTES:
            return {"ok": False, "reason": "too_large", "detail": "over the executor's size limits"}
        return self._exchange({"program": base64.b64encode(program).decode("ascii"),
                               "inputs": [base64.b64encode(b).decode("ascii") for b in inputs]}, timeout)

    def check_program(self, program: bytes, shapes: list[list[int]], seed: int, reference: str,
                      timeout: float = JOB_TIMEOUT_S, *, any_shape: bool = False) -> dict[str, Any]:
        """The executor's measures for a device check (``course.device_check``): the program run on inputs of
        ``shapes`` it makes from ``seed``, against ``reference`` (a course file's path, never a learner's)."""
        if len(program) > wire.MAX_PROGRAM_BYTES:
            return {"ok": False, "reason": "too_large", "detail": "over the executor's size limits"}
        return self._exchange({"kind": "check", "program": base64.b64encode(program).decode("ascii"),
                               "shapes": shapes, "seed": seed, "reference": reference, "any_shape": any_shape},
                              timeout)

    def _exchange(self, job: dict[str, Any], timeout: float) -> dict[str, Any]:
        with self.lock:
            try:
                wire.send(self.job_w, job)
            except OSError as exc:
                self.close()
                raise Unavailable(f"the executor ended ({exc.strerror or exc})") from None
            reply = self._reply(timeout)
        if reply.get("type") != "reply":
            self.close()
            raise Unavailable("the executor answered out of turn")
        return reply

    def _reply(self, timeout: float) -> dict[str, Any]:
        ready, _, _ = select.select([self.reply_r], [], [], timeout)
        if not ready:
            self.close()
            raise Unavailable(f"the executor did not answer within {timeout:g} s")
        try:
            return wire.receive(self.reply_r)
        except (ChannelClosed, ProtocolError, OSError) as exc:
            detail = self._stderr_tail()
            self.close()
            raise Unavailable(f"the executor ended: {detail or exc}") from None

    def _stderr_tail(self) -> str:
        with contextlib.suppress(Exception):
            self.log.seek(0)
            lines = self.log.read()[-8192:].decode("utf-8", "replace").strip().splitlines()
            return lines[-1][:300] if lines else ""
        return ""

    def alive(self) -> bool:
        return self.process.poll() is None

    def close(self) -> None:
        for fd in (self.job_w, self.reply_r):
            with contextlib.suppress(OSError):
                os.close(fd)
        self.job_w = self.reply_r = -1
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        with contextlib.suppress(OSError):
            self.log.close()


class Executors:
    """The session's executors: at most one per platform, started once; a platform that failed to start is not
    tried again in the session (its reason is kept and said on every figure)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.running: dict[str, DeviceExecutor] = {}
        self.failed: dict[str, str] = {}

    def get(self, platform: str) -> DeviceExecutor:
        with self.lock:
            if platform in self.failed:
                raise Unavailable(self.failed[platform])
            executor = self.running.get(platform)
            if executor is not None and executor.alive():
                return executor
            try:
                executor = DeviceExecutor(platform)
                executor.ready()
            except (OSError, Unavailable) as exc:  # OSError: the process could not even start
                self.failed[platform] = str(exc) if isinstance(exc, Unavailable) else f"not started: {exc}"
                raise Unavailable(self.failed[platform]) from None
            self.running[platform] = executor
            return executor

    def close(self) -> None:
        with self.lock:
            for executor in self.running.values():
                executor.close()
            self.running.clear()


SESSION = Executors()
atexit.register(SESSION.close)
