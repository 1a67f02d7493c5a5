"""Writing the learner's files so that nothing is lost: atomic replaces and kept copies; reading one that may not
be a file at all.

Every write goes to a temp file, is fsynced, and renamed over the old file (atomic on POSIX); the previous version
can be kept as a backup first. ``keep_copy`` is the one rule for a time-stamped copy (a draft before a reset, a
disk version the editor did not take, a corrupt progress file). ``read_regular`` reads a file the learner's code may
have replaced (a draft turned into a symlink to a FIFO): it never waits on what is not a regular file.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import shutil
import stat
from pathlib import Path


class NotARegularFile(OSError):
    """A path that names a FIFO, a device, a socket or a folder where a file was expected."""


def read_regular(path: Path) -> bytes:
    """The bytes of the regular file at ``path`` (a symlink to one too). Opened without blocking, so a FIFO in its
    place (where a plain open() would wait for a writer for ever), a device or a folder is refused at once with
    NotARegularFile; OSError for what cannot be opened at all."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotARegularFile(f"{path}: not a regular file")
        os.set_blocking(fd, True)
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def _fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def atomic_write_bytes(path: Path, data: bytes, *, backup: Path | None = None) -> None:
    """Write ``data`` to ``path`` atomically; if ``backup`` is given, the old file is kept there first."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if backup is not None and path.exists():
            _keep_backup(path, Path(backup))
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    _fsync_dir(path.parent)


def atomic_write_text(path: Path, text: str, *, backup: Path | None = None) -> None:
    atomic_write_bytes(path, text.encode("utf-8"), backup=backup)


def read_json_object(path: Path) -> dict:
    """A cache file's JSON object; {} when it is missing, unreadable or not an object (a cache starts over)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _keep_backup(path: Path, backup: Path) -> None:
    backup.parent.mkdir(parents=True, exist_ok=True)
    staged = backup.with_name(f".{backup.name}.{os.getpid()}.tmp")
    with contextlib.suppress(OSError):
        staged.unlink()
    try:
        os.link(path, staged)  # the old inode survives the rename below: no copy, no window without a file
    except OSError:
        shutil.copy2(path, staged)
    os.replace(staged, backup)


def stamped_path(folder: Path, stem: str, suffix: str) -> Path:
    """``folder/<stem>-<YYYYmmdd-HHMMSS><suffix>``, with ``-2``, ``-3`` … added when that name is taken."""
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    path = Path(folder) / f"{stem}-{stamp}{suffix}"
    n = 1
    while path.exists():
        n += 1
        path = Path(folder) / f"{stem}-{stamp}-{n}{suffix}"
    return path


def keep_copy(folder: Path, stem: str, data: bytes, suffix: str = ".py") -> Path:
    """Write ``data`` as a new time-stamped file in ``folder``; returns its path."""
    path = stamped_path(folder, stem, suffix)
    atomic_write_bytes(path, data)
    return path
