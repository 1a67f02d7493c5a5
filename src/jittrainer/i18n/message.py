"""A message a learner reads, kept as an id plus parameters, rendered by a template in any language.

``Msg("printed_once", "{fn} printed {lines} over {calls}: …", {"fn": "normalize", …}, domain="exercise:…")``
is what the grader reports; ``str(msg)`` renders it in the current language. The English template is the gettext
``msgid`` and the key its ``msgctxt``, so a translator sees the English sentence and its id. Because the parameters
travel with the message (over the worker's channel, in a verdict on screen), a verdict already shown re-renders
when the learner switches language.

Parameters are plain values (formatted by the template: ``{mean:.4f}``), lists (joined the way the language joins
them: "a, b and c", "a、b 和 c", numbers "1、2、3") or messages themselves (rendered first). A counted noun is a
message with a plural form (``count("compile", 3)`` → "3 compiles" / "3 次编译"), so no sentence is glued from fragments.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from jittrainer.i18n.catalogs import translations

PACKAGE = "jittrainer"
_FORMATTER = string.Formatter()


@dataclass(frozen=True)
class Msg:
    key: str  # msgctxt: stable, for tests, logs and translators
    text: str  # the English template (msgid)
    params: Mapping[str, Any] = field(default_factory=dict)
    plural: str | None = None  # English plural template, when the message counts something
    count: str | None = None  # the parameter whose value picks the plural form
    domain: str = PACKAGE

    def render(self, lang: str | None = None) -> str:
        from jittrainer.i18n import language

        lang = lang or language()
        catalog = translations(self.domain, lang)
        n = _count_of(self)
        if self.plural is not None:
            template = catalog.npgettext(self.key, self.text, self.plural, n)
        else:
            template = catalog.pgettext(self.key, self.text)
        values = {name: _value(value, lang) for name, value in self.params.items()}
        for candidate in (template, self.text if n == 1 or self.plural is None else self.plural):
            try:
                return candidate.format(**values)
            except (KeyError, IndexError, ValueError, AttributeError, TypeError):
                continue  # a translation that names another field: fall back to the English template
        return template

    def __str__(self) -> str:
        return self.render()

    def with_domain(self, domain: str) -> Msg:
        """This message, and every message among its parameters that has no domain of its own, in ``domain``."""
        params = {k: _with_domain(v, domain) for k, v in self.params.items()}
        return Msg(self.key, self.text, params, self.plural, self.count, domain if self.domain == "" else self.domain)

    def fields(self) -> set[str]:
        """The placeholders the English templates use (for checks that every parameter is given)."""
        names = set()
        for template in (self.text, self.plural or ""):
            for _, name, _, _ in _FORMATTER.parse(template):
                if name:
                    names.add(name.split(".")[0].split("[")[0])
        return names

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"key": self.key, "text": self.text, "domain": self.domain}
        if self.params:
            out["params"] = {k: _encode(v) for k, v in self.params.items()}
        if self.plural is not None:
            out["plural"], out["count"] = self.plural, self.count
        return out

    @classmethod
    def from_dict(cls, data: Any) -> Msg:
        """Raises ValueError for anything that is not an encoded message (a malformed frame, a hand-edited file)."""
        if not isinstance(data, Mapping) or not isinstance(data.get("key"), str) or not isinstance(data.get("text"), str):
            raise ValueError(f"not a message: {str(data)[:80]}")
        params = data.get("params") or {}
        if not isinstance(params, Mapping):
            raise ValueError("message params must be an object")
        plural, count = data.get("plural"), data.get("count")
        if plural is not None and not isinstance(plural, str) or count is not None and not isinstance(count, str):
            raise ValueError("message plural and count must be strings")
        domain = data.get("domain", PACKAGE)
        if not isinstance(domain, str):
            raise ValueError("message domain must be a string")
        return cls(data["key"], data["text"], {str(k): _decode(v) for k, v in params.items()}, plural, count, domain)


def msg(key: str, text: str, /, **params: Any) -> Msg:
    """A message of the package's own catalog."""
    return Msg(key, text, params)


def msgn(key: str, singular: str, plural: str, /, *, count: str = "n", **params: Any) -> Msg:
    """A package message with a plural form picked by the parameter ``count`` (default ``n``)."""
    return Msg(key, singular, params, plural, count)


# Counted nouns the grader and the faces use: "3 compiles", "1 call". Authors with a noun of their own write a
# plural message in their exercise's catalog instead.
NOUNS: dict[str, tuple[str, str]] = {
    "call": ("{n} call", "{n} calls"),
    "jitted call": ("{n} jitted call", "{n} jitted calls"),
    "compile": ("{n} compile", "{n} compiles"),
    "trace": ("{n} trace", "{n} traces"),
    "line": ("{n} line", "{n} lines"),
    "time": ("{n} time", "{n} times"),
    "item": ("{n} item", "{n} items"),
    "value": ("{n} value", "{n} values"),
    "element": ("{n} element", "{n} elements"),
    "argument": ("{n} argument", "{n} arguments"),
    "positional argument": ("{n} positional argument", "{n} positional arguments"),
    "check": ("{n} check", "{n} checks"),
    "report": ("{n} report", "{n} reports"),
    "device": ("{n} device", "{n} devices"),
    "batch": ("{n} batch", "{n} batches"),
    "sequence": ("{n} sequence", "{n} sequences"),
    "callback": ("{n} callback", "{n} callbacks"),
    "step": ("{n} step", "{n} steps"),
    "second": ("{n} second", "{n} seconds"),
    "sample": ("{n} sample", "{n} samples"),
    "card": ("{n} card", "{n} cards"),
    "drill card": ("{n} drill card", "{n} drill cards"),
    "grade": ("{n} grade", "{n} grades"),
    "exercise": ("{n} exercise", "{n} exercises"),
    "problem": ("{n} problem", "{n} problems"),
    "byte": ("{n} byte", "{n} bytes"),
    "character": ("{n} character", "{n} characters"),
    "equation": ("{n} equation", "{n} equations"),
    "constant": ("{n} constant", "{n} constants"),
    "key": ("{n} key", "{n} keys"),
    "sample set": ("{n} sample set", "{n} sample sets"),
}


def count(noun: str, n: int) -> Msg:
    """``count("compile", 3)`` renders "3 compiles" (or "3 次编译"): a number with its noun, in any language."""
    try:
        singular, plural = NOUNS[noun]
    except KeyError:
        raise KeyError(f"no counted noun {noun!r}; known: {', '.join(NOUNS)}") from None
    return Msg(f"count.{noun}", singular, {"n": int(n)}, plural, "n")


def join(items: list[Any], lang: str | None = None, *, last: str = "and") -> str:
    """``["a", "b", "c"]`` → "a, b and c" (English) or "a、b 和 c" (Chinese); ``last="or"`` for alternatives. A list
    of numbers has its own pattern ("list.and.numbers"): Chinese writes 第 1、2、3 次, with no 和."""
    from jittrainer.i18n import language

    lang = lang or language()
    parts = [_value(item, lang) if not isinstance(item, str) else item for item in items]
    parts = [str(p) for p in parts]
    if not parts:
        return ""
    if len(parts) == 1:
        return parts[0]
    catalog = translations(PACKAGE, lang)
    sep = catalog.pgettext("list.separator", ", ")
    if last == "or":
        pair = catalog.pgettext("list.or", "{head} or {last}")
    elif all(p.strip().lstrip("-").isdigit() for p in parts):
        # numbers that count something named after them: "calls 2 and 3" is 第 2、3 次调用, not 第 2 和 3 次调用
        pair = catalog.pgettext("list.and.numbers", "{head} and {last}")
    else:
        pair = catalog.pgettext("list.and", "{head} and {last}")
    try:
        return pair.format(head=sep.join(parts[:-1]), last=parts[-1])
    except (KeyError, IndexError, ValueError):
        return f"{', '.join(parts[:-1])} {last} {parts[-1]}"


def render(value: Any, lang: str | None = None) -> str:
    """A message, or anything else as text (verdict fields that may be either)."""
    if isinstance(value, Msg):
        return value.render(lang)
    return "" if value is None else str(value)


def _count_of(m: Msg) -> int:
    if m.count is None:
        return 1
    value = m.params.get(m.count, 1)
    try:
        return int(value)
    except (TypeError, ValueError):
        return 1


def _value(value: Any, lang: str) -> Any:
    if isinstance(value, Msg):
        return value.render(lang)
    if isinstance(value, (list, tuple)):
        return join(list(value), lang)
    return value


def _with_domain(value: Any, domain: str) -> Any:
    if isinstance(value, Msg):
        return value.with_domain(domain)
    if isinstance(value, (list, tuple)):
        return [_with_domain(v, domain) for v in value]
    return value


def _encode(value: Any) -> Any:
    if isinstance(value, Msg):
        return {"$msg": value.to_dict()}
    if isinstance(value, (list, tuple)):
        return [_encode(v) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if hasattr(value, "item") and getattr(value, "shape", None) == ():  # a NumPy scalar
        return _encode(value.item())
    return str(value)


def _decode(value: Any) -> Any:
    if isinstance(value, Mapping):
        if set(value) == {"$msg"}:
            return Msg.from_dict(value["$msg"])
        raise ValueError("message parameters are plain values, lists or messages")
    if isinstance(value, list):
        return [_decode(v) for v in value]
    return value
