"""From the submitted bytes to a code object, with a clear message for every file that is not Python we can run."""

from __future__ import annotations

import linecache
from types import CodeType

from jittrainer.grading.sandbox.learner_errors import describe_syntax_error
from jittrainer.grading.verdict import ErrorInfo
from jittrainer.i18n.message import Msg, msg


class Unreadable(Exception):
    def __init__(self, headline: Msg, error: ErrorInfo) -> None:
        super().__init__(headline.render("en"))
        self.headline = headline
        self.error = error


def decode(raw: bytes) -> str:
    """The file's text; Unreadable for bytes that are not a Python file we can read."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        headline = msg("read.not_utf8", "your file is not valid UTF-8 text: byte 0x{byte:02x} on line {line} cannot "
                       "be decoded (save it as UTF-8)", byte=raw[exc.start], line=line)
        raise Unreadable(headline, ErrorInfo("UnicodeDecodeError", headline.render("en"), line=line, phase="read"))
    if text.startswith("\ufeff"):
        text = text[1:]
    if not text.strip():
        headline = msg("read.empty", "your file is empty: write the function the statement asks for")
        raise Unreadable(headline, ErrorInfo("EmptyFile", headline.render("en"), phase="read"))
    if "\x00" in text:
        line = text[: text.index("\x00")].count("\n") + 1
        headline = msg("read.nul", "your file contains a NUL byte on line {line}: it looks like binary data, not "
                       "Python source", line=line)
        raise Unreadable(headline, ErrorInfo("ValueError", headline.render("en"), line=line, phase="read"))
    return text


def compile_source(raw: bytes, filename: str) -> CodeType:
    """Compile the learner's file (and register its lines, so tracebacks show them); Unreadable if it fails."""
    text = decode(raw)
    try:
        code = compile(text, filename, "exec", dont_inherit=True)
    except SyntaxError as exc:
        info = describe_syntax_error(exc)
        raise Unreadable(msg("read.syntax", "{type} on line {line}: {detail}", type=info.type, line=info.line or 0,
                             detail=info.message), info) from None
    except (ValueError, OverflowError, MemoryError, RecursionError) as exc:
        info = ErrorInfo(type(exc).__name__, str(exc), phase="compile")
        raise Unreadable(msg("read.compile", "your file could not be compiled: {type}: {text}",
                             type=type(exc).__name__, text=str(exc)), info) from None
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    return code
