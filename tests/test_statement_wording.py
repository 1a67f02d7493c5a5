"""A statement names the check a wrong fix fails as a check, not as a bold label pasted into the sentence: "…fails
**Computed under jit**: the work…" read as broken English (issue 37, item 7). Every statement, new ones included."""

from __future__ import annotations

import re

from helpers import REPO

PASTED = {"en": re.compile(r"\bfails\s+\*\*[^*\n]+\*\*\s*:"), "zh": re.compile(r"过不了\s*\*\*[^*\n]+\*\*\s*：")}


def statements() -> list:
    return sorted([*REPO.glob("exercises/*/statement*.md"), *REPO.glob("packs/*/*/statement*.md"),
                   *REPO.glob("src/jittrainer/course/templates/statement*.md.tmpl")])


def test_no_statement_pastes_a_check_label_into_a_sentence():
    found = []
    for path in statements():
        text = path.read_text(encoding="utf-8")
        pattern = PASTED["zh" if ".zh." in path.name else "en"]
        found += [f"{path.relative_to(REPO)}: {m.group(0)!r}" for m in pattern.finditer(text)]
    assert len(statements()) >= 66
    assert not found, "\n".join(found)


def test_the_check_sees_a_pasted_label():
    assert PASTED["en"].search("whose result is used) fails\n  **Values**: the work it hands")
    assert PASTED["zh"].search("io_callback`）过不了 **数值**：它交给 Python 的工作")
    assert not PASTED["en"].search("fails\n  the **Values** check: the work")
