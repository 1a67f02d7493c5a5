"""Describe an exception raised by the learner's code: type, line, column, and a traceback of their frames only.

JAX's own frames and the grader's are noise to a learner; the line in *their* file is what the editor marks.

The exception is the learner's object: its ``__str__``, ``__repr__``, ``__class__`` and even ``__traceback__`` may be
their code, and may raise. Its type, traceback and chain are read through ``BaseException``'s own descriptors, and
its text with ``str()`` guarded: describing an exception never raises (an exception that cannot say its message is
described as such, which is the learner's failure like any other).
"""

from __future__ import annotations

import re
import traceback
from types import TracebackType

from jittrainer.grading.sandbox.safe_types import derives, is_exactly, plain_str, type_name
from jittrainer.grading.sandbox.safe_types import name as name_of_type
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


_TRACEBACK = BaseException.__dict__["__traceback__"]
_CAUSE = BaseException.__dict__["__cause__"]
_CONTEXT = BaseException.__dict__["__context__"]
_EXIT_CODE = SystemExit.__dict__["code"]


def _guarded(show, value: object) -> str:
    """``show(value)`` (``str`` or ``repr``) as an exact str, or what stopped it: the value's own method raised."""
    try:
        text = plain_str(show(value))
    except BaseException as inner:  # noqa: BLE001 - the learner's __str__ may raise anything, SystemExit included
        return f"(its message could not be read: {show.__name__}() raised {type_name(inner)})"
    return text if text is not None else ""


def exception_text(exc: BaseException) -> str:
    """``str(exc)`` made readable: at most ``MESSAGE_LIMIT`` characters, never empty."""
    if derives(exc, SystemExit):
        return f"sys.exit({_guarded(repr, _EXIT_CODE.__get__(exc))}) was called"
    if derives(exc, KeyboardInterrupt):
        return "KeyboardInterrupt was raised"
    text = _guarded(str, exc).strip()
    if not text:
        return f"{type_name(exc)} was raised (with no message)"
    if len(text) > MESSAGE_LIMIT:
        # Keep both ends: a callback's error puts the learner's own exception on the last line.
        text = text[: MESSAGE_LIMIT // 2] + "\n…\n" + text[-MESSAGE_LIMIT // 2 :]
    return text


def warning_line(caught: object) -> str:
    """"Category: first line of the message" of a warning caught with ``warnings.catch_warnings(record=True)``: its
    category and message may be the learner's classes, read as guardedly as an exception."""
    category, message = getattr(caught, "category", None), getattr(caught, "message", None)
    kind = name_of_type(category) if derives(category, type) else "Warning"
    text = _guarded(str, message)
    return f"{kind}: {text.splitlines()[0] if text else ''}"


def _learner_frames(tb: TracebackType | None, filename: str) -> list[traceback.FrameSummary]:
    return [frame for frame in traceback.extract_tb(tb) if frame.filename == filename]


def describe(exc: BaseException, filename: str, phase: str) -> ErrorInfo:
    """ErrorInfo for ``exc``, located at the innermost frame of ``filename`` (the learner's file). Never raises."""
    try:
        return _describe(exc, filename, phase)
    except BaseException:  # noqa: BLE001 - something the learner's exception holds raised: say what is known
        return ErrorInfo(type=type_name(exc), message=f"{type_name(exc)} was raised (its details could not be read)",
                         phase=phase)


def raised_in(exc: BaseException, filename: str) -> bool:
    """Whether ``exc``, or an exception in its chain, was raised through a frame of ``filename``: the learner's code
    ran when it was raised (a property, ``__eq__`` or ``__str__`` of theirs, called by the grader)."""
    try:
        return bool(_frames_in_chain(exc, filename))
    except BaseException:  # noqa: BLE001
        return False


def _frames_in_chain(exc: BaseException, filename: str) -> list[traceback.FrameSummary]:
    frames = _learner_frames(_TRACEBACK.__get__(exc), filename)
    # A chained exception can carry the learner's frame when the outer one was re-raised from library code.
    cause, seen = _CAUSE.__get__(exc) or _CONTEXT.__get__(exc), 0
    while not frames and cause is not None and seen < 100:
        frames = _learner_frames(_TRACEBACK.__get__(cause), filename)
        cause, seen = _CAUSE.__get__(cause) or _CONTEXT.__get__(cause), seen + 1
    return frames


def _describe(exc: BaseException, filename: str, phase: str) -> ErrorInfo:
    # The real types only: their fields are plain (a subclass's could be properties).
    if is_exactly(exc, SyntaxError, IndentationError, TabError) and plain_str(exc.filename) == filename:
        return describe_syntax_error(exc, phase)
    frames = _frames_in_chain(exc, filename)
    line = col = None
    if frames:
        line = frames[-1].lineno
        colno = getattr(frames[-1], "colno", None)
        col = colno + 1 if colno is not None else None
    lines = ["Traceback (your code only):\n"] if frames else []
    lines += traceback.format_list(frames)
    message = exception_text(exc)
    try:
        lines += traceback.format_exception_only(type(exc), exc)
    except BaseException:  # noqa: BLE001 - its __notes__, say, are the learner's too
        lines.append(f"{type_name(exc)}: {message}\n")
    return ErrorInfo(
        type=type_name(exc),
        message=message,
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
