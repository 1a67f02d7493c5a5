"""The fork server ("zygote"): a process that has imported jax and the check toolkit once, and forks every job.

A fresh interpreter costs ~0.7 s of CPU before a learner's line runs (Python, ``import jax``, the toolkit, XLA's
first compile); a fork of a process that already imported everything, plus the job's own backend and first compile,
costs 0.07–0.10 s. The host (``grading/host/zygote.py``) starts one per process that grades often — the app,
``watch``, ``validate``, ``check --all``, the test session — through a launcher that drops CAP_SYS_PTRACE from the
capability bounding set before it ``execve``s this module (capabilities and dumpability reset only at exec).

It stays fit to fork from: single-threaded (``unshare(CLONE_NEWUSER)`` fails in a multi-threaded process, and a fork
copies only the calling thread) and with no jax backend (each job starts its own, with its own device count). Before
every fork it checks both and refuses otherwise: the host then spawns the job as it would without a fork server.
It is non-dumpable, reads nothing but the control socket, and exits when its lifeline closes; every job dies with
it (parent-death signals down the tree).

Each supervisor's end is reported to the host with ``waitid(..., WNOWAIT)`` and reaped only when the host releases
it, so the host may signal a supervisor by pid for as long as it holds the job (``pidfd_open`` is not available on
every host this runs on: gVisor lacks it).

Control messages are JSON over a SOCK_SEQPACKET socket; a fork request carries the job's descriptors (SCM_RIGHTS).
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import socket
import sys
import time
from typing import Any

from jittrainer.grading.host import procs

MAX_MESSAGE = 1 << 16
CHECK_EVERY_S = 0.5


def _threads() -> int:
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return 1


def _backends() -> list[str]:
    from jax._src import xla_bridge  # internal (0.10, 0.12): the backends started so far, without starting one

    return sorted(getattr(xla_bridge, "_backends", {}) or {})


def unfit() -> str:
    """Why this process must not fork a job now ('' when it may)."""
    threads = _threads()
    if threads != 1:
        return f"the fork server has {threads} threads"
    started = _backends()
    if started:
        return f"the fork server has a jax backend ({', '.join(started)})"
    return ""


class Server:
    def __init__(self, control: socket.socket, lifeline: int) -> None:
        self.control = control
        self.lifeline = lifeline
        self.live: dict[int, bool] = {}  # supervisor pid → its end was reported
        self.released: set[int] = set()  # supervisors the host is done with: reaped once they end
        self.namespaces = False

    def send(self, message: dict[str, Any]) -> None:
        with contextlib.suppress(OSError):
            self.control.send(json.dumps(message).encode())

    def serve(self) -> None:
        wake_r, wake_w = os.pipe()
        os.set_blocking(wake_r, False)
        os.set_blocking(wake_w, False)
        signal.signal(signal.SIGCHLD, lambda *_: None)
        signal.set_wakeup_fd(wake_w)
        while True:
            ready, _, _ = select.select([self.control, self.lifeline, wake_r], [], [], CHECK_EVERY_S)
            if self.lifeline in ready:
                os._exit(0)  # the host is gone or done: every job goes with us (parent-death signals)
            if wake_r in ready:
                with contextlib.suppress(OSError):
                    os.read(wake_r, 4096)
            if self.control in ready:
                try:
                    data, fds, _, _ = socket.recv_fds(self.control, MAX_MESSAGE, 16)
                except OSError:
                    os._exit(0)
                if not data:
                    os._exit(0)  # the host closed the socket
                self.handle(data, fds, (wake_r, wake_w))
            self.report_exits()

    def handle(self, data: bytes, fds: list[int], own: tuple[int, int]) -> None:
        try:
            request = json.loads(data)
        except ValueError:
            request = {}
        op = request.get("op")
        if op == "fork":
            self.fork(request, fds, own)
        elif op == "release":
            pid = request.get("pid")
            if isinstance(pid, int) and pid in self.live:
                self.released.add(pid)  # reaped as soon as it has ended (it may still run: never block on it)
        elif op == "ping":
            self.send({"pong": request.get("id")})
        for fd in fds if op != "fork" else ():
            with contextlib.suppress(OSError):
                os.close(fd)

    def fork(self, request: dict[str, Any], fds: list[int], own: tuple[int, int]) -> None:
        from jittrainer.grading.sandbox import forked

        ident = request.get("id")
        why = unfit() or ("" if len(fds) == len(forked.FDS) else "the request carried the wrong descriptors")
        if why:
            self.send({"id": ident, "refused": why})
        else:
            job = forked.ForkedJob(dict(zip(forked.FDS, fds)), int(request["devices"]), dict(request["env"]),
                                   str(request["workdir"]), self.namespaces)
            me = os.getpid()
            pid = os.fork()
            if pid == 0:
                for fd in (*own, self.lifeline, self.control.fileno()):
                    with contextlib.suppress(OSError):
                        os.close(fd)
                if os.getppid() != me:  # the fork server died between fork and here: no parent-death signal came
                    os._exit(0)
                forked.run(job)
            self.live[pid] = False
            self.send({"id": ident, "pid": pid})
        for fd in fds:
            with contextlib.suppress(OSError):
                os.close(fd)

    def report_exits(self) -> None:
        """Say which supervisors ended (without reaping them), and reap strays: processes that re-parented to this
        subreaper from a job whose supervisor died (plain mode only)."""
        for pid, reported in list(self.live.items()):
            if pid in self.released:
                with contextlib.suppress(ChildProcessError):
                    if os.waitpid(pid, os.WNOHANG)[0] == 0:
                        continue  # still running: the host let go of it, it ends with its lifeline
                self.live.pop(pid, None)
                self.released.discard(pid)
                continue
            if reported:
                continue
            try:
                info = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            except ChildProcessError:
                info = None
                self.live.pop(pid, None)
            if info is not None:
                code = info.si_status if info.si_code == os.CLD_EXITED else -info.si_status
                self.live[pid] = True
                self.send({"exit": pid, "code": code})
        for pid in procs.children_of(os.getpid()) - set(self.live):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, os.WNOHANG)


def main(argv: list[str]) -> int:
    if len(argv) != 4 or argv[0] != "--control-fd" or argv[2] != "--lifeline-fd":
        print("usage: zygote --control-fd C --lifeline-fd L", file=sys.stderr)
        return 2
    control = socket.socket(fileno=int(argv[1]))
    lifeline = int(argv[3])
    procs.prctl(procs.PR_SET_DUMPABLE, 0)  # reset by the launcher's exec: a job cannot read this process's memory
    procs.prctl(procs.PR_SET_CHILD_SUBREAPER, 1)  # what a killed supervisor leaves behind comes here, not to init
    started = time.perf_counter()
    from jittrainer.grading.sandbox import jobspace
    from jittrainer.grading.sandbox.worker import preload

    preload()
    server = Server(control, lifeline)
    why = unfit()
    if why:
        server.send({"hello": False, "why": why})
        return 1
    wanted = os.environ.get("JITTRAINER_NAMESPACES", "1") != "0"
    server.namespaces, reason = jobspace.namespaces_work() if wanted else (False, "turned off (JITTRAINER_NAMESPACES=0)")
    server.send({"hello": True, "pid": os.getpid(), "mode": "namespaces" if server.namespaces else "plain",
                 "why": reason[:300], "import_s": round(time.perf_counter() - started, 3)})
    server.serve()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
