"""``jittrainer new``: a new exercise folder in a pack, every file in place and a ``TODO(author)`` wherever the
author has something to write.

The folder is a small working exercise (``f(x)`` returns ``2 * x``, checked for values and for a host callback),
so the author starts from files that load, grade and translate, and replaces them piece by piece; until no mark
is left, the exercise is unavailable and ``validate`` lists the marks instead of grading it. The templates live in
``course/templates/``; the manifest and ``pack.toml`` are written from their schemas (``course.manifest.KEYS``,
``course.packs.PACK_KEYS``), each key with its line of documentation.

A scaffold always goes into a pack (by default the learner's own, ``<home>/packs/mine``), never into the built-in
course: an unfinished exercise there would break the course's completeness tests. Its place is appended: the next
number after the pack's highest. Folder numbers only order; keys do not contain them, so renumbering folders by
hand later keeps progress and drafts.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from jittrainer.course.layout import FOLDER_RE, ID_RE, TODO_MARK, folder_name
from jittrainer.course.manifest import KEYS
from jittrainer.course.packs import FILE as PACK_FILE
from jittrainer.course.packs import PACK_KEYS, fallback_name
from jittrainer.course.scaffold_catalog import write_catalogs
from jittrainer.files import atomic_write_text
from jittrainer.i18n import _

TEMPLATES = Path(__file__).resolve().parent / "templates"
DEFAULT_PACK = "mine"
TITLE = f"{TODO_MARK}: the pitfall in a few words"
TITLE_ZH = f"{TODO_MARK}：用几个词说出这个陷阱"


class ScaffoldError(ValueError):
    pass


@dataclass(frozen=True)
class Scaffold:
    folder: Path
    number: int
    files: tuple[Path, ...]


def new_pack(folder: Path, name: str | None = None, title: str | None = None,
             languages: tuple[str, ...] = ("en", "zh"), titles: dict[str, str] | None = None) -> Path:
    """Write ``folder/pack.toml`` for a new pack (its name: ``name`` or the folder's); returns its path."""
    name = name or fallback_name(folder)
    values = {"name": name, "title": title or name.replace("_", " "),
              "languages": "[" + ", ".join(f'"{lang}"' for lang in languages) + "]"}
    lines = []
    for key in PACK_KEYS:
        if key.example:
            lines += [f"# {key.what}", f"{key.name} = {key.example.format(**values)}"]
    for lang, text in (titles or {}).items():
        lines += ["", f"[translations.{lang}]", f'title = "{text}"']
    path = Path(folder) / PACK_FILE
    atomic_write_text(path, "\n".join(lines) + "\n")
    return path


def next_number(pack_dir: Path) -> int:
    numbers = [int(m["number"]) for p in Path(pack_dir).iterdir() if (m := FOLDER_RE.match(p.name)) and p.is_dir()]
    return max(numbers, default=0) + 1


def manifest_text(exercise_id: str, topic: str, topic_todo: str, editions: tuple[str, ...]) -> str:
    """manifest.toml from ``KEYS``: each key under its comment; optional keys commented out with an example."""
    values = {"id": exercise_id, "title": TITLE, "topic": topic, "function": exercise_id, "title_zh": TITLE_ZH}
    out: list[str] = []
    table = ""
    for key in KEYS:
        if key.table.startswith("translations"):
            continue
        if key.table != table:
            table = key.table
            out += ["", f"[{table}]"]
        out.append(f"# {key.what}")
        if key.name == "topic" and topic_todo:
            out.append(f"# {topic_todo}")
        line = f"{key.name} = {key.example.format(**values)}"
        out.append(line if key.scaffold else f"# {line}")
    for lang in editions:
        out += ["", f"[translations.{lang}]", f"# {TODO_MARK}: the title in {lang}",
                f'title = "{TITLE_ZH if lang == "zh" else TITLE}"']
    return "\n".join(out).lstrip("\n") + "\n"


def _render(template: Path, exercise_id: str) -> str:
    text = template.read_text(encoding="utf-8")
    for token, value in (("{{ID}}", exercise_id), ("{{FUNCTION}}", exercise_id), ("{{TITLE}}", TITLE),
                         ("{{TITLE_ZH}}", TITLE_ZH)):
        text = text.replace(token, value)
    return text


def scaffold(pack_dir: Path, exercise_id: str, topic: str, *, topic_todo: str = "",
             editions: tuple[str, ...] = ("zh",)) -> Scaffold:
    """Write a new exercise folder ``<nn>_<id>`` at the end of the pack in ``pack_dir`` (which must exist)."""
    if not ID_RE.match(exercise_id):
        raise ScaffoldError(_("{id!r} is not an id: lower case letters, digits and _, starting with a letter").format(
            id=exercise_id))
    taken = [p.name for p in Path(pack_dir).iterdir() if (m := FOLDER_RE.match(p.name)) and m["id"] == exercise_id]
    if taken:
        raise ScaffoldError(_("{path} exists already").format(path=Path(pack_dir) / taken[0]))
    number = next_number(pack_dir)
    folder = Path(pack_dir) / folder_name(number, exercise_id)
    written = [folder / "manifest.toml"]
    atomic_write_text(written[0], manifest_text(exercise_id, topic, topic_todo, editions))
    for template in sorted(TEMPLATES.rglob("*.tmpl")):
        rel = template.relative_to(TEMPLATES).as_posix().removesuffix(".tmpl")
        lang = rel.split(".")[-2] if rel.count(".") >= 2 else ""
        if lang and lang not in editions:
            continue
        written.append(folder / rel)
        atomic_write_text(written[-1], _render(template, exercise_id))
    written += write_catalogs(folder, exercise_id, editions)
    return Scaffold(folder, number, tuple(written))
