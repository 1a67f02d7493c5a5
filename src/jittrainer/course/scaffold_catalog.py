"""The catalog of a new exercise's checks.py in each edition, written by ``jittrainer new`` with the folder: the
scaffold's messages come translated, so the new exercise loads, grades and speaks Chinese before its author has
changed anything. Written without Babel (``i18n.catalog_files``), so it is there wherever jittrainer runs; once the
author changes checks.py's messages, ``python -m jittrainer.i18n.build --pack DIR`` (the dev extra) merges them in.
"""

from __future__ import annotations

from pathlib import Path

from jittrainer.i18n.catalog_files import Entry, write_catalog
from jittrainer.i18n.catalogs import EXERCISE_FILE_DOMAIN
from jittrainer.i18n.extract import extract_file

# By message key (msgctxt) and language: the translation of course/templates/checks.py.tmpl's messages, where
# {{FUNCTION}} is the new exercise's function. Keep in step with the template (tests/test_packs.py scaffolds one).
TRANSLATIONS: dict[str, dict[str, str]] = {
    "zh": {
        "check:runs": "{{FUNCTION}} 在 jax.jit 下运行",
        "check:values": "返回 2 * x",
        "check:in_program": "结果在编译好的程序里计算",
        "what.result": "第 {call} 次调用的结果",
        "advice.values": "返回 2 * x",
        "values.ok": "{calls}都返回了 2 * x",
        "in_program.callback": "结果来自 {callbacks}：Python 在主机上把它算了出来，编译好的程序只是把它取了回来",
        "advice.in_program": "直接在 x 上用 jax.numpy 计算结果，不要用回调",
    },
}


def write_catalogs(folder: Path, exercise_id: str, editions: tuple[str, ...]) -> list[Path]:
    """``locale/<lang>/LC_MESSAGES/messages.po`` and ``.mo`` for each edition; returns the .po files written."""
    found = extract_file(folder / "checks.py")
    written = []
    for lang in editions:
        known = TRANSLATIONS.get(lang, {})
        entries = [Entry(item.context, item.text, known.get(item.context, "").replace("{{FUNCTION}}", exercise_id),
                         item.plural) for item in found]
        written.append(write_catalog(folder / "locale", lang, EXERCISE_FILE_DOMAIN, entries, exercise_id))
    return written
