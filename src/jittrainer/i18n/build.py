"""Keep the gettext catalogs in step with the code: ``make catalogs`` (``python -m jittrainer.i18n.build``).

For the package (``src/jittrainer``) and for every exercise folder it extracts the messages (Babel's Python
extractor for ``_``/``ngettext``/``pgettext``/``msg``/``msgn``; the exercises' ``checks.py`` through
``jittrainer.i18n.extract``), merges them into each language's ``.po`` (new entries untranslated, changed ones
marked fuzzy), and compiles the ``.mo`` files, which are committed so a fresh clone and a wheel have them.
``--check`` changes nothing and lists what is missing, fuzzy or stale (the test suite runs it).

Needs Babel (a development dependency); running jittrainer does not.
"""

from __future__ import annotations

import argparse
import datetime as dt
import io
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po, write_po

from jittrainer.i18n import LANGUAGES
from jittrainer.i18n.catalogs import PACKAGE_LOCALE
from jittrainer.i18n.extract import extract_file
from jittrainer.i18n.message import NOUNS

PACKAGE_SRC = Path(__file__).resolve().parents[1]
KEYWORDS = {
    "_": None,
    "N_": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
    "msg": ((1, "c"), 2),
    "msgn": ((1, "c"), 2, 3),
}
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
# A fixed date in the catalogs' headers: a real one would change the files on every run.
EPOCH = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)


def package_template() -> Catalog:
    template = Catalog(project="jittrainer", charset="utf-8", creation_date=EPOCH)
    for filename, lineno, message, comments, context in extract_from_dir(
        str(PACKAGE_SRC), method_map=[("**.py", "python")], keywords=KEYWORDS, strip_comment_tags=True,
    ):
        template.add(message, locations=[(filename, lineno)], auto_comments=comments, context=context)
    for noun, (singular, plural) in NOUNS.items():
        template.add((singular, plural), context=f"count.{noun}", locations=[("i18n/message.py", 0)])
    for context, text in (("list.separator", ", "), ("list.and", "{head} and {last}"), ("list.or", "{head} or {last}"),
                          ("list.and.numbers", "{head} and {last}")):
        template.add(text, context=context, locations=[("i18n/message.py", 0)])
    return template


def exercise_template(folder: Path) -> Catalog:
    template = Catalog(project=folder.name, charset="utf-8", creation_date=EPOCH)
    checks = folder / "checks.py"
    if checks.is_file():
        for item in extract_file(checks):
            text = (item.text, item.plural) if item.plural is not None else item.text
            template.add(text, context=item.context, locations=[("checks.py", item.line)])
    return template


def _read(path: Path, lang: str, domain: str) -> Catalog:
    if path.is_file():
        with open(path, "rb") as fh:
            return read_po(fh, locale=lang, domain=domain)
    return Catalog(locale=lang, domain=domain, project=domain, charset="utf-8", creation_date=EPOCH,
                   revision_date=EPOCH)


def _mo_bytes(catalog: Catalog) -> bytes:
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    return buf.getvalue()


def _same_mo(path: Path, catalog: Catalog) -> bool:
    if not path.is_file():
        return False
    with open(path, "rb") as fh:
        current = read_mo(fh)
    fresh = read_mo(io.BytesIO(_mo_bytes(catalog)))
    pairs = lambda c: {(m.context, str(m.id), str(m.string)) for m in c if m.id}  # noqa: E731
    return pairs(current) == pairs(fresh)


def sync(localedir: Path, domain: str, template: Catalog, *, check: bool) -> list[str]:
    """Update (or, with ``check``, only inspect) ``localedir/<lang>/LC_MESSAGES/<domain>.po`` and its ``.mo``."""
    problems: list[str] = []
    if not len(template):
        return problems
    for lang in TRANSLATED:
        folder = localedir / lang / "LC_MESSAGES"
        po_path, mo_path = folder / f"{domain}.po", folder / f"{domain}.mo"
        catalog = _read(po_path, lang, domain)
        wanted = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in template if m.id}
        have = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in catalog if m.id}
        if check:
            missing = wanted - have
            untranslated = [m for m in catalog if m.id and (m.context, m.id if isinstance(m.id, str) else m.id[0])
                            in wanted and (m.fuzzy or not m.string or (isinstance(m.string, tuple) and not all(m.string)))]
            where = po_path.relative_to(localedir.parent.parent)
            if missing:
                problems.append(f"{where}: {len(missing)} message(s) not in the catalog (run make catalogs), e.g. "
                                f"{sorted(missing, key=str)[0]}")
            if untranslated:
                problems.append(f"{where}: {len(untranslated)} message(s) untranslated or fuzzy, e.g. "
                                f"{untranslated[0].context}: {untranslated[0].id!r}")
            if not _same_mo(mo_path, catalog):
                problems.append(f"{where}: the compiled .mo is stale (run make catalogs)")
            continue
        catalog.update(template, update_header_comment=False)
        folder.mkdir(parents=True, exist_ok=True)
        with open(po_path, "wb") as fh:
            write_po(fh, catalog, width=116, ignore_obsolete=True, include_previous=True, include_lineno=False)
        mo_path.write_bytes(_mo_bytes(catalog))
    return problems


def run(exercises: Path | None, *, check: bool = False, only: list[str] | None = None,
        packs: list[Path] | tuple[Path, ...] = ()) -> list[str]:
    """Every catalog: the package's, each exercise's under ``exercises`` and in each of ``packs``; with ``only``
    (exercise folder names or ids) just those exercises' catalogs."""
    problems = [] if only or exercises is None else sync(PACKAGE_LOCALE, "jittrainer", package_template(),
                                                          check=check)
    roots = ([exercises] if exercises is not None else []) + list(packs)
    for folder in sorted(p for root in roots for p in root.iterdir() if (p / "checks.py").is_file()):
        if only and not any(key in (folder.name, folder.name.split("_", 1)[-1]) for key in only):
            continue
        problems += sync(folder / "locale", "messages", exercise_template(folder), check=check)
    return problems


def repo_packs() -> list[Path]:
    """The packs shipped in this checkout (``packs/*/pack.toml``): ``make catalogs`` keeps theirs too."""
    folder = PACKAGE_SRC.parents[1] / "packs"
    return sorted(p for p in folder.iterdir() if (p / "pack.toml").is_file()) if folder.is_dir() else []


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m jittrainer.i18n.build", description=__doc__.splitlines()[0])
    parser.add_argument("--exercises", type=Path, default=PACKAGE_SRC.parents[1] / "exercises")
    parser.add_argument("--pack", type=Path, action="append", dest="packs", metavar="DIR",
                        help="only this pack's exercises' catalogs (repeatable); default: the package's, the "
                             "course's and the checkout's packs/")
    parser.add_argument("--check", action="store_true", help="change nothing; list what is missing or stale")
    parser.add_argument("only", nargs="*", metavar="EXERCISE",
                        help="only these exercises' catalogs (folder name or id); default: every catalog")
    args = parser.parse_args(argv)
    if args.packs:
        problems = run(None, check=args.check, only=args.only, packs=args.packs)
    else:
        problems = run(args.exercises, check=args.check, only=args.only, packs=repo_packs())
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
