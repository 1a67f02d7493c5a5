"""Refusing a host callback whose result the program uses: the work it hands to Python runs outside the compiled
program, so whatever the exercise teaches about jit is dodged. (A callback that only shows a value, debug.print or
debug.callback, returns nothing and is never refused.)"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import jax

from jittrainer.grading.sandbox.checks.jaxprs import feeding_callbacks
from jittrainer.grading.sandbox.checks.wording import filled
from jittrainer.i18n.message import Msg, msg

if TYPE_CHECKING:
    from jittrainer.grading.sandbox.checks.context import CheckContext


def fetching(g: CheckContext, programs: Iterable[Any] = ()) -> list[str]:
    """The callbacks (each named once) through which the graded program fetches values from Python at run time. When
    the graded function is plain Python (it drives jit itself), the programs of the jitted and pmapped functions it
    called during the graded calls, each read once; ``programs``: more jaxprs to read (an exercise's own spy)."""
    found = list(g.feeding_callbacks())
    for program in programs:
        found += feeding_callbacks(program)
    first = getattr(getattr(g, "pmap_spy", None), "first", None)
    if first is not None:
        real, args, kwargs = first
        try:
            with g.recorder.mute():
                found += feeding_callbacks(jax.make_jaxpr(real)(*args, **kwargs))
        except Exception:
            pass
    if getattr(g, "call_mode", "jit") == "plain" or g.graded_jaxpr() is None:
        seen: set[int] = set()
        for call in getattr(getattr(g, "jit_spy", None), "calls", []):
            key = id(call.origin if call.origin is not None else call.fn)
            if call.call is None or key in seen or not call.arrays:
                continue
            seen.add(key)
            found += fetching_in(g, call)
    return list(dict.fromkeys(found))


def refuse_fetching(g: CheckContext, check: str, observation: Msg | None = None, advice: Msg | None = None, *,
                    tier: int | None = None, passed: Msg | None = None, programs: Iterable[Any] = ()) -> bool:
    """Fail ``check`` with ``observation`` (its ``{callbacks}`` filled in; by default the package's "the program
    fetches values from Python …") when the graded program uses a host callback's result; else pass it with
    ``passed``."""
    found = fetching(g, programs)
    if not found:
        return g.passed(check, passed)
    observation = observation or msg("fetching.default", "the program fetches values from Python while it runs "
                                     "({callbacks}) and uses them: that work is done on the host, not by the "
                                     "compiled program")
    return g.failed(check, filled(observation, {"callbacks": found}), advice, tier=tier)


def fetching_in(g: CheckContext, call: Any) -> list[str]:
    """Host callbacks whose results one recorded jitted call (a ``JitCall``) uses, read from its program traced
    again, muted, on the call's arguments; empty when it cannot be traced."""
    try:
        with g.recorder.mute():
            return feeding_callbacks(call.jaxpr())
    except Exception:
        return []
