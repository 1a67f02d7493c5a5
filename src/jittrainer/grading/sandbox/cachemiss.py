"""Turn JAX's "TRACING CACHE MISS" explanations into plain words for a learner.

JAX's text is not an API: it moved loggers between releases and may reword. Every pattern here is optional;
whatever is not recognised falls back to JAX's own text, trimmed, so a new wording degrades to "less friendly",
never to "wrong" or "crash". Pure Python: no jax import, testable anywhere. Explanations are messages (``Msg``), so they translate.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from jittrainer.i18n.message import Msg, msg

PREFIX = "TRACING CACHE MISS"

_NEVER_SEEN = re.compile(r"never seen function:\s*\n\s*(?P<name>\S+)")
_REDEFINED = "re-defined repeatedly"
_FOR_FUNCTION = re.compile(r"^\s*for (?P<name>\S+)", re.MULTILINE)
_TYPE_DIFF = re.compile(r"^\s*\* at (?P<arg>.+?), now (?P<now>\S+) and before (?P<before>\S+?)(?=https?://|$)", re.MULTILINE)
_STATIC_DIFF = re.compile(
    # A value may hold parentheses itself (a tuple): each ends where JAX's own text goes on.
    r"\* at input path (?P<path>\S+), now <class '[\w.]*Static'> with pytree metadata Static\(val=(?P<now>.*?)\)"
    r" and before <class '[\w.]*Static'> with pytree metadata Static\(val=(?P<before>.*?)\)(?=, so |,|\s*$)"
)
_TREE_DIFF = re.compile(r"\* at input path (?P<path>\S+), now (?P<now>.+?) and before (?P<before>.+?), so (?P<why>.+)")
_ARG_INDEX = re.compile(r"^\[0\]\[(?P<index>\d+)\]")
_KWARG_NAME = re.compile(r"^\[1\]\['(?P<name>\w+)'\]")
_WEAK = re.compile(r"\{weak_type=(True|False)\}")


def kind(text: str, *, call: int | None = None) -> str:
    """A stable label for a miss, for checks to branch on: "first", "new_function", "static", "types",
    "weak_type", "structure", "context", or "unknown"."""
    if _NEVER_SEEN.search(text):
        return "new_function" if _REDEFINED in text or (call is not None and call > 1) else "first"
    if _STATIC_DIFF.search(text):
        return "static"
    if _TREE_DIFF.search(text):
        return "structure"
    if "different input types" in text:
        return "weak_type" if "weak_type=" in text else "types"
    if "Tracing context doesn't match" in text:
        return "context"
    return "unknown"


def function_name(text: str) -> str | None:
    match = _NEVER_SEEN.search(text) or _FOR_FUNCTION.search(text)
    return match["name"] if match else None


def explain(text: str, *, call: int | None = None, params: Sequence[str] = ()) -> Msg:
    """One sentence (or a few, joined) saying why JAX traced and compiled again."""
    try:
        return _explain(text, call=call, params=params)
    except Exception:  # a reworded message must never break a verdict
        return fallback(text)


def fallback(text: str, limit: int = 400) -> Msg:
    body = " ".join(line.strip() for line in text.splitlines()[1:] if line.strip())
    body = body or text.strip()
    return msg("miss.jax_says", "JAX says: {text}", text=body[:limit] + ("…" if len(body) > limit else ""))


def _explain(text: str, *, call: int | None, params: Sequence[str]) -> Msg:
    match = _NEVER_SEEN.search(text)
    if match:
        name = match["name"]
        if _REDEFINED in text or (call is not None and call > 1):
            return msg(
                "miss.new_function",
                "{name} is a new function object on this call (a function or jax.jit created inside a loop or per "
                "call), so nothing compiled earlier can be reused",
                name=name,
            )
        return msg("miss.first", "first call of {name}: nothing was compiled for it yet", name=name)

    reasons: list[Msg] = []
    for m in _STATIC_DIFF.finditer(text):
        reasons.append(msg(
            "miss.static",
            "static argument {arg} changed from {before} to {now}: every new static value is a new compile",
            arg=_arg_label(m["path"], params), before=m["before"], now=m["now"],
        ))
    if not reasons:
        for m in _TREE_DIFF.finditer(text):
            reasons.append(msg("miss.structure", "the structure of {arg} changed (now {now}, before {before})",
                               arg=_arg_label(m["path"], params), now=m["now"], before=m["before"]))
    if "different input types" in text:
        for m in _TYPE_DIFF.finditer(text):
            reasons.append(_type_change(m["arg"], m["now"], m["before"]))
    if "Tracing context doesn't match" in text:
        reasons.append(msg(
            "miss.context",
            "JAX's configuration or a context manager (for example jax.enable_x64 or a default device) differs from "
            "the earlier calls",
        ))
    if "Debug info doesn't match" in text:
        reasons.append(msg("miss.debug_info", "the function's argument names or source location differ from the "
                                              "cached version"))
    if len(reasons) == 1:
        return reasons[0]
    if reasons:
        return msg("miss.several", "{first}; {rest}", first=reasons[0],
                   rest=msg("miss.more", "{reasons}", reasons=reasons[1:]))
    return fallback(text)


def _arg_label(path: str, params: Sequence[str]) -> Msg | str:
    match = _ARG_INDEX.match(path)
    if match:
        index = int(match["index"])
        if index < len(params):
            return params[index]
        return msg("miss.positional", "#{n} (positional)", n=index + 1)
    match = _KWARG_NAME.match(path)
    if match:
        return match["name"]
    return msg("miss.at_path", "at {path}", path=path)


def _type_change(arg: str, now: str, before: str) -> Msg:
    weak_now, weak_before = _WEAK.search(now), _WEAK.search(before)
    now_t, before_t = _WEAK.sub("", now), _WEAK.sub("", before)
    if weak_now and weak_before and now_t == before_t:
        if weak_before.group(1) == "True":
            return msg(
                "miss.weak_to_strong",
                "{arg} was a Python scalar (weakly typed {before}) and is now a typed array ({now}): that is a "
                "different input type",
                arg=arg, before=before_t, now=now_t,
            )
        return msg("miss.strong_to_weak", "{arg} was a typed array ({before}) and is now a Python scalar (weakly "
                                          "typed {now})", arg=arg, before=before_t, now=now_t)
    return msg("miss.new_type", "{arg} changed from {before} to {now}: a new shape or dtype needs a new compile",
               arg=arg, before=before_t, now=now_t)
