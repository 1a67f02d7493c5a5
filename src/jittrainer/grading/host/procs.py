"""Finding and killing everything a grade started, and measuring its memory (Linux /proc; degrades elsewhere).

A process group alone misses grandchildren that call ``setsid()``, and an orphan is re-parented away from its
grandparent. So each worker carries a unique token in its environment, inherited by everything it starts; and the
grading process becomes a child subreaper, so orphans re-parent to it (and can be reaped) instead of to init.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
from pathlib import Path

PROC = Path("/proc")
TOKEN_VAR = "JITTRAINER_JOB"
_PR_SET_CHILD_SUBREAPER = 36
_subreaper = False


def become_subreaper() -> bool:
    """Make this process the reaper of its descendants' orphans (Linux ≥ 3.4). Idempotent; False if unsupported."""
    global _subreaper
    if _subreaper:
        return True
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        _subreaper = libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        _subreaper = False
    return _subreaper


def _pids() -> list[int]:
    with contextlib.suppress(OSError):
        return [int(name) for name in os.listdir(PROC) if name.isdigit()]
    return []


def parent_of(pid: int) -> int | None:
    try:
        stat = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    # The command name may contain spaces and parentheses: the fields after the last ')' are fixed.
    fields = stat[stat.rindex(")") + 2 :].split()
    return int(fields[1]) if len(fields) > 1 else None


def carries_token(pid: int, token: str) -> bool:
    try:
        environ = (PROC / str(pid) / "environ").read_bytes()
    except OSError:
        return False
    return f"{TOKEN_VAR}={token}".encode() in environ.split(b"\0")


def job_processes(token: str, root: int | None = None) -> set[int]:
    """Every live process that carries ``token`` in its environment, plus the descendants of ``root``."""
    me = os.getpid()
    parents = {pid: parent_of(pid) for pid in _pids()}
    found = {pid for pid in parents if pid != me and carries_token(pid, token)}
    if root is not None:
        frontier = {root}
        while frontier:
            children = {pid for pid, ppid in parents.items() if ppid in frontier and pid != me}
            frontier = children - found
            found |= children
    return found


def kill_job(token: str, root: int | None = None, rounds: int = 5) -> int:
    """SIGKILL every process of a job, repeating while new ones appear (a fork loop); returns how many.
    ``root`` (the worker, whose exit status its Popen object reads) is killed but not reaped here."""
    killed: set[int] = set()
    for _ in range(rounds):
        targets = job_processes(token, root) - killed
        if not targets:
            break
        for pid in targets:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        killed |= targets
    _reap(killed - {root})
    return len(killed)


def _reap(pids: set[int]) -> None:
    """Collect killed orphans that were re-parented to this process (as subreaper), so no zombies pile up."""
    me = os.getpid()
    for pid in pids:
        if parent_of(pid) != me:
            continue
        with contextlib.suppress(ChildProcessError, OSError):
            os.waitpid(pid, 0)


def rss_bytes(pid: int) -> int | None:
    """Resident memory of one process, or None when it cannot be read."""
    try:
        for line in (PROC / str(pid) / "status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None
