"""What a graded file declares it must get: ``# expect: pass``, ``# expect: <check id>`` (that check must be the
first to fail) or ``# expect: error:<kind>`` (grading stops before any check, for that reason).

Every shipped ``wrong/`` fix and every submission in ``tests/alt_submissions/`` carries one such line near the top,
so a wrong fix caught by the wrong check (or by a crash) is a failure of the course, not a success.

Where JAX itself behaves differently between releases, a file adds a line per range after the plain one, e.g.
``# expect[jax>=0.12]: one_compile``: the first range that holds for the JAX version that graded the file wins
(the verdict says which version that was), and the plain line covers the rest.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from jittrainer.course.versions import VersionRangeError, check_range, in_range
from jittrainer.grading.verdict import Verdict

EXPECT_RE = re.compile(r"^#\s*expect(?:\[jax(?P<range>[^\]]+)\])?:\s*(?P<value>\S+)\s*$")
HEAD_LINES = 8  # the declaration must be within the first lines of the file

# error:<kind>, derived from the verdict's error (see ``error_kind``)
ERROR_KINDS = {
    "syntax": "the file does not compile (SyntaxError, IndentationError)",
    "unreadable": "the file is empty, not UTF-8, or binary",
    "import": "importing the file raised",
    "contract": "the file does not define what the statement asks for (a missing function, another signature)",
    "jit_disabled": "the file turns jit off",
    "timeout": "the time limit ran out",
    "memory": "the memory limit ran out",
    "crash": "the grading process crashed",
    "exit": "the file ended the grading process",
    "forged": "something other than the grader wrote to the verdict channel",
    "tampered": "the file changed the grader's own code",
}


@dataclass(frozen=True)
class Expectation:
    value: str  # "pass", a check id, or "error:<kind>"
    # (JAX version range, value) pairs that replace ``value`` on those versions, first match wins
    by_version: tuple[tuple[str, str], ...] = ()

    def on(self, jax_version: str) -> Expectation:
        """The expectation for one JAX version (itself when no range names that version)."""
        for spec, value in self.by_version:
            if jax_version and in_range(jax_version, spec):
                return Expectation(value)
        return Expectation(self.value)

    @property
    def values(self) -> tuple[str, ...]:
        """Every value declared, on any version."""
        return (self.value, *(value for _, value in self.by_version))

    @property
    def passes(self) -> bool:
        return self.value == "pass"

    @property
    def error(self) -> str | None:
        return self.value.split(":", 1)[1] if self.value.startswith("error:") else None

    @property
    def check(self) -> str | None:
        return None if self.passes or self.error is not None else self.value


class ExpectationMissing(ValueError):
    pass


def read_expectation(path: Path) -> Expectation:
    """The declaration in ``path``; ExpectationMissing when there is none or it is malformed."""
    try:
        head = Path(path).read_bytes().decode("utf-8", "replace").splitlines()[:HEAD_LINES]
    except OSError as exc:
        raise ExpectationMissing(f"cannot be read: {exc}") from None
    plain: str | None = None
    ranged: list[tuple[str, str]] = []
    for line in head:
        m = EXPECT_RE.match(line.strip())
        if not m:
            continue
        value = m["value"]
        if value.startswith("error:") and value[6:] not in ERROR_KINDS:
            raise ExpectationMissing(f"unknown error kind {value[6:]!r} (known: {', '.join(ERROR_KINDS)})")
        if m["range"] is None:
            if plain is not None:
                raise ExpectationMissing("two plain '# expect:' lines")
            plain = value
            continue
        try:
            check_range(m["range"])
        except VersionRangeError as exc:
            raise ExpectationMissing(f"'# expect[jax{m['range']}]': {exc}") from None
        ranged.append((m["range"].strip(), value))
    if plain is None:
        raise ExpectationMissing(
            f"no '# expect: pass | <check id> | error:<kind>' line in its first {HEAD_LINES} lines")
    return Expectation(plain, tuple(ranged))


def error_kind(verdict: Verdict) -> str | None:
    """The reason a verdict stopped before any check could judge the code, or None when a check did."""
    if verdict.status != "error" or verdict.first_failure is not None:
        return None
    error = verdict.error
    if error is None:
        return "internal" if verdict.internal_error is not None else "contract"
    kinds = {
        "Timeout": "timeout", "MemoryLimit": "memory", "MemoryError": "memory", "Crash": "crash", "Exit": "exit",
        "ForgedVerdict": "forged", "JitDisabled": "jit_disabled", "GraderTampered": "tampered",
    }
    if error.type in kinds:
        return kinds[error.type]
    if error.phase == "compile":
        return "syntax"
    if error.phase == "read":
        return "unreadable"
    if error.phase == "import":
        return "memory" if error.type == "MemoryError" or "RESOURCE_EXHAUSTED" in error.message else "import"
    return "contract"


def outcome(verdict: Verdict) -> str:
    """What a verdict amounts to, in the declaration's words: "pass", the first failing check, or "error:<kind>"."""
    if verdict.passed:
        return "pass"
    first = verdict.first_failure
    if first is not None:
        return first.id
    return f"error:{error_kind(verdict) or 'unknown'}"


def judge(expectation: Expectation, verdict: Verdict) -> str:
    """'' when the verdict is the one declared for the JAX version that graded it, else the mismatch in one line."""
    want = expectation.on(verdict.jax_version)
    got = outcome(verdict)
    if got == want.value:
        return ""
    on = f" on jax {verdict.jax_version}" if expectation.by_version else ""
    return f"declared {want.value}{on}, got {got} ({verdict.message})"
