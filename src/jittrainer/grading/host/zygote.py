"""The host's side of the fork server (``grading/sandbox/zygote.py``): start it, ask it to fork jobs, hear of ends.

One fork server per host process that grades often (the app, ``watch``, ``validate``, ``check --all``, the mock
interview, the test session): ``start_shared()`` starts it, and from then on every ``WorkerProcess`` of this process
is forked from it (``shared()``). A one-shot ``check`` never starts one and spawns its worker as before.

If the fork server cannot fork (it refused: a thread or a backend appeared in it), is gone, or does not answer within
REQUEST_TIMEOUT_S (a job stopped it, where jobs can reach it: plain mode), the job is spawned instead and the next
request starts a new fork server. The host never reaps a forked supervisor itself: the fork server reports each end
and reaps it only when the host releases it, so its pid stays the host's to signal until then.
"""

from __future__ import annotations

import atexit
import contextlib
import itertools
import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from jittrainer.grading.host import procs
from jittrainer.grading.host.workenv import zygote_env
from jittrainer.grading.limits import Limits

ZYGOTE_MODULE = "jittrainer.grading.sandbox.zygote"
LAUNCHER = str(Path(__file__).with_name("zygote_launch.py"))
REQUEST_TIMEOUT_S = 10.0
LOG_CAP = 16 * 1024


class Zygote:
    def __init__(self) -> None:
        self._send_lock = threading.Lock()
        self._cond = threading.Condition()
        self._replies: dict[int, dict[str, Any]] = {}
        self._exits: dict[int, int] = {}
        self._ids = itertools.count(1)
        self.hello: dict[str, Any] | None = None
        self.broken = ""  # why it can no longer be used ('' while it can)
        self.log = bytearray()
        procs.harden_host()
        host_end, child_end = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        lifeline_r, self._lifeline_w = os.pipe()
        cmd = [sys.executable, "-I", "-S", LAUNCHER, "--", sys.executable, "-m", ZYGOTE_MODULE,
               "--control-fd", str(child_end.fileno()), "--lifeline-fd", str(lifeline_r)]
        try:
            self.proc = subprocess.Popen(cmd, pass_fds=(child_end.fileno(), lifeline_r), stdin=subprocess.DEVNULL,
                                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=zygote_env(),
                                         start_new_session=True)
        finally:
            child_end.close()
            os.close(lifeline_r)
        self.sock = host_end
        self.started = time.monotonic()
        threading.Thread(target=self._read, daemon=True, name="zygote-events").start()
        threading.Thread(target=self._drain_log, daemon=True, name="zygote-log").start()

    @property
    def pid(self) -> int:
        return self.proc.pid

    @property
    def mode(self) -> str:
        """"namespaces" or "plain" once it said hello; "" before, or if it failed."""
        return str(self.hello.get("mode", "")) if self.hello and self.hello.get("hello") else ""

    def _read(self) -> None:
        while True:
            try:
                data = self.sock.recv(1 << 16)
            except OSError:
                data = b""
            if not data:
                break
            try:
                event = json.loads(data)
            except ValueError:
                continue
            with self._cond:
                if "hello" in event:
                    self.hello = event
                    if not event.get("hello"):
                        self.broken = f"it could not start: {event.get('why', '')}"
                elif "exit" in event:
                    self._exits[int(event["exit"])] = int(event.get("code", -9))
                elif "id" in event:
                    self._replies[int(event["id"])] = event
                self._cond.notify_all()
        with self._cond:
            self.broken = self.broken or "it ended"
            self._cond.notify_all()

    def _drain_log(self) -> None:
        with contextlib.suppress(Exception):
            while chunk := self.proc.stdout.read1(65536):  # type: ignore[union-attr]
                self.log = (self.log + chunk)[-LOG_CAP:]

    def ready_now(self) -> bool:
        """Whether it said hello and can fork (without waiting)."""
        return bool(self.mode) and self.usable()

    def wait_ready(self, timeout: float = Limits.startup_timeout_s) -> bool:
        with self._cond:
            self._cond.wait_for(lambda: self.hello is not None or bool(self.broken), timeout)
            return bool(self.mode) and not self.broken

    def fork(self, devices: int, env: dict[str, str], workdir: str, fds: list[int]) -> int | None:
        """The pid of a new job's supervisor, forked with ``fds`` (``forked.FDS`` order); None when the fork server
        cannot do it now (the caller spawns the job instead)."""
        if not self.wait_ready():
            return None
        ident = next(self._ids)
        request = json.dumps({"op": "fork", "id": ident, "devices": devices, "env": env, "workdir": workdir}).encode()
        try:
            with self._send_lock:
                socket.send_fds(self.sock, [request], fds)
        except OSError as exc:
            self.broken = f"it could not be reached ({exc})"
            return None
        with self._cond:
            answered = self._cond.wait_for(lambda: ident in self._replies or bool(self.broken), REQUEST_TIMEOUT_S)
            reply = self._replies.pop(ident, None)
        if not answered or reply is None:
            self.broken = self.broken or f"it did not answer within {REQUEST_TIMEOUT_S:g} s"
            return None
        pid = reply.get("pid")
        return pid if isinstance(pid, int) and pid > 0 else None

    def exit_code(self, pid: int) -> int | None:
        """How ``pid`` (a supervisor it forked) ended, ``Popen.returncode`` style; None while it runs."""
        with self._cond:
            return self._exits.get(pid)

    def wait_exit(self, pid: int, timeout: float) -> int | None:
        with self._cond:
            self._cond.wait_for(lambda: pid in self._exits or bool(self.broken), max(timeout, 0.0))
            return self._exits.get(pid)

    def release(self, pid: int) -> None:
        """The host is done with ``pid``: the fork server may reap it (its pid may be reused from then on)."""
        with self._cond:
            self._exits.pop(pid, None)
        with self._send_lock, contextlib.suppress(OSError):
            self.sock.send(json.dumps({"op": "release", "pid": pid}).encode())

    def usable(self) -> bool:
        return not self.broken and self.proc.poll() is None

    def close(self) -> None:
        """Stop it: its lifeline closes and it exits, and every job it forked goes with it."""
        with contextlib.suppress(OSError):
            os.close(self._lifeline_w)
        with contextlib.suppress(OSError):
            self.sock.close()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=5)


_shared: Zygote | None = None
_wanted = False
_lock = threading.Lock()


def start_shared() -> Zygote:
    """Start this process's fork server (once; returns at once, it imports jax in the background). Every worker this
    process starts from now on is forked from it."""
    global _wanted
    with _lock:
        _wanted = True
    return _current()


def _current() -> Zygote:
    global _shared
    with _lock:
        old = _shared
        if old is None or not old.usable():
            _shared = Zygote()
            if old is None:
                atexit.register(stop_shared)
        current = _shared
    if old is not None and old is not current:
        threading.Thread(target=old.close, daemon=True).start()
    return current


def shared() -> Zygote | None:
    """The fork server to fork from now: None unless ``start_shared()`` was called; a new one if the last one broke."""
    return _current() if _wanted else None


def stop_shared() -> None:
    global _shared, _wanted
    with _lock:
        zygote, _shared, _wanted = _shared, None, False
    if zygote is not None:
        zygote.close()
