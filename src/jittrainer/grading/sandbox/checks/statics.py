"""Static arguments that kept changing, from the jit spy's records: which argument, how many values it took, and
whether those values differ only by identity.

JAX keys a jitted function's cache on its static arguments' hash and ``==``. A value of a type that defines neither
(a plain object, a NamedTuple of functions such as an optax optimizer, a module holding a jitted callable) is equal
only to itself: made anew, it is a new key even when it holds the same settings. JAX's own explanation of the miss
writes both values (0.10) or nothing (0.12); this says it the same way on every version.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+|0x[0-9a-fA-F]{6,}")


@dataclass
class StaticChurn:
    """One static argument of one jitted function that took more than one value over the recorded calls."""

    function: str  # the jitted function's name
    argument: str  # the parameter's name, or "#2" for an unnamed positional one
    type: str  # the type name of its values ("GradientTransformationExtraArgs"), or "…, …" when they differ
    values: int  # distinct values, by == (what JAX's cache compares)
    new_in: list[int | None] = field(default_factory=list)  # the graded call (or phase) each new value came in
    by_identity: bool = False  # every value looks the same (addresses aside) yet none equals another
    own_eq: bool = False  # the values' type defines its own == (a NamedTuple compares its fields), else identity


def static_churn(calls: Sequence[Any], function: str | None = None) -> list[StaticChurn]:
    """For every jitted function in ``calls`` (``g.jit_spy.calls``; ``function``: that name only), the static
    arguments that took more than one value, the function's first such argument first::

        churn = static_churn(g.jit_spy.calls, "train_step")
        if churn and churn[0].by_identity: ...   # "a new GradientTransformationExtraArgs object every epoch"
    """
    grouped: dict[tuple[str, Any], list[Any]] = {}
    for call in calls:
        if call.statics is None or call.ahead_of_time or (function and call.function != function):
            continue
        grouped.setdefault((call.function, call.origin), []).append(call)
    out = []
    for (name, _origin), group in grouped.items():
        per_argument: dict[str, tuple[str, list[tuple[Any, Any]]]] = {}
        for call in group:
            static, _ = call.statics.split(call.args, call.kwargs)
            for path, label, value in static:
                per_argument.setdefault(path, (label, []))[1].append((call.call, value))
        for label, seen in per_argument.values():
            churn = _churn(name, label, seen)
            if churn is not None:
                out.append(churn)
    return out


def _churn(function: str, label: str, seen: list[tuple[Any, Any]]) -> StaticChurn | None:
    distinct: list[Any] = []
    new_in: list[int | None] = []
    for call, value in seen:
        if not any(_equal(value, old) for old in distinct):
            distinct.append(value)
            new_in.append(call)
    if len(distinct) < 2:
        return None
    types = list(dict.fromkeys(type(v).__name__ for v in distinct))
    looks = {_look(v) for v in distinct}
    return StaticChurn(function, label, ", ".join(types), len(distinct), new_in,
                       by_identity=len(types) == 1 and len(looks) == 1 and None not in looks,
                       own_eq=type(distinct[0]).__eq__ is not object.__eq__)


def _equal(a: Any, b: Any) -> bool:
    if a is b:
        return True
    try:
        return type(a) is type(b) and bool(a == b) and hash(a) == hash(b)
    except Exception:  # an unhashable or ambiguous value: JAX refuses it anyway
        return False


def _look(value: Any) -> str | None:
    """What a value prints as, with memory addresses removed (None when it cannot be printed)."""
    try:
        return _ADDRESS.sub("", repr(value))
    except Exception:
        return None
