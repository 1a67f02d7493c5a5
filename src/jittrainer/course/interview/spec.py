"""The mock interview's plan file (``exercises/interview.toml``): its parts in order and their minutes, how long a
prepared candidate takes on each interview exercise (its size), which exercise follows up which, and the debugging
tasks. Read once per interview, checked field by field ("interview.toml: field: what is wrong"), never run.

A course without the file (a test course, a learner's ``--exercises`` folder) gets ``DEFAULT``: the same five
parts, every exercise of size ``DEFAULT_EXERCISE_MINUTES``, no pairs and no debugging tasks. An exercise takes
part in interviews when its manifest says ``interview = true``; the pairs and sizes here only name exercises, so an
exercise added later joins its pair as soon as it is in the course and marked.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from jittrainer.course.drills.model import LEVELS
from jittrainer.course.layout import ID_RE
from jittrainer.course.schema import Fields, read_toml
from jittrainer.i18n import N_, _

FILE = "interview.toml"
FORMAT_VERSION = 1
DEFAULT_MINUTES = 45.0
DEFAULT_EXERCISE_MINUTES = 10
# part id -> what it is: its kind (what the faces do in it) and its name
PARTS = {
    "warmup": ("cards", N_("Warm-up")),
    "coding": ("coding", N_("Coding exercise")),
    "debugging": ("debugging", N_("Debugging")),
    "rapid": ("cards", N_("Rapid questions")),
    "explain": ("explain", N_("Explain why")),
}
# what a face says comes next ("enter: on to the coding exercise")
NEXT = {
    "warmup": N_("the warm-up"),
    "coding": N_("the coding exercise"),
    "debugging": N_("the debugging task"),
    "rapid": N_("the rapid questions"),
    "explain": N_("the explain-why question"),
}


def part_title(part_id: str) -> str:
    return _(PARTS[part_id][1]) if part_id in PARTS else part_id


def next_words(part_id: str | None) -> str:
    """What comes after a part, in words: the next part, or the report."""
    return _(NEXT[part_id]) if part_id in NEXT else _("the report")


@dataclass(frozen=True)
class PartSpec:
    id: str
    minutes: float
    levels: tuple[tuple[str, float], ...] = ()  # cards: (level, share), asked in this order
    card_seconds: int | None = None  # cards: each card's countdown cut to this (rapid questions)

    @property
    def kind(self) -> str:
        return PARTS[self.id][0]


@dataclass(frozen=True)
class FollowUp:
    first: str  # an exercise id
    then: str  # the exercise asked after it, building on it
    notes: dict[str, str] = field(default_factory=dict, hash=False, compare=False)  # lang -> what it adds

    def note(self, lang: str) -> str:
        return self.notes.get(lang) or self.notes.get("en", "")


@dataclass(frozen=True)
class DebugTask:
    id: str
    cards: tuple[str, ...]  # card ids (prefix debug_), asked in order, all about one program
    core: str  # the card that asks why: the one asked when the part has time for a single question
    titles: dict[str, str] = field(default_factory=dict, hash=False, compare=False)

    def title(self, lang: str) -> str:
        return self.titles.get(lang) or self.titles.get("en", self.id)


@dataclass
class InterviewSpec:
    minutes: float = DEFAULT_MINUTES
    parts: list[PartSpec] = field(default_factory=list)
    exercise_minutes: int = DEFAULT_EXERCISE_MINUTES
    sizes: dict[str, int] = field(default_factory=dict)  # exercise id -> minutes, where not the default
    prefer_topics: tuple[str, ...] = ()  # the coding part draws pairs of these topics first
    follow_ups: list[FollowUp] = field(default_factory=list)
    debugging: list[DebugTask] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def size(self, exercise_id: str) -> int:
        """The minutes a prepared candidate needs for the exercise, statement to pass: its weight in the score."""
        return self.sizes.get(exercise_id, self.exercise_minutes)


DEFAULT_PARTS = [
    PartSpec("warmup", 5, (("easy", 0.6), ("medium", 0.4))),
    PartSpec("coding", 22),
    PartSpec("debugging", 8),
    PartSpec("rapid", 6, (("medium", 0.5), ("hard", 0.5)), 45),
    PartSpec("explain", 4),
]


def default_spec() -> InterviewSpec:
    return InterviewSpec(parts=list(DEFAULT_PARTS))


def load_spec(root: Path) -> InterviewSpec:
    """``root/interview.toml`` (``root``: the exercises folder), or ``default_spec()`` when there is none."""
    path = Path(root) / FILE
    if not path.is_file():
        return default_spec()
    problems: list[str] = []
    data = read_toml(path, FILE, problems)
    spec = InterviewSpec(problems=problems)
    if data is None:
        spec.parts = list(DEFAULT_PARTS)
        return spec
    fields = Fields(FILE, problems)
    fields.format_version(data, FORMAT_VERSION)
    spec.minutes = float(fields.seconds(data, "minutes", default=DEFAULT_MINUTES) or DEFAULT_MINUTES)
    spec.parts = _parts(fields, data.get("part"))
    coding = data.get("coding", {})
    if not isinstance(coding, dict):
        fields.bad("[coding]", "expected a table")
        coding = {}
    spec.exercise_minutes = fields.integer(coding, "minutes", "coding", default=DEFAULT_EXERCISE_MINUTES, low=1,
                                           high=60) or DEFAULT_EXERCISE_MINUTES
    spec.prefer_topics = tuple(fields.strings(coding, "prefer_topics", "coding", required=False, low=0) or ())
    sizes = coding.get("sizes", {})
    if not isinstance(sizes, dict):
        fields.bad("coding.sizes", "expected a table of exercise ids and minutes")
        sizes = {}
    for ex_id in sizes:
        minutes = fields.integer(sizes, ex_id, "coding.sizes", low=1, high=60)
        if not ID_RE.match(ex_id):
            fields.bad(f"coding.sizes.{ex_id}", "not an exercise id")
        elif minutes is not None:
            spec.sizes[ex_id] = minutes
    spec.follow_ups = _follow_ups(fields, data.get("follow_up", []))
    spec.debugging = _tasks(fields, data.get("debugging", []))
    return spec


def _parts(fields: Fields, entries: object) -> list[PartSpec]:
    if not isinstance(entries, list) or not entries:
        fields.bad("part", "expected [[part]] tables, one per part, in order")
        return list(DEFAULT_PARTS)
    parts: list[PartSpec] = []
    for i, entry in enumerate(entries):
        where = f"part[{i}]"
        if not isinstance(entry, dict):
            fields.bad(where, "expected a table")
            continue
        part_id = fields.choice(entry, "id", tuple(PARTS), where)
        minutes = fields.seconds(entry, "minutes", where)  # a positive number (of minutes here)
        if minutes is None:
            fields.bad(f"{where}.minutes", "missing")
        if part_id is None or minutes is None:
            continue
        if any(p.id == part_id for p in parts):
            fields.bad(where, f"the part {part_id!r} comes twice")
            continue
        levels: tuple[tuple[str, float], ...] = ()
        raw = entry.get("levels", {})
        if PARTS[part_id][0] == "cards":
            shares = raw.values() if isinstance(raw, dict) else ()
            if (not isinstance(raw, dict) or not raw or any(k not in LEVELS for k in raw)
                    or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0 for v in shares)):
                fields.bad(f"{where}.levels", f"expected a table of levels ({', '.join(LEVELS)}) and their shares")
            else:
                total = sum(raw.values())
                levels = tuple((k, float(v) / total) for k, v in raw.items())
        card_seconds = fields.integer(entry, "card_seconds", where, low=5, high=600)
        parts.append(PartSpec(part_id, minutes, levels, card_seconds))
    return parts


def _translated(fields: Fields, entry: dict, key: str, where: str) -> dict[str, str]:
    """``key`` in English and ``<lang>.key`` in each other language (``zh.note = "…"``)."""
    out = {"en": fields.text(entry, key, where)}
    for lang, table in entry.items():
        if isinstance(table, dict):
            text = fields.text(table, key, f"{where}.{lang}")
            if text:
                out[lang] = text
    return {k: " ".join(v.split()) for k, v in out.items() if v}


def _follow_ups(fields: Fields, entries: object) -> list[FollowUp]:
    if not isinstance(entries, list):
        fields.bad("follow_up", "expected [[follow_up]] tables")
        return []
    pairs: list[FollowUp] = []
    for i, entry in enumerate(entries):
        where = f"follow_up[{i}]"
        if not isinstance(entry, dict):
            fields.bad(where, "expected a table")
            continue
        first, then = fields.text(entry, "first", where), fields.text(entry, "then", where)
        if not (first and then):
            continue
        if not (ID_RE.match(first) and ID_RE.match(then)) or first == then:
            fields.bad(where, f"expected two different exercise ids, got {first!r} and {then!r}")
            continue
        pairs.append(FollowUp(first, then, _translated(fields, entry, "note", where)))
    return pairs


def _tasks(fields: Fields, entries: object) -> list[DebugTask]:
    if not isinstance(entries, list):
        fields.bad("debugging", "expected [[debugging]] tables")
        return []
    tasks: list[DebugTask] = []
    for i, entry in enumerate(entries):
        where = f"debugging[{i}]"
        if not isinstance(entry, dict):
            fields.bad(where, "expected a table")
            continue
        task_id = fields.text(entry, "id", where)
        cards = fields.strings(entry, "cards", where, low=1, high=4) or []
        core = fields.text(entry, "core", where)
        if bad := [c for c in cards if not c.startswith("debug_")]:
            fields.bad(f"{where}.cards", f"a debugging task's cards are named debug_…, got {', '.join(bad)}")
            continue
        if core and core not in cards:
            fields.bad(f"{where}.core", f"{core!r} is not one of the task's cards")
            continue
        if task_id and cards and core:
            tasks.append(DebugTask(task_id, tuple(cards), core, _translated(fields, entry, "title", where)))
    return tasks
