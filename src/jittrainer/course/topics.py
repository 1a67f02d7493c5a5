"""The course's topics (``exercises/topics.toml``): one list, in course order, for exercises and drill cards."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from jittrainer.course.schema import Fields, read_toml

FORMAT_VERSION = 1
ID_RE = re.compile(r"^[a-z][a-z0-9_]*$")
FILE = "topics.toml"


@dataclass(frozen=True)
class Topic:
    id: str
    title: str
    titles: dict[str, str] = field(default_factory=dict, hash=False, compare=False)

    def title_in(self, lang: str) -> str:
        return self.titles.get(lang) or self.title


def load_topics(root: Path, problems: list[str]) -> dict[str, Topic]:
    """The topics under ``root`` (the exercises folder), in file order; problems are appended, never raised."""
    name = f"{Path(root).name}/{FILE}"
    data = read_toml(Path(root) / FILE, name, problems)
    if data is None:
        return {}
    fields = Fields(name, problems)
    fields.format_version(data, FORMAT_VERSION)
    table = fields.table(data, "topics")
    topics: dict[str, Topic] = {}
    for topic_id, entry in (table or {}).items():
        where = f"topics.{topic_id}"
        if not ID_RE.match(topic_id):
            fields.bad(where, "not a valid id (lower case letters, digits and _)")
            continue
        if not isinstance(entry, dict):
            fields.bad(where, "expected a table")
            continue
        title = fields.text(entry, "title", where)
        if not title:
            continue
        titles = {}
        for lang, t in (entry.get("translations") or {}).items():
            if isinstance(t, dict) and isinstance(t.get("title"), str) and t["title"].strip():
                titles[str(lang)] = t["title"].strip()
            else:
                fields.bad(f"{where}.translations.{lang}.title", "expected a non-empty string")
        topics[topic_id] = Topic(topic_id, title.strip(), titles)
    return topics
