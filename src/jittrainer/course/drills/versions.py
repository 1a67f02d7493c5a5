"""Which JAX releases a card is about: ``jax = ">=0.9.1"`` in a card says the answer holds from 0.9.1 on.

A card outside the installed JAX's range is not drawn, ``jittrainer validate`` skips its proof (and says so), and the
learner is told it does not apply. The installed version comes from the package metadata, so the UI process still
never imports jax. Pure Python.
"""

from __future__ import annotations

import functools
import re

_CLAUSE = re.compile(r"^\s*(>=|<=|==|!=|>|<)\s*(\d+(?:\.\d+)*)\s*$")
_OPS = {
    ">=": lambda a, b: a >= b, "<=": lambda a, b: a <= b, "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b, ">": lambda a, b: a > b, "<": lambda a, b: a < b,
}


def parse_version(text: str) -> tuple[int, ...]:
    """``"0.12.0.1"`` → (0, 12, 0, 1); ``"0.9.1rc1"`` → (0, 9, 1): a pre-release counts as its release."""
    parts = []
    for piece in str(text).split("."):
        digits = re.match(r"\d+", piece)
        if not digits:
            break
        parts.append(int(digits.group()))
    return tuple(parts)


def _padded(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    n = max(len(a), len(b))
    return a + (0,) * (n - len(a)), b + (0,) * (n - len(b))


def check_spec(spec: str) -> str:
    """Why ``spec`` is not a version range (empty when it is): comma-separated clauses such as ``>=0.9.1,<0.13``."""
    if not spec.strip():
        return "empty"
    for clause in spec.split(","):
        if not _CLAUSE.match(clause):
            return f"{clause.strip()!r} is not a clause like >=0.9.1 or <0.13"
    return ""


def in_range(version: str, spec: str) -> bool:
    """Does ``version`` satisfy every clause of ``spec``? An empty spec, or an unknown version, matches."""
    if not spec or not version:
        return True
    have = parse_version(version)
    for clause in spec.split(","):
        match = _CLAUSE.match(clause)
        if match is None:
            return False
        a, b = _padded(have, parse_version(match.group(2)))
        if not _OPS[match.group(1)](a, b):
            return False
    return True


@functools.cache
def installed_jax() -> str:
    """The installed JAX's version ("" when JAX is not installed), read without importing it."""
    import importlib.metadata as md

    try:
        return md.version("jax")
    except md.PackageNotFoundError:
        return ""
