"""Turn JAX's "TRACING CACHE MISS" explanations into plain words for a learner.

JAX's text is not an API: it moved loggers between releases and may reword. Every pattern here is optional;
whatever is not recognised falls back to JAX's own text, trimmed, so a new wording degrades to "less friendly",
never to "wrong" or "crash". Pure Python: no jax import, testable anywhere. Explanations are messages (``Msg``), so they translate.

Where JAX gives no reason ("cache miss explanation unavailable": 0.12 for a changed static argument), the jit spy's
own record of the call says what changed (``KeyChange``, from ``cache_keys.py``) and becomes the same words.
The patterns were checked on JAX 0.10 and 0.12 (``tests/test_jax_compat.py``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from jittrainer.i18n.message import Msg, msg

PREFIX = "TRACING CACHE MISS"
UNAVAILABLE = "cache miss explanation unavailable"


@dataclass(frozen=True)
class KeyChange:
    """One difference between a call's cache key and the closest earlier one, as the grader saw it."""

    kind: str  # "static" | "static_mutated" | "structure" | "type"
    where: str  # JAX's input path ("[0][1]", "[1]['lr']") for static and structure; the argument's label for type
    before: str
    now: str

_NEVER_SEEN = re.compile(r"never seen function:\s*\n\s*(?P<name>\S+)")
_NEVER_SEEN_ID = re.compile(r"never seen function:\s*\n\s*\S+ id=(?P<id>\d+)")
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
_EMPTY_AXES = re.compile(r"\(\{\}\)")  # 0.12 marks a type's (empty) set of varying mesh axes: f32[3]({})


def kind(text: str, *, call: int | None = None, changes: Sequence[KeyChange] = (), cleared: bool = False) -> str:
    """A stable label for a miss, for checks to branch on: "first", "new_function", "cleared", "static", "types",
    "weak_type", "structure", "context", or "unknown". ``cleared``: this very function, still alive, compiled earlier in
    the same calls (its ``function_id`` in an earlier miss), so "never seen" means its cache was emptied, not a new
    function. (JAX's id alone cannot say it: a new function may get a collected one's id.)"""
    if cleared and _NEVER_SEEN.search(text):
        return "cleared"
    if changes and _unexplained_by_jax(text):
        first = changes[0]
        if first.kind == "type":
            return "weak_type" if "weak_type=" in first.now else "types"
        return "static" if first.kind.startswith("static") else first.kind
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


def function_id(text: str) -> str | None:
    """The id JAX gives a "never seen function" (the Python function's id: the same function after its cache was
    emptied keeps it), or None."""
    match = _NEVER_SEEN_ID.search(text)
    return match["id"] if match else None


def function_name(text: str) -> str | None:
    match = _NEVER_SEEN.search(text) or _FOR_FUNCTION.search(text)
    return match["name"] if match else None


def _unexplained_by_jax(text: str) -> bool:
    return UNAVAILABLE in text or not (_NEVER_SEEN.search(text) or _STATIC_DIFF.search(text) or _TREE_DIFF.search(text)
                                       or "different input types" in text or "Tracing context" in text)


def explain(text: str, *, call: int | None = None, params: Sequence[str] = (),
            changes: Sequence[KeyChange] = (), cleared: bool = False) -> Msg:
    """One sentence (or a few, joined) saying why JAX traced and compiled again. ``changes``: what the grader saw
    change, used when JAX's text gives no reason; ``cleared``: see ``kind``."""
    try:
        if cleared and (found := _NEVER_SEEN.search(text)):
            return msg("miss.cleared", "{name} compiled earlier in these calls, but its cache was emptied since "
                       "(clear_cache() or jax.clear_caches()), so it traced and compiled again", name=found["name"])
        if changes and _unexplained_by_jax(text):
            return _joined([_change_words(c, params) for c in changes])
        return _explain(text, call=call, params=params)
    except Exception:  # a reworded message must never break a verdict
        return fallback(text)


def _change_words(change: KeyChange, params: Sequence[str]) -> Msg:
    if change.kind == "type":
        return _type_change(change.where, change.now, change.before)
    arg = _arg_label(change.where, params)
    if change.kind == "structure":
        return msg("miss.structure", "the structure of {arg} changed (now {now}, before {before})",
                   arg=arg, now=change.now, before=change.before)
    if change.kind == "static_mutated":
        return msg(
            "miss.static_mutated",
            "static argument {arg} is the same object as in an earlier call, but its hash or == now says it is a "
            "different value (it was changed in place), so it is a new compile",
            arg=arg,
        )
    if change.before == change.now:  # two objects that print alike (no __repr__ of their own)
        return msg(
            "miss.static_unequal",
            "static argument {arg} is a new value, {now}, not equal to any an earlier call passed (by its == and "
            "hash): every new static value is a new compile",
            arg=arg, now=change.now,
        )
    return _static_words(arg, change.before, change.now)


def _static_words(arg: Msg | str, before: str, now: str) -> Msg:
    return msg(
        "miss.static",
        "static argument {arg} changed from {before} to {now}: every new static value is a new compile",
        arg=arg, before=before, now=now,
    )


def _joined(reasons: list[Msg]) -> Msg:
    if len(reasons) == 1:
        return reasons[0]
    return msg("miss.several", "{first}; {rest}", first=reasons[0], rest=msg("miss.more", "{reasons}",
                                                                            reasons=reasons[1:]))


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
        reasons.append(_static_words(_arg_label(m["path"], params), m["before"], m["now"]))
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
    if reasons:
        return _joined(reasons)
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
    now, before = _EMPTY_AXES.sub("", now), _EMPTY_AXES.sub("", before)
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
