"""The learner's settings in ``$JITTRAINER_HOME/config.toml``: the app's look, the language, the advice rule and a
``[keymap]``. Read by both faces (the CLI uses the language and the advice rule).

The file is the learner's too (they may add a keymap and comments by hand), so a change made in the app edits only
its own line and leaves every other line as it was, instead of rewriting the file from a dict.

    [app]
    theme = "textual-dark"
    live_grading = false
    language = "zh"     # en | zh; else JITTRAINER_LANG or the locale decides
    soft_wrap = false

    [grading]
    advice_after = 3    # explicit runs failing the same check before its advice shows
    device = "cpu"      # cpu | auto | tpu: where the steady-state timing runs (--device overrides it)

    [keymap]            # binding id = keys (see F1 in the app for the ids)
    run = "f9,ctrl+r"

    [course]
    packs = ["~/jax-packs/vmap_under_jit"]   # pack folders to load beside the course (relative: to this file)
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from jittrainer import paths
from jittrainer.files import atomic_write_text

APP_TABLE = "app"
DEFAULT_THEME = "textual-dark"
LIGHT_THEME = "textual-light"

_HEADER = re.compile(r"^\s*\[\s*([^\[\]]+?)\s*\]\s*(#.*)?$")


DEFAULT_ADVICE_AFTER = 3
DEVICE_MODES = ("cpu", "auto", "tpu")  # grading.host.device.MODES, without importing the grading host here


@dataclass
class Settings:
    theme: str = DEFAULT_THEME
    live_grading: bool = False
    language: str | None = None  # None: not set here (the environment or the locale decides)
    soft_wrap: bool = False
    advice_after: int = DEFAULT_ADVICE_AFTER
    device: str = "cpu"  # [grading] device: cpu | auto | tpu
    keymap: dict[str, str] = field(default_factory=dict)
    packs: list[Path] = field(default_factory=list)  # [course] packs: pack folders to load beside the course
    problems: list[str] = field(default_factory=list)  # told to the learner once at start


def _flatten(table: dict, prefix: str = "") -> dict[str, object]:
    # `run.fast = "f9"` in TOML is a nested table; a binding id with a dot should still work.
    flat: dict[str, object] = {}
    for key, value in table.items():
        name = f"{prefix}.{key}" if prefix else str(key)
        if isinstance(value, dict):
            flat.update(_flatten(value, name))
        else:
            flat[name] = value
    return flat


def load_settings(path: Path | None = None) -> Settings:
    path = Path(path) if path else paths.config_path()
    settings = Settings()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return settings
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        settings.problems.append(f"{path}: could not be read ({exc}); using the default settings")
        return settings
    app = data.get(APP_TABLE, {})
    if not isinstance(app, dict):
        settings.problems.append(f"{path}: [{APP_TABLE}] should be a table")
        app = {}
    theme = app.get("theme", DEFAULT_THEME)
    if isinstance(theme, str) and theme.strip():
        settings.theme = theme.strip()
    else:
        settings.problems.append(f"{path}: app.theme should be a theme name, got {theme!r}")
    live = app.get("live_grading", False)
    if isinstance(live, bool):
        settings.live_grading = live
    else:
        settings.problems.append(f"{path}: app.live_grading should be true or false, got {live!r}")
    language = app.get("language")
    if language is not None:
        from jittrainer.i18n import normalize

        if normalize(language) is None:
            settings.problems.append(f"{path}: app.language should be \"en\" or \"zh\", got {language!r}")
        else:
            settings.language = normalize(language)
    wrap = app.get("soft_wrap", False)
    if isinstance(wrap, bool):
        settings.soft_wrap = wrap
    else:
        settings.problems.append(f"{path}: app.soft_wrap should be true or false, got {wrap!r}")
    grading = data.get("grading", {})
    after = grading.get("advice_after", DEFAULT_ADVICE_AFTER) if isinstance(grading, dict) else None
    if isinstance(after, int) and not isinstance(after, bool) and after >= 1:
        settings.advice_after = after
    else:
        settings.problems.append(f"{path}: grading.advice_after should be a whole number ≥ 1, got {after!r}")
    device = grading.get("device", "cpu") if isinstance(grading, dict) else "cpu"
    if device in DEVICE_MODES:
        settings.device = device
    else:
        settings.problems.append(f"{path}: grading.device should be one of {', '.join(DEVICE_MODES)}, got {device!r}")
    _read_packs(data.get("course", {}), path, settings)
    keymap = data.get("keymap", {})
    if not isinstance(keymap, dict):
        settings.problems.append(f"{path}: [keymap] should be a table of binding id = \"keys\"")
        keymap = {}
    for binding_id, keys in _flatten(keymap).items():
        if isinstance(keys, str) and keys.strip():
            settings.keymap[binding_id] = keys.replace(" ", "")
        else:
            settings.problems.append(f"{path}: keymap.{binding_id} should be a string of keys like \"f9,ctrl+r\"")
    return settings


def _read_packs(course: object, path: Path, settings: Settings) -> None:
    packs = course.get("packs", []) if isinstance(course, dict) else None
    if not isinstance(packs, list) or not all(isinstance(p, str) and p.strip() for p in packs):
        settings.problems.append(f"{path}: course.packs should be a list of pack folders, got {packs!r}")
        return
    settings.packs = [path.parent / Path(p).expanduser() for p in packs]  # an absolute path stays as it is


def _literal(value: str | bool) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def set_toml_value(text: str, table: str, key: str, value: str | bool) -> str:
    """``text`` with ``table.key = value`` set, every other line untouched. Raises ValueError if the result would
    not read back as that value (a file too unusual for this line editor)."""
    rendered = f"{key} = {_literal(value)}"
    lines = text.splitlines()
    key_re = re.compile(rf"^\s*{re.escape(key)}\s*=")
    start = end = None
    replaced = False
    for i, line in enumerate(lines):
        header = _HEADER.match(line)
        if header:
            if start is not None:
                end = i
                break
            if header.group(1).strip() == table:
                start = i
            continue
        if start is not None and key_re.match(line):
            lines[i] = rendered
            replaced = True
            break
    if not replaced:
        if start is None:
            if lines and lines[-1].strip():
                lines.append("")
            lines += [f"[{table}]", rendered]
        else:
            at = len(lines) if end is None else end
            while at > start + 1 and not lines[at - 1].strip():
                at -= 1  # keep the blank lines that separate this table from the next one
            lines.insert(at, rendered)
    result = "\n".join(lines) + "\n"
    try:
        reread = tomllib.loads(result)
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"the edited file would not be valid TOML: {exc}") from None
    if reread.get(table, {}).get(key) != value:
        raise ValueError(f"could not set {table}.{key} in this file")
    return result


def save_setting(key: str, value: str | bool, path: Path | None = None, table: str = APP_TABLE) -> None:
    """Set ``[table] key = value`` in the config file (atomic write). Raises OSError or ValueError."""
    path = Path(path) if path else paths.config_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        text = ""
    if text.strip():
        tomllib.loads(text)  # never rewrite a file we cannot read: the learner's hand edits come first
    atomic_write_text(path, set_toml_value(text, table, key, value))
