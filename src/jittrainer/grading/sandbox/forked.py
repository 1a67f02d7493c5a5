"""One job forked from the fork server: its supervisor, its reaper (in namespace mode) and its worker.

The fork server (``zygote.py``) forks once per job; the child becomes the job's **supervisor**. It cuts every tie
with the fork server (every descriptor but the job's, every signal handler, its session), and then:

- **namespace mode**: enters new user, PID, IPC and mount namespaces (``jobspace``) and forks the **reaper**, pid 1
  of the new PID namespace, which mounts the job's own ``/proc`` and ``/dev/shm`` and forks the **worker** (pid 2).
  The reaper reports the worker's end on the status pipe and exits, and the kernel kills whatever the job left in
  the namespace. The supervisor waits for the lifeline (the host is done, or gone) or the reaper's end; it kills
  the reaper when the lifeline closes, and the reaper dies with it if it is killed (parent-death signal).
- **plain mode** (no namespaces here): forks the worker itself and supervises it as ``supervisor.py`` does for a
  spawned worker (a child subreaper that reports the worker's end and kills its subtree when the lifeline closes).

The worker resets what it inherited (signal handlers, environment, working directory, standard streams, random
seeds), drops every capability, arms faulthandler on the stack pipe, and then starts its backend with the job's
device count and serves the job exactly as a spawned worker does (``worker.serve``). Nothing here returns: every
process ends with ``os._exit``.
"""

from __future__ import annotations

import contextlib
import faulthandler
import os
import random
import resource
import signal
import sys
import traceback
from dataclasses import dataclass

from jittrainer.grading.host import procs, supervisor
from jittrainer.grading.sandbox import jobspace

FDS = ("job", "result", "stack", "status", "lifeline", "stdout", "stderr")  # the order the host sends them in


@dataclass
class ForkedJob:
    fds: dict[str, int]  # FDS → this process's descriptor numbers
    devices: int
    env: dict[str, str]
    workdir: str
    namespaces: bool


def _default_signals() -> None:
    with contextlib.suppress(ValueError):
        signal.set_wakeup_fd(-1)
    for sig in (signal.SIGCHLD, signal.SIGUSR1, signal.SIGUSR2, signal.SIGTERM, signal.SIGHUP, signal.SIGINT,
                signal.SIGPIPE):
        with contextlib.suppress(OSError, ValueError):
            signal.signal(sig, signal.SIG_DFL)
    with contextlib.suppress(OSError, ValueError):  # as in any Python process: EPIPE is an exception, ^C one too
        signal.signal(signal.SIGPIPE, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.default_int_handler)


def run(job: ForkedJob) -> None:
    """In the fork server's child: become the job's supervisor. Never returns."""
    try:
        _supervisor(job)
    except BaseException:  # noqa: BLE001 - a grader bug: said on the zygote's log, the host sees the job end
        with contextlib.suppress(BaseException):
            os.write(2, traceback.format_exc().encode("utf-8", "replace")[-4000:])
    os._exit(70)


def _supervisor(job: ForkedJob) -> None:
    jobspace.die_with_parent()  # the fork server gone, its jobs go
    _default_signals()
    os.setsid()  # a session of its own, like a spawned supervisor: no terminal signal reaches the job
    supervisor.close_other_fds(set(job.fds.values()))
    procs.prctl(procs.PR_SET_CHILD_SUBREAPER, 1)
    procs.prctl(procs.PR_SET_DUMPABLE, 0)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    fds = job.fds
    if job.namespaces:
        jobspace.enter_job_namespaces()
    child = os.fork()
    if child == 0:
        if job.namespaces:
            _reaper(job)
        _worker(job)
    # The child holds the job's pipes now: the host must see them close when the job's copies close.
    for name in ("job", "result", "stack", "stdout", "stderr"):
        os.close(fds[name])
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    if job.namespaces:
        os.close(fds["status"])  # the reaper reports the worker's end; if it dies first the host sees the pipe close
        os._exit(_await_reaper(child, fds["lifeline"]))
    os._exit(supervisor.supervise(child, fds["status"], fds["lifeline"]))


def _await_reaper(reaper: int, lifeline: int) -> int:
    """Wait for the reaper's end, or for the lifeline to close: then kill the reaper, which kills the namespace."""
    import select

    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    signal.set_wakeup_fd(wake_w)
    target: list[int | None] = [reaper]
    supervisor.forward_stack_requests(target)
    while True:
        with contextlib.suppress(ChildProcessError):
            if os.waitpid(reaper, os.WNOHANG)[0]:
                return 0
        ready, _, _ = select.select([lifeline, wake_r], [], [])
        if lifeline in ready:
            target[0] = None
            with contextlib.suppress(OSError):
                os.kill(reaper, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(reaper, 0)
            return 0
        with contextlib.suppress(OSError):
            os.read(wake_r, 4096)


def _reaper(job: ForkedJob) -> None:
    """pid 1 of the job's PID namespace. Never returns."""
    try:
        jobspace.die_with_parent()
        jobspace.mount_private_views()
        worker = os.fork()
        if worker == 0:
            _worker(job)
        for name in ("job", "result", "stack", "stdout", "stderr", "lifeline"):
            os.close(job.fds[name])
        target: list[int | None] = [worker]
        supervisor.forward_stack_requests(target)
        while True:
            pid, status = os.wait()  # every orphan of the namespace comes here; only the worker's end matters
            if pid == worker:
                target[0] = None
                supervisor.report(job.fds["status"], status)
                break
    except BaseException:  # noqa: BLE001
        with contextlib.suppress(BaseException):
            os.write(2, traceback.format_exc().encode("utf-8", "replace")[-4000:])
    os._exit(0)  # the namespace's init ends: the kernel kills every process left in it


def _worker(job: ForkedJob) -> None:
    """The job's worker. Never returns."""
    try:
        fds = job.fds
        _default_signals()
        for name in ("status", "lifeline"):
            os.close(fds[name])
        os.dup2(fds["stdout"], 1)
        os.dup2(fds["stderr"], 2)
        os.close(fds["stdout"])
        os.close(fds["stderr"])
        os.chdir(job.workdir)
        os.environ.clear()
        os.environ.update(job.env)
        if job.namespaces:
            jobspace.lock_mounts()
        jobspace.drop_capabilities()
        sys.argv = ["jittrainer-worker"]
        random.seed()
        import numpy as np

        np.random.seed()  # a fork shares its parent's random state: every job would draw the same numbers
        faulthandler.register(signal.SIGUSR1, file=fds["stack"], all_threads=True)
        import jax

        jax.config.update("jax_num_cpu_devices", job.devices)  # read when the backend starts, below
        from jittrainer.grading.sandbox.worker import serve

        serve(fds["job"], fds["result"])
    except BaseException:  # noqa: BLE001 - before the job: a grader bug, said on the job's stderr
        with contextlib.suppress(BaseException):
            os.write(2, traceback.format_exc().encode("utf-8", "replace")[-4000:])
    os._exit(3)
