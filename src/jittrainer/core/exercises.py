"""Exercises are data: one folder ``exercises/<nn>_<id>/`` each, read here into plain ``Exercise`` objects.

A folder holds ``manifest.toml``, ``statement.md``, ``starter.py``, ``solution.py``, ``checks.py``, ``hints.md``
(one ``## `` section per tier), ``explanation.md`` and ``wrong/*.py``. Texts may have translations beside them
(``statement.zh.md``); English is the fallback. A malformed folder still loads, as an unavailable exercise that
names the file and field at fault, so one broken exercise never hides the others.
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

FORMAT_VERSION = 1
FOLDER_RE = re.compile(r"^(?P<number>\d{2,3})_(?P<id>[a-z][a-z0-9_]*)$")
CALL_MODES = ("jit", "plain")
MIN_HINTS = 3
MIN_WRONG = 3
TEXT_FILES = ("statement", "hints", "explanation")
CODE_FILES = ("starter.py", "solution.py", "checks.py")


class ExerciseNotFound(LookupError):
    pass


@dataclass(frozen=True)
class Hint:
    level: int  # 1-based tier
    title: str
    body: str


@dataclass
class Exercise:
    id: str
    number: int
    dir: Path
    title: str = ""
    topic: str = ""
    function: str = ""
    call: str = "jit"
    targets: tuple[str, ...] = ()
    timeout_s: float | None = None
    timing_eager: bool = False
    timing_starter: bool = False
    problems: list[str] = field(default_factory=list)  # "file: field: what is wrong"

    @property
    def available(self) -> bool:
        return not self.problems

    @property
    def starter_path(self) -> Path:
        return self.dir / "starter.py"

    @property
    def solution_path(self) -> Path:
        return self.dir / "solution.py"

    @property
    def checks_path(self) -> Path:
        return self.dir / "checks.py"

    @property
    def manifest_path(self) -> Path:
        return self.dir / "manifest.toml"

    @property
    def wrong_paths(self) -> list[Path]:
        wrong = self.dir / "wrong"
        return sorted(wrong.glob("*.py")) if wrong.is_dir() else []

    def text_path(self, name: str, lang: str = "en") -> Path:
        """``statement``/``hints``/``explanation`` in ``lang`` if translated, else English."""
        if lang and lang != "en":
            translated = self.dir / f"{name}.{lang}.md"
            if translated.is_file():
                return translated
        return self.dir / f"{name}.md"

    def text(self, name: str, lang: str = "en") -> str:
        return self.text_path(name, lang).read_text(encoding="utf-8")

    def statement(self, lang: str = "en") -> str:
        return self.text("statement", lang)

    def explanation(self, lang: str = "en") -> str:
        return self.text("explanation", lang)

    def hints(self, lang: str = "en") -> list[Hint]:
        return parse_hints(self.text("hints", lang))

    @cached_property
    def starter_source(self) -> str:
        return self.starter_path.read_text(encoding="utf-8")


def parse_hints(markdown: str) -> list[Hint]:
    """Each ``## `` heading opens one tier, in order; text before the first heading is ignored."""
    hints: list[Hint] = []
    title, body = None, []
    for line in markdown.splitlines():
        if line.startswith("## "):
            if title is not None:
                hints.append(Hint(len(hints) + 1, title, "\n".join(body).strip()))
            title, body = line[3:].strip(), []
        elif title is not None:
            body.append(line)
    if title is not None:
        hints.append(Hint(len(hints) + 1, title, "\n".join(body).strip()))
    return hints


def default_root() -> Path:
    """Where the exercises live: $JITTRAINER_EXERCISES, else inside an installed wheel, else this checkout."""
    env = os.environ.get("JITTRAINER_EXERCISES")
    if env:
        return Path(env).expanduser()
    package_dir = Path(__file__).resolve().parent.parent
    bundled = package_dir / "_exercises"
    if bundled.is_dir():
        return bundled
    # Editable installs ignore hatch's force-include, so fall back to the checkout's folder.
    return package_dir.parent.parent / "exercises"


def load_exercises(root: Path | None = None) -> list[Exercise]:
    """Every ``<nn>_<id>/`` folder under ``root`` in course order; other folders (drills/) are left alone."""
    root = (Path(root) if root is not None else default_root()).expanduser().resolve()
    if not root.is_dir():
        return []
    found = []
    for entry in root.iterdir():
        match = FOLDER_RE.match(entry.name)
        if match and entry.is_dir():
            found.append(load_exercise(entry, int(match["number"]), match["id"]))
    found.sort(key=lambda ex: (ex.number, ex.id))
    _flag_duplicates(found)
    return found


def find_exercise(exercises: list[Exercise], key: str) -> Exercise:
    """By id (``black_box_print``), folder name (``01_black_box_print``) or number (``1``)."""
    for ex in exercises:
        if key in (ex.id, ex.dir.name) or (key.isdigit() and int(key) == ex.number):
            return ex
    known = ", ".join(ex.id for ex in exercises) or "none found"
    raise ExerciseNotFound(f"no exercise called {key!r} (known: {known})")


def load_exercise(folder: Path, number: int, folder_id: str) -> Exercise:
    ex = Exercise(id=folder_id, number=number, dir=folder)
    problems = ex.problems
    manifest_name = f"{folder.name}/manifest.toml"
    try:
        data = tomllib.loads(ex.manifest_path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        problems.append(f"{manifest_name}: file is missing")
        data = None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        problems.append(f"{manifest_name}: not valid TOML: {exc}")
        data = None
    if data is not None:
        _read_manifest(ex, data, manifest_name)
    _check_files(ex)
    return ex


def _read_manifest(ex: Exercise, data: dict, name: str) -> None:
    problems = ex.problems

    def need(table: dict, key: str, kind: type | tuple[type, ...], where: str = "") -> object:
        label = f"{where}.{key}" if where else key
        if key not in table:
            problems.append(f"{name}: {label}: missing")
            return None
        value = table[key]
        if not isinstance(value, kind) or (isinstance(value, str) and not value.strip()):
            want = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
            problems.append(f"{name}: {label}: expected a non-empty {want}, got {value!r}")
            return None
        return value

    version = need(data, "format_version", int)
    if isinstance(version, int) and version != FORMAT_VERSION:
        problems.append(f"{name}: format_version: this jittrainer reads version {FORMAT_VERSION}, got {version}")
    manifest_id = need(data, "id", str)
    if isinstance(manifest_id, str) and manifest_id != ex.id:
        problems.append(f"{name}: id: {manifest_id!r} does not match the folder name {ex.dir.name!r}")
    ex.title = need(data, "title", str) or ex.id
    ex.topic = need(data, "topic", str) or ""

    grading = data.get("grading")
    if not isinstance(grading, dict):
        problems.append(f"{name}: [grading]: missing table")
        return
    ex.function = need(grading, "function", str, "grading") or ""
    if ex.function and not ex.function.isidentifier():
        problems.append(f"{name}: grading.function: {ex.function!r} is not a Python name")
    call = grading.get("call", "jit")
    if call not in CALL_MODES:
        problems.append(f"{name}: grading.call: expected one of {', '.join(CALL_MODES)}, got {call!r}")
    else:
        ex.call = call
    targets = need(grading, "targets", list, "grading")
    if isinstance(targets, list):
        if not targets or not all(isinstance(t, str) and t for t in targets):
            problems.append(f"{name}: grading.targets: expected a list of check ids the starter must fail")
        else:
            ex.targets = tuple(targets)
    timeout = grading.get("timeout_s")
    if timeout is not None:
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout <= 0:
            problems.append(f"{name}: grading.timeout_s: expected a positive number of seconds, got {timeout!r}")
        else:
            ex.timeout_s = float(timeout)

    timing = data.get("timing", {})
    if not isinstance(timing, dict):
        problems.append(f"{name}: [timing]: expected a table")
        return
    for key in ("eager", "starter"):
        value = timing.get(key, False)
        if not isinstance(value, bool):
            problems.append(f"{name}: timing.{key}: expected true or false, got {value!r}")
        else:
            setattr(ex, f"timing_{key}", value)


def _check_files(ex: Exercise) -> None:
    folder = ex.dir.name
    for text in TEXT_FILES:
        if not ex.text_path(text).is_file():
            ex.problems.append(f"{folder}/{text}.md: file is missing")
    for code in CODE_FILES:
        if not (ex.dir / code).is_file():
            ex.problems.append(f"{folder}/{code}: file is missing")
    if ex.text_path("hints").is_file():
        try:
            count = len(ex.hints())
        except UnicodeDecodeError:
            ex.problems.append(f"{folder}/hints.md: not valid UTF-8 text")
        else:
            if count < MIN_HINTS:
                ex.problems.append(f"{folder}/hints.md: {count} hint tier(s), need at least {MIN_HINTS} '## ' sections")
    if len(ex.wrong_paths) < MIN_WRONG:
        ex.problems.append(f"{folder}/wrong/: {len(ex.wrong_paths)} wrong fix(es), need at least {MIN_WRONG}")


def _flag_duplicates(exercises: list[Exercise]) -> None:
    seen: dict[str, Exercise] = {}
    for ex in exercises:
        if ex.id in seen:
            ex.problems.append(f"{ex.dir.name}: id {ex.id!r} is already used by {seen[ex.id].dir.name}")
        else:
            seen[ex.id] = ex
