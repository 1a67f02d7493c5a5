"""How the command line talks: exit codes, the one-line usage error, colour only for a terminal that wants it, and
file paths as links in terminals that support them (OSC 8)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from jittrainer import paths
from jittrainer.i18n import _
# Progress is the session's (session/progress.py); cli/interview.py still imports save_progress from here.
from jittrainer.session.progress import save_progress  # noqa: F401

EXIT_PASS, EXIT_FAIL, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    """The command itself could not run: a one-line reason on stderr, exit 2."""


class Style:
    """ANSI colour (and links) only when writing to a terminal that wants it."""

    def __init__(self, stream: Any) -> None:
        self.on = stream.isatty() and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"

    def __call__(self, text: str, code: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.on else text

    def ok(self, text: str) -> str:
        return self(text, "32")

    def bad(self, text: str) -> str:
        return self(text, "31")

    def warn(self, text: str) -> str:
        return self(text, "33")

    def dim(self, text: str) -> str:
        return self(text, "2")

    def bold(self, text: str) -> str:
        return self(text, "1")

    def path(self, path: Path | str) -> str:
        """A file path, clickable where the terminal supports hyperlinks (the text stays the plain path, its control
        characters written out: a file name can hold ESC or U+202E)."""
        text = shown(path)
        if not self.on:
            return text
        try:
            uri = Path(path).resolve().as_uri()
        except ValueError:
            return text
        return f"\x1b]8;;{uri}\x1b\\{text}\x1b]8;;\x1b\\"


def shown(text: object) -> str:
    """A file name, or any text that is not ours, as the terminal may print it: control characters (ESC, C1, bidi
    overrides, the lone surrogates of an undecodable name) written out as visible escapes."""
    from jittrainer.grading.host.untrusted import visible

    return visible(str(text), 4096)


def crash_line(exc: BaseException) -> str:
    """'internal error (a bug in jittrainer): …; the traceback is in …': the traceback kept in a file."""
    import traceback

    from jittrainer.files import keep_copy

    detail = f"{type(exc).__name__}: {str(exc)[:300]}"
    try:
        text = "".join(traceback.format_exception(exc))
        where = str(keep_copy(paths.cache_dir() / "crashes", "jittrainer", text.encode("utf-8", "replace"), ".txt"))
    except Exception:  # noqa: BLE001  (no place to keep it: the one line still says what happened)
        where = ""
    line = _("internal error (a bug in jittrainer): {detail}").format(detail=detail)
    if where:
        line += "; " + _("the traceback is in {path}").format(path=where)
    return line


def warn(text: str) -> None:
    print(f"jittrainer: {text}", file=sys.stderr)


def show_notices() -> None:
    """Print what the progress store had to tell (a file that could not be read, where progress came back from)."""
    from jittrainer.session.progress import drain_notices

    for notice in drain_notices():
        warn(str(notice))


_json_printed = False


def print_json(data: Any, indent: int | None = 2) -> None:
    """The one JSON object a ``--json`` command prints on stdout (the last-resort handler prints none after it)."""
    global _json_printed
    print(json.dumps(data, indent=indent, ensure_ascii=False))
    _json_printed = True


def json_printed() -> bool:
    return _json_printed


def reset_json_printed() -> None:
    global _json_printed
    _json_printed = False

