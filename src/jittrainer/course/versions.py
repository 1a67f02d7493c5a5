"""JAX versions as the course sees them: the span CI tests, the installed version (read without importing jax),
and version ranges in course data (``jax = ">=0.12"`` in a manifest, ``# expect[jax>=0.12]: ...`` in a file).

A range is a comma-separated list of comparisons, all of which must hold: ``">=0.10.2,<0.12"``. Versions compare
by their numeric parts (``0.12.0.1`` > ``0.12``); a pre-release suffix is ignored.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from functools import cache

# The oldest and newest JAX releases the suite and `validate` run on (.ci/run: Python 3.11 and the newest Python
# on the machine). "0.12" covers every 0.12.x release.
TESTED_JAX = ("0.10.2", "0.12")

Version = tuple[int, ...]

_OPS: dict[str, Callable[[Version, Version], bool]] = {
    ">=": operator.ge, "<=": operator.le, "==": operator.eq, "!=": operator.ne, ">": operator.gt, "<": operator.lt,
}
_CLAUSE = re.compile(r"^\s*(>=|<=|==|!=|>|<)\s*(\d+(?:\.\d+)*)\s*$")


class VersionRangeError(ValueError):
    pass


def parse(version: str) -> Version:
    """``"0.12.0.1"`` → (0, 12, 0, 1); trailing zeros dropped so 0.12 == 0.12.0; () for an unreadable version."""
    parts = []
    for piece in version.strip().split("."):
        digits = re.match(r"\d+", piece)
        if not digits:
            break
        parts.append(int(digits.group()))
        if digits.group() != piece:
            break
    while parts and parts[-1] == 0:
        parts.pop()
    return tuple(parts)


def check_range(spec: str) -> None:
    """Raise VersionRangeError naming the bad clause when ``spec`` is not a version range."""
    if not spec.strip():
        raise VersionRangeError("an empty version range")
    for clause in spec.split(","):
        if not _CLAUSE.match(clause):
            raise VersionRangeError(f"{clause.strip()!r} is not a comparison like '>=0.12' or '<0.11'")


def in_range(version: str, spec: str) -> bool:
    """Whether ``version`` satisfies every clause of ``spec`` (VersionRangeError for a malformed spec)."""
    check_range(spec)
    have = parse(version)
    for clause in spec.split(","):
        m = _CLAUSE.match(clause)
        assert m is not None
        if not _OPS[m[1]](have, parse(m[2])):
            return False
    return True


def tested(version: str) -> bool:
    """Whether ``version`` lies inside the span CI tests (the newest end covers its whole minor series)."""
    have = parse(version)
    low, high = parse(TESTED_JAX[0]), parse(TESTED_JAX[1])
    return bool(have) and low <= have and have[: len(high)] <= high


@cache
def installed_jax() -> str:
    """The installed JAX's version, from its distribution metadata (no import: the UI never imports jax)."""
    import importlib.metadata

    try:
        return importlib.metadata.version("jax")
    except importlib.metadata.PackageNotFoundError:
        return ""
