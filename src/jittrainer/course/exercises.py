"""Exercises are data: one folder ``exercises/<nn>_<id>/`` each, read here into plain ``Exercise`` objects.

A folder holds ``manifest.toml``, ``statement.md``, ``starter.py``, ``solution.py``, ``checks.py``, ``hints.md``
(one ``## `` section per tier), ``explanation.md``, ``wrong/*.py``, and its translations: ``statement.zh.md``,
``hints.zh.md``, ``explanation.zh.md``, ``starter.zh.py`` (the starter with Chinese comments) and the gettext
catalog of its checks' messages, ``locale/zh/LC_MESSAGES/messages.po`` (+ ``.mo``). English is the fallback for
anything not translated. A malformed folder still loads, as an unavailable exercise that names the file and field
at fault, so one broken exercise never hides the others.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from jittrainer import paths
from jittrainer.course.device_check import REFERENCE_FILE, DeviceCheck, unavailable_reason
from jittrainer.course.layout import (CODE_FILES, FOLDER_RE, MIN_HINTS, MIN_WRONG, TEXT_FILES, find_todos, qualified,
                                      split_key, todo_summary)
from jittrainer.course.manifest import read_manifest
from jittrainer.course.schema import Fields, read_toml
from jittrainer.course.versions import in_range, installed_jax
from jittrainer.i18n import DEFAULT, _, join_cjk_breaks
from jittrainer.i18n.catalogs import register_exercise

EDITIONS = ("zh",)  # the languages every built-in exercise ships besides English (a pack declares its own)


class ExerciseNotFound(LookupError):
    pass


NUMBERED = re.compile(r"^\d+[.)]\s+")  # hints.md titles often number themselves: "## 2. A print that ..."


@dataclass(frozen=True)
class Hint:
    level: int  # 1-based tier
    title: str
    body: str

    @property
    def heading(self) -> str:
        """The title without a number of its own (the faces number the tiers)."""
        return NUMBERED.sub("", self.title)


@dataclass
class Exercise:
    id: str  # the key: progress entry, draft, gettext domain; "<pack>:<id>" in a pack (see short_id)
    number: int  # place in course order (in its pack, for a pack's exercise)
    dir: Path
    short_id: str = ""  # the id in its own folder and manifest ("" = id)
    pack: str = ""  # the pack's name; "" for the built-in course
    editions: tuple[str, ...] = EDITIONS  # languages besides English it must ship (validate --languages)
    title: str = ""
    titles: dict[str, str] = field(default_factory=dict)  # translated titles from the manifest: {"zh": "…"}
    topic: str = ""  # a topic id of course/topics.toml
    function: str = ""
    call: str = "jit"
    targets: tuple[str, ...] = ()
    timeout_s: float | None = None
    devices: tuple[int, ...] = ()  # simulated device counts to grade with; () = the default count
    processes: int = 1  # worker processes that grade the file in turn (grading.processes)
    interview: bool = False  # short enough for a mock interview
    timing_eager: bool = False
    timing_starter: bool = False
    device_check: DeviceCheck | None = None  # [grading.device]: a check the accelerator decides
    # The JAX versions the exercise is true on (manifest ``jax = ">=0.12"``); "" for every version the course tests.
    jax_range: str = ""
    problems: list[str] = field(default_factory=list)  # "file: field: what is wrong"
    todos: list = field(default_factory=list)  # layout.Todo marks left by `jittrainer new`: incomplete

    def __post_init__(self) -> None:
        self.short_id = self.short_id or self.id

    @property
    def incomplete(self) -> bool:
        return bool(self.todos)

    @property
    def draft_name(self) -> str:
        """The draft's path under the workspace: ``<id>.py``, ``<pack>/<id>.py`` for a pack's exercise."""
        return paths.key_file(self.id) + ".py"

    @property
    def applies(self) -> bool:
        """Whether the installed JAX lies in the exercise's version range (the learner is told when it does not)."""
        return not self.jax_range or not installed_jax() or in_range(installed_jax(), self.jax_range)

    @property
    def available(self) -> bool:
        return not self.problems and self.applies and not self.device_reason

    @property
    def device_reason(self) -> str:
        """Why this process's device mode cannot decide the exercise's device check ('' when it can, or it has
        none)."""
        return unavailable_reason(self.device_check) if self.device_check else ""

    def unavailable_reason(self) -> str:
        """Why it cannot be opened: the first problem with its files, or the JAX version it needs."""
        if self.problems:
            return self.problems[0]
        if not self.applies:
            return _("written for JAX {range}, and this is JAX {version}").format(
                range=self.jax_range, version=installed_jax())
        return self.device_reason

    @property
    def domain(self) -> str:
        """The gettext domain of this exercise's messages."""
        return f"exercise:{self.id}"

    def title_in(self, lang: str) -> str:
        return self.titles.get(lang) or self.title or self.id

    @property
    def starter_path(self) -> Path:
        return self.dir / "starter.py"

    def starter_file(self, lang: str = DEFAULT) -> Path:
        """The starter with comments in ``lang`` when translated (the code is the same), else the English one."""
        if lang != DEFAULT:
            translated = self.dir / f"starter.{lang}.py"
            if translated.is_file():
                return translated
        return self.starter_path

    @property
    def solution_path(self) -> Path:
        return self.dir / "solution.py"

    def solution_file(self, lang: str = DEFAULT) -> Path:
        """The reference solution with comments in ``lang`` when translated (the code is the same), else English."""
        if lang != DEFAULT:
            translated = self.dir / f"solution.{lang}.py"
            if translated.is_file():
                return translated
        return self.solution_path

    @property
    def checks_path(self) -> Path:
        return self.dir / "checks.py"

    @property
    def manifest_path(self) -> Path:
        return self.dir / "manifest.toml"

    @property
    def locale_dir(self) -> Path:
        return self.dir / "locale"

    @property
    def wrong_paths(self) -> list[Path]:
        wrong = self.dir / "wrong"
        return sorted(wrong.glob("*.py")) if wrong.is_dir() else []

    def text_path(self, name: str, lang: str = DEFAULT) -> Path:
        """``statement``/``hints``/``explanation`` in ``lang`` if translated, else English."""
        if lang and lang != DEFAULT:
            translated = self.dir / f"{name}.{lang}.md"
            if translated.is_file():
                return translated
        return self.dir / f"{name}.md"

    def translated(self, name: str, lang: str) -> bool:
        """Whether ``name`` exists in ``lang`` (English always does): the UI says when it falls back."""
        return lang == DEFAULT or (self.dir / f"{name}.{lang}.md").is_file()

    def text(self, name: str, lang: str = DEFAULT) -> str:
        return join_cjk_breaks(self.text_path(name, lang).read_text(encoding="utf-8"))

    def statement(self, lang: str = DEFAULT) -> str:
        return self.text("statement", lang)

    def explanation(self, lang: str = DEFAULT) -> str:
        return self.text("explanation", lang)

    def hints(self, lang: str = DEFAULT) -> list[Hint]:
        return parse_hints(self.text("hints", lang))


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


def load_exercises(root: Path | None = None, pack: str = "", editions: tuple[str, ...] = EDITIONS) -> list[Exercise]:
    """Every ``<nn>_<id>/`` folder under ``root`` in course order; other folders (drills/) are left alone. In a pack
    (``pack`` is its name) each exercise's key is ``<pack>:<id>``."""
    root = (Path(root) if root is not None else default_root()).expanduser().resolve()
    if not root.is_dir():
        return []
    found = []
    for entry in root.iterdir():
        match = FOLDER_RE.match(entry.name)
        if match and entry.is_dir():
            found.append(load_exercise(entry, int(match["number"]), match["id"], pack, editions))
    found.sort(key=lambda ex: (ex.number, ex.id))
    _flag_duplicates(found)
    return found


def find_exercise(exercises: list[Exercise], key: str) -> Exercise:
    """By key (``black_box_print``, ``vmap_under_jit:batched_grads``), folder name (``01_black_box_print``) or number
    (``1``) in the built-in course; in a pack the same after ``<pack>:`` (``vmap_under_jit:2``). A pack's exercise
    also answers to its own id alone when no other exercise has that id."""
    for ex in exercises:
        if ex.id == key:
            return ex
    pack, rest = split_key(key)
    for ex in exercises:
        if ex.pack == pack and (rest == ex.dir.name or (rest.isdigit() and int(rest) == ex.number)):
            return ex
    if not pack:
        same = [ex for ex in exercises if ex.short_id == key]
        if len(same) == 1:
            return same[0]
        if same:
            raise ExerciseNotFound(_("{key!r} is the id of {n} exercises: say which, as {keys}").format(
                key=key, n=len(same), keys=" or ".join(ex.id for ex in same)))
    known = ", ".join(ex.id for ex in exercises) or _("none found")
    raise ExerciseNotFound(_("no exercise called {key!r} (known: {known})").format(key=key, known=known))


def load_exercise(folder: Path, number: int, folder_id: str, pack: str = "",
                  editions: tuple[str, ...] = EDITIONS) -> Exercise:
    ex = Exercise(id=qualified(pack, folder_id), number=number, dir=folder, short_id=folder_id, pack=pack,
                  editions=editions)
    name = f"{folder.name}/manifest.toml"
    data = read_toml(ex.manifest_path, name, ex.problems)
    if data is not None:
        _read_manifest(ex, data, Fields(name, ex.problems))
    _check_files(ex)
    ex.todos = find_todos(folder)
    if ex.todos:  # the headline of an unfinished exercise, before what its placeholders break
        ex.problems.insert(0, f"{folder.name}: {todo_summary(ex.todos)}")
    register_exercise(ex.id, folder)
    return ex


def _read_manifest(ex: Exercise, data: dict, fields: Fields) -> None:
    values, ex.titles = read_manifest(data, fields)
    manifest_id = values.pop("id", "")
    if manifest_id and manifest_id != ex.short_id:
        fields.bad("id", f"{manifest_id!r} does not match the folder name {ex.dir.name!r}")
    for attr, value in values.items():
        if attr != "format_version":
            setattr(ex, attr, value)
    ex.title = ex.title or ex.short_id


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
    if ex.device_check is not None:
        if ex.pack:  # its reference would run in the device executor, outside the sandbox
            ex.problems.append(f"{folder}/manifest.toml: grading.device: a pack's exercise cannot have a device check")
        elif not (ex.dir / REFERENCE_FILE).is_file():
            ex.problems.append(f"{folder}/{REFERENCE_FILE}: file is missing (grading.device needs it)")


def _flag_duplicates(exercises: list[Exercise]) -> None:
    seen: dict[str, Exercise] = {}
    for ex in exercises:
        if ex.id in seen:
            ex.problems.append(f"{ex.dir.name}: id {ex.id!r} is already used by {seen[ex.id].dir.name}")
        else:
            seen[ex.id] = ex
