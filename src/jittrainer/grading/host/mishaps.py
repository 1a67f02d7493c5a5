"""How a run that ended without a verdict is said to the learner: where it was (the phase), where its code was
stuck (the worker's stacks), how its process ended, and what was forged on the channel. Messages only: the run
(``run.py``) decides when each applies."""

from __future__ import annotations

import re

from jittrainer.grading.host import untrusted
from jittrainer.grading.host.process import describe_exit
from jittrainer.grading.host.stacks import shown_frames, stuck_at
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


def timeout_words(stacks: str, filename: str, graded: str, seconds: float, phase: str,
                  source: bytes) -> tuple[Msg, ErrorInfo]:
    """The headline and error of a run stopped at its time limit, from the stacks the worker dumped: only the lines
    that are real lines of the learner's file (``source``) are believed (``stacks``)."""
    where = phase_words(phase, graded)
    at = stuck_at(stacks, filename, graded, source)
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
    frames = shown_frames(stacks, filename, source)
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


def after_verdict_words(what: str) -> Msg:
    """Where an overrun happened once the verdict was in: the timing or the review's measuring, which never change
    the verdict."""
    if what == "review":
        return msg("phase.after_verdict_review", "after the verdict, while the review measured your program")
    return msg("phase.after_verdict_timing", "after the verdict, while timing your program")


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
