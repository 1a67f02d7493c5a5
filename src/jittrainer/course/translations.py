"""Is an exercise (or a drill card) complete in every edition? What ``jittrainer validate`` checks for the shipped
course: every text has its Chinese version, the code in it is the code of the English one, and every message the
checks can show is translated with the same placeholders.
"""

from __future__ import annotations

import ast
import re
from collections import Counter

from jittrainer.course.exercises import TEXT_FILES, Exercise
from jittrainer.i18n.catalogs import register_exercise, translations
from jittrainer.i18n.extract import extract_file, placeholders

EDITIONS = ("zh",)  # the languages every shipped exercise and card must have besides English (a pack: its own)
FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.MULTILINE | re.DOTALL)


def code_blocks(markdown: str) -> Counter[str]:
    return Counter(block.strip() for block in FENCE.findall(markdown))


def same_code(a: str, b: str) -> bool:
    """Two Python files with the same code, whatever their comments say."""
    try:
        return ast.dump(ast.parse(a)) == ast.dump(ast.parse(b))
    except SyntaxError:
        return False


def check_exercise_languages(ex: Exercise) -> list[str]:
    problems: list[str] = []
    folder = ex.dir.name
    for lang in ex.editions:
        if lang not in ex.titles:
            problems.append(f"{folder}/manifest.toml: [translations.{lang}] title: missing")
        for name in TEXT_FILES:
            path = ex.dir / f"{name}.{lang}.md"
            if not path.is_file():
                problems.append(f"{folder}/{path.name}: missing (every exercise ships in {lang} too)")
                continue
            english, translated = ex.text(name), path.read_text(encoding="utf-8")
            if code_blocks(english) != code_blocks(translated):
                problems.append(f"{folder}/{path.name}: its code blocks differ from {name}.md's (code is not translated)")
            if name == "hints" and len(ex.hints(lang)) != len(ex.hints()):
                problems.append(f"{folder}/{path.name}: {len(ex.hints(lang))} hint tiers, {name}.md has {len(ex.hints())}")
        starter = ex.dir / f"starter.{lang}.py"
        if not starter.is_file():
            problems.append(f"{folder}/{starter.name}: missing (the starter with {lang} comments)")
        elif not same_code(ex.starter_path.read_text(encoding="utf-8"), starter.read_text(encoding="utf-8")):
            problems.append(f"{folder}/{starter.name}: its code differs from starter.py (only comments may differ)")
        problems += check_messages(ex, lang)
    return problems


def check_messages(ex: Exercise, lang: str) -> list[str]:
    """Every message of checks.py translated in ``locale/<lang>/LC_MESSAGES/messages.mo``, same placeholders."""
    folder = ex.dir.name
    try:
        found = extract_file(ex.checks_path)
    except (OSError, SyntaxError, UnicodeDecodeError) as exc:
        return [f"{folder}/checks.py: cannot be read for its messages: {exc}"]
    if not found:
        return []
    mo = ex.locale_dir / lang / "LC_MESSAGES" / "messages.mo"
    if not mo.is_file():
        return [f"{folder}/locale/{lang}/LC_MESSAGES/messages.mo: missing ({len(found)} messages to translate)"]
    catalog = translations(register_exercise(ex.id, ex.dir), lang)
    problems = []
    for item in found:
        forms = [catalog.pgettext(item.context, item.text)] if item.plural is None else [
            catalog.npgettext(item.context, item.text, item.plural, n) for n in (1, 2)]
        if any(form in (item.text, item.plural) for form in forms):
            problems.append(f"{folder}/checks.py:{item.line}: message {item.context!r} has no {lang} translation")
            continue
        want = placeholders(item.text) | placeholders(item.plural or "")
        for form in forms:
            if placeholders(form) != want:
                problems.append(f"{folder}/locale/{lang}: message {item.context!r} uses {sorted(placeholders(form))}, "
                                f"the English uses {sorted(want)}")
                break
    return problems
