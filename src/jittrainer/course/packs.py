"""Packs: exercises from outside the built-in course, each a folder with ``pack.toml`` and exercise folders.

    my_pack/
      pack.toml          format_version, name, title, version, jax_validated, languages, [translations.<lang>]
      topics.toml        optional: topics of its own, in the course's format (else it uses the course's topics)
      01_<id>/ ...       exercise folders, exactly as in the course (course.layout, course.manifest)

A pack's exercises are keyed ``<name>:<id>`` (progress, drafts under ``workspace/<name>/``, gettext domains), so
no pack can clash with the course or another pack; two packs may not share a name. Where packs come from (the
learner's ``packs/`` folder, the config's ``[course] packs``, ``--pack DIR``) is the session's business: this
module reads one folder.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from jittrainer.course.exercises import Exercise, load_exercises
from jittrainer.course.layout import ID_RE
from jittrainer.course.schema import Fields, read_toml
from jittrainer.course.topics import Topic, load_topics
from jittrainer.course.versions import parse
from jittrainer.i18n import DEFAULT, LANGUAGES

FILE = "pack.toml"
FORMAT_VERSION = 1


@dataclass(frozen=True)
class PackKey:
    name: str
    required: bool
    what: str  # one line of documentation (the authoring guide lists these; a test keeps it in step)
    example: str  # the TOML value `jittrainer new` writes in a new pack


PACK_KEYS: tuple[PackKey, ...] = (
    PackKey("format_version", True, f"the pack format: {FORMAT_VERSION}", str(FORMAT_VERSION)),
    PackKey("name", True, "the pack's id (lower_snake_case): its exercises are keyed <name>:<id>", '"{name}"'),
    PackKey("title", True, "the pack's title, as the exercise list shows it", '"{title}"'),
    PackKey("version", True, "the pack's own version, e.g. \"1.0.0\"", '"0.1.0"'),
    PackKey("jax_validated", True, "the JAX releases `jittrainer validate --pack` passed on, e.g. [\"0.10.2\"]",
            "[]"),
    PackKey("languages", True, "the editions every exercise ships: \"en\" and any of " + ", ".join(
        lang for lang in LANGUAGES if lang != DEFAULT) + "; validate requires each", "{languages}"),
    PackKey("translations", False, "[translations.<lang>] title: the title in another language", ""),
)


@dataclass
class Pack:
    name: str
    dir: Path
    title: str = ""
    titles: dict[str, str] = field(default_factory=dict)
    version: str = ""
    jax_validated: tuple[str, ...] = ()
    languages: tuple[str, ...] = (DEFAULT,)
    topics: dict[str, Topic] = field(default_factory=dict)
    exercises: list[Exercise] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # pack.toml's and topics.toml's: every exercise unavailable

    @property
    def editions(self) -> tuple[str, ...]:
        return tuple(lang for lang in self.languages if lang != DEFAULT)

    def title_in(self, lang: str) -> str:
        return self.titles.get(lang) or self.title or self.name

    def validated_on(self, version: str) -> bool:
        """Whether ``version`` of JAX is one the pack lists (0.12 covers every 0.12.x)."""
        have = parse(version)
        return any(have[: len(parse(v))] == parse(v) for v in self.jax_validated if parse(v))


def fallback_name(folder: Path) -> str:
    """A name for a pack whose pack.toml gives none: its folder's, made an id."""
    name = "".join(ch if ch.isalnum() else "_" for ch in folder.name.lower()).strip("_") or "pack"
    return name if name[0].isalpha() else f"pack_{name}"


def load_pack(folder: Path) -> Pack:
    """The pack in ``folder``, its problems collected; a pack with problems keeps its exercises, each unavailable
    naming the pack's first problem."""
    folder = Path(folder).expanduser().resolve()
    pack = Pack(fallback_name(folder), folder)
    label = f"{folder.name}/{FILE}"
    data = read_toml(folder / FILE, label, pack.problems)
    if data is not None:
        _read(pack, data, Fields(label, pack.problems))
    if (folder / "topics.toml").is_file():
        pack.topics = load_topics(folder, pack.problems)
    pack.exercises = load_exercises(folder, pack.name, pack.editions)
    for ex in pack.exercises:
        if pack.problems:
            ex.problems.append(pack.problems[0])
    return pack


def _read(pack: Pack, data: dict, fields: Fields) -> None:
    known = {key.name for key in PACK_KEYS}
    for name in data:
        if name not in known:
            fields.bad(name, "not a pack.toml key (known: " + ", ".join(sorted(known)) + ")")
    fields.format_version(data, FORMAT_VERSION)
    name = fields.text(data, "name")
    if name and not ID_RE.match(name):
        fields.bad("name", f"{name!r} is not an id (lower case letters, digits and _)")
    elif name:
        pack.name = name
    pack.title = fields.text(data, "title") or pack.name
    pack.version = fields.text(data, "version")
    validated = fields.strings(data, "jax_validated", low=0)
    if validated is not None:
        bad = [v for v in validated if not parse(v)]
        if bad:
            fields.bad("jax_validated", f"not JAX versions: {', '.join(bad)}")
        pack.jax_validated = tuple(validated)
    languages = fields.strings(data, "languages")
    if languages is not None:
        unknown = [lang for lang in languages if lang not in LANGUAGES]
        if unknown or DEFAULT not in languages:
            fields.bad("languages", f"expected {DEFAULT!r} and any of {', '.join(LANGUAGES)}, got {languages!r}")
        else:
            pack.languages = tuple(dict.fromkeys(languages))
    translations = data.get("translations", {})
    if not isinstance(translations, dict):
        fields.bad("[translations]", "expected a table such as [translations.zh]")
        return
    for lang, table in translations.items():
        if isinstance(table, dict) and isinstance(table.get("title"), str) and table["title"].strip():
            pack.titles[str(lang)] = table["title"].strip()
        else:
            fields.bad(f"translations.{lang}.title", "expected a non-empty string")
