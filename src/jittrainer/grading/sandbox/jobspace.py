"""The namespaces a forked job runs in: its own PID, IPC and mount namespaces, inside a user namespace of its own.

What this buys (Linux; ``namespaces_work()`` says whether this machine allows it):

- the job sees only its own processes (a private ``/proc``): it cannot see or signal the host, the fork server, its
  supervisor, a spare worker or another job;
- its pid 1 is a tiny reaper, not the worker; when that reaper dies the kernel kills everything in the namespace,
  so no process can hop away from a kill by forking, double-forking or ``setsid()``;
- its ``/dev/shm`` is a small private tmpfs that ends with it; System V IPC is private;
- the mounts it inherits are locked (a second user and mount namespace, entered by the worker itself), so it cannot
  unmount its ``/proc`` to uncover the host's; and the worker drops every capability before any learner code runs.

Only ctypes and the standard library: the fork server calls this between ``fork()`` and the worker's first line.
``unshare(CLONE_NEWUSER)`` fails in a multi-threaded process, one more reason the fork server stays single-threaded.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import sys

CLONE_NEWNS = 0x00020000
CLONE_NEWIPC = 0x08000000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REC, MS_PRIVATE = 2, 4, 8, 16384, 1 << 18
PR_SET_PDEATHSIG = 1
PR_SET_NO_NEW_PRIVS = 38
SHM_SIZE = "64m"  # the job's own /dev/shm: enough for a semaphore or a small buffer, bounded, gone with the job
_CAPSET = 126  # x86-64 syscall numbers; other architectures use ctypes' capset symbol below
_LINUX_CAPABILITY_VERSION_3 = 0x20080522


class JobspaceError(OSError):
    pass


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def _check(result: int, what: str) -> None:
    if result != 0:
        errno = ctypes.get_errno()
        raise JobspaceError(errno, f"{what}: {os.strerror(errno)}")


def _map_ids(uid: int, gid: int) -> None:
    """Map this process's own uid and gid (read before the ``unshare``: inside a fresh user namespace they read as
    the overflow id until mapped) into the user namespace it just entered, itself only."""
    with contextlib.suppress(FileNotFoundError):  # before Linux 3.19 there is no setgroups file
        with open("/proc/self/setgroups", "w") as fh:
            fh.write("deny")
    for name, ident in (("uid_map", uid), ("gid_map", gid)):
        with open(f"/proc/self/{name}", "w") as fh:
            fh.write(f"{ident} {ident} 1")


def enter_job_namespaces() -> None:
    """In the supervisor, before it forks the reaper: a new user namespace (own ids mapped), then new PID, IPC and
    mount namespaces owned by it, with every mount made private so nothing the job mounts reaches the host. The next
    child forked is pid 1 of the new PID namespace."""
    libc = _libc()
    ids = os.geteuid(), os.getegid()
    _check(libc.unshare(CLONE_NEWUSER), "unshare(CLONE_NEWUSER)")
    _map_ids(*ids)
    _check(libc.unshare(CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWNS), "unshare(CLONE_NEWPID|CLONE_NEWIPC|CLONE_NEWNS)")
    _check(libc.mount(b"none", b"/", None, MS_REC | MS_PRIVATE, None), "mount --make-rprivate /")


def mount_private_views() -> None:
    """In the reaper (pid 1 of the new namespace): a ``/proc`` that shows only the job's processes, and a small
    ``/dev/shm`` of its own."""
    libc = _libc()
    _check(libc.mount(b"proc", b"/proc", b"proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, None), "mount /proc")
    if os.path.isdir("/dev/shm"):
        _check(libc.mount(b"shm", b"/dev/shm", b"tmpfs", MS_NOSUID | MS_NODEV,
                          f"size={SHM_SIZE},mode=1777".encode()), "mount /dev/shm")


def lock_mounts() -> None:
    """In the worker, before any learner code: one more user and mount namespace. Mounts inherited into a less
    privileged mount namespace are locked together, so the job cannot unmount its private ``/proc`` (as root in its
    own namespace it otherwise could, and would see the host's processes underneath)."""
    libc = _libc()
    ids = os.geteuid(), os.getegid()
    _check(libc.unshare(CLONE_NEWUSER | CLONE_NEWNS), "unshare(CLONE_NEWUSER|CLONE_NEWNS)")
    _map_ids(*ids)


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]


def drop_capabilities() -> bool:
    """Drop every capability of this process (effective, permitted, inheritable) and forbid gaining any by exec
    (no_new_privs). The worker needs none; as root, or as root of its own user namespace, it would otherwise hold
    CAP_SYS_PTRACE and the rest. False where it could not (not Linux)."""
    if not sys.platform.startswith("linux"):
        return False
    libc = _libc()
    header = _CapHeader(_LINUX_CAPABILITY_VERSION_3, 0)
    data = (_CapData * 2)()
    capset = getattr(libc, "capset", None)
    result = capset(ctypes.byref(header), data) if capset is not None else libc.syscall(
        _CAPSET, ctypes.byref(header), data)
    libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
    return result == 0


def die_with_parent(sig: int = 9) -> None:
    """Be sent ``sig`` (SIGKILL) when the parent dies: a supervisor killed from outside takes its namespace along
    (the reaper dies, and with it every process in the namespace)."""
    _libc().prctl(PR_SET_PDEATHSIG, sig, 0, 0, 0)


def namespaces_work() -> tuple[bool, str]:
    """Whether this process can run a job in its own namespaces here, tried in a throwaway child the way a job will
    (enter, mount, lock, drop); with the reason when it cannot (ENOSYS under gVisor, EPERM where unprivileged user
    namespaces are forbidden, as Ubuntu's AppArmor default does)."""
    if not sys.platform.startswith("linux"):
        return False, "not Linux"
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - runs in the child
        os.close(read)
        try:
            enter_job_namespaces()
            reaper = os.fork()
            if reaper == 0:
                try:
                    mount_private_views()
                    lock_mounts()
                    drop_capabilities()
                    os.write(write, b"ok")
                except BaseException as exc:  # noqa: BLE001 - reported to the parent
                    os.write(write, str(exc).encode()[:500])
                os._exit(0)
            os.waitpid(reaper, 0)
        except BaseException as exc:  # noqa: BLE001
            with contextlib.suppress(OSError):
                os.write(write, str(exc).encode()[:500])
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as fh:
        answer = fh.read().decode("utf-8", "replace")
    os.waitpid(pid, 0)
    return (True, "") if answer == "ok" else (False, answer or "the probe ended without an answer")
