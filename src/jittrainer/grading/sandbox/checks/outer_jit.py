"""Advice for a run that failed on a traced value inside the grader's own jax.jit: when the graded function is not
jitted itself but the file uses jit elsewhere, the grader wraps all of it, so code the learner meant to run on the
host (around an inner jitted function) is traced too, and the usual advice needs that said first."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from jittrainer.grading.sandbox.checks.tracer_errors import tracer_error
from jittrainer.grading.sandbox.checks.wording import filled
from jittrainer.i18n.message import Msg

if TYPE_CHECKING:
    from jittrainer.grading.sandbox.checks.context import CheckContext
    from jittrainer.grading.verdict import ErrorInfo


def outer_jit_advice(g: CheckContext, advice: Callable[[ErrorInfo], Msg | None], wrapped: Msg,
                     *kinds: str) -> Callable[[ErrorInfo], Msg | None]:
    """``advice`` for ``g.check_ran``, or ``wrapped`` (given ``{fix}``, what ``advice`` says) when the grader wrapped
    the learner's outer code in its own jax.jit (``g.wrapped_host_code``, read here: call this before ``g.graded``)
    and the run failed on a traced value (``tracer_error(error, *kinds)``). None where ``advice`` has none::

        advice = outer_jit_advice(g, run_advice, msg("advice.wrapped", "heat itself is not jitted, so the grader "
                                  "wrapped all of it in jax.jit: delta is a tracer in your outer code too. {fix}"))
        heat = g.graded(params=1)
    """
    outer = g.wrapped_host_code

    def said(error: ErrorInfo) -> Msg | None:
        fix = advice(error)
        if fix is not None and outer and tracer_error(error, *kinds):
            return filled(wrapped, {"fix": fix})
        return fix

    return said
