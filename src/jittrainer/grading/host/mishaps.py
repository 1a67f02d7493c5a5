"""How a run that ended without a verdict is said to the learner: where it was (the phase), where its code was
stuck (the worker's stacks), how its process ended, and what was forged on the channel. Messages only: the run
(``run.py``) decides when each applies."""

from __future__ import annotations

import re
from dataclasses import dataclass

from jittrainer.grading.host import untrusted
from jittrainer.grading.host.process import describe_exit
from jittrainer.grading.verdict import ErrorInfo
from jittrainer.i18n.message import Msg, msg

SIGNAL_WORDS = {
    "SIGSEGV": msg("signal.SIGSEGV", " (segmentation fault)"),
    "SIGABRT": msg("signal.SIGABRT", " (aborted)"),
    "SIGKILL": msg("signal.SIGKILL", " (killed)"),
    "SIGBUS": msg("signal.SIGBUS", " (bus error)"),
    "SIGFPE": msg("signal.SIGFPE", " (arithmetic error)"),
    "SIGILL": msg("signal.SIGILL", " (illegal instruction)"),
}
_CALL = re.compile(r"call ([0-9]{1,6})\Z")


def phase_words(phase: str, function: str) -> Msg:
    if phase == "import":
        return msg("phase.import", "while importing your file")
    if call := _CALL.match(phase):
        return msg("phase.call", "during call {n} of {function}", n=int(call[1]), function=function)
    if phase == "checks":
        return msg("phase.checks", "while grading")
    if phase == "run":
        return msg("phase.run", "while your program ran")
    return msg("phase.starting", "while the grader was starting")


_STACK_LINE = re.compile(r'^\s*File "(?P<file>.+)", line (?P<line>\d+) in (?P<function>\S+)', re.MULTILINE)


@dataclass(frozen=True)
class Stuck:
    line: int  # where the graded function itself was (or, outside it, the innermost line of the learner's file)
    function: str
    inner_line: int | None = None  # the innermost line of the learner's file, when it is in another function
    inner_function: str = ""


def stuck_at(stacks: str, filename: str, graded: str) -> Stuck | None:
    """Where the learner's code was when it was stopped, from the stack of the thread that was running it
    (faulthandler prints the current thread first, most recent call first): the line of the graded function, and
    the innermost line of the learner's file when that is elsewhere (a helper the graded function called)."""
    current = stacks.split("\n\n")[0] if stacks else ""
    frames = [(int(m["line"]), m["function"]) for m in _STACK_LINE.finditer(current or stacks) if m["file"] == filename]
    if not frames:
        return None
    inner = frames[0]
    own = next((f for f in frames if f[1] == graded), inner)
    if own == inner:
        return Stuck(*own)
    return Stuck(own[0], own[1], inner[0], inner[1])


def timeout_words(stacks: str, filename: str, graded: str, seconds: float, phase: str) -> tuple[Msg, ErrorInfo]:
    """The headline and error of a run stopped at its time limit, from the stacks the worker dumped."""
    where = phase_words(phase, graded)
    at = stuck_at(stacks, filename, graded)
    if at is not None and at.inner_line is not None:
        headline = msg(
            "run.timeout_inner",
            "timed out after {seconds:g} s {where}: line {line} of your file (in {function}) was still running, "
            "and inside it line {inner_line} (in {inner_function}) (an endless loop, or far more work than the "
            "exercise needs)",
            seconds=seconds, where=where, line=at.line, function=at.function, inner_line=at.inner_line,
            inner_function=at.inner_function,
        )
    elif at is not None:
        headline = msg(
            "run.timeout_at",
            "timed out after {seconds:g} s {where}: line {line} of your file (in {function}) was still running "
            "(an endless loop, or far more work than the exercise needs)",
            seconds=seconds, where=where, line=at.line, function=at.function,
        )
    else:
        headline = msg(
            "run.timeout",
            "timed out after {seconds:g} s {where}: your code was still running (an endless loop, or far more "
            "work than the exercise needs)",
            seconds=seconds, where=where,
        )
    frames = untrusted.visible("\n".join(ln for ln in stacks.splitlines() if filename in ln))
    error = ErrorInfo("Timeout", str(headline.render("en")), line=at.line if at is not None else None, phase=phase,
                      traceback=f"Stuck here (your code only):\n{frames}" if frames else "")
    return headline, error


def ended_words(status: int | None, where: Msg) -> tuple[Msg, str]:
    """The headline and error kind of a worker that ended before any verdict, from its exit status."""
    key, what = describe_exit(status)
    if key == "status":
        return msg(
            "run.exited",
            "your code ended the grading process {where} (exited with status {status}, e.g. os._exit()) before "
            "any verdict was reached",
            where=where, status=what,
        ), "Exit"
    if key == "signal":
        return msg("run.crashed", "the grading process crashed with signal {signal}{what} {where}",
                   signal=what, what=SIGNAL_WORDS.get(what, ""), where=where), "Crash"
    return msg("run.stopped", "the grading process stopped responding {where}", where=where), "Crash"


def memory_words(used_gib: float, allowed_gib: float, where: Msg) -> Msg:
    return msg(
        "run.memory_limit",
        "memory limit exceeded ({used:.2f} GiB above the grader's own use, {allowed:.2f} GiB allowed) {where}",
        used=used_gib, allowed=allowed_gib, where=where,
    )


def forged_words(detail: str) -> Msg:
    return msg(
        "run.forged",
        "the grading channel carried a message the grader did not write ({detail}): something your code wrote "
        "there cannot count as a verdict",
        detail=untrusted.visible(detail[:200]),
    )
