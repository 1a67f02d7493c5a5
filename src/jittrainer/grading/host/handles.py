"""A job's supervisor as the host holds it: how it ended, waiting for that, and letting it go.

Two kinds, one interface (``pid``, ``poll``, ``wait``, ``release``): a supervisor the host spawned is its own child
(``Popen`` reaps it); one the fork server forked is the fork server's child, which reports its end and reaps it only
once the host releases it — until then its pid cannot be reused, so the host may signal it.
"""

from __future__ import annotations

import subprocess

from jittrainer.grading.host.zygote import Zygote


class Spawned:
    """A supervisor this process started itself (``supervisor.py``): its Popen."""

    def __init__(self, proc: subprocess.Popen) -> None:
        self.proc, self.pid = proc, proc.pid

    def poll(self) -> int | None:
        return self.proc.poll()

    def wait(self, timeout: float) -> int | None:
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def release(self) -> None:
        pass


class Forked:
    """A supervisor the fork server forked: it reports its end and reaps it only once released (``zygote.py``)."""

    def __init__(self, server: Zygote, pid: int) -> None:
        self.server, self.pid = server, pid
        self.code: int | None = None  # how it ended, once reported (kept after the release)

    def poll(self) -> int | None:
        if self.code is None:
            self.code = self.server.exit_code(self.pid)
        return self.code

    def wait(self, timeout: float) -> int | None:
        if self.code is None:
            self.code = self.server.wait_exit(self.pid, timeout)
        return self.code

    def release(self) -> None:
        self.poll()
        self.server.release(self.pid)
