"""An exercise's known approaches: the ways a right fix can be written, each with a structural fingerprint that the
review matches against the learner's passing program (see docs/approaches.md).

``exercises/<nn>_<id>/approaches/<approach id>.toml``::

    title = "A fori_loop with a traced bound"          # what the approach is called
    summary = "lax.fori_loop(0, steps, …): one while loop, compiled once for every number of steps."
    precedence = 10                                     # lower is tried first (default 100; ties by id)
    requires = ["while"]                                # all of these must be in the program
    forbids = ["scan"]                                  # none of these may be

    [translations.zh]
    title = "…"
    summary = "…"

beside ``<approach id>.md`` (a short write-up) and ``<approach id>.zh.md``.

**The one matching rule.** A program's *features* are the names of the primitives in its jaxpr (nested jaxprs
included: loop bodies, branches, inner jits) plus a few facts (``grading.review.FACTS``: ``@donation``,
``@constants``, ``@float64``, ``@weak_input``, ``@callback``, ``@callback_in_loop``, ``@precision_highest``,
``@precision_high``, ``@recompiles``, ``@no_program``). An approach
matches when every name in ``requires`` is a feature and no name in ``forbids`` is; the approaches are tried in
order of ``precedence`` (then id), and the first that matches is the program's approach. None matching: the program
is "unrecognised" — a way the exercise does not list.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from jittrainer.course.schema import Fields, read_toml
from jittrainer.i18n import DEFAULT, LANGUAGES
from jittrainer.i18n.catalogs import register_texts
from jittrainer.i18n.message import Msg

FOLDER = "approaches"
ID_RE = re.compile(r"^[a-z][a-z0-9_]*$")
KEYS = {"title", "summary", "precedence", "requires", "forbids", "translations"}
FEATURE_RE = re.compile(r"^@?[a-z][a-z0-9_\-]*$")
DEFAULT_PRECEDENCE = 100


def domain(exercise_id: str) -> str:
    """The message domain of an exercise's approach titles and summaries (held in memory, from the TOML)."""
    return f"approaches:{exercise_id}"


@dataclass(frozen=True)
class Approach:
    id: str
    exercise: str
    dir: Path
    title: str
    summary: str
    precedence: int = DEFAULT_PRECEDENCE
    requires: tuple[str, ...] = ()
    forbids: tuple[str, ...] = ()
    translations: dict[str, dict[str, str]] = field(default_factory=dict, hash=False, compare=False)

    def matches(self, features: set[str]) -> bool:
        """The one rule: every required feature present, no forbidden one."""
        return set(self.requires) <= features and not set(self.forbids) & features

    @property
    def title_msg(self) -> Msg:
        return Msg(f"approach.{self.id}.title", self.title, domain=domain(self.exercise))

    @property
    def summary_msg(self) -> Msg:
        return Msg(f"approach.{self.id}.summary", self.summary, domain=domain(self.exercise))

    def writeup_path(self, lang: str = DEFAULT) -> Path:
        translated = self.dir / f"{self.id}.{lang}.md"
        return translated if lang != DEFAULT and translated.is_file() else self.dir / f"{self.id}.md"

    def writeup(self, lang: str = DEFAULT) -> str:
        try:
            return self.writeup_path(lang).read_text(encoding="utf-8").strip()
        except OSError:
            return ""


def load_approaches(exercise_dir: Path, exercise_id: str, problems: list[str] | None = None) -> list[Approach]:
    """The exercise's approaches in the order they are tried; a malformed file is left out, and named in
    ``problems`` ("01_x/approaches/a.toml: requires: …")."""
    problems = problems if problems is not None else []
    folder = Path(exercise_dir) / FOLDER
    found: list[Approach] = []
    for path in sorted(folder.glob("*.toml")) if folder.is_dir() else []:
        approach = _load_one(path, exercise_id, problems)
        if approach is not None:
            found.append(approach)
    found.sort(key=lambda a: (a.precedence, a.id))
    for lang in LANGUAGES:
        if lang != DEFAULT:
            register_texts(domain(exercise_id), lang, {
                (key, english): text
                for a in found
                for key, english, text in (
                    (a.title_msg.key, a.title, a.translations.get(lang, {}).get("title")),
                    (a.summary_msg.key, a.summary, a.translations.get(lang, {}).get("summary")))
                if text})
    return found


def _load_one(path: Path, exercise_id: str, problems: list[str]) -> Approach | None:
    name = f"{path.parent.parent.name}/{FOLDER}/{path.name}"
    before = len(problems)
    if not ID_RE.match(path.stem):
        problems.append(f"{name}: the file name must be an id (lower case, digits, _)")
        return None
    data = read_toml(path, name, problems)
    if data is None:
        return None
    fields = Fields(name, problems)
    for key in sorted(set(data) - KEYS):
        fields.bad(key, "unknown field")
    title = fields.text(data, "title")
    summary = fields.text(data, "summary")
    precedence = fields.integer(data, "precedence", default=DEFAULT_PRECEDENCE, low=0, high=10_000)
    lists = {}
    for key in ("requires", "forbids"):
        value = fields.strings(data, key, required=False, low=0) or []
        for feature in value:
            if not FEATURE_RE.match(feature):
                fields.bad(key, f"not a primitive name or @fact: {feature!r}")
        lists[key] = tuple(value)
    if not lists["requires"] and not lists["forbids"]:
        fields.bad("requires", "a fingerprint needs at least one required or forbidden feature")
    translations: dict[str, dict[str, str]] = {}
    table = data.get("translations", {})
    if not isinstance(table, dict):
        fields.bad("[translations]", "expected a table")
        table = {}
    for lang, entry in table.items():
        where = f"translations.{lang}"
        if lang not in LANGUAGES or lang == DEFAULT or not isinstance(entry, dict):
            fields.bad(f"[{where}]", "expected a table for a translated language")
            continue
        for key in sorted(set(entry) - {"title", "summary"}):
            fields.bad(fields.label(key, where), "unknown field")
        translations[lang] = {k: fields.text(entry, k, where) for k in ("title", "summary")}
    if len(problems) > before:
        return None
    return Approach(path.stem, exercise_id, path.parent, title, summary, precedence or 0, lists["requires"],
                    lists["forbids"], translations)


def match(approaches: list[Approach], features: set[str]) -> Approach | None:
    """The program's approach: the first (in precedence order) whose fingerprint matches, or None."""
    return next((a for a in approaches if a.matches(features)), None)
