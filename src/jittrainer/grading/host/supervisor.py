"""The supervisor of one grading job: a small process between the host and the worker that holds the job together.

The host starts it as a plain file (``python -I -S supervisor.py --status-fd S --lifeline-fd L -- WORKER ARGV``),
so it imports nothing but the standard library and ``procs`` beside it. It

- becomes a child subreaper, so everything the learner's code starts — double forks, ``setsid()``, ``execve`` with
  an empty environment — stays in its subtree: the job is exactly that subtree (``procs.subtree``);
- drops CAP_SYS_PTRACE from its capability bounding set before starting the worker, so the worker, even as root,
  cannot open the host's ``/proc/<pid>/fd`` (the host is non-dumpable), and makes itself non-dumpable too;
- reports the worker's end on the status pipe (``exit N`` or ``signal N``), since the host cannot wait for a
  grandchild, and exits once nothing is left under it;
- passes SIGUSR1 on to the worker while it has not reaped it (the host asks for the worker's stacks this way);
- kills its whole subtree when the lifeline closes: the host closes it, or dies (a killed CLI leaves nothing).

The host does not rely on it to kill: code that runs as the same user can stop or kill the supervisor, so the host
kills the subtree itself (``procs.kill_job``) and sweeps up orphans re-parented to it.
"""

from __future__ import annotations

import contextlib
import os
import resource
import select
import signal
import sys

if __package__:
    from jittrainer.grading.host import procs
else:  # run by the host as a plain file: procs.py sits beside this one
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import procs  # type: ignore[no-redef]

FREEZE_ROUNDS = 8


def report(fd: int, status: int) -> None:
    words = f"signal {os.WTERMSIG(status)}" if os.WIFSIGNALED(status) else f"exit {os.waitstatus_to_exitcode(status)}"
    with contextlib.suppress(OSError):
        os.write(fd, words.encode() + b"\n")


def _end_subtree() -> None:
    """Stop every descendant (a stopped process cannot fork), until no new one appears; then kill them all."""
    me = os.getpid()
    seen: set[int] = set()
    for _ in range(FREEZE_ROUNDS):
        fresh = procs.subtree(me) - seen
        if not fresh:
            break
        for pid in fresh:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGSTOP)
        seen |= fresh
    for pid in seen | procs.subtree(me):
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(-1, 0)[0]:
            pass


def close_other_fds(keep: set[int]) -> None:
    for name in os.listdir("/proc/self/fd") if os.path.isdir("/proc/self/fd") else []:
        fd = int(name)
        if fd > 2 and fd not in keep:
            with contextlib.suppress(OSError):
                os.close(fd)


def forward_stack_requests(target: list[int | None]) -> None:
    """SIGUSR1 to this process is passed on to ``target[0]`` (its child, while not reaped): the host asks for the
    worker's stacks through the supervisor, whose pid it holds safely, never by the worker's pid."""
    def forward(*_: object) -> None:
        pid = target[0]
        if pid is not None:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGUSR1)

    signal.signal(signal.SIGUSR1, forward)


def supervise(worker: int, status_fd: int, lifeline_fd: int) -> int:
    """Report ``worker``'s end on ``status_fd``; when the lifeline closes (the host is done, or gone), stop and kill
    everything under this process. Returns once nothing is left under it, or after that kill."""
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    target: list[int | None] = [worker]
    signal.signal(signal.SIGCHLD, lambda *_: None)
    signal.set_wakeup_fd(wake_w)
    forward_stack_requests(target)
    worker_ended = False
    while True:
        # Reap first, then wait: a worker that ended before the SIGCHLD handler was set woke nothing.
        try:
            while True:
                pid, status = os.waitpid(-1, os.WNOHANG)
                if pid == 0:
                    break
                if pid == worker:
                    target[0] = None  # reaped: its pid is nobody's to signal now
                    report(status_fd, status)
                    worker_ended = True
        except ChildProcessError:  # nothing left under us
            if worker_ended:
                return 0
        ready, _, _ = select.select([lifeline_fd, wake_r], [], [])
        if lifeline_fd in ready:
            break  # the host is done with the job, or gone
        with contextlib.suppress(OSError):
            os.read(wake_r, 4096)
    target[0] = None
    _end_subtree()
    return 0


def main(argv: list[str]) -> int:
    if len(argv) < 6 or argv[0] != "--status-fd" or argv[2] != "--lifeline-fd" or argv[4] != "--":
        print("usage: supervisor.py --status-fd S --lifeline-fd L -- WORKER ARGV...", file=sys.stderr)
        return 2
    status_fd, lifeline_fd, cmd = int(argv[1]), int(argv[3]), argv[5:]
    procs.prctl(procs.PR_SET_CHILD_SUBREAPER, 1)
    procs.prctl(procs.PR_SET_DUMPABLE, 0)
    procs.prctl(procs.PR_CAPBSET_DROP, procs.CAP_SYS_PTRACE)  # EPERM without CAP_SETPCAP: then it had none
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # a crashing worker leaves no core file behind
    for fd in (status_fd, lifeline_fd):
        os.set_inheritable(fd, False)
    worker = os.posix_spawn(cmd[0], cmd, dict(os.environ))
    # The worker holds the job's pipes now: the host must see them close when the worker's copies close.
    close_other_fds({status_fd, lifeline_fd})
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (1, 2):  # nor may the supervisor keep the host's output pipes open
        os.dup2(devnull, fd)
    return supervise(worker, status_fd, lifeline_fd)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
