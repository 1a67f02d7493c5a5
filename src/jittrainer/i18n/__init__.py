"""The learner's language: which edition to show, and gettext lookups for the package's own strings.

Two editions ship, English (``en``, also the fallback for anything untranslated) and Simplified Chinese (``zh``).
The language is chosen, first match wins, by ``--lang``, ``JITTRAINER_LANG``, the app's settings, then the locale
variables in gettext's order (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``); any ``zh*`` locale gives the
Simplified edition. Code strings go through gettext catalogs (``locale/zh/LC_MESSAGES/jittrainer.po``, compiled
to ``.mo`` and committed); course content is translated in files beside the English ones.

Pure Python: no jax, no Textual. ``_`` and friends read the current language on every call, so a string shown
again after ``set_language`` comes out in the new language.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from jittrainer.i18n.catalogs import translations

LANGUAGES = ("en", "zh")
DEFAULT = "en"
NAMES = {"en": "English", "zh": "中文"}
ENV_VAR = "JITTRAINER_LANG"
LOCALE_VARS = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

PACKAGE_DOMAIN = "jittrainer"

_current = DEFAULT


def normalize(tag: object) -> str | None:
    """``"zh_CN.UTF-8"`` → ``"zh"``, ``"en_GB"`` → ``"en"``; None for ``C``, ``POSIX``, empty or unknown tags."""
    if not isinstance(tag, str):
        return None
    base = tag.strip().split(".")[0].split("@")[0].replace("-", "_").lower()
    lang = base.split("_")[0]
    return lang if lang in LANGUAGES else None


def from_locale(env: Mapping[str, str] | None = None) -> str | None:
    """The language the locale asks for, in gettext's order; ``LANGUAGE`` may list several (``fr:zh:en``)."""
    env = os.environ if env is None else env
    for var in LOCALE_VARS:
        value = env.get(var, "")
        if not value:
            continue
        if var == "LANGUAGE":
            for part in value.split(":"):
                if (lang := normalize(part)) is not None:
                    return lang
            continue
        # The first set variable decides, as in gettext: LC_ALL=C means "no translation" even with LANG=zh_CN.
        return normalize(value)
    return None


def detect(cli: str | None = None, settings: str | None = None, env: Mapping[str, str] | None = None) -> str:
    """The language to use: ``--lang``, ``$JITTRAINER_LANG``, the app's setting, the locale, else English."""
    env = os.environ if env is None else env
    for candidate in (cli, env.get(ENV_VAR), settings):
        if (lang := normalize(candidate)) is not None:
            return lang
    return from_locale(env) or DEFAULT


def set_language(lang: str) -> str:
    """Make ``lang`` current (unknown tags fall back to English); returns the language now in use."""
    global _current
    _current = normalize(lang) or DEFAULT
    return _current


def language() -> str:
    return _current


def _(text: str) -> str:
    """The package's translation of ``text`` in the current language."""
    return translations(PACKAGE_DOMAIN, _current).gettext(text)


def ngettext(singular: str, plural: str, n: int) -> str:
    return translations(PACKAGE_DOMAIN, _current).ngettext(singular, plural, n)


def pgettext(context: str, text: str) -> str:
    return translations(PACKAGE_DOMAIN, _current).pgettext(context, text)


def N_(text: str) -> str:
    """Marks ``text`` for extraction without translating it now (class attributes, tables): translate it with
    ``_()`` where it is shown."""
    return text


def has_translation(text: str, lang: str | None = None) -> bool:
    lang = lang or _current
    return lang == DEFAULT or translations(PACKAGE_DOMAIN, lang).gettext(text) != text


_CJK = "\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f"


def flow(text: str) -> str:
    """A paragraph written over several lines, as one line: lines are joined with a space, except between two
    Chinese characters (Chinese is written without spaces)."""
    import re

    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    out = ""
    for line in lines:
        if out and not (re.match(f"[{_CJK}]", line[0]) and re.match(f"[{_CJK}]", out[-1])):
            out += " "
        out += line
    return out


_MARKDOWN = None  # patterns compiled on first use: most imports of this package never need them


# Full-width punctuation: no space goes next to it, whatever is on the other side (、`select_n`, not 、 select_n).
_CJK_PUNCT = "\u3000-\u303f\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65“”‘’—…"


def join_cjk_breaks(markdown: str) -> str:
    """Markdown with its soft line breaks between two Chinese characters, or next to Chinese punctuation, removed:
    a renderer turns a soft break into a space, which Chinese does not have. Code blocks, headings, list items,
    quotes and tables keep their lines."""
    import re

    global _MARKDOWN
    if _MARKDOWN is None:
        _MARKDOWN = (re.compile(r"\s*([#>|*+-]|\d+[.)]\s|```|~~~)"), re.compile(f"[{_CJK}]"),
                     re.compile(f"[{_CJK}]$"), re.compile(f"[{_CJK_PUNCT}]"), re.compile(f"[{_CJK_PUNCT}]$"))
    block, starts_cjk, ends_cjk, starts_punct, ends_punct = _MARKDOWN
    if not starts_cjk.search(markdown):
        return markdown
    out: list[str] = []
    fenced = False
    for line in markdown.split("\n"):
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            fenced = not fenced
            out.append(line)
            continue
        previous = out[-1] if out else ""
        if (not fenced and stripped and previous.strip() and not previous.lstrip().startswith("#")
                and not block.match(line) and (starts_cjk.match(stripped) and ends_cjk.search(previous)
                                               or ends_punct.search(previous) or starts_punct.match(stripped))):
            out[-1] = previous + stripped
            continue
        out.append(line)
    return "\n".join(out)


_NO_LINE_START = set("，。；：！？、）」』》”’,.;:!?)")  # punctuation stays on the line it closes
_NO_LINE_END = set("（「『《“‘")  # ... and opening punctuation goes to the line it opens


def cells(text: str) -> int:
    """Terminal cells ``text`` takes: Chinese (wide) characters take two."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def ljust(text: str, width: int) -> str:
    """``text`` padded with spaces to ``width`` terminal cells (str.ljust counts characters, not cells)."""
    return text + " " * max(0, width - cells(text))


def wrap(text: str, width: int) -> list[str]:
    """Lines of at most ``width`` terminal cells, breaking at spaces, or between Chinese characters."""
    import re

    out, line = [], ""
    for token in re.findall(f"[{_CJK}]|[^\\s{_CJK}]+|\\s+", text):
        if token.isspace():
            token = " "
            if not line:
                continue
        if line.strip(" " + "".join(_NO_LINE_END)) and cells(line + token) > width and token not in _NO_LINE_START:
            opening = ""
            while len(line) > 1 and line[-1] in _NO_LINE_END:
                line, opening = line[:-1], line[-1] + opening
            out.append(line.rstrip())
            line = opening + ("" if token == " " else token)
        else:
            line += token
    if line.strip():
        out.append(line.rstrip())
    return out


_PHRASE_END = "：，、；？！）"


def wrap_title(text: str, width: int) -> list[str]:
    """Lines of at most ``width`` cells for a short title, broken after Chinese punctuation (the end of a phrase)
    where it can be, and like ``wrap`` only inside a phrase wider than the line. Breaking at any character, as
    ``wrap`` does, splits words (求⏎和, 静态参⏎数): in a title each line should be a phrase."""
    import re

    out, line = [], ""
    for phrase in re.findall(f"[^{_PHRASE_END}]+[{_PHRASE_END}]*|[{_PHRASE_END}]+", text.strip()):
        if cells((line + phrase).strip()) <= width:
            line += phrase
            continue
        if line.strip():
            out.append(line.strip())
        line = ""
        # a phrase wider than the line breaks at its spaces, and between characters only in a word too wide
        for word in re.findall(r"\S+\s*", phrase):
            if cells((line + word).strip()) <= width:
                line += word
                continue
            if line.strip():
                out.append(line.strip())
            *full, line = wrap(word, width) or [""]
            out += full
            line += " "
    if line.strip():
        out.append(line.strip())
    return out
