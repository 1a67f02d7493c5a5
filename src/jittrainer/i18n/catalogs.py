"""Where gettext catalogs live, per domain: the package's own (``jittrainer``) and one per exercise.

An exercise's messages travel in its folder, ``exercises/<nn>_<id>/locale/<lang>/LC_MESSAGES/messages.mo``, so
adding an exercise touches one folder. Its domain is ``exercise:<id>``, registered when the exercise is loaded
(by the course loader in the UI and CLI, by the sandbox before it imports the checks). A domain nobody registered
renders in English: a verdict is never lost for want of a catalog.
"""

from __future__ import annotations

import gettext
import threading
from pathlib import Path

PACKAGE_LOCALE = Path(__file__).resolve().parent / "locale"
EXERCISE_FILE_DOMAIN = "messages"

_lock = threading.Lock()
_dirs: dict[str, tuple[Path, str]] = {"jittrainer": (PACKAGE_LOCALE, "jittrainer")}
_cache: dict[tuple[str, str], gettext.NullTranslations] = {}
# Translations that course data carries itself (an approach's title and summary in its TOML), by (domain, lang).
_texts: dict[tuple[str, str], dict[tuple[str, str], str]] = {}


class _Texts(gettext.NullTranslations):
    """A catalog held in memory: (context, English text) → translation."""

    def __init__(self, texts: dict[tuple[str, str], str]) -> None:
        super().__init__()
        self._texts = texts

    def pgettext(self, context: str, message: str) -> str:
        return self._texts.get((context, message), message)

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return self._texts.get((context, msgid1), msgid1) if n == 1 else msgid2


def register_texts(domain: str, lang: str, texts: dict[tuple[str, str], str]) -> None:
    """Translations of ``domain`` into ``lang`` held in memory, for course data that carries its own (an approach's
    TOML): ``{(key, English text): translation}``. A message whose English changed finds none, and shows in English."""
    with _lock:
        _texts[(domain, lang)] = dict(texts)
        _cache.pop((domain, lang), None)


def exercise_domain(exercise_id: str) -> str:
    return f"exercise:{exercise_id}"


def register(domain: str, localedir: Path, file_domain: str = EXERCISE_FILE_DOMAIN) -> None:
    """Catalogs for ``domain`` are ``localedir/<lang>/LC_MESSAGES/<file_domain>.mo``."""
    with _lock:
        entry = (Path(localedir), file_domain)
        if _dirs.get(domain) != entry:
            _dirs[domain] = entry
            for key in [k for k in _cache if k[0] == domain]:
                del _cache[key]


def register_exercise(exercise_id: str, folder: Path) -> str:
    domain = exercise_domain(exercise_id)
    register(domain, Path(folder) / "locale")
    return domain


def catalog_path(domain: str, lang: str) -> Path | None:
    entry = _dirs.get(domain)
    if entry is None:
        return None
    localedir, file_domain = entry
    return localedir / lang / "LC_MESSAGES" / f"{file_domain}.mo"


def translations(domain: str, lang: str) -> gettext.NullTranslations:
    """The catalog for ``domain`` in ``lang``; English and anything missing give the untranslated text."""
    key = (domain, lang)
    with _lock:
        cached = _cache.get(key)
        if cached is not None:
            return cached
        found: gettext.NullTranslations = gettext.NullTranslations()
        if key in _texts:
            found = _Texts(_texts[key])
            _cache[key] = found
            return found
        path = catalog_path(domain, lang) if lang != "en" else None
        if path is not None and path.is_file():
            try:
                with open(path, "rb") as fh:
                    found = gettext.GNUTranslations(fh)
            except (OSError, ValueError):  # a damaged catalog: English rather than a crash
                found = gettext.NullTranslations()
        _cache[key] = found
        return found


def clear_cache() -> None:
    with _lock:
        _cache.clear()
