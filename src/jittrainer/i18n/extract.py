"""Finding the messages an exercise's ``checks.py`` can show, without running it.

Used by ``jittrainer.i18n.build`` to keep the exercise's catalog (``locale/<lang>/LC_MESSAGES/messages.po``) in
step, and by ``jittrainer validate`` (no Babel needed) to check that it covers every message with the same
placeholders.

What counts as a message: ``msg("key", "template", ...)`` and ``msgn("key", "singular", "plural", ...)`` calls
(the authoring API), and the names in the ``CHECKS = {"id": "name", ...}`` dict (context ``check:<id>``).
"""

from __future__ import annotations

import ast
import string
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

MESSAGE_FUNCTIONS = {"msg": 1, "msgn": 2}  # function name -> how many template strings follow the key


@dataclass(frozen=True)
class Extracted:
    context: str
    text: str
    plural: str | None
    line: int


def _strings(args: list[ast.expr], n: int) -> list[str] | None:
    if len(args) < n or not all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in args[:n]):
        return None
    return [a.value for a in args[:n]]  # type: ignore[attr-defined]


def extract_source(source: str) -> Iterator[Extracted]:
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = node.func.id if isinstance(node.func, ast.Name) else (
                node.func.attr if isinstance(node.func, ast.Attribute) else None)
            if name in MESSAGE_FUNCTIONS:
                values = _strings(node.args, 1 + MESSAGE_FUNCTIONS[name])
                if values is not None:
                    yield Extracted(values[0], values[1], values[2] if len(values) > 2 else None, node.lineno)
        elif isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "CHECKS" for t in node.targets):
            if isinstance(node.value, ast.Dict):
                for key, value in zip(node.value.keys, node.value.values):
                    if (isinstance(key, ast.Constant) and isinstance(key.value, str)
                            and isinstance(value, ast.Constant) and isinstance(value.value, str)):
                        yield Extracted(f"check:{key.value}", value.value, None, value.lineno)


def extract_file(path: Path) -> list[Extracted]:
    return list(extract_source(Path(path).read_text(encoding="utf-8")))


def placeholders(template: str) -> set[str]:
    """The field names a template uses: ``"{n} of {total:.2f}"`` → ``{"n", "total"}``."""
    names = set()
    try:
        for _, name, _, _ in string.Formatter().parse(template):
            if name:
                names.add(name.split(".")[0].split("[")[0])
    except ValueError:
        names.add("<malformed template>")
    return names
