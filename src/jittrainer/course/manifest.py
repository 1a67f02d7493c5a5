"""``manifest.toml``, declared once: every key an exercise's manifest may hold, what it means, and how it is read.

The loader reads a manifest through ``read_manifest`` (a key this table does not know is a problem: a typo such as
``timout_s`` would otherwise be silently ignored), ``jittrainer new`` writes one from ``KEYS`` with each key's line
of documentation as a comment, and the authoring guide lists them (a test keeps it in step). A key added here is
read, scaffolded and documented at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from jittrainer.course.device_check import read as read_device_check
from jittrainer.course.layout import ID_RE
from jittrainer.course.schema import Fields
from jittrainer.course.versions import VersionRangeError, check_range

FORMAT_VERSION = 1
CALL_MODES = ("jit", "plain")
MAX_DEVICES = 16
MAX_PROCESSES = 4


@dataclass(frozen=True)
class Key:
    table: str  # "" for the top level, else the table's name ("grading", "timing")
    name: str
    kind: str  # how it is read: see _READERS
    required: bool
    attr: str  # the Exercise attribute it sets ("" when it sets none)
    what: str  # one line of documentation
    example: str  # a TOML value: what `jittrainer new` writes ({id}, {title}, ... filled in)
    scaffold: bool = True  # `jittrainer new` writes the key; False: writes it commented out, as an example

    @property
    def dotted(self) -> str:
        return f"{self.table}.{self.name}" if self.table else self.name


KEYS: tuple[Key, ...] = (
    Key("", "format_version", "format", True, "", f"the manifest format: {FORMAT_VERSION}", str(FORMAT_VERSION)),
    Key("", "id", "id", True, "", "the exercise's id, the same as its folder's name after the number", '"{id}"'),
    Key("", "title", "text", True, "title", "the pitfall in a few words, as the exercise list shows it", '"{title}"'),
    Key("", "topic", "text", True, "topic", "a topic id: the course's topics.toml, or the pack's own", '"{topic}"'),
    Key("", "interview", "bool", False, "interview", "short enough for the mock interview (default false)", "false"),
    Key("", "jax", "range", False, "jax_range", "the JAX versions the exercise is true on, e.g. \">=0.12\" "
        "(default: every version the course tests); on another JAX it shows as unavailable", '">=0.10.2"', False),
    Key("grading", "function", "name", True, "function", "the learner's function the grader calls", '"{function}"'),
    Key("grading", "call", "call", False, "call", "\"jit\": graded under jax.jit (the learner's own jit, else a "
        "plain jax.jit); \"plain\": called as plain Python, for exercises about driving jit, pmap or shard_map",
        '"jit"'),
    Key("grading", "targets", "checks", True, "targets", "the checks the starter must fail (validate proves it)",
        '["values"]'),
    Key("grading", "timeout_s", "seconds", False, "timeout_s", "the time limit of one grade in seconds (default 10)",
        "20", False),
    Key("grading", "devices", "devices", False, "devices", f"simulated device counts to grade with, one run each "
        f"(1 to {MAX_DEVICES}; default: the grader's count)", "[1, 4]", False),
    Key("grading", "processes", "processes", False, "processes", "how many worker processes grade the file in turn, "
        f"sharing a folder and handing on what they measured (1 to {MAX_PROCESSES}; default 1): for a lesson about what "
        "outlives a process, such as the persistent compilation cache", "2", False),
    Key("grading", "device", "device", False, "device_check", "a check only an accelerator decides: the "
        "executor runs the exported program on one of `platforms` with float32 `inputs` it makes itself and holds it "
        "to `max_error` against device_reference.py; elsewhere the exercise is unavailable",
        '{{ platforms = ["tpu"], check = "on_chip", inputs = [[512, 512], [512, 512]], max_error = 1e-4 }}', False),
    Key("timing", "eager", "bool", False, "timing_eager", "the Timing tab also measures the function run eagerly",
        "true", False),
    Key("timing", "starter", "bool", False, "timing_starter", "the Timing tab also measures the starter", "true",
        False),
    Key("translations.<lang>", "title", "title", False, "", "the title in another language, one table per "
        "language ([translations.zh])", '"{title_zh}"'),
)
TABLES = ("grading", "timing", "translations")


def _read_format(fields: Fields, table: dict, key: Key) -> Any:
    fields.format_version(table, FORMAT_VERSION)


def _read_id(fields: Fields, table: dict, key: Key) -> Any:
    value = fields.text(table, key.name)
    if value and not ID_RE.match(value):
        fields.bad(key.dotted, f"{value!r} is not an id (lower case letters, digits and _)")
    return value


def _read_range(fields: Fields, table: dict, key: Key) -> Any:
    if key.name not in table:
        return ""
    value = fields.text(table, key.name)
    try:
        check_range(value)
    except VersionRangeError as exc:
        fields.bad(key.dotted, str(exc))
        return ""
    return value


def _read_name(fields: Fields, table: dict, key: Key) -> Any:
    value = fields.text(table, key.name, key.table)
    if value and not value.isidentifier():
        fields.bad(key.dotted, f"{value!r} is not a Python name")
    return value


def _read_devices(fields: Fields, table: dict, key: Key) -> Any:
    devices = table.get(key.name)
    if devices is None:
        return ()
    if (not isinstance(devices, list) or not devices or len(set(devices)) != len(devices)
            or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= MAX_DEVICES for d in devices)):
        fields.bad(key.dotted, f"expected distinct device counts from 1 to {MAX_DEVICES}, got {devices!r}")
        return ()
    return tuple(devices)


def _read_processes(fields: Fields, table: dict, key: Key) -> Any:
    value = table.get(key.name, 1)
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_PROCESSES:
        fields.bad(key.dotted, f"expected a number of processes from 1 to {MAX_PROCESSES}, got {value!r}")
        return 1
    if value > 1 and len(table.get("devices") or ()) > 1:
        fields.bad(key.dotted, "an exercise graded in several processes is graded with one device count")
    return value


def _read_device(fields: Fields, table: dict, key: Key) -> Any:
    return read_device_check(table.get(key.name), fields.bad)


def _read_checks(fields: Fields, table: dict, key: Key) -> Any:
    value = fields.strings(table, key.name, key.table)
    return tuple(value) if value is not None else ()


_READERS = {
    "format": _read_format,
    "id": _read_id,
    "range": _read_range,
    "name": _read_name,
    "devices": _read_devices,
    "processes": _read_processes,
    "checks": _read_checks,
    "device": _read_device,
    "text": lambda fields, table, key: fields.text(table, key.name, key.table, required=key.required),
    "bool": lambda fields, table, key: fields.boolean(table, key.name, key.table),
    "seconds": lambda fields, table, key: fields.seconds(table, key.name, key.table),
    "call": lambda fields, table, key: fields.choice(table, key.name, CALL_MODES, key.table, default="jit") or "jit",
}


def read_manifest(data: dict, fields: Fields) -> tuple[dict[str, Any], dict[str, str]]:
    """The manifest's values by Exercise attribute (plus "id"), and its translated titles; every problem lands in
    ``fields.problems``."""
    values: dict[str, Any] = {}
    for name in data:
        if name not in {k.name for k in KEYS if not k.table} | set(TABLES):
            fields.bad(name, "not a manifest key (known: see docs/authoring.md)")
    tables: dict[str, dict | None] = {"": data}
    for table in ("grading", "timing"):
        found = fields.table(data, table, required=any(k.required for k in KEYS if k.table == table))
        tables[table] = found
        known = {k.name for k in KEYS if k.table == table}
        for name in found or {}:
            if name not in known:
                fields.bad(f"{table}.{name}", "not a manifest key (known: see docs/authoring.md)")
    for key in KEYS:
        table = tables.get(key.table)
        if table is None and key.table == "grading":
            continue  # a missing [grading] table is one problem, not one per key
        if key.table in tables:
            values[key.attr or key.name] = _READERS[key.kind](fields, table or {}, key)
    return values, _titles(data, fields)


def _titles(data: dict, fields: Fields) -> dict[str, str]:
    titles: dict[str, str] = {}
    translations = data.get("translations", {})
    if not isinstance(translations, dict):
        fields.bad("[translations]", "expected a table such as [translations.zh]")
        return titles
    for lang, table in translations.items():
        if isinstance(table, dict) and isinstance(table.get("title"), str) and table["title"].strip():
            titles[str(lang)] = table["title"].strip()
        else:
            fields.bad(f"translations.{lang}.title", "expected a non-empty string")
    return titles
