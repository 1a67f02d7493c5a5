"""Refusing a host callback whose result the program uses: the work it hands to Python runs outside the compiled
program, so whatever the exercise teaches about jit is dodged. (A callback that only shows a value, debug.print or
debug.callback, returns nothing and is never refused.)"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from jittrainer.grading.sandbox.checks.jaxprs import feeding_callbacks
from jittrainer.grading.sandbox.checks.wording import filled
from jittrainer.i18n.message import Msg

if TYPE_CHECKING:
    from jittrainer.grading.sandbox.checks.context import CheckContext


def fetching(g: CheckContext) -> list[str]:
    """The callbacks (each named once) through which the graded program fetches values from Python at run time."""
    return list(dict.fromkeys(g.feeding_callbacks()))


def refuse_fetching(g: CheckContext, check: str, observation: Msg, advice: Msg | None = None, *,
                    tier: int | None = None, passed: Msg | None = None) -> bool:
    """Fail ``check`` with ``observation`` (its ``{callbacks}`` filled in) when the graded program uses a host
    callback's result; else pass it with ``passed``."""
    found = fetching(g)
    if not found:
        return g.passed(check, passed)
    return g.failed(check, filled(observation, {"callbacks": found}), advice, tier=tier)


def fetching_in(g: CheckContext, call: Any) -> list[str]:
    """Host callbacks whose results one recorded jitted call (a ``JitCall``) uses, read from its program traced
    again, muted, on the call's arguments; empty when it cannot be traced (compiled ahead of time)."""
    trace = getattr(call.fn, "trace", None)
    if trace is None:
        return []
    try:
        with g.recorder.mute():
            return feeding_callbacks(trace(*call.args, **call.kwargs).jaxpr)
    except Exception:
        return []
