"""An exercise folder, declared once: its name, the files it holds, and the marks of unfinished work.

Everything that reads or writes an exercise folder starts here: the loader (``course.exercises``), the manifest's
keys (``course.manifest``), ``jittrainer new`` (``course.scaffold``), packs (``course.packs``), ``validate`` and
the authoring guide (``docs/authoring.md``, which a test keeps in step with ``PARTS``).

A folder is ``<nn>_<id>``: ``nn`` sets its place in course order (or in its pack), ``id`` is the exercise's id,
lower_snake_case. In a pack, the exercise's key (its progress entry, draft and gettext domain) is ``<pack>:<id>``.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

ID_RE = re.compile(r"^[a-z][a-z0-9_]*$")
FOLDER_RE = re.compile(r"^(?P<number>\d{2,3})_(?P<id>[a-z][a-z0-9_]*)$")
PACK_SEPARATOR = ":"

MIN_HINTS = 3  # "## " tiers in hints.md: a nudge, the concept and the API, nearly the answer
MIN_WRONG = 3  # plausible wrong fixes in wrong/, each declaring the check that catches it
TEXT_FILES = ("statement", "hints", "explanation")  # Markdown, each with <name>.<lang>.md editions
CODE_FILES = ("starter.py", "solution.py", "checks.py")

# The mark `jittrainer new` leaves wherever the author has something to write. An exercise that still holds one
# is incomplete: unavailable to learners, and `validate` lists where the marks are instead of grading it.
TODO_MARK = "TODO(author)"
TODO_SUFFIXES = (".md", ".py", ".toml", ".po")


@dataclass(frozen=True)
class Part:
    """One file or folder of an exercise folder."""

    path: str  # relative to the folder; a trailing "/" marks a folder
    required: bool
    what: str  # one line: what it holds (the authoring guide lists these)
    editions: str = ""  # how its translation is named, "" when it is not translated


PARTS: tuple[Part, ...] = (
    Part("manifest.toml", True, "id, title, topic, JAX range and how it is graded (see course.manifest.KEYS)"),
    Part("statement.md", True, "the task and the contract: every rule the grader applies, and nothing else",
         "statement.<lang>.md"),
    Part("starter.py", True, "the learner's first draft: runs, and falls into the pitfall (fails the targets)",
         "starter.<lang>.py (same code, translated comments)"),
    Part("solution.py", True, "a reference fix: passes every check"),
    Part("checks.py", True, "CHECKS = {id: name} and grade(g): jittrainer.authoring's helpers, jax and numpy"),
    Part("hints.md", True, "at least three '## ' tiers: a nudge, the concept and the API, nearly the answer",
         "hints.<lang>.md (same tiers, same code)"),
    Part("explanation.md", True, "shown after a pass: why the fix works, what else to know",
         "explanation.<lang>.md"),
    Part("wrong/", True, "at least three plausible wrong fixes, each starting with '# expect: <check id>'"),
    Part("device_reference.py", False, "with [grading.device]: reference(*inputs), NumPy on float64 arrays, which "
         "the device executor holds the accelerator's result to"),
    Part("locale/", False, "the gettext catalog of checks.py's messages per language (make catalogs writes it)",
         "locale/<lang>/LC_MESSAGES/messages.po and .mo"),
    Part("approaches/", False, "known right approaches, for the review of passing code (read by the review, "
         "ignored by the loader until then)"),
)


def folder_name(number: int, exercise_id: str) -> str:
    return f"{number:02d}_{exercise_id}"


def qualified(pack: str, exercise_id: str) -> str:
    """An exercise's key: its id in the built-in course, ``<pack>:<id>`` in a pack."""
    return f"{pack}{PACK_SEPARATOR}{exercise_id}" if pack else exercise_id


def split_key(key: str) -> tuple[str, str]:
    """``"pack:id"`` → ("pack", "id"); ``"id"`` → ("", "id")."""
    pack, sep, rest = key.partition(PACK_SEPARATOR)
    return (pack, rest) if sep else ("", key)


@dataclass(frozen=True)
class Todo:
    file: str  # relative to the exercise folder
    line: int
    text: str


def find_todos(folder: Path) -> list[Todo]:
    """Every line of the folder's text files that holds ``TODO_MARK``, in file order."""
    # Every exercise is scanned whenever the course loads (each command, the app's start): read bytes and decode only
    # a file that holds the mark (47 -> 19 ms for the course's ~950 files).
    mark = TODO_MARK.encode("utf-8")
    files = []
    for root, dirs, names in os.walk(folder):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        files += [Path(root, name) for name in names if name.endswith(TODO_SUFFIXES)]
    found: list[Todo] = []
    for path in sorted(files):
        try:
            data = path.read_bytes()
            if mark not in data:
                continue
            lines = data.decode("utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            continue
        rel = path.relative_to(folder).as_posix()
        found += [Todo(rel, n, line.strip()) for n, line in enumerate(lines, 1) if TODO_MARK in line]
    return found


def todo_summary(todos: list[Todo]) -> str:
    """``"incomplete: 3 TODOs (manifest.toml:4; statement.md:3,9)"``: how many, and where."""
    where: dict[str, list[str]] = {}
    for todo in todos:
        where.setdefault(todo.file, []).append(str(todo.line))
    from jittrainer.i18n import ngettext, pgettext

    places = pgettext("list.items", "; ").join(f"{file}:{','.join(lines)}" for file, lines in where.items())
    return ngettext("incomplete: {n} TODO ({places})", "incomplete: {n} TODOs ({places})", len(todos)).format(
        n=len(todos), places=places)
