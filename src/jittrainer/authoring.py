"""The authoring API: everything an exercise's ``checks.py`` imports, from this one module.

A ``checks.py`` declares its checks and grades with the context ``g`` it is given::

    from jittrainer.authoring import compare, count, msg

    CHECKS = {"runs": "normalize runs under jax.jit", "values": "returns (x - mean) / std", ...}

    def setup(g):            # optional: before the learner's file is imported
        ...

    def grade(g):
        normalize = g.graded(params=1)                  # the learner's function, under jax.jit
        xs = [g.rng.normal(5.0, 1.0, 16).astype("float32") for _ in range(3)]   # inputs first...
        calls = g.calls(normalize, [(x,) for x in xs])  # ...then the counted, captured calls
        g.check_ran("runs", calls)
        if calls.compiles != 1:
            g.failed("one_compile",
                     msg("compiled_often", "{calls} of one shape gave {compiles}; expected 1",
                         calls=count("call", 3), compiles=count("compile", calls.compiles)),
                     msg("compile_once", "jit normalize once, at module level"), tier=2)
        ...

Every message a learner reads is ``msg(key, English template, **params)`` (``msgn`` for a sentence with a plural
form): the key is the message's id in the exercise's catalog (``locale/zh/LC_MESSAGES/messages.po`` in its folder),
so it translates and re-renders in another language. A failure has an **observation** (what happened, which
pitfall it shows: never the code to write) and optionally an **advice** (the code to write), which the learner
sees once they take the hint tier it names, fail the same check often enough, or ask.

This import path and the ``CHECKS`` + ``grade(g)`` convention are stable: an exercise folder written for this
version keeps working.
"""

from __future__ import annotations

from typing import Any

from jittrainer.grading.sandbox.checks.calls import CallRecord, GradedCalls
from jittrainer.grading.sandbox.checks.context import CheckContext, LearnerFailure
from jittrainer.grading.sandbox.checks.jaxprs import (
    CALLBACK_PRIMITIVES,
    feeding_callbacks,
    iter_eqns,
    primitive_names,
)
from jittrainer.grading.sandbox.checks.spies import JitCall, PmapCall, is_compiled, is_jitted
from jittrainer.grading.sandbox.checks.values import compare, concrete_arrays, concrete_float, is_tracer, numbers_in, type_name
from jittrainer.grading.verdict import ErrorInfo
from jittrainer.i18n.message import Msg, count, join

_domain = ""  # the exercise whose checks are loaded; set by the sandbox before it imports checks.py


def use_domain(domain: str) -> None:
    global _domain
    _domain = domain


def msg(key: str, text: str, /, **params: Any) -> Msg:
    """A message of this exercise: ``key`` is its id, ``text`` the English template, ``params`` its values."""
    return Msg(key, text, params, domain=_domain)


def msgn(key: str, singular: str, plural: str, /, *, count: str = "n", **params: Any) -> Msg:
    """A message with a plural form, picked by the parameter named ``count`` (default ``n``)."""
    return Msg(key, singular, params, plural, count, domain=_domain)


__all__ = [
    "CALLBACK_PRIMITIVES",
    "CallRecord",
    "CheckContext",
    "ErrorInfo",
    "GradedCalls",
    "JitCall",
    "LearnerFailure",
    "Msg",
    "PmapCall",
    "compare",
    "concrete_arrays",
    "concrete_float",
    "count",
    "feeding_callbacks",
    "is_compiled",
    "is_jitted",
    "is_tracer",
    "iter_eqns",
    "join",
    "msg",
    "msgn",
    "numbers_in",
    "primitive_names",
    "type_name",
]
