"""Describe an exception raised by the learner's code: type, line, column, and a traceback of their frames only.

JAX's own frames and the grader's are noise to a learner; the line in *their* file is what the editor marks.
"""

from __future__ import annotations

import re
import traceback
from types import TracebackType

from jittrainer.grading.verdict import ErrorInfo

MESSAGE_LIMIT = 600


_LONG_ARRAY = re.compile(r"\[[-+0-9.eE\s,…]{40,}\]?")


def headline(info: ErrorInfo, *, join_dangling: bool = False) -> str:
    """The first line of the error's message (JAX's messages run to a dozen lines with links). For an exception
    raised inside a host callback, JAX wraps it: say what the callback raised instead. With ``join_dangling``, a
    first line that ends in ':' ("The error was:") is completed by the next line; long array values become [...]."""
    text = info.message.strip()
    if not text:
        return ""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if "callback" in lines[0].lower() and "Traceback (most recent call last)" in text:
        return f"a host callback raised {lines[-1]}"
    line = lines[0]
    if join_dangling and line.endswith(":") and len(lines) > 1 and not lines[1].startswith(("See ", "http")):
        line = f"{line} {lines[1]}"
    return _LONG_ARRAY.sub("[…]", line)


def exception_text(exc: BaseException) -> str:
    """``str(exc)`` made readable: at most ``MESSAGE_LIMIT`` characters, never empty."""
    text = str(exc).strip()
    if isinstance(exc, SystemExit):
        return f"sys.exit({exc.code!r}) was called"
    if isinstance(exc, KeyboardInterrupt):
        return "KeyboardInterrupt was raised"
    if not text:
        return f"{type(exc).__name__} was raised (with no message)"
    if len(text) > MESSAGE_LIMIT:
        # Keep both ends: a callback's error puts the learner's own exception on the last line.
        text = text[: MESSAGE_LIMIT // 2] + "\n…\n" + text[-MESSAGE_LIMIT // 2 :]
    return text


def _learner_frames(tb: TracebackType | None, filename: str) -> list[traceback.FrameSummary]:
    return [frame for frame in traceback.extract_tb(tb) if frame.filename == filename]


def describe(exc: BaseException, filename: str, phase: str) -> ErrorInfo:
    """ErrorInfo for ``exc``, located at the innermost frame of ``filename`` (the learner's file)."""
    if isinstance(exc, SyntaxError) and exc.filename == filename:
        return describe_syntax_error(exc, phase)
    frames = _learner_frames(exc.__traceback__, filename)
    # A chained exception can carry the learner's frame when the outer one was re-raised from library code.
    cause = exc.__cause__ or exc.__context__
    while not frames and cause is not None:
        frames = _learner_frames(cause.__traceback__, filename)
        cause = cause.__cause__ or cause.__context__
    line = col = None
    if frames:
        line = frames[-1].lineno
        colno = getattr(frames[-1], "colno", None)
        col = colno + 1 if colno is not None else None
    lines = ["Traceback (your code only):\n"] if frames else []
    lines += traceback.format_list(frames)
    lines += traceback.format_exception_only(type(exc), exc)
    return ErrorInfo(
        type=type(exc).__name__,
        message=exception_text(exc),
        line=line,
        col=col,
        traceback="".join(lines).rstrip()[:8000],
        phase=phase,
    )


def describe_syntax_error(exc: SyntaxError, phase: str = "compile") -> ErrorInfo:
    detail = exc.msg or "invalid syntax"
    text = (exc.text or "").rstrip("\n")
    pointer = ""
    if text and exc.offset:
        pointer = "\n    " + text.strip() + "\n    " + " " * max(0, exc.offset - 1 - (len(text) - len(text.lstrip()))) + "^"
    return ErrorInfo(
        type=type(exc).__name__,
        message=detail,
        line=exc.lineno,
        col=exc.offset,
        traceback=f"{type(exc).__name__} on line {exc.lineno}: {detail}{pointer}",
        phase=phase,
    )


def out_of_memory(info: ErrorInfo) -> bool:
    """MemoryError from Python/NumPy, or XLA's RESOURCE_EXHAUSTED: both mean the same to a learner."""
    return info.type == "MemoryError" or "RESOURCE_EXHAUSTED" in info.message
