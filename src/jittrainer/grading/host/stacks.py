"""Where a timed-out run's code was, read from the stacks the worker dumped, believing only what the learner's file
itself holds.

The stack pipe is a descriptor of the worker's, so the learner's code can write to it too (its number is on the
worker's command line, and a SIGUSR1 handler of its own can answer the host's request in faulthandler's stead). A
stack line is therefore taken only when it names the learner's file, a line that file has, and a function (or
class, lambda, comprehension) whose definition spans that line; numbers are read only up to seven digits, and names
are the ones found in the file, never the worker's text. Everything shown is made visible (``untrusted``).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from jittrainer.grading.host import untrusted

# faulthandler: '  File "<name>", line <n> in <function>'. A line number of more than seven digits matches nothing.
_STACK_LINE = re.compile(r'^\s*File "(?P<file>[^\n]{1,600})", line (?P<line>[0-9]{1,7}) in (?P<function>[^\s]{1,600})$',
                         re.MULTILINE)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp,
           ast.GeneratorExp)
_ANONYMOUS = {ast.Lambda: "<lambda>", ast.ListComp: "<listcomp>", ast.SetComp: "<setcomp>", ast.DictComp: "<dictcomp>",
              ast.GeneratorExp: "<genexpr>"}
_MAX_NAME = 500  # faulthandler cuts longer strings and appends "..."


def dumped(text: str) -> str:
    """``text`` as faulthandler writes it: printable ASCII as it is, anything else as \\xNN, \\uNNNN or \\UNNNNNNNN,
    cut after 500 characters."""
    out = []
    for ch in text[:_MAX_NAME]:
        code = ord(ch)
        if 0x20 <= code <= 0x7E:
            out.append(ch)
        elif code <= 0xFF:
            out.append(f"\\x{code:02x}")
        elif code <= 0xFFFF:
            out.append(f"\\u{code:04x}")
        else:
            out.append(f"\\U{code:08x}")
    return "".join(out) + ("..." if len(text) > _MAX_NAME else "")


class SourceMap:
    """What the learner's file holds: its number of lines and, for each function-like scope, the lines it spans."""

    def __init__(self, source: bytes) -> None:
        self.lines = source.count(b"\n") + (0 if source.endswith(b"\n") or not source else 1)
        self.scopes: dict[str, list[tuple[int, int, str]]] = {}  # name as dumped -> (first, last, real name)
        try:
            tree = ast.parse(source)
        except Exception:  # a file that does not parse never ran; RecursionError, MemoryError: believe nothing
            self.lines = 0
            return
        for node in ast.walk(tree):
            if isinstance(node, _SCOPES):
                name = _ANONYMOUS.get(type(node)) or node.name  # type: ignore[attr-defined]
                first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
                last = node.end_lineno or node.lineno
                self.scopes.setdefault(dumped(name), []).append((first, last, name))

    def name_at(self, line: int, dumped_name: str) -> str | None:
        """The real name of the scope ``dumped_name`` when it spans ``line`` of this file, else None."""
        if not 1 <= line <= self.lines:
            return None
        if dumped_name == "<module>":
            return "<module>"
        return next((real for first, last, real in self.scopes.get(dumped_name, ()) if first <= line <= last), None)


def believed_frames(stacks: str, filename: str, source: bytes) -> list[tuple[int, str]]:
    """(line, function) of each frame in ``stacks`` that is a real line of the learner's file, most recent first,
    from the thread that was running (faulthandler dumps it first: "Current thread")."""
    chunks = stacks.split("\n\n") if stacks else []
    current = next((c for c in chunks if "Current thread" in c), chunks[0] if chunks else "")
    return _believed(current or stacks, filename, source)


def _believed(text: str, filename: str, source: bytes) -> list[tuple[int, str]]:
    want = dumped(filename)
    found = _STACK_LINE.finditer(text)
    candidates = [(int(m["line"]), m["function"]) for m in found if m["file"] == want]
    if not candidates:
        return []
    where = SourceMap(source)
    frames = []
    for line, function in candidates:
        real = where.name_at(line, function)
        if real is not None:
            frames.append((line, real))
    return frames


@dataclass(frozen=True)
class Stuck:
    line: int  # where the graded function itself was (or, outside it, the innermost line of the learner's file)
    function: str
    inner_line: int | None = None  # the innermost line of the learner's file, when it is in another function
    inner_function: str = ""


def stuck_at(stacks: str, filename: str, graded: str, source: bytes) -> Stuck | None:
    """Where the learner's code was when it was stopped: the line of the graded function, and the innermost line of
    the learner's file when that is elsewhere (a helper the graded function called). Names are made visible."""
    frames = [(line, untrusted.visible(name, 200)) for line, name in believed_frames(stacks, filename, source)]
    if not frames:
        return None
    inner = frames[0]
    own = next((f for f in frames if f[1] == graded), inner)
    if own == inner:
        return Stuck(*own)
    return Stuck(own[0], own[1], inner[0], inner[1])


def shown_frames(stacks: str, filename: str, source: bytes) -> str:
    """The believed frames of every thread, written by the host (never the worker's own text), most recent first."""
    path = untrusted.visible(filename, 600)
    frames = _believed(stacks, filename, source)[:64]
    return "\n".join(f'  File "{path}", line {line} in {untrusted.visible(name, 200)}' for line, name in frames)
