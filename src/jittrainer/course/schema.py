"""Reading a course TOML file field by field, collecting "file: field: what is wrong" instead of raising.

Exercise manifests and drill cards share these rules, so a broken field reads the same wherever it is, and a
malformed file still loads (as something unavailable that names its problems) without hiding the others.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

_MISSING = object()


class Fields:
    """Validates the fields of one TOML file; every problem lands in ``problems`` as "file: field: message"."""

    def __init__(self, name: str, problems: list[str]) -> None:
        self.name = name  # how the file is named in problems: "01_black_box_print/manifest.toml"
        self.problems = problems

    def bad(self, label: str, message: str) -> None:
        self.problems.append(f"{self.name}: {label}: {message}")

    @staticmethod
    def label(key: str, where: str = "") -> str:
        return f"{where}.{key}" if where else key

    def text(self, table: dict, key: str, where: str = "", *, required: bool = True, default: str = "") -> str:
        """A non-empty string."""
        label = self.label(key, where)
        if key not in table:
            if required:
                self.bad(label, "missing")
            return default
        value = table[key]
        if not isinstance(value, str) or not value.strip():
            self.bad(label, f"expected a non-empty string, got {value!r}")
            return default
        return value

    def choice(self, table: dict, key: str, options: tuple[str, ...], where: str = "", *, default: str | None = None) -> str | None:
        label = self.label(key, where)
        value = table.get(key, default if default is not None else _MISSING)
        if value is _MISSING:
            self.bad(label, "missing")
            return None
        if value not in options:
            self.bad(label, f"expected one of {', '.join(options)}, got {value!r}")
            return None
        return value

    def boolean(self, table: dict, key: str, where: str = "", *, default: bool = False) -> bool:
        value = table.get(key, default)
        if not isinstance(value, bool):
            self.bad(self.label(key, where), f"expected true or false, got {value!r}")
            return default
        return value

    def integer(self, table: dict, key: str, where: str = "", *, default: int | None = None, low: int | None = None,
                high: int | None = None, required: bool = False) -> int | None:
        label = self.label(key, where)
        if key not in table:
            if required:
                self.bad(label, "missing")
            return default
        value = table[key]
        ok = isinstance(value, int) and not isinstance(value, bool)
        ok = ok and (low is None or value >= low) and (high is None or value <= high)
        if not ok:
            span = f" from {low} to {high}" if low is not None and high is not None else (
                f" ≥ {low}" if low is not None else "")
            self.bad(label, f"expected a whole number{span}, got {value!r}")
            return default
        return value

    def seconds(self, table: dict, key: str, where: str = "", *, default: float | None = None) -> float | None:
        """A positive number of seconds."""
        if key not in table:
            return default
        value = table[key]
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
            self.bad(self.label(key, where), f"expected a positive number of seconds, got {value!r}")
            return default
        return float(value)

    def strings(self, table: dict, key: str, where: str = "", *, required: bool = True, low: int = 1,
                high: int | None = None) -> list[str] | None:
        """A list of ``low``..``high`` non-empty strings."""
        label = self.label(key, where)
        if key not in table:
            if required:
                self.bad(label, "missing")
            return None
        value = table[key]
        if (not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value)
                or len(value) < low or (high is not None and len(value) > high)):
            span = f"{low} to {high}" if high is not None else f"at least {low}"
            self.bad(label, f"expected {span} non-empty strings, got {value!r}")
            return None
        return value

    def table(self, data: dict, key: str, *, required: bool = True) -> dict | None:
        if key not in data:
            if required:
                self.bad(f"[{key}]", "missing table")
            return None
        value = data[key]
        if not isinstance(value, dict):
            self.bad(f"[{key}]", "expected a table")
            return None
        return value

    def format_version(self, data: dict, expected: int) -> None:
        version = data.get("format_version", _MISSING)
        if version is _MISSING:
            self.bad("format_version", "missing")
        elif isinstance(version, bool) or version != expected:
            self.bad("format_version", f"this jittrainer reads version {expected}, got {version!r}")


def read_toml(path: Path, name: str, problems: list[str]) -> dict[str, Any] | None:
    """The file's data, or None with "name: file is missing" / "name: not valid TOML: …" in ``problems``."""
    try:
        return tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        problems.append(f"{name}: file is missing")
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        problems.append(f"{name}: not valid TOML: {exc}")
    except OSError as exc:
        problems.append(f"{name}: cannot be read: {exc}")
    return None
