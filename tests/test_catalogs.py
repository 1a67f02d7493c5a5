"""The gettext catalogs: every message the code can show is extracted, translated and compiled.

Babel's extractor silently skips a string inside an f-string or nested in another ``_()`` call, and such a string
then shows in English in the Chinese edition. So the test finds every literal handed to a translation function by
walking the AST itself and asks that each one reached the template.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

pytest.importorskip("babel")

from jittrainer.i18n import build  # noqa: E402

SRC = Path(build.PACKAGE_SRC)
FUNCTIONS = {"_": 0, "N_": 0, "ngettext": 0, "pgettext": 1, "msg": 1, "msgn": 1}


def literals_in_code() -> set[tuple[str, str]]:
    found = set()
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FUNCTIONS):
                continue
            index = FUNCTIONS[node.func.id]
            if len(node.args) > index and isinstance(node.args[index], ast.Constant) \
                    and isinstance(node.args[index].value, str):
                found.add((str(path.relative_to(SRC)), node.args[index].value))
    return found


def test_every_literal_given_to_a_translation_function_is_extracted():
    template = build.package_template()
    extracted = {m.id if isinstance(m.id, str) else m.id[0] for m in template if m.id}
    missed = sorted(f"{where}: {text!r}" for where, text in literals_in_code() if text not in extracted)
    assert not missed, "Babel did not extract these (f-string or nested call?):\n" + "\n".join(missed)


def test_catalogs_are_complete_translated_and_compiled():
    problems = build.run(Path(build.PACKAGE_SRC).parents[1] / "exercises", check=True, packs=build.repo_packs())
    assert not problems, "\n".join(problems) + "\n(run: make catalogs, then translate what is listed)"
