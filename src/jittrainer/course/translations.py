"""Is an exercise (or a drill card) complete in every edition? What ``jittrainer validate`` checks for the shipped
course: every text has its Chinese version, the code in it is the code of the English one, and every message the
checks can show is translated with the same placeholders.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from jittrainer.course.code_compare import PYTHON, fenced_blocks, same_code
from jittrainer.course.exercises import TEXT_FILES, Exercise
from jittrainer.i18n import _
from jittrainer.i18n.catalogs import register_exercise, translations
from jittrainer.i18n.extract import extract_file, placeholders

EDITIONS = ("zh",)  # the languages every shipped exercise and card must have besides English (a pack: its own)


def block_difference(english: str, translated: str) -> str:
    """'' when both texts hold the same code blocks (code_compare's rule), else what differs, in a few words."""
    theirs, ours = fenced_blocks(english), fenced_blocks(translated)
    left = Counter(block.key for block in theirs)
    for block in ours:
        if left[block.key] > 0:
            left[block.key] -= 1
            continue
        first = block.text.strip().splitlines()[0][:60] if block.text.strip() else ""
        fence = f"```{block.lang}" if block.lang else _("a bare ``` fence")
        what = (_("its code differs (only comments and docstrings may be translated)") if block.lang in PYTHON
                else _("it is program output, compared as written (prose goes outside the fence)"))
        return _("the block at line {line} ({fence}, {first}) is not in the English: {what}").format(
            line=block.line, fence=fence, first=repr(first), what=what)
    missing = sum(left.values())
    return _("{n} of the English blocks missing").format(n=missing) if missing else ""


def check_exercise_languages(ex: Exercise) -> list[str]:
    problems: list[str] = []
    folder = ex.dir.name
    for lang in ex.editions:
        if lang not in ex.titles:
            problems.append(_("{folder}/manifest.toml: [translations.{lang}] title: missing").format(folder=folder,
                                                                                                    lang=lang))
        for name in TEXT_FILES:
            path = ex.dir / f"{name}.{lang}.md"
            if not path.is_file():
                problems.append(_("{folder}/{file}: missing (every exercise ships in {lang} too)").format(
                    folder=folder, file=path.name, lang=lang))
                continue
            english, translated = ex.text(name), path.read_text(encoding="utf-8")
            difference = block_difference(english, translated)
            if difference:
                problems.append(_("{folder}/{file}: its code blocks differ from {english}'s: {difference}").format(
                    folder=folder, file=path.name, english=f"{name}.md", difference=difference))
            if name == "hints" and len(ex.hints(lang)) != len(ex.hints()):
                problems.append(_("{folder}/{file}: {n} hint tiers, {english} has {m}").format(
                    folder=folder, file=path.name, n=len(ex.hints(lang)), english=f"{name}.md", m=len(ex.hints())))
        for english in (ex.starter_path, ex.solution_path):
            problems += _check_code_edition(folder, english, english.with_name(f"{english.stem}.{lang}.py"), lang)
        problems += check_messages(ex, lang)
    return problems


def _check_code_edition(folder: str, english: Path, edition: Path, lang: str) -> list[str]:
    """``starter.<lang>.py`` and ``solution.<lang>.py``: there, and the same code as the English file (comments and
    docstrings aside: the learner reads both in the editor, the Why tab and "show solution")."""
    if not edition.is_file():
        return [_("{folder}/{file}: missing (the {english} with {lang} comments)").format(
            folder=folder, file=edition.name, english=english.name, lang=lang)]
    if not same_code(english.read_text(encoding="utf-8"), edition.read_text(encoding="utf-8")):
        return [_("{folder}/{file}: its code differs from {english} (only comments and docstrings may differ)").format(
            folder=folder, file=edition.name, english=english.name)]
    return []


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
