"""Small pieces of a verdict's wording: facts filled into a message, a message that points at a line, "calls 2
and 3"."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from jittrainer.i18n.message import Msg, msg


def filled(message: Msg, facts: Mapping[str, Any]) -> Msg:
    """``message`` with each fact its templates name and its own parameters lack. A fact may be a function, called
    only when the message needs it: a helper offers what it knows, the exercise's wording takes what it uses."""
    wanted = message.fields() - set(message.params)
    extra = {name: value() if callable(value) else value for name, value in facts.items() if name in wanted}
    return dataclasses.replace(message, params={**message.params, **extra}) if extra else message


def at_line(lines: Sequence[int], with_line: Msg, without: Msg) -> Msg:
    """``with_line`` with ``{line}`` the first of ``lines`` (from ``g.lines_calling``), or ``without`` when there is
    none: an observation points at the learner's own line whenever it can be found."""
    return filled(with_line, {"line": lines[0]}) if lines else without


def shortened(items: Sequence[Any], limit: int) -> str:
    """The first ``limit`` items joined with ", ", and ", …" when there were more: "8, 16, 32, …"."""
    return ", ".join(map(str, items[:limit])) + (", …" if len(items) > limit else "")


def calls_words(indices: Sequence[int]) -> Msg:
    """"call 2" or "calls 2, 3 and 5"."""
    if len(indices) == 1:
        return msg("calls.one", "call {n}", n=indices[0])
    return msg("calls.many", "calls {list}", list=[str(i) for i in indices])
