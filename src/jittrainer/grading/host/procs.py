"""Finding, measuring and killing the processes of one job (Linux /proc; degrades elsewhere).

Every job runs under its own supervisor (``supervisor.py``), a small process that is a child subreaper: whatever
the learner's code starts — a grandchild that calls ``setsid()``, an orphan whose parent exited, a program
``execve``'d with an empty environment — stays in the supervisor's subtree. So the job is exactly that subtree.
Two fallbacks cover a supervisor that the learner's code killed: each job carries a unique token in its environment
(inherited unless a program clears it), and the host is a subreaper too, so orphans re-parent to it rather than to
init; those orphans are the host's children outside its own session that started after the job did (the host's
deliberate children — an editor, ``ps`` — share its session, and a process cannot join a session it was not born
in), swept only when the supervisor did not end normally.

This module imports only the standard library: the supervisor runs it as a plain file next to itself.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import threading
import time

PROC = "/proc"
TOKEN_VAR = "JITTRAINER_JOB"
PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
PR_CAPBSET_DROP = 24
PR_SET_CHILD_SUBREAPER = 36
CAP_SYS_PTRACE = 19
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
_hardened = False
supervisors: set[int] = set()  # live supervisors started by this host: its deliberate children outside its session
# Held while a supervisor is started and registered in ``supervisors``, and while strays are looked for: between its
# setsid() and its registration a new supervisor looks exactly like a stray, and a sweep must not kill it.
spawn_lock = threading.Lock()
REAP_WAIT_S = 1.0
MAX_FDS = 4096  # descriptors of one process looked at for shared memory


def prctl(option: int, arg: int = 0) -> bool:
    """One ``prctl(2)`` call; False where it failed or there is no prctl (not Linux)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(option, ctypes.c_ulong(arg), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def harden_host() -> None:
    """Once per host process: adopt orphans (subreaper), and make this process non-dumpable, so that a job's code
    running as the same user cannot open ``/proc/<host>/fd/1`` and write into the host's own stdout (root can
    unless it lacks CAP_SYS_PTRACE, which the supervisor drops for the job)."""
    global _hardened
    if not _hardened:
        prctl(PR_SET_CHILD_SUBREAPER, 1)
        prctl(PR_SET_DUMPABLE, 0)
        _hardened = True


def _parents() -> dict[int, int]:
    """pid → parent pid of every live process (one pass over /proc)."""
    out: dict[int, int] = {}
    with contextlib.suppress(OSError):
        for name in os.listdir(PROC):
            if name.isdigit():
                ppid = parent_of(int(name))
                if ppid is not None:
                    out[int(name)] = ppid
    return out


def _stat_fields(pid: int) -> list[str] | None:
    try:
        with open(f"{PROC}/{pid}/stat", "rb") as fh:
            stat = fh.read(4096).decode("ascii", "replace")
    except OSError:
        return None
    # The command name may contain spaces and parentheses: the fields after the last ')' are fixed.
    return stat[stat.rindex(")") + 2:].split() if ")" in stat else None


def parent_of(pid: int) -> int | None:
    fields = _stat_fields(pid)
    return int(fields[1]) if fields and len(fields) > 1 else None


def session_of(pid: int) -> int | None:
    fields = _stat_fields(pid)
    return int(fields[3]) if fields and len(fields) > 3 else None


def is_process(pid: int) -> bool:
    """Whether ``pid`` is a process (a thread-group leader), not one of a process's other threads: its ``Tgid`` is
    its own id. False when it is gone."""
    try:
        with open(f"{PROC}/{pid}/status", "rb") as fh:
            status = fh.read(4096)
    except OSError:
        return False
    for line in status.splitlines():
        if line.startswith(b"Tgid:"):
            return line[5:].strip() == str(pid).encode()
    return False


def children_of(pid: int) -> set[int]:
    """Direct child processes of ``pid``, from each of its threads' ``children`` list (no scan of all of /proc).
    Some kernels (gVisor's) list a child's threads there too: only thread-group leaders are kept, so a process with
    30 threads is one child, not 30 — counted once for memory, and walked once."""
    out: set[int] = set()
    try:
        tids = os.listdir(f"{PROC}/{pid}/task")
    except OSError:
        return out
    for tid in tids:
        with contextlib.suppress(OSError, ValueError), open(f"{PROC}/{pid}/task/{tid}/children", "rb") as fh:
            out.update(int(p) for p in fh.read(65536).split())
    return {child for child in out if is_process(child)}


def subtree(root: int) -> set[int]:
    """Every live descendant of ``root`` (not ``root`` itself)."""
    found: set[int] = set()
    frontier = {root}
    while frontier:
        children = set().union(*(children_of(pid) for pid in frontier)) - found - {root}
        found |= children
        frontier = children
    return found


def carries_token(pid: int, token: str) -> bool:
    try:
        with open(f"{PROC}/{pid}/environ", "rb") as fh:
            environ = fh.read(1 << 20)
    except OSError:
        return False
    return f"{TOKEN_VAR}={token}".encode() in environ.split(b"\0")


def started_at(pid: int) -> int | None:
    """When ``pid`` started, in clock ticks since boot (to tell a job's processes from older ones)."""
    fields = _stat_fields(pid)
    return int(fields[19]) if fields and len(fields) > 19 else None


def strays(since: int, adopters: tuple[int | None, ...] = ()) -> set[int]:
    """Orphans re-parented from a job whose supervisor was killed, started no earlier than that job (``since``): this
    host's children outside its own session, and any child of ``adopters`` (a fork server, which adopts what its
    supervisors leave behind) — never one of the live supervisors."""
    me = os.getpid()
    mine = session_of(me)
    with spawn_lock:
        found = {pid for pid in children_of(me)
                 if pid not in supervisors and mine is not None and session_of(pid) not in (mine, None)}
        for adopter in adopters:
            if adopter is not None:
                found |= children_of(adopter) - supervisors
        return {pid for pid in found if (started_at(pid) or 0) >= since}


def job_processes(token: str, root: int | None = None, strays_since: int | None = None,
                  adopters: tuple[int | None, ...] = ()) -> set[int]:
    """The processes of one job: ``root``'s subtree, whatever carries ``token``, and, when the job's supervisor
    was killed (``strays_since`` is its start), the strays."""
    me = os.getpid()
    found = subtree(root) if root is not None else set()
    if token:
        found |= {pid for pid in _parents() if pid != me and carries_token(pid, token)}
    if strays_since is not None:
        found |= strays(strays_since, adopters)
    return found - {me} - {a for a in adopters if a is not None}


def kill_job(token: str, root: int | None = None, rounds: int = 8, strays_since: int | None = None,
             adopters: tuple[int | None, ...] = ()) -> set[int]:
    """SIGKILL every process of a job; returns them. First every process found is stopped (a stopped process
    cannot fork), again while new ones appear, so a fork loop cannot stay a step ahead of the kill; then all are
    killed at once. ``root`` (the supervisor) dies last, so that nothing is orphaned away from it while its subtree is
    being killed; it is killed but not reaped here (its owner reads its exit status). Those of the others that die
    after it re-parent to this host as zombies: ``reap`` them once ``root`` has been waited for. ``root`` must not
    have been reaped: by then its pid may be another process's (pass None for a supervisor that has ended)."""
    stopped: set[int] = set()
    for _ in range(rounds):
        targets = job_processes(token, root, strays_since, adopters) - stopped - {root}
        if not targets:
            break
        for pid in targets:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGSTOP)
        stopped |= targets
    for pid in stopped | (job_processes(token, root, strays_since, adopters) - {root}):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)
        stopped.add(pid)
    if root is not None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(root, signal.SIGKILL)
    reap(stopped)
    return stopped


def reap(pids: set[int]) -> None:
    """Collect killed orphans that were re-parented to this process (as subreaper), so no zombies pile up. Waits at
    most REAP_WAIT_S: a pid that another process reaped may have been given to a live child of ours meanwhile (an
    editor), which must not hold the host up."""
    me = os.getpid()
    with spawn_lock:
        pending = {pid for pid in pids if parent_of(pid) == me and pid not in supervisors}
    deadline = time.monotonic() + REAP_WAIT_S
    while pending:
        for pid in list(pending):
            try:
                done = os.waitpid(pid, os.WNOHANG)[0]
            except (ChildProcessError, OSError):
                done = pid
            if done:
                pending.discard(pid)
        if not pending or time.monotonic() >= deadline:
            return
        time.sleep(0.005)


def shared_memory_bytes(pids: set[int]) -> int:
    """Bytes of shared memory these processes hold open through a descriptor: memfds and files in /dev/shm, each
    file counted once. Their pages are resident whether or not a process maps them, so RSS alone misses them."""
    seen: set[tuple[int, int]] = set()
    total = 0
    for pid in pids:
        try:
            names = os.listdir(f"{PROC}/{pid}/fd")
        except OSError:
            continue
        for name in names[:MAX_FDS]:
            path = f"{PROC}/{pid}/fd/{name}"
            try:
                target = os.readlink(path)
                if not target.startswith(("/memfd:", "/dev/shm/")):
                    continue
                st = os.stat(path)
            except OSError:
                continue
            if (st.st_dev, st.st_ino) not in seen:
                seen.add((st.st_dev, st.st_ino))
                total += st.st_blocks * 512
    return total


def tree_rss(pids: set[int]) -> int | None:
    """Resident memory of these processes together, each counted once; None when none could be read."""
    sizes = [s for s in map(rss_bytes, pids) if s is not None]
    return sum(sizes) if sizes else None


def rss_bytes(pid: int) -> int | None:
    """Resident memory of one process, or None when it cannot be read."""
    try:
        with open(f"{PROC}/{pid}/statm", "rb") as fh:
            return int(fh.read(256).split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return None
